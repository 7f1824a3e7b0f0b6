"""The validation page's reasons for the logs left out, in Spanish and Chinese.

The reasons are data of the core (``calc/data/validation.json``, ``excluded``), written in English; the site
shows them in the page's language. Each entry keeps the English it translates, so a reason changed in the
data without its translation fails tests/test_validation_reasons.py instead of showing stale text.
"""

from __future__ import annotations

__all__ = ["REASONS", "reason"]

#: ``{log file: (English reason as in the data, Spanish, Chinese)}``.
REASONS: dict[str, tuple[str, str, str]] = {
    'llmd_v019_codellama_34b_h100_tp2_free_memory.log': (
        'start-up failed on the free-memory check: no available figure',
        'el arranque falló en la comprobación de memoria libre: no hay cifra de memoria disponible',
        '启动在空闲显存检查时就失败了：没有可用显存的数字',
    ),
    'v014_qwen3_17b_24gb_capacity.log': (
        "GPU not named ('24 GB GPU'): total unknown",
        'la GPU no se nombra («24 GB GPU»): total desconocido',
        '未写明 GPU 型号（“24 GB GPU”）：总显存未知',
    ),
    'v0271_gpustack_tp2_cudagraph_profiling.log': (
        'model not named',
        'no se nombra el modelo',
        '未写明模型',
    ),
    'v1_qwen3_235b_fp8_h100_tp4_capacity.log': (
        'vLLM release not stated; LMCache connector',
        'no consta la versión de vLLM; conector LMCache',
        '未写明 vLLM 版本；使用了 LMCache 连接器',
    ),
    'v08_worker_breakdown_rtx3090_util099.log': (
        'model not named',
        'no se nombra el modelo',
        '未写明模型',
    ),
    'v066_phi4_gptq_a100_memory_profiling.log': (
        'max_model_len not shown (sizes the V0 profile run)',
        'no se muestra max_model_len (dimensiona el perfilado de V0)',
        '未显示 max_model_len（它决定 V0 显存分析的规模）',
    ),
    'v085_llama31_8b_l40s_v1_capacity.log': (
        "gpu_memory_utilization not shown (source: 'probably the 0.9 default'); the capacity would need 5.6 GiB of activation+non-torch at 0.9",
        'no se muestra gpu_memory_utilization (la fuente dice «probablemente el 0,9 por defecto»); con 0,9 la capacidad exigiría 5,6 GiB de activaciones más memoria ajena a PyTorch',
        '未显示 gpu_memory_utilization（来源称“可能是默认的 0.9”）；按 0.9 计算，这个容量需要 5.6 GiB 的激活加 PyTorch 之外的显存',
    ),
    'v02_pr2031_gpu_blocks_a100_llama2.log': (
        'vLLM 0.2 (older than the oldest supported rule set, 0.6.0)',
        'vLLM 0.2 (anterior al conjunto de reglas más antiguo, el de 0.6.0)',
        'vLLM 0.2（早于所支持的最老规则集 0.6.0）',
    ),
    'v07dev_llama32_11b_vision_h100_eager_65k.log': (
        'V0 multimodal profiling (36.63 GiB activation with cross-attention images) not modelled: the encoder estimate covers V1 only',
        'no se modela el perfilado multimodal de V0 (36,63 GiB de activaciones con imágenes de atención cruzada): la estimación del codificador solo cubre V1',
        '未对 V0 的多模态显存分析建模（交叉注意力图像带来 36.63 GiB 激活）：编码器估算只覆盖 V1',
    ),
    'v066post1_internvl3_78b_8xl40s_tp8_v0.log': (
        'V0 multimodal profiling (15.73 GiB activation, InternViT-6B) not modelled: the encoder estimate covers V1 only',
        'no se modela el perfilado multimodal de V0 (15,73 GiB de activaciones, InternViT-6B): la estimación del codificador solo cubre V1',
        '未对 V0 的多模态显存分析建模（15.73 GiB 激活，InternViT-6B）：编码器估算只覆盖 V1',
    ),
    'v0102_qwen2vl_2b_rtx4080_wsl_util08_4k.log': (
        'the row the encoder profiling factor (calc/budget/estimates.py, 1.16) was fitted on, so not a validation row; Qwen2-VL-2B is not in the catalog and no public copy of its config.json was found; GPU presumed',
        'es la fila con la que se ajustó el factor del perfilado del codificador (calc/budget/estimates.py, 1,16), así que no sirve para validar; Qwen2-VL-2B no está en el catálogo y no se encontró una copia pública de su config.json; GPU supuesta',
        '这一行正是拟合编码器显存分析系数（calc/budget/estimates.py，1.16）所用的数据，因此不能作为验证行；Qwen2-VL-2B 不在目录中，也没找到其 config.json 的公开副本；GPU 为推测',
    ),
    'v0110_qwen3vl_embedding_2b_t4_eager_pooling.log': (
        'pooling runner (no sampler) with a vision tower; custom cu118 build',
        'ejecutor de pooling (sin muestreador) con torre de visión; compilación cu118 propia',
        '池化运行器（没有采样器）加视觉塔；自行编译的 cu118 版本',
    ),
    'v082_phi4_bnb4bit_unsloth_a100_80gb_v0.log': (
        'Unsloth-patched V0 fallback with LoRA: not a plain vllm serve',
        'recurso a V0 parcheado por Unsloth y con LoRA: no es un vllm serve normal',
        'Unsloth 打过补丁、带 LoRA 的 V0 回退路径：不是普通的 vllm serve',
    ),
    'v072_deepseek_coder_v2_lite_l40s_cpuoffload30_util045_100k_v0.log': (
        'the available figure is not in the stored excerpt',
        'la cifra disponible no está en el extracto guardado',
        '保存的日志片段里没有可用显存的数字',
    ),
    'v011x_kimi_k2_thinking_8xh200_tp8.log': (
        'INT4 experts-only compressed-tensors layout (ignore list) not modelled; nightly build',
        'no se modela la disposición compressed-tensors INT4 solo en los expertos (lista de exclusión); compilación nocturna',
        '未对仅专家层 INT4 的 compressed-tensors 布局（忽略列表）建模；nightly 版本',
    ),
    'v011x_kimi_k2_thinking_8xh200_tp8_dcp8.log': (
        'as the TP8 run, plus DCP 8',
        'como la ejecución con TP8, más DCP 8',
        '同 TP8 那次运行，另加 DCP 8',
    ),
    'v0111nv2512_qwen3_8b_nvfp4_rtx5060ti_fp8kv_32k.log': (
        'local NVFP4 checkpoint (NVIDIA 25.12 build) whose unquantized layers are not listed: its 7.49 GiB estimate with the logged weights against 6.62 logged cannot be split between weights and runtime',
        'checkpoint NVFP4 local (compilación 25.12 de NVIDIA) cuyas capas sin cuantizar no se enumeran: su estimación de 7,49 GiB con los pesos del registro frente a los 6,62 registrados no se puede repartir entre pesos y memoria de ejecución',
        '本地 NVFP4 checkpoint（NVIDIA 25.12 版本），未列出哪些层没有量化：用日志中的权重得到的 7.49 GiB 估算与日志的 6.62 GiB 之差，无法拆分到权重和运行时开销上',
    ),
    'v0130_qwen25_14b_awq_rtxa5000_8k.log': (
        'Qwen2.5-14B-AWQ not in the catalog (its quantized layout is not counted)',
        'Qwen2.5-14B-AWQ no está en el catálogo (no se cuenta su disposición cuantizada)',
        'Qwen2.5-14B-AWQ 不在目录中（未计入其量化布局）',
    ),
    'v0210_qwen3_8b_rtxa5000_lmcache_cpu_offload.log': (
        'LMCache CPU offload connector; utilization doubtful (0.9764)',
        'conector de descarga a CPU de LMCache; utilización dudosa (0,9764)',
        'LMCache CPU 卸载连接器；利用率存疑（0.9764）',
    ),
    'v019x_gemma4_26b_a4b_a100_131k_eager_page_excerpt.log': (
        'release presumed; Gemma 4 MoE + vision tower not in the catalog',
        'versión supuesta; Gemma 4 MoE con torre de visión no está en el catálogo',
        '版本为推测；带视觉塔的 Gemma 4 MoE 不在目录中',
    ),
    'llmd_v019_llama31_8b_fp32_h100.log': (
        '--dtype float32: the calculator serves 16-bit weights only',
        '--dtype float32: la calculadora solo sirve pesos de 16 bits',
        '--dtype float32：计算器只支持 16 位权重',
    ),
    'v0130_qwen3_next_80b_awq_2xl40s_tp2_util092_fp8kv_32k_hybrid.log': (
        'local AWQ (compressed-tensors W4A16) checkpoint whose unquantized layers are not listed; weights 22.53 GiB per GPU cannot be checked',
        'checkpoint AWQ local (compressed-tensors W4A16) cuyas capas sin cuantizar no se enumeran; los 22,53 GiB de pesos por GPU no se pueden comprobar',
        '本地 AWQ（compressed-tensors W4A16）checkpoint，未列出哪些层没有量化；每张 GPU 22.53 GiB 的权重无法核对',
    ),
    'v0190_granite4_h_1b_rtx3060_12gb_util06_4k_eager_hybrid.log': (
        'a second vLLM container was running on the same GPU (source note); config not in the catalog',
        'en la misma GPU corría un segundo contenedor de vLLM (nota de la fuente); config no incluida en el catálogo',
        '同一张 GPU 上还运行着另一个 vLLM 容器（来源注明）；config 不在目录中',
    ),
    'v0130nv_nemotron3_nano_4b_fp8_gb10_util015_hybrid.log': (
        'NVIDIA-Nemotron-3-Nano-4B-FP8 not in the catalog (no public config copy found); GB10 (unified memory)',
        'NVIDIA-Nemotron-3-Nano-4B-FP8 no está en el catálogo (no se encontró una copia pública de su config); GB10 (memoria unificada)',
        'NVIDIA-Nemotron-3-Nano-4B-FP8 不在目录中（没找到其 config 的公开副本）；GB10（统一内存）',
    ),
    'v0251_laguna_s21_nvfp4_dflash_gb10_65k_util089.log': (
        'DFlash drafter (speculative decoding) not modelled; Laguna-S-2.1 not in the catalog',
        'no se modela el borrador DFlash (decodificación especulativa); Laguna-S-2.1 no está en el catálogo',
        '未对 DFlash 草稿模型（投机解码）建模；Laguna-S-2.1 不在目录中',
    ),
    'v0xx_dev_mistral_small4_119b_awq_2xl40s_tp2_util082_32k_mla.log': (
        'unversioned dev build; local AWQ checkpoint with a vision wrapper',
        'compilación de desarrollo sin versión; checkpoint AWQ local con envoltorio de visión',
        '无版本号的开发版本；带视觉封装的本地 AWQ checkpoint',
    ),
    'v020x_qwen36_27b_autoround_2x3090_tp2_util088_262k.log': (
        'local AutoRound int4 checkpoint with an MTP drafter; nightly build',
        'checkpoint int4 AutoRound local con borrador MTP; compilación nocturna',
        '本地 AutoRound int4 checkpoint，带 MTP 草稿模型；nightly 版本',
    ),
    'v02xx_qwen38_27b_fp8_2x5090_tp2_util092_breakdown.log': (
        'Qwen3.8-27B: no public config; release not printed',
        'Qwen3.8-27B: sin config pública; no se imprime la versión',
        'Qwen3.8-27B：没有公开的 config；日志未打印版本',
    ),
    'v2026_qwen38_27b_fp8_2x5090_147k_supermax.log / _65k_ultramax.log / v0201rc1dev16_qwen36_27b_int4_2x4090_dflash_180k.log': (
        'local quantized checkpoints with speculative drafters; engine arguments cut in the excerpt',
        'checkpoints cuantizados locales con borradores especulativos; argumentos del motor cortados en el extracto',
        '本地量化 checkpoint，带投机解码草稿模型；引擎参数在片段中被截断',
    ),
    'logs8 (club-3090 Qwen3.6/3.8-27B runs, Kimi-Linear AWQ, Qwen3.6-35B NVFP4, Qwen3.5 prototype, XPU/GLM block-size lines, V3/V4 error-only lines)': (
        'local quantized checkpoints with MTP/DFlash drafters or prototype builds, no release or no available figure; hybrids are planned since h8-hybrid but these set-ups are not reproducible',
        'checkpoints cuantizados locales con borradores MTP/DFlash o compilaciones prototipo, sin versión o sin cifra disponible; los híbridos se planifican desde h8-hybrid, pero estas configuraciones no se pueden reproducir',
        '本地量化 checkpoint，带 MTP/DFlash 草稿模型或属于原型版本，缺少版本号或可用显存数字；混合模型自 h8-hybrid 起已能规划，但这些配置无法复现',
    ),
    'v0230_qwen25vl_7b_a100_util022_default_len_video_profile.log': (
        "the public copy's repository and path could not be located (code-index hit id only), so it cannot be linked from the table; the estimate is checked against it in tests/test_estimates.py (Qwen2.5-VL-7B, 0.23.0, A100-80GB at 0.22: -13.91 GiB estimated, -14.28 logged)",
        'no se pudo localizar el repositorio y la ruta de la copia pública (solo un identificador del índice de código), así que no se puede enlazar desde la tabla; la estimación se comprueba con él en tests/test_estimates.py (Qwen2.5-VL-7B, 0.23.0, A100-80GB con 0,22: −13,91 GiB estimados, −14,28 en el registro)',
        '找不到公开副本所在的仓库和路径（只有代码索引里的一个 id），因此无法在表中链接；估算在 tests/test_estimates.py 中用它核对（Qwen2.5-VL-7B、0.23.0、A100-80GB、利用率 0.22：估算 −13.91 GiB，日志 −14.28 GiB）',
    ),
    'v0130_qwen3vl_moe_custom_h100nvl_8k.log': (
        "custom checkpoint ('qwen-custom', Qwen3-VL-30B-A3B's architecture and size) and a public copy whose repository and path could not be located (code-index hit id only); checked in tests/test_estimates.py against Qwen3-VL-30B-A3B on an H100 NVL, 0.13.0: 19.27 GiB estimated on CUDA's 93.10 GiB total (19.21 on nvidia-smi's 95830 MiB less 0.55 GiB), 19.40 logged",
        'checkpoint propio («qwen-custom», con la arquitectura y el tamaño de Qwen3-VL-30B-A3B) y una copia pública cuyo repositorio y ruta no se pudieron localizar (solo un identificador del índice de código); se comprueba en tests/test_estimates.py frente a Qwen3-VL-30B-A3B en una H100 NVL, 0.13.0: 19,27 GiB estimados sobre los 93,10 GiB totales de CUDA (19,21 sobre los 95 830 MiB de nvidia-smi menos 0,55 GiB), 19,40 en el registro',
        '自定义 checkpoint（“qwen-custom”，架构和规模同 Qwen3-VL-30B-A3B），公开副本的仓库和路径也找不到（只有代码索引里的一个 id）；在 tests/test_estimates.py 中按 Qwen3-VL-30B-A3B、H100 NVL、0.13.0 核对：以 CUDA 的 93.10 GiB 总量估算 19.27 GiB（以 nvidia-smi 的 95830 MiB 减 0.55 GiB 计为 19.21），日志 19.40',
    ),
    'jethac/dgx-spark-hijinks results/vllm_gemma4_26b_a4b_bf16_20260607T131917Z_server.log and ..._qat_unquantized_20260607T133040Z_server.log (not vendored)': (
        "Gemma-4-26B-A4B on a GB10 (0.20.0, 0.8, 8k, cold compile 18.6 s in both): the encoder's video profiling run is not modelled for Gemma 4 (encoder_profile 'unknown'), so activation cannot be told from the unified-memory term; the two runs (the same KV layout: 177,440 tokens in 40.61 GiB and 192,368 in 44.03, 4,369 per GiB) leave 121.69 x 0.8 - 48.5 - graphs - available = 6.55 and 3.91 GiB of activation + non-torch and print CUDA-graph estimates of 1.69 and 0.91 GiB",
        'Gemma-4-26B-A4B en una GB10 (0.20.0, 0,8, 8k, compilación en frío de 18,6 s en ambas): no se modela el perfilado de vídeo del codificador para Gemma 4 (encoder_profile «unknown»), así que las activaciones no se distinguen del término de memoria unificada; las dos ejecuciones (la misma disposición KV: 177 440 tokens en 40,61 GiB y 192 368 en 44,03, 4369 por GiB) dejan 121,69 × 0,8 − 48,5 − grafos − disponible = 6,55 y 3,91 GiB de activaciones más memoria ajena a PyTorch, e imprimen estimaciones de grafos CUDA de 1,69 y 0,91 GiB',
        'GB10 上的 Gemma-4-26B-A4B（0.20.0、0.8、8k，两次冷编译都是 18.6 s）：Gemma 4 编码器的视频显存分析未建模（encoder_profile 为 “unknown”），因此激活无法与统一内存项区分开；两次运行（KV 布局相同：40.61 GiB 放 177,440 个 token，44.03 GiB 放 192,368 个，每 GiB 4,369 个）按 121.69 × 0.8 − 48.5 − CUDA Graph − 可用显存 算出的激活加 PyTorch 之外显存分别为 6.55 和 3.91 GiB，打印的 CUDA Graph 估算值分别为 1.69 和 0.91 GiB',
    ),
    'KevinHuang8/Augment_QA vllm.log, ShanghaoLi0913/memory-aware_RLHF vllm.log, emocat17/GraphRAG vllm.log, LzyFischer/MemSuit vllm_server.log, amdgoose/arno_vllm_chat vllm_server.log, giyushino/ModelMerging logs/vllm_server*.log (not vendored)': (
        "catalog models, but no line of the source names the GPU (where a total is printed, 23.65 and 79.18 GiB, it is no catalog GPU's), so the held-out estimate could not be made without guessing the GPU; left out before any estimate",
        'modelos del catálogo, pero ninguna línea de la fuente nombra la GPU (donde se imprime un total, 23,65 y 79,18 GiB, no es el de ninguna GPU del catálogo), así que la estimación no podía hacerse sin adivinar la GPU; se descartaron antes de estimar nada',
        '模型在目录中，但来源中没有任何一行写明 GPU（打印了总显存的，23.65 和 79.18 GiB，不对应目录中任何 GPU），不猜 GPU 就无法做留出估算；在任何估算之前即已剔除',
    ),
    'DaisukeTakai/eval_dataset vllm_judge.log (not vendored)': (
        "Qwen3-235B-A22B-FP8 on 8 x H100 with --enable-expert-parallel: expert parallelism is not modelled by the estimate; left out before any estimate (the same source's Qwen3-32B log is held out)",
        'Qwen3-235B-A22B-FP8 en 8 × H100 con --enable-expert-parallel: la estimación no modela el paralelismo de expertos; se descartó antes de estimar nada (el registro de Qwen3-32B de la misma fuente está entre los reservados)',
        '8 × H100 上开启 --enable-expert-parallel 的 Qwen3-235B-A22B-FP8：估算未对专家并行建模；在任何估算之前即已剔除（同一来源的 Qwen3-32B 日志属于留出集）',
    ),
    'trietnguyeminh/Submission---EXACT--IJCNN vllm_server*.log and 2215860382/VedioSifter train_run_20260421_065709.log (not vendored)': (
        "Qwen3-8B on Kaggle's 2 x T4 with --enable-lora and adapters of unstated rank, and Qwen3-4B as the colocated rollout engine of a verl trainer (sleep mode, the trainer's own tensors on the GPU): neither set-up is one the estimate takes; left out before any estimate",
        'Qwen3-8B en las 2 × T4 de Kaggle con --enable-lora y adaptadores de rango no indicado, y Qwen3-4B como motor de rollout compartido con un entrenador verl (modo sleep, los tensores del propio entrenador en la GPU): ninguna de las dos configuraciones es de las que admite la estimación; se descartaron antes de estimar nada',
        'Kaggle 2 × T4 上带 --enable-lora、适配器秩未说明的 Qwen3-8B，以及作为 verl 训练器同卡 rollout 引擎的 Qwen3-4B（sleep 模式，训练器自己的张量也在 GPU 上）：两种配置都不在估算可接受的范围内；在任何估算之前即已剔除',
    ),
    'CybearsecurityLab/neurosymbolic-sysrepair vllm_server.log, qweewqq/EnergyLLM vllm_server.log, GiakyLi/llm-app-framework logs/vllm_server.log, jyngjeon/multiagentsdebate logs/vllm_server.log (not vendored)': (
        "catalog models (Mistral-7B-Instruct-v0.3, Llama-3.1-8B-Instruct, Qwen3-4B, Qwen3-14B), but no line of the source names the GPU, so the held-out estimate could not be made without guessing the GPU; left out before any estimate",
        'modelos del catálogo (Mistral-7B-Instruct-v0.3, Llama-3.1-8B-Instruct, Qwen3-4B, Qwen3-14B), pero ninguna línea de la fuente nombra la GPU, así que la estimación no podía hacerse sin adivinar la GPU; se descartaron antes de estimar nada',
        '模型在目录中（Mistral-7B-Instruct-v0.3、Llama-3.1-8B-Instruct、Qwen3-4B、Qwen3-14B），但来源中没有任何一行写明 GPU，不猜 GPU 就无法做留出估算；在任何估算之前即已剔除',
    ),
    'samilazrak/vllm-optimization-lab results/raw/awq.startup.log and tuned.startup.log, phivan3008/meeting-translator vllm_serve.log, ljg6861/anton_new vllm_server.log (not vendored)': (
        "quantized checkpoints not in the catalog (Qwen3-14B-AWQ, Qwen3.6-27B-FP8, an AWQ 4-bit Qwen3-30B-A3B); left out before any estimate (the first source's Qwen3-14B BF16 log is held out)",
        'checkpoints cuantizados que no están en el catálogo (Qwen3-14B-AWQ, Qwen3.6-27B-FP8, un Qwen3-30B-A3B AWQ de 4 bits); se descartaron antes de estimar nada (el registro de Qwen3-14B en BF16 de la primera fuente está entre los reservados)',
        '不在目录中的量化检查点（Qwen3-14B-AWQ、Qwen3.6-27B-FP8、一个 4 位 AWQ 的 Qwen3-30B-A3B）；在任何估算之前即已剔除（第一个来源的 Qwen3-14B BF16 日志属于留出集）',
    ),
    'wangpeiwen/gpu-util-interference mlwd/sensitivity/data_bak.md, kagaho/Build-Jetson-Container-VLLM-0.10.2 README.md, vireshkoli/LLM-Inference-Optimization results/logs/vllm-bf16.startup.log, a Korean llm-d study post on an RTX 3050 and a Nemotron-3-Nano note on a DGX Spark (code-index hit ids 68490333318, 55685126685), eslam-ahmed43/llm-lab logs/vllm_server.log (not vendored)': (
        'catalog models, but the source names the card without its memory size (a V100 of 16 or 32 GB), the card is not in the catalog (Jetson AGX Thor, A40, RTX 3050 6 GB), the unified memory is shared with a second vLLM engine, or the source is a development one; left out before any estimate',
        'modelos del catálogo, pero la fuente nombra la tarjeta sin su memoria (una V100 de 16 o 32 GB), la tarjeta no está en el catálogo (Jetson AGX Thor, A40, RTX 3050 de 6 GB), la memoria unificada la comparte un segundo motor vLLM, o la fuente es de desarrollo; se descartaron antes de estimar nada',
        '模型在目录中，但来源只写了显卡型号而没写显存大小（16 GB 或 32 GB 的 V100），或显卡不在目录中（Jetson AGX Thor、A40、6 GB 的 RTX 3050），或统一内存由第二个 vLLM 引擎共用，或来源属于开发集；在任何估算之前即已剔除',
    ),
}


def reason(lang: str, file: str, english: str) -> str:
    """The reason in ``lang``: the data's English for ``en`` (and for a log without a translation, which
    the tests refuse), else the translation of exactly that English."""
    entry = REASONS.get(file)
    if lang == "en" or entry is None or entry[0] != english:
        return english
    return entry[1] if lang == "es" else entry[2]
