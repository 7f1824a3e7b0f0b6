"""A Hugging Face ``config.json`` normalized into the facts vLLM's KV planning reads.

This is the one validation boundary for model facts: after ``normalize_config``
no code reads a raw dict. Rules mirror vllm/config/model.py and
vllm/transformers_utils/model_arch_config_convertor.py (vLLM main
6adad08767583f52eb4d2122111af0bf638ed5e6).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from enum import StrEnum

from ..errors import CalcError
from ..limits import MAX_DIM, MAX_LAYERS, MAX_LEN, shorten
from . import families
from .families import LayerPattern, Rope, with_class_defaults
from .opt_layout import opt_parameters, opt_unsplit_parameters
from .qwen2_window import QWEN2_MAX_WINDOW_LAYERS, qwen2_types, refuse_partial_window
from .rope_cache import RopeCache, rope_caches

__all__ = [
    "LayerKind",
    "WeightQuant",
    "ModelSpec",
    "VisionSpec",
    "Rotary",
    "OlderWindows",
    "normalize_config",
    "UNSUPPORTED_HYBRID_TYPES",
    "ENCODER_MODEL_TYPES",
    "ASSUMED_DECODER",
    "MambaMixer",
    "MambaConfig",
]


class LayerKind(StrEnum):
    """How a layer's KV cache grows with the request (one kind per attention layer)."""

    FULL = "full"
    SLIDING = "sliding"
    CHUNKED = "chunked"
    """Chunked local attention (Llama 4)."""
    MLA = "mla"
    MAMBA = "mamba"
    """A Mamba / linear-attention layer: a fixed-size state per request (vLLM's MambaSpec)."""
    NONE = "none"
    """A layer with no cache at all (Nemotron-H's MLP ``-`` and MoE ``E`` layers)."""


class MambaMixer(StrEnum):
    """Which state layout a Mamba / linear-attention layer keeps
    (vllm/model_executor/layers/mamba/mamba_utils.py ``MambaStateShapeCalculator``)."""

    MAMBA1 = "mamba1"
    MAMBA2 = "mamba2"
    SHORT_CONV = "short_conv"
    GDN = "gated_delta_net"
    """Gated DeltaNet (Qwen3-Next, Qwen3.5/3.6)."""
    KDA = "kda"
    """Kimi Delta Attention (Kimi Linear)."""
    LINEAR_ATTENTION = "linear_attention"
    """MiniMax-Text-01 lightning attention."""


@dataclass(frozen=True, kw_only=True)
class MambaConfig:
    """The config facts that size one Mamba / linear-attention layer's state (before TP).

    Symbols as in vLLM's ``MambaStateShapeCalculator``; unused ones stay 0.
    """

    mixer: MambaMixer
    """Which state layout the layer has (Mamba1, Mamba2, short conv, gated DeltaNet, …)."""
    conv_kernel: int = 0
    """``K``: conv states keep ``K - 1`` rows (plus speculative tokens)."""
    intermediate_size: int = 0
    """``I`` (Mamba1/2): inner width."""
    n_groups: int = 0
    """``G`` (Mamba2): B/C groups, padded to TP when fewer."""
    num_heads: int = 0
    """``H`` (Mamba2, KDA, linear attention)."""
    head_dim: int = 0
    """``P`` (Mamba2) or ``D`` (KDA, linear attention)."""
    state_size: int = 0
    """``N`` (Mamba1/2)."""
    conv_dim: int = 0
    """``C`` (short conv)."""
    num_k_heads: int = 0
    """``Hk`` (GDN)."""
    num_v_heads: int = 0
    """``Hv`` (GDN)."""
    head_k_dim: int = 0
    """``Dk`` (GDN)."""
    head_v_dim: int = 0
    """``Dv`` (GDN)."""
    ssm_dtype: str | None = None
    """What ``--mamba-ssm-cache-dtype auto`` becomes for this model before the generic rule
    (Nemotron-H: the config's ``mamba_ssm_cache_dtype``, else float32; Qwen3.5:
    ``mamba_ssm_dtype``); None: the generic rule (the conv state's dtype)."""
    chunk_size: int = 2048
    """``model_config.get_mamba_chunk_size()`` (``"all"`` mode alignment)."""
    supports_all_mode: bool = False
    """``SupportsMambaPrefixCaching``: ``--mamba-cache-mode all`` sticks (else falls back to
    align)."""


# Stateful models whose layouts the notes do not cover (or only partly): refused by name rather
# than silently treated as full attention.
UNSUPPORTED_HYBRID_TYPES = frozenset(
    {
        "falcon_h1",
        "mamba",
        "mamba2",
        "falcon_mamba",
        "zamba",
        "zamba2",
        "plamo2",
        "rwkv",
        "rwkv6",
        "rwkv7",
        "recurrent_gemma",
        "xlstm",
        "hunyuan_v1_dense_mamba",
        "olmo_hybrid",
        "bailing_moe_linear",
    }
)
ASSUMED_DECODER = "standard decoder: full attention, gated MLP, rope"
"""What a model the core does not know is planned as (``ModelSpec.assumed``)."""
# Encoder-only and encoder-decoder models: vLLM sizes their caches by other rules (no decoder KV
# check of this kind; encoder-decoder adds a cross-attention cache), so they are refused, never
# planned as decoders.
ENCODER_MODEL_TYPES = frozenset(
    {
        "bert",
        "roberta",
        "xlm-roberta",
        "xlm_roberta",
        "camembert",
        "distilbert",
        "albert",
        "electra",
        "deberta",
        "deberta-v2",
        "mpnet",
        "modernbert",
        "nomic_bert",
        "new",
        "gte",
        "jina_bert",
        "xlnet",
        "longformer",
        "big_bird",
        "ernie",
        "esm",
        "t5",
        "mt5",
        "umt5",
        "t5gemma",
        "bart",
        "mbart",
        "pegasus",
        "marian",
        "led",
        "prophetnet",
        "m2m_100",
        "nllb_moe",
        "fsmt",
        "whisper",
        "speech_to_text",
        "seamless_m4t",
        "wav2vec2",
        "hubert",
        "clip",
        "clip_vision_model",
        "clip_text_model",
        "siglip",
        "siglip_vision_model",
        "siglip2_vision_model",
        "vit",
        "florence2",
        "encoder-decoder",
        "vision-encoder-decoder",
        "donut-swin",
        "nougat",
        "bge",
    }
)
_ENCODER_ARCH = re.compile(
    r"^(?:Bert|Roberta|XLMRoberta|DistilBert|Albert|Electra|Deberta|DebertaV2|MPNet|ModernBert|"
    r"NomicBert|Camembert|Longformer|BigBird|Ernie|Esm|XLNet|T5|MT5|UMT5|T5Gemma|Bart|MBart|"
    r"Pegasus|Marian|Led|ProphetNet|M2M100|NllbMoe|FSMT|Whisper|Speech2Text|SeamlessM4T|Wav2Vec2|"
    r"Hubert|CLIP|Siglip|Siglip2|ViT|Florence2|SpeechEncoderDecoder|VisionEncoderDecoder|"
    r"EncoderDecoder)(?:Model|For|MT|LMHead|Text|Vision|Encoder|$)|ForMaskedLM$"
)
_STATE_ARCH = re.compile(r"Mamba|Rwkv|RWKV|Xlstm|xLSTM|RecurrentGemma|Hgrn|Retnet|RetNet")
_DECODER_ARCH_SUFFIXES = ("ForCausalLM", "ForConditionalGeneration", "LMHeadModel", "LMHeadModelV2")
_KNOWN_QUANT_METHODS = frozenset(
    {
        "none",
        "fp8",
        "nvfp4",
        "modelopt",
        "modelopt_fp4",
        "mxfp4",
        "awq",
        "gptq",
        "awq_marlin",
        "gptq_marlin",
        "bitsandbytes",
        "compressed-tensors",
    }
)


_MIN_ROPE_FACTOR = 2.2250738585072014e-308  # sys.float_info.min: the smallest normal float
_MAX_LAYERS = (
    MAX_LAYERS  # far above any model; keeps a typo from allocating millions of layer specs
)
_KV_HEAD_KEYS = (
    "n_head_kv",
    "num_kv_heads",
    "num_key_value_heads",
    "multi_query_group_num",
    "num_attention_groups",
)
_MAX_LEN_KEYS = (
    "max_position_embeddings",
    "n_positions",
    "max_seq_len",
    "seq_length",
    "model_max_length",
    "max_sequence_length",
    "max_seq_length",
    "seq_len",
)
_DTYPE_ALIASES = {
    "bfloat16": "bfloat16",
    "bf16": "bfloat16",
    "float16": "float16",
    "fp16": "float16",
    "half": "float16",
    "float32": "float32",
    "fp32": "float32",
    "float": "float32",
}


@dataclass(frozen=True, kw_only=True)
class WeightQuant:
    """How the checkpoint stores its linear-layer weights (from ``quantization_config``)."""

    method: str
    """``none``, ``fp8``, ``awq``, ``gptq``, ``mxfp4``, ``bitsandbytes``, ``compressed-tensors``
    …"""
    bits: int
    """Bits per quantized weight (16 when unquantized)."""
    group_size: int
    """Weights sharing one scale (0 = per channel or not grouped)."""
    experts_only: bool = False
    """mxfp4 in gpt-oss quantizes only the MoE experts."""
    experts_fp4: bool = False
    """DeepSeek-V4 (``expert_dtype: fp4`` beside an fp8 ``quantization_config``): routed experts are
    stored as 4-bit values with one 8-bit (ue8m0) scale per 32, the other linear layers as block
    fp8."""
    rest_bits: int = 0
    """ModelOpt ``MIXED_PRECISION`` (``quantized_layers``): the routed experts at ``bits`` and the
    other linear layers at this width (nvidia/Qwen3.6-35B-A3B-NVFP4: experts W4A16_NVFP4, attention
    FP8); 0 = one width."""


@dataclass(frozen=True, kw_only=True)
class VisionSpec:
    """The vision tower facts vLLM's encoder profiling run depends on (``vision_config`` shapes)."""

    family: str
    """The multimodal wrapper's ``model_type`` (``qwen3_vl_moe``, ``gemma3``, ``mistral3`` ...)."""
    hidden_size: int = 0
    """ViT width; 0 = the tower's shape is not known (no ``vision_config`` and no published shape
    copied)."""
    intermediate_size: int = 0
    """ViT MLP width (0 = not known)."""
    gated_mlp: bool = False
    """A SiLU-gated MLP (gate and up projections: Qwen2.5-VL, Pixtral)."""
    patch_size: int = 14
    """Pixels per patch side."""
    temporal_patch_size: int = 1
    """Video frames per patch (Qwen-VL; 1 for images-only towers)."""
    spatial_merge_size: int = 1
    """Patches merged per side before the projector (Qwen-VL 2: a 2 × 2 merge)."""
    image_size: int = 0
    """Fixed input side in pixels (SigLIP, Pixtral); 0 for processors that resize to a pixel
    budget."""
    in_channels: int = 3
    """Input channels of the patch embedding (3: RGB)."""
    deepstack_layers: int = 0
    """Qwen3-VL deep-stack outputs concatenated to the merger's (each one more text-width row per
    token)."""
    depth: int = 0
    """ViT blocks (``depth``; 0 = not known here)."""
    num_position_embeddings: int = 0
    """Rows of the ViT's learned position embedding (Qwen3-VL ``pos_embed``; 0 = none or not
    known)."""


@dataclass(frozen=True, kw_only=True)
class SparseAttention:
    """DeepSeek's sparse attention (V3.2's indexer; V4's compressed layers with it): the caches
    beside the attention cache that no other family has (vllm/model_executor/models/deepseek_v2.py
    ``Indexer``, vllm/models/deepseek_v4/attention.py)."""

    indexer_head_size: int = 0
    """The indexer's uint8 K cache per layer: ``index_head_dim + index_head_dim // 128 × 4`` bytes
    per token (fp8 keys + an fp32 scale per 128 values: 132); 0 = no indexer."""
    compress_ratios: tuple[int, ...] = ()
    """DeepSeek-V4: per decoder layer, 1 (sliding window only), 4 (C4A, with the indexer) or 128
    (C128A) (``max(1, compress_ratios[i])``, attention.py); empty for V3.2."""
    index_head_dim: int = 0
    """DeepSeek-V4: the indexer's head size (its compressor keeps ``4 × index_head_dim`` fp32 values
    per token); 0 for V3.2, whose indexer keeps no compressor state."""


@dataclass(frozen=True, kw_only=True)
class PerLayer:
    """Layers that differ from the model-level attention (Gemma 3n, Gemma 4): what they share or
    widen."""

    kv_shared: tuple[int, ...] = ()
    """Layers that read another layer's KV cache (``kv_sharing_target_layer_name``: Gemma 3n, Gemma
    4's last ``num_kv_shared_layers``): they keep their kind but own no KV cache, no spec and no
    group."""
    attention: tuple[tuple[int, int, int], ...] = ()
    """Layers whose attention is not the model-level ``head_size`` × ``total_num_kv_heads``, as
    ``(layer, head_size, total_kv_heads)``: Gemma 4's full-attention layers (``global_head_dim``,
    and with ``attention_k_eq_v`` ``num_global_key_value_heads``; ``_gemma4_layer_attention``)."""


@dataclass(frozen=True, kw_only=True)
class OlderWindows:
    """A config's sliding window that releases before the pinned main apply differently
    (``kvcalc.arch.window_rules``); the pinned main's layers are ``ModelSpec.layer_kinds``."""

    qwen2: tuple[int, int] | None = None
    """Qwen2Model (qwen2, qwen3) with ``use_sliding_window`` and a window: ``(sliding_window,
    max_window_layers)``, which releases before 0.10.1 check differently."""
    unused: int | None = None
    """A config ``sliding_window`` whose ``layer_types`` have no sliding layer: unused on the pinned
    main (#49803), every layer's window before 0.27."""


@dataclass(frozen=True, kw_only=True)
class Rotary:
    """The rotary embedding's buffers vLLM allocates while loading (budget/weight_share.py)."""

    caches: tuple[RopeCache, ...] = ()
    """The distinct cos/sin caches (``kvcalc.arch.rope_cache``); () without RoPE."""
    mrope_max_position: int = 0
    """``max_position_embeddings`` of a model vLLM rotates with MRoPE (rope scaling with
    ``mrope_section``: Qwen2-VL, Qwen2.5-VL, Qwen3-VL), whose enlarged cos/sin cache is sized from
    it; 0 = plain RoPE."""


@dataclass(frozen=True, kw_only=True)
class ModelSpec:
    """The model facts the KV planning, the budget and the reports need."""

    model_id: str
    """Catalog id or the name given to a pasted config."""
    model_type: str
    """The (text) config's ``model_type``."""
    num_layers: int
    """Decoder layers that own KV cache (``num_hidden_layers``)."""
    layer_kinds: tuple[LayerKind, ...]
    """Per layer: ``full``, ``sliding``, ``chunked`` or ``mla``."""
    head_size: int
    """Per-head size of K (MLA: ``kv_lora_rank + qk_rope_head_dim``)."""
    head_size_v: int
    """Per-head size of V (equals ``head_size`` for all supported models)."""
    total_num_kv_heads: int
    """KV heads of the whole model before tensor parallelism (1 for MLA)."""
    num_attention_heads: int
    """Query heads of the whole model (``num_attention_heads``)."""
    hidden_size: int
    """The decoder's width (``hidden_size``)."""
    intermediate_size: int
    """The dense MLP's width (``intermediate_size``); sizes activations and parameters."""
    vocab_size: int
    """Vocabulary rows (``vocab_size``): embedding, LM head and the sampler's logits."""
    sliding_window: int | None
    """Window of the sliding layers, in tokens."""
    attention_chunk_size: int | None
    """Llama 4 chunked local attention."""
    dtype: str
    """Model dtype vLLM runs in with ``--dtype auto``: bfloat16, float16 or float32."""
    derived_max_model_len: int
    """What vLLM derives when ``--max-model-len`` is not given."""
    num_parameters: int
    """Total parameters (catalog figure, else counted from the config)."""
    num_expert_parameters: int
    """Parameters inside routed MoE experts (for expert-only quantization)."""
    quant: WeightQuant
    """How the weights are stored (the checkpoint's ``quantization_config``, else the dtype)."""
    is_moe: bool
    """Routed mixture-of-experts MLPs."""
    num_experts_per_tok: int
    """Experts each token is routed to (0 for dense models)."""
    mamba: MambaConfig | None = None
    """The Mamba / linear-attention layers' state facts (None: no such layers)."""
    num_experts: int = 0
    """Routed experts per MoE layer (``num_experts`` / ``num_local_experts`` /
    ``n_routed_experts``): what expert parallelism deals out whole
    (kvcalc.budget.expert_parallel); 0 without MoE layers."""
    moe_intermediate_size: int = 0
    """Per-expert MLP width (``moe_intermediate_size``); 0 = ``intermediate_size`` is already per
    expert (Mixtral, gpt-oss)."""
    tie_word_embeddings: bool = False
    """The output projection shares the input embedding (stored once)."""
    vision_parameters: int = 0
    """Parameters of a vision tower and its projector (multimodal checkpoints), stored in 16 bits;
    counted from ``vision_config`` or, for catalog wrappers without one, from the published tower
    shape."""
    checkpoint_bytes: int | None = None
    """Exact safetensors total (``metadata.total_size``) when a copied index gives it; None =
    counted."""
    sparse: SparseAttention | None = None
    """DeepSeek-V3.2 / V4's indexer and compressed layers (None for every other model)."""
    per_layer: PerLayer | None = None
    """Gemma 3n / 4's shared-KV and wider layers (None when every layer has the model-level
    attention)."""
    vision: VisionSpec | None = None
    """The vision tower of a multimodal checkpoint (None: text only)."""
    tower_parameters: int = 0
    """Parameters of the vision tower and its projector held in the checkpoint total the weights are
    taken from (``vision_parameters`` when counted; counted from the tower's shape when an exact
    total includes them; 0 when neither holds them): what vLLM does not load in its text-only mode
    (kvcalc.tower_skip)."""
    rotary: Rotary = Rotary()
    """The rotary embedding's cos/sin caches (a default ``Rotary()`` without RoPE)."""
    older_windows: OlderWindows | None = None
    """A window older releases apply differently (None: every release reads the layers alike)."""
    num_mtp_layers: int = 0
    """The checkpoint's multi-token-prediction layers (``num_nextn_predict_layers``; Qwen3.5/3.6
    ``mtp_num_hidden_layers``): loaded, with their own KV cache, only with ``--speculative-config``
    method mtp (vllm/config/speculative.py ``hf_config_override``)."""
    mtp_layer_parameters: int = 0
    """Parameters of one MTP layer as counted from the config: a decoder layer of the model's last
    kind (MoE when the model has experts) plus ``eh_proj``/``fc`` (2 × hidden → hidden) and its two
    input norms; the embedding and LM head are shared with the target (vllm/v1/spec_decode/eagle.py
    ``load_model``)."""
    unsplit_parameters: int = 0
    """Parameters every TP rank holds whole beyond what ``weight_share.replicated_parameters``
    counts for every model (norm weights, routers, tower parts): OPT's LayerNorm and row-parallel
    biases, learned positions and embedding projections (``kvcalc.opt_layout``); 0 for the
    others."""
    assumed: tuple[tuple[str, str], ...] = ()
    """What the config names that the core does not know, as ``(key, value)`` (``model_type``,
    ``architectures``, ``quant_method``): planned as a standard decoder (:data:`ASSUMED_DECODER`)
    and said so."""

    def attention_of(self, layer: int) -> tuple[int, int]:
        """``(head_size, total KV heads)`` of one layer, before tensor parallelism."""
        for i, head, kv_heads in self.per_layer.attention if self.per_layer else ():
            if i == layer:
                return head, kv_heads
        return self.head_size, self.total_num_kv_heads

    @property
    def is_mla(self) -> bool:
        return LayerKind.MLA in self.layer_kinds

    @property
    def is_deepseek_v4(self) -> bool:
        return self.sparse is not None and bool(self.sparse.compress_ratios)

    @property
    def is_hybrid_mamba(self) -> bool:
        """vLLM's ``model_config.is_hybrid``: attention and Mamba / linear-attention layers."""
        return LayerKind.MAMBA in self.layer_kinds and any(
            k not in (LayerKind.MAMBA, LayerKind.NONE) for k in self.layer_kinds
        )

    @property
    def architecture(self) -> str:
        """A one-word class for reports: gqa, mha, mla, sliding, hybrid, mamba."""
        kinds = set(self.layer_kinds) - {LayerKind.NONE}
        if LayerKind.MAMBA in kinds:
            return "mamba"
        if LayerKind.MLA in kinds:
            return "mla"
        if kinds == {LayerKind.SLIDING}:
            return "sliding"
        if len(kinds) > 1:
            return "hybrid"
        return "mha" if self.total_num_kv_heads == self.num_attention_heads else "gqa"


def _bad(key: str, value: object, why: str) -> CalcError:
    return CalcError(
        "config_bad_value",
        f"config.json: {key!r} {why}, got {shorten(value)}",
        field="config",
        key=key,
        value=shorten(value),
    )


def _int(
    cfg: Mapping[str, object],
    key: str,
    *,
    required: bool = False,
    minimum: int = 0,
    maximum: int = MAX_DIM,
) -> int | None:
    """An integer config value in ``[minimum, maximum]`` (every read of a number goes through here
    or :func:`_opt_number`, so NaN, ±Infinity, 1e400 and 400-digit integers are refused by name)."""
    value = cfg.get(key)
    if value is None:
        if required:
            raise CalcError(
                "config_missing_key",
                f"config.json has no {key!r}; it is needed to size the KV cache",
                field="config",
                key=key,
            )
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _bad(key, value, "must be an integer")
    if (
        isinstance(value, float) and not value.is_integer()
    ):  # NaN and ±Infinity are not integers either
        raise _bad(key, value, "must be a finite integer")
    if not minimum <= value <= maximum:
        raise _bad(key, value, f"must be between {minimum} and {maximum}")
    return int(value)


def _opt_number(cfg: Mapping[str, object], key: str, *, maximum: float) -> float | None:
    """A number where vLLM ignores non-numbers (None, strings, lists): None for those, but a
    non-finite or out-of-range number is refused by name."""
    value = cfg.get(key)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if value != value or not -maximum <= value <= maximum:  # NaN, ±Infinity, too large
        raise _bad(key, value, f"must be a finite number up to {maximum:g}")
    return value


def _text_config(cfg: Mapping[str, object]) -> tuple[dict[str, object], str | None]:
    """Multimodal wrappers (Gemma 3, Llama 4, Mistral 3) keep the LM in ``text_config``."""
    top_dtype = cfg.get("dtype") or cfg.get("torch_dtype")
    for key in ("text_config", "llm_config", "language_config"):
        sub = cfg.get(key)
        if isinstance(sub, Mapping):
            merged = dict(sub)
            merged.setdefault("model_type", cfg.get("model_type"))
            if "quantization_config" in cfg and "quantization_config" not in merged:
                merged["quantization_config"] = cfg["quantization_config"]
            return merged, top_dtype if isinstance(top_dtype, str) else None
    return dict(cfg), top_dtype if isinstance(top_dtype, str) else None


def _dtype(text: Mapping[str, object], top: str | None) -> str:
    raw = top or text.get("dtype") or text.get("torch_dtype") or "bfloat16"
    name = _DTYPE_ALIASES.get(raw.lower().replace("torch.", "")) if isinstance(raw, str) else None
    if name is None:
        raise CalcError(
            "config_bad_value",
            f"config.json: unknown dtype {shorten(raw)}",
            field="config",
            key="dtype",
            value=shorten(raw),
        )
    # vllm/config/model.py _get_and_verify_dtype: a float32 checkpoint is served
    # in 16-bit (bfloat16 where supported) unless --dtype float32 is given.
    return "bfloat16" if name == "float32" else name


def _kv_heads(text: Mapping[str, object], num_heads: int) -> int:
    rule = families.row_of(str(text.get("model_type") or "")).kv_heads
    # vllm ModelArchConfigConvertorBase.get_total_num_kv_heads
    if (
        rule == families.KvHeads.FALCON
        and not text.get("new_decoder_architecture")
        and text.get("multi_query")
    ):
        return 1
    attn = text.get("attn_config")
    if (
        rule == families.KvHeads.ATTN_CONFIG
        and isinstance(attn, Mapping)
        and attn.get("kv_n_heads")
    ):
        return _int(attn, "kv_n_heads", minimum=1) or num_heads
    for key in _KV_HEAD_KEYS:
        n = _int(text, key, minimum=1)
        if n is not None:
            return n
    return num_heads


def _grouped_kv_heads(text: Mapping[str, object], num_heads: int) -> int:
    """The KV heads, each shared by a whole number of query heads."""
    kv_heads = _kv_heads(text, num_heads)
    if num_heads % kv_heads:  # vllm/attention/layer.py: assert num_heads % num_kv_heads == 0
        raise CalcError(
            "config_bad_value",
            f"config.json: num_attention_heads {num_heads} is not a multiple of "
            f"num_key_value_heads {kv_heads}",
            field="config",
            key="num_key_value_heads",
            value=f"{num_heads} % {kv_heads} = {num_heads % kv_heads}",
        )
    return kv_heads


def _head_size(text: Mapping[str, object], hidden: int, num_heads: int) -> int:
    # vllm ModelArchConfigConvertorBase.get_head_size: a declared head_dim wins.
    for key in ("head_dim", "hidden_size_per_head"):
        if isinstance(text.get(key), (int, float)):
            size = _int(text, key, minimum=-1)
            if size and size > 0:
                return size
    if hidden % num_heads:
        raise CalcError(
            "config_bad_value",
            f"config.json: hidden_size {hidden} is not divisible by num_attention_heads "
            f"{num_heads} and no head_dim is given",
            field="config",
            key="head_dim",
            value=hidden,
        )
    return hidden // num_heads


def _layer_kinds(
    text: Mapping[str, object], num_layers: int
) -> tuple[tuple[LayerKind, ...], int | None, int | None]:
    """Which layers slide (vllm/engine/arg_utils.py create_engine_config; CONTRIBUTING.md §2.3)."""
    mt = str(text.get("model_type") or "")
    raw_window = _opt_number(text, "sliding_window", maximum=MAX_LEN)
    window = int(raw_window) if raw_window is not None and raw_window >= 1 else None
    layer_types = text.get("layer_types")
    row = families.row_of(mt)
    pattern_rule = row.layer_pattern
    if pattern_rule == LayerPattern.QWEN2:
        return _qwen2_layer_kinds(text, num_layers, window)
    # a list in config.json, a tuple in a catalog entry (calc/catalog.py freezes lists): the same
    # layers either way
    if isinstance(layer_types, (list, tuple)) and layer_types:
        if (
            len(layer_types) != num_layers
        ):  # transformers' layer_type_validation: one type per layer
            raise CalcError(
                "config_bad_value",
                f"config.json: layer_types lists {len(layer_types)} layers, num_hidden_layers is "
                f"{num_layers}",
                field="config",
                key="layer_types",
                value=len(layer_types),
            )
        kinds: list[LayerKind] = []
        for t in layer_types[:num_layers]:
            if t in ("full_attention", "global", "attention"):
                kinds.append(LayerKind.FULL)
            elif t in ("sliding_attention", "local", "sliding_window"):
                kinds.append(LayerKind.SLIDING)
            elif t in ("chunked_attention",):
                kinds.append(LayerKind.CHUNKED)
            else:
                raise CalcError(
                    "unsupported_architecture",
                    f"layer type {shorten(t)} ({shorten(mt)}) is a Mamba/linear-attention layer; "
                    "hybrid models of this kind are not supported yet",
                    field="config",
                    model_type=shorten(mt),
                    value=shorten(t),
                )
        if LayerKind.SLIDING in kinds and window is None:
            raise CalcError(
                "config_missing_key",
                "config.json has sliding_attention layers but no sliding_window",
                field="config",
                key="sliding_window",
            )
        # chunked_attention layers (Llama 4, vllm/model_executor/models/llama4.py) use
        # attention_chunk_size
        chunk = (
            _int(text, "attention_chunk_size", minimum=1, maximum=MAX_LEN)
            if LayerKind.CHUNKED in kinds
            else None
        )
        if LayerKind.CHUNKED in kinds and chunk is None:
            raise CalcError(
                "config_missing_key",
                "config.json has chunked_attention layers but no attention_chunk_size",
                field="config",
                key="attention_chunk_size",
            )
        return tuple(kinds), (window if LayerKind.SLIDING in kinds else None), chunk
    # Configs without layer_types (transformers would derive them).
    if pattern_rule == LayerPattern.ALTERNATE and window:
        return (
            tuple(LayerKind.SLIDING if i % 2 == 0 else LayerKind.FULL for i in range(num_layers)),
            window,
            None,
        )
    if pattern_rule == LayerPattern.EVERY_NTH_FULL and window:
        pattern = _int(text, "sliding_window_pattern", minimum=1) or row.sliding_pattern
        return (
            tuple(
                LayerKind.FULL if (i + 1) % pattern == 0 else LayerKind.SLIDING
                for i in range(num_layers)
            ),
            window,
            None,
        )
    if pattern_rule == LayerPattern.CHUNKED:
        chunk = _int(text, "attention_chunk_size", minimum=1, maximum=MAX_LEN)
        if chunk:
            nope = text.get("no_rope_layers")
            if not isinstance(nope, (list, tuple)) or len(nope) < num_layers:
                nope = [int((i + 1) % 4 != 0) for i in range(num_layers)]
            # vllm/model_executor/models/llama4.py: RoPE layers use chunked local attention.
            return (
                tuple(LayerKind.CHUNKED if nope[i] else LayerKind.FULL for i in range(num_layers)),
                None,
                chunk,
            )
    if row.window_needs_flag and not text.get("use_sliding_window", False):
        window = None  # Qwen configs carry sliding_window with use_sliding_window false: ignored
    if window:
        return (
            (LayerKind.SLIDING,) * num_layers,
            window,
            None,
        )  # model-level window: every layer (Mistral-7B-v0.1)
    return (LayerKind.FULL,) * num_layers, None, None


def _qwen2_layer_kinds(
    text: Mapping[str, object], num_layers: int, window: int | None
) -> tuple[tuple[LayerKind, ...], int | None, int | None]:
    """Qwen2Model on the pinned main (arch/qwen2_window.py): mixed layer types are refused unless
    ``max_window_layers == num_hidden_layers``; Qwen2Attention passes no per-layer window, so the
    layers slide only when every layer type is sliding (arg_utils.py, #49803)."""
    window = window if text.get("use_sliding_window", False) else None
    given = _int(text, "max_window_layers", maximum=MAX_LAYERS)
    max_layers = QWEN2_MAX_WINDOW_LAYERS if given is None else given
    types = qwen2_types(text, num_layers, window, max_layers)
    if len(types) != num_layers:
        raise CalcError(
            "config_bad_value",
            f"config.json: layer_types lists {len(types)} layers, num_hidden_layers is "
            f"{num_layers}",
            field="config",
            key="layer_types",
            value=len(types),
        )
    if len(set(types)) > 1 and max_layers != num_layers:
        raise refuse_partial_window(max_layers, num_layers, "vllm/model_executor/models/qwen2.py")
    if window is not None and set(types) == {"sliding_attention"}:
        return (LayerKind.SLIDING,) * num_layers, window, None
    return (LayerKind.FULL,) * num_layers, None, None


def _window_facts(
    text: Mapping[str, object], mt: str, num_layers: int, kinds: tuple[LayerKind, ...]
) -> OlderWindows | None:
    """The windows older releases apply differently (ModelSpec.older_windows)."""
    raw = _opt_number(text, "sliding_window", maximum=MAX_LEN)
    window = int(raw) if raw is not None and raw >= 1 else None
    if families.row_of(mt).layer_pattern == LayerPattern.QWEN2:
        if window is None or not text.get("use_sliding_window", False):
            return None
        given = _int(text, "max_window_layers", maximum=MAX_LAYERS)
        max_layers = QWEN2_MAX_WINDOW_LAYERS if given is None else given
        types = qwen2_types(text, num_layers, window, max_layers)
        unused = window if set(types) == {"full_attention"} else None
        return OlderWindows(qwen2=(window, max_layers), unused=unused)
    types_given = isinstance(text.get("layer_types"), list) and bool(text.get("layer_types"))
    if window is not None and types_given and set(kinds) == {LayerKind.FULL}:
        return OlderWindows(unused=window)
    return None


_ATTENTION_TYPES = ("full_attention", "attention", "global")
_STATE_TYPES = ("linear_attention", "mamba", "conv", "short_conv", "kda")
_NO_CACHE_TYPES = ("mlp", "moe")


def _positive(cfg: Mapping[str, object], key: str, default: int | None = None) -> int:
    value = _int(cfg, key, minimum=1)
    if value is None:
        if default is None:
            raise CalcError(
                "config_missing_key",
                f"config.json has no {key!r}; it is needed to size the Mamba state",
                field="config",
                key=key,
            )
        return default
    return value


def _kinds_from_types(
    types: object, num_layers: int, mt: str, attention: LayerKind
) -> list[LayerKind] | None:
    """``layer_types`` as transformers resolves it for hybrids
    (``linear_attention``/``full_attention``/``moe``…)."""
    if not isinstance(types, (list, tuple)) or not types:
        return None
    if len(types) != num_layers:
        raise CalcError(
            "config_bad_value",
            f"config.json: layer_types lists {len(types)} layers, num_hidden_layers is "
            f"{num_layers}",
            field="config",
            key="layer_types",
            value=len(types),
        )
    kinds = []
    for t in types[:num_layers]:
        if t in _ATTENTION_TYPES:
            kinds.append(attention)
        elif t in _STATE_TYPES:
            kinds.append(LayerKind.MAMBA)
        elif t in _NO_CACHE_TYPES:
            kinds.append(LayerKind.NONE)
        else:
            raise CalcError(
                "unsupported_architecture",
                f"{mt}: layer type {t!r} is not one the calculator knows",
                field="config",
                model_type=mt,
                value=str(t),
            )
    return kinds


def _chunk_size(text: Mapping[str, object]) -> int:
    """vllm/config/model.py ``get_mamba_chunk_size``: mamba_chunk_size, else chunk_size, else
    2048."""
    return _int(text, "mamba_chunk_size", minimum=1) or _int(text, "chunk_size", minimum=1) or 2048


def _ssm_dtype(text: Mapping[str, object], key: str) -> str | None:
    raw = text.get(key)
    if raw is None:
        return None
    name = _DTYPE_ALIASES.get(str(raw).lower().replace("torch.", ""))
    if name is None:
        raise CalcError(
            "config_bad_value",
            f"config.json: unknown {key} {shorten(raw)!r}",
            field="config",
            key=key,
            value=shorten(raw),
        )
    return name


# Each reader mirrors one model file's ``get_mamba_state_shape_from_config``
# (vllm/model_executor/models/) and returns the layer kinds plus the state facts, or None when no
# layer keeps a state. They all take (text, model_type, num_layers, hidden_size, mamba chunk size),
# so that one table holds them.
_Hybrid = tuple[list[LayerKind], MambaConfig]


def _hybrid_layers(
    text: Mapping[str, object], mt: str, num_layers: int, hidden: int
) -> tuple[tuple[LayerKind, ...], MambaConfig] | None:
    """Layer kinds and state facts of a Mamba / linear-attention model (notes section 2.3).

    One reader per model family (:data:`_HYBRID_READERS`). None: the config has no stateful
    layer (granite-4.0-micro: a granitemoehybrid config whose layers are all attention).
    """
    chunk = _chunk_size(text)  # read first: a bad chunk size is reported before any layer key
    reader = _HYBRID_READERS.get(families.row_of(mt).hybrid_reader)
    found = reader(text, mt, num_layers, hidden, chunk) if reader is not None else None
    if found is None:
        return None
    kinds, mamba = found
    return tuple(kinds), mamba


def _gated_delta_net_layers(
    text: Mapping[str, object], mt: str, num_layers: int, hidden: int, chunk: int
) -> _Hybrid:
    """Qwen3-Next and Qwen3.5/3.6 (qwen3_next.py, qwen3_5.py): Gated DeltaNet layers, one
    full-attention layer every ``full_attention_interval`` when ``layer_types`` is absent."""
    kinds = _kinds_from_types(text.get("layer_types"), num_layers, mt, LayerKind.FULL)
    if kinds is None:
        interval = _positive(text, "full_attention_interval", 4)
        kinds = [
            LayerKind.FULL if (i + 1) % interval == 0 else LayerKind.MAMBA
            for i in range(num_layers)
        ]
    ssm_key = families.row_of(mt).ssm_dtype_key
    # the linear-attention keys' defaults are the config class's (the family table's class_defaults)
    mamba = MambaConfig(
        mixer=MambaMixer.GDN,
        conv_kernel=_positive(text, "linear_conv_kernel_dim"),
        num_k_heads=_positive(text, "linear_num_key_heads"),
        num_v_heads=_positive(text, "linear_num_value_heads"),
        head_k_dim=_positive(text, "linear_key_head_dim"),
        head_v_dim=_positive(text, "linear_value_head_dim"),
        # Qwen3_5ForConditionalGenerationConfig: ssm state from mamba_ssm_dtype; Qwen3-Next has no
        # such hook.
        ssm_dtype=_ssm_dtype(text, ssm_key) if ssm_key else None,
        chunk_size=chunk,
    )
    return kinds, mamba


def _nemotron_h_layers(
    text: Mapping[str, object], mt: str, num_layers: int, hidden: int, chunk: int
) -> _Hybrid:
    """Nemotron-H (nemotron_h.py): Mamba2 layers placed by ``hybrid_override_pattern``, one
    character per layer (``M`` Mamba, ``*`` attention, ``-`` MLP, ``E`` MoE), else by
    ``layer_types``."""
    pattern = text.get("hybrid_override_pattern")
    if isinstance(pattern, str) and pattern:
        if len(pattern) < num_layers or set(pattern) - set("M*-E"):
            raise CalcError(
                "config_bad_value",
                f"config.json: hybrid_override_pattern {pattern!r} must give one of M * - E per "
                f"layer",
                field="config",
                key="hybrid_override_pattern",
                value=pattern,
            )
        table = {
            "M": LayerKind.MAMBA,
            "*": LayerKind.FULL,
            "-": LayerKind.NONE,
            "E": LayerKind.NONE,
        }
        kinds = [table[c] for c in pattern[:num_layers]]
    else:
        found = _kinds_from_types(
            text.get("layer_types") or text.get("layers_block_type"), num_layers, mt, LayerKind.FULL
        )
        if found is None:
            raise CalcError(
                "config_missing_key",
                "config.json has no 'hybrid_override_pattern'",
                field="config",
                key="hybrid_override_pattern",
            )
        kinds = found
    heads, head_dim = _positive(text, "mamba_num_heads"), _positive(text, "mamba_head_dim")
    mamba = MambaConfig(
        mixer=MambaMixer.MAMBA2,
        intermediate_size=heads * head_dim,
        n_groups=_positive(text, "n_groups"),
        num_heads=heads,
        head_dim=head_dim,
        state_size=_positive(text, "ssm_state_size"),
        conv_kernel=_positive(text, "conv_kernel"),
        # NemotronHForCausalLMConfig: auto -> the config's mamba_ssm_cache_dtype, else float32.
        ssm_dtype=_ssm_dtype(text, "mamba_ssm_cache_dtype") or "float32",
        chunk_size=chunk,
        supports_all_mode=True,
    )
    return kinds, mamba


def _granite_bamba_layers(
    text: Mapping[str, object], mt: str, num_layers: int, hidden: int, chunk: int
) -> _Hybrid | None:
    """Granite 4.0 and Bamba (granitemoehybrid.py, bamba.py): Mamba2 layers with ``mamba_*`` keys;
    Bamba lists its attention layers in ``attn_layer_indices``."""
    row = families.row_of(mt)
    if row.attention_layers_key:
        attn = text.get(row.attention_layers_key)
        attn_idx = set(attn) if isinstance(attn, (list, tuple)) else set()
        kinds = [LayerKind.FULL if i in attn_idx else LayerKind.MAMBA for i in range(num_layers)]
    else:
        found = _kinds_from_types(
            text.get("layer_types") or text.get("layers_block_type"), num_layers, mt, LayerKind.FULL
        )
        if found is None:
            raise CalcError(
                "config_missing_key",
                "config.json has no 'layer_types'",
                field="config",
                key="layer_types",
            )
        kinds = found
    if LayerKind.MAMBA not in kinds:
        return None
    mamba = MambaConfig(
        mixer=MambaMixer.MAMBA2,
        intermediate_size=_positive(text, "mamba_expand", 2) * hidden,
        n_groups=_positive(text, "mamba_n_groups", 1),
        num_heads=_positive(text, "mamba_n_heads"),
        head_dim=_positive(text, "mamba_d_head"),
        state_size=_positive(text, "mamba_d_state"),
        conv_kernel=_positive(text, "mamba_d_conv"),
        chunk_size=chunk,
        supports_all_mode=row.mamba_prefix_caching,
    )
    return kinds, mamba


def _jamba_layers(
    text: Mapping[str, object], mt: str, num_layers: int, hidden: int, chunk: int
) -> _Hybrid:
    """Jamba (jamba.py): Mamba1 layers; without a per-layer list, attention is layer
    ``attn_layer_offset`` of every ``attn_layer_period``."""
    kinds = _kinds_from_types(
        text.get("layers_block_type") or text.get("layer_types"), num_layers, mt, LayerKind.FULL
    )
    if kinds is None:
        period, offset = (
            _positive(text, "attn_layer_period", 8),
            _int(text, "attn_layer_offset") or 4,
        )
        kinds = [
            LayerKind.FULL if i % period == offset else LayerKind.MAMBA for i in range(num_layers)
        ]
    mamba = MambaConfig(
        mixer=MambaMixer.MAMBA1,
        intermediate_size=_positive(text, "mamba_expand", 2) * hidden,
        state_size=_positive(text, "mamba_d_state", 16),
        conv_kernel=_positive(text, "mamba_d_conv", 4),
        chunk_size=chunk,
        supports_all_mode=True,
    )
    return kinds, mamba


def _lfm2_layers(
    text: Mapping[str, object], mt: str, num_layers: int, hidden: int, chunk: int
) -> _Hybrid:
    """LFM2 (lfm2.py, lfm2_moe.py): short-conv layers; attention from ``layer_types`` or
    ``full_attn_idxs``."""
    kinds = _kinds_from_types(text.get("layer_types"), num_layers, mt, LayerKind.FULL)
    if kinds is None:
        full = text.get("full_attn_idxs")
        if not isinstance(full, (list, tuple)):
            raise CalcError(
                "config_missing_key",
                "config.json has no 'layer_types'",
                field="config",
                key="layer_types",
            )
        kinds = [LayerKind.FULL if i in set(full) else LayerKind.MAMBA for i in range(num_layers)]
    mamba = MambaConfig(
        mixer=MambaMixer.SHORT_CONV,
        conv_kernel=_positive(text, "conv_L_cache"),
        conv_dim=hidden
        if families.row_of(mt).conv_dim_is_hidden
        else _positive(text, "conv_dim", hidden),
        chunk_size=chunk,
    )
    return kinds, mamba


def _kimi_linear_layers(
    text: Mapping[str, object], mt: str, num_layers: int, hidden: int, chunk: int
) -> _Hybrid:
    """Kimi Linear (kimi_linear.py): KDA layers and MLA layers, both described in
    ``linear_attn_config``."""
    lac = text.get("linear_attn_config")
    if not isinstance(lac, Mapping):
        raise CalcError(
            "config_missing_key",
            "config.json has no 'linear_attn_config'",
            field="config",
            key="linear_attn_config",
        )
    full = lac.get("full_attn_layers")
    if isinstance(full, (list, tuple)):  # 1-based layer numbers
        full_idx = {int(x) - 1 for x in full if isinstance(x, int)}
        kinds = [LayerKind.MLA if i in full_idx else LayerKind.MAMBA for i in range(num_layers)]
    else:
        found = _kinds_from_types(text.get("layer_types"), num_layers, mt, LayerKind.MLA)
        if found is None:
            raise CalcError(
                "config_missing_key",
                "linear_attn_config has no 'full_attn_layers'",
                field="config",
                key="linear_attn_config",
            )
        kinds = found
    mamba = MambaConfig(
        mixer=MambaMixer.KDA,
        num_heads=_positive(lac, "num_heads"),
        head_dim=_positive(lac, "head_dim"),
        conv_kernel=_positive(lac, "short_conv_kernel_size"),
        # kda_state_dtype: the recurrent state is float32 whatever the flags say
        ssm_dtype="float32",
        chunk_size=chunk,
    )
    return kinds, mamba


def _minimax_layers(
    text: Mapping[str, object], mt: str, num_layers: int, hidden: int, chunk: int
) -> _Hybrid:
    """MiniMax-Text-01 / M1 (minimax_text_01.py): lightning-attention layers, ``attn_type_list`` 1 =
    full attention."""
    types = text.get("attn_type_list")
    if not isinstance(types, (list, tuple)) or len(types) < num_layers:
        raise CalcError(
            "config_missing_key",
            "config.json has no 'attn_type_list' for every layer",
            field="config",
            key="attn_type_list",
        )
    kinds = [LayerKind.FULL if t == 1 else LayerKind.MAMBA for t in types[:num_layers]]
    heads = _positive(text, "num_attention_heads")
    mamba = MambaConfig(
        mixer=MambaMixer.LINEAR_ATTENTION,
        num_heads=heads,
        head_dim=_int(text, "head_dim", minimum=1) or hidden // heads,
        chunk_size=chunk,
    )
    return kinds, mamba


# The family table's ``hybrid_reader`` -> the reader of that layer list; every hybrid row names one.
_HYBRID_READERS: Mapping[
    str, Callable[[Mapping[str, object], str, int, int, int], _Hybrid | None]
] = {
    "gated_delta_net": _gated_delta_net_layers,
    "nemotron_h": _nemotron_h_layers,
    "granite_bamba": _granite_bamba_layers,
    "jamba": _jamba_layers,
    "lfm2": _lfm2_layers,
    "kimi_linear": _kimi_linear_layers,
    "minimax": _minimax_layers,
}


def _derived_max_len(text: Mapping[str, object], mt: str) -> int:
    """vllm/config/model.py ``_get_and_verify_max_len``: min of the length keys, RoPE-scaled."""
    lengths = [
        int(v)
        for k in _MAX_LEN_KEYS
        if k != "model_max_length"
        if (v := _opt_number(text, k, maximum=MAX_LEN)) is not None and v >= 1
    ]
    derived = min(lengths) if lengths else 2048
    rope = text.get("rope_scaling") or text.get("rope_parameters")
    if isinstance(rope, Mapping) and families.row_of(mt).rope != Rope.TWO:
        if "full_attention" in rope and isinstance(rope["full_attention"], Mapping):
            rope = rope["full_attention"]
        rope_type = rope.get("rope_type") or rope.get("type")
        factor = rope.get("factor")
        # a denormal factor (1e-300) is no scaling anyone meant: refused with zero and negative ones
        if (
            isinstance(factor, (int, float))
            and not isinstance(factor, bool)
            and not _MIN_ROPE_FACTOR <= factor <= 1e6
        ):
            raise CalcError(
                "config_bad_value",
                f"config.json: rope scaling factor {shorten(factor)} is out of range",
                field="config",
                key="rope_scaling",
                value=shorten(factor),
            )
        if (
            rope_type not in (None, "default", "su", "longrope", "llama3", "mrope")
            and isinstance(factor, (int, float))
            and not isinstance(factor, bool)
        ):
            if rope_type == "yarn" and rope.get("original_max_position_embeddings"):
                derived = (
                    _int(rope, "original_max_position_embeddings", minimum=1, maximum=MAX_LEN)
                    or derived
                )
            derived = int(derived * factor)
            if derived < 1:  # every length, block count and concurrency divides by it
                raise CalcError(
                    "config_bad_value",
                    f"config.json: the RoPE-scaled maximum length is {derived} tokens",
                    field="config",
                    key="rope_scaling",
                    value=derived,
                )
            if derived > MAX_LEN:
                raise CalcError(
                    "config_bad_value",
                    f"config.json: the RoPE-scaled maximum length {derived} exceeds {MAX_LEN}",
                    field="config",
                    key="rope_scaling",
                    value=derived,
                )
    tok_max = text.get("model_max_length")
    if isinstance(tok_max, int) and not isinstance(tok_max, bool) and 0 < tok_max < derived:
        derived = tok_max
    return derived


def _quant(text: Mapping[str, object]) -> WeightQuant:
    qc = text.get("quantization_config")
    if not isinstance(qc, Mapping):
        return WeightQuant(method="none", bits=16, group_size=0)
    method_raw = qc.get("quant_method") or qc.get("quant_algo") or "unknown"
    method = (method_raw if isinstance(method_raw, str) else "unknown").lower()[:64]
    algo_raw = qc.get("quant_algo")
    algo = (algo_raw if isinstance(algo_raw, str) else "").lower()[:64]
    if "nvfp4" in (method, algo) or (method == "modelopt" and "fp4" in algo):
        return WeightQuant(method="nvfp4", bits=4, group_size=16)  # fp8 scale per 16 weights
    if method == "modelopt" and algo == "mixed_precision":
        return _modelopt_mixed(qc)
    if method == "modelopt" and "fp8" in algo:
        return WeightQuant(method="fp8", bits=8, group_size=0)
    if method == "fp8" or "fp8" in method:
        block = qc.get("weight_block_size")
        if (
            isinstance(block, (list, tuple))
            and len(block) == 2
            and all(isinstance(b, int) and b > 0 for b in block)
        ):
            return WeightQuant(
                method="fp8", bits=8, group_size=int(block[0]) * int(block[1])
            )  # one fp32 scale per block
        return WeightQuant(method="fp8", bits=8, group_size=0)
    if method == "mxfp4":
        return WeightQuant(method="mxfp4", bits=4, group_size=32, experts_only=True)
    if method in ("awq", "gptq", "awq_marlin", "gptq_marlin"):
        bits = (
            _int(qc, "bits", minimum=1, maximum=64) or _int(qc, "w_bit", minimum=1, maximum=64) or 4
        )
        group = (
            _int(qc, "group_size", minimum=-1, maximum=MAX_DIM)
            or _int(qc, "q_group_size", minimum=-1, maximum=MAX_DIM)
            or 128
        )
        # GPTQ's group_size -1 means one scale per output channel: no groups.
        return WeightQuant(method=method.split("_")[0], bits=bits, group_size=max(group, 0))
    if method == "bitsandbytes":
        return WeightQuant(method=method, bits=4 if qc.get("load_in_4bit") else 8, group_size=64)
    if method == "compressed-tensors":
        groups = qc.get("config_groups")
        bits = 8
        if isinstance(groups, Mapping):
            for g in groups.values():
                w = g.get("weights") if isinstance(g, Mapping) else None
                if isinstance(w, Mapping) and w.get("num_bits") is not None:
                    bits = _int(w, "num_bits", minimum=1, maximum=64) or bits
        return WeightQuant(method=method, bits=bits, group_size=128 if bits == 4 else 0)
    return WeightQuant(method=method, bits=16, group_size=0)


def _modelopt_mixed(qc: Mapping[str, object]) -> WeightQuant:
    """ModelOpt's ``MIXED_PRECISION``: each layer's ``quant_algo`` in ``quantized_layers``
    (hf_quant_config).

    NVFP4 layers (4-bit, one fp8 scale per 16) are the experts; FP8 ones (one scale per tensor) the
    rest.
    """
    layers = qc.get("quantized_layers")
    algos: set[str] = set()
    if isinstance(layers, Mapping):
        for entry in list(layers.values())[:100_000]:
            a = entry.get("quant_algo") if isinstance(entry, Mapping) else None
            if isinstance(a, str):
                algos.add(a.lower()[:64])
    fp4 = any("nvfp4" in a for a in algos)
    fp8 = any("fp8" in a for a in algos)
    if fp4:
        return WeightQuant(method="nvfp4", bits=4, group_size=16, rest_bits=8 if fp8 else 0)
    if fp8:
        return WeightQuant(method="fp8", bits=8, group_size=0)
    return WeightQuant(method="modelopt", bits=16, group_size=0)


def _mixer_parameters(m: MambaConfig, hidden: int) -> int:
    """Weights of one Mamba / linear-attention mixer (projections and conv; norms and biases
    ignored)."""
    k = m.conv_kernel
    if m.mixer == MambaMixer.GDN:
        qk, v = m.num_k_heads * m.head_k_dim, m.num_v_heads * m.head_v_dim
        return hidden * (2 * qk + 2 * v + 2 * m.num_v_heads) + (2 * qk + v) * k + v * hidden
    if m.mixer == MambaMixer.MAMBA2:
        gn = 2 * m.n_groups * m.state_size
        return (
            hidden * (2 * m.intermediate_size + gn + m.num_heads)
            + (m.intermediate_size + gn) * k
            + m.intermediate_size * hidden
        )
    if m.mixer == MambaMixer.MAMBA1:
        rank = -(-hidden // 16)  # dt_rank = ceil(hidden / 16)
        i = m.intermediate_size
        return (
            hidden * 2 * i
            + i * k
            + i * (rank + 2 * m.state_size)
            + rank * i
            + i * m.state_size
            + i * hidden
        )
    if m.mixer == MambaMixer.SHORT_CONV:
        return hidden * 3 * m.conv_dim + m.conv_dim * k + m.conv_dim * hidden
    inner = m.num_heads * m.head_dim  # KDA, linear attention: q, k, v, gate and output projections
    return 5 * hidden * inner + 3 * inner * k


def _count(text: Mapping[str, object], key: str, default: int = 0) -> int:
    value = _int(text, key)
    return default if value is None else value


def _attention_parameters(
    text: Mapping[str, object], *, hidden: int, heads: int, kv_heads: int, head: int, mla: bool
) -> int:
    """One attention layer's projections (MLA: the low-rank q/kv paths of DeepSeek-V2/V3)."""
    if not mla:
        return hidden * heads * head + 2 * hidden * kv_heads * head + heads * head * hidden
    q_lora, kv_lora = _count(text, "q_lora_rank"), _count(text, "kv_lora_rank")
    rope, nope, vdim = (
        _count(text, "qk_rope_head_dim"),
        _count(text, "qk_nope_head_dim", 128),
        _count(text, "v_head_dim", 128),
    )
    qk = nope + rope
    q = (hidden * q_lora + q_lora * heads * qk) if q_lora else hidden * heads * qk
    return q + hidden * (kv_lora + rope) + kv_lora * heads * (nope + vdim) + heads * vdim * hidden


def _embeddings(text: Mapping[str, object], *, vocab: int, hidden: int) -> int:
    """Input embeddings, the LM head unless tied, and the final norm."""
    embed = vocab * hidden
    return embed + (0 if text.get("tie_word_embeddings") else embed) + hidden


def _nemotron_h_parameters(
    text: Mapping[str, object],
    *,
    hidden: int,
    layers: int,
    vocab: int,
    inter: int,
    attn: int,
    mixer: int,
    kinds: tuple[LayerKind, ...],
) -> tuple[int, int]:
    """Nemotron-H: every layer is one block: M (Mamba2), * (attention), - (MLP, relu2, no gate), E
    (MoE)."""
    experts = _count(text, "n_routed_experts")
    moe_inter = _count(text, "moe_intermediate_size") or inter
    shared = _count(text, "moe_shared_expert_intermediate_size")
    pattern = text.get("hybrid_override_pattern")
    chars = str(pattern) if isinstance(pattern, str) and len(pattern) >= layers else None
    total = expert_params = 0
    for i, kind in enumerate(kinds):
        if kind == LayerKind.MAMBA:
            total += mixer
        elif kind != LayerKind.NONE:
            total += attn
        elif chars is not None and chars[i] == "E" or chars is None and experts:
            routed = experts * 2 * hidden * moe_inter
            expert_params += routed
            total += routed + 2 * hidden * shared + hidden * experts
        else:
            total += 2 * hidden * inter
        total += hidden
    return total + _embeddings(text, vocab=vocab, hidden=hidden), expert_params


def _moe_layer_test(text: Mapping[str, object], experts: int) -> Callable[[int], bool]:
    """Which layers carry experts: after the first dense ones, every ``step``-th, not in
    ``mlp_only_layers`` (Jamba: ``i % expert_layer_period == expert_layer_offset``)."""
    dense_first = _count(text, "first_k_dense_replace")
    mlp_only_raw = text.get("mlp_only_layers") or []
    if not isinstance(mlp_only_raw, (list, tuple)):
        raise _bad("mlp_only_layers", mlp_only_raw, "must be a list")
    # A set: a hostile list of 10^5 entries must not be scanned once per layer.
    mlp_only = {i for i in mlp_only_raw if isinstance(i, int) and not isinstance(i, bool)}
    step = _count(text, "interleave_moe_layer_step") or _count(text, "decoder_sparse_step") or 1
    if text.get("expert_layer_period"):
        period, offset = _count(text, "expert_layer_period"), _count(text, "expert_layer_offset")
        return lambda i: experts > 0 and i % period == offset
    return lambda i: experts > 0 and i >= dense_first and i not in mlp_only and (i + 1) % step == 0


def _count_parameters(
    text: Mapping[str, object],
    *,
    hidden: int,
    heads: int,
    kv_heads: int,
    head: int,
    layers: int,
    vocab: int,
    inter: int,
    mla: bool,
    kinds: tuple[LayerKind, ...] = (),
    mamba: MambaConfig | None = None,
) -> tuple[int, int]:
    """Parameters counted from the config (used when the catalog has no exact figure), and the
    experts' share."""
    attn = _attention_parameters(
        text, hidden=hidden, heads=heads, kv_heads=kv_heads, head=head, mla=mla
    )
    mixer = _mixer_parameters(mamba, hidden) if mamba is not None else 0
    if str(text.get("model_type")) == "nemotron_h" and kinds:
        return _nemotron_h_parameters(
            text,
            hidden=hidden,
            layers=layers,
            vocab=vocab,
            inter=inter,
            attn=attn,
            mixer=mixer,
            kinds=kinds,
        )
    experts = (
        _count(text, "num_experts")
        or _count(text, "num_local_experts")
        or _count(text, "n_routed_experts")
    )
    moe_inter = _count(text, "moe_intermediate_size") or inter
    shared = _count(text, "n_shared_experts")
    row = families.row_of(str(text.get("model_type") or ""))
    if row.shared_experts and experts:
        shared = (
            shared or row.shared_experts
        )  # llama4.py Llama4MoE: one shared expert per MoE layer
    shared_inter = _count(text, "shared_expert_intermediate_size")
    is_moe_layer = _moe_layer_test(text, experts)
    routed = experts * 3 * hidden * moe_inter
    moe_mlp = (
        routed
        + hidden * experts
        + shared * 3 * hidden * moe_inter
        + (3 * hidden * shared_inter if shared_inter else 0)
    )
    # Gemma 4 MoE (vllm/model_executor/models/gemma4.py Gemma4DecoderLayer, main 017e9f44): every
    # layer keeps its dense Gemma4MLP (intermediate_size) and adds the MoE block beside it when
    # enable_moe_block is set
    if experts and (
        text.get("enable_moe_block") is True or text.get("use_second_mlp_block") is True
    ):
        moe_mlp += 3 * hidden * inter
    expert_params = total = 0
    for i in range(layers):
        moe = is_moe_layer(i)
        expert_params += routed if moe else 0
        mlp = moe_mlp if moe else 3 * hidden * inter
        total += (mixer if kinds and kinds[i] == LayerKind.MAMBA else attn) + mlp + 2 * hidden
    return total + _embeddings(text, vocab=vocab, hidden=hidden), expert_params


def _vision_spec(config: Mapping[str, object], vision: Mapping[str, object]) -> VisionSpec | None:
    """The tower facts of a multimodal config: its ``vision_config``, else the wrapper's copied
    shape.

    A wrapper whose tower is not known here (LFM2-VL, EXAONE 4.5) keeps its family with width 0, so
    the budget can say that the encoder profiling run is not estimated for it.
    """
    wrapper = config.get("wrapper_model_type")
    family = str(wrapper or (config.get("model_type") if vision else "") or "")[:64]
    if not family:
        return None
    if not vision:
        tower = families.tower_of(family)
        vision = tower.copied_tower if tower else {}

    def n(key: str, default: int = 0) -> int:
        value = vision.get(key)
        return (
            int(value)
            if isinstance(value, (int, float))
            and not isinstance(value, bool)
            and 0 < value <= MAX_DIM
            else default
        )

    deepstack = vision.get("deepstack_visual_indexes")
    return VisionSpec(
        # Qwen2-VL's vision_config names the ViT width embed_dim and the merger's output hidden_size
        family=family,
        hidden_size=n("embed_dim") or n("hidden_size"),
        intermediate_size=n("intermediate_size") or n("embed_dim") * n("mlp_ratio"),
        gated_mlp=vision.get("hidden_act") == "silu" or vision.get("model_type") == "pixtral",
        patch_size=n("patch_size", 14),
        temporal_patch_size=n("temporal_patch_size", 1),
        spatial_merge_size=n("spatial_merge_size", 1),
        image_size=n("image_size"),
        in_channels=n("in_channels", n("num_channels", 3)),
        deepstack_layers=len(deepstack) if isinstance(deepstack, list) else 0,
        depth=n("depth") or n("num_hidden_layers"),
        num_position_embeddings=n("num_position_embeddings"),
    )


def _mrope_max_position(text: Mapping[str, object], config: Mapping[str, object]) -> int:
    """vllm/model_executor/layers/rotary_embedding/__init__.py ``get_rope``: MRoPE when the rope
    scaling has ``mrope_section``; its cache is sized from ``max_position_embeddings``."""
    rope = text.get("rope_scaling") or text.get("rope_parameters")
    family = str(config.get("wrapper_model_type") or config.get("model_type") or "")
    tower = families.tower_of(family)
    if not (
        (isinstance(rope, Mapping) and "mrope_section" in rope)
        or (tower is not None and tower.mrope)
    ):
        return 0
    value = _opt_number(text, "max_position_embeddings", maximum=MAX_LEN)
    return int(value) if value is not None and value >= 1 else 0


def _count_vision_parameters(vision: Mapping[str, object], text_hidden: int) -> int:
    """A ViT tower plus its projector, counted from the vision config's shapes.

    Per block: q, k, v, o (4·h² + 4·h with biases), the MLP (2·h·i + h + i; 3·h·i for a
    gated SiLU MLP as Pixtral's) and two norms (4·h). Then the patch embedding
    (channels × temporal × patch² × h), position embeddings, and the projector into the
    text model: a patch merger per merge/deep-stack output (Qwen-VL: (h·m²)² + h·m²·out)
    or one linear layer (vision width or adapter output × text hidden size).
    """

    def n(key: str, default: int = 0) -> int:
        value = vision.get(key)
        return (
            int(value)
            if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0
            else default
        )

    h = n("hidden_size") or n("embed_dim") or n("width")
    layers = n("num_hidden_layers") or n("depth") or n("num_layers")
    if not h or not layers:
        return 0
    i = n("intermediate_size") or 4 * h
    gated = vision.get("hidden_act") == "silu" or vision.get("model_type") == "pixtral"
    mlp = (3 if gated else 2) * h * i + h + i
    per_layer = 4 * h * h + 4 * h + mlp + 4 * h
    patch = n("patch_size", 14)
    embed = n("in_channels", n("num_channels", 3)) * n("temporal_patch_size", 1) * patch * patch * h
    positions = n("num_position_embeddings") or (n("image_size") // patch) ** 2
    merge = n("spatial_merge_size")
    out = n("out_hidden_size") or text_hidden
    if merge and n("out_hidden_size"):
        merged = h * merge * merge
        deepstack = vision.get("deepstack_visual_indexes")
        mergers = 1 + (len(deepstack) if isinstance(deepstack, list) else 0)
        projector = mergers * (merged * merged + merged + merged * out + out + 2 * h)
    elif merge:
        projector = (
            h * merge * merge * h + h * text_hidden + text_hidden * text_hidden
        )  # Pixtral merger + 2-layer MLP
    else:
        projector = (n("vision_output_dim") or h) * text_hidden
    return layers * per_layer + embed + positions * h + projector


_INDEXER_QUANT_BLOCK = 128  # vllm/model_executor/models/deepseek_v2.py Indexer: quant_block_size


def _indexer_head_size(text: Mapping[str, object], mla: bool) -> int:
    """DeepSeek-V3.2 (``index_topk`` in the config): the indexer K cache's bytes per token and layer
    (``DeepseekV32IndexerCache``: ``head_dim = index_head_dim + index_head_dim // 128 * 4``,
    uint8)."""
    if not mla or text.get("index_topk") is None:
        return 0
    dim = _int(text, "index_head_dim", required=True, minimum=1) or 0
    return dim + dim // _INDEXER_QUANT_BLOCK * 4


def _v4_expert_quant(text: Mapping[str, object], mt: str, quant: WeightQuant) -> WeightQuant:
    """DeepSeek-V4 checkpoints keep fp8 for the dense layers and ``expert_dtype`` (fp4) for the
    experts (vllm/models/deepseek_v4/quant_config.py). transformers drops ``expert_dtype`` from
    catalog entries, so an fp8 deepseek_v4 config without it is taken as the published checkpoint
    (fp4 experts)."""
    if (
        (families.row_of(mt).kind == families.Kind.DEEPSEEK_V4)
        and quant.method == "fp8"
        and text.get("expert_dtype", "fp4") == "fp4"
    ):
        return replace(quant, experts_fp4=True)
    return quant


# transformers 5 DeepseekV4Config: compress ratio 0 / 4 / 128 <-> layer type
_V4_LAYER_TYPE_RATIO = {
    "sliding_attention": 0,
    "compressed_sparse_attention": 4,
    "heavily_compressed_attention": 128,
}


def _compress_ratios(text: Mapping[str, object], mt: str, num_layers: int) -> tuple[int, ...]:
    """DeepSeek-V4 (vllm/models/deepseek_v4/attention.py): layer ``i`` uses ``max(1,
    compress_ratios[i])``; entries past ``num_hidden_layers`` belong to MTP/draft layers, which the
    calculator does not plan."""
    if families.row_of(mt).kind != families.Kind.DEEPSEEK_V4:
        return ()
    raw = text.get("compress_ratios")
    types = text.get("layer_types")
    if raw is None and isinstance(types, (list, tuple)):
        # transformers' DeepseekV4Config turns compress_ratios into layer_types (catalog entries).
        raw = [_V4_LAYER_TYPE_RATIO.get(str(t), -1) for t in types[:num_layers]]
    if not isinstance(raw, (list, tuple)) or len(raw) < num_layers:
        raise _bad(
            "compress_ratios",
            shorten(raw),
            f"must list at least num_hidden_layers ({num_layers}) ratios",
        )
    ratios = []
    for r in raw[:num_layers]:
        if not isinstance(r, int) or isinstance(r, bool) or max(1, r) not in (1, 4, 128):
            raise _bad("compress_ratios", shorten(r), "entries must be 0, 1, 4 or 128")
        ratios.append(max(1, r))
    return tuple(ratios)


def _kv_shared_layers(text: Mapping[str, object], num_layers: int) -> tuple[int, ...]:
    """The last ``num_kv_shared_layers`` layers (vllm/model_executor/models/gemma3n.py since #20134,
    gemma4.py): ``first = num_hidden_layers - num_kv_shared_layers``; every layer from ``first`` on
    reuses the KV cache of an earlier layer of its type, so vLLM's ``get_kv_cache_spec`` gives it no
    spec."""
    shared = _int(text, "num_kv_shared_layers", maximum=num_layers - 1) or 0
    return tuple(range(num_layers - shared, num_layers))


def _sparse_attention(
    text: Mapping[str, object], mt: str, layers: int, *, mla: bool, v4: bool
) -> SparseAttention | None:
    """DeepSeek's indexer and V4's compressed layers; None for a model with neither."""
    sparse = SparseAttention(
        indexer_head_size=_indexer_head_size(text, mla or v4),
        compress_ratios=_compress_ratios(text, mt, layers),
        index_head_dim=(_int(text, "index_head_dim") or 0) if v4 else 0,
    )
    return sparse if sparse != SparseAttention() else None


def _per_layer(
    text: Mapping[str, object],
    mt: str,
    layers: int,
    kinds: tuple[LayerKind, ...],
    head: int,
    kv_heads: int,
) -> PerLayer | None:
    """Gemma 3n / 4's shared-KV and wider layers; None when every layer has the model-level
    attention."""
    per_layer = PerLayer(
        kv_shared=_kv_shared_layers(text, layers),
        attention=_gemma4_layer_attention(text, mt, kinds, head, kv_heads),
    )
    return per_layer if per_layer != PerLayer() else None


def _gemma4_layer_attention(
    text: Mapping[str, object], mt: str, kinds: tuple[LayerKind, ...], head: int, kv_heads: int
) -> tuple[tuple[int, int, int], ...]:
    """Gemma 4's wider full-attention layers, as vLLM builds each layer's attention.

    vllm/transformers_utils/configs/gemma4.py ``gemma4_layer_config`` (main 2f41c894; the same rule
    sat in vllm/model_executor/models/gemma4.py ``Gemma4DecoderLayer`` since Gemma 4 support,
    #38826, first in 0.19.0): a ``full_attention`` layer uses ``head_dim = global_head_dim or
    head_dim`` and, when ``attention_k_eq_v``, ``num_key_value_heads = num_global_key_value_heads or
    num_key_value_heads``; sliding layers keep ``head_dim`` and ``num_key_value_heads``. K and V are
    both cached (``head_size_v`` = ``head_size``). transformers ≥ 5.15 writes the result as
    ``per_layer_config`` (layer index → its ``head_dim`` / ``num_key_value_heads``), which vLLM then
    reads as is.
    """
    if not families.row_of(mt).per_layer_attention:
        return ()
    per_layer = text.get("per_layer_config")
    wanted: dict[int, tuple[int, int]] = {}
    if isinstance(per_layer, Mapping):
        for key, layer_cfg in per_layer.items():
            if (
                not isinstance(layer_cfg, Mapping)
                or not str(key).isdigit()
                or int(str(key)) >= len(kinds)
            ):
                raise _bad(
                    "per_layer_config", shorten(str(key)), "must map layer indices to layer configs"
                )
            wanted[int(str(key))] = (
                _int(layer_cfg, "head_dim", minimum=1) or head,
                _int(layer_cfg, "num_key_value_heads", minimum=1) or kv_heads,
            )
    else:
        full_head = _int(text, "global_head_dim", minimum=1) or head
        full_kv = (
            (_int(text, "num_global_key_value_heads", minimum=1) or kv_heads)
            if text.get("attention_k_eq_v")
            else kv_heads
        )
        wanted = {i: (full_head, full_kv) for i, kind in enumerate(kinds) if kind == LayerKind.FULL}
    return tuple((i, h, kv) for i, (h, kv) in sorted(wanted.items()) if (h, kv) != (head, kv_heads))


def _model_type(text: Mapping[str, object], config: Mapping[str, object]) -> str:
    """The model type, refusing the Mamba / linear-attention layouts the core does not plan."""
    mt_raw = text.get("model_type") or config.get("model_type") or ""
    if not isinstance(mt_raw, str):
        raise _bad("model_type", mt_raw, "must be a string")
    mt = mt_raw[:128]
    if not mt:
        raise CalcError(
            "config_missing_key",
            "config.json has no 'model_type'",
            field="config",
            key="model_type",
        )
    archs = _architectures(config, text)
    if (
        mt in ENCODER_MODEL_TYPES
        or config.get("is_encoder_decoder") is True
        or text.get("is_encoder_decoder") is True
        or any(_ENCODER_ARCH.search(a) for a in archs)
    ):
        named = next((a for a in archs if _ENCODER_ARCH.search(a)), mt)
        raise CalcError(
            "encoder_model",
            f"{shorten(named)}: encoder-only and encoder-decoder models size their cache "
            "by other rules in vLLM, which the calculator does not model",
            field="config",
            model_type=shorten(named),
        )
    hybrid_row = families.row_of(mt).kind == families.Kind.HYBRID
    if mt in UNSUPPORTED_HYBRID_TYPES or (
        not hybrid_row
        and (
            "layers_block_type" in text
            or "hybrid_override_pattern" in text
            or any(_STATE_ARCH.search(a) for a in archs)
        )
    ):
        raise CalcError(
            "unsupported_architecture",
            f"{mt}: this model's Mamba/linear-attention state layout is not covered by the "
            f"calculator yet; give --available-kv-gib and read vLLM's own log instead",
            field="config",
            model_type=mt,
        )
    return mt


def _architectures(config: Mapping[str, object], text: Mapping[str, object]) -> tuple[str, ...]:
    """The ``architectures`` the config declares (the wrapper's, else the text part's), each cut to
    128 characters."""
    archs = config.get("architectures") or text.get("architectures")
    if not isinstance(archs, (list, tuple)):
        return ()
    return tuple(a[:128] for a in archs[:16] if isinstance(a, str))


def _known_stems() -> frozenset[str]:
    """The family table's model types as architecture stems (letters and digits, lower case), read
    at each call so that a new row is known at once."""
    return frozenset(
        "".join(ch for ch in mt.lower() if ch.isalnum()) for mt in families.FAMILIES
    ) | {
        "qwen35",
        "qwen35moe",
        "lfm2vl",
        "deepseekv32",
        "nemotronh",
        "kimilinear",
        "granitemoehybrid",
        "exaone45",
    }


def _known_architecture(arch: str) -> bool:
    """``LlamaForCausalLM``, ``GPTNeoXForCausalLM``, ``Qwen3VLForConditionalGeneration``: a decoder
    class whose name, before its head, spells a known model_type (letters and digits only,
    case-insensitively)."""
    for suffix in _DECODER_ARCH_SUFFIXES:
        if arch.endswith(suffix):
            stem = "".join(ch for ch in arch[: -len(suffix)].lower() if ch.isalnum())
            return stem in _known_stems()
    return False


def _assumed(
    text: Mapping[str, object], config: Mapping[str, object], mt: str, quant: WeightQuant
) -> tuple[tuple[str, str], ...]:
    """What the config names that the core does not know: planned as ``ASSUMED_DECODER``, said so in
    the result."""
    out: list[tuple[str, str]] = []
    if families.family(mt) is None:
        out.append(("model_type", mt))
    wrapper = config.get("model_type")
    if isinstance(wrapper, str) and wrapper != mt and families.family(wrapper) is None:
        out.append(("model_type", wrapper[:128]))
    out += [
        ("architectures", a) for a in _architectures(config, text) if not _known_architecture(a)
    ]
    if quant.method not in _KNOWN_QUANT_METHODS:
        out.append(("quant_method", quant.method))
    return tuple(dict.fromkeys(out))


def _dimensions(text: Mapping[str, object]) -> tuple[int, int, int]:
    """(layers, attention heads, hidden size), under each family's key names."""
    layers = (
        _int(text, "num_hidden_layers", maximum=_MAX_LAYERS)
        or _int(text, "n_layer", maximum=_MAX_LAYERS)
        or _int(text, "num_layers", maximum=_MAX_LAYERS)
    )
    if not layers:
        raise CalcError(
            "config_missing_key",
            "config.json has no 'num_hidden_layers'",
            field="config",
            key="num_hidden_layers",
        )
    heads = _int(text, "num_attention_heads", minimum=1) or _int(text, "n_head", minimum=1)
    if not heads:
        raise CalcError(
            "config_missing_key",
            "config.json has no 'num_attention_heads'",
            field="config",
            key="num_attention_heads",
        )
    hidden = (
        _int(text, "hidden_size", minimum=1)
        or _int(text, "n_embd", minimum=1)
        or _int(text, "d_model", minimum=1)
    )
    if not hidden:
        raise CalcError(
            "config_missing_key",
            "config.json has no 'hidden_size'",
            field="config",
            key="hidden_size",
        )
    return layers, heads, hidden


def _vision_parts(
    config: Mapping[str, object], hidden: int, *, exact: tuple[bool, bool]
) -> tuple[int, int, VisionSpec | None]:
    """The vision tower's parameters to add to a counted total (0 when an exact total already
    includes it), the tower's parameters inside the total the weights come from
    (``ModelSpec.tower_parameters``: an exact parameter total or checkpoint size holds it) and its
    shape. ``exact``: (parameter total, checkpoint bytes)."""
    exact_total, exact_bytes = exact
    vision_cfg = config.get("vision_config")
    if not isinstance(vision_cfg, Mapping):
        wrapper_tower = families.tower_of(str(config.get("wrapper_model_type") or ""))
        vision_cfg = wrapper_tower.vision_config if wrapper_tower else {}
    spec = _vision_spec(config, vision_cfg)
    # a catalog Qwen wrapper: its tower copied into the family table (Tower.copied_tower); vLLM
    # builds it by default (qwen3_vl.py Qwen3_VisionTransformer, also in qwen3_5.py; v0.25.1), so it
    # counts also where only the text model's parameters are known: the budget must not over-promise
    # (CONTRIBUTING.md §2.9). Not for Tower.total_pending.
    row = families.tower_of(spec.family if spec is not None else "")
    pending = row is not None and row.total_pending
    tower = _count_vision_parameters(
        vision_cfg
        or (_qwen_tower_config(spec, hidden) if not pending or exact_total or exact_bytes else {}),
        hidden,
    )
    return (0 if exact_total else tower), tower, spec


def _qwen_tower_config(spec: VisionSpec | None, hidden: int) -> dict[str, object]:
    """A copied Qwen tower (``Tower.copied_tower``) as a ``vision_config`` to count: its merger
    projects to the text width (``out_hidden_size`` equals the text ``hidden_size`` in every copied
    Qwen VL config); {} when none."""
    row = families.tower_of(spec.family) if spec is not None else None
    tower = row.copied_tower if row is not None else {}
    return {**tower, "out_hidden_size": hidden} if tower.get("depth") else {}


def _rotary_head_size(text: Mapping[str, object], head: int, mla: bool) -> int:
    """What the rope rotates: the head, or MLA's ``qk_rope_head_dim`` only
    (models/deepseek_v2.py)."""
    return (_int(text, "qk_rope_head_dim") or 0) if mla else head


@dataclass(frozen=True, kw_only=True)
class _AttentionLayout:
    """What the family's layer reader found: the attention shape and each layer's kind."""

    mla: bool
    """Multi-head latent attention (``kv_lora_rank`` set on an MLA family)."""
    head: int
    """Head size (MLA: ``kv_lora_rank + qk_rope_head_dim``)."""
    kv_heads: int
    """Total KV heads (MLA: 1)."""
    kinds: tuple[LayerKind, ...]
    """Each layer's kind."""
    window: int | None
    """The sliding window of the sliding layers."""
    chunk: int | None
    """The chunk of chunked-attention layers."""
    mamba: MambaConfig | None
    """The state layers' facts of a hybrid."""
    older_windows: OlderWindows | None
    """Qwen2's partial window, or a window no layer uses, which older releases apply differently."""


def _attention_layout(
    text: Mapping[str, object],
    mt: str,
    row: families.Family,
    *,
    layers: int,
    heads: int,
    hidden: int,
) -> _AttentionLayout:
    """The layers as the family's row says to read them: MLA, a hybrid's reader, DeepSeek-V4, or
    attention."""
    mla = row.mla and text.get("kv_lora_rank") is not None
    window: int | None = None
    chunk: int | None = None
    if mla:
        kv_lora = _int(text, "kv_lora_rank", required=True, minimum=1)
        rope = _int(text, "qk_rope_head_dim", required=True, minimum=0)
        head, kv_heads = kv_lora + rope, 1  # type: ignore[operator]
        kinds: tuple[LayerKind, ...] = (LayerKind.MLA,) * layers
    else:
        head, kv_heads = _head_size(text, hidden, heads), _grouped_kv_heads(text, heads)
    hybrid = _hybrid_layers(text, mt, layers, hidden) if row.kind == families.Kind.HYBRID else None
    mamba: MambaConfig | None = None
    v4 = row.kind == families.Kind.DEEPSEEK_V4
    if hybrid is not None:
        kinds, mamba = hybrid
    elif v4:
        # Every layer keeps a sliding-window MLA cache, plus compressed ones (deepseek_v4.py).
        kinds, window = (
            (LayerKind.MLA,) * layers,
            _int(text, "sliding_window", required=True, minimum=1),
        )
    elif not mla:
        kinds, window, chunk = _layer_kinds(text, layers)
    older_windows = (
        _window_facts(text, mt, layers, kinds) if hybrid is None and not mla and not v4 else None
    )
    return _AttentionLayout(
        mla=mla,
        head=head,
        kv_heads=kv_heads,
        kinds=kinds,
        window=window,
        chunk=chunk,
        mamba=mamba,
        older_windows=older_windows,
    )


def normalize_config(
    config: Mapping[str, object],
    *,
    model_id: str = "custom",
    num_parameters: int | None = None,
    checkpoint_bytes: int | None = None,
) -> ModelSpec:
    """Validate a ``config.json`` dict and resolve it the way vLLM does."""
    if not isinstance(config, Mapping):
        raise CalcError("config_not_object", "config.json must be a JSON object", field="config")
    text, top_dtype = _text_config(config)
    mt = _model_type(text, config)
    text = with_class_defaults(text, mt)
    layers, heads, hidden = _dimensions(text)
    vocab = _int(text, "vocab_size", minimum=1) or 32000
    inter = _int(text, "intermediate_size") or _int(text, "ffn_dim") or 4 * hidden
    row = families.row_of(mt)
    a = _attention_layout(text, mt, row, layers=layers, heads=heads, hidden=hidden)
    mla, head, kv_heads, kinds, window, chunk, mamba = (
        a.mla,
        a.head,
        a.kv_heads,
        a.kinds,
        a.window,
        a.chunk,
        a.mamba,
    )
    v4 = row.kind == families.Kind.DEEPSEEK_V4
    counted, expert_params = _count_parameters(
        text,
        hidden=hidden,
        heads=heads,
        kv_heads=kv_heads,
        head=head,
        layers=layers,
        vocab=vocab,
        inter=inter,
        mla=mla,
        kinds=kinds,
        mamba=mamba,
    )
    unsplit = 0
    if row.params == families.ParamLayout.OPT:  # no gate, biases, LayerNorms, learned positions
        counted = opt_parameters(text, hidden=hidden, layers=layers, vocab=vocab, ffn=inter)
        unsplit = opt_unsplit_parameters(text, hidden=hidden, layers=layers)
    experts_per_tok = _int(text, "num_experts_per_tok") or 0
    vision, tower, vision_spec = _vision_parts(
        config, hidden, exact=(bool(num_parameters), bool(checkpoint_bytes))
    )
    return _with_mtp(
        text,
        mt,
        ModelSpec(
            model_id=model_id,
            model_type=mt,
            num_layers=layers,
            layer_kinds=kinds,
            head_size=head,
            head_size_v=head,
            total_num_kv_heads=kv_heads,
            num_attention_heads=heads,
            hidden_size=hidden,
            intermediate_size=inter,
            vocab_size=vocab,
            sliding_window=window,
            attention_chunk_size=chunk,
            dtype=_dtype(text, top_dtype),
            derived_max_model_len=_derived_max_len(text, mt),
            num_parameters=num_parameters if num_parameters else counted,
            num_expert_parameters=expert_params,
            quant=_v4_expert_quant(text, mt, _quant(text)),
            is_moe=expert_params > 0,
            num_experts_per_tok=experts_per_tok,
            mamba=mamba,
            vision_parameters=vision,
            vision=vision_spec,
            checkpoint_bytes=checkpoint_bytes,
            sparse=_sparse_attention(text, mt, layers, mla=mla, v4=v4),
            per_layer=_per_layer(text, mt, layers, kinds, head, kv_heads),
            moe_intermediate_size=(_int(text, "moe_intermediate_size") or 0)
            if expert_params
            else 0,
            num_experts=(
                _count(text, "num_experts")
                or _count(text, "num_local_experts")
                or _count(text, "n_routed_experts")
            )
            if expert_params
            else 0,
            tie_word_embeddings=bool(
                text.get("tie_word_embeddings") or config.get("tie_word_embeddings")
            ),
            rotary=Rotary(
                caches=rope_caches(text, mt, _rotary_head_size(text, head, mla)),
                mrope_max_position=_mrope_max_position(text, config),
            ),
            older_windows=a.older_windows,
            unsplit_parameters=unsplit,
            tower_parameters=tower,
            assumed=_assumed(text, config, mt, _quant(text)),
        ),
    )


def _with_mtp(text: Mapping[str, object], mt: str, spec: ModelSpec) -> ModelSpec:
    """The spec with its MTP layers (count and one layer's parameters) read from the config."""
    layers = _num_mtp_layers(text, mt)
    if not layers:
        return spec
    params = _mtp_layer_parameters(
        text,
        hidden=spec.hidden_size,
        heads=spec.num_attention_heads,
        kv_heads=spec.total_num_kv_heads,
        head=spec.head_size,
        vocab=spec.vocab_size,
        inter=spec.intermediate_size,
        mla=spec.is_mla,
    )
    return replace(spec, num_mtp_layers=layers, mtp_layer_parameters=params)


MAX_MTP_LAYERS = (
    64  # a config's MTP layer count (each becomes a KV layer); real checkpoints have 1 to 3
)


def _num_mtp_layers(text: Mapping[str, object], mt: str) -> int:
    """vllm/config/speculative.py ``hf_config_override``: Qwen3.5/3.6 read
    ``mtp_num_hidden_layers``, the others ``num_nextn_predict_layers`` (Qwen3-Next's config names it
    so too)."""
    row = families.row_of(mt)
    value = _int(text, row.mtp_layers_key, maximum=MAX_MTP_LAYERS)
    if value is None:
        return (
            row.mtp_layers_default
        )  # qwen3_next_mtp.py: getattr(config, "num_nextn_predict_layers", 1)
    return value or 0


def _mtp_layer_parameters(
    text: Mapping[str, object],
    *,
    hidden: int,
    heads: int,
    kv_heads: int,
    head: int,
    vocab: int,
    inter: int,
    mla: bool,
) -> int:
    """One MTP layer (vllm/model_executor/models/deepseek_mtp.py
    ``DeepSeekMultiTokenPredictorLayer``: enorm, hnorm, eh_proj and a decoder layer; qwen3_5_mtp.py:
    ``fc`` and the same norms): a single decoder layer counted as the model's MoE layers are (no
    leading dense layers), without embeddings."""
    one = {
        **text,
        "first_k_dense_replace": 0,
        "mlp_only_layers": [],
        "interleave_moe_layer_step": 1,
        "decoder_sparse_step": 1,
    }
    one.pop("expert_layer_period", None)
    layer, _ = _count_parameters(
        one,
        hidden=hidden,
        heads=heads,
        kv_heads=kv_heads,
        head=head,
        layers=1,
        vocab=vocab,
        inter=inter,
        mla=mla,
    )
    return layer - _embeddings(one, vocab=vocab, hidden=hidden) + 2 * hidden * hidden + 2 * hidden
