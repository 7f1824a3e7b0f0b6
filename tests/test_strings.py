"""The es/zh/en string table (``kvcalc.strings``): same keys and fields, real
translations, and a string for every code the core can emit."""
from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest

from kvcalc.advice import RecCode
from kvcalc.faces.web import compute
from kvcalc.inputs import scenario_from_inputs
from kvcalc.logs.logparse import DIAGNOSES
from kvcalc.strings import LANGS, STRINGS

CALC = Path(__file__).resolve().parents[1] / "calc"
CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")
EN, ES, ZH = STRINGS["en"], STRINGS["es"], STRINGS["zh"]


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def test_languages() -> None:
    assert set(LANGS) == set(STRINGS) == {"es", "zh", "en"}


@pytest.mark.parametrize("lang", ["es", "zh"])
def test_same_keys(lang: str) -> None:
    assert set(STRINGS[lang]) - set(EN) == set(), "keys only in " + lang
    assert set(EN) - set(STRINGS[lang]) == set(), "keys missing in " + lang


@pytest.mark.parametrize("lang", ["es", "zh"])
def test_same_fields_per_key(lang: str) -> None:
    table = STRINGS[lang]
    diff = {k: (fields(EN[k]), fields(table[k])) for k in EN if k in table and fields(EN[k]) != fields(table[k])}
    assert diff == {}


def test_fields_are_plain_names() -> None:
    # str.format fields must be simple names (no attribute/index access, no positional {}).
    for lang, table in STRINGS.items():
        for key, text in table.items():
            for name in fields(text):
                assert re.fullmatch(r"[a-z_]+", name), (lang, key, name)


def test_no_empty_string() -> None:
    empty = [(lang, k) for lang, table in STRINGS.items() for k, v in table.items() if not isinstance(v, str) or not v.strip()]
    assert empty == []


def test_every_string_formats() -> None:
    for lang, table in STRINGS.items():
        for key, text in table.items():
            rendered = text.format(**{name: "X" for name in fields(text)})
            assert "{" not in rendered.replace("{…}", "") or "{{" in text, (lang, key)


# Non-CJK zh strings are allowed only when made of identifiers, flags, acronyms and fields.
_IDENTIFIER_TOKEN = re.compile(r"--[a-z0-9-]+|[a-z0-9]+(?:_[a-z0-9]+)+|[A-Z0-9]{2,}|x|Graph")


def test_zh_strings_contain_cjk() -> None:
    untranslated = {}
    for key, text in ZH.items():
        if CJK.search(text):
            continue
        rest = re.sub(r"\{[a-z_]+\}", " ", text)
        tokens = re.findall(r"[^\s()（），,:：]+", rest)
        if not all(_IDENTIFIER_TOKEN.fullmatch(tok) for tok in tokens):
            untranslated[key] = text
    assert untranslated == {}


def test_zh_sentences_are_not_english() -> None:
    assert [k for k in EN if len(EN[k].split()) > 3 and ZH[k] == EN[k]] == []


def test_es_sentences_differ_from_en() -> None:
    # Every English string longer than five words has a Spanish text of its own.
    long_keys = [k for k in EN if len(EN[k].split()) > 5]
    assert len(long_keys) > 50  # the table is mostly sentences; this check covers them all
    same = [k for k in long_keys if ES[k] == EN[k]]
    assert same == []


def test_es_uses_spanish_words() -> None:
    # A spot check that the Spanish column is Spanish: common function words appear often.
    long_keys = [k for k in EN if len(EN[k].split()) > 5]
    spanish = [k for k in long_keys if re.search(r"\b(el|la|los|las|de|que|en|una|un|para|con|no)\b", ES[k])]
    assert len(spanish) >= 0.9 * len(long_keys), set(long_keys) - set(spanish)


# --- a string for every code the core can emit ------------------------------------------

def _advice_codes() -> set[str]:
    return {str(code) for code in RecCode}


def _calc_error_codes() -> set[str]:
    codes: set[str] = set()
    for path in CALC.rglob("*.py"):
        codes |= set(re.findall(r'CalcError\(\s*"([a-z0-9_]+)"', path.read_text(encoding="utf-8")))
    return codes


def test_source_scan_finds_codes() -> None:
    # guards the two scans below against a regex that silently matches nothing
    assert {"lower_max_model_len", "fp8_kv_cache", "quantize_weights", "free_the_gpu"} <= _advice_codes()
    assert {"not_an_integer", "binary_suffix_decimal", "tp_not_divisor", "config_not_json"} <= _calc_error_codes()


@pytest.mark.parametrize("lang", ["es", "zh", "en"])
def test_every_recommendation_code_has_title_and_detail(lang: str) -> None:
    table = STRINGS[lang]
    missing = sorted(f"rec.{c}.{part}" for c in _advice_codes() for part in ("title", "detail")
                     if f"rec.{c}.{part}" not in table)
    assert missing == []


@pytest.mark.parametrize("lang", ["es", "zh", "en"])
def test_every_calc_error_code_has_a_string(lang: str) -> None:
    table = STRINGS[lang]
    missing = sorted(f"err.{c}" for c in _calc_error_codes() if f"err.{c}" not in table)
    assert missing == []


def test_internal_error_string() -> None:
    for table in STRINGS.values():
        assert table["err.internal"]


@pytest.mark.parametrize("lang", ["es", "zh", "en"])
def test_every_diagnosis_has_a_title(lang: str) -> None:
    missing = [d for d in DIAGNOSES if f"diag.{d}" not in STRINGS[lang]]
    assert missing == []


# The fields report.error_message fills (report.py): an err.* string using any other
# field cannot be rendered and silently falls back to English.
_ERROR_FIELDS = {"field", "value", "minimum", "maximum", "limit", "key", "choices", "model_type", "line", "column",
                 "assertion"}


def test_error_strings_use_known_fields() -> None:
    bad = {(lang, k): fields(v) - _ERROR_FIELDS for lang, table in STRINGS.items() for k, v in table.items()
           if k.startswith("err.") and fields(v) - _ERROR_FIELDS}
    assert bad == {}


ERROR_INPUTS = [
    {"model": "Qwen/Qwen3-8B", "gpu": "L4", "max_model_len": "abc"},
    {"model": "Qwen/Qwen3-8B", "gpu": "L4", "max_model_len": "1.5K"},
    {"model": "Qwen/Qwen3-8B", "gpu": "L4", "max_num_seqs": "0"},
    {"model": "Qwen/Qwen3-8B", "gpu": "L4", "gpu_memory_utilization": "x"},
    {"model": "Qwen/Qwen3-8B", "gpu": "L4", "enforce_eager": "maybe"},
    {"model": "Qwen/Qwen3-8B", "gpu": "L4", "block_size": "24"},
    {"model": "Qwen/Qwen3-8B", "gpu": "L4", "tensor_parallel_size": "3"},
    {"model": "Qwen/Qwen3-8B", "gpu": "L4", "vllm_version": "banana"},
    {"model": "Qwen/Qwen3-8B", "gpu": "L4", "max_model_len": "999999"},
    {"model": "Qwen/Qwen3-8B", "gpu": "L4", "max_model_len": "auto", "vllm_version": "0.10.1"},
    {"model": "Qwen/Qwen3-8B", "gpu": "L4", "colour": "red"},
    {"model": "acme/Nope", "gpu": "L4"},
    {"model": "Qwen/Qwen3-8B", "gpu": "GTX-480"},
    {"model": "Qwen/Qwen3-8B"},
    {"gpu": "L4"},
    {"config": "{oops", "gpu": "L4"},
    {"config": "[]", "gpu": "L4"},
    {"config": json.dumps({"model_type": "llama"}), "gpu": "L4"},
    {"config": json.dumps({"model_type": "llama", "num_hidden_layers": "x"}), "gpu": "L4"},
    {"config": json.dumps({"model_type": "zamba2", "num_hidden_layers": 4}), "gpu": "L4"},
]


@pytest.mark.parametrize("inputs", ERROR_INPUTS, ids=lambda d: ",".join(f"{k}={v}" for k, v in d.items())[:60])
def test_errors_render_in_each_language(inputs: dict) -> None:
    messages = {}
    for lang in ("es", "zh", "en"):
        response = json.loads(compute(json.dumps({"action": "plan", "lang": lang, "inputs": inputs})))
        assert response["ok"] is False
        err = response["errors"][0]
        assert err["code"] != "internal"
        messages[lang] = err["message"]
    assert f"err.{err['code']}" in EN
    assert messages["es"] != messages["en"], messages
    assert CJK.search(messages["zh"]), messages
    assert "{" not in messages["en"] or "{…}" in messages["en"]


def test_recommendations_render_in_each_language() -> None:
    # Three ladders: KV too small (Qwen3-8B at 40,960 on a 24 GB card), weights do not fit (70B on 24 GB)
    # and a larger GPU found (Qwen3-32B bf16 on 24 GB).
    scenarios = [{"model": "Qwen/Qwen3-8B", "gpu": "RTX-4090"},
                 {"model": "meta-llama/Llama-3.1-70B-Instruct", "gpu": "RTX-4090"},
                 {"model": "Qwen/Qwen3-32B", "gpu": "RTX-4090"}]
    seen: set[str] = set()
    for inputs in scenarios:
        scenario_from_inputs(inputs)  # valid input
        titles = {}
        for lang in ("es", "zh", "en"):
            response = json.loads(compute(json.dumps({"action": "plan", "lang": lang, "inputs": inputs})))
            assert response["ok"] is True, response
            titles[lang] = [r["title"] for r in response["report"]["recommendations"]]
            seen |= {r["code"] for r in response["report"]["recommendations"]}
            assert all(titles[lang]) and "{" not in "".join(titles[lang])
        assert titles["es"] != titles["en"] and titles["zh"] != titles["en"]
    assert len(seen) >= 6
