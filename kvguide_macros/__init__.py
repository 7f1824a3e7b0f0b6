"""The guide's build-time macros (mkdocs-macros ``module_name: kvguide_macros``).

The site's half of the project: the guide's tables (``tables``), the
calculator widget (``widget``, ``results``), which page holds which section
(``sections``) and what only the site says (``strings``). Every figure the
prose quotes comes from the ``kvcalc`` core through these, so the text and the
calculator can never disagree; the macros add the page's language and delegate.

The language is read at call time from ``env.conf["theme"]["language"]``:
mkdocs-static-i18n re-runs the whole build once per language and sets it to
``es``, ``zh`` or ``en`` for each pass.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

__all__ = ["define_env", "page_language"]

_REPO_ROOT = Path(__file__).resolve().parent.parent


def _ensure_core() -> None:
    """Make ``kvcalc`` importable: the installed package, or ``calc/`` of this checkout.

    ``pip install -e .`` is the normal set-up; loading ``calc/`` directly keeps
    ``mkdocs build`` working in an environment with only the docs extras.
    """
    if "kvcalc" in sys.modules or importlib.util.find_spec("kvcalc") is not None:
        return
    init = _REPO_ROOT / "calc" / "__init__.py"
    if not init.is_file():
        raise ModuleNotFoundError("kvguide macros need the kvcalc core: run `make venv` or `.venv/bin/pip install -e .`")
    spec = importlib.util.spec_from_file_location("kvcalc", init, submodule_search_locations=[str(init.parent)])
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["kvcalc"] = module
    spec.loader.exec_module(module)


_ensure_core()


def page_language(env: Any) -> str:
    """The language of the build pass now running: ``es``, ``zh`` or ``en``."""
    return str(env.conf["theme"]["language"])


_Macro = TypeVar("_Macro", bound=Callable[..., Any])


def _registrar(env: Any) -> Callable[[_Macro], _Macro]:
    """``env.macro`` with a type: mkdocs-macros is untyped, so its decorator would erase each macro's."""

    def register(function: _Macro) -> _Macro:
        env.macro(function)
        return function

    return register


def define_env(env: Any) -> None:
    """Register the guide's macros with mkdocs-macros."""
    from . import sections, tables, validation, what_fits, widget

    macro = _registrar(env)

    @macro
    def plan(**inputs: Any) -> Any:
        """Formatted figures of one scenario: ``{{ plan(model=…, gpu=…).needed_kv_gib }}``."""
        return tables.plan_figures(page_language(env), **inputs)

    @macro
    def vllm_lines(**inputs: Any) -> str:
        """A fenced ``text`` block with the lines vLLM would print for a scenario."""
        return tables.vllm_lines(page_language(env), **inputs)

    @macro
    def fixed_budget(**inputs: Any) -> Any:
        """A ``--kv-cache-memory-bytes`` row read at its equivalent utilization: ``{{ fixed_budget(…).starts }}``."""
        return tables.fixed_budget_figures(page_language(env), **inputs)

    @macro
    def vllm_error(**inputs: Any) -> str:
        """A wrapping ``text`` block with vLLM's start-up error, verbatim, for a scenario that fails."""
        return tables.vllm_error(page_language(env), **inputs)

    @macro
    def kv_bytes_table() -> str:
        """Markdown table: KV bytes per token for the catalog's models."""
        return tables.kv_bytes_table(page_language(env))

    @macro
    def starting_point_table() -> str:
        """Markdown table: starting max_model_len / max_num_seqs by model class and GPU."""
        return tables.starting_point_table(page_language(env))

    @macro
    def concurrency_table(**inputs: Any) -> str:
        """Markdown table: maximum concurrency by context length."""
        return tables.concurrency_table(page_language(env), **inputs)

    @macro
    def validation_table(split: str) -> str:
        """Markdown table: the budget estimate against each public log of one half (fit / validation).

        Out of the search index (rows of figures, no prose; the section's heading stays searchable)."""
        return f'<div data-search-exclude markdown="1">\n\n{validation.validation_table(page_language(env), split)}\n\n</div>'


    @macro
    def validation_summary() -> str:
        """Markdown table: median and worst error, over-optimistic and band misses, per half."""
        return validation.validation_summary_table(page_language(env))

    @macro
    def plan_validation() -> Any:
        """Formatted summary figures of the validation half: ``{{ plan_validation().median }}``."""
        return validation.summary_figures(page_language(env))

    @macro
    def validation_heldout() -> str:
        """Markdown table: the estimate against each held-out public log, with the verdict check (out of the index)."""
        return f'<div data-search-exclude markdown="1">\n\n{validation.heldout_table(page_language(env))}\n\n</div>'

    @macro
    def validation_heldout_summary() -> str:
        """Markdown table: the held-out figures, all logs and the consumer / workstation subset."""
        return validation.heldout_summary_table(page_language(env))

    @macro
    def heldout_sentence() -> str:
        """The held-out figures in one sentence, in the page's language."""
        return validation.heldout_sentence(page_language(env))

    @macro
    def heldout_protocol() -> str:
        """How the held-out logs were chosen (date, rule, sources on each side)."""
        return validation.heldout_protocol(page_language(env))

    @macro
    def heldout_misses() -> str:
        """The held-out rows that miss the target and their causes (the closing note)."""
        return validation.heldout_misses(page_language(env))

    @macro
    def validation_term_residuals() -> str:
        """Markdown table: per estimated term, the fit rows printing it and the spread of estimate − logged."""
        return validation.term_residuals_table(page_language(env))

    @macro
    def plan_development() -> Any:
        """Why the validation half is development, not held out.

        ``{{ plan_development().same_source }}``."""
        return validation.development_overlap(page_language(env))

    @macro
    def plan_heldout() -> Any:
        """Formatted held-out figures: ``{{ plan_heldout().median }}``."""
        return validation.heldout_figures(page_language(env))

    @macro
    def validation_excluded() -> str:
        """Markdown table: the public logs read but left out, with the reason."""
        return validation.excluded_table(page_language(env))

    @macro
    def what_fits_matrix() -> str:
        """The "what fits on my GPU" matrix (HTML): models × GPUs, each cell the core's auto-fit length."""
        return what_fits.matrix_html(page_language(env), page_url=env.page.url)

    @macro
    def what_fits_counts() -> Any:
        """The matrix's counts and rules for the prose: ``{{ what_fits_counts().models }}``."""
        return what_fits.matrix_facts(page_language(env))

    @macro
    def what_fits_cell(model: str, gpu: str, kv_cache_dtype: str = "auto") -> Any:
        """One cell of the matrix, for the prose: ``{{ what_fits_cell("Qwen/Qwen3-8B", "RTX-4090").max_model_len }}``."""
        return what_fits.cell(model, gpu, kv_cache_dtype)

    @macro
    def calculator(**kwargs: Any) -> str:
        """The interactive calculator widget (HTML), rendered by ``widget.calculator``.

        It gets the page's URL (for relative links) and the map of the
        language's section ids to their pages, read from ``docs/<lang>/`` now.
        """
        lang = page_language(env)
        return widget.calculator(
            lang, page_url=env.page.url,
            sections=sections.section_pages(Path(env.conf["docs_dir"]) / lang), **kwargs)
