"""The site's es/zh/en string table (``kvguide_macros.strings``): the same keys and
the same format fields in every language, real translations, and the split from
the core's table (``kvcalc.strings``): what only the site says lives here."""

from __future__ import annotations

import re
import string

import pytest

from kvcalc.strings import STRINGS as CORE_STRINGS
from kvcalc.strings import lang_or_default
from kvguide_macros.strings import LANGS, STRINGS, t

EN = STRINGS["en"]
CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")
#: Key families only the site says: the widget's labels, the guide tables, the permalinks.
SITE_PREFIXES = ("widget.", "table.", "arch.", "permalink.", "validation.", "search.", "fits.")
#: Site-prefixed keys the core's report still uses (none: the core has its own feasible.* and rec.result.label).
CORE_STILL_USES: set[str] = set()


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def test_languages() -> None:
    assert set(LANGS) == set(STRINGS) == set(CORE_STRINGS) == {"es", "zh", "en"}


def signature(table: dict[str, str]) -> dict[str, set[str]]:
    """Each key with the format fields its text uses."""
    return {key: fields(text) for key, text in table.items()}


@pytest.mark.parametrize("lang", ["es", "zh"])
def test_same_keys_and_fields_as_english(lang: str) -> None:
    assert signature(STRINGS[lang]) == signature(EN)


def test_no_empty_string() -> None:
    assert [(lang, k) for lang, table in STRINGS.items() for k, v in table.items() if not v.strip()] == []


def test_zh_sentences_are_translated() -> None:
    # every zh string of more than one word carries Chinese (labels such as "max_num_seqs" stay as they are)
    assert [k for k, v in STRINGS["zh"].items() if len(EN[k].split()) > 1 and not CJK.search(v)] == []


def test_es_sentences_differ_from_en() -> None:
    long_keys = [k for k in EN if len(EN[k].split()) > 3]
    assert len(long_keys) > 20
    assert [k for k in long_keys if STRINGS["es"][k] == EN[k]] == []


def test_only_site_keys_here() -> None:
    assert [k for k in EN if not k.startswith(SITE_PREFIXES)] == []


def test_the_core_keeps_no_site_string() -> None:
    core_site_keys = {k for k in CORE_STRINGS["en"] if k.startswith(SITE_PREFIXES)}
    assert core_site_keys <= CORE_STILL_USES


def test_t_formats_and_falls_back_like_the_core() -> None:
    assert t("es", "permalink.copied") == "Enlace copiado"
    assert t("xx", "permalink.copied") == EN["permalink.copied"]
    assert t("zh", "table.caption.concurrency", model="M", gpu="G").count("M") == 1
    assert [lang_or_default(x) for x in ("es", "zh", "en", "fr", "", None)] == ["es", "zh", "en", "en", "en", "en"]
    with pytest.raises(KeyError):
        t("en", "widget.no_such_label")
