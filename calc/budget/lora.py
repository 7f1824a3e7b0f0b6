"""``--enable-lora``: the GPU memory vLLM allocates for the adapter slots.

vllm/lora/model_manager.py ``_create_lora_modules`` wraps every linear layer of the model
(vllm/lora/utils.py ``get_supported_lora_modules``: "all linear layers support LoRA") and the
modules a model class names in ``embedding_modules``; each wrapper allocates, once, zero-filled
stacks for ``max_loras`` slots (``lora_slots``) in the LoRA dtype (``lora_dtype`` auto = the model
dtype, vllm/config/lora.py):

* vllm/lora/layers/base_linear.py ``create_lora_weights``: per slice, A ``(max_loras, 1, rank,
  input_size)`` and B ``(max_loras, 1, output_size, rank)``; column-parallel layers keep the whole
  input and their output shard, row- parallel ones (vllm/lora/layers/row_parallel_linear.py) their
  input shard and the whole output (rank not sharded: ``fully_sharded_loras`` off).
  column_parallel_linear.py: ``qkv_proj`` (MergedQKVParallelLinearWithLoRA) has 3 slices (q, k, v
  shards), ``gate_up_proj`` (MergedColumnParallelLinearWithLoRA) 2.
* vllm/lora/layers/vocal_parallel_embedding.py: A ``(max_loras, org_vocab_size, rank)``, B
  ``(max_loras, 1, hidden, rank)``, whole on every rank; vllm/lora/layers/logits_processor.py
  (``lm_head``): A ``(max_loras, 1, rank, hidden)``, B ``(max_loras, 1, vocab_size, rank)``. Only
  where the model class lists them in ``embedding_modules`` (LlamaForCausalLM, GraniteForCausalLM;
  Qwen3ForCausalLM from 0.16.0, #29816; never Qwen2, Gemma 2/3).

These are allocated while the model loads (vllm/v1/worker/gpu_model_runner.py ``load_model``:
``load_lora_model`` inside the ``DeviceMemoryProfiler`` of "Model loading took"), so they come out
of the KV budget with the weights. The dummy adapters of the profile run
(vllm/v1/worker/lora_model_runner_mixin.py) are copied into these slots; the punica wrapper's index
buffers (vllm/lora/punica_wrapper/punica_gpu.py, ``max_num_batched_tokens`` integers) are left out
(kilobytes). ``--max-cpu-loras`` sizes the host-side adapter cache only (``capacity``): no GPU
memory.

Modelled from 0.12.0 (#28545 removed the extra LoRA vocabulary, first in the v0.12.0 tag); before
it, and for MoE, MLA, Mamba, multimodal, tied-embedding and other layouts, the calculator refuses
rather than guesses.
"""

from __future__ import annotations

from ..arch.families import LoraLayout, row_of
from ..arch.model import LayerKind, ModelSpec
from ..deployment import MAX_LORA_RANKS, LoraSettings
from ..errors import CalcError
from ..versions import RuleSet

__all__ = ["LoraSettings", "MAX_LORA_RANKS", "lora_slot_bytes", "check_lora_supported"]


def _refused(code: str, why: str, **params: object) -> CalcError:
    """``lora_<code>``: one message per reason in strings.py (es/zh/en)."""
    return CalcError(
        f"lora_{code}", f"--enable-lora is not modelled here: {why}", field="enable_lora", **params
    )


def _layout(model_type: str) -> LoraLayout:
    """The family table's LoRA layout (Llama's packed qkv_proj / gate_up_proj, with or without
    embeddings)."""
    return row_of(model_type).lora


def _embeddings_wrapped(model_type: str, rules: RuleSet) -> bool:
    """``embedding_modules`` lists embed_tokens / lm_head (Qwen3: from #29816,
    RuleSet.qwen3_lora_embeddings)."""
    layout = _layout(model_type)
    return layout == LoraLayout.PACKED_EMBEDDINGS or (
        layout == LoraLayout.PACKED_EMBEDDINGS_FROM_RULE and rules.qwen3_lora_embeddings
    )


def check_lora_supported(model: ModelSpec, rules: RuleSet, *, pipeline_parallel_size: int) -> None:
    """Refuse (clear CalcError) what ``lora_slot_bytes`` does not size."""
    if not rules.lora_without_extra_vocab:
        raise _refused(
            "release", "releases before 0.12.0 add an extra LoRA vocabulary (#28545 removed it)"
        )
    if (
        model.is_moe
        or model.is_mla
        or model.mamba is not None
        or model.vision is not None
        or model.vision_parameters
    ):
        raise _refused(
            "layout",
            "only dense text models with Llama's layer layout are sized (not MoE, MLA, Mamba or "
            "multimodal)",
        )
    if _layout(model.model_type) == LoraLayout.NOT_READ or any(
        k not in (LayerKind.FULL, LayerKind.SLIDING) for k in model.layer_kinds
    ):
        raise _refused(
            "model_type",
            f"the LoRA layers of model type {model.model_type} are not read here",
            model_type=model.model_type,
        )
    if model.tie_word_embeddings and _embeddings_wrapped(model.model_type, rules):
        raise _refused("tied", "a tied LM head with LoRA on the embeddings")
    if pipeline_parallel_size > 1:
        raise _refused("pp", "LoRA with pipeline parallelism")


def lora_slot_bytes(
    model: ModelSpec, lora: LoraSettings, rules: RuleSet, *, tensor_parallel_size: int
) -> int:
    """One GPU's adapter-slot stacks (A and B of every wrapped layer), in the model dtype (2
    bytes)."""
    tp = tensor_parallel_size
    h, inter, head = model.hidden_size, model.intermediate_size, model.head_size
    q_shard = model.num_attention_heads // tp * head
    kv_shard = (
        max(1, model.total_num_kv_heads // tp) * head
    )  # QKVParallelLinear replicates KV heads below TP
    per_layer = (
        3 * h
        + q_shard
        + 2 * kv_shard  # qkv_proj: A 3 × (rank, hidden), B (q + k + v shard, rank)
        + q_shard
        + h  # o_proj (row): A (rank, q shard), B (hidden, rank)
        + 2 * h
        + 2 * (inter // tp)  # gate_up_proj: A 2 × (rank, hidden), B 2 × (inter shard, rank)
        + inter // tp
        + h
    )  # down_proj (row): A (rank, inter shard), B (hidden, rank)
    elements = per_layer * model.num_layers
    if _embeddings_wrapped(model.model_type, rules):
        elements += (
            model.vocab_size + h
        ) * 2  # embed_tokens A (vocab, rank) + B (hidden, rank); lm_head likewise
    dtype_bytes = 4 if model.dtype == "float32" else 2
    return elements * lora.max_loras * lora.max_lora_rank * dtype_bytes
