"""``--interconnect``: a GPU given by its memory only does not say how the GPUs are joined, which sizes the
non-torch memory at TP > 1. Without it the budget assumes NVSwitch, says so, and its band holds the figure of
each interconnect (each computed here as the reader would, with ``--interconnect`` set).

Where the figures differ (calc/budget/estimates.py, each from public logs): non-torch memory per GPU at TP 2 is
2.08 GiB on NVSwitch parts (the 0.19 H100 TP 2 logs print 2.07-2.10 GiB) and 0.09 GiB over PCIe from 0.11.0
(the 4x A30 0.11.1 DEBUG line "non-torch forward increase memory: 0.09GiB"): 2.08 - 0.09 = 1.99 GiB apart.
"""
from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from kvcalc.faces.cli import main
from kvcalc.strings import t
from kvguide_macros import widget
from kvguide_macros.sections import section_pages

REPO = Path(__file__).resolve().parents[1]

GIB = 2 ** 30
PLAN = ["plan", "--model", "Qwen/Qwen3-8B", "--gpu-memory-gib", "95.01", "--tensor-parallel-size", "2",
        "--max-model-len", "32768"]


def _run(argv: list[str]) -> tuple[int, dict[str, object], str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdout=out, stderr=err)
    return code, json.loads(out.getvalue()) if "--json" in argv and out.getvalue() else {}, out.getvalue() + err.getvalue()


def _plan(*extra: str) -> dict[str, object]:
    code, result, text = _run([*PLAN, *extra, "--json"])
    assert code in (0, 1), text
    return result


def test_unknown_interconnect_says_nvswitch_and_its_band_holds_each_figure() -> None:
    unknown = _plan()
    assert unknown["interconnect"] == "unknown" and unknown["interconnect_assumed"] == "nvswitch"
    low, high = int(unknown["available_kv_bytes_low"]), int(unknown["available_kv_bytes_high"])  # type: ignore[call-overload]
    figures = {ic: int(_plan("--interconnect", ic)["available_kv_bytes"])  # type: ignore[call-overload]
               for ic in ("nvswitch", "pcie", "unified")}
    assert unknown["available_kv_bytes"] == figures["nvswitch"]            # the central figure is the one assumed
    for ic, figure in figures.items():
        assert low <= figure <= high, (ic, low / GIB, figure / GIB, high / GIB)
    # only non-torch memory differs between NVSwitch and PCIe: 2.08 - 0.09 = 1.99 GiB (module docstring)
    assert (figures["pcie"] - figures["nvswitch"]) / GIB == pytest.approx(1.99, abs=0.005)


def test_a_given_interconnect_is_not_assumed() -> None:
    for ic in ("nvswitch", "pcie", "unified"):
        result = _plan("--interconnect", ic)
        assert result["interconnect"] == ic and result["interconnect_assumed"] is None


def test_the_memory_of_a_pcie_catalog_card_with_pcie_is_that_card() -> None:
    # RTX PRO 6000 Blackwell: 94.97 GiB as CUDA reports it (catalog), no NVLink: the same budget to the byte
    by_memory = _run(["plan", "--model", "Qwen/Qwen3-8B", "--gpu-memory-gib", "94.97", "--tensor-parallel-size", "2",
                      "--interconnect", "pcie", "--json"])[1]
    by_name = _run(["plan", "--model", "Qwen/Qwen3-8B", "--gpu", "RTX-PRO-6000", "--tensor-parallel-size", "2",
                    "--json"])[1]
    assert by_name["interconnect_assumed"] is None
    assert by_memory["available_kv_bytes"] == by_name["available_kv_bytes"]


@pytest.mark.parametrize("lang", ["en", "es", "zh"])
def test_the_text_report_names_the_assumption_in_each_language(lang: str) -> None:
    code, _, text = _run([*PLAN, "--lang", lang])
    assert code in (0, 1)
    note = t(lang, "note.interconnect_assumed", non_torch="2.08 GiB" if lang != "es" else "2,08 GiB")
    assert note in text
    assert "NVSwitch" in note and "PCIe" in note and "--interconnect" in note
    # given, it is not repeated
    assert "NVSwitch" not in _run([*PLAN, "--lang", lang, "--interconnect", "pcie"])[2]


def test_a_catalog_gpu_assumes_nothing() -> None:
    code, result, _ = _run(["plan", "--model", "Qwen/Qwen3-8B", "--gpu", "H100-80GB", "--tensor-parallel-size", "2",
                            "--json"])
    assert code in (0, 1) and result["interconnect_assumed"] is None


def test_a_bad_interconnect_exits_2_in_one_line() -> None:
    code, _, text = _run([*PLAN, "--interconnect", "nvlink"])
    assert code == 2
    assert len(text.strip().splitlines()) == 1 and "Traceback" not in text


@pytest.mark.parametrize("lang", ["en", "es", "zh"])
def test_the_form_has_the_select_in_the_advanced_panel(lang: str) -> None:
    page = "" if lang == "es" else f"{lang}/"
    html = widget.calculator(lang, "calculator", page_url=f"{page}calculator/",
                             sections=section_pages(REPO / "docs" / lang))
    advanced = html.index('name="interconnect"')
    assert html.rfind("<details", 0, advanced) > html.rfind("</details>", 0, advanced)  # inside a closed panel
    select = html[html.index('name="interconnect"') - 200:html.index('name="interconnect"') + 600]
    for value in ("nvswitch", "pcie", "unified"):
        assert f'<option value="{value}">' in select
    assert '<option value="" selected>' in select
