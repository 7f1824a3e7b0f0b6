"""The "what fits on my GPU" matrix against the command line.

Every sampled cell must be what ``kvcalc plan --max-model-len auto`` prints for that model, GPU, KV dtype
and tensor-parallel size (the same JSON a reader gets), and a TP above 1 must be the smallest that
starts. The page itself is checked for the size budget and for its links' query strings.
"""

from __future__ import annotations

import functools
import html
import io
import json
import random
import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from kvcalc import catalog
from kvcalc.faces.cli import main
from kvguide_macros import what_fits

REPO = Path(__file__).resolve().parent.parent
ALL_CELLS = [(m, g, d) for m in what_fits.FIT_MODELS for g in what_fits.FIT_GPUS for d in what_fits.FIT_DTYPES]
SAMPLE = random.Random(2026).sample(ALL_CELLS, 50)


def cli_plan(*args: str) -> dict:
    out, err = io.StringIO(), io.StringIO()
    code = main(["plan", *args, "--json"], stdout=out, stderr=err)
    assert code in (0, 1), err.getvalue()
    data: dict = json.loads(out.getvalue())
    return data


def test_the_matrix_is_at_least_30_models_by_12_gpus_from_the_catalog() -> None:
    assert len(what_fits.FIT_MODELS) >= 30 and len(what_fits.FIT_GPUS) >= 12
    for m in what_fits.FIT_MODELS:
        assert catalog.find_model(m).id == m
    for g in what_fits.FIT_GPUS:
        assert catalog.find_gpu(g).id == g
    for required in ("RTX-3090", "RTX-4090", "RTX-5090", "RTX-PRO-6000", "RTX-A6000", "L40S", "A10", "L4",
                     "A100-80GB", "H100-80GB", "H200", "B200", "GB10"):
        assert required in what_fits.FIT_GPUS


#: Statuses in which the weights, or the weights and the runtime memory, leave the KV cache nothing.
NO_ROOM = ("weights_exceed_gpu", "no_memory", "auto_fit_failed")
_ROW = re.compile(r'<tr data-kvfit-model="([^"]+)">(.*?)</tr>', re.S)
_TD = re.compile(r'<td data-kvfit-gpu="([^"]+)"[^>]*>(.*?)</td>', re.S)
_LINE = re.compile(r'<span class="kvfit-line" data-kvfit-dtype="([^"]+)">(.*?)</span>(?=<span class="kvfit-line"|$)',
                   re.S)
_TP = re.compile(r'<span class="kvfit-tp">TP (\d+)</span>')
_LINK = re.compile(r'<a href="([^"]+)" data-kvfit-kind="([a-z]+)">([^<]*)</a>')
_BAND = re.compile(r'<span class="kvfit-band">([^<]*)</span>')
_NUMBER = re.compile(r"\d[\d,.\u00a0\u202f ]*\d|\d")


@functools.cache
def rendered(lang: str) -> dict[tuple[str, str, str], dict[str, str | int | None]]:
    """The matrix as the page shows it, read back from the macro's HTML: one entry per cell line."""
    page_html = what_fits.matrix_html(lang, page_url=f"{'' if lang == 'es' else lang + '/'}what-fits/")
    out: dict[tuple[str, str, str], dict[str, str | int | None]] = {}
    for model, row in _ROW.findall(page_html):
        for gpu, td in _TD.findall(row):
            for dtype, line in _LINE.findall(td):
                link = _LINK.search(line)
                assert link is not None, (model, gpu, dtype, line)
                tp = _TP.search(line)
                band = _BAND.search(line)
                out[(html.unescape(model), html.unescape(gpu), dtype)] = {
                    "href": html.unescape(link.group(1)), "kind": link.group(2), "text": html.unescape(link.group(3)),
                    "tp": int(tp.group(1)) if tp else 1, "band": html.unescape(band.group(1)) if band else None}
    return out


def figures(text: str) -> list[int]:
    """The integers a cell's text shows, in any of the three locales' grouping (34,928 / 34 928 / 34.928)."""
    return [int(re.sub(r"\D", "", n)) for n in _NUMBER.findall(text)]


def test_the_rendered_matrix_has_every_cell_in_every_language() -> None:
    for lang in ("es", "zh", "en"):
        assert set(rendered(lang)) == set(ALL_CELLS), lang


#: The 50 sampled cells, each read from one language's page (es, zh, en in turn).
SAMPLE_LANG = [(("es", "zh", "en")[i % 3], *c) for i, c in enumerate(SAMPLE)]


@pytest.mark.parametrize(("lang", "model", "gpu", "dtype"), SAMPLE_LANG, ids=["|".join(c) for c in SAMPLE_LANG])
def test_a_rendered_cell_is_what_kvcalc_plan_prints(lang: str, model: str, gpu: str, dtype: str) -> None:
    """The figure, the TP, the kind of answer and the band as the page shows them, against the CLI's JSON."""
    shown = rendered(lang)[(model, gpu, dtype)]
    tp = shown["tp"]
    assert isinstance(tp, int) and isinstance(shown["text"], str) and isinstance(shown["href"], str)
    data = cli_plan("--model", model, "--gpu", gpu, "--max-model-len", "auto", "--kv-cache-dtype", dtype,
                    "--tensor-parallel-size", str(tp))
    assert data["tensor_parallel_size"] == tp
    if shown["kind"] == "weights":
        assert data["status"] in NO_ROOM, data["status"]
    elif shown["kind"] == "mamba":
        # vLLM's Mamba check: max_num_seqs above the state blocks; the cell names the length and the blocks
        assert data["status"] == "mamba_blocks_below_max_num_seqs"
        length, blocks = figures(shown["text"])
        assert (length, blocks) == (data["max_model_len"], data["num_gpu_blocks"])
        assert data["max_num_seqs"] > blocks
    else:
        assert data["status"] == "fits"
        assert figures(shown["text"]) == [data["max_model_len"]]
        # "full": the model's whole context; otherwise auto-fit cut it
        assert (shown["kind"] == "full") == (data["max_model_len"] >= data["derived_max_model_len"])
    # the band is shown exactly where the CLI calls the verdict borderline, its edges around the figure
    assert (shown["band"] is not None) == (data["verdict"] == "borderline"), (shown, data["verdict"])
    if shown["band"] is not None and shown["kind"] != "weights":
        # "low to high", or "may not start; up to high" when the pessimistic edge does not start
        edges = figures(shown["band"])
        assert len(edges) in (1, 2) and edges[-1] >= data["max_model_len"], edges
        if len(edges) == 2:
            assert edges[0] <= data["max_model_len"], edges
    # the link is the calculator's query for this scenario
    parts = urlsplit(shown["href"])
    assert parts.path.endswith("calculator/") and parts.fragment == "calculator"
    q = {k: v[0] for k, v in parse_qs(parts.query).items()}
    expected = {"model": model, "gpu": gpu}
    if data["status"] not in NO_ROOM:
        expected["max_model_len"] = str(data["max_model_len"])
    if dtype != "auto":
        expected["kv_cache_dtype"] = dtype
    if tp > 1:
        expected["tensor_parallel_size"] = str(tp)
    assert q == expected
    # planning the link's query at its fixed length gives the same answer
    if "max_model_len" in q:
        again = cli_plan("--model", model, "--gpu", gpu, "--max-model-len", q["max_model_len"],
                         "--kv-cache-dtype", dtype, "--tensor-parallel-size", str(tp))
        assert again["status"] == data["status"] and again["max_model_len"] == data["max_model_len"]
    # a smaller TP leaves the KV cache no room (or does not divide the model)
    for smaller in (1, 2, 4):
        if smaller >= tp:
            break
        out, err = io.StringIO(), io.StringIO()
        code = main(["plan", "--model", model, "--gpu", gpu, "--max-model-len", "auto", "--kv-cache-dtype", dtype,
                     "--tensor-parallel-size", str(smaller), "--json"], stdout=out, stderr=err)
        if code != 2:
            assert json.loads(out.getvalue())["status"] in NO_ROOM, (smaller, tp)


def test_the_sample_covers_every_kind_of_cell() -> None:
    """The 50 cells hold a full context, an auto-fit cut, a TP above 1 and a "weights do not fit"."""
    kinds = {rendered(lang)[(m, g, d)]["kind"] for lang, m, g, d in SAMPLE_LANG}
    tps = {rendered(lang)[(m, g, d)]["tp"] for lang, m, g, d in SAMPLE_LANG}
    assert {"full", "fits", "weights"} <= kinds and max(tps) > 1, (kinds, tps)


@pytest.mark.parametrize(("model", "gpu", "dtype"), SAMPLE[:20], ids=["|".join(c) for c in SAMPLE[:20]])
def test_a_tp_above_one_is_the_smallest_that_leaves_room(model: str, gpu: str, dtype: str) -> None:
    c = what_fits.cell(model, gpu, dtype)
    for tp in (1, 2, 4):
        if tp >= c.tensor_parallel_size:
            break
        out, err = io.StringIO(), io.StringIO()
        code = main(["plan", "--model", model, "--gpu", gpu, "--max-model-len", "auto", "--kv-cache-dtype", dtype,
                     "--tensor-parallel-size", str(tp), "--json"], stdout=out, stderr=err)
        if code == 2:   # this TP does not divide the model
            continue
        assert json.loads(out.getvalue())["status"] in ("weights_exceed_gpu", "no_memory", "auto_fit_failed")


def test_hand_checked_cells() -> None:
    """Two cells against hand arithmetic on the core's own printed budget.

    Qwen3-0.6B (28 layers, 8 KV heads of 128, bf16: 28 × 2 × 8 × 128 × 2 = 114,688 B per token) serves its
    whole 40,960-token context on an H100: 40,960 × 114,688 B = 4.375 GiB, far below the 70 GiB left there.
    phi-4 in bf16 (14.7 billion parameters × 2 B = 29.3 GB = 27.3 GiB) cannot load on one 24 GB RTX 4090.
    """
    small = what_fits.cell("Qwen/Qwen3-0.6B", "H100-80GB", "auto")
    assert small.fits and small.tensor_parallel_size == 1 and small.max_model_len == 40960
    phi = what_fits.cell("microsoft/phi-4", "RTX-4090", "auto")
    assert phi.tensor_parallel_size >= 2


def test_the_built_pages_stay_under_one_megabyte_and_link_into_the_calculator() -> None:
    site = REPO / "site"
    pages = [site / "what-fits" / "index.html", site / "zh" / "what-fits" / "index.html",
             site / "en" / "what-fits" / "index.html"]
    if not all(p.is_file() for p in pages):
        pytest.skip("site not built (make site)")
    for p in pages:
        html = p.read_text(encoding="utf-8")
        assert len(html.encode()) < 1_000_000, p
        hrefs = re.findall(r'data-kvfit-kind="[a-z]+"', html)
        assert len(hrefs) == len(ALL_CELLS)
        for href in re.findall(r'<a href="([^"]+)" data-kvfit-kind', html)[:40]:
            parts = urlsplit(href.replace("&amp;", "&"))
            assert parts.path.endswith("calculator/") and parts.fragment == "calculator"
            assert set(parse_qs(parts.query)) <= {"model", "gpu", "max_model_len", "kv_cache_dtype",
                                                   "tensor_parallel_size"}
