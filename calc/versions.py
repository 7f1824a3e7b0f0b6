"""vLLM rule sets by code date, and release numbers mapped onto them.

Each rule change of spec section 13 is dated by its upstream merge; a release
applies every change merged before its code was cut. ``RuleSet`` is therefore
a date plus derived booleans, so any release (or a main commit date) maps onto
exactly one set of behaviours.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from importlib import resources

from .errors import CalcError

__all__ = ["RuleSet", "PINNED_COMMIT", "PINNED_DATE", "rules_for", "known_releases", "LEGACY_DEFAULT_VERSION"]

PINNED_COMMIT = "6adad08767583f52eb4d2122111af0bf638ed5e6"
PINNED_DATE = date(2026, 8, 14)
LEGACY_DEFAULT_VERSION = "0.10.1"

# Upstream merge dates of the rule changes (spec section 13).
HMA_GROUPS = date(2025, 6, 6)            # #17996 hybrid KV cache groups
AUTO_FIT = date(2025, 12, 24)            # #29431 --max-model-len auto
REQUEST_CEIL = date(2026, 1, 7)          # requested = ceil(total × util)
FORMAT_GIB = date(2026, 1, 8)            # "Available KV cache memory: 4.5 GiB"
PER_STAGE_CHECK = date(2026, 2, 11)      # #33698
UTIL_092_GRAPHS = date(2026, 4, 21)      # #38284 default 0.92, CUDA-graph estimate subtracted
TOKENS_FROM_CONCURRENCY = date(2026, 4, 28)  # #41069 (also: override applied before the check)
MODEL_S_TEXT = date(2026, 5, 15)         # #42479 "model's", CPU backend wording, docs link
IN_FLIGHT_BATCHES = date(2026, 7, 8)     # #47728 F = concurrent batches × max_num_batched_tokens
SUM_GROUP_BLOCKS = date(2026, 7, 20)     # #48317 blocks_per_request = Σ cdiv(max_mem_g, page_g)
ONE_LINE_CAPACITY = date(2026, 8, 4)     # #50462
ROW_160_GIB = date(2026, 8, 11)          # #51726 batch defaults for ≥160 GiB GPUs


@dataclass(frozen=True, kw_only=True)
class RuleSet:
    """The behaviours of one vLLM code date."""

    label: str
    """What the reader asked for (``0.10.1``, ``latest``)."""
    code_date: date

    def _since(self, d: date) -> bool:
        return self.code_date >= d

    @property
    def hybrid_groups(self) -> bool: return self._since(HMA_GROUPS)
    @property
    def auto_fit(self) -> bool: return self._since(AUTO_FIT)
    @property
    def request_ceil(self) -> bool: return self._since(REQUEST_CEIL)
    @property
    def format_gib(self) -> bool: return self._since(FORMAT_GIB)
    @property
    def per_stage_check(self) -> bool: return self._since(PER_STAGE_CHECK)
    @property
    def subtract_cudagraphs(self) -> bool: return self._since(UTIL_092_GRAPHS)
    @property
    def default_gpu_memory_utilization(self) -> float: return 0.92 if self._since(UTIL_092_GRAPHS) else 0.90
    @property
    def tokens_from_concurrency(self) -> bool: return self._since(TOKENS_FROM_CONCURRENCY)
    @property
    def override_before_check(self) -> bool: return self._since(TOKENS_FROM_CONCURRENCY)
    @property
    def model_s_text(self) -> bool: return self._since(MODEL_S_TEXT)
    @property
    def in_flight_batches(self) -> bool: return self._since(IN_FLIGHT_BATCHES)
    @property
    def sum_group_blocks(self) -> bool: return self._since(SUM_GROUP_BLOCKS)
    @property
    def one_line_capacity(self) -> bool: return self._since(ONE_LINE_CAPACITY)
    @property
    def row_160_gib(self) -> bool: return self._since(ROW_160_GIB)

    @property
    def description(self) -> str:
        return f"vLLM {self.label} (rules as of {self.code_date.isoformat()})"


# Release → code date used when calc/data/vllm_releases.json is absent or lacks
# a release (release dates from vLLM's GitHub releases; the cut precedes them).
_FALLBACK_RELEASES = {
    "0.6.0": "2024-09-04", "0.6.6": "2024-12-27", "0.7.0": "2025-01-27", "0.7.3": "2025-02-20",
    "0.8.0": "2025-03-18", "0.8.5": "2025-04-28", "0.9.0": "2025-05-15", "0.9.2": "2025-07-08",
    "0.10.0": "2025-07-24", "0.10.1": "2025-08-18", "0.10.2": "2025-09-13", "0.11.0": "2025-10-02",
    "0.11.1": "2025-11-18", "0.11.2": "2025-11-20", "0.12.0": "2025-12-03",
}
_VERSION = re.compile(r"v?(\d+)\.(\d+)(?:\.(\d+))?(?:[.+-].*)?")


def _key(v: str) -> tuple[int, int, int]:
    m = _VERSION.fullmatch(v.strip())
    if not m:
        raise CalcError("bad_version", f"vllm_version must look like 0.10.1 or latest, got {v!r}", field="vllm_version", value=v)
    return int(m.group(1)), int(m.group(2)), int(m.group(3) or 0)


@lru_cache(maxsize=1)
def known_releases() -> tuple[tuple[str, date], ...]:
    """(version, code date) sorted by version, from the bundled release table."""
    table = dict(_FALLBACK_RELEASES)
    try:
        data = json.loads((resources.files(__package__) / "data" / "vllm_releases.json").read_text("utf-8"))
        for r in data.get("releases", []):
            d = r.get("code_date") or r.get("release_date")
            if r.get("version") and d:
                table[str(r["version"]).lstrip("v")] = str(d)
    except (FileNotFoundError, ValueError, OSError):
        pass
    return tuple(sorted(((v, date.fromisoformat(d)) for v, d in table.items()), key=lambda vd: _key(vd[0])))


def rules_for(version: str | None) -> RuleSet:
    """``None``/``latest``/``main`` → the pinned commit; ``0.10`` → its newest patch release."""
    if version is None or str(version).strip().lower() in ("", "latest", "main", "pinned"):
        return RuleSet(label="latest", code_date=PINNED_DATE)
    text = str(version).strip()
    want = _key(text)
    releases = known_releases()
    exact = [d for v, d in releases if _key(v) == want]
    if exact:
        return RuleSet(label=text.lstrip("v"), code_date=exact[0])
    if _VERSION.fullmatch(text) and _VERSION.fullmatch(text).group(3) is None:  # type: ignore[union-attr]
        same_minor = [(v, d) for v, d in releases if _key(v)[:2] == want[:2]]
        if same_minor:
            return RuleSet(label=text.lstrip("v"), code_date=same_minor[-1][1])
    older = [(v, d) for v, d in releases if _key(v) <= want]
    if not older:
        raise CalcError("bad_version", f"vllm_version {text} is older than the oldest supported release {releases[0][0]}",
                        field="vllm_version", value=text)
    if want > _key(releases[-1][0]):
        return RuleSet(label=text.lstrip("v"), code_date=max(PINNED_DATE, releases[-1][1]))
    return RuleSet(label=text.lstrip("v"), code_date=older[-1][1])
