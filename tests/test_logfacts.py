"""The log's facts as ``kvcalc log`` shows them (``kvcalc.logs.logfacts``): every key the log reader can produce
has a label in es, zh and en, and values read as each language writes numbers."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from kvcalc.logs import logparse
from kvcalc.logs.logfacts import FACT_LABELS, fact_rows, fact_value
from kvcalc.logs.logparse import FACT_KEYS, parse_log
from kvcalc.strings import LANGS, t

CALC = Path(__file__).resolve().parents[1] / "calc"
LOGS = Path(__file__).parent / "data" / "logs"


def _keys_in_source() -> set[str]:
    """Every fact key logparse.py names: the first argument of ``put``, the keys ``_put_figures`` is given,
    the values of its key tables (``_ENGINE_KEYS``, ``_ARG_KEYS``, ``_FLAGS``, ``_BOOL_FLAGS``, ``_KEYVAL_FACTS``)
    and the groups of the "Defaulting ..." line."""
    tree = ast.parse((CALC / "logs" / "logparse.py").read_text(encoding="utf-8"))
    keys: set[str] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        first = node.args[0] if node.args else None
        if isinstance(node.func, ast.Attribute) and node.func.attr == "put" and isinstance(first, ast.Constant) \
                and isinstance(first.value, str):
            keys.add(first.value)
        if isinstance(node.func, ast.Name) and node.func.id == "_put_figures":
            keys.update(a.value for a in node.args[3:] if isinstance(a, ast.Constant) and isinstance(a.value, str))
    for table in (logparse._ENGINE_KEYS, logparse._ARG_KEYS, logparse._FLAGS, logparse._KEYVAL_FACTS):
        keys.update(table.values())
    keys.update(key for key, _value in logparse._BOOL_FLAGS.values())
    keys.update(("max_num_batched_tokens", "max_num_seqs", "enable_prefix_caching"))  # _DEFAULTING, engine line
    return keys


def test_fact_keys_cover_every_key_the_reader_names() -> None:
    assert _keys_in_source() <= set(FACT_KEYS)
    assert len(FACT_KEYS) == len(set(FACT_KEYS))


def test_every_real_log_yields_only_listed_keys() -> None:
    seen: set[str] = set()
    for path in sorted(LOGS.glob("*.log")):
        seen |= set(parse_log(path.read_text(encoding="utf-8", errors="replace")).facts)
    assert seen <= set(FACT_KEYS), seen - set(FACT_KEYS)


@pytest.mark.parametrize("lang", LANGS)
def test_every_fact_key_has_a_label(lang: str) -> None:
    assert set(FACT_LABELS) == set(FACT_KEYS)
    labels = {key: t(lang, FACT_LABELS[key]) for key in FACT_KEYS}
    assert all(label and label != FACT_LABELS[key] for key, label in labels.items())
    # one label, one quantity: no two facts read alike
    assert len(set(labels.values())) == len(labels)


@pytest.mark.parametrize(("key", "value", "lang", "text"), [
    # numbers keep the decimals the log printed, in the reader's notation (numfmt: "," and a narrow no-break
    # space in Spanish, grouping from 10,000 up)
    ("available_kv_gib", 58.11, "es", "58,11 GiB"),
    ("available_kv_gib", 4.0, "en", "4.0 GiB"),
    ("gpu_kv_cache_tokens", 476016, "es", "476\u202f016 tokens"),
    ("gpu_kv_cache_tokens", 476016, "zh", "476,016 个 token"),
    ("max_num_seqs", 1024, "es", "1024"),
    ("max_concurrency", 58.11, "es", "58,11x"),
    ("enable_prefix_caching", False, "es", "no"),
    ("enforce_eager", True, "es", "sí"),
    ("enforce_eager", True, "zh", "是"),
    ("oom_tried_to_allocate_mib", 1536.0, "en", "1,536.0 MiB"),
    # 61,258,029,056 B / 2^30 = 57.0507… GiB
    ("suggested_kv_cache_memory_bytes", 61258029056, "en", "61,258,029,056 B (57.05 GiB)"),
    ("model", "meta-llama/Llama-3.1-8B-Instruct", "es", "meta-llama/Llama-3.1-8B-Instruct"),
])
def test_fact_values(key: str, value: object, lang: str, text: str) -> None:
    assert fact_value(key, value, lang) == text


def test_rows_follow_fact_keys_order_and_name_engine_flags() -> None:
    rows = fact_rows("en", {"gpu_kv_cache_tokens": 16, "available_kv_gib": 1.5, "max_model_len": 1024,
                            "vllm_version": "0.19.0"})
    assert [r.key for r in rows] == ["vllm_version", "max_model_len", "available_kv_gib", "gpu_kv_cache_tokens"]
    assert [r.flag for r in rows] == ["", "--max-model-len", "", ""]
