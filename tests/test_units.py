"""Byte units and vLLM's number parsing/formatting (``kvcalc.units``).

Every expected value is worked out by hand in the comment next to it, from
vLLM's rules (spec section 1; vllm/engine/arg_utils.py ``human_readable_int``;
vllm/utils/mem_utils.py ``format_gib``).
"""
from __future__ import annotations

import pytest

from kvcalc.errors import CalcError
from kvcalc.units import (
    GB,
    GiB,
    KiB,
    MiB,
    cdiv,
    fmt_int,
    format_gib,
    format_gib_legacy,
    gib_to_bytes,
    parse_float,
    parse_human_int,
    parse_int,
    parse_max_model_len,
)


def test_unit_constants() -> None:
    assert (KiB, MiB, GiB, GB) == (1024, 1_048_576, 1_073_741_824, 1_000_000_000)


@pytest.mark.parametrize(("a", "b", "expected"), [
    (32768, 16, 2048),   # 32768 / 16 = 2048 exactly
    (32769, 16, 2049),   # one token more needs one more block
    (1, 16, 1),          # a single token still takes a block
    (0, 16, 0),
    (40960, 16, 2560),   # 40960 / 16 = 2560
    (131_073, 128, 1025),  # 131072/128 = 1024, +1 token → 1025
])
def test_cdiv(a: int, b: int, expected: int) -> None:
    assert cdiv(a, b) == expected


@pytest.mark.parametrize(("num_bytes", "expected"), [
    (4_831_838_208, "4.5"),        # 2048 blocks × 2,359,296 B = 4,831,838,208 = 4.5 × 2^30 → str(4.5)
    (10 * GiB, "10.0"),            # str(round(10.0, 2)) = "10.0", not "10.00"
    (64_424_509_440, "60.0"),      # 60 × 2^30
    (944_892_805, "0.88"),         # 944,892,805 / 2^30 = 0.8799999… → round 2 → 0.88
    (19_305_309_224, "17.98"),     # 19,305,309,224 / 2^30 = 17.97947… → 17.98
    (GiB // 4, "0.25"),            # 2^28 / 2^30 = 0.25
    (0, "0.0"),
    (-(GiB // 2), "-0.5"),         # negative budgets print with a sign, as vLLM would
])
def test_format_gib_is_vllm_str_round(num_bytes: int, expected: str) -> None:
    assert format_gib(num_bytes) == expected


@pytest.mark.parametrize(("num_bytes", "expected"), [
    (4_831_838_208, "4.50"),  # legacy "%.2f" of 4.5
    (10 * GiB, "10.00"),
    (944_892_805, "0.88"),
])
def test_format_gib_legacy_is_two_decimals(num_bytes: int, expected: str) -> None:
    assert format_gib_legacy(num_bytes) == expected


def test_fmt_int_thousands() -> None:
    assert fmt_int(436_896) == "436,896"
    assert fmt_int(32_768) == "32,768"
    assert fmt_int(999) == "999"


@pytest.mark.parametrize(("gib", "expected"), [
    (60, 64_424_509_440),      # 60 × 1,073,741,824
    (0.5, 536_870_912),        # 2^29
    (58.11, 62_395_137_393),   # 58.11 × 1,073,741,824 = 62,395,137,392.64 → rounds to …393
])
def test_gib_to_bytes(gib: float, expected: int) -> None:
    assert gib_to_bytes(gib) == expected


# --- parse_human_int: vLLM's human_readable_int ------------------------------------------

@pytest.mark.parametrize(("text", "expected"), [
    ("25.6k", 25_600),               # decimal suffix: int(25.6 × 1000) = 25,600
    ("4G", 4 * 1_073_741_824),       # binary suffix: 4 × 2^30 = 4,294,967,296
    ("32k", 32_000),                 # lowercase k = ×1000
    ("32K", 32_768),                 # uppercase K = ×1024
    ("2M", 2_097_152),               # 2 × 2^20
    ("2m", 2_000_000),               # 2 × 10^6
    ("1g", 1_000_000_000),
    ("1T", 1_099_511_627_776),       # 2^40
    ("1t", 10**12),
    ("0.5k", 500),
    ("32768", 32_768),
    ("  32768 ", 32_768),            # surrounding blanks are ignored
    ("-1", -1),
    ("1_000", 1000),
    (32768, 32_768),                 # ints pass through
    (4096.0, 4096),                  # a whole float is an int
])
def test_parse_human_int(text: object, expected: int) -> None:
    assert parse_human_int(text, field="kv_cache_memory_bytes") == expected


@pytest.mark.parametrize("text", ["1.5K", "0.5G", "2.25M", "1.0T"])
def test_parse_human_int_rejects_decimals_with_binary_suffix(text: str) -> None:
    with pytest.raises(CalcError) as info:
        parse_human_int(text, field="kv_cache_memory_bytes")
    assert info.value.code == "binary_suffix_decimal"
    assert info.value.field == "kv_cache_memory_bytes"


@pytest.mark.parametrize("text", ["abc", "", "12x", "k", "1.5", "1e3", "4 G B", "0x10", "--5", True, 2.5, None])
def test_parse_human_int_rejects_garbage(text: object) -> None:
    with pytest.raises(CalcError) as info:
        parse_human_int(text, field="max_num_seqs")
    assert info.value.code == "not_an_integer"
    assert info.value.field == "max_num_seqs"


# --- parse_max_model_len ------------------------------------------------------------------

@pytest.mark.parametrize(("text", "expected"), [
    ("auto", -1), ("AUTO", -1), (" Auto ", -1), ("-1", -1), (-1, -1),
    ("32768", 32_768), ("32k", 32_000), ("32K", 32_768), ("128K", 131_072), (4096, 4096),
])
def test_parse_max_model_len(text: object, expected: int) -> None:
    assert parse_max_model_len(text) == expected


@pytest.mark.parametrize("text", ["0", 0, "-2", -16, "0k"])
def test_parse_max_model_len_rejects_non_positive(text: object) -> None:
    with pytest.raises(CalcError) as info:
        parse_max_model_len(text)
    assert info.value.code == "out_of_range"
    assert info.value.field == "max_model_len"


@pytest.mark.parametrize(("text", "code"), [("long", "not_an_integer"), ("", "not_an_integer"),
                                            ("1.5K", "binary_suffix_decimal")])
def test_parse_max_model_len_bad_text(text: str, code: str) -> None:
    with pytest.raises(CalcError) as info:
        parse_max_model_len(text)
    assert info.value.code == code
    assert info.value.field == "max_model_len"


# --- parse_int / parse_float --------------------------------------------------------------

def test_parse_int_bounds() -> None:
    assert parse_int("8", field="tensor_parallel_size", maximum=1024) == 8
    assert parse_int("1K", field="tensor_parallel_size", maximum=1024) == 1024  # 1 × 1024, at the bound
    for bad in ("0", "1025", "-3"):
        with pytest.raises(CalcError) as info:
            parse_int(bad, field="tensor_parallel_size", maximum=1024)
        assert info.value.code == "out_of_range"
        assert info.value.field == "tensor_parallel_size"


def test_parse_float() -> None:
    assert parse_float("0.9", field="gpu_memory_utilization") == 0.9
    assert parse_float("0,9", field="gpu_memory_utilization") == 0.9  # decimal comma, as typed in es/zh locales
    assert parse_float(" 24 ", field="gpu_memory_gib") == 24.0
    assert parse_float(1, field="gpu_memory_utilization", minimum=0.0, maximum=1.0) == 1.0  # bounds inclusive
    for bad in ("abc", "nan", "inf", "-inf", "", True, None, [1]):
        with pytest.raises(CalcError) as info:
            parse_float(bad, field="gpu_memory_utilization")
        assert info.value.code == "not_a_number", bad
        assert info.value.field == "gpu_memory_utilization"


def test_parse_float_exclusive_minimum() -> None:
    with pytest.raises(CalcError) as info:
        parse_float("0", field="gpu_memory_utilization", minimum=0.0, maximum=1.0, exclusive_minimum=True)
    assert info.value.code == "out_of_range"
    assert parse_float("0", field="weights_gib", minimum=0.0) == 0.0  # inclusive minimum accepts it
    with pytest.raises(CalcError) as info:
        parse_float("1.01", field="gpu_memory_utilization", minimum=0.0, maximum=1.0)
    assert info.value.code == "out_of_range"


# --- one size parser with vLLM's semantics (README "The kvcalc command") -------------------------------------

@pytest.mark.parametrize(("text", "expected"), [
    ("25.6k", 25_600),            # 25.6 × 1000
    ("1.5g", 1_500_000_000),      # 1.5 × 10^9
    ("4G", 4 * 2**30),            # 4 × 1024^3 = 4,294,967,296
    ("32K", 32_768),              # 32 × 1024
    ("2t", 2 * 10**12),
    ("-1", -1),
])
def test_human_sizes(text: str, expected: int) -> None:
    assert parse_human_int(text, field="kv_cache_memory_bytes") == expected


def test_binary_suffix_takes_no_decimals_and_the_log_reader_agrees() -> None:
    from kvcalc.logs.logparse import parse_log

    with pytest.raises(CalcError) as info:
        parse_human_int("1.5G", field="kv_cache_memory_bytes")
    assert info.value.code == "binary_suffix_decimal" and "1.5g" in str(info.value)
    # the log reader uses the same parser: vLLM refuses 1.5G, so the fact is dropped; 25.6k is 25,600
    facts = parse_log("$ vllm serve m --kv-cache-memory 1.5G --max-model-len 25.6k\n").facts
    assert "kv_cache_memory_bytes" not in facts and facts["max_model_len"] == 25_600


@pytest.mark.parametrize("text", ["9" * 41, "1" * 400 + "k", "-4G", "1e400", "0x10", "4 G", "4GB"])
def test_hostile_sizes_refused(text: str) -> None:
    with pytest.raises(CalcError) as info:
        parse_human_int(text, field="max_model_len")
    assert info.value.field == "max_model_len"
    assert info.value.code in ("not_an_integer", "number_too_long")
