"""Real vLLM logs (tests/data/logs, sources in sources.json) recomputed by the core.

A log prints "Available KV cache memory" rounded to 0.01 GiB, so the true figure
lies within ±0.005 GiB of it. vLLM's arithmetic from there on is exact, so every
capacity figure the log printed ("GPU KV cache size" tokens, "# GPU blocks", the
"Maximum concurrency" and, in a start-up error, the estimated maximum length) must
lie between what the core prints at the two ends of that interval, and the GiB one
request needs (independent of the available memory) must round to the logged one.
The core's figures are read from its own vLLM lines (``Verdict.vllm_lines`` and
``error_text``) with the same log reader, so the comparison runs through vLLM's
printed format.

``RECOMPUTED`` pairs each log with a catalog model and the flags the log itself does
not print (taken from sources.json: the issue's command, the post's text). Where the
checkpoint is a variant of a catalog model (a quantized or renamed copy with the same
config keys) the pairing says so. A log that should match and does not is marked
``xfail(strict=True)`` with what differs; the check is never loosened.

Every other log is listed below with the reason it cannot be recomputed; all logs,
recomputed or not, are parsed in ``test_every_log_parses`` (each printed version
string parses; the diagnosis is the expected one).

| log | why it is not recomputed |
|---|---|
| llmd_v019_codellama_34b_h100_tp2_free_memory.log | model not in the catalog; stops before the KV cache is sized |
| v0_qwen15_7b_max_seq_len_7344.log | model not in the catalog (Qwen1.5-7B-Chat); no available figure |
| v08_worker_breakdown_rtx3090_util099.log | model not named; no capacity line |
| v1_tpu_models_s_max_seq_len_131072.log | model not named (TPU) |
| v08_models_s_max_seq_len_1m_quoted.log | model not named |
| v010_lmcache_models_s_max_seq_len_32768.log | model not named |
| v2026_recipes_model_s_max_seq_len_1m.log | model not named |
| v2026_xpu_kv_cache_memory_bytes_wrapped.log | model not named (XPU) |
| v2026_free_memory_pytorch_ci_l4.log | stops before the KV cache is sized; model not named |
| v2026_club3090_tp4_cudagraph_profiling.log | model not named; no capacity line |
| v0271_gpustack_tp2_cudagraph_profiling.log | model not named; no capacity line |
| v03_qanything_gpu_blocks_0_rtx3090.log | custom Qwen-7B (not in the catalog); vLLM 0.3, older than 0.6 |
| llmd_v019_granite31_8b_h100.log | model not in the catalog: no public copy of granite-3.1-8b-instruct's config.json was found (the log has its available figure, 58.66 GiB in use, and 24,027 blocks) |
| v0101_gpt_oss_120b_h100_negative_kv.log | no KV cache to size (available memory is negative) |
| v0130nv2601_qwen25_14b_fp8dyn_gb10_util015_fp8kv_32k_no_memory.log | no KV cache to size (available memory is negative: GB10 unified memory) |
| v0230_qwen25vl_7b_a100_util022_default_len_video_profile.log | no KV cache to size (available memory is negative: the encoder's video profile) |
| v011_gpt_oss_120b_h100_kv171.log | excerpt of the command and two log lines; no capacity line |
| v07_deepseek_r1_qwen14b_2x4090_tp2.log | model not in the catalog (DeepSeek-R1-Distill-Qwen-14B); V0 figures quoted in prose |
| v064_no_available_memory_docker_compose.log | model not in the catalog (Qwen2.5-0.5B-Instruct); no figures |
| v04_runtime_oom_qwen2_7b_2080ti.log | runtime OOM: no available figure and no capacity line (Qwen2-7B is in the catalog) |
| v080_sampler_oom_qwen25_32b_awq_tp2.log | no available KV figure and no capacity line (sampler OOM) |
| v07_v1_llama31_70b_w8a8_gpu_blocks.log | no available KV figure to start from |
| v065_memory_profiling_table_llama3_8b_h100.log | prints the available memory but no capacity line to compare |
| v1_capacity_two_lines_pr13596.log | model not named; no available figure |
| v2026_qwen38_27b_fp8_tp2_3090_concurrency.log | model not in the catalog (Qwen3.8-27B); no available figure |
| v2026_qwen38_flash_next_4090_tp4_pp2.log | model not in the catalog (Qwen3.8-Flash-Next); patched backport build |
| v2026_xpu_hybrid_attn_block_528_pad_076.log | model not named; no KV figures (block-size lines only) |
| v2026_qwen35_text_5090_1m_nvfp4kv_proto.log | nvfp4 KV cache prototype branch |
| v2026_qwen36_27b_fp8_2x3090_tp2_262k.log | speculative decoding (speculative config in the args) |
| v010_fp8_kv_max_model_len_error_25350.log | model not named |
| v2026_qwen36_27b_int4_2x3090_proxmox_262k.log | unknown flags: the args line is cut before kv_cache_dtype / speculative config |
| v2026_qwen38_27b_int4_2x5090_204k.log | model not in the catalog (Qwen3.8-27B) |
| v0201_qwen36_27b_int4_2x3090_mtp_fp8e5m2.log | MTP speculative decoding; no available figure |
| v2026_qwen36_27b_int4_2x3090_x4x4_p2poff.log | MTP speculative decoding; no available figure |
| v2026_qwen36_27b_int4_2x3090_x4x4_p2pon.log | MTP speculative decoding; no available figure |
| v0201rc1dev16_qwen36_27b_int4_2x3090_dflash_180k.log | DFlash speculative decoding |
| h20-v0100_qwen3_32b_8xh100_tp8_fp8kv_32k.log | eight workers' capacity lines from different available figures (55.62 to 56.08 GiB); the reader keeps the least available figure and the last capacity line, of another worker |
| v08_v1_deepseek_v3_mi308_multi_rank.log | no available figure (per-rank capacity lines only) |
| v0152rc1_qwen3_coder_30b_fp8_pp2_5070ti_5090d.log | not in the catalog (Qwen3-Coder-30B-A3B); uneven PP split |
| v2026_kaito_mistral_small4_119b_h100_1m_kv_too_small.log | model not in the catalog (Mistral-Small-4-119B) |
| v05_deepseek_coder_v2_8xh100_tp8_max_seq_len_2368.log | model not in the catalog (DeepSeek-Coder-V2); vLLM 0.5 |
| v2026_ci_qwen35_b200_mamba_blocks_below_max_num_seqs.log | one error line: no model, no memory figure |
| v0291rc1_minimax_m27_awq_2xspark_tp2_quoted_kv_too_small.log | model not in the catalog (MiniMax-M2.7 AWQ) |
| v2026_glm53_flash_2xrtxpro6000_tp2_dcp2_block7808.log | model not in the catalog (GLM-5.3-Flash); decode context parallel |
| v071_deepseek_coder_v2_lite_8xa100_40gb_tp8_v0.log | model not in the catalog (DeepSeek-Coder-V2-Lite) |
| v066post1_internvl3_78b_8xl40s_tp8_v0.log | model not in the catalog (InternVL3-78B) |
| v0110_qwen3vl_embedding_2b_t4_eager_pooling.log | model not in the catalog (Qwen3-VL-Embedding-2B) |
| v2026_gemma4_31b_nvfp4_5090_failed_to_load_model.log | one error line: the weights did not load; model not named |
| v2026_club3090_runtime_oom_output_handler.log | run-time OOM: no available figure; model not named |
| v2026_glm53_flash_2xspark_free_memory_util087.log | stops before the KV cache is sized; model not named |
| v0190_gpt_oss_20b_a100_131k_util065_page_excerpt.log | prints the available memory but no capacity line (page excerpt) |
| v07_llama31_8b_oci_a10_131k_kv_too_small.log | model not named (its geometry is inferred from the very figures to check) |
| v0130nv_nemotron3_nano_4b_fp8_gb10_util015_hybrid.log | model not in the catalog (Nemotron-3-Nano-4B) |
| v019x_gemma4_26b_a4b_a100_131k_eager_page_excerpt.log | no capacity line (the excerpt stops at "Available KV cache memory: 21.5 GiB"); gemma-4-26B-A4B not in the catalog: no public config.json copy with a citable source was found (the core plans Gemma 4 from a pasted config: tests/test_gemma4.py) |
| v2026_qwen38_27b_fp8_2x5090_147k_supermax.log | model not in the catalog (Qwen3.8-27B) |
| v2026_qwen38_27b_fp8_2x5090_65k_ultramax.log | model not in the catalog (Qwen3.8-27B) |
| v0201rc1dev16_qwen36_27b_int4_2x4090_dflash_180k.log | DFlash speculative decoding |
| v020x_qwen36_27b_autoround_2x3090_tp2_util088_262k.log | MTP speculative decoding (n=3) per its compose file |
| v02xx_qwen38_27b_fp8_2x5090_tp2_util092_breakdown.log | model not in the catalog (Qwen3.8-27B); no capacity line |
| v0251_laguna_s21_nvfp4_dflash_gb10_65k_util089.log | model not in the catalog (Laguna-S-2.1); DFlash speculative decoding |
| v0102_qwen2vl_2b_rtx4080_wsl_util08_4k.log | model not in the catalog (Qwen2-VL-2B) |
| v072_deepseek_coder_v2_lite_l40s_cpuoffload30_util045_100k_v0.log | not in the catalog; stops before KV sizing |
| v0111dev_opt27b_4xa30_tp4_util08_debug.log | model (OPT-2.7B) and GPU (A30) not in the catalog; kept for its DEBUG non-torch figure at TP 4 (tests/test_estimates.py) |
| v0xx_dev_mistral_small4_119b_awq_2xl40s_tp2_util082_32k_mla.log | not in the catalog (Mistral-Small-4); dev build |
| r19_v0271_qwen25_0p5b_4090wsl_util085_2k_nvcc_missing.log | model not in the catalog (Qwen2.5-0.5B-Instruct): no verbatim public copy of its config.json was found |
| r19_v0271_qwen25_0p5b_4090wsl_util085_2k_flashinfer_jit.log | model not in the catalog (Qwen2.5-0.5B-Instruct), as above |
| r19_v0280_qwen38_27b_w4a16_3090_fp8kv_align_131k.log | model not in the catalog (Qwen3.8-27B); no available figure |
| r19_v0271_qwen38_27b_nvfp4_gb10_fp8kv_917k_free_memory.log | stops at the free-memory check, before the KV cache is sized |
| r19_v0271_qwen38_27b_gb10_32k_block784_ninja_missing.log | model not in the catalog (Qwen3.8-27B); fails before the KV cache is sized |
| r19_v0291_gemma4_e2b_mi300x_32k.log | model not in the catalog (gemma-4-E2B-it); ROCm (MI300X) |
| r19_v0291rc1_qwen38_27b_fp8_gb10_hidden_state_block800.log | no KV figures (block-size lines only) |
| r19_v0290_mtp3_kv_cache_memory_bytes_98k_summary.log | model not named; MTP speculative decoding |
| r19_v0290_kv_cache_memory_bytes_200k_summary.log | model not named |
| r19_v03xx_gdn_hybrid_mtp3_5090_kv5gib_groups.log | model not named; MTP speculative decoding; version not printed |
| r19_v0281dev_opt125m_cpu_2k.log | CPU backend (128-token blocks, VLLM_CPU_KVCACHE_SPACE); facebook/opt-125m not in the catalog |
"""
from __future__ import annotations

import ast
import json
from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest

from kvcalc import plan
from kvcalc.deployment import Measured
from kvcalc.inputs import scenario_from_inputs
from kvcalc.logs.diagnose import diagnose, inputs_from_reading
from kvcalc.logs.log_capacity import FitStatus, fit_capacity
from kvcalc.logs.logparse import parse_log
from kvcalc.units import GiB
from kvcalc.verdict import Verdict
from kvcalc.versions import parse_version

LOGS = Path(__file__).parent / "data" / "logs"
_QWEN36_27B = Path(__file__).parent.parent / "scripts" / "model_configs" / "Qwen" / "Qwen3.6-27B" / "config.json"


def _config_with_log_overrides(name: str) -> str:
    """Qwen3.6-27B's public config.json with the ``hf_overrides`` the log's own args echo states (vLLM merges
    them into the config before sizing anything, vllm/config/model.py): the config that log ran."""
    line = next(x for x in (LOGS / name).read_text(encoding="utf-8").splitlines() if "non-default args" in x)
    overrides = ast.literal_eval(line[line.index("{"):])["hf_overrides"]
    config = json.loads(_QWEN36_27B.read_text(encoding="utf-8"))
    config["text_config"]["rope_parameters"].update(overrides["text_config"]["rope_parameters"])
    return json.dumps(config)


_QWEN35_27B_SSM = (
    "the vendored Qwen3.5-27B config.json (a tt-metal copy) has no mamba_ssm_dtype, so the SSM state is "
    "sized in bf16; the log's 784-token attention block is the fp32 state's page (48/4 heads x 128 x 128 "
    "x 4 B + 2,560 x 3 x 2 B = 801,792 B; cdiv(801,792, 16 x 1,024 B) x 16 = 784), which its Qwen3.5 "
    "siblings' configs declare; with --mamba-ssm-cache-dtype float32 the log is met to the block"
)
"""Why three Qwen3.5-27B logs miss: the vendored config, not the rule."""


@dataclass(frozen=True)
class Case:
    diagnosis: str
    """What the log reader must conclude (read off the log by hand)."""
    model: str | None = None
    """Catalog id paired with the log; None: the log names a catalog model itself."""
    inputs: dict[str, str] = field(default_factory=dict)
    """Flags the log does not print, from sources.json (they override nothing the log states)."""
    available_gib: float | None = None
    """Available KV memory when the log's own line is missing (worked out in the comment)."""
    xfail: str | None = None


RECOMPUTED: dict[str, Case] = {
    # -- vLLM 0.19.0 on H100 (llm-d-planner sweep): dense, TP 2, PP 2, fp8 KV, Gemma 3, gpt-oss --
    "llmd_v019_llama31_8b_h100_tp1.log": Case("started"),
    "llmd_v019_llama31_8b_h100_tp2.log": Case("started"),
    # The PP log was trimmed of stage 1's "Available KV cache memory" line; stage 1 is the limiting
    # one: requested 75.23 GiB − "Total non KV cache memory: 9.6GiB" = 65.63 GiB.
    "llmd_v019_llama31_8b_h100_pp2.log": Case("started", available_gib=65.63),
    "llmd_v019_llama31_8b_h100_len32k.log": Case("started"),
    "llmd_v019_gemma3_27b_h100.log": Case("started"),                 # 52 sliding + 10 full, 7 groups
    # 29 sliding (window 1024) + 5 full, 4 KV heads x head_dim 256 (Gemma3TextConfig default): 7 groups of 5
    # layers, 5 x 16 x 4 x 2 x 256 x 2 = 327,680 B per block; 62.51 ± 0.005 GiB → 204,816-204,849 blocks,
    # 16 x blocks // 7 groups = 468,144-468,224 tokens (logged 468,144; with head_dim 320 it would not match)
    "llmd_v019_gemma3_4b_h100.log": Case("started"),
    "llmd_v019_qwen25_7b_kvfp8_h100.log": Case("started"),            # fp8 KV cache
    "llmd_v019_qwen25_72b_h100_tp2.log": Case("started"),
    "llmd_v019_gpt_oss_20b_h100_tp2.log": Case("started"),            # sliding hybrid with TP 2
    "llmd_v019_gpt_oss_20b_h100_sampler_oom.log": Case("cuda_out_of_memory"),
    "llmd_v019_mistral_small_31_24b_h100.log": Case("started"),
    "llmd_v019_phi4_h100.log": Case("started"),
    # CodeLlama-7b-hf: 32 layers x 32 KV heads x 128, bf16 → 16 x 32 x 2 x 32 x 128 x 2 = 8,388,608 B per block;
    # 61.66 ± 0.005 GiB → 61.655 x 128 = 7,891.8 to 61.665 x 128 = 7,893.1 → 7,891-7,893 blocks → 126,256-126,288
    # tokens (logged 126,256 = 7,891 x 16); 7,891 x 16 / 8,192 = 15.41x (logged 15.41x)
    "llmd_v019_codellama_7b_h100.log": Case("started"),
    # DeepSeek-V2-Lite-Chat, MLA: 27 layers x (512 + 64) x 2 B = 31,104 B per token; 43.61 ± 0.005 GiB →
    # 46,820,512,235-46,831,249,653 B / 31,104 = 1,505,289-1,505,634 tokens, in 16-token blocks 1,505,280-1,505,632
    # (logged 1,505,552); 1,505,552 / 8,192 = 183.78x (logged)
    "llmd_v019_deepseek_v2_lite_h100.log": Case("started"),
    # gemma-2-2b-it: 13 sliding (4096) + 13 full layers, 4 KV heads x 256: 2 groups of 13 layers,
    # 13 x 16 x 4 x 2 x 256 x 2 = 851,968 B per block id; 66.47 ± 0.005 GiB → 83,766-83,778 ids,
    # 16 x ids // 2 = 670,128-670,224 tokens (logged 670,160)
    "llmd_v019_gemma2_2b_h100.log": Case("started"),
    # Qwen1.5-MoE-A2.7B (base) paired with the catalog's -Chat config: the KV cache reads 24 layers,
    # 16 KV heads x 128 only; 24 x 16 x 2 x 16 x 128 x 2 = 3,145,728 B per block; 45.83 ± 0.005 GiB →
    # 15,641-15,645 blocks → 250,256-250,320 tokens (logged 250,304); 250,304 / 8,192 = 30.55x (logged)
    "llmd_v019_qwen15_moe_a27b_h100.log": Case("started", model="Qwen/Qwen1.5-MoE-A2.7B-Chat"),
    # RedHatAI/Llama-3.3-70B-Instruct-fp8-dynamic: the meta-llama config with fp8 weights only
    "llmd_v019_llama33_70b_fp8_h100_tp2.log": Case("started", model="meta-llama/Llama-3.3-70B-Instruct"),
    # Mixtral-8x7B-Instruct-v0.1: same architecture keys as the catalog's base v0.1
    "llmd_v019_mixtral_8x7b_h100_tp2.log": Case("started", model="mistralai/Mixtral-8x7B-v0.1"),
    # -- vLLM 0.19.0 on H100, budget validation logs (tails and excerpts). The available figure is the DEBUG
    # line's "Current kv cache memory in use is X GiB" (format_gib(available_kv_cache_memory_bytes),
    # v0.19.0 vllm/v1/worker/gpu_worker.py) and the blocks are "cache_config_info ... num_gpu_blocks is: N";
    # version, TP and --max-model-len from sources.json (the file names). Blocks = bytes // block-id bytes:
    # gemma-3-12b-it: 40 sliding + 8 full, 8 KV heads x 256 → 6 groups of 8 layers, 8 x 16 x 8 x 2 x 256 x 2 =
    # 1,048,576 B; 47.72 ± 0.005 GiB → 48,860-48,870 (logged 48,867; head_dim 240 would give 52,000+)
    "llmd_v019_gemma3_12b_h100.log": Case("started", model="google/gemma-3-12b-it", inputs={"vllm_version": "0.19.0", "gpu": "H100-80GB", "max_model_len": "8192"}),
    # gemma-2-9b-it: 21 + 21 layers, 8 KV heads x 256 → 2 groups, 21 x 131,072 = 2,752,512 B; 54.12 GiB → 21,110-21,113
    "llmd_v019_gemma2_9b_h100.log": Case("started", model="google/gemma-2-9b-it", inputs={"vllm_version": "0.19.0", "gpu": "H100-80GB", "max_model_len": "8192"}),
    # gemma-2-27b-it as the catalog's base gemma-2-27b (same layers and heads): 23 + 23 layers, 16 KV heads x 128
    # → 23 x 16 x 16 x 2 x 128 x 2 = 3,014,656 B; 20.59 GiB → 7,331-7,335 (logged 7,335)
    "llmd_v019_gemma2_27b_h100.log": Case("started", model="google/gemma-2-27b", inputs={"vllm_version": "0.19.0", "gpu": "H100-80GB", "max_model_len": "8192"}),
    # Llama-3.1-8B-Instruct at 16,384: 32 x 16 x 2 x 8 x 128 x 2 = 2 MiB; 58.11 GiB → 29,749-29,754 (logged 29,751)
    "llmd_v019_llama31_8b_h100_len16k.log": Case(
        "started", model="meta-llama/Llama-3.1-8B-Instruct",
        inputs={"vllm_version": "0.19.0", "gpu": "H100-80GB", "max_model_len": "16384"}),
    # RedHatAI fp8-dynamic Llama-3.3-70B (the meta-llama config, fp8 weights) at TP 4: 80 layers x 2 KV heads x 128
    # → 80 x 16 x 2 x 2 x 128 x 2 = 1,310,720 B; 54.09 GiB → 44,306-44,314 (logged 44,312)
    "llmd_v019_llama33_70b_fp8_h100_tp4.log": Case(
        "started", model="meta-llama/Llama-3.3-70B-Instruct", inputs={"vllm_version": "0.19.0", "gpu": "H100-80GB", "max_model_len": "8192", "tensor_parallel_size": "4"}),
    # Llama-4-Scout at TP 4: 36 chunked + 12 full layers, 2 KV heads x 128 per GPU, page 16,384 B. 0.19 keeps the
    # hybrid manager for chunked local attention (#29627, 0.14.0): 4 groups of 12 → 196,608 B; 16.75 GiB →
    # 91,450-91,504 (logged 91,495). With the manager off (before 0.14) 48 x 16,384 B → 22,862-22,876.
    "llmd_v019_llama4_scout_h100_tp4.log": Case(
        "started", model="meta-llama/Llama-4-Scout-17B-16E-Instruct", inputs={"vllm_version": "0.19.0", "gpu": "H100-80GB", "max_model_len": "8192", "tensor_parallel_size": "4"}),
    # RedHatAI w8a8 Mistral-Small-3.1-24B (the catalog's config, int8 weights) at TP 2: 40 layers x 4 KV heads x 128
    # → 40 x 16 x 2 x 4 x 128 x 2 = 1,310,720 B; 59.02 GiB → 48,345-48,353 (logged 48,349)
    "llmd_v019_mistral_small_w8a8_h100_tp2.log": Case(
        "started", model="mistralai/Mistral-Small-3.1-24B-Instruct-2503", inputs={"vllm_version": "0.19.0", "gpu": "H100-80GB", "max_model_len": "8192", "tensor_parallel_size": "2"}),
    # phi-2 at 2,048: 32 layers x 32 KV heads x 80 (2560 / 32, no head_dim), fp16 → 32 x 16 x 2 x 32 x 80 x 2 =
    # 5,242,880 B; 69.0 ± 0.005 GiB → 14,130-14,132 (logged 14,132)
    "llmd_v019_phi2_h100_len2048.log": Case(
        "started", model="microsoft/phi-2",
        inputs={"vllm_version": "0.19.0", "gpu": "H100-80GB", "max_model_len": "2048"}),
    # 0.30.0 (newer than the pinned rules) on a T4, fp16: 28 layers x 2 KV heads x 128 → 28 x 16 x 2 x 2 x 128 x 2 =
    # 458,752 B; 8.67 ± 0.005 GiB → 20,281-20,304 blocks → 324,496-324,864 tokens (logged 324,704 = 20,294 x 16);
    # 324,704 / 4,096 = 79.27x (logged)
    "v0300_qwen25_1p5b_t4_fp16_util085_4k_v2runner.log": Case("started"),
    # -- V0 engine -----------------------------------------------------------------
    # vllm#10517 (0.6.x): kv_cache_size=2.89GiB, "# GPU blocks: 1478", Llama-3.1-8B at 29000
    "v06_llama31_8b_rtx3090_max_seq_len_29k.log": Case(
        "kv_cache_too_small", model="meta-llama/Llama-3.1-8B-Instruct", inputs={"vllm_version": "0.6.3"}),
    # Same comment of vllm#10517, the '20k - OK' block (0.6.4, V0): kv_cache_size=3.81GiB, "GPU blocks: 1952";
    # 32 x 16 x 2 x 8 x 128 x 2 = 2,097,152 B per block; 3.81 ± 0.005 GiB → 1,948-1,953 blocks (logged 1,952);
    # 1,952 x 16 / 20,000 = 1.56x (logged)
    "v064_llama31_8b_rtx3090_len20k.log": Case(
        "started", model="meta-llama/Llama-3.1-8B-Instruct", inputs={"vllm_version": "0.6.4", "max_model_len": "20000"}),
    # kaitchup/Phi-4-AutoRound-GPTQ-4bit (phi-4's config, int4 weights); Dec 2024 'total_gpu_memory (...) x
    # gpu_memory_utilization' wording (vllm#10511) → 0.6.5
    "v066_phi4_gptq_a100_memory_profiling.log": Case(
        "started", model="microsoft/phi-4", inputs={"vllm_version": "0.6.5"}),
    # Unsloth's bitsandbytes Phi-4 on 0.8.2 (V0 fallback), max_num_seqs 320 (capture sizes up to 320)
    "v082_phi4_bnb4bit_unsloth_a100_80gb_v0.log": Case(
        "started", model="microsoft/phi-4", inputs={"vllm_version": "0.8.2", "max_num_seqs": "320"}),
    # -- V1, dense -------------------------------------------------------------------
    # LLM(max_num_seqs=1, max_model_len=1024) per the issue; version not printed (2026-01)
    "v014_qwen3_17b_24gb_capacity.log": Case(
        "started", model="Qwen/Qwen3-1.7B", inputs={"max_model_len": "1024", "max_num_seqs": "1"}),
    "v011_lmcache_qwen3_14b_single_gpu.log": Case(
        "started", model="Qwen/Qwen3-14B", inputs={"vllm_version": "0.11.0"}),
    # meta-llama/Meta-Llama-3.1-8B-Instruct is the old name of the catalog's Llama-3.1-8B-Instruct
    "v0110_llama31_8b_l4_len32000.log": Case("started", model="meta-llama/Llama-3.1-8B-Instruct"),
    "v0112_llama3_8b_h200_len1024.log": Case("started", model="meta-llama/Meta-Llama-3-8B-Instruct"),
    # Qwen2.5-14B-Instruct-AWQ: the catalog has the base Qwen2.5-14B (same layers and heads)
    "v0130_qwen25_14b_awq_rtxa5000_8k.log": Case("started", model="Qwen/Qwen2.5-14B"),
    # RedHatAI/Qwen3-8B-NVFP4 (Qwen3-8B's config, NVFP4 weights), fp8 KV from the args line
    "v0111nv2512_qwen3_8b_nvfp4_rtx5060ti_fp8kv_32k.log": Case("started", model="Qwen/Qwen3-8B"),
    "v0190_qwen3_0p6b_rtx3060_12gb_util06_4k_eager.log": Case("started", model="Qwen/Qwen3-0.6B"),
    # Sipeed's NanoKVM-Pro guide: Qwen3-VL-30B-A3B at TP 4 on RTX 3090s, 0.11.0 (2.31 GiB per GPU)
    "v0110_qwen3vl_30b_a3b_4x3090_tp4_65k.log": Case("started", model="Qwen/Qwen3-VL-30B-A3B-Instruct"),
    "v0210_qwen3_8b_rtxa5000_lmcache_cpu_offload.log": Case(
        "started", model="Qwen/Qwen3-8B", inputs={"vllm_version": "0.21.0"}),
    # huihui-ai's abliterated gpt-oss-20b keeps openai/gpt-oss-20b's config (sliding 128 / full)
    "v0130nv2601_gpt_oss_20b_mxfp4_gb10_util025_8k.log": Case("started", model="openai/gpt-oss-20b"),
    # 'qwen-custom' (/mnt/models/model-files): Qwen3VLMoeForConditionalGeneration loaded as 58.2299 GiB, which is
    # Qwen3-VL-30B-A3B's bf16 size (the only other Qwen3-VL MoE, 235B-A22B, is about 8x larger), so paired with its config (inferred from
    # the size, not the name): 48 layers x 4 KV heads x 128 → 48 x 16 x 2 x 4 x 128 x 2 = 1,572,864 B; 19.40 ± 0.005
    # GiB → 13,240-13,247 blocks → 211,840-211,952 tokens (logged 211,936); 211,936 / 8,192 = 25.87x (logged)
    "v0130_qwen3vl_moe_custom_h100nvl_8k.log": Case("started", model="Qwen/Qwen3-VL-30B-A3B-Instruct"),
    # GB10 logs of the unified-memory fit: Qwen3-30B-A3B-FP8 names the catalog model itself; neuralmagic's
    # FP8-dynamic Qwen2.5-14B-Instruct has the catalog's base Qwen2.5-14B layers and heads (fp8 KV from the args)
    "v0130nv2601_qwen3_30b_a3b_fp8_gb10_util03_fp8kv_32k.log": Case("started"),
    "v0130nv2601_qwen25_14b_fp8dyn_gb10_util04_fp8kv_32k_warm.log": Case("started", model="Qwen/Qwen2.5-14B"),
    # -- hybrids (Mamba / linear attention) --------------------------------------------
    # granite-4.0-h-1b on 0.19.0 (RTX 3060, prefix caching off): 36 Mamba2 + 4 attention layers. Mamba page: conv
    # 3 x (3,072 + 2 x 128) x 2 B = 19,968 + SSM 48 x 64 x 128 x 2 B = 786,432 → 806,400 B; attention 2 x 4 x 128 x
    # 2 = 2,048 B per token → block cdiv(806,400, 2,048) = 394 → 400 tokens (logged "400"), page 819,200 (mamba padded
    # 1.59%, logged). 10 groups of 4 layers → 3,276,800 B per block; 4.09 ± 0.005 GiB → 1,338-1,341 blocks; per
    # request cdiv(4,096, 400) = 11 + 9 x 1 = 20 → 66.90-67.05x (logged 66.95x, 53,200 tokens)
    "v0190_granite4_h_1b_rtx3060_12gb_util06_4k_eager_hybrid.log": Case("started"),
    # cyankiwi AWQ of Kimi-Linear (MLA + KDA); command: --tensor_parallel 2 --max-num-seqs 8
    # --max_num_batched_tokens 64000 --enable_prefix_caching; 0.11.x
    "v011_kimi_linear_48b_awq_2x3090_tp2.log": Case(
        "started", model="moonshotai/Kimi-Linear-48B-A3B-Instruct",
        inputs={"vllm_version": "0.11.0", "tensor_parallel_size": "2", "max_num_seqs": "8",
                "max_num_batched_tokens": "64000", "enable_prefix_caching": "1"}),
    # cyankiwi AWQ of Qwen3-Next (mounted as /models), TP 2 and fp8 KV from the log's own args
    "v0130_qwen3_next_80b_awq_2xl40s_tp2_util092_fp8kv_32k_hybrid.log": Case(
        "started", model="Qwen/Qwen3-Next-80B-A3B-Instruct"),
    # local copy of nvidia/Qwen3.6-35B-A3B-NVFP4; the "Initializing a V1 LLM engine (v0.24.0)" line was cut.
    # The args ask for 'enable_prefix_caching': True (hybrids default to off before #40996), so
    # MambaModelConfig puts Qwen3.5's GDN layers (no SupportsMambaPrefixCaching) in 'align' mode (#30877,
    # 0.15.0) and each GDN group pins 2 state blocks per request instead of 1 (MambaSpec at v0.24.0).
    # 40 layers: 30 GDN + 10 full -> group_size 10: 3 GDN groups + 1 attention group.
    # GDN page: conv (3, 2*16*128 + 32*128 = 8,192) bf16 = 49,152 + temporal (32, 128, 128) float32
    # (config mamba_ssm_dtype) = 2,097,152 -> 2,146,304; fp8 attention: 2 KV heads * 2 * 256 * 1 = 1,024 B/token
    # -> block 16 * cdiv(2,146,304, 16 * 1,024) = 16 * 131 = 2,096, page 2,096 * 1,024 = 2,146,304 (no padding).
    # Block id 10 * 2,146,304 = 21,463,040 B; 6.01 ± 0.005 GiB (6,447,819,653-6,458,557,071 B) -> 300 blocks.
    # Per request cdiv(131,072, 2,096) + 3 * 2 = 63 + 6 = 69 -> 300 / 69 = 4.3478x (4.35x logged),
    # int(300 / 69 * 131,072) = 569,878 (logged 569,878). Without the flag ('none') 63 + 3 = 66: 66/69 = 22/23.
    "v0240_qwen36_35b_a3b_nvfp4_5090.log": Case(
        "started", model="nvidia/Qwen3.6-35B-A3B-NVFP4", inputs={"vllm_version": "0.24.0"}),
    # Same setup; 5.98 ± 0.005 GiB (6,415,607,398-6,426,344,816 B) -> 298-299 blocks; 299 / 69 = 4.33x,
    # int(299 / 69 * 131,072) = 567,978 (logged 567,978 and 4.33x).
    "v0240_qwen36_35b_a3b_nvfp4_5090_run2.log": Case(
        "started", model="nvidia/Qwen3.6-35B-A3B-NVFP4", inputs={"vllm_version": "0.24.0"}),
    # Qwen3.6-35B-A3B in bf16 on a GB10 (main build of 2026-04-23), prefix caching off: the log names the catalog model
    "v0192rc1dev134_qwen36_35b_a3b_gb10_util095_131k_lmonly.log": Case("started"),
    # -- MLA with decode context parallel ---------------------------------------------------------
    # Kimi-K2-Thinking is represented by the catalog's Kimi-K2-Instruct: the same DeepseekV3 layout
    # (61 layers, kv_lora_rank 512 + qk_rope_head_dim 64 = 576 bf16 latent); it differs in weights (INT4)
    # and positions (262,144 vs 131,072), neither of which enters the token count before #41069.
    # Recipe (sources.json): 8× H200, TP 8, a 0.11.x nightly (FlashMLA forces 64-token pages on Hopper).
    # 61 × 64 × 1,152 = 4,497,408 B per block; 46.80 ± 0.005 GiB → 11,172–11,174 blocks.
    # Without DCP: 11,173 × 64 = 715,072 (logged 715,072).
    "v011x_kimi_k2_thinking_8xh200_tp8.log": Case(
        "started", model="moonshotai/Kimi-K2-Instruct",
        inputs={"vllm_version": "0.11.0", "gpu": "H200", "tensor_parallel_size": "8"}),
    # DCP 8 ("Multiplying the GPU KV cache size by the dcp_world_size 8."): 11,174 × 64 × 8 = 5,721,088
    # (logged 5,721,088, the top of the band 5,720,064–5,721,088).
    "v011x_kimi_k2_thinking_8xh200_tp8_dcp8.log": Case(
        "started", model="moonshotai/Kimi-K2-Instruct",
        inputs={"vllm_version": "0.11.0", "gpu": "H200", "tensor_parallel_size": "8"}),
    # -- TP 4 ------------------------------------------------------------------------------------
    # vllm#21348 (opened about 2025-07-21 by its number: vLLM 0.9.2 or a 0.10.0 build; not printed).
    # 94 layers, 4 KV heads / TP 4 = 1 per GPU, head 128, bf16: one block id = 94 * 16 * 2 * 128 * 2 = 770,048 B.
    # 8.11 ± 0.005 GiB (8,702,677,483-8,713,414,901 B) -> 11,301-11,315 blocks -> 180,816-181,040 tokens.
    # Logged 178,880 = 11,180 * 16: a worker with 8,609,136,640-8,609,906,687 B (8.018-8.019 GiB, "8.02").
    # Before #25164 (first in 0.11.1) vLLM printed "GPU KV cache size" once per worker, inside
    # get_kv_cache_config, from that worker's own memory, before the min over workers
    # (v0.9.2 kv_cache_utils._get_kv_cache_config_uniform_type), and every worker printed its own
    # "Available KV cache memory". The poster quoted one of each, from two different workers (inferred: with
    # one worker's figures the tokens would be 180,816-181,040, and nothing else in the excerpt moves them): the
    # 8.02 GiB worker's line is not in the excerpt, and no other line of it gives that figure (the
    # only other number is the logged token count itself), so it cannot be matched honestly.
    "v1_qwen3_235b_fp8_h100_tp4_capacity.log": Case(
        "started", model="Qwen/Qwen3-235B-A22B-FP8",
        xfail="tokens: computed 180,816–181,040 at 8.11 ± 0.005 GiB, logged 178,880 (11,180 blocks: a worker "
              "with 8.02 GiB); before #25164 (0.11.1) each of the 4 workers printed its own capacity line from "
              "its own memory, so (inferred) the excerpt quotes the Available line of another worker than the capacity line"),
    # -- DeepSeek-V4 (calc/kv/deepseek_v4.py) -------------------------------------------------------
    # vllm#44376, comment of 2026-06-03: LLM(tensor_parallel_size=2, max_model_len=30000, kv_cache_dtype="fp8",
    # block_size=256, enable_prefix_caching=True, gpu_memory_utilization=0.95) on 2x GH200, "[v0.22]" in the issue
    # title (the commenter's exact version is not shown); offline LLM on a >= 70 GiB GPU: 16,384 batched tokens.
    # v0.22.0's check (_max_memory_usage_bytes_from_groups, layer-tuple branch) over its 5 groups, with the sliding
    # pages padded to the MLA ones (_get_kv_cache_groups_uniform_groups): 6,800 pages x 1,051,776 B = 6.66 GiB,
    # estimate 13528 for 5.44038-5.44234 GiB (worked by hand in tests/test_deepseek_v4.py). The log prints no block
    # count, so the pool block (Σ MLA pages x 22 tuples in 0.22) is checked there, not here.
    "v022_dsv4_flash_2xgh200_tp2_kv_too_small.log": Case(
        "kv_cache_too_small", model="deepseek-ai/DeepSeek-V4-Flash",
        inputs={"vllm_version": "0.22.0", "tensor_parallel_size": "2", "kv_cache_dtype": "fp8", "block_size": "256",
                "max_num_batched_tokens": "16384"}),
    # -- vLLM 0.27-0.31 (issue-19 corpus) --------------------------------------------------------------
    # Llama-3.1-8B-Instruct on 0.31.0 (A100, every setting default: 131,072): 32 layers x 16 x 2 x 8 x 128 x 2 =
    # 2,097,152 B per block; 56.21 ± 0.005 GiB x 512 = 28,776.96-28,782.08 -> 28,776-28,782 blocks (logged 460,496 =
    # 28,781 x 16); 460,496 / 131,072 = 3.51x (logged). Version from the note's docker tag.
    "r19_v0310_llama31_8b_a100_defaults_131k.log": Case(
        "started", model="meta-llama/Llama-3.1-8B-Instruct", inputs={"vllm_version": "0.31.0", "gpu": "A100-80GB"}),
    # Qwen2.5-7B-Instruct-AWQ (the catalog's Qwen2.5-7B-Instruct layers and heads, int4 weights) on 0.31.0, H200:
    # 28 x 16 x 2 x 4 x 128 x 2 = 917,504 B; 34.79 ± 0.005 GiB x 1,073,741,824 / 917,504 = 40,707.4-40,719.1 ->
    # 40,707-40,719 blocks (logged 651,504 = 40,719 x 16); 651,504 / 4,096 = 159.06x (logged)
    "r19_v0310_qwen25_7b_awq_h200_4k.log": Case(
        "started", model="Qwen/Qwen2.5-7B-Instruct", inputs={"gpu": "H200"}),
    # Qwen2.5-1.5B-Instruct in fp16 on 0.28.1rc1 (a Turing fork with its own attention kernel; KV sizing upstream's):
    # 28 x 16 x 2 x 2 x 128 x 2 = 458,752 B; 17.36 ± 0.005 GiB x 1,073,741,824 / 458,752 = 40,620.6-40,644.0 ->
    # 40,620-40,644 blocks (logged 650,208 = 40,638 x 16); 650,208 / 4,096 = 158.74x (logged)
    "r19_v0281rc1_qwen25_1p5b_tu102_fp16_eager_4k.log": Case("started", model="Qwen/Qwen2.5-1.5B-Instruct"),
    # Qwen3.8-27B in bf16 on a GB10 (0.27.1, prefix caching off) paired with the catalog's Qwen3.6-27B: two public
    # notes diff the two config.json files and find only transformers_version different (find_string hit ids
    # 62135068519 and 60780498258). 64 layers, 16 full attention + 48 GDN -> 3 GDN groups + 1 attention group of 16.
    # GDN page: conv 3 x (2 x 16 x 128 + 48 x 128 = 10,240) x 2 B = 61,440 + temporal 48 x 128 x 128 x 4 B
    # (mamba_ssm_dtype float32) = 3,145,728 -> 3,207,168 B; attention 4 KV heads x 256 x 2 x 2 B = 4,096 B per token
    # -> block 16 x cdiv(3,207,168, 16 x 4,096) = 16 x 49 = 784 tokens (logged), page 784 x 4,096 = 3,211,264 B,
    # mamba padded by 4,096 / 3,207,168 = 0.13% (logged). Block id 16 x 3,211,264 = 51,380,224 B.
    # 51.7 ± 0.005 GiB = 55,507,083,592-55,517,821,009 B -> 1,080 blocks; per request cdiv(32,768, 784) = 42 + 3 x 1
    # = 45 -> 1,080 / 45 = 24.00x (logged), int(24 x 32,768) = 786,432 tokens (logged)
    "r19_v0271_qwen38_27b_gb10_32k_started.log": Case("started", model="Qwen/Qwen3.6-27B", inputs={"gpu": "GB10"}),
    # Same host at 786,432 with YaRN factor 3 (--hf-overrides in the log's args echo, merged into the config:
    # derived maximum 3 x 262,144 = 786,432). 50.29 ± 0.005 GiB = 53,993,107,620-54,003,845,038 B -> 1,050-1,051
    # blocks; per request cdiv(786,432, 784) = 1,004 + 3 = 1,007 -> 1,050 / 1,007 = 1.04x,
    # int(1,050 / 1,007 x 786,432) = 820,013 tokens (logged; 1,051 blocks would print 820,794)
    "r19_v0271_qwen38_27b_gb10_util092_786k.log": Case(
        "started", inputs={"gpu": "GB10",
                           "config": _config_with_log_overrides("r19_v0271_qwen38_27b_gb10_util092_786k.log")}),
    # the held-out logs (calc/data/holdout.json): defaults, so the log states every setting
    # Qwen3-32B at TP 2 from its docker run line: 64 layers x 4 KV heads x 128 x 2 x 2 B = 131,072 B per token,
    # 2 MiB per block; 8.22 ± 0.005 GiB → 4,206.1-4,211.2 → 4,206-4,211 blocks → 67,296-67,376 tokens (logged
    # 67,296 = 4,206 x 16); 67,296 / 32,768 = 2.05x (logged)
    "v0271_qwen3_32b_2xrtxpro6000_tp2_util0426_docker_run.log": Case("started"),
    # Qwen3-32B-AWQ (the file's "Currently running"; the excerpt names no model) on the file's pinned v0.28.0:
    # 8,192 x 262,144 B = 2.0 GiB needed (logged); 1,856 = 116 blocks of 16 needs 486,539,264 B = 0.4531 GiB,
    # inside 0.45 ± 0.005 GiB, and 117 blocks (490,733,568 B) would not be
    "v0280_qwen3_32b_awq_5090_8k_kv_too_small_excerpt.log": Case(
        "kv_cache_too_small", model="Qwen/Qwen3-32B-AWQ", inputs={"vllm_version": "0.28.0"}),
    "v092_qwen3_8b_a100_40gb_defaults_40k.log": Case("started"),
    "v0191_qwen3_8b_a100_40gb_defaults_40k.log": Case("started"),
    "v0102_qwen3_next_80b_2xh200_tp2_defaults_262k.log": Case("started", model="Qwen/Qwen3-Next-80B-A3B-Instruct"),
    # the 2026-12-02 held-out batch (dennislee22/vLLM-benchmarking): Qwen2-7B-Instruct is the catalog's Qwen2-7B
    # (same tensors: 14.2488 GiB loaded); the flags its wrapped args line hides are the ones that line shows
    "h20-v01011_qwen2_7b_a100_80gb_util025_16k.log": Case("started", model="Qwen/Qwen2-7B"),
    "h20-v01011_qwen2_7b_a100_80gb_util05_16k.log": Case("started", model="Qwen/Qwen2-7B"),
    "h20-v01011_qwen2_7b_2xa100_80gb_tp2_util025_16k.log": Case("started", model="Qwen/Qwen2-7B"),
    "h20-v01011_qwen2_7b_2xa100_80gb_tp2_util05_16k.log": Case("started", model="Qwen/Qwen2-7B",
                                                              inputs={"tensor_parallel_size": "2"}),
    "h20-v01011_qwen2_7b_2xa100_40gb_tp2_2nodes_util05_16k.log": Case("started", model="Qwen/Qwen2-7B",
                                                                     inputs={"tensor_parallel_size": "2"}),
    "h20-v01011_gpt_oss_120b_4xa100_80gb_tp4_4nodes_util08_16k.log": Case("started", model="openai/gpt-oss-120b"),
    # the second 2026-12-02 held-out batch: local checkpoint paths, paired with the catalog model they copy
    "h20-v0190_qwen35_9b_4x3090_tp4_32k.log": Case("cuda_out_of_memory", model="Qwen/Qwen3.5-9B"),
    "h20-v0190_qwen35_27b_4x3090_tp4_eager_32k.log": Case(
        "started", model="Qwen/Qwen3.5-27B",
        xfail="tokens: computed 114,400 at 7.0 ± 0.005 GiB, logged 114,464 = 146 x 784: " + _QWEN35_27B_SSM),
    "h20-v0190_qwen35_27b_4x3090_tp4_eager_util092_32k.log": Case(
        "started", model="Qwen/Qwen3.5-27B",
        xfail="concurrency: computed 14.39-14.40x at 7.47 ± 0.005 GiB, logged 13.87x (122,304 tokens = 156 x 784): "
              + _QWEN35_27B_SSM),
    "h20-v0190_qwen35_27b_4x3090_tp4_eager_util092_seqs1_50k.log": Case(
        "started", model="Qwen/Qwen3.5-27B",
        xfail="tokens: computed 123,600 at 7.56 ± 0.005 GiB, logged 123,088 = 157 x 784: " + _QWEN35_27B_SSM),
    "h20-v0181_qwen25_32b_4x3090_tp4_eager_util088_seqs1_32k.log": Case("started", model="Qwen/Qwen2.5-32B-Instruct"),
    "h20-v0120_qwen3_30b_a3b_2xh100_tp2_seqs64_40k.log": Case("started", model="Qwen/Qwen3-30B-A3B"),
    "h20-v0120_qwen3vl_30b_a3b_2xh100_tp2_seqs64_64k.log": Case("started", model="Qwen/Qwen3-VL-30B-A3B-Instruct"),
    "h20-v0120_qwen3vl_30b_a3b_2xh100_tp2_64k.log": Case(
        "started", model="Qwen/Qwen3-VL-30B-A3B-Instruct",
        xfail="tokens: computed 813,184-813,408 at 37.23 ± 0.005 GiB, logged 813,152 (50,822 blocks against 50,831 at "
              "the low edge): the capacity line is of a worker with less memory than the one whose Available line is printed (inferred)"),
    # the third 2026-12-02 held-out batch: a local clone of Meta-Llama-3.1-8B-Instruct, and
    # Qwen3-14B by name
    "h20b-v0151_llama31_8b_a100_40gb_eager_defaults_131k.log": Case(
        "started", model="meta-llama/Llama-3.1-8B-Instruct"),
    "h20b-v0290_qwen3_14b_l40s_defaults_40k.log": Case("started"),
    # the 2026-12-04 held-out batch (the set-up of each in calc/data/holdout.json)
    "h20c-v0180_qwen35_9b_a100_40gb_8k.log": Case("started"),
    "h20c-v0271_qwen36_27b_2xa100_80gb_tp2_65k.log": Case("started", model="Qwen/Qwen3.6-27B"),
    "h20c-v0100_qwen3_14b_a100_80gb_32k.log": Case("started", model="Qwen/Qwen3-14B"),
    # four lines without prefixes: the model and release are the post's (vllm serve Qwen/Qwen3-14B, 0.28.0)
    "h20c-v0280_qwen3_14b_l40s_defaults_40k.log": Case(
        "started", model="Qwen/Qwen3-14B", inputs={"vllm_version": "0.28.0"}),
    "h20c-v0190_qwen25_72b_4xl40s_tp4_8k.log": Case("started"),
    "h20c-v0190_qwen35_9b_l40s_offline_262k.log": Case("started"),
    "h20c-v0901_qwen25vl_7b_l4_2k.log": Case("started", model="Qwen/Qwen2.5-VL-7B-Instruct"),
    # the 2026-12-04b batch: a Kaggle mount of Qwen3 8B (its set-up in calc/data/holdout.json)
    "h20d-v0220_qwen3_8b_2xt4_tp2_eager_util085_8k.log": Case("started", model="Qwen/Qwen3-8B"),
    "h20d-v0102_qwen3_4b_h100_defaults_40k.log": Case("started"),
}

# Every other log: the diagnosis its lines give (the reasons are in the table above).
NOT_RECOMPUTED: dict[str, str] = {
    "h20-v0100_qwen3_32b_8xh100_tp8_fp8kv_32k.log": "started",
    "llmd_v019_granite31_8b_h100.log": "started",
    "v0101_gpt_oss_120b_h100_negative_kv.log": "no_memory_for_cache_blocks",
    "v0130nv2601_qwen25_14b_fp8dyn_gb10_util015_fp8kv_32k_no_memory.log": "no_memory_for_cache_blocks",
    "v0230_qwen25vl_7b_a100_util022_default_len_video_profile.log": "no_memory_for_cache_blocks",
    "v011_gpt_oss_120b_h100_kv171.log": "engine_failed",  # "EngineCore failed to start." after the KV line
    "v07_deepseek_r1_qwen14b_2x4090_tp2.log": "kv_cache_too_small",
    "llmd_v019_codellama_34b_h100_tp2_free_memory.log": "free_memory_below_utilization",
    "v0_qwen15_7b_max_seq_len_7344.log": "kv_cache_too_small",
    "v08_worker_breakdown_rtx3090_util099.log": "started",
    "v0111dev_opt27b_4xa30_tp4_util08_debug.log": "cuda_out_of_memory",  # the run OOMs after start-up (the issue)
    "v1_tpu_models_s_max_seq_len_131072.log": "kv_cache_too_small",
    "v08_models_s_max_seq_len_1m_quoted.log": "kv_cache_too_small",
    "v010_lmcache_models_s_max_seq_len_32768.log": "kv_cache_too_small",
    "v2026_ci_qwen35_b200_mamba_blocks_below_max_num_seqs.log": "mamba_blocks_below_max_num_seqs",
    "v0291rc1_minimax_m27_awq_2xspark_tp2_quoted_kv_too_small.log": "kv_cache_too_small",
    "v2026_recipes_model_s_max_seq_len_1m.log": "kv_cache_too_small",
    "v2026_xpu_kv_cache_memory_bytes_wrapped.log": "kv_cache_too_small",
    "v2026_free_memory_pytorch_ci_l4.log": "free_memory_below_utilization",
    "v2026_club3090_tp4_cudagraph_profiling.log": "started",
    "v0271_gpustack_tp2_cudagraph_profiling.log": "started",
    "v03_qanything_gpu_blocks_0_rtx3090.log": "no_memory_for_cache_blocks",
    "v064_no_available_memory_docker_compose.log": "no_memory_for_cache_blocks",
    "v2026_gemma4_31b_nvfp4_5090_failed_to_load_model.log": "load_out_of_memory",
    "v2026_club3090_runtime_oom_output_handler.log": "cuda_out_of_memory",
    "v2026_glm53_flash_2xspark_free_memory_util087.log": "free_memory_below_utilization",
    "v04_runtime_oom_qwen2_7b_2080ti.log": "cuda_out_of_memory",
    "v080_sampler_oom_qwen25_32b_awq_tp2.log": "cuda_out_of_memory",
    "v07_v1_llama31_70b_w8a8_gpu_blocks.log": "started",
    "v065_memory_profiling_table_llama3_8b_h100.log": "started",
    "v1_capacity_two_lines_pr13596.log": "started",
    "v2026_qwen38_27b_fp8_tp2_3090_concurrency.log": "started",
    "v2026_qwen38_flash_next_4090_tp4_pp2.log": "started",
    "v2026_xpu_hybrid_attn_block_528_pad_076.log": "unknown",
    "v2026_qwen35_text_5090_1m_nvfp4kv_proto.log": "started",
    "v2026_qwen36_27b_fp8_2x3090_tp2_262k.log": "started",
    "v010_fp8_kv_max_model_len_error_25350.log": "kv_cache_too_small",
    "v2026_qwen36_27b_int4_2x3090_proxmox_262k.log": "started",
    "v2026_qwen38_27b_int4_2x5090_204k.log": "started",
    "v0201_qwen36_27b_int4_2x3090_mtp_fp8e5m2.log": "started",
    "v2026_qwen36_27b_int4_2x3090_x4x4_p2poff.log": "started",
    "v2026_qwen36_27b_int4_2x3090_x4x4_p2pon.log": "started",
    "v0201rc1dev16_qwen36_27b_int4_2x3090_dflash_180k.log": "started",
    "v08_v1_deepseek_v3_mi308_multi_rank.log": "started",
    "v0152rc1_qwen3_coder_30b_fp8_pp2_5070ti_5090d.log": "kv_cache_too_small",
    "v2026_kaito_mistral_small4_119b_h100_1m_kv_too_small.log": "kv_cache_too_small",
    "v05_deepseek_coder_v2_8xh100_tp8_max_seq_len_2368.log": "kv_cache_too_small",
    "v2026_glm53_flash_2xrtxpro6000_tp2_dcp2_block7808.log": "unknown",
    "v071_deepseek_coder_v2_lite_8xa100_40gb_tp8_v0.log": "started",
    "v066post1_internvl3_78b_8xl40s_tp8_v0.log": "started",
    "v0110_qwen3vl_embedding_2b_t4_eager_pooling.log": "started",
    "v0190_gpt_oss_20b_a100_131k_util065_page_excerpt.log": "started",
    "v07_llama31_8b_oci_a10_131k_kv_too_small.log": "kv_cache_too_small",
    "v0130nv_nemotron3_nano_4b_fp8_gb10_util015_hybrid.log": "started",
    "v019x_gemma4_26b_a4b_a100_131k_eager_page_excerpt.log": "started",
    "v2026_qwen38_27b_fp8_2x5090_147k_supermax.log": "started",
    "v2026_qwen38_27b_fp8_2x5090_65k_ultramax.log": "started",
    "v0201rc1dev16_qwen36_27b_int4_2x4090_dflash_180k.log": "started",
    "v020x_qwen36_27b_autoround_2x3090_tp2_util088_262k.log": "started",
    "v02xx_qwen38_27b_fp8_2x5090_tp2_util092_breakdown.log": "unknown",
    "v0251_laguna_s21_nvfp4_dflash_gb10_65k_util089.log": "started",
    "v0102_qwen2vl_2b_rtx4080_wsl_util08_4k.log": "started",
    "v072_deepseek_coder_v2_lite_l40s_cpuoffload30_util045_100k_v0.log": "unknown",
    "v0xx_dev_mistral_small4_119b_awq_2xl40s_tp2_util082_32k_mla.log": "started",
    "r19_v0271_qwen25_0p5b_4090wsl_util085_2k_nvcc_missing.log": "engine_failed",
    "r19_v0271_qwen25_0p5b_4090wsl_util085_2k_flashinfer_jit.log": "engine_failed",
    "r19_v0280_qwen38_27b_w4a16_3090_fp8kv_align_131k.log": "started",
    "r19_v0271_qwen38_27b_nvfp4_gb10_fp8kv_917k_free_memory.log": "free_memory_below_utilization",
    "r19_v0271_qwen38_27b_gb10_32k_block784_ninja_missing.log": "engine_failed",
    "r19_v0291_gemma4_e2b_mi300x_32k.log": "started",
    "r19_v0291rc1_qwen38_27b_fp8_gb10_hidden_state_block800.log": "unknown",
    "r19_v0290_mtp3_kv_cache_memory_bytes_98k_summary.log": "started",
    "r19_v0290_kv_cache_memory_bytes_200k_summary.log": "started",
    "r19_v0281dev_opt125m_cpu_2k.log": "started",
    "r19_v03xx_gdn_hybrid_mtp3_5090_kv5gib_groups.log": "started",
}

# The figures compared: capacity facts of the log against the core's own printed lines.
_CAPACITY = ("gpu_kv_cache_tokens", "num_gpu_blocks", "max_concurrency", "estimated_max_model_len")


def _read(name: str):
    return parse_log((LOGS / name).read_text(encoding="utf-8", errors="replace"))


def _printed(v: Verdict) -> dict[str, object]:
    """What the core prints for this plan, read back with the log reader; a figure the release's
    lines do not carry (0.8.2 prints V1's lines, a V0-fallback log "# cuda blocks") from the plan."""
    text = "\n".join((*v.vllm_lines, *((v.error_text,) if v.error_text else ())))
    facts = dict(parse_log(text).facts)
    for key in _CAPACITY:
        value = getattr(v, key)
        if key not in facts and value is not None:
            facts[key] = round(value, 2) if key == "max_concurrency" else value
    return facts


def _params() -> list[object]:
    out = []
    for name, case in RECOMPUTED.items():
        marks = [pytest.mark.xfail(strict=True, reason=case.xfail)] if case.xfail else []
        out.append(pytest.param(name, id=name, marks=marks))
    return out


@pytest.mark.parametrize("name", _params())
def test_log_capacity_is_reproduced_to_the_block(name: str) -> None:
    case = RECOMPUTED[name]
    reading = _read(name)
    facts = reading.facts
    inputs = {**inputs_from_reading(reading), **case.inputs}
    if case.model is not None:
        inputs["model"] = case.model
    scenario = scenario_from_inputs(inputs)
    gib = case.available_gib if case.available_gib is not None else facts["available_kv_gib"]
    lo, hi = (plan(scenario.model, replace(scenario.deployment, measured=Measured(available_kv_bytes=int(a * GiB))))
              for a in (gib - 0.005, gib + 0.005))
    assert lo.fits == hi.fits == (reading.diagnosis != "kv_cache_too_small")
    low, high = _printed(lo), _printed(hi)
    compared = [key for key in _CAPACITY if key in facts]
    assert compared, "the log prints no capacity figure to compare"
    for key in compared:
        assert low[key] <= facts[key] <= high[key], (key, low.get(key), facts[key], high.get(key))
    if "needed_kv_gib" in facts:
        needed = lo.stages[lo.limiting_stage].needed_kv_bytes
        assert abs(needed / GiB - facts["needed_kv_gib"]) <= 0.005
    if "max_model_len" in facts:
        assert lo.max_model_len == facts["max_model_len"]


def _fit_params() -> list[object]:
    """The recomputed logs that print a capacity line (blocks, tokens or concurrency) and an available figure."""
    out = []
    for name, case in RECOMPUTED.items():
        facts = _read(name).facts
        if not any(k in facts for k in _CAPACITY[:3]) or ("available_kv_gib" not in facts and case.available_gib is None):
            continue
        marks = [pytest.mark.xfail(strict=True, reason=case.xfail)] if case.xfail else []
        out.append(pytest.param(name, id=name, marks=marks))
    return out


@pytest.mark.parametrize("name", _fit_params())
def test_log_capacity_is_met_exactly_within_the_rounding(name: str) -> None:
    """Inside the log's ±0.005 GiB, the recomputed plan lands on the log's own capacity: every blocks / tokens /
    concurrency figure it prints equals the log's (log_capacity.py), at bytes that still print as the log's GiB."""
    case = RECOMPUTED[name]
    reading = _read(name)
    facts = dict(reading.facts)
    if case.available_gib is not None:  # the log's own line is another stage's (see the Case's comment)
        facts["available_kv_gib"] = case.available_gib
    inputs = {**inputs_from_reading(reading), **case.inputs, "available_kv_gib": str(facts["available_kv_gib"])}
    if case.model is not None:
        inputs["model"] = case.model
    scenario = scenario_from_inputs(inputs)
    fit = fit_capacity(scenario, facts)
    assert fit is not None and fit.status == FitStatus.EXACT, fit
    assert round(fit.available_kv_bytes / GiB, 2) == facts["available_kv_gib"]  # vLLM's format_gib of the bytes
    v = plan(scenario.model, replace(scenario.deployment, measured=Measured(available_kv_bytes=fit.available_kv_bytes)))
    shown = _printed(v)
    for key in _CAPACITY[:3]:
        if key in facts:
            assert shown[key] == facts[key], (key, shown[key], facts[key])
    if case.model is None and not case.inputs and case.available_gib is None:
        # the log alone names everything: `kvcalc log` (diagnose) prints the log's own figures
        d = diagnose((LOGS / name).read_text(encoding="utf-8", errors="replace"))
        assert d.analysis is not None and d.capacity_fit == fit
        assert all(_printed(d.analysis.verdict)[k] == facts[k] for k in _CAPACITY[:3] if k in facts)


@pytest.mark.parametrize("name", sorted(RECOMPUTED) + sorted(NOT_RECOMPUTED))
def test_every_log_parses(name: str) -> None:
    reading = _read(name)
    expected = RECOMPUTED[name].diagnosis if name in RECOMPUTED else NOT_RECOMPUTED[name]
    assert reading.diagnosis == expected
    version = reading.facts.get("vllm_version")
    if version is not None:
        assert parse_version(str(version)).release[0] == 0


def test_every_log_is_either_recomputed_or_listed_with_a_reason() -> None:
    names = {p.name for p in LOGS.glob("*.log")}
    assert not set(RECOMPUTED) & set(NOT_RECOMPUTED)
    assert names == set(RECOMPUTED) | set(NOT_RECOMPUTED)
    table = {line.split("|")[1].strip() for line in (__doc__ or "").splitlines()
             if line.startswith("| ") and line.split("|")[1].strip().endswith(".log")}
    assert table == set(NOT_RECOMPUTED)
    index = {row["file"] for row in json.loads((LOGS / "sources.json").read_text(encoding="utf-8"))}
    assert index == names


def test_corpus_mix() -> None:
    """The corpus covers the layouts the core plans: hybrids, MLA, large TP / PP, recent releases."""
    rows = {row["file"]: row for row in json.loads((LOGS / "sources.json").read_text(encoding="utf-8"))}
    assert len(rows) >= 60
    assert len(RECOMPUTED) >= 25
    # "kind", "tp" and "pp" are recorded for some rows; the others name them in the file
    kinds = [row.get("kind") for row in rows.values()]
    assert kinds.count("hybrid_mamba") >= 10
    assert kinds.count("mla") + ("llmd_v019_deepseek_v2_lite_h100.log" in rows) >= 4
    large = [f for f, row in rows.items() if (row.get("tp") or 1) >= 4 or (row.get("pp") or 1) >= 2]
    assert len(large + ["llmd_v019_llama31_8b_h100_pp2.log", "v1_qwen3_235b_fp8_h100_tp4_capacity.log"]) >= 4


def test_hybrid_layout_lines_of_a_start_that_failed_before_sizing() -> None:
    """r19_v0271_qwen38_27b_gb10_32k_block784_ninja_missing.log stops before the KV cache is sized (no ninja for
    torch.compile), but its two layout lines depend on the config alone: the core prints the same two lines
    (784 = 16 x cdiv(3,207,168, 16 x 4,096), padding 4,096 / 3,207,168 = 0.13%, worked in RECOMPUTED above)."""
    name = "r19_v0271_qwen38_27b_gb10_32k_block784_ninja_missing.log"
    reading = _read(name)
    inputs = {**inputs_from_reading(reading), "model": "Qwen/Qwen3.6-27B", "gpu": "GB10"}
    scenario = scenario_from_inputs(inputs)
    core = parse_log("\n".join(plan(scenario.model, scenario.deployment).vllm_lines)).facts
    for key in ("hybrid_attention_block_size", "mamba_page_padding_pct"):
        assert core[key] == reading.facts[key], key
    assert (reading.facts["hybrid_attention_block_size"], reading.facts["mamba_page_padding_pct"]) == (784, 0.13)
