"""The "what fits on my GPU" matrix against the command line.

Every sampled cell must be what ``kvcalc plan --max-model-len auto`` prints for that model, GPU, KV dtype
and tensor-parallel size (the same JSON a reader gets), and a TP above 1 must be the smallest that
starts. The page itself is checked for the size budget and for its links' query strings.
"""

from __future__ import annotations

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


@pytest.mark.parametrize(("model", "gpu", "dtype"), SAMPLE, ids=["|".join(c) for c in SAMPLE])
def test_a_cell_is_what_kvcalc_plan_prints(model: str, gpu: str, dtype: str) -> None:
    c = what_fits.cell(model, gpu, dtype)
    data = cli_plan("--model", model, "--gpu", gpu, "--max-model-len", "auto", "--kv-cache-dtype", dtype,
                    "--tensor-parallel-size", str(c.tensor_parallel_size))
    assert data["status"] == c.status
    assert data["tensor_parallel_size"] == c.tensor_parallel_size
    if c.fits or c.mamba_blocks is not None:
        assert data["max_model_len"] == c.max_model_len
    if c.mamba_blocks is not None:
        assert data["num_gpu_blocks"] == c.mamba_blocks
    # the link opens the same scenario: planning the link's query at its fixed length gives the same verdict
    q = c.query()
    if "max_model_len" in q:
        again = cli_plan("--model", q["model"], "--gpu", q["gpu"], "--max-model-len", q["max_model_len"],
                         "--kv-cache-dtype", q.get("kv_cache_dtype", "auto"),
                         "--tensor-parallel-size", q.get("tensor_parallel_size", "1"))
        assert again["status"] == c.status and again["max_model_len"] == c.max_model_len


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
