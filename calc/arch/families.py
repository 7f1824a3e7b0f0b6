"""The family table: one row per ``model_type`` the core plans by name, like vLLM's model registry.

Each row names the vLLM model file it mirrors (``vllm/model_executor/models/<file>``, as
``vllm/model_executor/models/registry.py`` maps the architecture) and holds what is special about
the family: how its layers are read, its MLP, its rope, q/k norms, the sliding-window pattern a
config without ``layer_types`` implies, its MTP module, its LoRA layout, the class defaults a raw
``config.json`` may omit, the release that removed it and, for a vision-language wrapper, its tower.

Every other module asks this table (``family(model_type)``) instead of testing a model type by name,
so a new family whose layer kinds are already modelled is one row here (CONTRIBUTING.md §3).
A ``model_type`` with no row is planned as a standard decoder, with a note saying so.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

__all__ = [
    "Kind",
    "KvHeads",
    "ParamLayout",
    "Mlp",
    "Rope",
    "LayerPattern",
    "LoraLayout",
    "Tower",
    "Family",
    "FAMILIES",
    "family",
    "row_of",
    "STANDARD_DECODER",
    "with_class_defaults",
    "tower_of",
    "tower_skip_pr",
    "EVERY_RELEASE",
]


class Kind(StrEnum):
    """How the core reads the family's layers."""

    DECODER = "decoder"
    """Attention layers only (full, sliding, chunked), read from the config."""
    HYBRID = "hybrid"
    """Mamba / linear-attention layers beside attention, planned with ``MambaSpec`` layers."""
    DEEPSEEK_V4 = "deepseek_v4"
    """A sliding-window MLA cache on every layer plus compressed ones (kv/deepseek_v4.py)."""


class KvHeads(StrEnum):
    """Where the config keeps the KV head count (vllm
    ``ModelArchConfigConvertorBase.get_total_num_kv_heads``)."""

    CONFIG = "config"
    """``num_key_value_heads`` and its aliases."""
    FALCON = "falcon"
    """One KV head when ``multi_query`` is set without ``new_decoder_architecture``."""
    ATTN_CONFIG = "attn_config"
    """``attn_config.kv_n_heads`` when given (mpt.py, dbrx.py)."""


class ParamLayout(StrEnum):
    """How the parameter count is read from the config."""

    STANDARD = "standard"
    """Gated or plain MLP decoder layers, embeddings, norms."""
    OPT = "opt"
    """OPT's biases, LayerNorms and learned positions (arch/opt_layout.py)."""


class Mlp(StrEnum):
    GATED = "gated"
    """gate_up_proj → act → down_proj (Llama and most decoders)."""
    PLAIN = "plain"
    """fc1 → activation → fc2, no gate (phi.py, gpt2.py, opt.py, starcoder2.py, falcon.py, …)."""


class Rope(StrEnum):
    STANDARD = "standard"
    """One cos/sin cache in the model dtype."""
    NONE = "none"
    """Learned or ALiBi positions: no rope cache."""
    FP32 = "fp32"
    """The cos/sin cache kept in float32 (gpt_oss.py)."""
    TWO = "two"
    """A scaled global cache plus an unscaled local one (gemma3.py: ``rotary_emb_local``); the rope
    scaling does not lengthen the derived ``max_model_len``."""


class LayerPattern(StrEnum):
    """Which layers slide when the config gives no ``layer_types`` (transformers derives them)."""

    NONE = "none"
    """Every layer full unless ``layer_types`` says otherwise."""
    QWEN2 = "qwen2"
    """Qwen2Model's ``max_window_layers`` rule (arch/qwen2_window.py)."""
    ALTERNATE = "alternate"
    """Even layers slide when a window is set (gemma2.py, gpt_oss.py)."""
    EVERY_NTH_FULL = "every_nth_full"
    """Every ``sliding_window_pattern``-th layer is full, the others slide (gemma3.py,
    commandr.py)."""
    CHUNKED = "chunked"
    """Llama 4's chunked local attention on the layers that have rope (llama4.py)."""


class LoraLayout(StrEnum):
    """How vLLM's LoRA wraps the family's layers (vllm/lora/, the model class's
    ``packed_modules_mapping``)."""

    NOT_READ = "not_read"
    """Not modelled: ``--enable-lora`` is refused for the family."""
    PACKED = "packed"
    """Llama's packed layout (qkv_proj, gate_up_proj); embeddings not wrapped."""
    PACKED_EMBEDDINGS = "packed_embeddings"
    """Packed, and ``embedding_modules`` lists embed_tokens / lm_head."""
    PACKED_EMBEDDINGS_FROM_RULE = "packed_embeddings_from_rule"
    """Packed; embeddings wrapped from the release ``RuleSet.qwen3_lora_embeddings`` (#29816)."""


EVERY_RELEASE = ""
"""``Tower.skip_pr`` of a family whose every release skips an unused tower."""


@dataclass(frozen=True, kw_only=True)
class Tower:
    """A vision-language wrapper's encoder: what vLLM profiles and loads beside the text model."""

    modalities: tuple[str, ...]
    """What the encoder takes (the processor's ``get_supported_mm_limits``)."""
    skip_pr: str | None = None
    """The vLLM PR from whose first release the tower is not built when every modality is limited to
    0 (``EVERY_RELEASE``: always; None: never)."""
    vision_config: Mapping[str, object] = field(default_factory=dict)
    """The wrapper's ``vision_config`` when the catalog's stored config keeps only the text part,
    copied from the family's published checkpoint config; read as if the config gave it."""
    copied_tower: Mapping[str, object] = field(default_factory=dict)
    """A Qwen tower copied from the published configs: profiled, and counted through its merger into
    the text width (arch/model.py ``_qwen_tower_config``) where only the text parameters are
    known."""
    mrope: bool = False
    """The text model is built with MRoPE (its published text config carries ``mrope_section``)."""
    qwen3_tower: bool = False
    """Qwen3-VL's tower: per-head qkv gathered across TP, deep-stack mergers replicated
    (qwen3_vl.py)."""
    total_pending: bool = False
    """The catalog's parameter total leaves the tower out until the video encoder estimate is
    fixed."""


@dataclass(frozen=True, kw_only=True)
class Family:
    """One row of the family table."""

    vllm_file: str
    """The module under vllm/model_executor/models/ the family's architecture maps to."""
    kind: Kind = Kind.DECODER
    """How its layers are read."""
    mla: bool = False
    """DeepSeek's multi-head latent attention when ``kv_lora_rank`` is set
    (vllm/transformers_utils/model_arch_config_convertor.py ``is_deepseek_mla``)."""
    mlp: Mlp = Mlp.GATED
    """Its MLP's shape (the allocator's slack and the parameter count read it)."""
    rope: Rope = Rope.STANDARD
    """Its rotary embedding cache."""
    qk_norm: bool = False
    """Per-head ``q_norm`` / ``k_norm`` (``RMSNorm(head_dim)``), replicated on every TP rank."""
    layer_pattern: LayerPattern = LayerPattern.NONE
    """The sliding layers a config without ``layer_types`` implies."""
    sliding_pattern: int = 0
    """``sliding_window_pattern``'s class default for ``EVERY_NTH_FULL``."""
    hybrid_reader: str = ""
    """For ``Kind.HYBRID``: the name of the reader of its Mamba/attention layer list
    (arch/model.py)."""
    kv_heads: KvHeads = KvHeads.CONFIG
    """Where its KV head count is read."""
    window_needs_flag: bool = False
    """``sliding_window`` counts only with ``use_sliding_window`` (Qwen MoE configs carry both)."""
    params: ParamLayout = ParamLayout.STANDARD
    """How its parameters are counted."""
    shared_experts: int = 0
    """Shared experts per MoE layer when the config does not say (llama4.py ``Llama4MoE``: one)."""
    per_layer_attention: bool = False
    """Head size and KV heads per layer type (gemma4.py: ``per_layer_config`` /
    ``global_head_dim``)."""
    ssm_dtype_key: str = ""
    """The config key the SSM state dtype is read from (Qwen3.5's ``mamba_ssm_dtype``); "" for
    none."""
    mamba_prefix_caching: bool = False
    """``SupportsMambaPrefixCaching``: ``--mamba-cache-mode all`` sticks (else falls back to
    align)."""
    attention_layers_key: str = ""
    """The key listing a hybrid's attention layers when it has no per-layer list (Bamba's
    ``attn_layer_indices``)."""
    conv_dim_is_hidden: bool = False
    """The short-conv state width is ``hidden_size`` (lfm2_moe.py), not ``conv_dim``."""
    mtp_layers_key: str = "num_nextn_predict_layers"
    """The config key with the MTP layer count (vllm/config/speculative.py
    ``hf_config_override``)."""
    mtp_layers_default: int = 0
    """MTP layers when that key is missing (qwen3_next_mtp.py: ``getattr(...,
    "num_nextn_predict_layers", 1)``)."""
    mtp: bool = False
    """Its MTP module is read (each MTP layer = one decoder layer of the target; ``*_mtp.py``)."""
    mtp_default_tokens: bool = False
    """``num_speculative_tokens`` may be left out: vLLM defaults it to the MTP layer count
    (qwen3_next)."""
    nemotron_ssm_dtype: bool = False
    """``NemotronHForCausalLMConfig.verify_and_update_config`` sets the SSM cache dtype (and logs
    it)."""
    lora: LoraLayout = LoraLayout.NOT_READ
    """Its LoRA layout."""
    class_defaults: Mapping[str, object] = field(default_factory=dict)
    """transformers config-class defaults a raw ``config.json`` omits and vLLM still reads."""
    removed: tuple[str, str] | None = None
    """(last release that serves it, the PR that removed it)."""
    tower: Tower | None = None
    """The vision tower of a multimodal wrapper."""


# transformers/models/gemma3/configuration_gemma3.py ``Gemma3TextConfig`` (transformers 5.24.0):
# google/gemma-3-4b-it and gemma-3-12b-it ship text configs without head counts, head_dim and
# max_position_embeddings.
_GEMMA3_TEXT: Mapping[str, object] = {
    "vocab_size": 262_208,
    "hidden_size": 2304,
    "intermediate_size": 9216,
    "num_hidden_layers": 26,
    "num_attention_heads": 8,
    "num_key_value_heads": 4,
    "head_dim": 256,
    "max_position_embeddings": 131_072,
    "sliding_window": 4096,
    "tie_word_embeddings": True,
}
# transformers/models/opt/configuration_opt.py ``OPTConfig``: facebook/opt-* configs omit
# tie_word_embeddings, enable_bias and layer_norm_elementwise_affine (arch/opt_layout.py reads
# them).
_OPT: Mapping[str, object] = {
    "vocab_size": 50_272,
    "hidden_size": 768,
    "num_hidden_layers": 12,
    "ffn_dim": 3072,
    "max_position_embeddings": 2048,
    "num_attention_heads": 12,
    "do_layer_norm_before": True,
    "_remove_final_layer_norm": False,
    "enable_bias": True,
    "layer_norm_elementwise_affine": True,
    "tie_word_embeddings": True,
}

# Towers of catalog wrappers whose stored config keeps only the text part (scripts/build_catalog.py
# writes ``wrapper_model_type``), from each family's published vision_config: Gemma 3 =
# SigLIP-So400m (1152/4304, 27 layers, patch 14, 896 px), Mistral 3.1 = Pixtral ViT (1024/4096, 24
# layers, gated MLP, patch 14, 1540 px, spatial merge 2), Llama 4 = 1408/5632, 34 layers, patch 14,
# 336 px (adapter 4096). Qwen2.5-VL-7B-Instruct: 1280/3420, SiLU gate, patch 14 × 2 frames, merge 2,
# depth 32 (scripts/model_configs/Qwen/Qwen2.5-VL-7B-Instruct/config.json); Qwen3-VL 8B/30B-A3B
# (tests/data/configs): 1152/4304, GELU, patch 16 × 2 frames, merge 2, deep-stack layers [8, 16,
# 24]; Qwen3.5/3.6 (Qwen3.5-9B/27B/122B-A10B/397B-A17B, Qwen3.6-27B/35B-A3B and the NVFP4 copies):
# the same tower without deep-stack outputs, depth 27, 2304 position embeddings.
_QWEN3_TOWER: Mapping[str, object] = {
    "hidden_size": 1152,
    "intermediate_size": 4304,
    "patch_size": 16,
    "temporal_patch_size": 2,
    "spatial_merge_size": 2,
    "depth": 27,
    "num_position_embeddings": 2304,
}
_TOWER_SHAPES: Mapping[str, Mapping[str, object]] = {
    "gemma3": {
        "hidden_size": 1152,
        "intermediate_size": 4304,
        "num_hidden_layers": 27,
        "patch_size": 14,
        "image_size": 896,
    },
    "mistral3": {
        "hidden_size": 1024,
        "intermediate_size": 4096,
        "num_hidden_layers": 24,
        "patch_size": 14,
        "image_size": 1540,
        "hidden_act": "silu",
        "spatial_merge_size": 2,
        "model_type": "pixtral",
    },
    "llama4": {
        "hidden_size": 1408,
        "intermediate_size": 5632,
        "num_hidden_layers": 34,
        "patch_size": 14,
        "image_size": 336,
        "vision_output_dim": 4096,
    },
    "qwen2_5_vl": {
        "hidden_size": 1280,
        "intermediate_size": 3420,
        "hidden_act": "silu",
        "patch_size": 14,
        "temporal_patch_size": 2,
        "spatial_merge_size": 2,
        "depth": 32,
    },
    "qwen3_vl": {**_QWEN3_TOWER, "deepstack_visual_indexes": [8, 16, 24]},
    "qwen3_5": _QWEN3_TOWER,
}
# vllm/transformers_utils/configs/qwen3_5.py: the linear-attention defaults of Qwen3.5/3.6's config
# class (Qwen3-Next's config requires the keys).
_QWEN3_5_LINEAR: Mapping[str, object] = {
    "linear_conv_kernel_dim": 4,
    "linear_num_key_heads": 16,
    "linear_num_value_heads": 32,
    "linear_key_head_dim": 128,
    "linear_value_head_dim": 128,
}
_IMAGE = ("image",)
_IMAGE_VIDEO = ("image", "video")


def _rows(types: str, **facts: object) -> dict[str, Family]:
    """One row per model type of a space-separated list, all with the same facts."""
    row = Family(**facts)  # type: ignore[arg-type]
    return {t: row for t in types.split()}


# Hybrid readers (arch/model.py ``_HYBRID_READERS``), by the vLLM file whose layer list they read.
_GDN, _NEMO, _GRANITE, _JAMBA, _LFM2, _KIMI, _MINIMAX = (
    "gated_delta_net",
    "nemotron_h",
    "granite_bamba",
    "jamba",
    "lfm2",
    "kimi_linear",
    "minimax",
)

FAMILIES: Mapping[str, Family] = {
    # -- decoders
    # --------------------------------------------------------------------------------------
    **_rows("llama", vllm_file="llama.py", lora=LoraLayout.PACKED_EMBEDDINGS),
    **_rows("mistral", vllm_file="llama.py"),
    **_rows("ministral3", vllm_file="mistral.py"),
    **_rows("mixtral", vllm_file="mixtral.py"),
    **_rows(
        "qwen2", vllm_file="qwen2.py", layer_pattern=LayerPattern.QWEN2, lora=LoraLayout.PACKED
    ),
    **_rows(
        "qwen3",
        vllm_file="qwen3.py",
        qk_norm=True,
        layer_pattern=LayerPattern.QWEN2,
        lora=LoraLayout.PACKED_EMBEDDINGS_FROM_RULE,
    ),
    **_rows("qwen2_moe", vllm_file="qwen2_moe.py", window_needs_flag=True),
    **_rows("qwen3_moe", vllm_file="qwen3_moe.py", qk_norm=True, window_needs_flag=True),
    **_rows(
        "gemma2",
        vllm_file="gemma2.py",
        layer_pattern=LayerPattern.ALTERNATE,
        lora=LoraLayout.PACKED,
    ),
    "gemma3": Family(
        vllm_file="gemma3_mm.py",
        rope=Rope.TWO,
        layer_pattern=LayerPattern.EVERY_NTH_FULL,
        sliding_pattern=6,
        class_defaults=_GEMMA3_TEXT,
        tower=Tower(modalities=_IMAGE, skip_pr="32641", vision_config=_TOWER_SHAPES["gemma3"]),
    ),
    "gemma3_text": Family(
        vllm_file="gemma3.py",
        rope=Rope.TWO,
        layer_pattern=LayerPattern.EVERY_NTH_FULL,
        sliding_pattern=6,
        class_defaults=_GEMMA3_TEXT,
        lora=LoraLayout.PACKED,
    ),
    **_rows("gemma3n gemma3n_text", vllm_file="gemma3n.py", rope=Rope.TWO),
    **_rows("gemma4 gemma4_text", vllm_file="gemma4.py", per_layer_attention=True),
    **_rows(
        "cohere2",
        vllm_file="commandr.py",
        layer_pattern=LayerPattern.EVERY_NTH_FULL,
        sliding_pattern=4,
    ),
    "llama4": Family(
        vllm_file="mllama4.py",
        layer_pattern=LayerPattern.CHUNKED,
        shared_experts=1,
        tower=Tower(modalities=_IMAGE, skip_pr="22299", vision_config=_TOWER_SHAPES["llama4"]),
    ),
    "llama4_text": Family(
        vllm_file="llama4.py", layer_pattern=LayerPattern.CHUNKED, shared_experts=1
    ),
    **_rows(
        "gpt_oss", vllm_file="gpt_oss.py", rope=Rope.FP32, layer_pattern=LayerPattern.ALTERNATE
    ),
    **_rows("phi", vllm_file="phi.py", mlp=Mlp.PLAIN),
    **_rows("phi3", vllm_file="phi3.py"),
    **_rows(
        "opt",
        vllm_file="opt.py",
        mlp=Mlp.PLAIN,
        rope=Rope.NONE,
        class_defaults=_OPT,
        params=ParamLayout.OPT,
    ),
    **_rows("olmo3", vllm_file="olmo2.py"),
    **_rows("exaone4 exaone4_5 exaone4_5_text", vllm_file="exaone4.py"),
    **_rows("glm4_moe", vllm_file="glm4_moe.py", mtp=True),
    **_rows("minimax_m2", vllm_file="minimax_m2.py"),
    **_rows("deepseek_v4", vllm_file="deepseek_v4.py", kind=Kind.DEEPSEEK_V4),
    **_rows("granite", vllm_file="granite.py", lora=LoraLayout.PACKED_EMBEDDINGS),
    **_rows(
        "falcon RefinedWeb RefinedWebModel",
        vllm_file="falcon.py",
        mlp=Mlp.PLAIN,
        kv_heads=KvHeads.FALCON,
    ),
    **_rows("mpt", vllm_file="mpt.py", mlp=Mlp.PLAIN, rope=Rope.NONE, kv_heads=KvHeads.ATTN_CONFIG),
    **_rows("dbrx", vllm_file="dbrx.py", kv_heads=KvHeads.ATTN_CONFIG),
    **_rows("gpt2", vllm_file="gpt2.py", mlp=Mlp.PLAIN, rope=Rope.NONE),
    **_rows("gpt_bigcode", vllm_file="gpt_bigcode.py", mlp=Mlp.PLAIN, rope=Rope.NONE),
    **_rows("starcoder2", vllm_file="starcoder2.py", mlp=Mlp.PLAIN),
    **_rows("gpt_neox", vllm_file="gpt_neox.py", mlp=Mlp.PLAIN),
    **_rows("bloom", vllm_file="bloom.py", mlp=Mlp.PLAIN, rope=Rope.NONE),
    # -- vision-language wrappers whose text part is one of the above
    # -------------------------------------
    "mistral3": Family(
        vllm_file="mistral3.py",
        tower=Tower(modalities=_IMAGE, skip_pr="22299", vision_config=_TOWER_SHAPES["mistral3"]),
    ),
    **_rows("pixtral", vllm_file="pixtral.py"),
    **_rows("llava", vllm_file="llava.py"),
    "qwen2_vl": Family(
        vllm_file="qwen2_vl.py", tower=Tower(modalities=_IMAGE_VIDEO, skip_pr="22299", mrope=True)
    ),
    "qwen2_5_vl": Family(
        vllm_file="qwen2_5_vl.py",
        tower=Tower(
            modalities=_IMAGE_VIDEO,
            skip_pr="22299",
            copied_tower=_TOWER_SHAPES["qwen2_5_vl"],
            mrope=True,
            total_pending=True,
        ),
    ),
    **_rows(
        "qwen3_vl",
        vllm_file="qwen3_vl.py",
        qk_norm=True,
        tower=Tower(
            modalities=_IMAGE_VIDEO,
            skip_pr="26000",
            copied_tower=_TOWER_SHAPES["qwen3_vl"],
            mrope=True,
            qwen3_tower=True,
        ),
    ),
    **_rows(
        "qwen3_vl_moe",
        vllm_file="qwen3_vl_moe.py",
        qk_norm=True,
        tower=Tower(
            modalities=_IMAGE_VIDEO,
            skip_pr="26000",
            copied_tower=_TOWER_SHAPES["qwen3_vl"],
            mrope=True,
            qwen3_tower=True,
        ),
    ),
    **_rows("qwen3_vl_text", vllm_file="qwen3_vl.py", qk_norm=True),
    **_rows("qwen3_vl_moe_text", vllm_file="qwen3_vl_moe.py", qk_norm=True),
    "lfm2_vl": Family(vllm_file="lfm2_vl.py", tower=Tower(modalities=_IMAGE, skip_pr="32650")),
    # -- multi-head latent attention
    # -------------------------------------------------------------------
    **_rows("deepseek_v2 kimi_k2 glm_moe_dsa", vllm_file="deepseek_v2.py", mla=True),
    **_rows("deepseek_v3 deepseek_v32", vllm_file="deepseek_v2.py", mla=True, mtp=True),
    **_rows("deepseek_mtp", vllm_file="deepseek_mtp.py", mla=True),
    **_rows("kimi_vl", vllm_file="kimi_vl.py", mla=True),
    **_rows("longcat_flash", vllm_file="longcat_flash.py", mla=True),
    **_rows("pangu_ultra_moe", vllm_file="openpangu.py", mla=True),
    **_rows("pangu_ultra_moe_mtp", vllm_file="openpangu_mtp.py", mla=True),
    **_rows("glm4_moe_lite", vllm_file="glm4_moe_lite.py", mla=True, mtp=True),
    **_rows("mistral_large_3", vllm_file="mistral_large_3.py", mla=True),
    # -- Mamba / linear-attention hybrids
    # ---------------------------------------------------------------
    "qwen3_next": Family(
        vllm_file="qwen3_next.py",
        kind=Kind.HYBRID,
        hybrid_reader=_GDN,
        qk_norm=True,
        mtp=True,
        mtp_default_tokens=True,
        mtp_layers_default=1,
    ),
    **_rows(
        "qwen3_5 qwen3_5_moe",
        vllm_file="qwen3_5.py",
        kind=Kind.HYBRID,
        hybrid_reader=_GDN,
        mtp=True,
        qk_norm=True,
        class_defaults=_QWEN3_5_LINEAR,
        ssm_dtype_key="mamba_ssm_dtype",
        mtp_layers_key="mtp_num_hidden_layers",
        tower=Tower(
            modalities=_IMAGE_VIDEO, skip_pr=EVERY_RELEASE, copied_tower=_TOWER_SHAPES["qwen3_5"]
        ),
    ),
    **_rows(
        "qwen3_5_text qwen3_5_moe_text",
        vllm_file="qwen3_5.py",
        kind=Kind.HYBRID,
        hybrid_reader=_GDN,
        mtp=True,
        qk_norm=True,
        class_defaults=_QWEN3_5_LINEAR,
        ssm_dtype_key="mamba_ssm_dtype",
        mtp_layers_key="mtp_num_hidden_layers",
    ),
    **_rows(
        "nemotron_h",
        vllm_file="nemotron_h.py",
        kind=Kind.HYBRID,
        hybrid_reader=_NEMO,
        nemotron_ssm_dtype=True,
    ),
    **_rows(
        "granitemoehybrid",
        vllm_file="granitemoehybrid.py",
        kind=Kind.HYBRID,
        hybrid_reader=_GRANITE,
        mamba_prefix_caching=True,
    ),
    **_rows(
        "bamba",
        vllm_file="bamba.py",
        kind=Kind.HYBRID,
        hybrid_reader=_GRANITE,
        removed=("0.23.0", "45990"),
        attention_layers_key="attn_layer_indices",
    ),
    **_rows("jamba", vllm_file="jamba.py", kind=Kind.HYBRID, hybrid_reader=_JAMBA, rope=Rope.NONE),
    **_rows("lfm2", vllm_file="lfm2.py", kind=Kind.HYBRID, hybrid_reader=_LFM2),
    **_rows(
        "lfm2_moe",
        vllm_file="lfm2_moe.py",
        kind=Kind.HYBRID,
        hybrid_reader=_LFM2,
        conv_dim_is_hidden=True,
    ),
    **_rows(
        "kimi_linear", vllm_file="kimi_linear.py", kind=Kind.HYBRID, hybrid_reader=_KIMI, mla=True
    ),
    **_rows(
        "minimax minimax_text_01 minimax_m1",
        vllm_file="minimax_text_01.py",
        kind=Kind.HYBRID,
        hybrid_reader=_MINIMAX,
        removed=("0.23.0", "45993"),
    ),
}
"""model_type → its row."""


STANDARD_DECODER = Family(vllm_file="llama.py")
"""What a model type with no row is planned as: full attention, gated MLP, rope (Llama's layout)."""


def row_of(model_type: str) -> Family:
    """The row of ``model_type``, or ``STANDARD_DECODER`` for one the table does not know."""
    return FAMILIES.get(model_type, STANDARD_DECODER)


def family(model_type: str) -> Family | None:
    """The row of ``model_type``; None for a type the table does not know (a standard decoder is
    assumed)."""
    return FAMILIES.get(model_type)


def with_class_defaults(text: Mapping[str, object], model_type: str) -> dict[str, object]:
    """``text`` with the class defaults of ``model_type`` for the keys it does not give (a text
    config without its own ``model_type`` takes the wrapper's)."""
    out = dict(text)
    row = FAMILIES.get(model_type)
    for key, value in (row.class_defaults if row else {}).items():
        out.setdefault(key, value)
    return out


def tower_of(wrapper: str) -> Tower | None:
    """The tower row of a vision-language wrapper type."""
    row = FAMILIES.get(wrapper)
    return row.tower if row else None


def tower_skip_pr(wrapper: str) -> str | None:
    """The PR from whose first release vLLM skips the wrapper's unused tower (``EVERY_RELEASE``:
    always)."""
    tower = tower_of(wrapper)
    return tower.skip_pr if tower else None
