"""The bundled model and GPU catalog (``data/catalog.json``).

Why: readers pick "Qwen/Qwen3-8B on an RTX 4090" without pasting a config or
knowing how much memory their driver reports. The JSON is produced offline by
``scripts/build_catalog.py`` with ``transformers`` (resolved configs) and is
read here with the standard library only, so it works from a wheel and in
Pyodide alike.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache, lru_cache
from types import MappingProxyType
from typing import Any

from .data_files import read_data

__all__ = [
    "CatalogGpu",
    "CatalogModel",
    "NotFound",
    "find_gpu",
    "find_model",
    "gpus",
    "model_by_id",
    "model_ids",
    "models",
    "normalize_id",
]


@dataclass(frozen=True, kw_only=True)
class CatalogModel:
    """One served model with its resolved Hugging Face config facts."""

    id: str
    """Hugging Face id, e.g. ``Qwen/Qwen3-8B``."""
    family: str
    """Display family, e.g. ``Qwen3``, ``Gemma 3``."""
    num_parameters: int | None
    """Exact total from the safetensors index or model card; None = estimate from config."""
    weights_bytes: int | None = None
    """Bytes of the checkpoint's weights: the ``metadata.total_size`` of its
    ``model.safetensors.index.json``, only where a public source gives that total for this model
    (``weights_source`` in ``scripts/model_configs/index.json``); None = not known exactly."""
    config: Mapping[str, object] = field(repr=False)
    """Resolved config facts with Hugging Face key names (read-only view)."""
    rope_scaling_documented: Mapping[str, object] | None = field(default=None, repr=False)
    """The context extension the model card documents (Qwen3: YaRN, factor 4 over 32,768), which
    vLLM applies only when asked; ``rope_scaling_source`` in scripts/model_configs/index.json cites
    the card."""


@dataclass(frozen=True, kw_only=True)
class CatalogGpu:
    """One GPU model with the total memory its driver reports."""

    id: str
    """Catalog id as in the CLI contract, e.g. ``H100-80GB``, ``RTX-4090``."""
    name: str
    """Full product name, e.g. ``NVIDIA H100 80GB HBM3``."""
    vendor: str
    """``nvidia`` or ``amd``."""
    segment: str
    """``consumer``, ``workstation`` or ``datacenter``."""
    memory_bytes: int
    """Total device memory as ``torch.cuda.mem_get_info()[1]`` reports it (not marketing GB)."""
    memory_source_kind: str = "nvidia-smi"
    """``cuda`` when the figure is a CUDA/HIP total; ``nvidia-smi``/``rocm-smi`` when only the SMI
    total (a few hundred MiB above what vLLM sees) was found; ``spec-sheet`` when only the vendor's
    capacity table was (corrected like an SMI total, ``estimates.cuda_visible_total``)."""


def _freeze(value: Any) -> Any:
    """Read-only views so a shared catalog entry cannot be mutated by a caller."""
    if isinstance(value, dict):
        return MappingProxyType({k: _freeze(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value


@lru_cache(maxsize=1)
def _document() -> Mapping[str, Any]:
    document: Mapping[str, Any] = json.loads(read_data("catalog.json"))
    return document


def _model(entry: Mapping[str, Any]) -> CatalogModel:
    return CatalogModel(
        id=entry["id"],
        family=entry["family"],
        num_parameters=entry.get("num_parameters"),
        weights_bytes=entry.get("weights_bytes"),
        config=_freeze(entry["config"]),
        rope_scaling_documented=_freeze(entry["rope_scaling_documented"])
        if "rope_scaling_documented" in entry
        else None,
    )


@lru_cache(maxsize=1)
def models() -> tuple[CatalogModel, ...]:
    """All catalog models, in the catalog's stable order."""
    return tuple(model_by_id(entry["id"]) for entry in _document()["models"])


@lru_cache(maxsize=1)
def model_ids() -> tuple[str, ...]:
    """Every catalog model's id, in the catalog's order, without building the models."""
    return tuple(e["id"] for e in _document()["models"])


@cache
def model_by_id(model_id: str) -> CatalogModel:
    """One model, built on first use: a plan needs one entry, not the whole catalog frozen."""
    return _model(next(e for e in _document()["models"] if e["id"] == model_id))


@lru_cache(maxsize=1)
def gpus() -> tuple[CatalogGpu, ...]:
    """All catalog GPUs, in the catalog's stable order."""
    return tuple(
        CatalogGpu(
            id=entry["id"],
            name=entry["name"],
            vendor=entry["vendor"],
            segment=entry["segment"],
            memory_bytes=int(entry["memory_bytes"]),
            memory_source_kind=entry.get("memory_source_kind", "nvidia-smi"),
        )
        for entry in _document()["gpus"]
    )


class NotFound(LookupError):
    """No catalog entry for an id: ``candidates`` are the entries a prefix fits (``ambiguous``)
    or up to three close spellings ("did you mean")."""

    def __init__(
        self, message: str, *, candidates: tuple[str, ...] = (), ambiguous: bool = False
    ) -> None:
        super().__init__(message)
        self.candidates = candidates
        self.ambiguous = ambiguous


def normalize_id(text: str) -> str:
    """Case- and punctuation-insensitive form of an id: letters and digits only, casefolded."""
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def _tokens(text: str) -> list[str]:
    """The letter-and-digit runs of an id: ``H100-80GB`` → ``["h100", "80gb"]``."""
    out, cur = [], []
    for ch in text.casefold():
        if ch.isalnum():
            cur.append(ch)
        elif cur:
            out.append("".join(cur))
            cur = []
    if cur:
        out.append("".join(cur))
    return out


def _token_prefixes(text: str) -> set[str]:
    """Every concatenation of the first k whole tokens (k ≥ 1): the prefixes a reader may type."""
    tokens = _tokens(text)
    return {"".join(tokens[:k]) for k in range(1, len(tokens) + 1)}


_MIN_PREFIX = 3


@lru_cache(maxsize=4)
def _exact_index(entries: tuple[tuple[str, tuple[str, ...]], ...]) -> dict[str, tuple[str, ...]]:
    """Each normalized id or alias → the entries it names, in catalog order: built once per catalog,
    so a lookup (every recompute in the calculator does two) costs one normalization, not one per
    name."""
    index: dict[str, list[str]] = {}
    for entry_id, aliases in entries:
        for key in dict.fromkeys(normalize_id(a) for a in (entry_id, *aliases)):
            index.setdefault(key, []).append(entry_id)
    return {key: tuple(ids) for key, ids in index.items()}


def _match(kind: str, wanted: str, entries: list[tuple[str, tuple[str, ...]]]) -> str:
    """The id ``wanted`` names, by the catalog's one matching rule (README, "Ids").

    1. exact: the normalized text equals one entry's normalized id or alias (GPU: the full
       product name, with or without the vendor; model: the name after the ``/``);
    2. prefix: it has at least 3 characters and equals whole leading tokens of exactly one
       entry's id or alias (``llama-3.1-70b`` → ``meta-llama/Llama-3.1-70B-Instruct``);
    3. several entries fit → ``NotFound(ambiguous=True)`` listing them; none → ``NotFound``
       with up to three close spellings (difflib).
    """
    key = normalize_id(wanted)
    if key:
        exact = list(_exact_index(tuple(entries)).get(key, ()))
        if len(exact) == 1:
            return exact[0]
        if len(exact) > 1:
            raise NotFound(
                f"{kind} {wanted!r} is ambiguous; choose one of {', '.join(exact)}",
                candidates=tuple(exact),
                ambiguous=True,
            )
    if len(key) >= _MIN_PREFIX:
        fits = [
            entry_id
            for entry_id, aliases in entries
            if any(key in _token_prefixes(a) for a in (entry_id, *aliases))
        ]
        if len(fits) == 1:
            return fits[0]
        if len(fits) > 1:
            raise NotFound(
                f"{kind} {wanted!r} is ambiguous; choose one of {', '.join(fits)}",
                candidates=tuple(fits),
                ambiguous=True,
            )
    import difflib  # only on a miss: keeps the import of the package fast

    by_key: dict[str, str] = {}
    for entry_id, aliases in entries:
        for name in (entry_id, *aliases):
            by_key.setdefault(normalize_id(name), entry_id)
    close = difflib.get_close_matches(key, list(by_key), n=6, cutoff=0.5) if key else []
    suggestions = tuple(dict.fromkeys(by_key[c] for c in close))[:3]
    if kind == "model" and key:
        suggestions = _family_and_size_first(wanted, entries, suggestions)
    hint = f"; did you mean {', '.join(suggestions)}?" if suggestions else ""
    raise NotFound(f"{kind} {wanted!r} is not in the catalog{hint}", candidates=suggestions)


def _family_and_size(name: str) -> tuple[str, str] | None:
    """``Qwen/Qwen2.5-14B-Instruct`` → ``("qwen25", "14")``: the name before its parameter count,
    and the count (the first ``<n>B`` not glued to a letter, so ``A3B`` of ``Qwen3-30B-A3B`` is not
    it)."""
    base = name.rpartition("/")[2].casefold()
    for i, ch in enumerate(base):
        if not ch.isdigit() or (i and (base[i - 1].isalnum() or base[i - 1] == ".")):
            continue
        j = i
        while j < len(base) and (base[j].isdigit() or base[j] == "."):
            j += 1
        if j < len(base) and base[j] == "b" and (j + 1 == len(base) or not base[j + 1].isalnum()):
            return normalize_id(base[:i]), base[i:j]
    return None


def _family_and_size_first(
    wanted: str, entries: list[tuple[str, tuple[str, ...]]], close: tuple[str, ...]
) -> tuple[str, ...]:
    """Up to three "did you mean" models: same family and size first, then same family, then the
    close spellings (``Qwen/Qwen2.5-14B-Instruct`` → ``Qwen/Qwen2.5-14B`` before the 1.5B, 7B or 3B
    models)."""
    import difflib

    mine = _family_and_size(wanted)
    if mine is None:
        return close
    key = normalize_id(wanted)

    def rank(entry_id: str) -> tuple[int, float]:
        theirs = _family_and_size(entry_id)
        # one family name ending the other: Meta-Llama-3.1 and Llama-3.1 are one family (Llama-3 and
        # Qwen3.5 are not)
        same_family = (
            theirs is not None
            and bool(theirs[0])
            and bool(mine[0])
            and (theirs[0].endswith(mine[0]) or mine[0].endswith(theirs[0]))
        )
        same_size = theirs is not None and theirs[1] == mine[1]
        tier = (
            0 if same_family and same_size else 1 if same_family else 2 if entry_id in close else 3
        )
        return tier, -difflib.SequenceMatcher(None, key, normalize_id(entry_id)).ratio()

    ranked = sorted((entry_id for entry_id, _aliases in entries), key=rank)
    return tuple(e for e in ranked if rank(e)[0] < 3)[:3]


@lru_cache(maxsize=1)
def _model_entries() -> list[tuple[str, tuple[str, ...]]]:
    return [(i, (i.rpartition("/")[2],)) for i in model_ids()]


@lru_cache(maxsize=1)
def _gpu_entries() -> list[tuple[str, tuple[str, ...]]]:
    out: list[tuple[str, tuple[str, ...]]] = []
    for g in gpus():
        bare = g.name
        for vendor in ("NVIDIA ", "AMD ", "Tesla "):
            bare = bare.removeprefix(vendor)
        out.append((g.id, (g.name, bare)))
    return out


def find_model(model_id: str) -> CatalogModel:
    """The catalog model this id names (see :func:`_match` for the rule).

    ``Qwen/Qwen3-8B``, ``qwen/qwen3_8b`` and ``Qwen3-8B`` all name Qwen/Qwen3-8B.
    Raises :class:`NotFound` (a LookupError) with the candidates or close matches.
    """
    text = model_id.strip()
    try:
        wanted = _match("model", text, _model_entries())
    except NotFound as miss:
        local = _checkpoint_name(text)
        if local is None:
            raise
        exact = [
            (e, a)
            for e, a in _model_entries()
            if normalize_id(local) in {normalize_id(x) for x in (e, *a)}
        ]
        if len(exact) != 1:  # a local copy: its folder's name, matched exactly (never by prefix)
            raise NotFound(
                f"{miss} (a local checkpoint is matched by its folder's name, {local!r})",
                candidates=miss.candidates,
                ambiguous=miss.ambiguous,
            ) from None
        wanted = exact[0][0]
    return model_by_id(wanted)


def _checkpoint_name(text: str) -> str | None:
    """The model name in a local checkpoint path, as vLLM prints ``model=`` for one.

    ``/models/Qwen3-8B`` and ``~/.cache/huggingface/qwen3.6-35b-a3b-nvfp4`` → their last folder;
    the Hugging Face cache layout ``…/models--Qwen--Qwen3-8B/snapshots/<hash>`` → ``Qwen/Qwen3-8B``.
    None for a plain ``org/name`` id.
    """
    parts = [p for p in text.replace("\\", "/").split("/") if p and p not in (".", "..", "~")]
    if not parts or (len(parts) <= 2 and not text.startswith(("/", "~", ".", "\\"))):
        return None
    for part in reversed(parts):
        if part.startswith("models--") and part.count("--") >= 2:
            org, _, name = part.removeprefix("models--").partition("--")
            return f"{org}/{name}"
    last = parts[-1]
    if last == "snapshots" or (len(parts) >= 2 and parts[-2] == "snapshots"):
        return None
    return last


def find_gpu(gpu_id: str) -> CatalogGpu:
    """The catalog GPU this id names (see :func:`_match` for the rule).

    ``RTX-4090``, ``rtx 4090`` and ``NVIDIA GeForce RTX 4090`` name RTX-4090; ``h100``
    fits both H100-80GB and H100-NVL and is refused listing them; ``h`` or ``H1`` name
    nothing (too short, not a whole token). Raises :class:`NotFound` (a LookupError).
    """
    wanted = _match("GPU", gpu_id.strip(), _gpu_entries())
    return next(g for g in gpus() if g.id == wanted)
