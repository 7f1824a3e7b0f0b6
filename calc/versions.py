"""vLLM rule sets: which of the dated rule changes (spec section 13) a release has.

Each change is keyed by the upstream PR that made it and the first release
containing that PR. The one home of that table is ``data/vllm_releases.json``
(``pr_first_release``, from vLLM's release history); ``latest`` (the default) is
vLLM 0.33.0, the newest release read, which has all.

Versions are read as pip and vLLM print them (PEP 440 with local labels):
``0.10.1``, four-part ``0.10.1.1``, ``0.9.2rc2.dev1802+geb9d4de9e``,
``0.11.0+582e4e37.nv25.11``, ``0.15.2rc1.dev93+g1234abc``, ``0.8.5.post1``,
``0.10.1+cu128``. Which rules a version gets:

* a final, post or local build of X.Y.Z (``0.10.1``, ``0.8.5.post1``, ``0.11.0+cu128``)
  → the rules of X.Y.Z;
* a dev or rc build of X.Y.Z (``0.9.2rc2.dev1802+g…``) is built from main before X.Y.Z
  was cut → the rules of the last final release before X.Y.Z (0.9.1 here). A rule whose
  PR merged between that release and the dev build is missed: a deliberately simple,
  documented approximation (README, "Versions");
* before 0.6.0 → ``bad_version`` ("older than 0.6.0, not modelled"); newer than the last
  rule change → the latest rules (those of LATEST_RELEASE, 0.33.0, the default).

The parser is a hand-written scanner (no backtracking regex): linear in the input,
and any version longer than 128 characters is refused before it is scanned.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from typing import Any

from .data_files import read_data
from .errors import CalcError
from .limits import shorten

__all__ = [
    "RuleSet",
    "PINNED_COMMIT",
    "PINNED_DATE",
    "LATEST_RELEASE",
    "ParsedVersion",
    "parse_version",
    "rules_for",
    "known_releases",
    "first_release",
]

PINNED_COMMIT = "6adad08767583f52eb4d2122111af0bf638ed5e6"
PINNED_DATE = date(2026, 8, 14)
"""The vLLM main commit the rules were first read at (a reference); the default is
LATEST_RELEASE."""
LATEST_RELEASE = "0.33.0"
"""The newest release whose rules were read (its PyPI wheel, 2026-11-02): the rules without
--vllm-version."""
_MAX_VERSION_CHARS = 128
_OLDEST = (0, 6, 0)

Version = tuple[int, ...]

_PRE_WORDS = (
    ("preview", "rc"),
    ("alpha", "a"),
    ("beta", "b"),
    ("pre", "rc"),
    ("rc", "rc"),
    ("a", "a"),
    ("b", "b"),
    ("c", "rc"),
)
_DIGITS = "0123456789"
_LOCAL_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789.-_")


@dataclass(frozen=True, kw_only=True)
class ParsedVersion:
    """A PEP 440 version, as far as the rules need it."""

    release: Version
    """``(0, 10, 1, 1)``; at least three parts (``0.10`` → ``(0, 10, 0)``)."""
    pre: tuple[str, int] | None = None
    """``("rc", 2)`` for ``rc2`` (``a``/``b``/``rc``)."""
    post: int | None = None
    """``1`` for ``.post1``; a post build gets its release's rules."""
    dev: int | None = None
    """``1802`` for ``.dev1802``: a dev build of X.Y.Z gets the release before X.Y.Z's rules."""
    local: str | None = None
    """After ``+``: ``g1234abc``, ``cu128``, ``582e4e37.nv25.11``."""

    @property
    def is_prerelease(self) -> bool:
        """Built from main before X.Y.Z was released (dev or rc, and no post)."""
        return self.post is None and (self.pre is not None or self.dev is not None)


def _bad(text: str, why: str = "") -> CalcError:
    v = shorten(text, 40)
    return CalcError(
        "bad_version",
        f"vllm_version must look like 0.10.1, 0.9.2rc1.dev93+gabc or latest, got {v!r}{why}",
        field="vllm_version",
        value=v,
    )


def parse_version(text: str) -> ParsedVersion:
    """Scan ``text`` once, left to right (PEP 440 normal form and its usual spellings).

    Each segment reader starts where the previous one stopped and returns what it read with
    the position after it, so the scan stays one pass; each gets ``text`` as typed, for the
    error message.
    """
    s = text.strip().lower()
    if not s or len(s) > _MAX_VERSION_CHARS:
        raise _bad(text)
    release, i = _release_segment(s, text)
    pre, i = _pre_release(s, i, text)
    post, i = _post_release(s, i, text)
    dev, i = _dev_release(s, i, text)
    local, i = _local_label(s, i, text)
    if i != len(s):
        raise _bad(text)
    return ParsedVersion(release=release, pre=pre, post=post, dev=dev, local=local)


def _number(s: str, i: int, text: str) -> tuple[int, int]:
    """The digits at ``s[i]`` and the position after them; a missing number makes the version
    bad."""
    j = i
    while j < len(s) and s[j] in _DIGITS:
        j += 1
    if j == i:
        raise _bad(text)
    return int(s[i:j]), j


def _after_separator(s: str, i: int) -> int:
    """PEP 440 allows one ``-``, ``_`` or ``.`` before each suffix (``0.10.1.post1``,
    ``0.7.0-rc1``)."""
    return i + 1 if i < len(s) and s[i] in "-_." else i


def _suffix_number(s: str, k: int, text: str) -> tuple[int, int]:
    """The number after a suffix word (``rc2``, ``post-1``, ``dev_3``); an implicit 0 when absent
    (``dev``)."""
    if k < len(s) and s[k] in "-_." and k + 1 < len(s) and s[k + 1] in _DIGITS:
        k += 1
    if k < len(s) and s[k] in _DIGITS:
        return _number(s, k, text)
    return 0, k


def _release_segment(s: str, text: str) -> tuple[Version, int]:
    """``v0.10.1.1`` → ``(0, 10, 1, 1)``; at least ``X.Y`` (vLLM never had a one-part version),
    padded to three parts so ``0.10`` and ``0.10.0`` get the same rules."""
    first, i = _number(s, 1 if s[0] == "v" else 0, text)
    if i < len(s) and s[i] == "!":  # an epoch: vLLM never used one
        raise _bad(text)
    release = [first]
    while i + 1 < len(s) and s[i] == "." and s[i + 1] in _DIGITS:
        part, i = _number(s, i + 1, text)
        release.append(part)
    if len(release) < 2:
        raise _bad(text)
    release += [0] * (3 - len(release))
    return tuple(release), i


def _pre_release(s: str, i: int, text: str) -> tuple[tuple[str, int] | None, int]:
    """``[-_.]?(a|b|rc|alpha|beta|pre|preview|c)[-_.]?N?``: an rc of X.Y.Z is built before X.Y.Z."""
    j = _after_separator(s, i)
    for word, kind in _PRE_WORDS:
        if s.startswith(word, j) and not s.startswith("post", j) and not s.startswith("dev", j):
            num, k = _suffix_number(s, j + len(word), text)
            return (kind, num), k
    return None, i


def _post_release(s: str, i: int, text: str) -> tuple[int | None, int]:
    """``[-_.]?(post|rev|r)[-_.]?N?`` or ``-N``: a rebuild of X.Y.Z (``0.8.5.post1``) keeps its
    rules."""
    j = _after_separator(s, i)
    for word in ("post", "rev"):
        if s.startswith(word, j):
            return _suffix_number(s, j + len(word), text)
    if s.startswith("r", j) and j + 1 < len(s) and s[j + 1] in _DIGITS:
        return _suffix_number(s, j + 1, text)
    if i < len(s) and s[i] == "-" and i + 1 < len(s) and s[i + 1] in _DIGITS:
        return _number(s, i + 1, text)
    return None, i


def _dev_release(s: str, i: int, text: str) -> tuple[int | None, int]:
    """``[-_.]?dev[-_.]?N?``: a nightly built from main (``0.9.2rc2.dev1802``)."""
    j = _after_separator(s, i)
    if s.startswith("dev", j):
        return _suffix_number(s, j + 3, text)
    return None, i


def _local_label(s: str, i: int, text: str) -> tuple[str | None, int]:
    """``+[a-z0-9]+([-_.][a-z0-9]+)*``: the build's own tag (``+cu128``, ``+g1234abc``), the rest of
    the text."""
    if i >= len(s) or s[i] != "+":
        return None, i
    label = s[i + 1 :]
    if (
        not label
        or not _LOCAL_CHARS.issuperset(label)
        or label[0] in "-_."
        or label[-1] in "-_."
        or ".." in label.replace("-", ".").replace("_", ".")
    ):
        raise _bad(text)
    return label, len(s)


def _key(v: str) -> Version:
    return parse_version(v).release


@lru_cache(maxsize=1)
def _table() -> dict[str, Any]:
    """The one release table (calc/data/vllm_releases.json)."""
    table: dict[str, Any] = json.loads(read_data("vllm_releases.json"))
    return table


@lru_cache(maxsize=1)
def known_releases() -> tuple[tuple[str, date], ...]:
    """(version, release date) from the bundled table, sorted by version."""
    rows = []
    for r in _table().get("releases", []):
        d = r.get("release_date") or r.get("code_date")
        if r.get("version") and d:
            rows.append((str(r["version"]).lstrip("v"), date.fromisoformat(str(d))))
    return tuple(sorted(rows, key=lambda vd: (_key(vd[0]), vd[0])))


@lru_cache(maxsize=1)
def _pr_table() -> dict[str, Version]:
    return {pr: _key(v) for pr, v in _table()["pr_first_release"].items()}


def first_release(pr: str) -> Version:
    """The first release containing PR ``pr`` (``data/vllm_releases.json``,
    ``pr_first_release``)."""
    return _pr_table()[pr]


def _last_final_before(release: Version) -> Version | None:
    """The newest final (or post) release in the bundled table older than ``release``."""
    older = [
        p.release
        for v, _ in known_releases()
        if not (p := parse_version(v)).is_prerelease and p.release < release
    ]
    return max(older) if older else None


@dataclass(frozen=True, kw_only=True)
class RuleSet:
    """The behaviours of one vLLM release (``version`` None = the newest release read,
    LATEST_RELEASE, which has every rule change of the table)."""

    label: str
    """How the result names the release ("vLLM 0.33.0")."""
    version: Version | None
    """The release whose rules these are; None: the newest release read."""

    def _has(self, pr: str) -> bool:
        return self.version is None or self.version >= first_release(pr)

    def has(self, rule: str) -> bool:
        """Whether this release has the named cut-off ``rule`` (a PR or rule name of
        ``pr_first_release``): the flag table (vllm_flags.py) names its rows' first releases this
        way."""
        return self._has(rule)

    # engine and planning
    @property
    def v0_engine(self) -> bool:
        return not self._has("v1_default")

    @property
    def hybrid_groups(self) -> bool:
        return self._has("17996")

    @property
    def chunked_local_keeps_hma(self) -> bool:
        return self._has("29627")

    @property
    def auto_fit(self) -> bool:
        return self._has("29431")

    @property
    def request_ceil(self) -> bool:
        return self._has("29493")

    @property
    def per_stage_check(self) -> bool:
        return self._has("33698")

    @property
    def subtract_cudagraphs(self) -> bool:
        return self._has("38284")

    @property
    def default_gpu_memory_utilization(self) -> float:
        return 0.92 if self._has("38284") else 0.90

    @property
    def tokens_from_concurrency(self) -> bool:
        return self._has("41069")

    # sliding windows (window_rules.py)
    # LoRA (kvcalc.lora)
    @property
    def lora_without_extra_vocab(self) -> bool:
        return self._has("28545")

    @property
    def qwen3_lora_embeddings(self) -> bool:
        return self._has("29816")

    @property
    def qwen2_sliding_window(self) -> bool:
        return self._has("17772")

    @property
    def interleaved_layer_types(self) -> bool:
        return self._has("21927")

    @property
    def window_needs_sliding_layer_types(self) -> bool:
        return self._has("49803")

    # the "KV cache is needed" check (kv_cache_utils.py, by release): ≤ 0.13 Σ per layer; #29431 by
    # groups
    @property
    def hybrid_group_size_ratio(self) -> float | None:
        """kv_cache_utils._get_kv_cache_groups_uniform_page_size: the largest bucket sets the group
        size when it is under this × the smallest (#29303: 1.25, #36684: 1.5); before #29303 always
        the smallest."""
        return 1.5 if self._has("36684") else 1.25 if self._has("29303") else None

    @property
    def runner_reports_sliding(self) -> bool:
        return self._has("14097")

    @property
    def runner_reports_chunked(self) -> bool:
        return self._has("21093")

    @property
    def check_by_groups(self) -> bool:
        return self._has("29431")

    @property
    def check_sums_group_blocks(self) -> bool:
        return self._has("36030")

    # what the profile run allocates (estimates.py)
    @property
    def bundled_triton_kernels(self) -> bool:
        return self._has("28788")

    @property
    def sampler_sorts_vocabulary(self) -> bool:
        return not self._has("33538")

    @property
    def uma_free_is_host_available(self) -> bool:
        return self._has("26098")

    @property
    def nccl_in_baseline(self) -> bool:
        return self._has("25359")

    @property
    def override_before_check(self) -> bool:
        return self._has("41069")

    @property
    def null_block_reserved(self) -> bool:
        return self._has("47272")

    # the quantized KV cache dtypes (kv_dtypes.py)
    def has_release_of(self, key: str) -> bool:
        """Whether this release has the change keyed ``key`` in data/vllm_releases.json."""
        return self._has(key)

    def first_release_label(self, key: str) -> str:
        return ".".join(map(str, first_release(key)))

    @property
    def nvfp4_implemented(self) -> bool:
        return self._has("kv_dtype_nvfp4_flashinfer")

    @property
    def nvfp4_fa2(self) -> bool:
        return self._has("kv_dtype_nvfp4_fa2")

    @property
    def in_flight_batches(self) -> bool:
        return self._has("47728")

    @property
    def sum_group_blocks(self) -> bool:
        return self._has("48317")

    @property
    def row_160_gib(self) -> bool:
        return self._has("51726")

    @property
    def capture_1024_on_sm100(self) -> bool:
        return self._has("49390")

    @property
    def calculate_kv_scales_removed(self) -> bool:
        return self._has("calculate_kv_scales_removed")

    @property
    def calculate_kv_scales_deprecated(self) -> bool:
        return self._has("calculate_kv_scales_deprecated")

    @property
    def moe_parallel_config(self) -> bool:
        """MoE layers sharded over DP × TP ranks (FusedMoEParallelConfig, #15956): DP / EP modelled
        from here."""
        return self._has("15956")

    @property
    def balanced_expert_map(self) -> bool:
        return self._has("21497")

    @property
    def auto_fit_names_kv_memory(self) -> bool:
        return self._has("auto_fit_kv_memory_line")

    @property
    def decode_context_parallel(self) -> bool:
        return self._has("23734")

    @property
    def cp_world_size_line(self) -> bool:
        return self._has("28718")

    @property
    def dcp_gqa_checks(self) -> bool:
        return self._has("49777")

    @property
    def deepseek_v32(self) -> bool:
        return self._has("25896")

    @property
    def v32_fp8_default_off(self) -> bool:
        return self._has("27121")

    @property
    def sparse_kv_dtype_by_backend(self) -> bool:
        return self._has("35891")

    @property
    def deepseek_v4(self) -> bool:
        return self._has("40860")

    @property
    def v4_indexer_line_spelled(self) -> bool:
        return self._has("41419")

    @property
    def v4_dtype_assert_flashmla(self) -> bool:
        return self._has("44569")

    @property
    def v4_dtype_assert_ds_mla(self) -> bool:
        return self._has("43477")

    @property
    def deepseek_v4_slots(self) -> bool:
        return self._has("44454")

    @property
    def deepseek_v4_packed(self) -> bool:
        return self._has("48993")

    # multimodal models: the encoder profiling run and --limit-mm-per-prompt (budget.py, inputs.py)
    @property
    def mrope_enlarged_cache(self) -> bool:
        return self._has("mrope_enlarged_cache")

    @property
    def mm_limit_json(self) -> bool:
        return self._has("mm_limit_json")

    @property
    def mm_limit_pairs(self) -> bool:
        return not self._has("mm_limit_json_only")

    @property
    def mm_limit_options(self) -> bool:
        return self._has("mm_limit_options")

    @property
    def skip_mm_profiling(self) -> bool:
        return self._has("skip_mm_profiling")

    # how a documented rope scaling (YaRN) is passed (analysis.py): --rope-scaling, then
    # --hf-overrides
    @property
    def rope_scaling_flag(self) -> bool:
        return not self._has("rope_scaling_flag_unsure")

    @property
    def hf_overrides_rope_scaling(self) -> bool:
        return self._has("hf_overrides_rope_scaling")

    @property
    def mm_inputs_in_model_dtype(self) -> bool:
        return self._has("18862")

    @property
    def encoder_items_floor(self) -> bool:
        return self._has("encoder_items_floor")

    @property
    def encoder_outputs_padded_to_budget(self) -> bool:
        return self._has("encoder_outputs_padded_to_budget") and not self._has(
            "encoder_outputs_padded_to_item"
        )

    @property
    def encoder_outputs_padded_to_item(self) -> bool:
        return self._has("encoder_outputs_padded_to_item") and not self._has(
            "encoder_outputs_unpadded"
        )

    @property
    def qwen3_vl_video_timestamps(self) -> bool:
        return self._has("qwen3_vl_video_timestamps_counted") and not self._has(
            "qwen3_vl_video_timestamps_dropped"
        )

    @property
    def fused_qwen_vit_rotary(self) -> bool:
        return self._has("fused_qwen_vit_rotary")

    @property
    def qwen_vit_gathers_qkv(self) -> bool:
        return not self._has("28271")

    @property
    def qwen2_vl_gathers_qkv(self) -> bool:
        return self.qwen_vit_gathers_qkv or self._has("qwen2_vl_gather_back")

    # MLA block size (backends.py): forced per platform, then the backend's preference
    @property
    def flashmla_forced_block(self) -> bool:
        return self._has("flashmla_forced_block")

    @property
    def cutlass_mla_blackwell(self) -> bool:
        return self._has("cutlass_mla_blackwell")

    @property
    def flashinfer_mla_blackwell(self) -> bool:
        return self._has("flashinfer_mla_blackwell")

    @property
    def backend_block_preference(self) -> bool:
        return self._has("35122")

    # Mamba / linear-attention hybrids (PR -> first release in data/vllm_releases.json)
    @property
    def mamba_cache_modes(self) -> bool:
        return self._has("30877")

    @property
    def platform_block_alignment(self) -> bool:
        return self._has("37467")

    @property
    def hybrid_prefix_caching_default(self) -> bool:
        return self._has("40996")

    @property
    def mla_hybrid_align_128(self) -> bool:
        return self._has("50000")

    @property
    def removed_bamba_minimax(self) -> bool:
        return self._has("45990")

    @property
    def mamba_blocks_check(self) -> bool:
        return self._has("32936")

    @property
    def mamba_all_mode_removed(self) -> bool:
        return self._has("mamba_all_mode_removed")

    # texts
    @property
    def format_gib(self) -> bool:
        return self._has("31865")

    @property
    def model_s_text(self) -> bool:
        return self._has("42479")

    @property
    def error_in_gib(self) -> bool:
        return self._has("15807")

    @property
    def error_has_estimate(self) -> bool:
        return self._has("16168")

    @property
    def estimate_spaced(self) -> bool:
        return self._has("18966")

    @property
    def error_docs_link(self) -> bool:
        return self._has("28051")

    @property
    def estimate_trailing_space(self) -> bool:
        return self._has("31260")

    @property
    def available_line(self) -> bool:
        return self._has("19312")

    @property
    def tokens_line(self) -> bool:
        return self._has("13596")

    @property
    def one_line_capacity(self) -> bool:
        return self._has("50462")

    @property
    def description(self) -> str:
        if self.version is None:
            return f"vLLM {LATEST_RELEASE}"
        return f"vLLM {self.label}"


def rules_for(version: object) -> RuleSet:
    """``None``/``latest`` → LATEST_RELEASE; ``0.10`` → 0.10.0's rules; a dev or rc build
    → the last final release before it (module docstring); releases newer than the last
    rule change get the latest rules."""
    if version is None or (
        isinstance(version, str) and version.strip().lower() in ("", "latest", "main", "pinned")
    ):
        return RuleSet(label="latest", version=None)
    if not isinstance(version, str):
        raise _bad(shorten(version))
    text = version.strip()
    parsed = parse_version(text)
    label = text.lstrip("vV")
    want: Version | None = parsed.release
    if parsed.is_prerelease:
        want = _last_final_before(parsed.release)
    if want is None or want < _OLDEST or parsed.release < _OLDEST:
        raise CalcError(
            "version_too_old",
            f"vllm_version {label} is older than 0.6.0, not modelled",
            field="vllm_version",
            value=label,
        )
    if want != parsed.release:
        label = f"{label} (rules of {'.'.join(map(str, want))})"
    newest_change = max(_pr_table().values())
    if want > newest_change:
        return RuleSet(label=label, version=None)
    return RuleSet(label=label, version=want)
