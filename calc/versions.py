"""vLLM rule sets: which of the dated rule changes (spec section 13) a release has.

Each change is keyed by the upstream PR that made it and the first release
containing that PR (``data/vllm_releases.json``, ``pr_first_release``, from
vLLM's release history). ``latest`` is the pinned main commit, which has all.
"""
from __future__ import annotations

from .data_files import read_data

import json
import re
from dataclasses import dataclass
from datetime import date
from functools import lru_cache

from .errors import CalcError

__all__ = ["RuleSet", "PINNED_COMMIT", "PINNED_DATE", "rules_for", "known_releases", "first_release"]

PINNED_COMMIT = "6adad08767583f52eb4d2122111af0bf638ed5e6"
PINNED_DATE = date(2026, 8, 14)
_VERSION = re.compile(r"v?(\d+)\.(\d+)(?:\.(\d+))?(?:\.post\d+|[+-][\w.]*|rc\d+|\.dev\d*[\w.+]*)?")

Version = tuple[int, int, int]

# PR → first release, used when the bundled table lacks an entry.
_FALLBACK_PR_FIRST_RELEASE = {
    "v1_default": "0.8.0", "13596": "0.8.0", "15807": "0.8.3", "16168": "0.8.4", "18966": "0.9.1",
    "17996": "0.9.2", "19312": "0.9.2", "28051": "0.13.0", "29431": "0.14.0", "31260": "0.14.0", "29493": "0.14.0",
    "31865": "0.14.0", "33698": "0.17.0", "38284": "0.20.0", "41069": "0.21.0", "42479": "0.22.0", "47728": "0.26.0",
    "48317": "0.27.0", "49208": "0.27.0", "50462": "0.28.0", "51726": "0.28.0",
}


def _key(v: str) -> Version:
    m = _VERSION.fullmatch(v.strip())
    if not m:
        raise CalcError("bad_version", f"vllm_version must look like 0.10.1 or latest, got {v!r}", field="vllm_version", value=v)
    return int(m.group(1)), int(m.group(2)), int(m.group(3) or 0)


@lru_cache(maxsize=1)
def _table() -> dict[str, object]:
    try:
        return json.loads(read_data("vllm_releases.json"))
    except (FileNotFoundError, ValueError, OSError):
        return {}


@lru_cache(maxsize=1)
def known_releases() -> tuple[tuple[str, date], ...]:
    """(version, release date) from the bundled table, sorted by version."""
    rows = []
    for r in _table().get("releases", []):  # type: ignore[union-attr]
        d = r.get("release_date") or r.get("code_date")
        if r.get("version") and d:
            rows.append((str(r["version"]).lstrip("v"), date.fromisoformat(str(d))))
    return tuple(sorted(rows, key=lambda vd: (_key(vd[0]), vd[0])))


def first_release(pr: str) -> Version:
    table = dict(_FALLBACK_PR_FIRST_RELEASE)
    table.update(_table().get("pr_first_release", {}))  # type: ignore[arg-type]
    return _key(table[pr])


@dataclass(frozen=True, kw_only=True)
class RuleSet:
    """The behaviours of one vLLM release (``version`` None = the pinned main commit)."""

    label: str
    version: Version | None

    def _has(self, pr: str) -> bool:
        return self.version is None or self.version >= first_release(pr)

    # engine and planning
    @property
    def v0_engine(self) -> bool: return not self._has("v1_default")
    @property
    def hybrid_groups(self) -> bool: return self._has("17996")
    @property
    def auto_fit(self) -> bool: return self._has("29431")
    @property
    def request_ceil(self) -> bool: return self._has("29493")
    @property
    def per_stage_check(self) -> bool: return self._has("33698")
    @property
    def subtract_cudagraphs(self) -> bool: return self._has("38284")
    @property
    def default_gpu_memory_utilization(self) -> float: return 0.92 if self._has("38284") else 0.90
    @property
    def tokens_from_concurrency(self) -> bool: return self._has("41069")
    @property
    def override_before_check(self) -> bool: return self._has("41069")
    @property
    def in_flight_batches(self) -> bool: return self._has("47728")
    @property
    def sum_group_blocks(self) -> bool: return self._has("48317")
    @property
    def row_160_gib(self) -> bool: return self._has("51726")
    # texts
    @property
    def format_gib(self) -> bool: return self._has("31865")
    @property
    def model_s_text(self) -> bool: return self._has("42479")
    @property
    def error_in_gib(self) -> bool: return self._has("15807")
    @property
    def error_has_estimate(self) -> bool: return self._has("16168")
    @property
    def estimate_spaced(self) -> bool: return self._has("18966")
    @property
    def error_docs_link(self) -> bool: return self._has("28051")
    @property
    def estimate_trailing_space(self) -> bool: return self._has("31260")
    @property
    def available_line(self) -> bool: return self._has("19312")
    @property
    def tokens_line(self) -> bool: return self._has("13596")
    @property
    def one_line_capacity(self) -> bool: return self._has("50462")

    @property
    def description(self) -> str:
        if self.version is None:
            return f"vLLM main {PINNED_COMMIT[:12]} ({PINNED_DATE.isoformat()})"
        return f"vLLM {self.label}"


def rules_for(version: str | None) -> RuleSet:
    """``None``/``latest`` → the pinned commit; ``0.10`` → 0.10.0's rules; releases
    newer than the pinned commit's last known change get the pinned rules."""
    if version is None or str(version).strip().lower() in ("", "latest", "main", "pinned"):
        return RuleSet(label="latest", version=None)
    text = str(version).strip().lstrip("v")
    want = _key(text)
    if want < (0, 6, 0):
        raise CalcError("bad_version", f"vllm_version {text} is older than the oldest supported release 0.6.0",
                        field="vllm_version", value=text)
    newest_change = max(first_release(pr) for pr in _FALLBACK_PR_FIRST_RELEASE)
    if want > newest_change:
        return RuleSet(label=text, version=None)
    return RuleSet(label=text, version=want)
