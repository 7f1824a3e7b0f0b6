"""The log reader against real public vLLM logs (tests/data/logs, sources.json).

Every expected value below was read by hand from the log file named in the same
row (the line is quoted in the comment where it is not obvious); none was copied
from the parser's output.
"""

from __future__ import annotations

import json
import os
import pathlib
import random

import pytest
from scaling import GROWTH_BOUND, growth_ratio

from kvcalc.logs.logparse import DIAGNOSES, LogReading, parse_log

LOGS = pathlib.Path(__file__).parent / "data" / "logs"

# file -> (diagnosis, facts that must be present with exactly these values)
EXPECTED: dict[str, tuple[str, dict[str, object]]] = {
    # --- vLLM 0.19.0 on H100 (llm-d-planner accuracy sweep) -------------------
    # "Available KV cache memory: 58.11 GiB", "GPU KV cache size: 476,016 tokens",
    # "Maximum concurrency for 8,192 tokens per request: 58.11x", "torch peak memory
    # increase: 1.89GiB; non-torch forward increase memory: 0.25GiB; weights memory:
    # 14.99GiB", "Graph capturing finished in 3 secs, took 0.91 GiB"
    "llmd_v019_llama31_8b_h100_tp1.log": ("started", {
        "model": "meta-llama/Llama-3.1-8B-Instruct", "vllm_version": "0.19.0", "max_model_len": 8192,
        "available_kv_gib": 58.11, "gpu_kv_cache_tokens": 476016, "max_concurrency": 58.11,
        "activation_peak_gib": 1.89, "non_torch_gib": 0.25, "model_weights_gib": 14.99, "cudagraph_gib": 0.91,
        "gpu_memory_utilization": 0.95, "tensor_parallel_size": 1, "total_gpu_memory_gib": 79.19,
        "free_memory_gib": 78.68, "requested_memory_gib": 75.23, "max_num_batched_tokens": 8192,
        "max_num_seqs": 1024, "dtype": "bfloat16", "kv_cache_dtype": "auto", "enforce_eager": False}),
    "llmd_v019_llama31_8b_h100_tp2.log": ("started", {
        "tensor_parallel_size": 2, "available_kv_gib": 63.76, "gpu_kv_cache_tokens": 1044688,
        "max_concurrency": 127.53, "model_weights_gib": 7.51, "non_torch_gib": 2.07, "cudagraph_gib": 0.76}),
    # PP 2: the first stage prints first: "torch peak memory increase: 1.1GiB; ... weights memory: 7.51GiB"
    "llmd_v019_llama31_8b_h100_pp2.log": ("started", {
        "pipeline_parallel_size": 2, "tensor_parallel_size": 1, "available_kv_gib": 66.54,
        "gpu_kv_cache_tokens": 1075312, "max_concurrency": 131.26, "activation_peak_gib": 1.1}),
    "llmd_v019_llama31_8b_h100_len32k.log": ("started", {
        "max_model_len": 32768, "max_concurrency": 14.53, "gpu_kv_cache_tokens": 476016}),
    "llmd_v019_codellama_7b_h100.log": ("started", {
        "model": "codellama/CodeLlama-7b-hf", "available_kv_gib": 61.66, "gpu_kv_cache_tokens": 126256,
        "activation_peak_gib": 0.77, "model_weights_gib": 12.56, "cudagraph_gib": 0.89}),
    "llmd_v019_deepseek_v2_lite_h100.log": ("started", {
        "model": "deepseek-ai/DeepSeek-V2-Lite-Chat", "available_kv_gib": 43.61,
        "gpu_kv_cache_tokens": 1505552, "activation_peak_gib": 1.93, "model_weights_gib": 29.43,
        "cudagraph_gib": 1.57}),
    "llmd_v019_llama33_70b_fp8_h100_tp2.log": ("started", {
        "model": "RedHatAI/Llama-3.3-70B-Instruct-fp8-dynamic", "tensor_parallel_size": 2,
        "available_kv_gib": 37.28, "gpu_kv_cache_tokens": 244304, "non_torch_gib": 2.1,
        "model_weights_gib": 33.88, "cudagraph_gib": 1.79, "quantization": "compressed-tensors"}),
    "llmd_v019_gemma2_2b_h100.log": ("started", {
        "model": "google/gemma-2-2b-it", "available_kv_gib": 66.47, "gpu_kv_cache_tokens": 670160,
        "activation_peak_gib": 3.62, "model_weights_gib": 4.9, "cudagraph_gib": 0.71}),
    "llmd_v019_gemma3_27b_h100.log": ("started", {
        "model": "google/gemma-3-27b-it", "available_kv_gib": 19.53, "gpu_kv_cache_tokens": 36560,
        "activation_peak_gib": 3.99, "model_weights_gib": 51.45, "cudagraph_gib": 1.14}),
    # non-default args: {..., 'dtype': 'bfloat16', ..., 'kv_cache_dtype': 'fp8', ...}
    "llmd_v019_qwen25_7b_kvfp8_h100.log": ("started", {
        "model": "Qwen/Qwen2.5-7B-Instruct", "kv_cache_dtype": "fp8", "available_kv_gib": 58.53,
        "gpu_kv_cache_tokens": 2192000, "activation_peak_gib": 2.21}),
    "llmd_v019_qwen25_72b_h100_tp2.log": ("started", {
        "model": "Qwen/Qwen2.5-72B-Instruct", "tensor_parallel_size": 2, "available_kv_gib": 3.04,
        "gpu_kv_cache_tokens": 19920, "model_weights_gib": 67.8, "activation_peak_gib": 2.29}),
    "llmd_v019_mixtral_8x7b_h100_tp2.log": ("started", {
        "model": "mistralai/Mixtral-8x7B-Instruct-v0.1", "available_kv_gib": 28.44,
        "gpu_kv_cache_tokens": 465936, "activation_peak_gib": 1.21, "model_weights_gib": 43.51}),
    # util 0.9 (default): "Desired GPU memory utilization is (0.9, 71.27 GiB)"
    "llmd_v019_gpt_oss_20b_h100_tp2.log": ("started", {
        "model": "openai/gpt-oss-20b", "gpu_memory_utilization": 0.9, "requested_memory_gib": 71.27,
        "available_kv_gib": 59.32, "gpu_kv_cache_tokens": 2591776, "activation_peak_gib": 2.87,
        "model_weights_gib": 7.01, "cudagraph_gib": 1.55}),
    "llmd_v019_qwen15_moe_a27b_h100.log": ("started", {
        "model": "Qwen/Qwen1.5-MoE-A2.7B", "available_kv_gib": 45.83, "gpu_kv_cache_tokens": 250304,
        "activation_peak_gib": 2.47, "model_weights_gib": 26.67, "cudagraph_gib": 1.1}),
    "llmd_v019_mistral_small_31_24b_h100.log": ("started", {
        "model": "mistralai/Mistral-Small-3.1-24B-Instruct-2503", "available_kv_gib": 28.19,
        "gpu_kv_cache_tokens": 184752, "activation_peak_gib": 2.03, "model_weights_gib": 44.76}),
    "llmd_v019_phi4_h100.log": ("started", {
        "model": "microsoft/phi-4", "available_kv_gib": 46.08, "gpu_kv_cache_tokens": 241568,
        "max_concurrency": 29.49, "activation_peak_gib": 1.52, "model_weights_gib": 27.39,
        "cudagraph_gib": 1.07}),
    # "ValueError: Free memory on device cuda:1 (60.87/79.19 GiB) on startup is less than
    # desired GPU memory utilization (0.95, 75.23 GiB)."
    "llmd_v019_codellama_34b_h100_tp2_free_memory.log": ("free_memory_below_utilization", {
        "model": "codellama/CodeLlama-34b-hf", "tensor_parallel_size": 2, "free_memory_gib": 60.87,
        "total_gpu_memory_gib": 79.19, "gpu_memory_utilization": 0.95, "requested_memory_gib": 75.23}),
    # The engine printed its capacity, then the sampler warm-up died:
    # "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 786.00 MiB."
    "llmd_v019_gpt_oss_20b_h100_sampler_oom.log": ("cuda_out_of_memory", {
        "model": "openai/gpt-oss-20b", "available_kv_gib": 58.47, "gpu_kv_cache_tokens": 1277184,
        "max_concurrency": 155.75, "oom_tried_to_allocate_mib": 786.0}),
    # --- V0 and early V1 (issues, blogs) --------------------------------------
    # "The model's max seq len (29000) is larger than ... KV cache (23648)"; "# GPU blocks: 1478"
    "v06_llama31_8b_rtx3090_max_seq_len_29k.log": ("kv_cache_too_small", {
        "max_model_len": 29000, "gpu_kv_cache_tokens": 23648, "num_gpu_blocks": 1478,
        "total_gpu_memory_gib": 23.58, "non_torch_gib": 0.35, "available_kv_gib": 2.89,
        "gpu_memory_utilization": 0.9, "max_concurrency": 0.82}),
    "v0_qwen15_7b_max_seq_len_7344.log": ("kv_cache_too_small", {
        "max_model_len": 32768, "gpu_kv_cache_tokens": 7344, "model": "/models--Qwen--Qwen1.5-7B-Chat"}),
    # vllm serve /path/to/Qwen3-235B-A22B-FP8 \ --tensor-parallel-size 4 \ ...
    "v1_qwen3_235b_fp8_h100_tp4_capacity.log": ("started", {
        "available_kv_gib": 8.11, "gpu_kv_cache_tokens": 178880, "tensor_parallel_size": 4,
        "model": "/path/to/Qwen3-235B-A22B-FP8"}),
    # vllm#29070: the DEBUG breakdown at TP 4 (4x A30, 0.11.1.dev12), then the run's OOM line (total 23.50 GiB)
    "v0111dev_opt27b_4xa30_tp4_util08_debug.log": ("cuda_out_of_memory", {
        "gpu_name": "NVIDIA A30", "model_weights_gib": 1.24, "activation_peak_gib": 0.22, "non_torch_gib": 0.09,
        "available_kv_gib": 17.24, "gpu_kv_cache_tokens": 226000, "total_gpu_memory_gib": 23.5}),
    "v08_worker_breakdown_rtx3090_util099.log": ("started", {
        "model_weights_gib": 21.21, "non_torch_gib": 0.2, "activation_peak_gib": 0.37,
        "available_kv_gib": 1.57, "total_gpu_memory_gib": 23.58, "gpu_memory_utilization": 0.99,
        "requested_memory_gib": 23.35}),
    "v1_tpu_models_s_max_seq_len_131072.log": ("kv_cache_too_small", {
        "max_model_len": 131072, "needed_kv_gib": 16.0, "available_kv_gib": 0.71,
        "estimated_max_model_len": 5632}),
    "v08_models_s_max_seq_len_1m_quoted.log": ("kv_cache_too_small", {
        "max_model_len": 1048576, "needed_kv_gib": 24.0, "available_kv_gib": 9.97}),
    "v010_lmcache_models_s_max_seq_len_32768.log": ("kv_cache_too_small", {
        "max_model_len": 32768, "needed_kv_gib": 4.5, "available_kv_gib": 3.58,
        "estimated_max_model_len": 26032}),
    # vLLM PR #38632: "max_num_seqs (1024) exceeds available Mamba cache blocks (600)"
    "v2026_ci_qwen35_b200_mamba_blocks_below_max_num_seqs.log": ("mamba_blocks_below_max_num_seqs", {
        "max_num_seqs": 1024, "mamba_cache_blocks": 600}),
    # spark-vllm-docker #396, quoted with "▎ ": "(196608),", "23.25 GiB KV cache is needed", "(22.5 GiB)", "190272"
    "v0291rc1_minimax_m27_awq_2xspark_tp2_quoted_kv_too_small.log": ("kv_cache_too_small", {
        "max_model_len": 196608, "needed_kv_gib": 23.25, "available_kv_gib": 22.5,
        "estimated_max_model_len": 190272}),
    "v2026_recipes_model_s_max_seq_len_1m.log": ("kv_cache_too_small", {
        "max_model_len": 1048576, "needed_kv_gib": 44.25, "available_kv_gib": 8.42,
        "estimated_max_model_len": 199552}),
    # The error line is cut by the excerpt ("(4.26 GiB KV cach"); the fixed budget line
    # says "reserved 4.25 GiB memory for KV Cache as specified by kv_cache_memory_bytes".
    "v2026_xpu_kv_cache_memory_bytes_wrapped.log": ("kv_cache_too_small", {
        "max_model_len": 100000, "available_kv_gib": 4.25}),
    "v2026_free_memory_pytorch_ci_l4.log": ("free_memory_below_utilization", {
        "free_memory_gib": 19.77, "total_gpu_memory_gib": 22.05, "gpu_memory_utilization": 0.9,
        "requested_memory_gib": 19.84}),
    "v2026_club3090_tp4_cudagraph_profiling.log": ("started", {
        "available_kv_gib": 15.72, "cudagraph_estimate_gib": 0.17, "gpu_memory_utilization": 0.92}),
    "v0271_gpustack_tp2_cudagraph_profiling.log": ("started", {
        "available_kv_gib": 6.87, "cudagraph_estimate_gib": 0.36, "gpu_memory_utilization": 0.82}),
    # "# GPU blocks: 0, # CPU blocks: 256" and the error from the issue text
    "v03_qanything_gpu_blocks_0_rtx3090.log": ("no_memory_for_cache_blocks", {
        "num_gpu_blocks": 0, "max_model_len": 4096, "tensor_parallel_size": 1, "dtype": "bfloat16",
        "enforce_eager": False}),
    "v064_no_available_memory_docker_compose.log": ("no_memory_for_cache_blocks", {}),
    # kubesimplify blog: docker run … vllm/vllm-openai:latest Qwen/Qwen3-32B --tensor-parallel-size 2
    # --gpu-memory-utilization 0.426 --max-model-len 32768; "30.59 GiB", "8.22 GiB", "67,296 tokens", "2.05x"
    "v0271_qwen3_32b_2xrtxpro6000_tp2_util0426_docker_run.log": ("started", {
        "model": "Qwen/Qwen3-32B", "tensor_parallel_size": 2, "gpu_memory_utilization": 0.426,
        "max_model_len": 32768, "model_weights_gib": 30.59, "available_kv_gib": 8.22,
        "gpu_kv_cache_tokens": 67296, "max_concurrency": 2.05}),
    # the error quoted with "..." in its middle: "(8192)," "2.0 GiB KV cache is needed" "1856", and "0.45 GiB"
    "v0280_qwen3_32b_awq_5090_8k_kv_too_small_excerpt.log": ("kv_cache_too_small", {
        "max_model_len": 8192, "needed_kv_gib": 2.0, "available_kv_gib": 0.45, "estimated_max_model_len": 1856}),
    # "Failed to load model - not enough GPU memory … Tried to allocate 112.00 MiB … capacity of 31.36 GiB"
    "v2026_gemma4_31b_nvfp4_5090_failed_to_load_model.log": ("load_out_of_memory", {
        "total_gpu_memory_gib": 31.36, "oom_tried_to_allocate_mib": 112.0}),
    # "Tried to allocate 50.00 MiB. GPU 0 has a total capacity of 23.56 GiB", then AsyncLLM's output handler fails
    "v2026_club3090_runtime_oom_output_handler.log": ("cuda_out_of_memory", {
        "total_gpu_memory_gib": 23.56, "oom_tried_to_allocate_mib": 50.0}),
    # "(104.46/121.69 GiB) … (0.87, 105.87 GiB)", wrapped after "less than"
    "v2026_glm53_flash_2xspark_free_memory_util087.log": ("free_memory_below_utilization", {
        "free_memory_gib": 104.46, "total_gpu_memory_gib": 121.69, "gpu_memory_utilization": 0.87,
        "requested_memory_gib": 105.87}),
    # --max-model-len=512 --dtype=float --enforce-eager; "total capacty of 21.67 GiB"
    "v04_runtime_oom_qwen2_7b_2080ti.log": ("cuda_out_of_memory", {
        "max_model_len": 512, "enforce_eager": True, "dtype": "float", "oom_tried_to_allocate_mib": 518.0,
        "total_gpu_memory_gib": 21.67}),
    # -tp 2 --max-model-len 15000 --gpu-memory-utilization 0.78
    "v080_sampler_oom_qwen25_32b_awq_tp2.log": ("cuda_out_of_memory", {
        "tensor_parallel_size": 2, "max_model_len": 15000, "gpu_memory_utilization": 0.78}),
    "v07_v1_llama31_70b_w8a8_gpu_blocks.log": ("started", {
        "model": "neuralmagic/Meta-Llama-3.1-70B-Instruct-quantized.w8a8", "num_gpu_blocks": 1381,
        "max_model_len": 2048, "max_concurrency": 10.79, "gpu_memory_utilization": 0.98,
        "model_weights_gib": 67.7229}),
    "v065_memory_profiling_table_llama3_8b_h100.log": ("started", {
        "model": "meta-llama/Meta-Llama-3-8B", "total_gpu_memory_gib": 79.22, "gpu_memory_utilization": 0.9,
        "requested_memory_gib": 71.29, "model_weights_gib": 14.96, "non_torch_gib": 1.79,
        "activation_peak_gib": 1.26, "available_kv_gib": 53.29}),
    "v1_capacity_two_lines_pr13596.log": ("started", {
        "gpu_kv_cache_tokens": 2042016, "max_model_len": 2048, "max_concurrency": 997.08}),
    "v066_phi4_gptq_a100_memory_profiling.log": ("started", {
        "total_gpu_memory_gib": 79.25, "gpu_memory_utilization": 0.15, "model_weights_gib": 8.51,
        "non_torch_gib": 0.26, "activation_peak_gib": 0.94, "available_kv_gib": 2.18, "num_gpu_blocks": 715,
        "max_concurrency": 5.59, "cudagraph_gib": 0.27}),
    "v014_qwen3_17b_24gb_capacity.log": ("started", {
        "available_kv_gib": 18.78, "gpu_kv_cache_tokens": 175856}),
    # --- the budget validation's logs (calc/data/validation.json); values read from each file ----------
    # llm-d 0.19 sweep, tail-only copies (no capacity lines; started per "init engine (profile,
    # create kv cache, warmup model) took"): the figures come from "Free memory on device ...
    # Actual usage is W GiB for weight ... Current kv cache memory in use is A GiB".
    "llmd_v019_llama31_8b_h100_len16k.log": ("started", {
        "available_kv_gib": 58.11, "model_weights_gib": 14.99, "gpu_memory_utilization": 0.95}),
    "llmd_v019_gemma2_9b_h100.log": ("started", {"available_kv_gib": 54.12, "model_weights_gib": 17.22}),
    "llmd_v019_gemma3_12b_h100.log": ("started", {"available_kv_gib": 47.72, "model_weights_gib": 23.31}),
    "llmd_v019_granite31_8b_h100.log": ("started", {"available_kv_gib": 58.66, "model_weights_gib": 15.25}),
    "llmd_v019_phi2_h100_len2048.log": ("started", {"available_kv_gib": 69.0, "model_weights_gib": 5.19}),
    # first and last 16k characters of long TP logs: the start and the breakdown, no capacity line
    "llmd_v019_llama33_70b_fp8_h100_tp4.log": ("started", {"available_kv_gib": 54.09, "model_weights_gib": 16.96}),
    "llmd_v019_llama4_scout_h100_tp4.log": ("started", {"available_kv_gib": 16.75, "model_weights_gib": 53.12}),
    "llmd_v019_mistral_small_w8a8_h100_tp2.log": ("started", {"available_kv_gib": 59.02, "model_weights_gib": 12.11}),
    # "Available KV cache memory: 20.59 GiB", "GPU KV cache size: 58,672 tokens"
    "llmd_v019_gemma2_27b_h100.log": ("started", {"available_kv_gib": 20.59, "gpu_kv_cache_tokens": 58672}),
    # "Available KV cache memory: 62.51 GiB", "GPU KV cache size: 468,144 tokens", "Model loading took 8.58 GiB"
    "llmd_v019_gemma3_4b_h100.log": ("started", {
        "model": "google/gemma-3-4b-it", "available_kv_gib": 62.51, "gpu_kv_cache_tokens": 468144,
        "model_weights_gib": 8.58}),
    # vLLM 0.11.0 on an L4: "Available KV cache memory: 4.75 GiB", "GPU KV cache size: 38,944 tokens"
    "v0110_llama31_8b_l4_len32000.log": ("started", {"vllm_version": "0.11.0", "model": "meta-llama/Meta-Llama-3.1-8B-Instruct", "available_kv_gib": 4.75, "gpu_kv_cache_tokens": 38944, "max_concurrency": 1.22, "max_model_len": 32000, "tensor_parallel_size": 1, "pipeline_parallel_size": 1, "kv_cache_dtype": "auto"}),
    # gpt-oss-20b, A100, 0.19.0: "Model loading took 13.72 GiB", "Available KV cache memory: 36.56 GiB"
    "v0190_gpt_oss_20b_a100_131k_util065_page_excerpt.log": ("started", {"vllm_version": "0.19.0", "model": "openai/gpt-oss-20b", "available_kv_gib": 36.56, "max_model_len": 131072, "model_weights_gib": 13.72, "gpu_memory_utilization": 0.65}),
    # gpt-oss-120b on one H100: "Available KV cache memory: 1.71 GiB" then "EngineCore failed to start."
    # The available-memory line is not a start: "EngineCore failed to start." follows it.
    "v011_gpt_oss_120b_h100_kv171.log": ("engine_failed", {"model": "openai/gpt-oss-120b", "available_kv_gib": 1.71}),
    # 0.10.1: "Model loading took 65.9651 GiB", "Available KV cache memory: -2.14 GiB"
    "v0101_gpt_oss_120b_h100_negative_kv.log": ("no_memory_for_cache_blocks", {
        "available_kv_gib": -2.14, "model_weights_gib": 65.9651}),
    # 0.13.0, a Qwen3-VL MoE checkpoint on an H100 NVL: "Model loading took 58.2299 GiB", "Available KV cache memory:
    # 19.40 GiB", "GPU KV cache size: 211,936 tokens", graphs "took 0.66 GiB"
    "v0130_qwen3vl_moe_custom_h100nvl_8k.log": ("started", {
        "vllm_version": "0.13.0", "max_model_len": 8192, "max_num_batched_tokens": 8192, "model_weights_gib": 58.2299,
        "available_kv_gib": 19.4, "gpu_kv_cache_tokens": 211936, "max_concurrency": 25.87, "cudagraph_gib": 0.66}),
    # 0.23.0, Qwen2.5-VL-7B on an A100 at 0.22: "Model loading took 15.67 GiB", "Estimated CUDA graph memory:
    # 0.53 GiB total", "Available KV cache memory: -14.28 GiB", "... equivalent to --gpu-memory-utilization=0.2133"
    "v0230_qwen25vl_7b_a100_util022_default_len_video_profile.log": ("no_memory_for_cache_blocks", {
        "vllm_version": "0.23.0", "gpu_memory_utilization": 0.22, "model_weights_gib": 15.67, "cudagraph_estimate_gib": 0.53,
        "available_kv_gib": -14.28, "gpu_memory_utilization_without_cudagraph_profiling": 0.2133}),
    # 0.11.2 on an H200: "Available KV cache memory: 105.97 GiB", "GPU KV cache size: 868,080 tokens"
    "v0112_llama3_8b_h200_len1024.log": ("started", {"vllm_version": "0.11.2", "model": "meta-llama/Meta-Llama-3-8B-Instruct", "available_kv_gib": 105.97, "gpu_kv_cache_tokens": 868080, "max_concurrency": 847.73, "max_model_len": 1024}),
    # 0.30.0 on a T4: "Free memory on device (14.46/14.56 GiB)", "Available KV cache memory: 8.67 GiB"
    "v0300_qwen25_1p5b_t4_fp16_util085_4k_v2runner.log": ("started", {"vllm_version": "0.30.0", "model": "Qwen/Qwen2.5-1.5B-Instruct", "available_kv_gib": 8.67, "gpu_kv_cache_tokens": 324704, "max_concurrency": 79.27, "max_model_len": 4096, "total_gpu_memory_gib": 14.56, "gpu_memory_utilization": 0.85}),
    # V0 0.6.4, RTX 3090: "total_gpu_memory=23.58GiB ... kv_cache_size=3.81GiB gpu_memory_utilization=0.90"
    "v064_llama31_8b_rtx3090_len20k.log": ("started", {
        "available_kv_gib": 3.81, "total_gpu_memory_gib": 23.58, "max_model_len": 20000}),
    # V0 0.7, A10: "... reserved for KV Cache is 4.60GiB", "# CUDA blocks: 2356", "... KV cache (37696)"
    "v07_llama31_8b_oci_a10_131k_kv_too_small.log": ("kv_cache_too_small", {"available_kv_gib": 4.6, "gpu_kv_cache_tokens": 37696, "max_concurrency": 0.29, "num_gpu_blocks": 2356, "max_model_len": 131072, "total_gpu_memory_gib": 22.07}),
    # V0 0.7, 2x RTX 4090: "max seq len (131072) is larger than ... KV cache (81536)"
    "v07_deepseek_r1_qwen14b_2x4090_tp2.log": ("kv_cache_too_small", {
        "max_model_len": 131072, "gpu_kv_cache_tokens": 81536, "tensor_parallel_size": 2}),
    # 0.19.0, RTX 3060 12GB: "Model loading took 1.12 GiB", "Available KV cache memory: 5.68 GiB",
    # "GPU KV cache size: 53,184 tokens"
    # 0.11.0, 4x RTX 3090, TP 4: "Model loading took 14.7708 GiB", "Available KV cache memory: 2.31 GiB",
    # "GPU KV cache size: 100,752 tokens", "num_gpu_blocks is: 6297", graphs "took 1.92 GiB"
    "v0110_qwen3vl_30b_a3b_4x3090_tp4_65k.log": ("started", {"vllm_version": "0.11.0", "available_kv_gib": 2.31, "gpu_kv_cache_tokens": 100752, "max_concurrency": 1.54, "max_model_len": 65536, "tensor_parallel_size": 4, "model_weights_gib": 14.7708, "num_gpu_blocks": 6297, "cudagraph_gib": 1.92}),
    "v0190_qwen3_0p6b_rtx3060_12gb_util06_4k_eager.log": ("started", {"vllm_version": "0.19.0", "available_kv_gib": 5.68, "gpu_kv_cache_tokens": 53184, "max_concurrency": 12.98, "max_model_len": 4096, "model_weights_gib": 1.12}),
    # V0 0.7.1, 8x A100-40GB: "total_gpu_memory (39.39GiB)", "... reserved for KV Cache is 29.02GiB"
    "v071_deepseek_coder_v2_lite_8xa100_40gb_tp8_v0.log": ("started", {"model": "/opt/ml/model", "available_kv_gib": 29.02, "max_model_len": 8192, "tensor_parallel_size": 8, "pipeline_parallel_size": 1, "kv_cache_dtype": "auto", "total_gpu_memory_gib": 39.39}),
    # --- the logs after v014 in tests/data/logs/sources.json: every value below is printed
    # in the log as it stands (GiB to 0.01, tokens with thousands separators, versions as printed);
    # two runs in one file (v010_fp8_kv) keep the first capacity line and the error's figures.
    "v2026_qwen38_27b_fp8_tp2_3090_concurrency.log": ("started", {
        "gpu_kv_cache_tokens": 302921, "max_concurrency": 2.31, "max_model_len": 131072}),
    "v2026_qwen38_flash_next_4090_tp4_pp2.log": ("started", {
        "available_kv_gib": 10.35, "gpu_kv_cache_tokens": 1676933, "max_concurrency": 6.4, "max_model_len": 262144}),
    "v0240_qwen36_35b_a3b_nvfp4_5090.log": ("started", {
        "model": "~/.cache/huggingface/qwen3.6-35b-a3b-nvfp4", "available_kv_gib": 6.01, "gpu_kv_cache_tokens": 569878,
        "max_concurrency": 4.35, "max_model_len": 131072, "kv_cache_dtype": "fp8", "enable_prefix_caching": True}),
    "v2026_xpu_hybrid_attn_block_528_pad_076.log": ("unknown", {}),
    "v011_kimi_linear_48b_awq_2x3090_tp2.log": ("started", {
        "available_kv_gib": 2.3, "gpu_kv_cache_tokens": 75840, "max_concurrency": 2.48, "max_model_len": 120000}),
    "v2026_qwen35_text_5090_1m_nvfp4kv_proto.log": ("started", {
        "gpu_kv_cache_tokens": 1823372, "max_concurrency": 1.74, "max_model_len": 1048576}),
    "v2026_qwen36_27b_fp8_2x3090_tp2_262k.log": ("started", {
        "available_kv_gib": 5.33, "gpu_kv_cache_tokens": 300220, "max_concurrency": 1.15, "max_model_len": 262144}),
    "v010_fp8_kv_max_model_len_error_25350.log": ("kv_cache_too_small", {
        "available_kv_gib": 5.59, "gpu_kv_cache_tokens": 230528, "max_concurrency": 2.31, "needed_kv_gib": 10.12,
        "estimated_max_model_len": 122080, "max_model_len": 221000}),
    "v2026_qwen36_27b_int4_2x3090_proxmox_262k.log": ("started", {
        "available_kv_gib": 11.05, "gpu_kv_cache_tokens": 623873, "max_concurrency": 2.38, "max_model_len": 262144}),
    "v2026_qwen38_27b_int4_2x5090_204k.log": ("started", {
        "available_kv_gib": 16.01, "gpu_kv_cache_tokens": 374847, "max_concurrency": 1.83, "max_model_len": 204800}),
    "v0201_qwen36_27b_int4_2x3090_mtp_fp8e5m2.log": ("started", {
        "model": "~/.cache/huggingface/qwen3.6-27b-autoround-int4", "gpu_kv_cache_tokens": 619479, "max_concurrency": 2.36,
        "max_model_len": 262144, "tensor_parallel_size": 2, "kv_cache_dtype": "fp8_e5m2"}),
    "v2026_qwen36_27b_int4_2x3090_x4x4_p2poff.log": ("started", {
        "model": "~/.cache/huggingface/qwen3.6-27b-autoround-int4", "gpu_kv_cache_tokens": 622408, "max_concurrency": 2.37,
        "max_model_len": 262144, "tensor_parallel_size": 2, "kv_cache_dtype": "fp8_e5m2"}),
    "v2026_qwen36_27b_int4_2x3090_x4x4_p2pon.log": ("started", {
        "model": "~/.cache/huggingface/qwen3.6-27b-autoround-int4", "gpu_kv_cache_tokens": 620944, "max_concurrency": 2.37,
        "max_model_len": 262144, "tensor_parallel_size": 2, "kv_cache_dtype": "fp8_e5m2"}),
    "v0201rc1dev16_qwen36_27b_int4_2x3090_dflash_180k.log": ("started", {
        "model": "~/.cache/huggingface/qwen3.6-27b-autoround-int4", "available_kv_gib": 9.74, "gpu_kv_cache_tokens": 67728,
        "max_concurrency": 1.06, "max_model_len": 180000, "tensor_parallel_size": 2}),
    "v022_dsv4_flash_2xgh200_tp2_kv_too_small.log": ("kv_cache_too_small", {
        "available_kv_gib": 5.44, "needed_kv_gib": 6.66, "estimated_max_model_len": 13528, "max_model_len": 30000}),
    "v08_v1_deepseek_v3_mi308_multi_rank.log": ("started", {
        "gpu_kv_cache_tokens": 107824, "max_concurrency": 3.29, "max_model_len": 32768}),
    "v0152rc1_qwen3_coder_30b_fp8_pp2_5070ti_5090d.log": ("kv_cache_too_small", {
        "model": "./Qwen/Qwen3-Coder-30B-A3B-Instruct-FP8", "available_kv_gib": 3.18, "needed_kv_gib": 24.0,
        "estimated_max_model_len": 34736, "max_model_len": 262144, "pipeline_parallel_size": 2}),
    "v2026_kaito_mistral_small4_119b_h100_1m_kv_too_small.log": ("kv_cache_too_small", {
        "available_kv_gib": 17.39, "needed_kv_gib": 22.5, "estimated_max_model_len": 810208, "max_model_len": 1048576}),
    "v011_lmcache_qwen3_14b_single_gpu.log": ("started", {
        "available_kv_gib": 6.51, "gpu_kv_cache_tokens": 42656, "max_concurrency": 1.3, "max_model_len": 32768}),
    "v0240_qwen36_35b_a3b_nvfp4_5090_run2.log": ("started", {
        "model": "~/.cache/huggingface/qwen3.6-35b-a3b-nvfp4", "available_kv_gib": 5.98, "gpu_kv_cache_tokens": 567978,
        "max_concurrency": 4.33, "max_model_len": 131072, "kv_cache_dtype": "fp8", "enable_prefix_caching": True}),
    "v05_deepseek_coder_v2_8xh100_tp8_max_seq_len_2368.log": ("kv_cache_too_small", {
        "gpu_kv_cache_tokens": 2368, "max_model_len": 16000}),
    "v2026_glm53_flash_2xrtxpro6000_tp2_dcp2_block7808.log": ("unknown", {}),
    "v066post1_internvl3_78b_8xl40s_tp8_v0.log": ("started", {
        "vllm_version": "0.6.6.post1", "model": "/models/internvl3-78b", "available_kv_gib": 3.09, "max_concurrency": 9.89,
        "num_gpu_blocks": 5065, "max_model_len": 8192, "tensor_parallel_size": 8, "pipeline_parallel_size": 1,
        "kv_cache_dtype": "auto", "total_gpu_memory_gib": 44.39}),
    "v082_phi4_bnb4bit_unsloth_a100_80gb_v0.log": ("started", {
        "model": "/opt/tiger/test0/Phi-4", "available_kv_gib": 45.21, "max_concurrency": 462.97, "num_gpu_blocks": 14815,
        "max_model_len": 512, "tensor_parallel_size": 1, "pipeline_parallel_size": 1, "kv_cache_dtype": "auto",
        "total_gpu_memory_gib": 79.15}),
    "v0110_qwen3vl_embedding_2b_t4_eager_pooling.log": ("started", {
        "vllm_version": "0.11.0+torch271", "model": "/root/Qwen3-VL-Embedding-2B", "available_kv_gib": 6.01,
        "gpu_kv_cache_tokens": 56288, "max_concurrency": 6.87, "max_model_len": 8192, "tensor_parallel_size": 1,
        "pipeline_parallel_size": 1, "kv_cache_dtype": "auto"}),
    "v0130nv_nemotron3_nano_4b_fp8_gb10_util015_hybrid.log": ("started", {
        "vllm_version": "0.13.0+faa43dbf.nv26.01", "model": "nvidia/NVIDIA-Nemotron-3-Nano-4B-FP8",
        "available_kv_gib": 11.15, "gpu_kv_cache_tokens": 208320, "max_concurrency": 98.2, "max_model_len": 8192,
        "tensor_parallel_size": 1, "pipeline_parallel_size": 1, "kv_cache_dtype": "fp8"}),
    "v019x_gemma4_26b_a4b_a100_131k_eager_page_excerpt.log": ("started", {
        "model": "google/gemma-4-26B-A4B", "available_kv_gib": 21.5, "max_model_len": 131072}),
    "v2026_qwen38_27b_fp8_2x5090_147k_supermax.log": ("started", {
        "available_kv_gib": 11.15, "gpu_kv_cache_tokens": 451603, "max_concurrency": 3.06, "max_model_len": 147456}),
    "v2026_qwen38_27b_fp8_2x5090_65k_ultramax.log": ("started", {
        "available_kv_gib": 11.15, "gpu_kv_cache_tokens": 214135, "max_concurrency": 3.27, "max_model_len": 65536}),
    "v0201rc1dev16_qwen36_27b_int4_2x4090_dflash_180k.log": ("started", {
        "available_kv_gib": 9.74, "gpu_kv_cache_tokens": 67728, "max_concurrency": 1.06, "max_model_len": 180000}),
    "v011x_kimi_k2_thinking_8xh200_tp8.log": ("started", {
        "available_kv_gib": 46.8, "gpu_kv_cache_tokens": 715072}),
    "v011x_kimi_k2_thinking_8xh200_tp8_dcp8.log": ("started", {
        "available_kv_gib": 46.8, "gpu_kv_cache_tokens": 5721088}),
    "v0210_qwen3_8b_rtxa5000_lmcache_cpu_offload.log": ("started", {
        "available_kv_gib": 6.37, "gpu_kv_cache_tokens": 46368, "max_concurrency": 2.83, "max_model_len": 16384}),
    "v020x_qwen36_27b_autoround_2x3090_tp2_util088_262k.log": ("started", {
        "available_kv_gib": 9.84, "gpu_kv_cache_tokens": 619202, "max_concurrency": 2.36, "max_model_len": 262144}),
    "v02xx_qwen38_27b_fp8_2x5090_tp2_util092_breakdown.log": ("unknown", {
        "available_kv_gib": 12.26, "total_gpu_memory_gib": 31.4}),
    "v0251_laguna_s21_nvfp4_dflash_gb10_65k_util089.log": ("started", {
        "vllm_version": "0.25.1", "model": "poolside/Laguna-S-2.1-NVFP4", "available_kv_gib": 6.97,
        "gpu_kv_cache_tokens": 94135, "max_concurrency": 1.44, "max_model_len": 65536}),
    "v0130_qwen25_14b_awq_rtxa5000_8k.log": ("started", {
        "vllm_version": "0.13.0", "model": "Qwen/Qwen2.5-14B-Instruct-AWQ", "available_kv_gib": 10.39,
        "gpu_kv_cache_tokens": 56736, "max_concurrency": 6.93, "max_model_len": 8192}),
    "v0102_qwen2vl_2b_rtx4080_wsl_util08_4k.log": ("started", {
        "vllm_version": "0.10.2", "model": "./models/Qwen2-VL-2B-Instruct", "available_kv_gib": 5.97,
        "gpu_kv_cache_tokens": 223712, "max_concurrency": 54.62, "max_model_len": 4096, "total_gpu_memory_gib": 15.99}),
    "v072_deepseek_coder_v2_lite_l40s_cpuoffload30_util045_100k_v0.log": ("unknown", {
        "total_gpu_memory_gib": 44.31}),
    "v0111nv2512_qwen3_8b_nvfp4_rtx5060ti_fp8kv_32k.log": ("started", {
        "vllm_version": "0.11.1+9114fd76.nv25.12", "model": "RedHatAI/Qwen3-8B-NVFP4", "available_kv_gib": 6.62,
        "gpu_kv_cache_tokens": 96464, "max_concurrency": 3.01, "max_model_len": 32000, "kv_cache_dtype": "fp8"}),
    "v0190_granite4_h_1b_rtx3060_12gb_util06_4k_eager_hybrid.log": ("started", {
        "vllm_version": "0.19.0", "model": "ibm-granite/granite-4.0-h-1b", "available_kv_gib": 4.09,
        "gpu_kv_cache_tokens": 53200, "max_concurrency": 66.95, "max_model_len": 4096, "tensor_parallel_size": 1,
        "pipeline_parallel_size": 1, "kv_cache_dtype": "auto"}),
    "v0xx_dev_mistral_small4_119b_awq_2xl40s_tp2_util082_32k_mla.log": ("started", {
        "vllm_version": "0.0.0", "model": "/models/cyankiwi/Mistral-Small-4-119B-2603-AWQ-4bit", "available_kv_gib": 1.63,
        "gpu_kv_cache_tokens": 75776, "max_concurrency": 2.31, "max_model_len": 32768, "tensor_parallel_size": 2,
        "pipeline_parallel_size": 1, "kv_cache_dtype": "auto"}),
    # non-default args: {..., 'enable_prefix_caching': True, ...}; the engine line, after "Hybrid or mamba-based
    # model detected without support for prefix caching: disabling.", prints enable_prefix_caching=False: what
    # was asked is kept (the core resolves it and prints that line itself).
    "v0130_qwen3_next_80b_awq_2xl40s_tp2_util092_fp8kv_32k_hybrid.log": ("started", {
        "vllm_version": "0.13.0", "model": "/models", "available_kv_gib": 17.58, "gpu_kv_cache_tokens": 767552,
        "max_concurrency": 84.29, "max_model_len": 32768, "tensor_parallel_size": 2, "pipeline_parallel_size": 1,
        "kv_cache_dtype": "fp8", "enable_prefix_caching": True}),
    "v0130nv2601_gpt_oss_20b_mxfp4_gb10_util025_8k.log": ("started", {
        "vllm_version": "0.13.0+faa43dbf.nv26.01", "model": "huihui-ai/Huihui-gpt-oss-20b-mxfp4-abliterated-v2",
        "available_kv_gib": 12.94, "gpu_kv_cache_tokens": 282624, "max_concurrency": 54.44, "max_model_len": 8192,
        "tensor_parallel_size": 1, "pipeline_parallel_size": 1, "kv_cache_dtype": "auto"}),
    # -- GB10 (unified memory) logs of the unified-memory fit (calc/budget/estimates.py) --
    "v0192rc1dev134_qwen36_35b_a3b_gb10_util095_131k_lmonly.log": ("started", {
        "vllm_version": "0.19.2rc1.dev134+gfe9c3d6c5", "model": "Qwen/Qwen3.6-35B-A3B", "max_model_len": 131072,
        "gpu_memory_utilization": 0.95, "enable_prefix_caching": False, "model_weights_gib": 64.69,
        "cudagraph_estimate_gib": 0.93, "available_kv_gib": 47.55, "gpu_kv_cache_tokens": 623040, "max_concurrency": 18.44,
        "cudagraph_gib": 0.1}),
    "v0130nv2601_qwen3_30b_a3b_fp8_gb10_util03_fp8kv_32k.log": ("started", {
        "vllm_version": "0.13.0+faa43dbf.nv26.01", "model": "Qwen/Qwen3-30B-A3B-FP8", "max_model_len": 32768,
        "gpu_memory_utilization": 0.3, "kv_cache_dtype": "fp8", "enable_prefix_caching": True,
        "max_num_batched_tokens": 2048, "model_weights_gib": 29.0435, "available_kv_gib": 4.04,
        "gpu_kv_cache_tokens": 88176, "max_concurrency": 2.69, "cudagraph_gib": 1.28}),
    "v0130nv2601_qwen25_14b_fp8dyn_gb10_util04_fp8kv_32k_warm.log": ("started", {
        "vllm_version": "0.13.0+faa43dbf.nv26.01", "model": "neuralmagic/Qwen2.5-14B-Instruct-FP8-dynamic",
        "max_model_len": 32768, "kv_cache_dtype": "fp8", "model_weights_gib": 15.2227, "available_kv_gib": 30.46,
        "gpu_kv_cache_tokens": 332672, "max_concurrency": 10.15, "cudagraph_gib": 0.85}),
    "v0130nv2601_qwen25_14b_fp8dyn_gb10_util015_fp8kv_32k_no_memory.log": ("no_memory_for_cache_blocks", {
        "vllm_version": "0.13.0+faa43dbf.nv26.01", "model": "neuralmagic/Qwen2.5-14B-Instruct-FP8-dynamic",
        "max_model_len": 32768, "kv_cache_dtype": "fp8", "model_weights_gib": 15.2227, "available_kv_gib": -1.3}),
    # the held-out logs (calc/data/holdout.json); every value is printed in the log
    "v092_qwen3_8b_a100_40gb_defaults_40k.log": ("started", {
        "vllm_version": "0.9.2", "model": "Qwen/Qwen3-8B", "max_model_len": 40960, "max_num_batched_tokens": 2048,
        "model_weights_gib": 15.2683, "available_kv_gib": 18.69, "gpu_kv_cache_tokens": 136080, "max_concurrency": 3.32,
        "num_gpu_blocks": 8505}),
    "v0191_qwen3_8b_a100_40gb_defaults_40k.log": ("started", {
        "vllm_version": "0.19.1", "model": "Qwen/Qwen3-8B", "max_model_len": 40960, "model_weights_gib": 15.27,
        "available_kv_gib": 19.36, "gpu_kv_cache_tokens": 140960, "max_concurrency": 3.44}),
    "v0102_qwen3_next_80b_2xh200_tp2_defaults_262k.log": ("started", {
        "vllm_version": "0.10.2", "tensor_parallel_size": 2, "max_model_len": 262144, "max_num_batched_tokens": 8192,
        "available_kv_gib": 44.59, "gpu_kv_cache_tokens": 973760, "max_concurrency": 14.77, "total_gpu_memory_gib": 139.81,
        "gpu_memory_utilization": 0.9, "activation_peak_gib": 5.58, "non_torch_gib": 1.38}),
    # vLLM 0.27-0.31 logs (sources.json): every figure each prints, read off the log by hand
    "r19_v0310_llama31_8b_a100_defaults_131k.log": ("started", {
        "model_weights_gib": 15.0, "gpu_kv_cache_tokens": 460496, "max_model_len": 131072, "max_concurrency": 3.51,
        "free_memory_gib": 78.84, "total_gpu_memory_gib": 79.25, "gpu_memory_utilization": 0.92,
        "requested_memory_gib": 72.91, "consumed_memory_gib": 15.26, "activation_peak_gib": 1.44, "cudagraph_gib": 0.23,
        "available_kv_gib": 56.21}),
    "r19_v0310_qwen25_7b_awq_h200_4k.log": ("started", {
        "vllm_version": "0.31.0", "model": "Qwen/Qwen2.5-7B-Instruct-AWQ", "model_weights_gib": 5.38,
        "available_kv_gib": 34.79, "gpu_kv_cache_tokens": 651504, "max_model_len": 4096, "max_concurrency": 159.06}),
    "r19_v0281rc1_qwen25_1p5b_tu102_fp16_eager_4k.log": ("started", {
        "vllm_version": "0.28.1rc1.dev50+gcac8a75a7.d20260828", "dtype": "float16", "max_model_len": 4096,
        "enable_prefix_caching": False, "gpu_memory_utilization": 0.9, "enforce_eager": True,
        "max_num_batched_tokens": 8192, "model_weights_gib": 2.98, "available_kv_gib": 17.36,
        "gpu_kv_cache_tokens": 650208, "max_concurrency": 158.74, "free_memory_gib": 23.3, "total_gpu_memory_gib": 23.47,
        "requested_memory_gib": 21.12, "consumed_memory_gib": 3.25, "activation_peak_gib": 0.5, "cudagraph_gib": 0.0,
        "suggested_kv_cache_memory_bytes": 18485812532, "full_kv_cache_memory_bytes": 20830611968}),
    "r19_v0271_qwen25_0p5b_4090wsl_util085_2k_nvcc_missing.log": ("engine_failed", {
        "vllm_version": "0.27.1", "model": "Qwen/Qwen2.5-0.5B-Instruct", "max_model_len": 2048,
        "gpu_memory_utilization": 0.85, "model_weights_gib": 0.93, "available_kv_gib": 18.65,
        "gpu_kv_cache_tokens": 1629520, "cudagraph_gib": 0.37, "free_memory_gib": 22.45, "total_gpu_memory_gib": 23.99,
        "requested_memory_gib": 20.39, "consumed_memory_gib": 1.49, "activation_peak_gib": 0.25,
        "suggested_kv_cache_memory_bytes": 19468210074, "full_kv_cache_memory_bytes": 21679683072}),
    "r19_v0271_qwen25_0p5b_4090wsl_util085_2k_flashinfer_jit.log": ("engine_failed", {
        "vllm_version": "0.27.1", "model": "Qwen/Qwen2.5-0.5B-Instruct", "max_model_len": 2048,
        "gpu_memory_utilization": 0.85, "model_weights_gib": 0.93, "available_kv_gib": 18.65,
        "gpu_kv_cache_tokens": 1629520, "cudagraph_gib": 0.18, "free_memory_gib": 22.45, "total_gpu_memory_gib": 23.99,
        "requested_memory_gib": 20.39, "consumed_memory_gib": 1.49, "activation_peak_gib": 0.25,
        "suggested_kv_cache_memory_bytes": 19674042266, "full_kv_cache_memory_bytes": 21885515264}),
    # the args echo is cut mid-dict ('cudagr'): the settings before the cut are read
    "r19_v0280_qwen38_27b_w4a16_3090_fp8kv_align_131k.log": ("started", {
        "vllm_version": "0.28.0", "max_model_len": 131072, "gpu_memory_utilization": 0.96, "kv_cache_dtype": "fp8",
        "enable_prefix_caching": True, "mamba_ssm_cache_dtype": "float16", "mamba_cache_mode": "align",
        "max_num_batched_tokens": 2048, "max_num_seqs": 64, "quantization": "compressed-tensors",
        "gpu_kv_cache_tokens": 215112, "max_concurrency": 1.64}),
    "r19_v0271_qwen38_27b_nvfp4_gb10_fp8kv_917k_free_memory.log": ("free_memory_below_utilization", {
        "vllm_version": "0.27.1", "max_model_len": 917504, "kv_cache_dtype": "fp8", "quantization": "compressed-tensors",
        "free_memory_gib": 65.74, "total_gpu_memory_gib": 119.63, "gpu_memory_utilization": 0.92,
        "requested_memory_gib": 110.06}),
    "r19_v0271_qwen38_27b_gb10_util092_786k.log": ("started", {
        "vllm_version": "0.27.1", "max_model_len": 786432, "enable_prefix_caching": False, "gpu_memory_utilization": 0.92,
        "model_weights_gib": 51.35, "cudagraph_estimate_gib": 1.94, "available_kv_gib": 50.29,
        "gpu_memory_utilization_without_cudagraph_profiling": 0.9038, "gpu_kv_cache_tokens": 820013,
        "max_concurrency": 1.04, "cudagraph_gib": 0.94, "free_memory_gib": 112.26, "total_gpu_memory_gib": 119.63,
        "requested_memory_gib": 110.06, "consumed_memory_gib": 55.99, "activation_peak_gib": 3.78,
        "suggested_kv_cache_memory_bytes": 52830620611, "full_kv_cache_memory_bytes": 55188796928}),
    "r19_v0271_qwen38_27b_gb10_32k_block784_ninja_missing.log": ("engine_failed", {
        "vllm_version": "0.27.1", "max_model_len": 32768, "enable_prefix_caching": False, "model_weights_gib": 51.1,
        "hybrid_attention_block_size": 784, "mamba_page_padding_pct": 0.13}),
    "r19_v0271_qwen38_27b_gb10_32k_started.log": ("started", {
        "vllm_version": "0.27.1", "max_model_len": 32768, "enable_prefix_caching": False, "mamba_page_padding_pct": 0.13,
        "cudagraph_estimate_gib": 1.56, "available_kv_gib": 51.7, "gpu_memory_utilization": 0.92,
        "gpu_memory_utilization_without_cudagraph_profiling": 0.907, "gpu_kv_cache_tokens": 786432,
        "max_concurrency": 24.0}),
    # the start-up summary wrapped over three lines by the article's author
    "r19_v0291_gemma4_e2b_mi300x_32k.log": ("started", {
        "available_kv_gib": 155.04, "gpu_kv_cache_tokens": 9026017, "max_model_len": 32768, "max_concurrency": 275.45,
        "free_memory_gib": 191.36, "total_gpu_memory_gib": 191.69, "gpu_memory_utilization": 0.9,
        "requested_memory_gib": 172.52, "consumed_memory_gib": 11.88, "activation_peak_gib": 5.59, "cudagraph_gib": 3.9}),
    "r19_v0291rc1_qwen38_27b_fp8_gb10_hidden_state_block800.log": ("unknown", {
        "vllm_version": "0.29.1rc1.dev533+g1ea7c63f4", "hybrid_attention_block_size": 800}),
    "r19_v0290_mtp3_kv_cache_memory_bytes_98k_summary.log": ("started", {
        "vllm_version": "0.29.0", "free_memory_gib": 31.17, "available_kv_gib": 1.62, "kv_cache_memory_fixed": True,
        "gpu_kv_cache_tokens": 112347,
        "max_model_len": 98304, "max_concurrency": 1.14}),
    "r19_v0290_kv_cache_memory_bytes_200k_summary.log": ("started", {
        "vllm_version": "0.29.0", "free_memory_gib": 31.17, "available_kv_gib": 3.0, "kv_cache_memory_fixed": True,
        "gpu_kv_cache_tokens": 236090,
        "max_model_len": 200000, "max_concurrency": 1.18}),
    "r19_v0281dev_opt125m_cpu_2k.log": ("started", {
        "vllm_version": "0.28.1.dev202608260651", "dtype": "bfloat16", "max_model_len": 2048,
        "enable_prefix_caching": False, "max_num_seqs": 1, "gpu_kv_cache_tokens": 29056, "max_concurrency": 14.19}),
    "r19_v03xx_gdn_hybrid_mtp3_5090_kv5gib_groups.log": ("started", {
        "model_weights_gib": 19.84, "hybrid_attention_block_size": 2848, "free_memory_gib": 30.16, "available_kv_gib": 5.0,
        "kv_cache_memory_fixed": True, "num_padding_layers": 3, "gpu_kv_cache_tokens": 202950, "max_model_len": 131072,
        "max_concurrency": 1.55, "kv_cache_group_block_sizes": "2848, 2848, 2848, 2848", "cudagraph_gib": 0.2}),
    # the 2026-12-02 held-out batch (dennislee22/vLLM-benchmarking, 0.10.1.1 on A100): each value is printed in the
    # log; where the log's own 140-column wrap splits the args line, its flags are not read from it
    "h20-v01011_qwen2_7b_a100_80gb_util025_16k.log": ("started", {
        "vllm_version": "0.10.1.1", "model": "Qwen2-7B-Instruct", "max_model_len": 16384, "max_num_batched_tokens": 2048,
        "model_weights_gib": 14.2488, "available_kv_gib": 5.01, "gpu_kv_cache_tokens": 93872, "max_concurrency": 5.73}),
    "h20-v01011_qwen2_7b_a100_80gb_util05_16k.log": ("started", {
        "vllm_version": "0.10.1.1", "model": "Qwen2-7B-Instruct", "max_model_len": 16384, "max_num_batched_tokens": 2048,
        "model_weights_gib": 14.2488, "available_kv_gib": 24.83, "gpu_kv_cache_tokens": 464848, "max_concurrency": 28.37}),
    "h20-v01011_qwen2_7b_2xa100_80gb_tp2_util025_16k.log": ("started", {
        "vllm_version": "0.10.1.1", "model": "Qwen2-7B-Instruct", "max_model_len": 16384, "tensor_parallel_size": 2,
        "gpu_memory_utilization": 0.25, "model_weights_gib": 7.1217, "available_kv_gib": 12.02,
        "gpu_kv_cache_tokens": 450192, "max_concurrency": 27.48, "num_gpu_blocks": 28137}),
    "h20-v01011_qwen2_7b_2xa100_80gb_tp2_util05_16k.log": ("started", {
        "vllm_version": "0.10.1.1", "model": "Qwen2-7B-Instruct", "max_model_len": 16384, "model_weights_gib": 7.1217,
        "available_kv_gib": 31.83, "gpu_kv_cache_tokens": 1192160, "max_concurrency": 72.76}),
    "h20-v01011_qwen2_7b_2xa100_40gb_tp2_2nodes_util05_16k.log": ("started", {
        "vllm_version": "0.10.1.1", "model": "Qwen2-7B-Instruct", "max_model_len": 16384, "model_weights_gib": 7.1217,
        "available_kv_gib": 11.03, "gpu_kv_cache_tokens": 412944, "max_concurrency": 25.2}),
    "h20-v01011_gpt_oss_120b_4xa100_80gb_tp4_4nodes_util08_16k.log": ("started", {
        "vllm_version": "0.10.1.1", "model": "gpt-oss-120b", "max_model_len": 16384, "tensor_parallel_size": 4,
        "gpu_memory_utilization": 0.8, "quantization": "mxfp4", "model_weights_gib": 17.2217, "available_kv_gib": 45.32,
        "gpu_kv_cache_tokens": 2640144, "max_concurrency": 284.25, "num_gpu_blocks": 330018}),
    # the second 2026-12-02 held-out batch (leadawon/LAMBO on 4x RTX 3090, Zzsf11/VideoCuttingAgent on H100,
    # DaisukeTakai/eval_dataset on 8x H100); each value is printed in the log
    "h20-v0190_qwen35_9b_4x3090_tp4_32k.log": ("cuda_out_of_memory", {
        "vllm_version": "0.19.0", "max_model_len": 32768, "tensor_parallel_size": 4, "model_weights_gib": 4.52,
        "cudagraph_estimate_gib": 3.65, "available_kv_gib": 15.36, "gpu_kv_cache_tokens": 502656, "max_concurrency": 57.74}),
    "h20-v0190_qwen35_27b_4x3090_tp4_eager_32k.log": ("started", {
        "vllm_version": "0.19.0", "max_model_len": 32768, "enforce_eager": True, "tensor_parallel_size": 4,
        "model_weights_gib": 13.01, "available_kv_gib": 7.0, "gpu_kv_cache_tokens": 114464, "max_concurrency": 12.98}),
    "h20-v0190_qwen35_27b_4x3090_tp4_eager_util092_32k.log": ("started", {
        "vllm_version": "0.19.0", "max_model_len": 32768, "gpu_memory_utilization": 0.92, "model_weights_gib": 13.01,
        "available_kv_gib": 7.47, "gpu_kv_cache_tokens": 122304, "max_concurrency": 13.87}),
    "h20-v0190_qwen35_27b_4x3090_tp4_eager_util092_seqs1_50k.log": ("started", {
        "vllm_version": "0.19.0", "max_model_len": 50000, "gpu_memory_utilization": 0.92, "max_num_seqs": 1,
        "model_weights_gib": 13.01, "available_kv_gib": 7.56, "gpu_kv_cache_tokens": 123088, "max_concurrency": 9.42}),
    "h20-v0181_qwen25_32b_4x3090_tp4_eager_util088_seqs1_32k.log": ("started", {
        "vllm_version": "0.18.1", "max_model_len": 32768, "gpu_memory_utilization": 0.88, "max_num_seqs": 1,
        "max_num_batched_tokens": 2048, "model_weights_gib": 15.39, "available_kv_gib": 5.24,
        "gpu_kv_cache_tokens": 85760, "max_concurrency": 2.62}),
    "h20-v0120_qwen3_30b_a3b_2xh100_tp2_seqs64_40k.log": ("started", {
        "vllm_version": "0.12.0", "max_model_len": 40960, "tensor_parallel_size": 2, "max_num_seqs": 64,
        "model_weights_gib": 28.4571, "available_kv_gib": 41.68, "gpu_kv_cache_tokens": 910464, "max_concurrency": 22.23}),
    "h20-v0120_qwen3vl_30b_a3b_2xh100_tp2_seqs64_64k.log": ("started", {
        "vllm_version": "0.12.0", "max_model_len": 65536, "tensor_parallel_size": 2, "max_num_seqs": 64,
        "model_weights_gib": 29.3114, "available_kv_gib": 38.15, "gpu_kv_cache_tokens": 833344, "max_concurrency": 12.72}),
    "h20-v0120_qwen3vl_30b_a3b_2xh100_tp2_64k.log": ("started", {
        "vllm_version": "0.12.0", "max_model_len": 65536, "tensor_parallel_size": 2, "model_weights_gib": 29.3115,
        "available_kv_gib": 37.23, "gpu_kv_cache_tokens": 813152, "max_concurrency": 12.41}),
    # eight workers print eight Available lines (55.62 six times, 55.71, 56.08) and 0.10.0 prints a capacity line
    # for each: the reader keeps the least available figure and the last capacity line it meets
    "h20-v0100_qwen3_32b_8xh100_tp8_fp8kv_32k.log": ("started", {
        "vllm_version": "0.10.0", "max_model_len": 32768, "tensor_parallel_size": 8, "kv_cache_dtype": "fp8",
        "model_weights_gib": 7.6871, "available_kv_gib": 55.62, "gpu_kv_cache_tokens": 3650960,
        "max_concurrency": 111.42}),
    # the third 2026-12-02 held-out batch (ilseokoh/vllm-gce on one A100 40GB,
    # samilazrak/vllm-optimization-lab on one L40S); each value is printed in the log
    "h20b-v0151_llama31_8b_a100_40gb_eager_defaults_131k.log": ("started", {
        "vllm_version": "0.15.1", "max_model_len": 131072, "enforce_eager": True,
        "max_num_batched_tokens": 8192, "model_weights_gib": 14.99, "available_kv_gib": 19.28,
        "gpu_kv_cache_tokens": 157936, "max_concurrency": 1.2}),
    "h20b-v0290_qwen3_14b_l40s_defaults_40k.log": ("started", {
        "vllm_version": "0.29.0", "model": "Qwen/Qwen3-14B", "max_model_len": 40960,
        "model_weights_gib": 27.52, "available_kv_gib": 11.06, "gpu_memory_utilization": 0.92,
        "gpu_kv_cache_tokens": 72496, "max_concurrency": 1.77, "total_gpu_memory_gib": 44.39,
        "activation_peak_gib": 1.99}),
    # the 2026-12-04 held-out batch: every value below is printed in the log
    "h20c-v0180_qwen35_9b_a100_40gb_8k.log": ("started", {
        "vllm_version": "0.18.0", "model": "Qwen/Qwen3.5-9B", "max_model_len": 8192,
        "max_num_batched_tokens": 2048, "model_weights_gib": 17.66, "available_kv_gib": 15.85,
        "gpu_kv_cache_tokens": 129360, "max_concurrency": 51.74, "cudagraph_gib": 0.57}),
    "h20c-v0271_qwen36_27b_2xa100_80gb_tp2_65k.log": ("started", {
        "vllm_version": "0.27.1", "max_model_len": 65536, "tensor_parallel_size": 2,
        "model_weights_gib": 25.69, "available_kv_gib": 44.73, "gpu_kv_cache_tokens": 1407894,
        "max_concurrency": 21.48, "gpu_memory_utilization": 0.92, "total_gpu_memory_gib": 79.25,
        "activation_peak_gib": 2.32, "cudagraph_gib": 1.01}),
    "h20c-v0100_qwen3_14b_a100_80gb_32k.log": ("started", {
        "vllm_version": "0.10.0", "max_model_len": 32768, "max_num_batched_tokens": 2048,
        "model_weights_gib": 27.5185, "available_kv_gib": 42.44, "gpu_kv_cache_tokens": 278144,
        "max_concurrency": 8.49, "num_gpu_blocks": 17384, "cudagraph_gib": 2.49}),
    "h20c-v0280_qwen3_14b_l40s_defaults_40k.log": ("started", {
        "model_weights_gib": 27.52, "available_kv_gib": 11.57, "gpu_kv_cache_tokens": 75824,
        "max_concurrency": 1.85, "max_model_len": 40960}),
    "h20c-v0190_qwen25_72b_4xl40s_tp4_8k.log": ("started", {
        "vllm_version": "0.19.0", "model": "Qwen/Qwen2.5-72B-Instruct", "max_model_len": 8192,
        "tensor_parallel_size": 4, "model_weights_gib": 33.98, "available_kv_gib": 5.11,
        "gpu_kv_cache_tokens": 67024, "max_concurrency": 8.18, "cudagraph_gib": 2.62}),
    "h20c-v0190_qwen35_9b_l40s_offline_262k.log": ("started", {
        "vllm_version": "0.19.0", "model": "Qwen/Qwen3.5-9B", "max_model_len": 262144,
        "max_num_batched_tokens": 8192, "model_weights_gib": 17.66, "available_kv_gib": 20.27,
        "gpu_kv_cache_tokens": 165792, "max_concurrency": 2.52, "cudagraph_gib": 0.65}),
    "h20c-v0901_qwen25vl_7b_l4_2k.log": ("started", {
        "vllm_version": "0.9.0.1", "max_model_len": 2048, "max_num_batched_tokens": 2048,
        "model_weights_gib": 15.6271, "available_kv_gib": 1.81, "gpu_kv_cache_tokens": 33824,
        "max_concurrency": 16.52, "num_gpu_blocks": 2114, "cudagraph_gib": 0.51}),
    # the 2026-12-04b batch
    "h20d-v0220_qwen3_8b_2xt4_tp2_eager_util085_8k.log": ("started", {
        "vllm_version": "0.22.0", "max_model_len": 8192, "tensor_parallel_size": 2,
        "gpu_memory_utilization": 0.85, "enforce_eager": True, "max_num_batched_tokens": 8192,
        "model_weights_gib": 7.64, "available_kv_gib": 4.11, "gpu_kv_cache_tokens": 59856,
        "max_concurrency": 7.31}),
    # "Model loading took 7.5552 GiB", and the 'Actual usage' line's "7.56 GiB for weight"
    "h20d-v0102_qwen3_4b_h100_defaults_40k.log": ("started", {
        "vllm_version": "0.10.2", "model": "Qwen/Qwen3-4B", "max_model_len": 40960,
        "model_weights_gib": 7.56, "available_kv_gib": 58.05, "gpu_kv_cache_tokens": 422672,
        "max_concurrency": 10.32, "total_gpu_memory_gib": 79.18, "activation_peak_gib": 5.59}),
}


def test_every_corpus_log_has_an_expectation() -> None:
    names = {p.name for p in LOGS.glob("*.log")}
    assert names == set(EXPECTED)
    index = json.loads((LOGS / "sources.json").read_text(encoding="utf-8"))
    assert {row["file"] for row in index} == names
    # a public address, or (one staged row) a code-search hit id where the index did not name the file
    assert all(row["source_url"].startswith(("https://", "find_string hit id ")) for row in index)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_corpus_log(name: str) -> None:
    diagnosis, expected = EXPECTED[name]
    reading = parse_log((LOGS / name).read_text(encoding="utf-8"))
    assert reading.diagnosis == diagnosis
    for key, value in expected.items():
        assert reading.facts.get(key) == value, key
    # Every fact and the diagnosis point at a line of the log.
    keys = [k for k, _ in reading.evidence]
    # ... except "unknown", which no line states (block-size lines only, or a log cut before the KV lines)
    assert set(keys) == set(reading.facts) | ({"diagnosis"} if reading.diagnosis != "unknown" else set())


def test_corpus_counts_by_diagnosis() -> None:
    counts: dict[str, int] = {}
    for diagnosis, _ in EXPECTED.values():
        counts[diagnosis] = counts.get(diagnosis, 0) + 1
    # 39 logs: at least two of every failure and ten that start with a breakdown.
    assert counts["kv_cache_too_small"] >= 7
    assert counts["no_memory_for_cache_blocks"] >= 2
    assert counts["free_memory_below_utilization"] >= 2
    assert counts["cuda_out_of_memory"] >= 3
    assert counts["started"] >= 20


# --- synthetic edge cases ------------------------------------------------------

KV_ERROR = (
    "ValueError: To serve at least one request with the model's max seq len (32768), "
    "(4.5 GiB KV cache is needed, which is larger than the available KV cache memory (4.0 GiB). "
    "Based on the available memory, the estimated maximum model length is 29120. Try increasing "
    "`gpu_memory_utilization` (which also controls CPU memory on the CPU backend) or decreasing "
    "`max_model_len` when initializing the engine."
)


def test_error_wins_over_started_ansi_prefix_and_crlf() -> None:
    text = (
        "\x1b[1;36m(EngineCore_DP0 pid=12)\x1b[0m INFO 08-01 10:00:00 [gpu_worker.py:1] "
        "Available KV cache memory: 4.0 GiB\r\n"
        f"(EngineCore_DP0 pid=12) ERROR 08-01 10:00:01 [core.py:2] {KV_ERROR}\r\n"
    )
    reading = parse_log(text)
    assert reading.diagnosis == "kv_cache_too_small"
    # spec section 14: 4.5 GiB needed, 4.0 available, estimate 29,120 for Qwen3-8B at 32K
    assert reading.facts["needed_kv_gib"] == 4.5
    assert reading.facts["available_kv_gib"] == 4.0
    assert reading.facts["estimated_max_model_len"] == 29120
    assert reading.facts["max_model_len"] == 32768
    assert dict(reading.evidence)["diagnosis"].endswith("when initializing the engine.")


def test_error_wrapped_by_github_at_a_space_and_mid_word() -> None:
    at_space = "ValueError: To serve at least one request with the model's max seq len (131072),\n16.0 GiB KV cache is needed, which is larger than the available KV cache memory (8.99 GiB).\n"
    mid_word = "ValueError: To serve at least one request with the model's max seq len (100000), (4.26 GiB KV cach\ne is needed, which is larger than the available KV cache memory (4.25 GiB). Based on the avai\nlable memory, the estimated maximum model length is 99808.\n"
    a, b = parse_log(at_space), parse_log(mid_word)
    assert (a.diagnosis, a.facts["needed_kv_gib"], a.facts["available_kv_gib"]) == ("kv_cache_too_small", 16.0, 8.99)
    assert (b.facts["needed_kv_gib"], b.facts["available_kv_gib"], b.facts["estimated_max_model_len"]) == (4.26, 4.25, 99808)


def test_command_line_flags_and_continuations() -> None:
    text = (
        "vllm serve Qwen/Qwen3-8B \\\n"
        "  --max-model-len 32K --tensor-parallel-size=2 -pp 2 \\\n"
        "  --kv-cache-dtype fp8 --max_num_seqs 64 --enforce-eager --block-size 32\n"
    )
    facts = parse_log(text).facts
    # 32K = 32 x 1024 = 32768 (vLLM's binary suffix)
    assert facts == {
        "model": "Qwen/Qwen3-8B", "max_model_len": 32768, "tensor_parallel_size": 2,
        "pipeline_parallel_size": 2, "kv_cache_dtype": "fp8", "max_num_seqs": 64,
        "enforce_eager": True, "block_size": 32,
    }
    # A command with no line vLLM printed was not run yet: a pre-flight plan of its settings (it was "unknown").
    assert parse_log(text).diagnosis == "pre_flight"


def test_engine_config_beats_command_line() -> None:
    text = (
        "vllm serve m --max-model-len 65536\n"
        "INFO 01-01 00:00:00 [core.py:1] Initializing a V1 LLM engine (v0.10.1) with config: "
        "model='m', dtype=torch.float16, max_seq_len=40960, tensor_parallel_size=1, quantization=None\n"
    )
    facts = parse_log(text).facts
    assert facts["max_model_len"] == 40960
    assert facts["vllm_version"] == "0.10.1"
    assert facts["dtype"] == "float16"
    assert "quantization" not in facts


def test_one_line_capacity_format() -> None:
    line = ("(EngineCore pid=1) INFO 08-14 10:00:00 [kv_cache_utils.py:1229] GPU KV cache size: "
            "436,896 tokens, Maximum concurrency for 32,768 tokens per request: 13.33x")
    reading = parse_log(line)
    assert reading.diagnosis == "started"
    assert (reading.facts["gpu_kv_cache_tokens"], reading.facts["max_model_len"],
            reading.facts["max_concurrency"]) == (436896, 32768, 13.33)


def test_negative_budget_means_no_memory_for_cache_blocks() -> None:
    line = ("INFO 01-01 worker.py:295] model weights take 6.59GiB; non_torch_memory takes 8.29GiB; "
            "PyTorch activation peak memory takes 4.93GiB; the rest of the memory reserved for KV Cache is -7.83GiB.")
    reading = parse_log(line)
    assert reading.diagnosis == "no_memory_for_cache_blocks"
    assert reading.facts["available_kv_gib"] == -7.83


def test_new_suggestion_line() -> None:
    line = ("(EngineCore pid=1) INFO [gpu_worker.py:804] Free memory on device (15.28/15.51 GiB) on startup. "
            "Desired GPU memory utilization is (0.92, 14.27 GiB). Actual usage is 10.47 GiB for consumed memory "
            "(weights + non-torch), 0.79 GiB for peak activation, and 0.04 GiB for CUDAGraph memory. Replace "
            "gpu_memory_utilization config with `--kv-cache-memory=3031561913` (2.82 GiB) to fit into requested "
            "memory, or `--kv-cache-memory=4121221120` (3.84 GiB) to fully utilize gpu memory. Current kv cache "
            "memory in use is 3.01 GiB.")
    facts = parse_log(line).facts
    assert facts["consumed_memory_gib"] == 10.47
    assert facts["activation_peak_gib"] == 0.79
    assert facts["cudagraph_gib"] == 0.04
    assert facts["free_memory_gib"] == 15.28
    assert facts["requested_memory_gib"] == 14.27
    assert facts["suggested_kv_cache_memory_bytes"] == 3031561913
    assert facts["available_kv_gib"] == 3.01
    # this informational line is not the start-up failure of the same name
    assert parse_log(line).diagnosis == "unknown"


def test_empty_and_plain_text() -> None:
    assert parse_log("") == LogReading(diagnosis="unknown", facts={}, evidence=())
    assert parse_log("hello\nworld\n").diagnosis == "unknown"
    assert set(DIAGNOSES) == {"kv_cache_too_small", "no_memory_for_cache_blocks",
                              "free_memory_below_utilization", "cuda_out_of_memory", "engine_failed",
                              "started", "unknown", "load_out_of_memory", "pre_flight",
                              "mamba_blocks_below_max_num_seqs"}


def test_five_megabytes_of_random_bytes_is_unknown() -> None:
    # Speed is measured by bench/core_bench.py (parse_log of 5 MB of random bytes), not asserted here.
    data = os.urandom(5 * 1024 * 1024).decode("utf-8", errors="replace")
    assert parse_log(data).diagnosis == "unknown"


def test_adversarial_repetition_stays_linear() -> None:
    # Anchors on every line and long runs of digits/spaces: the shapes that make
    # backtracking regexes explode.
    rng = random.Random(7)
    line = "GiB KV memory Free memory on device (" + "9" * 2000 + " " * 2000 + "x\n"
    text = "".join(line if rng.random() < 0.5 else "vllm serve --max-model-len " + "1" * 3000 + "\n"
                   for _ in range(400))
    # No complete vLLM message in there; that it stays linear is timed by bench/core_bench.py.
    assert parse_log(text).diagnosis == "unknown"


def test_non_default_args_with_string_values_are_read() -> None:
    # vLLM 0.24.0 (tests/data/logs/v0240_qwen36_35b_a3b_nvfp4_5090.log): every real args dict holds
    # strings; the literal pre-check once refused them all (each string became '' and ' was not allowed)
    line = ("(APIServer pid=1) INFO 07-09 02:56:25 [api_utils.py:273] non-default args: {'model_tag': 'x', "
            "'default_chat_template_kwargs': {'enable_thinking': False}, 'max_model_len': 131072, "
            "'quantization': 'modelopt', 'kv_cache_dtype': 'fp8', 'max_num_seqs': 1}\n")
    facts = parse_log(line).facts
    assert (facts["max_model_len"], facts["quantization"], facts["kv_cache_dtype"], facts["max_num_seqs"]) == (
        131072, "modelopt", "fp8", 1)
    # names outside strings are still refused before ast.literal_eval
    assert "max_model_len" not in parse_log("non-default args: {'max_model_len': 'a'__import__}\n").facts


def test_mamba_cache_settings_are_read() -> None:
    # A hybrid's blocks per request depend on prefix caching ('align' pins 2 states per Mamba group, 'none' 1):
    # vllm/config/cache.py CacheConfig enable_prefix_caching, mamba_cache_mode, mamba_ssm_cache_dtype.
    args = ("(APIServer pid=1) INFO non-default args: {'model': 'm', 'enable_prefix_caching': True, "
            "'mamba_cache_mode': 'align', 'mamba_ssm_cache_dtype': 'float32'}\n")
    facts = parse_log(args).facts
    assert (facts["enable_prefix_caching"], facts["mamba_cache_mode"], facts["mamba_ssm_cache_dtype"]) == (
        True, "align", "float32")
    command = "vllm serve m --no-enable-prefix-caching --mamba_cache_mode none --mamba-ssm-cache-dtype bfloat16\n"
    facts = parse_log(command).facts
    assert (facts["enable_prefix_caching"], facts["mamba_cache_mode"], facts["mamba_ssm_cache_dtype"]) == (
        False, "none", "bfloat16")
    assert parse_log("vllm serve m --enable-prefix-caching --max-model-len 4096\n").facts["enable_prefix_caching"] is True
    # The engine line's resolved value serves only when nothing says what was asked, in either order.
    engine = ("(EngineCore_DP0 pid=7) INFO [core.py:93] Initializing a V1 LLM engine (v0.13.0) with config: "
              "model='m', enable_prefix_caching=False, chunked_prefill_enabled=True\n")
    assert parse_log(engine).facts["enable_prefix_caching"] is False
    assert parse_log(engine + args).facts["enable_prefix_caching"] is True
    assert parse_log(args + engine).facts["enable_prefix_caching"] is True


# --- lines added with DCP and auto-fit (formats from vLLM's source, notes section 7) -----------

def test_auto_fit_line_gives_the_chosen_length_and_the_available_memory() -> None:
    # kv_cache_utils._auto_fit_max_model_len (0.14.0+): "reduced from %d to %d ... (%s GiB available ...)"
    line = ("(EngineCore_DP0 pid=7) INFO 01-10 10:00:00 [kv_cache_utils.py:1302] Auto-fit max_model_len: "
            "reduced from 262144 to 94208 to fit in available GPU memory (12.5 GiB available for KV cache)")
    r = parse_log("(APIServer pid=1) INFO non-default args: {'max_model_len': -1}\n" + line)
    assert r.facts["max_model_len"] == 94208          # Y, not the -1 the user passed
    assert r.facts["derived_max_model_len"] == 262144  # X
    assert r.facts["available_kv_gib"] == 12.5        # Z
    assert dict(r.evidence)["max_model_len"] == line.strip()


def test_auto_fit_line_round_trips_through_the_core_format() -> None:
    from kvcalc.units import GiB
    from kvcalc.vllm_text import auto_fit_line
    # 13 GiB = 13 × 2^30 bytes → format_gib prints "13.0"
    r = parse_log(auto_fit_line(derived=131072, fitted=65536, available=13 * GiB))
    assert (r.facts["max_model_len"], r.facts["available_kv_gib"]) == (65536, 13.0)


@pytest.mark.parametrize("line", [
    # 0.10.0 – 0.11.0 INFO
    "(APIServer pid=4394) INFO 10-14 19:25:59 [loggers.py:147] Engine 000: vllm cache_config_info with "
    "initialization after num_gpu_blocks is: 2434",
    # the aggregated logger of several engines
    "INFO [loggers.py:200] 2 Engines: vllm cache_config_info with initialization after num_gpu_blocks is: 2434",
])
def test_cache_config_info_gives_num_gpu_blocks(line: str) -> None:
    assert parse_log(line).facts["num_gpu_blocks"] == 2434


def test_cache_config_info_in_a_real_log() -> None:
    # line 26: "Engine 000: vllm cache_config_info with initialization after num_gpu_blocks is: 13982"
    r = parse_log((LOGS / "v0102_qwen2vl_2b_rtx4080_wsl_util08_4k.log").read_text(encoding="utf-8"))
    assert r.facts["num_gpu_blocks"] == 13982


FREE_ERR_014 = ("ValueError: Free memory on device cuda:0 (10.5/23.5 GiB) on startup is less than desired GPU "
                "memory utilization (0.9, 22 GiB). Decrease GPU memory utilization or reduce GPU memory used by "
                "other processes.")


@pytest.mark.parametrize("text", [
    # wrapped by a terminal at a space, twice
    "ValueError: Free memory on device cuda:0 (10.5/23.5 GiB) on startup\nis less than desired GPU memory "
    "utilization (0.9, 22 GiB). Decrease GPU memory\nutilization or reduce GPU memory used by other processes.",
    # wrapped mid-word
    "ValueError: Free memory on device cuda:0 (10.5/23.5 GiB) on startup is less than desired GPU mem\n"
    "ory utilization (0.9, 22 GiB).",
    # quoted in prose, no "ValueError:"
    "I keep getting Free memory on device cuda:0 (10.5/23.5 GiB) on startup is less than desired GPU memory "
    "utilization (0.9, 22 GiB) even though nothing else runs",
    FREE_ERR_014,
])
def test_free_memory_error_wrapped_or_quoted(text: str) -> None:
    r = parse_log(text)
    assert r.diagnosis == "free_memory_below_utilization"
    assert (r.facts["free_memory_gib"], r.facts["total_gpu_memory_gib"]) == (10.5, 23.5)
    assert (r.facts["gpu_memory_utilization"], r.facts["requested_memory_gib"]) == (0.9, 22.0)


def test_free_memory_startup_summary_is_not_an_error() -> None:
    # gpu_worker's success line shares the opening words
    text = ("Free memory on device (78.68/79.19 GiB) on startup. Desired GPU memory utilization is (0.95, "
            "75.23 GiB).\nAvailable KV cache memory: 58.11 GiB")
    assert parse_log(text).diagnosis == "started"


@pytest.mark.parametrize("failure", [
    "(EngineCore_DP0 pid=6880) ERROR 10-31 15:07:50 [core.py:708] EngineCore failed to start.",
    "RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}",
    "RuntimeError: Frontend process failed during engine core initialization. See root cause above. "
    "Failed frontend proc(s): {}",
])
def test_engine_failure_after_an_available_memory_line_is_not_started(failure: str) -> None:
    text = "(Worker_TP0 pid=1) INFO [gpu_worker.py:298] Available KV cache memory: 1.71 GiB\n" + failure
    r = parse_log(text)
    assert r.diagnosis == "engine_failed"
    assert dict(r.evidence)["diagnosis"] == failure
    # a specific check still wins over the generic failure
    assert parse_log(FREE_ERR_014 + "\n" + failure).diagnosis == "free_memory_below_utilization"


def test_engine_failure_in_a_real_log() -> None:
    # "Available KV cache memory: 1.71 GiB" then "EngineCore failed to start."
    r = parse_log((LOGS / "v011_gpt_oss_120b_h100_kv171.log").read_text(encoding="utf-8"))
    assert r.diagnosis == "engine_failed"
    assert r.facts["available_kv_gib"] == 1.71


def test_dcp_capacity_lines() -> None:
    # 0.10.2 – 0.11.x
    r = parse_log("INFO [kv_cache_utils.py:1224] Multiplying the GPU KV cache size by the dcp_world_size 8.")
    assert r.facts["decode_context_parallel_size"] == 8
    # 0.12.0 – 0.20.0
    r = parse_log("INFO Multiplying the GPU KV cache size by the cp_world_size 4 (pcp_world_size 2 * "
                  "dcp_world_size 2).")
    assert (r.facts["decode_context_parallel_size"], r.facts["prefill_context_parallel_size"]) == (2, 2)
    # the flag, both spellings
    assert parse_log("vllm serve m --decode-context-parallel-size 4").facts["decode_context_parallel_size"] == 4
    assert parse_log("vllm serve m -tp 8 -dcp 2").facts["decode_context_parallel_size"] == 2


def test_dcp_capacity_line_in_a_real_log() -> None:
    # "Multiplying the GPU KV cache size by the dcp_world_size 8.", "GPU KV cache size: 5,721,088 tokens"
    r = parse_log((LOGS / "v011x_kimi_k2_thinking_8xh200_tp8_dcp8.log").read_text(encoding="utf-8"))
    assert r.diagnosis == "started"
    assert (r.facts["decode_context_parallel_size"], r.facts["gpu_kv_cache_tokens"]) == (8, 5721088)


@pytest.mark.parametrize("seed", [
    "Auto-fit max_model_len: reduced from 1" + "1" * 100_000,
    "cache_config_info with initialization after num_gpu_blocks is: " + "9" * 100_000,
    "Free memory on device " + "(" * 100_000,
    "Multiplying the GPU KV cache size by the cp_world_size 1 (pcp_world_size " + "2" * 100_000,
])
def test_new_patterns_stay_fast_on_long_lines(seed: str) -> None:
    """The same line with its 100,000-character run made 8x longer takes well under 64x the
    time (tests/scaling.py: no wall-clock bound, which a loaded machine would break)."""
    longer = seed[:seed.index(seed[-1] * 8)] + seed[-1] * 800_000
    assert growth_ratio(lambda text: parse_log(text + "\n" + text), seed, longer) < GROWTH_BOUND


@pytest.mark.parametrize(("line", "version"), [
    # 0.7 – 0.10 with the V0 engine: "Initializing a V0 LLM engine (v%s) with config: %s, use_cached_outputs=%s"
    ("INFO 03-01 10:00:00 llm_engine.py:234] Initializing a V0 LLM engine (v0.8.5) with config: model='m', "
     "use_cached_outputs=False", "0.8.5"),
    # 0.15+ without the logo: "vLLM server version %s, serving model %s"
    ("(APIServer pid=1) INFO 02-01 10:00:00 [api_utils.py:50] vLLM server version 0.15.1, serving model Qwen/Qwen3-8B",
     "0.15.1"),
])
def test_version_line_forms(line: str, version: str) -> None:
    assert parse_log(line).facts["vllm_version"] == version
