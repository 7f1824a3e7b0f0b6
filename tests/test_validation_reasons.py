"""The validation page's reasons for the logs left out are shown in the reader's language.

The English is the core's data (calc/data/validation.json); kvguide_macros/validation_reasons.py holds the
Spanish and Chinese of exactly that English, so a reason changed in the data without its translations fails here.
"""

from __future__ import annotations

import re

import pytest

from kvcalc.budget.validation import excluded_logs
from kvguide_macros.validation import excluded_table
from kvguide_macros.validation_reasons import REASONS, reason

CJK = re.compile(r"[\u4e00-\u9fff]")


def test_every_reason_has_a_translation_of_its_current_english() -> None:
    for file, english in excluded_logs():
        assert file in REASONS, f"{file}: no translation of its reason"
        en, es, zh = REASONS[file]
        assert en == english, f"{file}: the data's reason changed; update its translations"
        assert es and es != en and CJK.search(zh), file
    assert set(REASONS) == {f for f, _ in excluded_logs()}


@pytest.mark.parametrize("lang", ["es", "zh"])
def test_the_excluded_table_is_in_the_pages_language(lang: str) -> None:
    table = excluded_table(lang)
    for file, english in excluded_logs():
        assert english not in table or english == reason(lang, file, english)
        assert reason(lang, file, english) in table
    if lang == "zh":
        rows = [line for line in table.splitlines()[2:]]
        assert all(CJK.search(row.split(" | ", 1)[1]) for row in rows)


def test_english_stays_the_datas() -> None:
    table = excluded_table("en")
    for _, english in excluded_logs():
        assert english in table
