"""The "what fits on my GPU" page: catalog models × common GPUs, computed by the core at build time.

Each cell is what ``kvcalc plan --max-model-len auto`` answers for that model and GPU at vLLM's
defaults (the core's default rules, those of the newest release it knows): the length vLLM's
auto-fit would choose (``_auto_fit_max_model_len`` in ``vllm/v1/core/kv_cache_utils.py``), once
with the model's 16-bit KV cache (``auto``) and once with ``fp8``, at TP 1 or, when the weights do
not fit one GPU, at the smallest tensor-parallel size up to 8 that starts. No arithmetic is done
here: the lengths, the verdict and the band's edges are the core's; this module lays them out.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, replace
from datetime import date
from functools import lru_cache
from urllib.parse import urlencode

from kvcalc import CalcError, catalog, plan
from kvcalc import numfmt as num
from kvcalc.inputs import scenario_from_inputs
from kvcalc.units import GiB
from kvcalc.verdict import Verdict, VerdictStatus
from kvcalc.versions import PINNED_DATE, known_releases

from .sections import page_href
from .strings import t
from .widget import root_prefix

__all__ = ["FIT_GPUS", "FIT_MODELS", "FIT_DTYPES", "Cell", "MatrixFacts", "cell", "matrix_facts", "matrix_html",
           "gpu_anchor"]

#: The GPUs of the matrix, by catalog id: consumer, workstation, data centre, unified memory.
FIT_GPUS: tuple[str, ...] = (
    "RTX-3090", "RTX-4090", "RTX-5090", "RTX-A6000", "L40S", "RTX-PRO-6000",
    "A10", "L4", "A100-80GB", "H100-80GB", "H200", "B200", "GB10",
)

#: Catalog models of the matrix: dense, MoE, MLA, sliding-window and Mamba hybrids, 0.6B to 671B.
FIT_MODELS: tuple[str, ...] = (
    "Qwen/Qwen3-0.6B", "Qwen/Qwen3-4B", "Qwen/Qwen3-8B", "Qwen/Qwen3-14B", "Qwen/Qwen3-32B",
    "Qwen/Qwen3-32B-FP8", "Qwen/Qwen3-32B-AWQ", "Qwen/Qwen3-30B-A3B", "Qwen/Qwen3-30B-A3B-FP8",
    "Qwen/Qwen3-235B-A22B", "Qwen/Qwen2.5-7B-Instruct", "Qwen/Qwen2.5-32B-Instruct", "Qwen/Qwen2.5-72B-Instruct",
    "Qwen/Qwen3-Next-80B-A3B-Instruct", "Qwen/Qwen3.5-27B", "Qwen/Qwen3.6-35B-A3B",
    "meta-llama/Llama-3.2-3B-Instruct", "meta-llama/Llama-3.1-8B-Instruct", "meta-llama/Llama-3.3-70B-Instruct",
    "meta-llama/Llama-4-Scout-17B-16E-Instruct", "mistralai/Mistral-7B-Instruct-v0.3",
    "mistralai/Mistral-Nemo-Base-2407", "mistralai/Mistral-Small-3.1-24B-Instruct-2503", "mistralai/Mixtral-8x7B-v0.1",
    "google/gemma-2-9b-it", "google/gemma-3-4b-it", "google/gemma-3-12b-it", "google/gemma-3-27b-it",
    "openai/gpt-oss-20b", "openai/gpt-oss-120b", "microsoft/phi-4", "deepseek-ai/DeepSeek-V2-Lite-Chat",
    "deepseek-ai/DeepSeek-V3", "zai-org/GLM-4.5-Air", "zai-org/GLM-4.7-Flash",
    "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16",
)

#: The KV cache dtypes of each cell: vLLM's default (the model's 16-bit dtype) and fp8.
FIT_DTYPES: tuple[str, ...] = ("auto", "fp8")

#: Tensor-parallel sizes tried, smallest first, when the weights do not fit one GPU (a GB10 is one
#: box: two linked DGX Spark at most).
_TP_SIZES = (1, 2, 4, 8)
_TP_SIZES_UNIFIED = (1, 2)

#: Statuses in which the weights (or the weights plus runtime memory) leave the KV cache nothing.
_NO_ROOM = (VerdictStatus.WEIGHTS_EXCEED_GPU, VerdictStatus.NO_MEMORY, VerdictStatus.AUTO_FIT_FAILED)


@dataclass(frozen=True, kw_only=True)
class Cell:
    """One model on one GPU with one KV dtype, as the core plans ``--max-model-len auto``."""

    model: str
    gpu: str
    kv_cache_dtype: str
    tensor_parallel_size: int
    status: str
    """The core's ``VerdictStatus`` value at that TP (``fits`` when vLLM starts)."""
    max_model_len: int
    """The auto-fit length (the model's whole context when it fits); meaningful when ``fits``."""
    derived_max_model_len: int
    borderline: bool
    """The answer flips inside the estimate's band (one edge starts, the other does not)."""
    low_max_model_len: int | None
    """The length at the band's pessimistic edge, None when vLLM does not start there."""
    high_max_model_len: int | None
    mamba_blocks: int | None
    """Mamba cache blocks, when that check is what stops vLLM (``max_num_seqs`` above them)."""

    @property
    def fits(self) -> bool:
        return self.status == VerdictStatus.FITS.value

    def query(self) -> dict[str, str]:
        """The calculator's query string for this scenario (the form's input names)."""
        q = {"model": self.model, "gpu": self.gpu}
        if self.status not in (s.value for s in _NO_ROOM):
            q["max_model_len"] = str(self.max_model_len)
        if self.kv_cache_dtype != "auto":
            q["kv_cache_dtype"] = self.kv_cache_dtype
        if self.tensor_parallel_size > 1:
            q["tensor_parallel_size"] = str(self.tensor_parallel_size)
        return q


def _plan_auto(model: str, gpu: str, dtype: str, tp: int) -> tuple[Verdict, Verdict, Verdict] | None:
    inputs = {"model": model, "gpu": gpu, "max_model_len": "auto", "kv_cache_dtype": dtype,
              "tensor_parallel_size": tp}
    try:
        s = scenario_from_inputs(inputs)
        v = plan(s.model, s.deployment)
    except CalcError:  # this TP does not divide the model's heads, or the dtype is refused
        return None
    if not v.budget.has_band:
        return v, v, v
    return v, plan(s.model, replace(s.deployment, budget_edge="low")), plan(s.model, replace(s.deployment,
                                                                                             budget_edge="high"))


@lru_cache(maxsize=2048)
def cell(model: str, gpu: str, dtype: str) -> Cell:
    """The cell at the smallest TP whose weights fit (TP 1 first); the TP 1 failure when none does."""
    unified = "gb10" in gpu.lower()
    first: tuple[int, tuple[Verdict, Verdict, Verdict]] | None = None
    chosen: tuple[int, tuple[Verdict, Verdict, Verdict]] | None = None
    for tp in _TP_SIZES_UNIFIED if unified else _TP_SIZES:
        planned = _plan_auto(model, gpu, dtype, tp)
        if planned is None:
            continue
        first = first or (tp, planned)
        if planned[0].status not in _NO_ROOM:
            chosen = (tp, planned)
            break
    if chosen is None:
        if first is None:
            raise ValueError(f"what-fits: {model} on {gpu} ({dtype}) cannot be planned at any TP")
        chosen = first
    tp, (v, low, high) = chosen
    edges = {low.fits, high.fits}
    mamba = v.num_gpu_blocks if v.status == VerdictStatus.MAMBA_BLOCKS_BELOW_MAX_NUM_SEQS else None
    return Cell(model=model, gpu=catalog.find_gpu(gpu).id, kv_cache_dtype=dtype, tensor_parallel_size=tp,
                status=v.status.value, max_model_len=v.max_model_len, derived_max_model_len=v.derived_max_model_len,
                borderline=len(edges) == 2, low_max_model_len=low.max_model_len if low.fits else None,
                high_max_model_len=high.max_model_len if high.fits else None, mamba_blocks=mamba)


@dataclass(frozen=True, kw_only=True)
class MatrixFacts:
    """What the page's prose says about the matrix, from the same tuples and the core's release table."""

    models: str
    gpus: str
    rules_date: str
    newest_release: str


def matrix_facts(lang: str) -> MatrixFacts:
    """The counts, the date of the core's default rules and the newest release it knows."""
    newest = known_releases()[-1][0]
    return MatrixFacts(models=num.fmt_int(len(FIT_MODELS), lang), gpus=num.fmt_int(len(FIT_GPUS), lang),
                       rules_date=_date(lang, PINNED_DATE), newest_release=newest)


_MONTHS = {"en": ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
                  "November", "December"),
           "es": ("enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre",
                  "noviembre", "diciembre")}


def _date(lang: str, d: date) -> str:
    """A date as each language writes it in prose."""
    if lang == "zh":
        return f"{d.year} 年 {d.month} 月 {d.day} 日"
    if lang == "es":
        return f"{d.day} de {_MONTHS['es'][d.month - 1]} de {d.year}"
    return f"{d.day} {_MONTHS['en'][d.month - 1]} {d.year}"


def gpu_anchor(gpu_id: str) -> str:
    """The GPU's stable section id on the page (``rtx-4090``, ``h100-80gb``)."""
    return gpu_id.lower()


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _dtype_label(lang: str, dtype: str) -> str:
    return t(lang, "fits.dtype_16bit") if dtype == "auto" else "fp8"


def _cell_line(lang: str, c: Cell, calc_href: str) -> str:
    """One dtype's line of a cell: the length (a link into the calculator) or why vLLM does not start."""
    page, _, anchor = calc_href.partition("#")
    href = f"{page}?{urlencode(c.query())}#{anchor}"
    tp = f'<span class="kvfit-tp">TP {c.tensor_parallel_size}</span> ' if c.tensor_parallel_size > 1 else ""
    if c.status == VerdictStatus.WEIGHTS_EXCEED_GPU.value:
        text, kind = t(lang, "fits.weights"), "weights"
    elif c.status in (VerdictStatus.NO_MEMORY.value, VerdictStatus.AUTO_FIT_FAILED.value):
        text, kind = t(lang, "fits.no_room"), "weights"
    elif c.mamba_blocks is not None:
        text = t(lang, "fits.mamba", length=num.fmt_int(c.max_model_len, lang), blocks=num.fmt_int(c.mamba_blocks, lang))
        kind = "mamba"
    else:
        text, kind = num.fmt_int(c.max_model_len, lang), "full" if c.max_model_len >= c.derived_max_model_len else "fits"
    band = ""
    if c.borderline and c.high_max_model_len:  # the optimistic edge starts (it always does when the centre does)
        high = num.fmt_int(c.high_max_model_len, lang)
        text_band = (t(lang, "fits.band", low=num.fmt_int(c.low_max_model_len, lang), high=high)
                     if c.low_max_model_len else t(lang, "fits.band_low_fails", high=high))
        band = f' <span class="kvfit-band">{_e(text_band)}</span>'
    return (f'<span class="kvfit-line" data-kvfit-dtype="{_e(c.kv_cache_dtype)}">'
            f'<span class="kvfit-dt">{_e(_dtype_label(lang, c.kv_cache_dtype))}</span> {tp}'
            f'<a href="{_e(href)}" data-kvfit-kind="{kind}">{_e(text)}</a>{band}</span>')


def _gpu_label(lang: str, gpu_id: str) -> str:
    g = catalog.find_gpu(gpu_id)
    return f"{g.id} · {num.fmt_fixed(g.memory_bytes / GiB, 1, lang)} GiB"


def matrix_html(lang: str, *, page_url: str) -> str:
    """The filter and the table (raw HTML, out of the search index); cells link into the calculator."""
    calc_href = page_href(page_url, lang, "calculator") + "#calculator"
    gpus = list(FIT_GPUS)
    chips = "".join(
        f'<label class="kvfit-chip"><input type="checkbox" value="{_e(g)}" data-kvfit-filter checked> '
        f'{_e(g)}</label>' for g in gpus)
    head = "".join(f'<th scope="col" id="{gpu_anchor(g)}" data-kvfit-gpu="{_e(g)}">{_e(_gpu_label(lang, g))}</th>'
                   for g in gpus)
    rows = []
    for model in FIT_MODELS:
        derived = cell(model, gpus[0], "auto").derived_max_model_len
        cells = []
        for g in gpus:
            lines = "".join(_cell_line(lang, cell(model, g, d), calc_href) for d in FIT_DTYPES)
            cells.append(f'<td data-kvfit-gpu="{_e(g)}" data-label="{_e(_gpu_label(lang, g))}">{lines}</td>')
        rows.append(f'<tr data-kvfit-model="{_e(model)}"><th scope="row"><code>{_e(model)}</code>'
                    f'<span class="kvfit-ctx">{_e(t(lang, "fits.context", length=num.fmt_int(derived, lang)))}'
                    f'</span></th>{"".join(cells)}</tr>')
    script = root_prefix(page_url) + "javascripts/what-fits.js"
    return (
        f'<div class="kvfit" data-kvfit data-search-exclude markdown="0">'
        f'<script type="module" src="{_e(script)}"></script>'
        f'<fieldset class="kvfit-filter"><legend>{_e(t(lang, "fits.filter"))}</legend>{chips}'
        f'<button type="button" class="kvfit-all" data-kvfit-all>{_e(t(lang, "fits.all"))}</button>'
        f'<button type="button" class="kvfit-all" data-kvfit-none>{_e(t(lang, "fits.none"))}</button></fieldset>'
        f'<div class="kvfit-scroll" role="region" tabindex="0" aria-label="{_e(t(lang, "fits.caption"))}">'
        f'<table class="kvfit-table"><caption>{_e(t(lang, "fits.caption"))}</caption>'
        f'<thead><tr><th scope="col">{_e(t(lang, "fits.model"))}</th>{head}</tr></thead>'
        f'<tbody>{"".join(rows)}</tbody></table></div></div>'
    )
