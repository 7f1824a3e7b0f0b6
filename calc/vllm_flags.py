"""The ``vllm serve`` flags the core prints: one row per flag, as vLLM's argparse declares it at
each release.

Every command the core prints (the CLI text, the JSON ``serve_command`` fields, the page's result:
all from ``report.py``) is written from this table, and ``parse_serve_command`` reads one back
against it, so a test can check that vLLM's parser would accept it for the reader's release.

Read from ``vllm/engine/arg_utils.py`` (and the config dataclasses it takes its types from,
``vllm/config.py`` / ``vllm/config/*.py``) at the release tags v0.6.0 … v0.25.1 (upstream's tags,
read from the public fork aoshen02/vllm that carries them):

* booleans from a config dataclass go through ``get_kwargs``, which gives every ``bool`` field
  ``argparse.BooleanOptionalAction`` (``--x`` and ``--no-x``, never ``--x false``); before that a
  few were ``action='store_true'`` (``--x`` only): ``--enable-prefix-caching`` until v0.6.4
  (BooleanOptionalAction from v0.6.5), ``--enforce-eager`` until v0.8.5 (from the model config's
  kwargs from v0.9.0);
* ``--max-model-len`` is ``type=int`` until v0.8.4, ``human_readable_int`` from v0.8.5 and
  ``human_readable_int_or_auto`` (``auto`` or ``-1``) from v0.14.0; ``--max-num-batched-tokens`` and
  ``--kv-cache-memory-bytes`` are ``human_readable_int`` from v0.10.2;
* a flag's first release is the first tag whose ``arg_utils.py`` declares it; none of these was
  removed up to v0.25.1 (releases after it are taken to keep them).

Each boundary is a named ``cli_*`` rule of ``data/vllm_releases.json`` (with its tag evidence),
asked through ``RuleSet.has``. Not printed: ``--quantization`` (vLLM reads the method from the
checkpoint's config, so a quantized fix changes the model id, ``changes["model"]``) and
``--speculative-config`` (no input sets it).
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from .deployment import MODEL_DTYPES
from .errors import CalcError
from .limits import check_json_depth, shorten
from .units import parse_float, parse_human_int, parse_int, parse_max_model_len
from .versions import RuleSet, rules_for

__all__ = [
    "FlagKind",
    "Flag",
    "FLAGS",
    "FLAG_BY_NAME",
    "FLAG_BY_CLI",
    "Rule",
    "accepts",
    "flag_text",
    "choices_at",
    "settings_accepted",
    "typed_value",
    "ParsedCommand",
    "parse_serve_command",
    "CommandError",
]

Rule = str | None
"""A named release cut-off of ``data/vllm_releases.json`` (``pr_first_release``); None: every
release modelled."""


class FlagKind(StrEnum):
    """How vLLM's argparse reads a flag."""

    BOOL = "bool"
    """``argparse.BooleanOptionalAction``: ``--x`` / ``--no-x`` (``store_true`` before
    ``negatable_from``)."""
    INT = "int"
    FLOAT = "float"
    SIZE = "size"
    """``human_readable_int`` (``32k``, ``4G``) from ``human_from``; a plain ``int`` before."""
    LENGTH = "length"
    """``--max-model-len``: a size, or ``auto`` / ``-1`` (auto-fit) from ``auto_from``."""
    CHOICE = "choice"
    JSON = "json"
    """A JSON object (``--limit-mm-per-prompt``; ``key=value,…`` pairs before ``json_from``)."""


@dataclass(frozen=True, kw_only=True)
class Flag:
    """One engine argument the core prints; each release boundary is a named rule (``Rule``)."""

    name: str
    """The core's input name (snake_case, the CLI contract)."""
    cli: str
    """vLLM's spelling of the positive flag."""
    kind: FlagKind
    """How the value is written and read back (bool, size, length, choice, JSON, …)."""
    since: Rule = None
    """First release whose argparse declares it (None: v0.6.0, the oldest release the core
    models)."""
    until: Rule = None
    """First release whose argparse no longer declares it (None: still declared)."""
    negatable_from: Rule = None
    """BOOL: the first release with ``--no-x`` (BooleanOptionalAction); None: wherever the flag
    exists."""
    inverted: bool = False
    """BOOL: the input names the negative form (``no_async_scheduling`` →
    ``--no-async-scheduling``)."""
    human_from: Rule = None
    """SIZE / LENGTH: the first release taking ``human_readable_int`` values (``32k``)."""
    auto_from: Rule = None
    """LENGTH: the first release taking ``auto`` (``-1`` before)."""
    json_from: Rule = None
    """JSON: the first release taking a JSON object (``key=value,…`` pairs before)."""
    choices: tuple[tuple[Rule, tuple[str, ...]], ...] = ()
    """CHOICE: (first release, the choices from it on), oldest first; an empty tuple of choices: any
    int."""
    neutral: str | None = None
    """The value that asks for nothing (``1`` context-parallel rank, ``auto``): given for a release
    without the flag it is left out of the command rather than refused."""


_KV_BASE = ("auto", "fp8", "fp8_e4m3", "fp8_e5m2")
_KV_DTYPES: tuple[tuple[Rule, tuple[str, ...]], ...] = (
    (None, _KV_BASE),
    ("cli_kv_cache_dtype_fp8_inc", _KV_BASE + ("fp8_inc",)),
    ("cli_kv_cache_dtype_bfloat16", ("auto", "bfloat16") + _KV_BASE[1:] + ("fp8_inc",)),
    (
        "cli_kv_cache_dtype_fp8_ds_mla",
        ("auto", "bfloat16") + _KV_BASE[1:] + ("fp8_inc", "fp8_ds_mla"),
    ),
    (
        "cli_kv_cache_dtype_float16",
        ("auto", "float16", "bfloat16") + _KV_BASE[1:] + ("fp8_inc", "fp8_ds_mla"),
    ),
    (
        "cli_kv_cache_dtype_turboquant",
        ("auto", "float16", "bfloat16")
        + _KV_BASE[1:]
        + (
            "fp8_inc",
            "fp8_ds_mla",
            "turboquant_k8v4",
            "turboquant_4bit_nc",
            "turboquant_k3v4_nc",
            "turboquant_3bit_nc",
            "int8_per_token_head",
            "fp8_per_token_head",
            "nvfp4",
        ),
    ),
    (
        "cli_kv_cache_dtype_int4_per_token_head",
        ("auto", "float16", "bfloat16")
        + _KV_BASE[1:]
        + (
            "fp8_inc",
            "fp8_ds_mla",
            "turboquant_k8v4",
            "turboquant_4bit_nc",
            "turboquant_k3v4_nc",
            "turboquant_3bit_nc",
            "int4_per_token_head",
            "int8_per_token_head",
            "fp8_per_token_head",
            "nvfp4",
        ),
    ),
)
# the names CacheDType adds after 0.25 (the release wheels' vllm/config/cache.py; kvcalc.kv_dtypes)
for _rule, _names in (
    ("kv_dtype_nvfp4_4over6", ("nvfp4_4over6",)),
    ("kv_dtype_nvfp4_ds_mla", ("nvfp4_ds_mla",)),
    ("kv_dtype_ultraquant", ("ultraquant_4bit",)),
    ("kv_dtype_octave", ("octave_k3v4", "octave_k3v3", "octave_k3v3_compact")),
):
    _KV_DTYPES += ((_rule, _KV_DTYPES[-1][1] + _names),)
_BLOCKS_32 = ("8", "16", "32")
_BLOCKS_128 = _BLOCKS_32 + ("64", "128")
# choices=[8, 16, 32] (v0.6.0–v0.6.3, v0.6.5), [8, …, 128] (v0.6.4, v0.6.6–v0.8.4); vllm/config
# BlockSize from v0.8.5 (1 … 128; 256 from v0.11.1); a plain int from v0.18.0 (block_size:
# SkipValidation[int])
_BLOCK_SIZES: tuple[tuple[Rule, tuple[str, ...]], ...] = (
    (None, _BLOCKS_32),
    ("cli_block_size_128_v064", _BLOCKS_128),
    ("cli_block_size_32_v065", _BLOCKS_32),
    ("cli_block_size_128", _BLOCKS_128),
    ("cli_block_size_1", ("1",) + _BLOCKS_128),
    ("cli_block_size_256", ("1",) + _BLOCKS_128 + ("256",)),
    ("cli_block_size_any", ()),
)
# One row per flag, in the order a command lists them.
FLAGS: tuple[Flag, ...] = (
    Flag(name="tensor_parallel_size", cli="--tensor-parallel-size", kind=FlagKind.INT),
    Flag(name="pipeline_parallel_size", cli="--pipeline-parallel-size", kind=FlagKind.INT),
    Flag(
        name="decode_context_parallel_size",
        cli="--decode-context-parallel-size",
        kind=FlagKind.INT,
        since="cli_decode_context_parallel_size",
        neutral="1",
    ),
    Flag(
        name="max_model_len",
        cli="--max-model-len",
        kind=FlagKind.LENGTH,
        human_from="cli_max_model_len_human",
        auto_from="cli_max_model_len_auto",
    ),
    Flag(name="max_num_seqs", cli="--max-num-seqs", kind=FlagKind.INT),
    Flag(
        name="max_num_batched_tokens",
        cli="--max-num-batched-tokens",
        kind=FlagKind.SIZE,
        human_from="cli_max_num_batched_tokens_human",
    ),
    Flag(
        name="dtype",
        cli="--dtype",
        kind=FlagKind.CHOICE,
        neutral="auto",
        choices=((None, MODEL_DTYPES),),
    ),
    Flag(name="kv_cache_dtype", cli="--kv-cache-dtype", kind=FlagKind.CHOICE, choices=_KV_DTYPES),
    Flag(name="gpu_memory_utilization", cli="--gpu-memory-utilization", kind=FlagKind.FLOAT),
    Flag(
        name="kv_cache_memory_bytes",
        cli="--kv-cache-memory-bytes",
        kind=FlagKind.SIZE,
        since="cli_kv_cache_memory_bytes",
    ),
    Flag(name="block_size", cli="--block-size", kind=FlagKind.CHOICE, choices=_BLOCK_SIZES),
    Flag(name="num_gpu_blocks_override", cli="--num-gpu-blocks-override", kind=FlagKind.INT),
    Flag(name="cpu_offload_gb", cli="--cpu-offload-gb", kind=FlagKind.FLOAT),
    Flag(
        name="enforce_eager",
        cli="--enforce-eager",
        kind=FlagKind.BOOL,
        negatable_from="cli_enforce_eager_negatable",
    ),
    Flag(
        name="disable_hybrid_kv_cache_manager",
        cli="--disable-hybrid-kv-cache-manager",
        kind=FlagKind.BOOL,
        since="cli_disable_hybrid_kv_cache_manager",
    ),
    Flag(
        name="no_async_scheduling",
        cli="--async-scheduling",
        kind=FlagKind.BOOL,
        since="cli_async_scheduling",
        inverted=True,
    ),
    Flag(
        name="enable_prefix_caching",
        cli="--enable-prefix-caching",
        kind=FlagKind.BOOL,
        negatable_from="cli_no_enable_prefix_caching",
    ),
    Flag(
        name="mamba_cache_mode",
        cli="--mamba-cache-mode",
        kind=FlagKind.CHOICE,
        since="cli_mamba_cache_mode",
        choices=((None, ("all", "align", "none")),),
    ),
    Flag(
        name="mamba_ssm_cache_dtype",
        cli="--mamba-ssm-cache-dtype",
        kind=FlagKind.CHOICE,
        since="cli_mamba_ssm_cache_dtype",
        neutral="auto",
        choices=(
            (None, ("auto", "float32")),
            ("cli_mamba_ssm_float16", ("auto", "float32", "float16")),
            ("cli_mamba_ssm_bfloat16", ("auto", "float32", "float16", "bfloat16")),
        ),
    ),
    Flag(
        name="limit_mm_per_prompt",
        cli="--limit-mm-per-prompt",
        kind=FlagKind.JSON,
        json_from="mm_limit_json",
    ),
    Flag(
        name="skip_mm_profiling",
        cli="--skip-mm-profiling",
        kind=FlagKind.BOOL,
        since="skip_mm_profiling",
    ),
    Flag(
        name="calculate_kv_scales",
        cli="--calculate-kv-scales",
        kind=FlagKind.BOOL,
        until="calculate_kv_scales_removed",
    ),
    # speculative decoding and LoRA (kvcalc.speculative, kvcalc.lora: planned only from the releases
    # they model)
    Flag(name="speculative_config", cli="--speculative-config", kind=FlagKind.JSON),
    Flag(name="enable_lora", cli="--enable-lora", kind=FlagKind.BOOL),
    Flag(name="max_loras", cli="--max-loras", kind=FlagKind.INT),
    Flag(name="max_lora_rank", cli="--max-lora-rank", kind=FlagKind.INT),
    Flag(name="max_cpu_loras", cli="--max-cpu-loras", kind=FlagKind.INT),
    # data and expert parallelism (kvcalc.budget.expert_parallel: planned from 0.9.0)
    Flag(
        name="data_parallel_size",
        cli="--data-parallel-size",
        kind=FlagKind.INT,
        since="cli_data_parallel_size",
        neutral="1",
    ),
    Flag(
        name="enable_expert_parallel",
        cli="--enable-expert-parallel",
        kind=FlagKind.BOOL,
        since="cli_enable_expert_parallel",
    ),
)
FLAG_BY_NAME: Mapping[str, Flag] = {f.name: f for f in FLAGS}
FLAG_BY_CLI: Mapping[str, Flag] = {f.cli: f for f in FLAGS}


def _at(rules: RuleSet, rule: Rule) -> bool:
    """Whether the release has the named cut-off ``rule`` (None: every release)."""
    return rule is None or rules.has(rule)


def accepts(flag: Flag, rules: RuleSet) -> bool:
    """Whether that release's argparse declares the flag."""
    return _at(rules, flag.since) and not (flag.until is not None and rules.has(flag.until))


def settings_accepted(settings: Mapping[str, object], rules: RuleSet) -> bool:
    """Whether every flag among a fix's settings exists at that release and takes its value
    there."""
    for name, value in settings.items():
        flag = FLAG_BY_NAME.get(name)
        if flag is None:
            continue
        if not accepts(flag, rules):
            return False
        choices = choices_at(flag, rules) if flag.kind == FlagKind.CHOICE else ()
        if choices and str(value) not in choices:
            return False
    return True


def choices_at(flag: Flag, rules: RuleSet) -> tuple[str, ...]:
    """The choices of a CHOICE flag at a release (empty: any integer)."""
    current: tuple[str, ...] = ()
    for first, values in flag.choices:
        if _at(rules, first):
            current = values
    return current


def flag_text(flag: Flag, value: object, rules: RuleSet) -> list[str] | None:
    """The shell words for one flag and its value, quoted; None when the release would not change
    with it (a ``store_true`` flag's False, an inverted flag's False)."""
    if flag.kind == FlagKind.BOOL:
        if flag.inverted and not value:
            return None  # "not disabled" is the release's own default, whichever it is
        if bool(value) != flag.inverted:
            return [flag.cli]
        if not _at(rules, flag.negatable_from):
            return None  # store_true: off is its default, and there is no --no- form
        return ["--no-" + flag.cli[2:]]
    if flag.kind == FlagKind.LENGTH and value in (-1, "auto"):
        return [flag.cli, "auto" if _at(rules, flag.auto_from) else "-1"]
    if flag.kind == FlagKind.FLOAT and isinstance(value, float):
        text = repr(round(value, 6))
        return [flag.cli, text[:-2] if text.endswith(".0") else text]
    return [flag.cli, shlex.quote(str(value))]


_INT = re.compile(r"-?[0-9]+")
_PAIR = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,31}=[0-9]{1,12}")


def typed_value(flag: Flag, raw: object, rules: RuleSet) -> object:
    """A form or log text as the value vLLM reads (``"0,85"`` → 0.85, ``"false"`` → False, ``32k`` →
    32000), or ``CalcError`` for one its release would refuse (a command without a model is printed
    from raw inputs)."""
    from .inputs import parse_bool  # inputs imports this module

    if flag.kind == FlagKind.BOOL:
        return parse_bool(raw, field=flag.name)
    if flag.kind == FlagKind.LENGTH:
        return parse_max_model_len(raw)
    if flag.kind == FlagKind.INT:
        return parse_int(raw, field=flag.name)
    if flag.kind == FlagKind.SIZE:
        return parse_human_int(raw, field=flag.name)
    if flag.kind == FlagKind.FLOAT:
        return parse_float(raw, field=flag.name, minimum=0.0)
    text = str(raw).strip()
    if flag.kind == FlagKind.CHOICE:
        choices = choices_at(flag, rules)
        if (choices and text not in choices) or (not choices and not _INT.fullmatch(text)):
            raise CalcError(
                "bad_choice",
                f"{flag.name}: {text!r}",
                field=flag.name,
                value=text,
                choices=", ".join(choices),
            )
        return text
    if _at(rules, flag.json_from):
        check_json_depth(
            text, field=flag.name, limit=2
        )  # before json.loads: deep nesting kills Pyodide's stack
        try:
            return json.dumps(json.loads(text))
        except (ValueError, RecursionError):
            raise CalcError(
                "mm_limit_bad", f"{flag.name}: not JSON", field=flag.name, value=shorten(text)
            ) from None
    items = text.split(",")
    if len(items) > 16 or not all(_PAIR.fullmatch(item) for item in items):
        raise CalcError(
            "mm_limit_bad",
            f"{flag.name}: not key=value pairs",
            field=flag.name,
            value=shorten(text),
        )
    return text


# --------------------------------------------------------------------------- #
# Reading a printed command back (tests): what vLLM's argparse would do with it
# --------------------------------------------------------------------------- #


class CommandError(ValueError):
    """A printed command vLLM's argparse would refuse (or misread)."""


@dataclass(frozen=True, kw_only=True)
class ParsedCommand:
    """What vLLM would be started with: the model word and each flag's value, by input name."""

    model: str
    """The model word after ``vllm serve`` (or its ``--model``)."""
    flags: dict[str, object]
    """Input name → the value read (bool for BOOL flags, text otherwise)."""


_FLOAT = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")


def _check_value(flag: Flag, value: str, rules: RuleSet) -> None:
    kind = flag.kind
    if kind == FlagKind.INT and not _INT.fullmatch(value):
        raise CommandError(f"{flag.cli}: {value!r} is not an integer")
    if kind == FlagKind.FLOAT and not _FLOAT.fullmatch(value):
        raise CommandError(f"{flag.cli}: {value!r} is not a number")
    if kind in (FlagKind.SIZE, FlagKind.LENGTH):
        if kind == FlagKind.LENGTH and value in ("auto", "-1"):
            if value == "auto" and not _at(rules, flag.auto_from):
                raise CommandError(f"{flag.cli} auto needs a later release")
            return
        if not _at(rules, flag.human_from):
            if not _INT.fullmatch(value):
                raise CommandError(f"{flag.cli}: {value!r} is not an integer for this release")
            return
        try:
            parse_human_int(value, field=flag.name)
        except CalcError as exc:
            raise CommandError(f"{flag.cli}: {exc}") from None
    if kind == FlagKind.CHOICE:
        choices = choices_at(flag, rules)
        if choices and value not in choices:
            raise CommandError(f"{flag.cli}: {value!r} is not one of {', '.join(choices)}")
        if not choices and not _INT.fullmatch(value):
            raise CommandError(f"{flag.cli}: {value!r} is not an integer")
    if kind == FlagKind.JSON:
        _check_json(flag, value, rules)


def _check_json(flag: Flag, value: str, rules: RuleSet) -> None:
    if _at(rules, flag.json_from):
        try:
            parsed = json.loads(value)
        except ValueError:
            raise CommandError(f"{flag.cli}: {value!r} is not JSON") from None
        if not isinstance(parsed, dict):
            raise CommandError(f"{flag.cli}: {value!r} is not a JSON object")
        return
    for item in value.split(","):
        key, eq, count = item.partition("=")
        if not eq or not key or not _INT.fullmatch(count):
            raise CommandError(f"{flag.cli}: {value!r} is not key=value pairs")


def parse_serve_command(command: str, rules: RuleSet | None = None) -> ParsedCommand:
    """``vllm serve <model> [flags]`` as a POSIX shell and vLLM's argparse would read it, or
    ``CommandError``.

    The line continuations the core prints (`` \\`` + newline) are joined the way a shell joins
    them; every flag must be one of the table's, declared at the release of ``rules`` (None: the
    newest), with a value of its declared type and nothing left over.
    """
    rules = rules if rules is not None else rules_for(None)
    joined = command.replace(
        "\\\n", ""
    )  # a shell drops a backslash-newline outside quotes (shlex does not)
    if "\n" in joined or "\r" in joined:
        raise CommandError("a bare line break splits the command")
    try:
        words = shlex.split(joined, comments=False, posix=True)
    except ValueError as exc:
        raise CommandError(f"not one shell command: {exc}") from None
    # every word exactly as shlex.quote writes it, between spaces: nothing a shell would expand,
    # split or run
    pos = 0
    for word in words:
        quoted = shlex.quote(word)
        if not joined.startswith(quoted, pos):
            raise CommandError(f"{word!r} is not quoted as a POSIX shell needs")
        pos += len(quoted)
        if pos < len(joined) and joined[pos] != " ":
            raise CommandError(f"{word!r} runs into the next word")
        while pos < len(joined) and joined[pos] == " ":
            pos += 1
    if pos != len(joined):
        raise CommandError("text left after the last word")
    if words[:2] != ["vllm", "serve"] or len(words) < 3 or words[2].startswith("-"):
        raise CommandError("expected vllm serve <model>")
    flags: dict[str, object] = {}
    rest: Sequence[str] = words[3:]
    i = 0
    while i < len(rest):
        word = rest[i]
        negative = word.startswith("--no-")
        cli = "--" + word[5:] if negative else word
        flag = FLAG_BY_CLI.get(cli)
        if flag is None:
            raise CommandError(f"unknown flag {word!r}")
        if not accepts(flag, rules):
            raise CommandError(f"{flag.cli} is not in this release")
        if flag.name in flags:
            raise CommandError(f"{flag.cli} given twice")
        if flag.kind == FlagKind.BOOL:
            if negative and not _at(rules, flag.negatable_from):
                raise CommandError(f"{word} is not in this release (store_true)")
            flags[flag.name] = (not negative) != flag.inverted
            i += 1
            continue
        if negative:
            raise CommandError(f"unknown flag {word!r}")
        if i + 1 >= len(rest) or rest[i + 1].startswith("--"):
            raise CommandError(f"{flag.cli} needs a value")
        _check_value(flag, rest[i + 1], rules)
        flags[flag.name] = rest[i + 1]
        i += 2
    return ParsedCommand(model=words[2], flags=flags)
