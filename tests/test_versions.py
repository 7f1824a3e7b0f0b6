"""vLLM versions → rule sets (CONTRIBUTING.md §4): PEP 440 with local labels, dev/rc → the last final release."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from kvcalc.errors import CalcError
from kvcalc.versions import ParsedVersion, first_release, parse_version, rules_for

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(("text", "parsed"), [
    ("0.10.1", ParsedVersion(release=(0, 10, 1))),
    ("v0.10", ParsedVersion(release=(0, 10, 0))),                                   # padded to three parts
    ("0.10.1.1", ParsedVersion(release=(0, 10, 1, 1))),                             # four-part release
    ("0.8.5.post1", ParsedVersion(release=(0, 8, 5), post=1)),
    ("0.10.1.2.dev0+gabc", ParsedVersion(release=(0, 10, 1, 2), dev=0, local="gabc")),
    ("0.9.2rc2.dev1802+geb9d4de9e", ParsedVersion(release=(0, 9, 2), pre=("rc", 2), dev=1802, local="geb9d4de9e")),
    ("0.11.0+582e4e37.nv25.11", ParsedVersion(release=(0, 11, 0), local="582e4e37.nv25.11")),
    ("0.15.2rc1.dev93+g1234abc", ParsedVersion(release=(0, 15, 2), pre=("rc", 1), dev=93, local="g1234abc")),
    ("0.10.1+cu128", ParsedVersion(release=(0, 10, 1), local="cu128")),
    ("0.10.1+rocm6.3", ParsedVersion(release=(0, 10, 1), local="rocm6.3")),
    ("0.7.0-RC1", ParsedVersion(release=(0, 7, 0), pre=("rc", 1))),                 # case and separators
])
def test_parse_version(text: str, parsed: ParsedVersion) -> None:
    assert parse_version(text) == parsed


@pytest.mark.parametrize("text", ["banana", "0", "0.", "1!0.1", "0.10.1+", "0.10.1+a..b", "0.10.1 rc", "",
                                  "0.10.1.dev" + "0" * 100_000, "0.1" + "rc" * 50_000])
def test_bad_versions_are_refused(text: str) -> None:
    with pytest.raises(CalcError) as info:
        parse_version(text)
    assert info.value.code == "bad_version" and info.value.field == "vllm_version"


@pytest.mark.parametrize(("text", "rules_of"), [
    ("0.10.1", (0, 10, 1)),
    ("0.10.1.1", (0, 10, 1, 1)),
    ("0.8.5.post1", (0, 8, 5)),                        # post → X.Y.Z
    ("0.11.0+582e4e37.nv25.11", (0, 11, 0)),           # local label → X.Y.Z
    ("0.9.2rc2.dev1802+geb9d4de9e", (0, 9, 1)),        # rc/dev of 0.9.2 → last final before it: 0.9.1
    ("0.15.2rc1.dev93+g1234abc", (0, 15, 1)),          # 0.15.1 is the last final before 0.15.2
    ("0.10.1.2.dev0+gabc", (0, 10, 1, 1)),             # four-part: 0.10.1.1 precedes 0.10.1.2
    ("0.14.0rc1", (0, 13, 0)),                         # the rc of the auto-fit release lacks auto-fit
])
def test_rules_in_force(text: str, rules_of: tuple[int, ...]) -> None:
    assert rules_for(text).version == rules_of


def test_dev_build_misses_the_release_it_precedes() -> None:
    # auto-fit (#29431) first shipped in 0.14.0 (vllm_releases.json): 0.14.0 has it, 0.14.0rc1 does not
    assert rules_for("0.14.0").auto_fit and not rules_for("0.14.0rc1").auto_fit
    assert "rules of 0.13.0" in rules_for("0.14.0rc1").description


def test_older_than_0_6_is_not_modelled() -> None:
    for text in ("0.5.4", "0.6.0rc1", "0.6.0.dev5"):   # a dev/rc of 0.6.0 has no final release before it
        with pytest.raises(CalcError, match="older than 0.6.0") as info:
            rules_for(text)
        assert info.value.code == "version_too_old"


def test_newer_than_the_last_rule_change_gets_the_pinned_rules() -> None:
    assert rules_for("0.40.0").version is None and rules_for("latest").version is None


def test_pr_table_has_one_home() -> None:
    table = json.loads((ROOT / "calc" / "data" / "vllm_releases.json").read_text(encoding="utf-8"))["pr_first_release"]
    assert first_release("v1_default") == (0, 8, 0)
    assert first_release("29431") == tuple(int(x) for x in table["29431"].split("."))
    assert "_FALLBACK" not in (ROOT / "calc" / "versions.py").read_text(encoding="utf-8")


# The multimodal release rules, each at the tags its evidence in data/vllm_releases.json names:
# the boundary release and the one before it (a latest/pinned build has every change).
@pytest.mark.parametrize(("rule", "before", "first"), [
    ("mrope_enlarged_cache", "0.7.1", "0.7.2"),           # commit bf3b79e '[VLM] Qwen2.5-VL'
    ("mm_limit_json", "0.8.4", "0.8.5"),
    ("mm_inputs_in_model_dtype", "0.9.0", "0.9.1"),        # #18862
    ("encoder_items_floor", "0.10.0", "0.10.1"),
    ("skip_mm_profiling", "0.10.0", "0.10.1"),
    ("mm_limit_options", "0.11.0", "0.11.1"),
    ("fused_qwen_vit_rotary", "0.12.0", "0.13.0"),
])
def test_multimodal_rules_start_at_their_release(rule: str, before: str, first: str) -> None:
    assert (getattr(rules_for(before), rule), getattr(rules_for(first), rule), getattr(rules_for(None), rule)) == (
        False, True, True)


@pytest.mark.parametrize(("rule", "releases"), [
    # kept encoder outputs padded to the whole budget in the v0.11.0-v0.11.2 tags, to the item in v0.12.0
    ("encoder_outputs_padded_to_budget", {"0.10.2": False, "0.11.0": True, "0.11.2": True, "0.12.0": False}),
    ("encoder_outputs_padded_to_item", {"0.11.2": False, "0.12.0": True, "0.13.0": False}),
    ("qwen3_vl_video_timestamps", {"0.10.2": False, "0.11.0": True, "0.12.0": True, "0.13.0": False}),
    # the image=2,video=0 form of --limit-mm-per-prompt until 0.10.0 removed it
    ("mm_limit_pairs", {"0.9.2": True, "0.10.0": False}),
    # qkv all-gathered on every TP rank until #28271 (0.11.1); qwen2_vl.py gathers again from v0.13.0
    ("qwen_vit_gathers_qkv", {"0.11.0": True, "0.11.1": False}),
    ("qwen2_vl_gathers_qkv", {"0.11.0": True, "0.11.1": False, "0.12.0": False, "0.13.0": True}),
])
def test_multimodal_rules_that_end(rule: str, releases: dict[str, bool]) -> None:
    assert {v: getattr(rules_for(v), rule) for v in releases} == releases
