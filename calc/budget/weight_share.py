"""One GPU's share of the checkpoint under TP and PP, and the buffers vLLM allocates while loading.

"Model loading took X GiB" is what the torch allocator holds after ``load_model`` (vllm/utils
``DeviceMemoryProfiler``: ``max_memory_allocated`` after a peak reset): this GPU's parameters and
the buffers the model's constructor creates on it. Tensor parallelism splits the linear layers and
the (vocabulary-parallel) embeddings, not everything:

* vllm/model_executor/layers/layernorm.py ``RMSNorm`` / ``nn.LayerNorm``: every norm is whole on
  each rank;
* vllm/model_executor/models/qwen3_moe.py (and the other MoE models): the router ``gate`` is a
  ``ReplicatedLinear`` (experts × hidden per MoE layer); Qwen3's ``q_norm`` / ``k_norm`` are whole
  too;
* vllm/model_executor/layers/linear.py ``RowParallelLinear``: "bias is not parallelized";
* vllm/model_executor/models/qwen3_vl.py (v0.11.0; ``mm_encoder_tp_mode`` "weights", the default of
  vllm/config/multimodal.py): the ViT's ``patch_embed`` (``nn.Conv3d``) and ``pos_embed``
  (``nn.Embedding``), its LayerNorms, the row-parallel biases (``attn.proj``, ``mlp.linear_fc2``,
  the mergers' ``linear_fc2``) are whole on each rank; qkv, fc1 and the mergers' fc1 are split.
  (``--mm-encoder-tp-mode data`` keeps the whole tower on every rank: not modelled.)
* vllm/model_executor/models/opt.py (v0.11.0): the learned positions ("Positional embeddings are
  replicated (not sharded)"), the LayerNorms' biases and ``project_in`` / ``project_out`` are whole
  on each rank (``ModelSpec.unsplit_parameters``, opt_layout.py).

PP stages are taken as balanced: what TP does not split is divided over the stages like the rest.
All figures are parameters or integer bytes.
"""

from __future__ import annotations

from ..arch.families import row_of, tower_of
from ..arch.model import ModelSpec
from ..versions import RuleSet
from .alloc_slack import allocator_slack_bytes, padded_vocab

__all__ = [
    "replicated_parameters",
    "replicated_bytes",
    "tower_replicated_parameters",
    "unloaded_tower_bytes",
    "share_bytes",
    "load_buffer_bytes",
    "vocab_padding_bytes",
    "rope_cache_bytes",
    "load_extra_bytes",
]

_ELEMENT_BYTES = 2  # norms, routers and the vision tower stay 16-bit in quantized checkpoints too

# vllm/model_executor/layers/rotary_embedding/mrope.py ``MRotaryEmbedding``: "We enlarge
# max_position_embeddings to 4 times to get a larger the cos and sin cache" (rotary_embedding.py
# from v0.7.2, commit bf3b79e "[VLM] Qwen2.5-VL"; before it the cache had max_position_embeddings
# rows). The cache is a non-persistent buffer of (positions, rotary_dim) in the model dtype, one per
# model (``get_rope`` caches instances), whole on every rank. ``rope_cache_bytes`` counts one plain
# cache (ModelSpec.rotary); the enlargement adds three more.
_MROPE_CACHE_FACTOR = 4


def _router_parameters(model: ModelSpec) -> int:
    """``gate`` of every MoE layer: experts × hidden (the routed experts hold 3 × hidden × width
    each)."""
    width = model.moe_intermediate_size or model.intermediate_size
    if not model.is_moe or width <= 0:
        return 0
    return model.num_expert_parameters // (3 * width)


def tower_replicated_parameters(model: ModelSpec) -> int:
    """The Qwen3-VL ViT's parameters TP leaves whole (module docstring); 0 for towers not read here.

    Patch embedding C × T × p² × h + h; position embedding positions × h; per block two LayerNorms
    (4h) and the biases of ``attn.proj`` and ``mlp.linear_fc2`` (2h); the merger's LayerNorm over h
    (2h) and its fc2 bias (text width); each deep-stack merger's LayerNorm over h × m² and fc2 bias.
    """
    v = model.vision
    if v is None or not _qwen3_tower(v.family) or not v.hidden_size or not v.depth:
        return 0
    h, out, merged = v.hidden_size, model.hidden_size, v.hidden_size * v.spatial_merge_size**2
    embed = v.in_channels * v.temporal_patch_size * v.patch_size**2 * h + h
    positions = v.num_position_embeddings * h
    blocks = v.depth * 6 * h
    mergers = (2 * h + out) + v.deepstack_layers * (2 * merged + out)
    return embed + positions + blocks + mergers


def replicated_parameters(model: ModelSpec, *, tower_loaded: bool = True) -> int:
    """Parameters every TP rank holds whole: the decoder's norms (2 per layer + the final one;
    Qwen3's per-head q/k norms), the MoE routers, the vision tower's unsplit parts (none when vLLM
    builds no tower, kvcalc.tower_skip) and what a family adds (``ModelSpec.unsplit_parameters``:
    OPT's biases and learned positions, opt_layout.py)."""
    norms = (2 * model.num_layers + 1) * model.hidden_size
    if row_of(
        model.model_type
    ).qk_norm:  # per-head q_norm / k_norm, RMSNorm(head_dim), on every rank
        norms += 2 * model.num_layers * model.head_size
    tower = tower_replicated_parameters(model) if tower_loaded else 0
    return norms + _router_parameters(model) + tower + model.unsplit_parameters


def share_bytes(
    checkpoint_bytes: int,
    replicated_bytes: int,
    *,
    tensor_parallel_size: int,
    pipeline_parallel_size: int,
) -> int:
    """One GPU's checkpoint bytes: the split part over TP × PP, the replicated part over PP only."""
    tp, pp = max(1, tensor_parallel_size), max(1, pipeline_parallel_size)
    replicated = min(max(0, replicated_bytes), checkpoint_bytes)
    return (checkpoint_bytes - replicated) // (tp * pp) + replicated // pp


def replicated_bytes(model: ModelSpec, *, tower_loaded: bool = True) -> int:
    """``replicated_parameters`` in bytes (16-bit)."""
    return replicated_parameters(model, tower_loaded=tower_loaded) * _ELEMENT_BYTES


def unloaded_tower_bytes(model: ModelSpec) -> int:
    """The checkpoint bytes vLLM does not load in its text-only mode: the tower and projector the
    weights' total holds (``ModelSpec.tower_parameters``), 16-bit as every tower here (also in
    quantized checkpoints)."""
    return model.tower_parameters * _ELEMENT_BYTES


def load_buffer_bytes(
    model: ModelSpec, *, rules: RuleSet, max_num_batched_tokens: int, tower_loaded: bool
) -> int:
    """Release- and deployment-dependent buffers the model's constructor allocates on every GPU.

    * MRoPE's enlarged cos/sin cache: 3 more copies of (max_position_embeddings, head size) (from
      0.7.2);
    * Qwen3-VL's deep-stack buffers (qwen3_vl.py ``deepstack_input_embeds``, v0.11.0 to main): one
      (max_num_batched_tokens, text hidden) tensor per deep-stack level, when the tower is built (it
      is not in vLLM's text-only mode, kvcalc.tower_skip: ``self.visual = None`` from v0.11.0,
      #26000).
    """
    total = 0
    mrope = model.rotary.mrope_max_position
    if mrope and rules.mrope_enlarged_cache:
        total += (_MROPE_CACHE_FACTOR - 1) * mrope * model.head_size * _ELEMENT_BYTES
    v = model.vision
    if tower_loaded and v is not None and _qwen3_tower(v.family) and v.deepstack_layers:
        total += (
            v.deepstack_layers * max(0, max_num_batched_tokens) * model.hidden_size * _ELEMENT_BYTES
        )
    return total


def vocab_padding_bytes(
    model: ModelSpec, *, tensor_parallel_size: int, pipeline_parallel_size: int
) -> int:
    """Rows vLLM adds to the embedding (and an untied output matrix) beyond the checkpoint's
    vocabulary.

    vllm/model_executor/layers/vocab_parallel_embedding.py ``VocabParallelEmbedding`` /
    ``ParallelLMHead`` (v0.19.0): ``pad_vocab_size(vocab, DEFAULT_VOCAB_PADDING_SIZE = 64)`` rows,
    split over TP; a tied head shares the embedding's tensor. CodeLlama's 32016 → 32064: 48 × 4096 ×
    2 B × 2 matrices = 786,432 B.
    """
    rows = padded_vocab(model.vocab_size) - model.vocab_size
    matrices = 1 if model.tie_word_embeddings else 2
    tp, pp = max(1, tensor_parallel_size), max(1, pipeline_parallel_size)
    return rows * model.hidden_size * _ELEMENT_BYTES * matrices // (tp * pp)


def rope_cache_bytes(model: ModelSpec) -> int:
    """Every distinct rotary cos/sin cache, whole on every GPU (kvcalc.rope_cache)."""
    return sum(c.bytes for c in model.rotary.caches)


def load_extra_bytes(
    model: ModelSpec, *, tensor_parallel_size: int, pipeline_parallel_size: int
) -> int:
    """What one GPU's "Model loading took" holds beyond its checkpoint share and
    ``load_buffer_bytes``: the rotary caches, the vocabulary padding and the allocator's unsplit
    remainders (kvcalc.alloc_slack)."""
    kw = {
        "tensor_parallel_size": tensor_parallel_size,
        "pipeline_parallel_size": pipeline_parallel_size,
    }
    return (
        rope_cache_bytes(model)
        + vocab_padding_bytes(model, **kw)
        + allocator_slack_bytes(model, **kw)
    )


def _qwen3_tower(wrapper: str) -> bool:
    """Qwen3-VL's tower (the family table's ``Tower.qwen3_tower``): qkv gathered, deep-stack
    mergers."""
    tower = tower_of(wrapper)
    return tower is not None and tower.qwen3_tower
