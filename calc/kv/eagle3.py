"""An EAGLE-3 drafter (``--speculative-config '{"method": "eagle3", "model": …}'``) read from its
``config.json``.

vLLM loads the draft checkpoint's config (``speculative_config.model``); the calculator cannot fetch
it, so the reader pastes it (input ``draft_config``). Read at the v0.25.1 tag:

* vllm/model_executor/models/llama_eagle3.py ``Eagle3LlamaForCausalLM``: ``num_hidden_layers``
  decoder layers named ``model.layers.{target layers + i}`` (``start_layer_id``), each a
  ``LlamaAttention`` with the drafter's heads and the engine's cache config
  (``speculative_config.kv_cache_dtype`` unset: the target's), so one full-attention KV layer each,
  grouped with the target's (vllm/v1/worker/gpu_model_runner.py ``get_kv_cache_spec``). Parameters:
  layer 0's ``qkv_proj`` reads ``2 × hidden`` (embeddings and hidden state concatenated), later
  layers ``hidden``; ``o_proj``; the gated MLP; three RMSNorms (input, post-attention,
  ``hidden_norm``) on layer 0, two on the others; ``fc`` (a ``ReplicatedLinear``, whole on every TP
  rank) from ``num_aux_hidden_states`` (3) × ``target_hidden_size`` to ``hidden``, with an optional
  ``input_norm`` (``norm_before_fc``) and ``fc_norm``; the final ``norm``; ``lm_head`` over
  ``draft_vocab_size`` (a ``ParallelLMHead``: rows padded to 64,
  vllm/model_executor/layers/vocab_parallel_embedding.py, then split over TP);
  ``draft_id_to_target_id``, ``draft_vocab_size`` int64 (whole).
* vllm/v1/spec_decode/llm_base_proposer.py ``_maybe_share_embeddings``: a drafter without its own
  ``embed_tokens`` (or with the target's) uses the target's; its own copy is freed before "Model
  loading took" is measured (vllm/utils/mem_utils.py ``DeviceMemoryProfiler``: current allocation
  after, less before), so it is not counted. ``_maybe_share_lm_head`` shares the head only when it
  equals the target's, which a reduced draft vocabulary never does.
* Linear layers are in the model dtype (``params_dtype`` of the target's config); column-parallel
  layers keep their output shard, row-parallel ones their input shard
  (vllm/model_executor/layers/linear.py), KV heads replicated when fewer than TP ranks
  (``QKVParallelLinear``).

Modelled: Llama-layout drafters (``LlamaForCausalLMEagle3`` / ``Eagle3LlamaForCausalLM``,
``model_type`` llama) whose attention has the target's KV heads and head size (so their KV layers
share the target's group), for targets whose layers are all full attention. Others are refused with
the reason.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass

from ..arch.model import LayerKind, ModelSpec
from ..errors import CalcError
from ..limits import check_json_depth, shorten

__all__ = ["Eagle3Draft", "read_eagle3_draft", "EAGLE3_ARCHITECTURES"]

EAGLE3_ARCHITECTURES = ("LlamaForCausalLMEagle3", "Eagle3LlamaForCausalLM")
_MAX_CHARS = 2_000_000  # a config.json, as for the target's pasted config
_D2T_BYTES = 8  # torch.long
_VOCAB_PADDING = 64  # vllm/model_executor/layers/vocab_parallel_embedding.py pad_vocab_size


@dataclass(frozen=True, kw_only=True)
class Eagle3Draft:
    """The drafter's KV layers and one GPU's share of its parameters."""

    num_layers: int
    """Decoder layers, each one full-attention KV layer."""
    split_parameters: int
    """One TP rank's parameters of the split layers (qkv, o, MLP, LM head)."""
    replicated_parameters: int
    """Parameters whole on every rank (the norms, ``fc``)."""
    draft_vocab_size: int
    """Rows of ``draft_id_to_target_id`` (int64, whole on every rank)."""

    def weight_bytes(self, element_bytes: int) -> int:
        """One GPU's bytes: the parameters in the model dtype plus the int64 vocabulary map."""
        return (
            self.split_parameters + self.replicated_parameters
        ) * element_bytes + self.draft_vocab_size * _D2T_BYTES


def _bad(why: str, value: object = "") -> CalcError:
    return CalcError(
        "draft_config_bad", f"draft_config: {why}", field="draft_config", value=shorten(value)
    )


def _parse(raw: object) -> Mapping[str, object]:
    if isinstance(raw, Mapping):
        return raw
    text = str(raw).strip()
    if len(text) > _MAX_CHARS:
        raise _bad(f"longer than {_MAX_CHARS} characters", text[:40])
    check_json_depth(text, field="draft_config", limit=64)
    try:
        parsed = json.loads(text)
    except (ValueError, RecursionError):
        raise _bad("not valid JSON: paste the drafter's config.json", text[:40]) from None
    if not isinstance(parsed, Mapping):
        raise _bad("not a JSON object: paste the drafter's config.json", text[:40])
    return parsed


def _width(cfg: Mapping[str, object], key: str, default: int | None = None) -> int:
    value = cfg.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 1 << 24:
        raise _bad(f"{key} must be a whole number from 1 to {1 << 24}", value)
    return value


def _refused(why: str, **params: object) -> CalcError:
    return CalcError(
        "spec_eagle3_layout",
        f"speculative_config: this EAGLE-3 drafter is not modelled: {why}",
        field="draft_config",
        **params,
    )


def _check_drafter(cfg: Mapping[str, object], target: ModelSpec) -> None:
    """Refuse drafters and targets whose layout the calculator does not build (llama_eagle3.py)."""
    architectures = cfg.get("architectures")
    if (
        not isinstance(architectures, list)
        or not any(a in EAGLE3_ARCHITECTURES for a in architectures)
        or cfg.get("model_type", "llama") != "llama"
    ):
        raise _refused(
            "only Llama-layout EAGLE-3 drafters (LlamaForCausalLMEagle3) are read here",
            key=shorten(architectures),
        )
    if any(kind != LayerKind.FULL for kind in target.layer_kinds) or target.is_mla:
        raise _refused(
            "the target must have full attention on every layer (no sliding window, MLA or Mamba)"
        )


def read_eagle3_draft(raw: object, target: ModelSpec, *, tensor_parallel_size: int) -> Eagle3Draft:
    """The drafter's layers and parameters per GPU (module docstring), or a clear refusal."""
    cfg = _parse(raw)
    _check_drafter(cfg, target)
    hidden, heads = _width(cfg, "hidden_size"), _width(cfg, "num_attention_heads")
    kv_heads = _width(cfg, "num_key_value_heads", heads)
    head = _width(cfg, "head_dim", hidden // heads if hidden % heads == 0 else None)
    if (kv_heads, head) != (target.total_num_kv_heads, target.head_size):
        raise _refused(
            f"its attention ({kv_heads} KV heads × {head}) differs from the target's "
            f"({target.total_num_kv_heads} × {target.head_size}), so its KV layers form a group of "
            "their own, which the calculator does not build"
        )
    inter, layers = _width(cfg, "intermediate_size"), _width(cfg, "num_hidden_layers")
    if layers > 64:
        raise _bad("num_hidden_layers above 64 is not an EAGLE-3 drafter", layers)
    vocab = _width(cfg, "vocab_size", target.vocab_size)
    draft_vocab = _width(
        cfg, "draft_vocab_size", vocab
    )  # "default to the base vocab size when absent"
    target_hidden = _width(cfg, "target_hidden_size", hidden)
    eagle = cfg.get("eagle_config")
    aux_ids = eagle.get("eagle_aux_hidden_state_layer_ids") if isinstance(eagle, Mapping) else None
    use_aux = not (isinstance(eagle, Mapping) and eagle.get("use_aux_hidden_state") is False)
    aux = _width(
        cfg, "num_aux_hidden_states", len(aux_ids) if isinstance(aux_ids, list) and aux_ids else 3
    )
    tp = max(1, tensor_parallel_size)
    q_shard = heads // tp * head
    kv_shard = max(1, kv_heads // tp) * head
    split = replicated = 0
    for i in range(layers):
        qkv_in = 2 * hidden if i == 0 else hidden
        split += (
            qkv_in * (q_shard + 2 * kv_shard)
            + q_shard * hidden
            + hidden * 2 * (inter // tp)
            + (inter // tp) * hidden
        )
        replicated += (
            3 if i == 0 else 2
        ) * hidden  # input, post-attention (and layer 0's hidden_norm) RMSNorms
    if use_aux:
        fc_in = aux * target_hidden
        replicated += fc_in * hidden
        replicated += fc_in if cfg.get("norm_before_fc") is True else 0
        replicated += aux * target_hidden if cfg.get("fc_norm") is True else 0
    replicated += hidden  # the final norm
    split += (
        -(-draft_vocab // _VOCAB_PADDING) * _VOCAB_PADDING // tp * hidden
    )  # lm_head: ParallelLMHead pads its rows to 64, then splits
    return Eagle3Draft(
        num_layers=layers,
        split_parameters=split,
        replicated_parameters=replicated,
        draft_vocab_size=draft_vocab,
    )
