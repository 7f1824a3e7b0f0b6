"""What PyTorch's caching allocator counts beyond a tensor's own bytes when vLLM creates the
weights.

"Model loading took X GiB" is ``torch.cuda.max_memory_allocated`` after a peak reset, minus the same
before loading (vllm/utils/mem_utils.py ``DeviceMemoryProfiler``, vllm/platforms/cuda.py
``get_current_memory_usage``, v0.19.0). The allocator (PyTorch c10/cuda/CUDACachingAllocator.cpp,
``get_allocation_size`` and ``should_split``; constants in c10/core/AllocatorConfig.h) serves a
request above 10 MiB (``kMinLargeAlloc``) from a new segment rounded up to 2 MiB (``kRoundLarge``)
and splits off the rest only when more than 1 MiB (``kSmallSize``) remains: a remainder of 1 MiB or
less stays in the block and counts as allocated. Each parameter is its own ``torch.empty`` (vLLM
creates them all before reading the checkpoint), so a 16-bit linear weight of 129.5 MiB holds 130
MiB, one of 231 MiB holds 232.

Counted for 16-bit decoders with one attention and one gated MLP per layer (or a plain fc1/fc2 MLP),
per TP rank: fused q/k/v, o, gate/up, down, and the (padded) embedding and output matrices. Requests
of 1 to 10 MiB share 20 MiB segments and lose at most one remainder per segment: left out. MoE, MLA,
hybrid and quantized layouts: not counted (their slack falls in the load constant's band,
estimates.py).
"""

from __future__ import annotations

from ..arch.families import Mlp, row_of
from ..arch.model import LayerKind, ModelSpec
from ..units import round_up

__all__ = ["segment_slack", "dense_weight_shapes", "allocator_slack_bytes", "padded_vocab"]

_MIB = 1 << 20
_MIN_BLOCK = 512  # kMinBlockSize
_SMALL_SIZE = _MIB  # kSmallSize
_MIN_LARGE_ALLOC = 10 * _MIB  # kMinLargeAlloc
_ROUND_LARGE = 2 * _MIB  # kRoundLarge
_ELEMENT_BYTES = 2
_VOCAB_PADDING = 64
"""vllm/model_executor/layers/vocab_parallel_embedding.py ``DEFAULT_VOCAB_PADDING_SIZE``."""


def padded_vocab(vocab_size: int) -> int:
    """``pad_vocab_size``: the vocabulary rounded up to 64 rows (embedding and output matrices)."""
    return round_up(vocab_size, _VOCAB_PADDING)


def segment_slack(size: int) -> int:
    """Bytes a fresh request of ``size`` bytes holds beyond its size (module docstring); 0 up to 10
    MiB."""
    if size < _MIN_LARGE_ALLOC:
        return 0
    remaining = round_up(size, _ROUND_LARGE) - round_up(size, _MIN_BLOCK)
    return remaining if remaining <= _SMALL_SIZE else 0


def dense_weight_shapes(model: ModelSpec, tensor_parallel_size: int) -> tuple[int, ...]:
    """One layer's large 16-bit weights on one TP rank, in bytes: q/k/v, o, then the MLP's one or
    two."""
    tp = max(1, tensor_parallel_size)
    h, i = model.hidden_size, model.intermediate_size // tp
    q_heads = model.num_attention_heads // tp
    kv_heads = max(
        1, model.total_num_kv_heads // tp
    )  # linear.py QKVParallelLinear replicates kv heads below TP
    d = model.head_size
    # the family table's MLP shape: fc1 → fc2, or gate_up → down
    mlp = (i * h, h * i) if row_of(model.model_type).mlp == Mlp.PLAIN else (2 * i * h, h * i)
    return tuple(
        n * _ELEMENT_BYTES for n in ((q_heads + 2 * kv_heads) * d * h, h * q_heads * d, *mlp)
    )


def allocator_slack_bytes(
    model: ModelSpec, *, tensor_parallel_size: int, pipeline_parallel_size: int
) -> int:
    """The allocator's unsplit remainders over one GPU's 16-bit decoder weights (module
    docstring)."""
    kinds = model.layer_kinds  # counted in C: up to 10,000 layers, on every plan
    plain = kinds.count(LayerKind.FULL) + kinds.count(LayerKind.SLIDING) == len(kinds)
    if model.is_moe or model.quant.method != "none" or model.mamba is not None or not plain:
        return 0
    tp, pp = max(1, tensor_parallel_size), max(1, pipeline_parallel_size)
    per_layer = sum(segment_slack(s) for s in dense_weight_shapes(model, tp))
    matrix = segment_slack(
        padded_vocab(model.vocab_size) // tp * model.hidden_size * _ELEMENT_BYTES
    )
    matrices = matrix * (1 if model.tie_word_embeddings else 2)
    return (per_layer * model.num_layers + matrices) // pp
