"""The quantized ``--kv-cache-dtype`` values vLLM added from 0.20 on: which releases take them, the
bytes one KV head of one token costs in the page (scales and packing included), and the GPUs whose
backend refuses them.

Read in vLLM's source: the v0.20.0 … v0.25.1 tags (a public fork carrying upstream's tags) and the
release wheels of 0.26.0 … 0.33.0 on PyPI (no later tag was found in any mirror):

* ``nvfp4`` (vllm/config/cache.py ``CacheDType`` from 0.20.0): packed fp4 data plus one fp8 scale
  per 16 elements, ``nvfp4_kv_cache_full_dim(d) = d // 2 + d // 16`` bytes for each of K and V
  (vllm/utils/torch_utils.py; kv_cache_interface.py ``real_page_size_bytes`` up to 0.27,
  ``FlashInferBackend.customize_spec`` from 0.28). Only FlashInfer takes it: 0.20.x raises
  ``NotImplementedError("nvfp4 KV cache is not yet supported")`` (v0.20.0 flashinfer.py); up to 0.31
  its ``supports_kv_cache_dtype`` wants compute capability 10.x (TRT-LLM kernels, v0.23.0 … 0.31.0);
  from 0.32.0 8.x, 9.x and 12.x run it through FA2 too (``_nvfp4_kv_on_fa2``), except at head size
  64.
* ``int8_per_token_head``, ``fp8_per_token_head`` (0.20.0, #38378) and ``int4_per_token_head``
  (0.25.0): Triton attention only. One byte an element (int4: two a byte, ``d // 2``) plus one fp32
  scale for each of K and V of every token and head: 0.20–0.27 budget the scale tensors into
  ``AttentionSpec.page_size_bytes`` ("the memory is carved from the raw KV cache allocation so it
  must be budgeted here"), from 0.28.0 ``TritonAttentionBackend.customize_spec`` packs them inline;
  the same bytes either way.
* ``nvfp4_4over6`` (0.28.0): the nvfp4 page (``get_kv_quant_mode``: every ``nvfp4*`` but
  ``nvfp4_ds_mla`` is NVFP4), on compute capability 10.x only in every release (the FA2 path of
  0.32+ takes plain ``nvfp4`` only: "The slot-mapping writer has no scale search").
* ``turboquant_*`` (0.20.0): vllm/model_executor/layers/quantization/turboquant/config.py (the
  same at the v0.20.0 … v0.25.1 tags) packs one head of one token as ``[key | value]``: keys in
  fp8 (``k8v4``: one byte an element) or as Lloyd-Max indices of ``key_quant_bits`` plus an fp16
  norm (``ceil(d × bits / 8) + 2``), values as ``ceil(d × value_quant_bits / 8)`` plus an fp16
  scale and zero (``+ 4``), the sum rounded up to even (``slot_size_aligned``, the
  ``tq_slot_size`` of kv_cache_interface.py ``TQFullAttentionSpec``): ``turboquant_slot_bytes``.
  The plan is not modelled: vllm/engine/arg_utils.py keeps the first and last two layers of a
  dense model in the model dtype (``get_boundary_skip_layers``) and vllm/platforms/interface.py
  raises the block size so the quantized page covers theirs, a per-layer mix of pages the planner
  does not build: refused with that reason. ``nvfp4_ds_mla`` (0.30.0, sparse MLA),
  ``ultraquant_4bit`` (0.32.0) and ``octave_*`` (0.33.0, ROCm): accepted names, refused as not
  modelled.
"""

from __future__ import annotations

from ..errors import CalcError
from ..versions import RuleSet

__all__ = [
    "QUANTIZED_KV_DTYPES",
    "NOT_MODELLED_KV_DTYPES",
    "content_bytes",
    "check_kv_dtype",
    "dated_here",
    "turboquant_slot_bytes",
]

QUANTIZED_KV_DTYPES = (
    "nvfp4",
    "int8_per_token_head",
    "fp8_per_token_head",
    "int4_per_token_head",
    "nvfp4_4over6",
)
"""Modelled: one byte per stored element (uint8 / int8, vllm/utils/torch_utils.py
STR_DTYPE_TO_TORCH_DTYPE)."""
NOT_MODELLED_KV_DTYPES = (
    "turboquant_k8v4",
    "turboquant_4bit_nc",
    "turboquant_k3v4_nc",
    "turboquant_3bit_nc",
    "nvfp4_ds_mla",
    "ultraquant_4bit",
    "octave_k3v4",
    "octave_k3v3",
    "octave_k3v3_compact",
)

_FIRST_RELEASE_KEY = {
    "nvfp4": "kv_dtype_nvfp4",
    "int8_per_token_head": "38378",
    "fp8_per_token_head": "38378",
    "int4_per_token_head": "kv_dtype_int4_per_token_head",
    **{name: "kv_dtype_turboquant" for name in NOT_MODELLED_KV_DTYPES[:4]},
    "nvfp4_4over6": "kv_dtype_nvfp4_4over6",
    "nvfp4_ds_mla": "kv_dtype_nvfp4_ds_mla",
    "ultraquant_4bit": "kv_dtype_ultraquant",
    **{name: "kv_dtype_octave" for name in NOT_MODELLED_KV_DTYPES[6:]},
}
_SCALE_BYTES = (
    4  # one fp32 scale per token, head and K/V side (kv_cache_interface.py, triton_attn.py)
)
# TurboQuantConfig's TQ_PRESETS: (key_quant_bits, value_quant_bits); 8 key bits = fp8 keys
_TURBOQUANT_BITS = {
    "turboquant_k8v4": (8, 4),
    "turboquant_4bit_nc": (4, 4),
    "turboquant_k3v4_nc": (3, 4),
    "turboquant_3bit_nc": (3, 3),
}


def content_bytes(kv_cache_dtype: str, *, head_size: int, head_size_v: int) -> int | None:
    """Bytes one KV head of one token takes in the page, K and V together; None for the plain
    dtypes."""
    if kv_cache_dtype in ("nvfp4", "nvfp4_4over6"):
        return (head_size // 2 + head_size // 16) + (head_size_v // 2 + head_size_v // 16)
    if kv_cache_dtype in ("int8_per_token_head", "fp8_per_token_head", "int4_per_token_head"):
        data = head_size + head_size_v
        if kv_cache_dtype == "int4_per_token_head":
            data = head_size // 2 + head_size_v // 2
        return data + 2 * _SCALE_BYTES
    return None


def turboquant_slot_bytes(kv_cache_dtype: str, *, head_size: int) -> int:
    """Bytes one KV head of one token takes in a TurboQuant layer's page, K and V together
    (module docstring)."""
    key_bits, value_bits = _TURBOQUANT_BITS[kv_cache_dtype]
    key = head_size if key_bits == 8 else -(-head_size * key_bits // 8) + 2
    value = -(-head_size * value_bits // 8) + 4
    slot = key + value
    return slot + slot % 2


def _refuse(code: str, message: str, kv_cache_dtype: str, **params: object) -> CalcError:
    return CalcError(code, message, field="kv_cache_dtype", value=kv_cache_dtype, **params)


def dated_here(kv_cache_dtype: str) -> bool:
    """Whether ``check_kv_dtype`` knows the release that first takes this dtype (its refusal names
    it)."""
    return kv_cache_dtype in _FIRST_RELEASE_KEY


def check_kv_dtype(
    kv_cache_dtype: str,
    *,
    rules: RuleSet,
    compute_capability: tuple[int, int] | None,
    rocm: bool,
    head_size: int,
    is_mla: bool,
    has_mamba: bool,
) -> None:
    """Refuse what vLLM refuses (its release has no such choice, or no backend takes it on this GPU)
    and what the calculator does not model, each with the reason."""
    key = _FIRST_RELEASE_KEY.get(kv_cache_dtype)
    if key is None:
        return
    if not rules.has_release_of(key):
        raise _refuse(
            "kv_dtype_release",
            f"--kv-cache-dtype {kv_cache_dtype} needs vLLM {rules.first_release_label(key)} or "
            f"newer (rules: {rules.description}): vLLM's argument parser refuses it as an invalid "
            "choice",
            kv_cache_dtype,
            limit=rules.first_release_label(key),
        )
    if kv_cache_dtype in NOT_MODELLED_KV_DTYPES[4:]:
        raise _refuse(
            "kv_dtype_not_modelled",
            f"--kv-cache-dtype {kv_cache_dtype} is not modelled yet",
            kv_cache_dtype,
        )
    if kv_cache_dtype in NOT_MODELLED_KV_DTYPES:
        slot = turboquant_slot_bytes(kv_cache_dtype, head_size=head_size)
        raise _refuse(
            "kv_dtype_turboquant",
            f"--kv-cache-dtype {kv_cache_dtype} is not modelled "
            f"yet: its quantized layers take {slot} B per token and KV head, but vLLM "
            "keeps the first and last two layers unquantized, a per-layer mix of pages "
            "the calculator does not build",
            kv_cache_dtype,
            key=str(slot),
        )
    if is_mla or has_mamba:
        raise _refuse(
            "kv_dtype_layout",
            f"--kv-cache-dtype {kv_cache_dtype} is modelled for attention "
            "models with K and V heads only, not for MLA or Mamba hybrids",
            kv_cache_dtype,
        )
    if kv_cache_dtype.startswith("nvfp4"):
        if rocm:
            raise _refuse(
                "kv_dtype_rocm",
                f"No valid attention backend found for --kv-cache-dtype {kv_cache_dtype} on ROCm: "
                "FlashInfer, the one backend that takes it, is CUDA only",
                kv_cache_dtype,
            )
        _check_nvfp4_gpu(rules, compute_capability, head_size, kv_cache_dtype)


def _check_nvfp4_gpu(rules: RuleSet, cc: tuple[int, int] | None, head_size: int, name: str) -> None:
    """FlashInfer, the one backend that takes ``nvfp4`` and ``nvfp4_4over6``, by release (module
    docstring)."""
    if not rules.nvfp4_implemented:
        raise _refuse(
            "kv_dtype_not_implemented",
            "vLLM 0.20.x raises NotImplementedError('nvfp4 KV cache is "
            "not yet supported') when it builds the FlashInfer metadata: use 0.21.0 or newer",
            name,
        )
    if cc is None:
        return  # a custom memory size: no GPU to check
    where = f"{cc[0]}.{cc[1]}"
    if rules.nvfp4_fa2 and name == "nvfp4":
        if not (8, 0) <= cc <= (12, 1):
            raise _refuse(
                "kv_dtype_gpu",
                f"No valid attention backend found for --kv-cache-dtype {name} on compute "
                f"capability {where}: FlashInfer, the one backend that takes it, runs on 8.0 to "
                f"12.1 (vllm/v1/attention/backends/flashinfer.py)",
                name,
                limit="8.0–12.1",
                key=where,
            )
        if cc[0] in (8, 9, 12) and head_size == 64:
            raise _refuse(
                "kv_dtype_head_size",
                f"No valid attention backend found for --kv-cache-dtype {name}: vLLM "
                "says 'fa2 prefill misreads an NVFP4 KV cache at head_size 64' (compute capability "
                f"{where}; 10.x runs it)",
                name,
                key=where,
            )
        return
    if cc[0] != 10:
        raise _refuse(
            "kv_dtype_gpu",
            f"No valid attention backend found for --kv-cache-dtype {name} on compute capability "
            f"{where}: in this release FlashInfer takes it on 10.x (B200, B300, GB200) only "
            f"(rules: {rules.description})",
            name,
            limit="10.x",
            key=where,
        )
