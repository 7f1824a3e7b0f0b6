"""The guide's build-time macros (mkdocs-macros ``module_name: kvguide_macros``).

Every figure the prose quotes comes from the ``kvcalc`` core through these
macros, so the text and the calculator can never disagree. The macros are thin
wrappers: they add the page's language and delegate; no arithmetic here.

The language is read at call time from ``env.conf["theme"]["language"]``:
mkdocs-static-i18n re-runs the whole build once per language and sets it to
``es``, ``zh`` or ``en`` for each pass.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

__all__ = ["define_env", "page_language"]

_REPO_ROOT = Path(__file__).resolve().parent.parent


def _kvcalc_tables() -> ModuleType:
    """Return ``kvcalc.tables``, from the installed package or this checkout.

    ``pip install -e .`` is the normal set-up; loading ``calc/`` directly keeps
    ``mkdocs build`` working in an environment with only the docs extras.
    """
    try:
        return importlib.import_module("kvcalc.tables")
    except ModuleNotFoundError as exc:
        if exc.name not in ("kvcalc", "kvcalc.tables"):
            raise
        init = _REPO_ROOT / "calc" / "__init__.py"
        if exc.name == "kvcalc.tables" or not init.is_file():
            raise ModuleNotFoundError(
                "kvguide macros need the kvcalc core (calc/ with tables.py): "
                "run `make venv` or `.venv/bin/pip install -e .`"
            ) from exc
    spec = importlib.util.spec_from_file_location(
        "kvcalc", init, submodule_search_locations=[str(init.parent)]
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["kvcalc"] = module
    spec.loader.exec_module(module)
    return importlib.import_module("kvcalc.tables")


def _widget() -> ModuleType:
    """Return ``kvguide_macros.widget`` (the calculator engineer's module)."""
    try:
        return importlib.import_module("kvguide_macros.widget")
    except ModuleNotFoundError as exc:
        if exc.name != "kvguide_macros.widget":
            raise
        raise ModuleNotFoundError(
            "the calculator() macro needs kvguide_macros/widget.py "
            "(defining calculator(lang, **kwargs) -> str), which is missing"
        ) from exc


def page_language(env: Any) -> str:
    """The language of the build pass now running: ``es``, ``zh`` or ``en``."""
    return str(env.conf["theme"]["language"])


def define_env(env: Any) -> None:
    """Register the guide's macros with mkdocs-macros."""

    @env.macro
    def plan(**inputs: Any) -> Any:
        """Formatted figures of one scenario: ``{{ plan(model=…, gpu=…).needed_kv_gib }}``."""
        return _kvcalc_tables().plan_figures(page_language(env), **inputs)

    @env.macro
    def vllm_lines(**inputs: Any) -> str:
        """A fenced ``text`` block with the lines vLLM would print for a scenario."""
        return _kvcalc_tables().vllm_lines(page_language(env), **inputs)

    @env.macro
    def kv_bytes_table() -> str:
        """Markdown table: KV bytes per token for the catalog's models."""
        return _kvcalc_tables().kv_bytes_table(page_language(env))

    @env.macro
    def starting_point_table() -> str:
        """Markdown table: starting max_model_len / max_num_seqs by model class and GPU."""
        return _kvcalc_tables().starting_point_table(page_language(env))

    @env.macro
    def concurrency_table(**inputs: Any) -> str:
        """Markdown table: maximum concurrency by context length."""
        return _kvcalc_tables().concurrency_table(page_language(env), **inputs)

    @env.macro
    def calculator(**kwargs: Any) -> str:
        """The interactive calculator widget (HTML), rendered by ``widget.calculator``.

        ``page_url`` (MkDocs' ``page.url``) lets the widget write relative asset
        and guide links, so the site works under any sub-path.
        """
        page = getattr(env, "page", None)
        if page is not None:
            kwargs.setdefault("page_url", page.url)
        return _widget().calculator(page_language(env), **kwargs)
