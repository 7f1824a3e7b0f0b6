"""The validation page is computed from the core at build time (CONTRIBUTING.md §8): every validated log appears
with the calculator's own estimate, and the summary repeats the core's figures."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from kvcalc.budget.validation import validation_rows, validation_summary
from kvguide_macros.validation import summary_figures, validation_summary_table, validation_table

LANGS = ("es", "zh", "en")
REPO = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("lang", LANGS)
def test_every_log_of_each_half_is_a_row(lang: str) -> None:
    for split in ("fit", "validation"):
        table = validation_table(lang, split)
        rows = [line for line in table.splitlines()[2:] if line.startswith("| [")]
        assert len(rows) == len(validation_rows(split)) > 0
        for r in validation_rows(split):
            assert f"[{r.file}]({r.source_url})" in table


def test_summary_repeats_the_core_figures() -> None:
    s = validation_summary(validation_rows("validation"))
    table = validation_summary_table("en")
    assert f"| {s.count} | {s.median_abs_error_pct:.2f} % |" in table
    assert summary_figures("en").median == f"{s.median_abs_error_pct:.1f}"
    # Spanish writes the decimal comma
    assert summary_figures("es").median == f"{s.median_abs_error_pct:.1f}".replace(".", ",")


def test_the_page_is_in_every_language_and_linked() -> None:
    for lang in LANGS:
        assert (REPO / "docs" / lang / "validation.md").is_file()
        for page in ("calculator.md", "faq.md", "how-vllm-computes.md"):
            text = (REPO / "docs" / lang / page).read_text(encoding="utf-8")
            assert re.search(r"\(validation\.md#summary\)", text), (lang, page)
