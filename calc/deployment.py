"""How a model is served: GPU, parallelism, limits, cache settings and measured figures."""

from __future__ import annotations

from dataclasses import dataclass, field

from .units import GiB
from .versions import RuleSet, rules_for

__all__ = [
    "Measured",
    "Deployment",
    "LoraSettings",
    "SpeculativeConfig",
    "MAX_LORA_RANKS",
    "batch_defaults",
    "DEFAULT_BLOCK_SIZE",
    "INTERCONNECTS",
    "MODEL_DTYPES",
]

DEFAULT_BLOCK_SIZE = 16  # vllm/config/cache.py CacheConfig.DEFAULT_BLOCK_SIZE
INTERCONNECTS = ("unknown", "nvswitch", "pcie", "unified")
"""``--interconnect`` values; ``unknown`` (the default) first."""
MODEL_DTYPES = ("auto", "half", "float16", "bfloat16", "float", "float32")
"""``--dtype`` values (vllm/config/model.py ModelDType), the same in every release modelled."""


# vllm/config/lora.py MaxLoRARanks
MAX_LORA_RANKS = (1, 8, 16, 32, 64, 128, 256, 320, 512)
DEFAULT_MAX_LORA_RANK = 16  # vllm/config/lora.py max_lora_rank
DEFAULT_MAX_LORAS = 1  # vllm/config/lora.py max_loras


@dataclass(frozen=True, kw_only=True)
class LoraSettings:
    """``--enable-lora --max-loras N --max-lora-rank R [--max-cpu-loras M]``."""

    max_loras: int = DEFAULT_MAX_LORAS
    """``--max-loras``: adapters resident on the GPU at once, each with its own slot."""
    max_lora_rank: int = DEFAULT_MAX_LORA_RANK
    """``--max-lora-rank``: the rank every slot is allocated for."""
    max_cpu_loras: int | None = None
    """Host-side cache of adapters (None: ``max_loras``); no GPU memory."""
    given: tuple[tuple[str, int], ...] = ()
    """The sizes the reader typed (``("max_loras", 4)``, …): printed commands carry these and no
    others."""


@dataclass(frozen=True, kw_only=True)
class SpeculativeConfig:
    """What the planner needs of ``--speculative-config``."""

    method: str
    """``mtp``, ``eagle3`` or ``ngram`` (the modelled methods)."""
    num_speculative_tokens: int
    """Draft tokens per step; for MTP a multiple of the checkpoint's MTP layers."""
    text: str
    """The JSON as the reader gave it (printed commands carry it unchanged)."""
    draft_layers: int = 0
    """``eagle3``: the drafter's decoder layers, each one full-attention KV layer of the target's
    spec."""
    draft_weight_bytes: int = 0
    """``eagle3``: one GPU's drafter parameters, counted from its config.json (kvcalc.kv.eagle3)."""


@dataclass(frozen=True, kw_only=True)
class Measured:
    """Figures a reader read off a real run; each replaces our estimate (bytes, per GPU)."""

    available_kv_bytes: int | None = None
    """"Available KV cache memory" from the log: skips the whole budget estimate."""
    weights_bytes: int | None = None
    """``--weights-gib``: the weights as a log's "Model loading took X GiB" states them."""
    activation_bytes: int | None = None
    """``--activation-gib``: the profile run's peak, a log's "torch peak memory increase"."""
    non_torch_bytes: int | None = None
    """``--non-torch-gib``: a log's "non-torch memory" figure."""
    cudagraph_bytes: int | None = None
    """``--cudagraph-gib``: what CUDA graph capture took, as a log states it."""


@dataclass(frozen=True, kw_only=True)
class Deployment:
    """Everything about the serving set-up that enters vLLM's KV planning."""

    gpu_id: str | None = None
    """Catalog GPU id, or None for a custom memory size."""
    gpu_name: str | None = None
    """The catalog GPU's product name (``NVIDIA A100-SXM4-80GB``): some of vLLM's defaults read
    it."""
    gpu_memory_bytes: int | None = None
    """Total memory of one GPU as the driver reports it."""
    gpu_memory_source: str = "cuda"
    """Where ``gpu_memory_bytes`` comes from: ``cuda`` (what vLLM sees), ``nvidia-smi``/``rocm-smi``
    (a catalog total a few hundred MiB above it) or ``spec-sheet`` (the vendor's capacity); for the
    last two the budget estimates CUDA's figure."""
    tensor_parallel_size: int = 1
    """``--tensor-parallel-size``: GPUs each layer's heads are split across."""
    pipeline_parallel_size: int = 1
    """``--pipeline-parallel-size``: stages the layers are split into (``get_pp_indices``)."""
    decode_context_parallel_size: int = 1
    """``--decode-context-parallel-size``: TP ranks that shard each request's KV cache by token (no
    extra GPUs); every rank keeps ``cdiv(L, dcp)`` tokens of a request."""
    max_model_len: int | None = None
    """None: derived from the config; -1: auto-fit."""
    max_num_seqs: int | None = None
    """None: vLLM's default for the GPU."""
    max_num_batched_tokens: int | None = None
    """None: vLLM's default for the GPU and the entry point (CONTRIBUTING.md §2.10)."""
    dtype: str = "auto"
    """``--dtype`` as the reader gave it (``auto``, ``half``, ``float16``, ``bfloat16``, ``float``,
    ``float32``); the model's dtype already follows it (``ModelSpec.dtype``)."""
    kv_cache_dtype: str = "auto"
    """``--kv-cache-dtype``; ``auto`` is the model dtype."""
    gpu_memory_utilization: float | None = None
    """None: the rule set's default (0.92 from #38284, 0.20.0; 0.90 in earlier releases)."""
    kv_cache_memory_bytes: int | None = None
    """``--kv-cache-memory-bytes``: a fixed KV budget that replaces the measured one."""
    block_size: int | None = None
    """None: 16 (the backend default for FlashAttention/FlashInfer/Triton)."""
    num_gpu_blocks_override: int | None = None
    """``--num-gpu-blocks-override``: replaces the computed number of blocks."""
    disable_hybrid_kv_cache_manager: bool = False
    """``--disable-hybrid-kv-cache-manager``: sliding and chunked layers become full ones."""
    async_scheduling: bool = True
    """On unless ``--no-async-scheduling``: two batches in flight at PP 1 (#47728)."""
    enforce_eager: bool = False
    """``--enforce-eager``: no CUDA graphs, so no graph memory."""
    enable_chunked_prefill: bool | None = None
    """V0 only: None = the release default (on for ``max_model_len > 32768``); sizes the V0 profile
    run."""
    cpu_offload_bytes: int = 0
    """``--cpu-offload-gb``: weight bytes per GPU kept in CPU memory and streamed in for every
    forward pass."""
    enable_prefix_caching: bool | None = None
    """``--enable-prefix-caching`` / ``--no-enable-prefix-caching``; None: vLLM's default (for Mamba
    hybrids on since #40996, off before)."""
    mamba_cache_mode: str | None = None
    """``--mamba-cache-mode`` (none, align, all); None: vLLM's default ("none", turned into "align"
    when prefix caching is on)."""
    mamba_ssm_cache_dtype: str = "auto"
    """``--mamba-ssm-cache-dtype``: the SSM / recurrent state's dtype (auto: the model's
    default)."""
    mamba_cache_dtype: str = "auto"
    """``--mamba-cache-dtype``: the conv state's dtype (auto: the model dtype)."""
    limit_mm_per_prompt: tuple[tuple[str, int], ...] = ()
    """``--limit-mm-per-prompt`` as (modality, count) pairs in the reader's order; a modality not
    named keeps vLLM's default (999 per modality in V1, vllm/config/multimodal.py
    ``get_limit_per_prompt``)."""
    skip_mm_profiling: bool = False
    """``--skip-mm-profiling`` (0.10.1 on): vLLM profiles without the multimodal encoder run and its
    cache."""
    rules: RuleSet = field(default_factory=lambda: rules_for(None))
    """The release rules everything is planned by (``rules_for(--vllm-version)``)."""
    measured: Measured = field(default_factory=Measured)
    """The figures the reader measured; each replaces its estimate."""
    calculate_kv_scales: bool = False
    """``--calculate-kv-scales`` (up to 0.27.x; refused from 0.28.0): no memory effect, kept for the
    command."""
    budget_edge: str = "central"
    """Which edge of an estimated budget's band to plan on: ``central`` (the estimate) or ``low``
    (the pessimistic edge; the advice's what-ifs use it so a fix holds whatever vLLM measures)."""
    interconnect: str = "unknown"
    """``--interconnect`` (``INTERCONNECTS``): how the GPUs are joined, which sizes the non-torch
    memory at TP > 1 (``nvswitch``, ``pcie``) and whether the host's memory counts (``unified``).
    ``unknown``: a catalog GPU's own; for a GPU given by its memory only the budget assumes
    ``nvswitch`` and its band covers the others."""
    speculative: SpeculativeConfig | None = None
    """``--speculative-config`` (kvcalc.speculative: MTP and n-gram are modelled)."""
    lora: LoraSettings | None = None
    """``--enable-lora`` with its slots (kvcalc.lora); None: LoRA off."""
    data_parallel_size: int = 1
    """``--data-parallel-size``: engine replicas, each with its own KV cache on its own TP × PP
    GPUs; MoE layers are sharded over all DP × TP ranks (kvcalc.budget.expert_parallel)."""
    enable_expert_parallel: bool = False
    """``--enable-expert-parallel``: each of the DP × TP ranks holds whole experts, not a slice of
    each."""

    @property
    def num_speculative_tokens(self) -> int:
        return self.speculative.num_speculative_tokens if self.speculative is not None else 0

    @property
    def effective_block_size(self) -> int:
        return self.block_size or DEFAULT_BLOCK_SIZE

    def mm_limit(self, modality: str) -> int | None:
        """The reader's ``--limit-mm-per-prompt`` count for ``modality``; None: vLLM's default."""
        return dict(self.limit_mm_per_prompt).get(modality)

    @property
    def effective_utilization(self) -> float:
        if self.gpu_memory_utilization is not None:
            return self.gpu_memory_utilization
        return self.rules.default_gpu_memory_utilization


def unified_memory(dep: Deployment) -> bool:
    """Whether the deployment's GPU shares its memory with the host (GB10 / DGX Spark: NVML reports
    no total, and what the host takes during start-up counts as vLLM's non-torch memory).

    vllm/utils/mem_utils.py ``MemorySnapshot.measure`` (#26098, first in the v0.11.1 tag; in
    vllm/utils/__init__.py before #27143): on compute capability (8, 7), (11, 0) or (12, 1) (Orin,
    Thor, Spark) free memory is ``psutil.virtual_memory().available``, system-wide; before,
    ``cudaMemGetInfo``, which on these parts also reports the system's free memory. Either way host
    allocations between the start-up snapshot and the end of profiling are non-torch memory; from
    v0.11.1 the budget adds a size fitted on public GB10 logs for them
    (estimates.unified_memory_estimate)."""
    if dep.interconnect == "unified":
        return True
    name = (dep.gpu_name or dep.gpu_id or "").lower()
    return "gb10" in name or "dgx spark" in name


def batch_defaults(dep: Deployment) -> tuple[int, int]:
    """(max_num_batched_tokens, max_num_seqs) when the reader gives none, for ``vllm serve``.

    vllm/engine/arg_utils.py ``get_batch_defaults``: decided from GPU 0's total memory, which
    vllm/platforms/cuda.py reads through NVML. On a GB10 (unified memory) NVML has no memory
    total, the call raises and vLLM takes 0: the small defaults apply (two GB10 logs of 0.13
    print "Chunked prefill is enabled with max_num_batched_tokens=2048" with none given).
    """
    name = (dep.gpu_name or dep.gpu_id or "").lower()
    total = 0 if unified_memory(dep) else dep.gpu_memory_bytes or 0
    if dep.rules.row_160_gib and total >= 160 * GiB:
        tokens, seqs = 16384, 1024
    elif total >= 70 * GiB and "a100" not in name:
        tokens, seqs = 8192, 1024
    else:
        tokens, seqs = 2048, 256
    return (dep.max_num_batched_tokens or tokens, dep.max_num_seqs or seqs)
