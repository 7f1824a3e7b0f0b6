"""Estimates of the start-up terms vLLM measures but no config reveals, with their bands.

vLLM's KV budget per GPU is ``ceil(total × utilization) − weights − activation peak −
non-torch memory − CUDA graphs`` (spec section 9). Weights follow from the
checkpoint; the other three are measured by vLLM on the GPU at start-up, and how
they are measured changed across releases:

* **V1 engine** (0.8 and later): one dummy forward pass of ``max_num_batched_tokens``
  tokens, then a sampler warm-up over ``max_num_seqs`` dummy requests; the activation
  peak is the larger of the two. Multimodal models first run the vision encoder on
  dummy items of the largest size the processor accepts and keep its outputs through
  both: the peak is the larger of that run and the kept outputs plus the other two
  (section "the multimodal encoder profiling run" below).
* **V0 engine** (before 0.8, and V0 fall-backs of 0.8–0.10): one forward pass of the
  scheduler's token budget split over ``max_num_seqs`` sequences. Without chunked
  prefill that budget is ``max(max_model_len, 2048)`` tokens, so long contexts make the
  profile run, and its activation peak, large (2–4 GiB for an 8B model at 20–29k tokens).
  Chunked prefill is on by default in V0 only when ``max_model_len > 32768`` (vllm/engine/
  arg_utils.py ``create_engine_config``, ``use_long_context``); then the budget is 2048
  (``_DEFAULT_MAX_NUM_BATCHED_TOKENS``; 0.4–0.5 used 512 — **unsure** which 0.6.x release
  switched; the 0.7.x A10 log fits 2048). V0 has no separate sampler warm-up.
* **CUDA graphs** are subtracted before the KV sizing only since 0.20.0 (#38284,
  ``VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=1``); before that, and with
  ``--enforce-eager``, they take no KV memory at start-up (they are captured after the
  cache is allocated, from the headroom).
* **Non-torch memory** grows with tensor parallelism by NCCL/custom all-reduce
  buffers: ≈ 2.1 GiB per GPU on NVLink/NVSwitch data-centre parts (H100 at TP 2 in 0.19,
  A100-40GB at TP 8 in 0.7.1), ≈ 0.25–0.36 GiB over PCIe before 0.11 (L40S at TP 8, RTX 4090 at
  TP 2). From 0.11.0 (#25359) NCCL is set up before the start-up snapshot: over PCIe and NVLink
  bridges its buffers no longer count, ≈ 0.09 GiB is left (4x A30 at TP 4, 0.11.1).
* **Unified memory** (GB10 / DGX Spark; Jetson Orin and Thor): from 0.11.1 vLLM reads free
  memory there as the host's available memory, so what the host takes while vLLM starts counts
  as non-torch memory: 1.58 GiB more, 1.26–2.70 GiB in the public GB10 logs (section below).
* **Total memory**: ``nvidia-smi`` totals show 0–0.90 GiB (GH200 about 1.1) more than CUDA
  gives vLLM (H100 79.65 vs 79.19, L40S 44.99 vs 44.39–44.42, A100-80GB
  80.00 vs 79.15–79.25, A10 22.49 vs 22.07, RTX 3090 24.00 vs 23.58 GiB). Catalog GPUs known only
  from a vendor spec sheet (``spec-sheet``: MI325X, MI355X) get the same correction, with a band
  that reaches the sheet's figure (MI300X 192 vs 191.45, MI355X 288 vs 287.98 GiB).

Every estimated term carries a band (``Estimate.low_bytes`` … ``high_bytes``) taken from
the validation errors (``tests/test_estimates.py``, ``kvcalc.validation``); the
available KV memory carries the sum. They are estimates: a reader who has a log should
give the measured figures instead. All sizes are integer bytes.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ..arch.families import tower_of
from ..units import cdiv, round_up
from . import encoder_tp

__all__ = [
    "Estimate",
    "activation_peak_bytes",
    "activation_estimate",
    "non_torch_bytes",
    "non_torch_estimate",
    "cudagraph_bytes",
    "cudagraph_estimate",
    "cudagraph_capture_sizes",
    "v0_profile_tokens",
    "V0_DEFAULT_MAX_NUM_SEQS",
    "NVLINK_GPU_IDS",
    "unified_memory_estimate",
    "cuda_visible_total",
    "weights_estimate",
    "Mxfp4Kernel",
    "mxfp4_kernel",
    "mxfp4_padding_factor",
    "EncoderItem",
    "encoder_item",
    "mm_items_per_batch",
    "encoder_run_bytes",
    "combine_encoder",
    "widen_for_unknown_encoder",
    "encoder_modalities",
]

_GIB = 2**30


@dataclass(frozen=True, kw_only=True)
class Estimate:
    """One estimated term: the central figure and the band the real one is likely in (bytes)."""

    bytes: int
    """The central figure: what the result shows."""
    low_bytes: int
    """The band's low edge."""
    high_bytes: int
    """The band's high edge."""

    @staticmethod
    def relative(central: int, below: float, above: float) -> Estimate:
        """A band of ``−below`` … ``+above`` (fractions) around ``central``."""
        return Estimate(
            bytes=central,
            low_bytes=max(0, int(central * (1 - below))),
            high_bytes=int(central * (1 + above)),
        )

    @staticmethod
    def exact(value: int) -> Estimate:
        return Estimate(bytes=value, low_bytes=value, high_bytes=value)


# --- activation peak ---------------------------------------------------------
# The profile run has two peaks and vLLM reports the larger (torch peak minus what
# stays allocated):
#  * the sampler warm-up on max_num_seqs dummy requests: fp32 logits over the full
#    vocabulary plus the sampler's copies (softmax probabilities, top-k/top-p work
#    buffers). Fitted on the fit half of data/validation.json (the median of the
#    sampler-dominated rows: Gemma 2/3, Llama 3.1, Qwen 2.5, Mistral Small, Llama 4):
#    3.9 copies of the fp32 logits (≈15.6 bytes per request per vocabulary entry).
#    Vocabulary-parallel logits are gathered, so TP does not divide this term
#    (Llama-3.3-70B at TP 2 measured 1.96 GiB, as 8B at TP 1).
#  * the forward pass over max_num_batched_tokens tokens: the MLP's gate/up output
#    and activation (3 × intermediate per token, divided by TP), for MoE the routed
#    copies (× experts per token), plus two hidden-size buffers. Fitted factor 1.22
#    (the forward-dominated fit rows: CodeLlama-7B, Granite-3.1-8B, phi-2).
#  * before 0.17.0 (#33538) the warm-up's top-k/top-p sorted the whole vocabulary
#    (vllm/v1/sample/ops/topk_topp_sampler.py: ``logits.sort`` → values plus int64
#    indices, softmax, masks, and a re-sort by ``scatter`` into a new tensor, with the
#    sort's own double buffers at the peak): 9.5 copies, from the one fit-half row the
#    sampler dominates in those releases (gpt-oss-120b on an H100, 0.11: 7.27 GiB over
#    1024 × 201,088 fp32 logits = 0.767 GiB). The sum of the buffers named above is
#    7 copies before the sort's workspace, so the figure is of the expected size.
_SAMPLER_COPIES = 3.9
_SAMPLER_COPIES_SORTING = 9.5
_FORWARD_FACTOR = 1.22


def activation_peak_bytes(
    *,
    hidden_size: int,
    intermediate_size: int,
    vocab_size: int,
    num_attention_heads: int,
    num_layers: int,
    max_num_batched_tokens: int,
    max_num_seqs: int,
    tensor_parallel_size: int,
    dtype_bytes: int,
    is_moe: bool,
    num_experts_per_tok: int,
    v0_engine: bool = False,
    sampler_sorts: bool = False,
) -> int:
    """Estimated "PyTorch activation peak" (torch peak increase) of vLLM's profile run.

    ``sampler_sorts``: the V1 sampler warm-up sorts the vocabulary (releases before 0.17.0).

    ``v0_engine``: the V0 profile run, where ``max_num_batched_tokens`` is the V0
    scheduler's token budget (``v0_profile_tokens``) and no sampler warm-up runs.

    ``intermediate_size`` is the per-expert size for MoE models
    (``moe_intermediate_size`` where the config has it). ``num_attention_heads`` and
    ``num_layers`` are accepted for completeness: in the fitted data neither moved
    the peak (activations are freed layer by layer; attention buffers are smaller
    than the MLP's).
    """
    del num_attention_heads, num_layers  # not significant in the data (see docstring)
    tp = max(1, tensor_parallel_size)
    routed = intermediate_size * (max(1, num_experts_per_tok) if is_moe else 1)
    per_token = (3 * routed / tp + 2 * hidden_size) * dtype_bytes
    if v0_engine:
        logits = _V0_LOGITS_COPIES * max_num_seqs * vocab_size * 4
        return int(max(_V0_FORWARD_FACTOR * max_num_batched_tokens * per_token, logits))
    sampler = (
        (_SAMPLER_COPIES_SORTING if sampler_sorts else _SAMPLER_COPIES)
        * max_num_seqs
        * vocab_size
        * 4
    )
    forward = _FORWARD_FACTOR * max_num_batched_tokens * per_token
    return int(max(sampler, forward))


# V1's forward factor is the median of its forward-dominated fit rows (CodeLlama-7B 1.22,
# Granite-3.1-8B 1.20, phi-2 1.32). V0 runs the same forward over its profile tokens
# without torch.compile's buffers: its factor comes from the V0 fit rows, Llama-3.1-8B on
# an A10 (0.7: 0.22 GiB over 2048 × 102,400 B = 1.13). The other dense V0 fit row, the
# 0.6.5 development build of PR #10511 (Llama-3-8B on an H100, 1.61), is left out: the
# same table prints 1.79 GiB of non-torch memory at TP 1, where every other TP-1 log shows
# 0.05–0.35, so its split between activation and non-torch is not a release's.
# The V0 sampler keeps one fp32 logits row per sequence, which only wins for tiny
# profile budgets.
_V0_FORWARD_FACTOR = 1.13
_V0_LOGITS_COPIES = 1.0
V0_DEFAULT_MAX_NUM_SEQS = 256
"""vllm/config.py SchedulerConfig (V0): ``max_num_seqs`` default."""
_V0_CHUNKED_DEFAULT_TOKENS = 2048
_V0_LONG_CONTEXT = 32 * 1024

# Bands (fractions of the central figure), from the fit half's errors.
_ACTIVATION_BAND_V1 = (0.25, 0.25)
_ACTIVATION_BAND_V0 = (0.35, 0.35)


def v0_profile_tokens(
    *,
    max_model_len: int,
    max_num_batched_tokens: int | None,
    enable_chunked_prefill: bool | None = None,
) -> int:
    """Tokens of the V0 profile run: the scheduler's ``max_num_batched_tokens``.

    vllm/engine/arg_utils.py (V0): chunked prefill defaults to on only for
    ``max_model_len > 32768`` (``use_long_context``); vllm/config.py SchedulerConfig:
    with it the budget is 2048, without it ``max(max_model_len, 2048)`` — V0 profiles a
    whole max-length prompt.
    """
    if max_num_batched_tokens:
        return max_num_batched_tokens
    chunked = (
        enable_chunked_prefill
        if enable_chunked_prefill is not None
        else max_model_len > _V0_LONG_CONTEXT
    )
    return _V0_CHUNKED_DEFAULT_TOKENS if chunked else max(max_model_len, 2048)


def activation_estimate(**kwargs: object) -> Estimate:
    """``activation_peak_bytes`` with its band (±25 % V1, ±35 % V0)."""
    central = activation_peak_bytes(**kwargs)  # type: ignore[arg-type]
    below, above = _ACTIVATION_BAND_V0 if kwargs.get("v0_engine") else _ACTIVATION_BAND_V1
    return Estimate.relative(central, below, above)


# --- the multimodal encoder profiling run ----------------------------------------------
# vllm/v1/worker/gpu_model_runner.py ``profile_run`` (V1; read at the 0.8.0, 0.10.2, 0.11.0,
# 0.19.0 tags and main): unless ``--skip-mm-profiling`` (0.10.1 on), vLLM first runs the
# vision encoder on a dummy batch of the modality with the most tokens per item,
# ``items`` items of the maximum feature size, keeps the outputs in the encoder cache
# (``self.encoder_cache[...] = output``) through the decoder's dummy run and the sampler
# warm-up, and clears them at the end. The torch peak is therefore
# ``max(encoder run, kept outputs + max(sampler, forward))``.
# vllm/multimodal/encoder_budget.py ``MultiModalBudget`` (0.19; vllm/v1/worker/utils.py and
# gpu_model_runner.py before) and vllm/v1/core/encoder_cache_manager.py
# ``compute_mm_encoder_budget``: both the encoder compute budget and the cache size default to
# ``max_num_batched_tokens`` (vllm/config/scheduler.py), raised to one item when it is larger:
#   budget = max(max_num_batched_tokens, tokens per item)
#   per prompt = max(1, min(limit_mm_per_prompt, max_model_len // tokens per item))
#   items = max(1, min(budget // tokens per item, max_num_seqs × per prompt))
# The log line says it: "Encoder cache will be initialized with a budget of N tokens, and
# profiled with K image items of the maximum feature size" (Gemma 3 on an H100, 0.19: 8192 and
# 32; Mistral Small 3.1: 8192 and 2; Qwen2-VL-2B at 2048 tokens, 0.10.2: 16384 and 1).
# 0.11.x only: each kept output is padded to (budget, width) (``expanded_outputs``, gone in
# 0.12.0), so 32 Gemma 3 items of 256 tokens keep 32 × 8192 rows.
#
# Tokens and patches of one item of the maximum feature size (the model files' processing info):
#  * Qwen2-VL / Qwen2.5-VL (qwen2_vl.py ``get_image_size_with_most_features``): the image
#    processor's ``max_pixels`` 12,845,056 / (14 × 2)² = 16,384 tokens, 4 patches each. Videos
#    (``get_num_frames_with_most_features``) take as many frames of that size as
#    ``max_model_len`` holds, at most 14 (7 temporal groups): from 32,768 tokens of context on
#    the video item is larger, up to 114,688 tokens (458,752 patches) from 114,688 on.
#  * Qwen3-VL, Qwen3.5/3.6 (qwen3_vl.py): ``longest_edge`` 16,777,216 / (16 × 2)² = 16,384
#    tokens; the video item is 2 frames at 25,165,824 / 2 pixels = 12,288 tokens, smaller.
#  * Gemma 3 (gemma3_mm.py): 256 tokens per image (pan-and-scan is off by default), SigLIP at
#    896 px = 64² patches.
#  * Mistral 3 / Pixtral (mistral3.py, pixtral.py): (1540 / 28)² = 3,025 tokens, 110² patches.
#  * Llama 4 (the tile count is the processor's ``max_patches``, not in the config), LFM2-VL,
#    EXAONE 4.5: not known here; the activation band's upper edge is widened instead.
_QWEN2_MAX_PIXELS = 12_845_056
_QWEN3_MAX_PIXELS = 16_777_216
_QWEN3_VIDEO_MAX_PIXELS = 25_165_824
_QWEN3_VIDEO_TOKEN_TEXT = 12.5
_QWEN2_MAX_VIDEO_GROUPS = 7  # _MAX_FRAMES_PER_VIDEO = 14 frames / temporal patch 2
_GEMMA3_TOKENS_PER_IMAGE = 256
_DEFAULT_MM_LIMIT = 999
# Per patch, the ViT block's larger transient, in units of the ViT width (dtype bytes each):
#  * attention: the residual, the norm's output, the qkv projection (3), the contiguous q, k, v
#    (3), rotary position embedding done in fp32 on q and k (an fp32 copy and an fp32 result of
#    one of them alive at once: 4), the attention output (1) = 13; 9 without rotary (SigLIP).
#    From 0.13.0 the Qwen ViTs rotate q and k together with the fused ``ApplyRotaryEmb`` op in the
#    model dtype (qwen2_5_vl.py, v0.13.0 tag: a rearranged qk copy and its rotated output, 2 + 2,
#    in place of the contiguous q, k, v and the fp32 pair): 11;
#  * MLP: the residual and the norm's output (2) plus the intermediate's projection and its
#    activation (2 × intermediate; 3 × with a SiLU gate).
# Plus the dummy pixel values (C × T × p² per patch), counted here at 4 bytes as when the factor was
# fitted; from 0.9.1 vLLM casts them to the model dtype (#18862), so the run's real pixel term is
# half that and the factor absorbs the rest (2 bytes would refit it to 1.23 on the same row). What
# profile_run still holds through the decoder run and the sampler (the pixel values at their real
# dtype, and the unpadded outputs in 0.11.x–0.12.0) is budget.py ``_held_with_the_cache``. Factor
# 1.16 from the one log whose peak the encoder sets (Qwen2-VL-2B, 0.10.2, 16,384-token image: 2.65
# GiB logged; 65,536 patches × 33,280 B = 2.03 GiB plus 0.29 GiB of pixel values). Not modelled:
# qwen2_5_vl.py's attention (Qwen2.5-VL, Qwen3-VL) rotates q and k concatenated in fp32 in the
# v0.11.0–v0.12.0 tags (``qk_concat``/``qk_reshaped``), more than the 13 widths above at TP 1 by the
# same tally (about 20 in v0.11.0); no TP-1 log of those releases whose peak the run sets was found.
# Not modelled either (read at v0.10.2 and v0.23.0): with the default inductor compile, custom ops
# are off and the vision blocks run PyTorch-native norms and activations eagerly, so the MLP half
# outweighs the attention. Qwen2-VL (qwen2_vl.py v0.10.2): block input, sum, norm + fc1, QuickGELU's
# sigmoid and product = 3 widths + 3 x intermediate (19,200 > 13 x 1280; 19,200 / 16,640 = 1.154,
# about the fitted factor). Qwen2.5-VL (qwen2_5_vl.py v0.23.0 ``norm2(x, residual=x_attn)``;
# vllm/ir/ops/layernorm.py native, out of place under vllm/platforms/cuda.py
# ``get_default_ir_op_priority``): input, x_attn, normed, sum, down output = 5 widths + 3 x
# intermediate (16,660 > 11 x 1280). The 0.23.0 log of test_estimates.py's video test implies 15.24
# GiB, what this tally gives without the factor (458,752 x (33,320 + 2,352 bf16 pixel values) B);
# the fit row refitted on the same tally (1.07 with bf16 pixel values) gives 16.24 GiB, still 1 GiB
# high, so the tally alone does not fix that row: kept out until the other encoder rows are
# re-derived by it. Under tensor parallelism each rank holds its share of these widths:
# calc/budget/encoder_tp.py.
_ENCODER_FACTOR = 1.16
_ATTENTION_UNITS_ROTARY = 13
_ATTENTION_UNITS_FUSED_ROTARY = 11
_ATTENTION_UNITS = 9
_ENCODER_BAND = (0.25, 0.35)
_UNKNOWN_ENCODER_HIGH = 1.0


@dataclass(frozen=True, kw_only=True)
class EncoderItem:
    """One multimodal item of the maximum feature size, as vLLM's profile run feeds the encoder."""

    modality: str
    """``image``, ``video`` or ``audio``, as ``--limit-mm-per-prompt`` names it."""
    tokens: int
    """Embeddings it becomes in the decoder (what the encoder budget counts)."""
    patches: int
    """Rows the vision transformer runs over."""
    budget_tokens: int = 0
    """What the encoder budget counts for it when that differs from ``tokens`` (0: the same)."""

    @property
    def counted(self) -> int:
        return self.budget_tokens or self.tokens


def encoder_modalities(family: str) -> tuple[str, ...] | None:
    """The modalities a family's encoder takes (its processor's ``get_supported_mm_limits``: image
    and video for the Qwen VL models, image only for Gemma 3, Mistral 3, Llama 4, LFM2-VL); None
    when not known here."""
    tower = tower_of(family)  # the family table's Tower.modalities
    return tower.modalities if tower is not None else None


def _largest(items: list[EncoderItem], disabled: frozenset[str]) -> EncoderItem | None:
    """The item vLLM profiles: of the modalities not limited to 0, the one with the most counted
    tokens (the first listed on a tie: the same size either way)."""
    kept = [item for item in items if item.modality not in disabled]
    return max(kept, key=lambda item: item.counted) if kept else None


def encoder_item(
    family: str,
    *,
    patch_size: int,
    merge: int,
    image_size: int,
    max_model_len: int,
    qwen3_video_timestamps: bool = False,
    disabled: frozenset[str] = frozenset(),
) -> EncoderItem | None:
    """The largest item per modality for the families whose processors are known (None otherwise).

    ``qwen3_video_timestamps``: 0.11.0–0.12.x counted each Qwen3-VL video token as 12.5 (its
    ``<t seconds>`` timestamp text, qwen3_vl.py ``get_max_video_tokens`` in the v0.11.0–v0.12.0
    tags; gone in v0.13.0): the 12,288-token video item then counts 153,600 and is the one profiled.
    ``disabled``: modalities whose ``--limit-mm-per-prompt`` is 0, which vLLM leaves out of the
    profile (``get_max_tokens_per_item_by_nonzero_modality`` from 0.8; ``tower_modalities`` in
    0.19's vllm/multimodal/encoder_budget.py); None when no modality is left.
    """
    if patch_size <= 0 or merge <= 0 or (patch_size * merge) ** 2 > _QWEN2_MAX_PIXELS:
        return None  # a degenerate vision_config: no item of known size
    if family in ("qwen2_vl", "qwen2_5_vl"):
        image = _QWEN2_MAX_PIXELS // (patch_size * merge) ** 2
        groups = min(max(max_model_len // image, 1), _QWEN2_MAX_VIDEO_GROUPS)
        # one temporal group of a video is an image's size (then either is the same dummy batch)
        return _largest(
            [
                EncoderItem(modality="image", tokens=image, patches=image * merge * merge),
                EncoderItem(
                    modality="video", tokens=groups * image, patches=groups * image * merge * merge
                ),
            ],
            disabled,
        )
    if family in ("qwen3_vl", "qwen3_vl_moe", "qwen3_5", "qwen3_5_moe"):
        image = _QWEN3_MAX_PIXELS // (patch_size * merge) ** 2
        video = _QWEN3_VIDEO_MAX_PIXELS // 2 // (patch_size * merge) ** 2
        stamps = qwen3_video_timestamps and family in ("qwen3_vl", "qwen3_vl_moe")
        return _largest(
            [
                EncoderItem(modality="image", tokens=image, patches=image * merge * merge),
                EncoderItem(
                    modality="video",
                    tokens=video,
                    patches=video * merge * merge,
                    budget_tokens=int(video * _QWEN3_VIDEO_TOKEN_TEXT) if stamps else 0,
                ),
            ],
            disabled,
        )
    if "image" in disabled:
        return None
    if family == "gemma3" and image_size:
        return EncoderItem(
            modality="image",
            tokens=_GEMMA3_TOKENS_PER_IMAGE,
            patches=(image_size // patch_size) ** 2,
        )
    if family == "mistral3" and image_size:
        side = image_size // (patch_size * max(1, merge))
        return EncoderItem(
            modality="image", tokens=side * side, patches=(image_size // patch_size) ** 2
        )
    return None


def mm_items_per_batch(
    *,
    tokens_per_item: int,
    max_num_batched_tokens: int,
    max_num_seqs: int,
    max_model_len: int,
    limit_per_prompt: int | None = None,
    round_up: bool = False,
) -> tuple[int, int]:
    """(encoder budget in tokens, items profiled): vLLM's ``MultiModalBudget._get_max_items``.

    ``round_up``: releases before 0.10.1 (tags v0.8.0–v0.10.0 of gpu_model_runner.py
    ``profile_run``) took ``cdiv(budget, tokens per item)`` items and did not cap the per-prompt
    count by ``max_model_len``: a Mistral 3 image of 3,025 tokens gave 3 items in an 8,192 budget
    where 0.19 profiles 2.
    """
    per_item = max(1, tokens_per_item)
    budget = max(max_num_batched_tokens, tokens_per_item)
    limit = _DEFAULT_MM_LIMIT if limit_per_prompt is None else limit_per_prompt
    if limit <= 0:
        return budget, 0
    if round_up:
        return budget, max(1, min(cdiv(budget, per_item), max(1, max_num_seqs) * limit))
    per_prompt = max(1, min(limit, max_model_len // per_item))
    return budget, max(1, min(budget // per_item, max(1, max_num_seqs) * per_prompt))


def encoder_run_bytes(
    *,
    patches: int,
    width: int,
    intermediate: int,
    gated_mlp: bool,
    rotary: bool,
    patch_values: int,
    dtype_bytes: int,
    fused_rotary: bool = False,
    tensor_parallel_size: int = 1,
    qkv_all_gather: bool = False,
) -> int:
    """Torch peak of the vision encoder over ``patches`` rows (all items in one batch), on one GPU.

    ``fused_rotary``: q and k rotated by the fused op in the model dtype (Qwen ViTs from 0.13.0).
    ``tensor_parallel_size``: every rank runs the whole batch through its share of each block; what
    TP splits and what it leaves whole (``qkv_all_gather``: the Qwen ViTs' whole-width qkv gather)
    is calc/budget/encoder_tp.py's rule. The pixel values are whole on every rank.
    """
    units = (
        (_ATTENTION_UNITS_FUSED_ROTARY if fused_rotary else _ATTENTION_UNITS_ROTARY)
        if rotary
        else _ATTENTION_UNITS
    )
    tp = max(1, tensor_parallel_size)
    if tp == 1:  # the fitted tally, unchanged
        attention, mlp = units * width, 2 * width + (3 if gated_mlp else 2) * intermediate
        per_patch: float = max(attention, mlp) * dtype_bytes
    else:
        rank = max(
            encoder_tp.attention_units(units, tp, all_gather=qkv_all_gather),
            encoder_tp.mlp_units(intermediate / width, tp, gated=gated_mlp),
        )
        per_patch = rank * width * dtype_bytes
    return int(_ENCODER_FACTOR * patches * per_patch) + patches * patch_values * 4


def combine_encoder(base: Estimate, *, encoder_run: int, kept_outputs: int) -> Estimate:
    """The profile run's peak with the encoder: ``max(encoder run, kept outputs + base)`` at each
    edge."""
    run = Estimate.relative(encoder_run, *_ENCODER_BAND)
    return Estimate(
        bytes=max(run.bytes, kept_outputs + base.bytes),
        low_bytes=max(run.low_bytes, kept_outputs + base.low_bytes),
        high_bytes=max(run.high_bytes, kept_outputs + base.high_bytes),
    )


def widen_for_unknown_encoder(base: Estimate) -> Estimate:
    """An encoder whose largest item is not known here: the central figure stays, the upper edge
    doubles."""
    return Estimate(
        bytes=base.bytes,
        low_bytes=base.low_bytes,
        high_bytes=int(base.high_bytes + _UNKNOWN_ENCODER_HIGH * base.bytes),
    )


# --- non-torch memory -----------------------------------------------------------
# Memory the process holds outside PyTorch's allocator that grows during the profile
# run: cuBLAS/cuDNN workspaces and, with tensor parallelism, NCCL communicators and
# the custom all-reduce buffers. Measured: 0.24-0.26 GiB at TP 1 (vLLM 0.19, H100);
# 0.05-0.35 GiB at TP 1 in V0 (0.6-0.8 logs); 2.07-2.10 GiB at TP 2 on H100 (0.19) and
# 2.10 GiB at TP 8 on A100-40GB (0.7.1): NVLink parts; 0.25 GiB at TP 2 on RTX 4090
# (0.7) and 0.36 GiB at TP 8 on L40S (0.6.6): PCIe parts without NVLink; 0.07 GiB on
# each stage of PP 2 without TP. At TP 4 the 0.19 sweep measured 2.17-2.21 GiB and at TP 8
# (A100, 0.7.1) 2.10 GiB: flat beyond TP 2, taken as 2.15 GiB.
# What the figure holds changed in 0.11.0 (vllm/v1/worker/gpu_worker.py init_device, #25359,
# abad204be, first in v0.11.0rc1): until 0.10.2 the start-up snapshot precedes
# init_worker_distributed_environment, so PyNccl, custom all-reduce and NCCL buffers are non-torch
# memory; from 0.11.0 they are in the baseline and only what the profile run adds counts. Over PCIe
# and NVLink bridges (no NVSwitch) that leaves little: fitted on the fit-half rows at 0.11+ with TP
# > 1 on such GPUs (data/validation.json, fit_term "non_torch_tp"), which is one row: 4x A30 at TP 4
# (NVLink pairs, no NVSwitch), 0.11.1.dev12, whose DEBUG line prints "non-torch forward increase
# memory: 0.09GiB". One row has no spread, so the band is taken from outside it: low 0.05 GiB (the
# smallest non-torch figure a public log prints, TP 1 in V0), high the pre-0.11 PCIe figure 0.30 (a
# build whose buffers still land in the profile would show that), the pessimistic edge. NVSwitch
# parts keep ≈ 2.1 GiB after #25359: the 0.19 H100 logs at TP 2/4 measure 2.07-2.21. Before 0.11.0
# nothing changes.
_NT_SINGLE = 0.25
_NT_PP_STAGE = 0.07
_NT_TP2 = 2.08
_NT_TP_WIDE = 2.15
_NT_PCIE_TP = 0.30
_NT_PCIE_TP_BASELINE = (0.05, 0.09, _NT_PCIE_TP)  # low, central, high from 0.11.0 (#25359)

NVLINK_GPU_IDS = frozenset(
    {"H100-80GB", "H200", "B200", "B300", "GH200", "H20", "A100-40GB", "A100-80GB", "MI300X"}
)
"""Catalog GPUs sold as NVLink/NVSwitch (or xGMI) boards: TP > 1 adds ≈ 2.1 GiB of buffers.
A100 also exists as PCIe cards (less): their band reaches down to the PCIe figure. The A30 is not
one: its NVLink bridges join pairs only (no NVSwitch), and its 0.11 log measures the PCIe-class
figure."""


def non_torch_bytes(
    *,
    tensor_parallel_size: int,
    pipeline_parallel_size: int,
    total_gpu_memory_bytes: int,
    nvlink: bool = True,
    nccl_in_baseline: bool = False,
) -> int:
    """Estimated "non-torch forward increase" per GPU.

    ``nvlink``: whether the GPUs talk over NVLink/NVSwitch (catalog: ``NVLINK_GPU_IDS``); over PCIe
    NCCL keeps far smaller buffers. ``nccl_in_baseline``: the release sets NCCL up before the
    start-up snapshot (0.11.0 on, #25359). ``total_gpu_memory_bytes`` only bounds the result.
    """
    return non_torch_estimate(
        tensor_parallel_size=tensor_parallel_size,
        pipeline_parallel_size=pipeline_parallel_size,
        total_gpu_memory_bytes=total_gpu_memory_bytes,
        nvlink=nvlink,
        nccl_in_baseline=nccl_in_baseline,
    ).bytes


def non_torch_estimate(
    *,
    tensor_parallel_size: int,
    pipeline_parallel_size: int,
    total_gpu_memory_bytes: int,
    nvlink: bool | None = True,
    v0_engine: bool = False,
    nccl_in_baseline: bool = False,
) -> Estimate:
    """``non_torch_bytes`` with its band; ``nvlink=None`` = unknown interconnect (A100: SXM or
    PCIe)."""
    tp = max(1, tensor_parallel_size)
    if tp > 1:
        nv = _NT_TP2 if tp == 2 else _NT_TP_WIDE
        pcie_lo, pcie, pcie_hi = (
            _NT_PCIE_TP_BASELINE if nccl_in_baseline else (0.15, _NT_PCIE_TP, 0.6)
        )
        if nvlink is None:
            gib, lo, hi = nv, pcie if nccl_in_baseline else _NT_PCIE_TP - 0.1, nv + 0.15
        elif nvlink:
            gib, lo, hi = nv, nv - 0.5, nv + 0.15
        else:
            gib, lo, hi = pcie, pcie_lo, pcie_hi
    elif pipeline_parallel_size > 1:
        gib, lo, hi = _NT_PP_STAGE, 0.03, 0.35
    else:
        gib, lo, hi = (0.2, 0.03, 0.4) if v0_engine else (_NT_SINGLE, 0.15, 0.4)
    cap = max(0, total_gpu_memory_bytes)
    return Estimate(
        bytes=min(int(gib * _GIB), cap),
        low_bytes=min(int(lo * _GIB), cap),
        high_bytes=min(int(hi * _GIB), cap),
    )


# --- unified memory (GB10 / DGX Spark) -----------------------------------------------
# vllm/utils/mem_utils.py MemorySnapshot.measure (#26098, first in the v0.11.1 tag): on compute
# capability (8, 7), (11, 0) or (12, 1) (Orin, Thor, Spark) free memory is
# psutil.virtual_memory().available, the host's, and non-torch memory is total - free - torch
# reserved. The baseline snapshot is taken in gpu_worker.py init_device, before the weights load, so
# everything the host takes between then and the end of the profile run (torch.compile/Inductor
# workers, the loader's host buffers, the Python heap) is counted as vLLM's non-torch memory. Fitted
# on the four GB10 fit rows of data/validation.json: each row's activation + non-torch left by the
# log (requested - "Model loading took" - the CUDA-graph estimate it printed - "Available KV cache
# memory") minus what estimates.py models for them (sampler warm-up + 0.25 GiB):
#  * Qwen3.6-35B-A3B (main of 2026-04-23, rules of 0.20.0; torch.compile cold, 19 s): 121.69 x 0.95
#    = 115.61
#    - 64.69 - 0.93 - 47.55 = 2.44; 3.9 x 256 x 248,320 x 4 B = 0.92 GiB + 0.25 -> 1.26 GiB;
#  * Qwen3-30B-A3B-FP8 (NVIDIA's 0.13.0, cold, 86 s): 121.69 x 0.3 = 36.51 - 29.04 - 4.04 = 3.42;
#    the sorting sampler 9.5 x 256 x 151,936 x 4 B = 1.38 GiB + 0.25 -> 1.80 GiB;
#  * Qwen2.5-14B-Instruct-FP8-dynamic at 0.4 (0.13.0, compiled graph loaded from the cache): 48.68 -
#    15.22
#    - 30.46 = 2.99; 9.5 x 256 x 152,064 x 4 B = 1.38 GiB + 0.25 -> 1.37 GiB;
#  * the same at 0.15 (0.13.0, cold, 15 s; "No available memory for the cache blocks"): 18.25 -
#    15.22
#    + 1.30 = 4.33 -> 2.70 GiB.
# Central: their median, (1.37 + 1.80) / 2 = 1.58 GiB; band: their spread, 1.26-2.70 GiB. A cached
# compile (1.37) lies inside the cold ones (1.26-2.70): the logs do not tie the size to compiling,
# and no eager GB10 log was found to separate it. The validation GB10 row (gpt-oss-20b, 0.13.0, cold
# 45 s) leaves 3.76 - 2.07 = 1.69 GiB, inside the band.
_UMA_GIB = (1.26, 1.58, 2.70)  # low, central, high


def unified_memory_estimate() -> Estimate:
    """Host memory vLLM counts as its own non-torch memory on a unified-memory GPU (0.11.1 on)."""
    lo, central, hi = (int(g * _GIB) for g in _UMA_GIB)
    return Estimate(bytes=central, low_bytes=lo, high_bytes=hi)


# --- CUDA graphs --------------------------------------------------------------
# vLLM captures one graph per batch size (and per mode: piecewise and full); the
# pool grows with the number of layers captured. Fitted on the same logs:
# (0.54 GiB + 0.009 GiB per layer on this GPU) × 1.45 for MoE models (their fused-MoE
# kernels keep larger per-graph workspaces), for 51 capture sizes (largest 512).
# Other capture counts scale linearly with the number of sizes (an assumption: the
# logs all used 51).
_GRAPH_BASE = 0.54
_GRAPH_PER_LAYER = 0.009
_GRAPH_MOE_FACTOR = 1.45
_GRAPH_FITTED_SIZES = 51


def cudagraph_capture_sizes(
    max_num_seqs: int, max_num_batched_tokens: int | None = None, *, ceiling: int = 512
) -> list[int]:
    """vLLM's default capture sizes: 1, 2, 4, then steps of 8 to 256, then 16 up to the cap.

    vllm/config/vllm.py ``_set_cudagraph_sizes``: the cap is ``min(2 × max_num_seqs, ceiling)``,
    then at most ``max_num_batched_tokens``; the ceiling is 512, and 1024 on compute capability 10.x
    (B200, B300) from 0.28.0 (#49390, ``1024 if current_platform.is_device_capability_family(100)
    else 512``). For the fitted logs (1024 sequences) this gives the 51 sizes vLLM 0.19 printed
    (``PIECEWISE=51 (largest=512)``).
    """
    cap = min(2 * max(1, max_num_seqs), ceiling)
    if max_num_batched_tokens:
        cap = min(cap, max_num_batched_tokens)
    sizes = [1, 2, 4] + list(range(8, 257, 8)) + list(range(272, ceiling + 1, 16))
    return [s for s in sizes if s <= cap]


def cudagraph_bytes(
    *,
    num_layers: int,
    hidden_size: int,
    max_num_seqs: int,
    tensor_parallel_size: int,
    enforce_eager: bool,
    dtype_bytes: int,
    is_moe: bool = False,
    max_num_batched_tokens: int | None = None,
    capture_ceiling: int = 512,
) -> int:
    """Estimated CUDA-graph pool memory per GPU; 0 with ``--enforce-eager``.

    ``num_layers`` is the number of decoder layers on this GPU (its PP stage).
    ``hidden_size``, ``tensor_parallel_size`` and ``dtype_bytes`` are accepted for
    completeness; they did not improve the fit (TP 2 and TP 1 of the same model
    differed by 0.15 GiB, in either direction across models).
    """
    del hidden_size, tensor_parallel_size, dtype_bytes  # not significant in the data
    if enforce_eager:
        return 0
    gib = _GRAPH_BASE + _GRAPH_PER_LAYER * num_layers
    if is_moe:
        gib *= _GRAPH_MOE_FACTOR
    gib *= (
        len(cudagraph_capture_sizes(max_num_seqs, max_num_batched_tokens, ceiling=capture_ceiling))
        / _GRAPH_FITTED_SIZES
    )
    return int(gib * _GIB)


_GRAPH_BAND = (0.35, 0.35)


def cudagraph_estimate(**kwargs: object) -> Estimate:
    """``cudagraph_bytes`` with its band (±35 %, the worst fitted error being 30 %)."""
    return Estimate.relative(cudagraph_bytes(**kwargs), *_GRAPH_BAND)  # type: ignore[arg-type]


# --- total memory ---------------------------------------------------------------
# nvidia-smi total minus the CUDA total, on the GPUs where both are public (scripts/gpus.json
# sources): RTX 4060 Ti about 0, V100-32GB 0.27, RTX 4080 0.32, RTX 4090 0.35 (24564 MiB vs 23.64),
# A10 and RTX 3090 0.42, A10G 0.43, H100 0.46, L4 0.46, L40S 0.57-0.60, RTX PRO 6000 0.62, B200
# 0.71, A100-80GB 0.75-0.85, B300 0.90 (275040 MiB vs 267.69); GH200 about 1.1 (97871 MiB vs a
# one-decimal "94.5 GiB usable"). The band spans them all; the centre stays the median. Every
# catalog NVIDIA GPU carries CUDA's total, so this applies to SMI totals given as such (AMD's
# rocm-smi, MI300X 0.55).
_SMI_GAP_GIB = (0.0, 0.55, 1.10)  # low, central, high
# A vendor spec sheet's capacity (ROCm's table lists VRAM in GiB) is the physical memory, which
# HIP/CUDA can report almost all of (MI355X: vLLM prints 287.98 of the table's 288 GiB), or ~0.55
# GiB less (MI300X: 191.45 of 192 GiB, the same as its rocm-smi total). The low gap is therefore 0,
# the central one MI300X's, the high one the SMI band's high edge.
_SPEC_GAP_GIB = (0.0, 0.55, 0.85)


def cuda_visible_total(total_bytes: int, source_kind: str) -> Estimate:
    """The total vLLM sees (CUDA's), from a catalog total.

    ``source_kind`` ``nvidia-smi``/``rocm-smi``: the SMI total overstates CUDA's by
    0–1.1 GiB (module docstring); the band is that range. ``spec-sheet``: a vendor
    capacity, corrected the same way with a band reaching the figure itself. ``cuda``: exact.
    """
    if source_kind in ("cuda", "", None) or total_bytes <= 0:
        return Estimate.exact(total_bytes)
    gaps = _SPEC_GAP_GIB if source_kind == "spec-sheet" else _SMI_GAP_GIB
    lo_gap, gap, hi_gap = (int(g * _GIB) for g in gaps)
    return Estimate(
        bytes=total_bytes - gap, low_bytes=total_bytes - hi_gap, high_bytes=total_bytes - lo_gap
    )


# --- weights ------------------------------------------------------------------------
# What vLLM loads per GPU ("Model loading took …": torch's allocated bytes after ``load_model``,
# vllm/utils/mem_utils.py ``DeviceMemoryProfiler``), against the checkpoint's bytes: one GPU's share
# under TP and PP (what TP leaves whole: weight_share.py) plus what vLLM allocates that the
# checkpoint does not hold (weight_share.load_extra_bytes): the rotary cos/sin caches
# (rope_cache.py: 32 MiB for Llama-3.1, 288 MiB for Gemma-3-27B's two, one of them 8× for its linear
# scaling), the vocabulary padded to 64 rows and the caching allocator's unsplit remainders
# (alloc_slack.py: 80 MiB for Phi-4 and Qwen2.5-72B at TP 2, 0 for Llama-3.1-8B), plus MRoPE's and
# Qwen3-VL's release-dependent buffers (load_buffer_bytes). MXFP4 experts (gpt-oss) are re-laid for
# the MoE kernel vLLM picks, which pads the expert matrices
# (vllm/model_executor/layers/fused_moe/oracle/mxfp4.py
# ``mxfp4_round_up_hidden_size_and_intermediate_size``; before 0.12 the same rounding sat in
# vllm/model_executor/layers/quantization/mxfp4.py ``create_weights``):
#  * Marlin (Ampere/Ada and consumer Blackwell always; Hopper before 0.12.0, whose wheels
#    had no ``triton_kernels``, #28788): intermediate per partition to a multiple of 128,
#    hidden to 256. gpt-oss: 2880 × 2880 → 3072 × 2944 = +9.0 % of the expert bytes
#    (gpt-oss-20b on an A100, 0.19: 13.72 GiB logged; gpt-oss-120b on an H100, 0.10.1:
#    65.97 GiB logged).
#  * FlashInfer TRT-LLM (datacenter Blackwell): both to 256, 3072 × 3072 = +13.8 %.
#  * Triton (Hopper from 0.12.0): the source rounds the intermediate to 64 only, but the
#    swizzled layout of ``triton_kernels`` loads as if the hidden size were rounded to 256
#    (gpt-oss-20b on an H100, 0.19: 13.64 GiB logged against 12.82 in the checkpoint).
# What is left is an additive constant, fitted on the FIT-half rows of data/validation.json that
# print "Model loading took" for a checkpoint whose exact bytes the catalog has and whose layout is
# modelled (16-bit; the Triton MXFP4 row is left out, its padding rule was read off that row):
# logged − (share + extras + buffers), bytes: Llama-3.1-8B 0.11.0 on an L4 131,898 (14.9889 GiB
# logged), 0.19.0 on an H100 1,313,014 (14.99, two logs), Qwen2.5-7B 1,430,528 (14.25 =
# 15,300,820,992 − checkpoint 15,231,233,024 − rope 8,388,608 − allocator 59,768,832),
# Qwen1.5-MoE-A2.7B 3,028,910, Gemma-3-27B 12,201,965, Qwen2.5-1.5B 103,015,916 (T4, 0.30, V2 model
# runner: 98 MiB that no source read here explains). The logs round to 0.01 GiB (±5 MiB). The
# constant is their median (1.4 MiB); the band's edges reach the smallest (−1,298,630) and the
# largest (+101,585,388).
_LOAD_RESIDUAL_BYTES = 1_430_528
_LOAD_RESIDUAL_BELOW = 1_298_630
_LOAD_RESIDUAL_ABOVE = 101_585_388
_WEIGHTS_BAND_EXACT = (0.01, 0.02)
_WEIGHTS_BAND_COUNTED = (0.03, 0.04)
_WEIGHTS_BAND_MXFP4 = (0.03, 0.05)


class Mxfp4Kernel(StrEnum):
    """The MoE kernel family vLLM runs MXFP4 experts with; it decides their padding."""

    MARLIN = "marlin"
    TRITON = "triton"
    FLASHINFER_TRTLLM = "flashinfer_trtllm"


def mxfp4_kernel(gpu_major: int, *, bundled_triton_kernels: bool) -> Mxfp4Kernel:
    """vllm/model_executor/layers/fused_moe/oracle/mxfp4.py ``select_mxfp4_moe_backend`` (CUDA)."""
    if gpu_major == 10:
        return Mxfp4Kernel.FLASHINFER_TRTLLM
    if gpu_major == 9 and bundled_triton_kernels:
        return Mxfp4Kernel.TRITON
    return Mxfp4Kernel.MARLIN


def mxfp4_padding_factor(
    kernel: Mxfp4Kernel, *, hidden_size: int, intermediate_per_partition: int
) -> float:
    """Padded over checkpoint expert bytes: (hidden′ × intermediate′) / (hidden × intermediate)."""
    h, i = hidden_size, intermediate_per_partition
    if h <= 0 or i <= 0:
        return 1.0
    if kernel is Mxfp4Kernel.MARLIN:
        hp, ip = round_up(h, 256), round_up(i, 128)
    elif kernel is Mxfp4Kernel.FLASHINFER_TRTLLM:
        hp, ip = round_up(h, 256), round_up(i, 256)
    else:
        hp, ip = round_up(h, 256), round_up(i, 64)
    return (hp * ip) / (h * i)


def weights_estimate(
    checkpoint_bytes: int,
    *,
    exact: bool,
    extra_bytes: int = 0,
    mxfp4_expert_bytes: int = 0,
    mxfp4_padding: float = 1.0,
) -> Estimate:
    """Loaded weight bytes: one GPU's checkpoint share plus what vLLM adds to it (``extra_bytes``,
    the caller's), the MXFP4 padding and the fitted constant; the band adds the constant's
    spread."""
    pad = int(mxfp4_expert_bytes * (mxfp4_padding - 1)) if mxfp4_expert_bytes else 0
    central = checkpoint_bytes + extra_bytes + pad + _LOAD_RESIDUAL_BYTES
    band = (
        _WEIGHTS_BAND_MXFP4
        if mxfp4_expert_bytes
        else (_WEIGHTS_BAND_EXACT if exact else _WEIGHTS_BAND_COUNTED)
    )
    rel = Estimate.relative(central, *band)
    return Estimate(
        bytes=central,
        low_bytes=max(0, rel.low_bytes - _LOAD_RESIDUAL_BELOW),
        high_bytes=rel.high_bytes + _LOAD_RESIDUAL_ABOVE,
    )
