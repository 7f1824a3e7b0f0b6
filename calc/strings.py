"""Every sentence a reader sees, in English, Spanish and Chinese.

One source per string: flat dotted keys per language, ``str.format`` fields.
A test checks that the three languages have the same keys and fields.
"""

from __future__ import annotations

__all__ = ["LANGS", "STRINGS", "lang_or_default", "t"]

LANGS = ("es", "zh", "en")

EN: dict[str, str] = {
    "err.config_unreadable": "Cannot read the config.json at {value}.",
    "err.log_unreadable": "Cannot read the log file {value}.",
    # verdicts
    "verdict.fits.title": "vLLM starts: the KV cache fits",
    "verdict.fits.summary": (
        "One request of {max_model_len} tokens needs {needed} of KV cache; {available} is "
        "available. About {concurrency} such requests fit at once ({tokens} tokens)."
    ),
    "verdict.does_not_fit.title": "vLLM refuses to start: KV cache too small",
    "verdict.does_not_fit.summary": (
        "One request of {max_model_len} tokens needs {needed} of KV cache, but only {available} "
        "is available. The longest context that fits is about {estimated} tokens."
    ),
    "verdict.weights_do_not_fit.title": "The weights alone do not fit",
    "verdict.weights_do_not_fit.summary": (
        "After the weights and runtime memory nothing is left for the KV cache ({available}). "
        'vLLM stops with "No available memory for the cache blocks".'
    ),
    "verdict.auto_fit_failed.title": "--max-model-len auto cannot fit even one token",
    "verdict.auto_fit_failed.summary": (
        "The KV memory available ({available}) does not hold a single block; reduce what else is "
        "on the GPU first."
    ),
    "verdict.free_memory_below_utilization.title": "Another process holds GPU memory",
    "verdict.free_memory_below_utilization.summary": (
        "vLLM wanted {requested} of the GPU but only {free} was free at start-up. Lower "
        "gpu_memory_utilization or free the GPU."
    ),
    "verdict.started.title": "The log shows a successful start",
    "verdict.started.summary": (
        "vLLM reported {tokens} tokens of KV cache; the figures below are recomputed from the log."
    ),
    "verdict.cuda_out_of_memory.title": "CUDA ran out of memory at run time",
    "verdict.cuda_out_of_memory.summary": (
        "The start-up check passed, but a later allocation failed: the budget left too little "
        "headroom for activations or other processes."
    ),
    "verdict.unknown.title": "No known vLLM memory message found",
    "verdict.unknown.summary": (
        'Paste the start-up log from the first line to the error (the lines with "Available KV '
        'cache memory" or the error text).'
    ),
    "verdict.mamba_blocks_below_max_num_seqs.title": (
        "vLLM stops at CUDA-graph capture: fewer Mamba cache blocks than max_num_seqs"
    ),
    "verdict.mamba_blocks_below_max_num_seqs.summary": (
        "The KV cache holds one request of {max_model_len} tokens, but its pool has only {blocks} "
        "blocks while max_num_seqs is {max_num_seqs}: each decoding sequence needs its own Mamba "
        "state block for the CUDA graphs."
    ),
    "rec.limit_concurrency.mamba.title": "Cap the sequences at the Mamba cache blocks: {flags}",
    "rec.limit_concurrency.mamba.detail": (
        "vLLM's own suggestion: with at most {blocks} sequences every decoding sequence has a "
        "Mamba state block, so the CUDA graphs can be captured."
    ),
    "rec.result.mamba_blocks": "still stops: {blocks} blocks for max_num_seqs {max_num_seqs}",
    "verdict.weights_exceed_gpu.title": "The weights alone are larger than the GPU",
    "verdict.weights_exceed_gpu.summary": (
        "The weights alone need {weights} per GPU, more than the GPU's {total}: vLLM fails with "
        "CUDA out of memory while loading them, before it sizes any KV cache. Use quantized "
        "weights or split the model over more GPUs."
    ),
    "serve.current.starts": "Your current command (starts)",
    "serve.current.fails": "Your current command (does not start)",
    "rec.result.label": "Result",
    "cli.log.diagnosis": "Diagnosis",
    "cli.log.facts": "What the log states",
    "cli.log.no_facts": "The log holds no figure vLLM prints about memory.",
    "cli.log.not_recomputed": "Not recomputed",
    "chart.budget.needed": "one request needs {needed}",
    "chart.you_at": "you: {length}",
    "rec.result.choose_model": "Choose your model (or paste its config.json) to compute this",
    "verdict.log_only.summary": (
        "These figures come from your log alone. Choose the model it serves (or paste its "
        "config.json) for the full plan: memory budget, blocks, concurrency and every fix "
        "computed."
    ),
    "note.chosen_model_over_log": (
        "The log names {logged}, but this plan is of the model you chose, {planned}: every figure "
        "below is that model's, not the run's. Clear the model field (in the CLI, leave out "
        "--model) to plan the log's own model."
    ),
    "note.model_not_planned": (
        "The calculator could not plan the model this log names: choose the model it is built on, "
        "or paste its config.json, for the full plan."
    ),
    "note.choose_model": (
        "The log names no model: choose it above, or paste its config.json, for the full plan."
    ),
    "fig.kv_per_token_from_log": "KV cache per token (from the log's rounded GiB)",
    # figures
    "fig.kv_per_token": "KV cache per token (per GPU, all layers)",
    "fig.needed_kv": "KV cache one request needs",
    "fig.available_kv": "Available KV cache memory (per GPU)",
    "fig.num_blocks": "GPU blocks",
    "fig.tokens": "GPU KV cache size",
    "fig.concurrency": "Maximum concurrency at max_model_len",
    "fig.estimated_max_len": "Longest context that fits",
    "fig.max_model_len": "max_model_len checked",
    "fig.total": "GPU memory (driver total)",
    "fig.requested": "vLLM's share (total × utilization)",
    "fig.weights": "Model weights",
    "fig.activation": "Activation peak",
    "fig.non_torch": "Non-torch memory",
    "fig.cudagraph": "CUDA graphs",
    "fig.kv": "KV cache",
    "fig.headroom": "Left outside vLLM's share",
    "fig.estimate_suffix": " (estimate)",
    "fig.tokens_value": "{tokens} tokens",
    "fig.concurrency_value": "{concurrency}x",
    "fig.blocks_value": "{blocks} blocks of {block_size} tokens",
    "fig.len_value": "{value} tokens",
    # recommendations
    "rec.lower_max_model_len.title": "Lower --max-model-len to {value}",
    "rec.lower_max_model_len.detail": (
        "vLLM estimates that at most {estimated} tokens fit; start at 60–80 % of that "
        "({low}–{high}) and raise it once the service is stable."
    ),
    "rec.limit_concurrency.title": "Limit concurrency: {flags}",
    "rec.limit_concurrency.detail": (
        "Fewer sequences and a smaller batch shrink the profiling run's activation peak and the "
        "CUDA-graph pool, which leaves more memory for the KV cache. It does not change what one "
        "request needs."
    ),
    "rec.raise_gpu_memory_utilization.title": "Raise --gpu-memory-utilization from {from} to {to}",
    "rec.raise_gpu_memory_utilization.detail": (
        "Go up in small steps and test with real traffic; above {warn_above} the margin for CUDA "
        "graphs, other processes and spikes gets thin and runtime out-of-memory errors become "
        "likely."
    ),
    "rec.fp8_kv_cache.title": "Store the KV cache in fp8: --kv-cache-dtype fp8",
    "rec.fp8_kv_cache.detail": (
        "Halves the bytes per token of a 16-bit cache. Check that your GPU, vLLM build and model "
        "support it, and test long contexts, reasoning, tool calls and structured output against "
        "the default precision."
    ),
    "rec.kv_cache_memory_bytes.title": "Fix the KV budget: --kv-cache-memory-bytes {value}",
    "rec.kv_cache_memory_bytes.detail": (
        "Replaces the utilization-based sizing with an exact per-GPU figure ({gib} GiB, enough "
        "for one full request). vLLM then no longer checks that weights plus cache fit the GPU: "
        "you own that margin."
    ),
    "rec.kv_cache_memory_bytes.free.title": (
        "Or give vLLM a fixed KV budget with --kv-cache-memory-bytes"
    ),
    "rec.kv_cache_memory_bytes.free.detail": (
        "A fixed figure per GPU makes several services on one GPU predictable."
    ),
    "rec.cpu_offload.title": (
        "Keep {gib} GiB of weights per GPU in CPU memory: --cpu-offload-gb {gib}"
    ),
    "rec.cpu_offload.detail": (
        "vLLM streams the offloaded weights over PCIe on every forward pass: it starts, but every "
        "step is much slower. A stopgap to get a model running, not a serving set-up. (KV offload "
        "is different: it cannot make a request fit that does not fit on the GPU.)"
    ),
    "rec.quantize_weights.title": "Use a quantized checkpoint (AWQ/GPTQ 4-bit or fp8)",
    "rec.quantize_weights.detail": (
        "Smaller weights leave room for the KV cache; the figures assume a 4-bit AWQ checkpoint "
        "of the same model."
    ),
    "rec.add_gpus.title": "Split the model over more GPUs: --tensor-parallel-size {tp}",
    "rec.add_gpus.detail": "Tensor parallelism divides the weights and the KV heads between GPUs.",
    "rec.larger_gpu.title": "Use a larger GPU ({gpu})",
    "rec.larger_gpu.detail": "The smallest GPU in the catalog on which this configuration starts.",
    "rec.enforce_eager.title": "Skip CUDA graphs: --enforce-eager",
    "rec.enforce_eager.detail": (
        "Captures no CUDA graphs, so their memory stays with the KV cache (vLLM subtracts it from "
        "the KV budget since 0.20); decoding gets somewhat slower."
    ),
    "rec.lower_gpu_memory_utilization.title": "Lower --gpu-memory-utilization to {to}",
    "rec.lower_gpu_memory_utilization.detail": (
        "vLLM asks for its share of the whole GPU up front; with another process on the GPU, ask "
        "for less than what is free."
    ),
    "rec.free_the_gpu.title": "Stop the other process holding GPU memory",
    "rec.free_the_gpu.detail": (
        "Check nvidia-smi: another vLLM instance, a notebook or a desktop session may hold "
        "memory. Give each instance an explicit budget instead of 0.9 each."
    ),
    "rec.result.fits": "fits ({concurrency}x at {max_model_len} tokens)",
    "rec.result.does_not_fit": "still does not fit (needs {needed}, {available} available)",
    "rec.result.unknown": "measured by vLLM at start-up; try it",
    "rec.result.exceeds_gpu": (
        "Warning: weights plus this budget exceed the GPU's memory by our estimate."
    ),
    # notes
    "note.estimates": (
        "Weights, activation peak, non-torch and CUDA-graph memory are estimates; vLLM measures "
        'them at start-up. Enter the figures from your log under "Measured figures" to replace '
        "them."
    ),
    "note.measured": (
        "Available KV memory taken from your input; vLLM's arithmetic from there on is exact."
    ),
    "note.fixed_budget": (
        "With --kv-cache-memory-bytes vLLM uses that figure per GPU and ignores "
        "gpu_memory_utilization."
    ),
    "note.rules": "Rules of {rules}.",
    "note.hma_off": (
        "Hybrid KV cache manager off: sliding-window layers reserve memory for every token."
    ),
    "note.padding": "vLLM pads the KV cache groups of this model with {n} layers.",
    "note.mamba": (
        "Mamba cache mode {mode}: attention blocks of {block} tokens, each Mamba layer's state "
        "padded to one {page} page; a request holds {states} state pages per Mamba group whatever "
        "its length."
    ),
    # errors (CalcError codes)
    "err.not_an_integer": '{field}: "{value}" is not a whole number (examples: 32768, 32k, 32K).',
    "err.binary_suffix_decimal": (
        '{field}: decimals are not allowed with binary suffixes (K, M, G); write "{value}" with a '
        "lowercase decimal suffix or as a whole number."
    ),
    "err.out_of_range": "{field}: {value} is outside the allowed range ({minimum} to {maximum}).",
    "err.not_a_number": '{field}: "{value}" is not a number.',
    "err.not_a_boolean": '{field}: "{value}" is not true or false.',
    "err.bad_choice": '{field}: "{value}" is not one of: {choices}.',
    "err.config_not_json": "The config.json is not valid JSON (line {line}, column {column}).",
    "err.config_not_object": "The config.json must be a JSON object ({{…}}).",
    "err.config_too_large": "That is larger than 2 MB: paste only config.json.",
    "err.config_missing_key": (
        'The config.json has no "{key}", which is needed to size the KV cache.'
    ),
    "err.config_bad_value": 'The config.json has an invalid "{key}": {value}.',
    "err.unsupported_architecture": (
        "{model_type}: the calculator does not cover this model's Mamba or linear-attention state "
        'layout yet. Enter the "Available KV cache memory" from your log and read vLLM\'s own '
        "figures."
    ),
    "err.model_removed": (
        "{model_type}: vLLM no longer serves this model; the last release that does is {value}."
    ),
    "err.mamba_tp_not_divisor": (
        "The model's {key} ({limit}) cannot be split over {value} GPUs: vLLM requires the tensor "
        "parallel size to divide it."
    ),
    "err.unknown_model": (
        'Unknown model "{value}". Pick one from the list or paste its config.json.'
    ),
    "err.unknown_gpu": 'Unknown GPU "{value}". Pick one from the list or enter its memory in GiB.',
    "err.missing_model": "Choose a model or paste its config.json.",
    "err.missing_gpu": "Choose a GPU, enter its memory, or enter the measured available KV memory.",
    "err.tp_not_divisor": (
        "The model's {limit} attention heads cannot be split over {value} GPUs: tensor parallel "
        "size must divide them."
    ),
    "err.max_model_len_too_long": (
        "max_model_len {value} is longer than the model's maximum ({limit}); vLLM refuses it "
        "unless VLLM_ALLOW_LONG_MAX_MODEL_LEN=1."
    ),
    "err.auto_unsupported": "--max-model-len auto needs vLLM 0.14 or newer.",
    "err.bad_version": (
        'vLLM version "{value}" is not recognised (examples: 0.10.1, 0.11.0, latest).'
    ),
    "err.unknown_input": 'Unknown input "{value}".',
    "err.unsupported": "This combination is not supported by vLLM.",
    "err.v4_not_served": (
        "{value} stops with \"Model architectures ['DeepseekV4ForCausalLM'] are not supported for "
        'now.": DeepSeek-V4 came with vLLM 0.20.0.'
    ),
    "err.v4_not_modelled": "DeepSeek-V4 with {field} = {value} is not modelled by the calculator.",
    "err.v4_block_too_small": (
        "vLLM 0.20–0.26 stops at --block-size {value} for DeepSeek-V4: the 64-token "
        "sliding-window pages are larger than every MLA page, and vLLM asserts they are not. Use "
        "--block-size 256."
    ),
    "err.v4_kv_cache_dtype": (
        'vLLM refuses --kv-cache-dtype {value} for DeepSeek-V4 ("{assertion} {value}"): use '
        "--kv-cache-dtype fp8."
    ),
    "err.dcp_refused": (
        "vLLM refuses --decode-context-parallel-size {value} with tensor parallel size {limit}. "
        "vLLM's message: {key}"
    ),
    "err.bad_request": "The calculator received a malformed request.",
    "err.internal": "Internal error in the calculator; please report it with this link.",
    # log diagnoses
    "fact.vllm_version": "vLLM version",
    "fact.model": "Model",
    "fact.gpu_name": "GPU",
    "fact.derived_max_model_len": "The model's full context (before auto-fit)",
    "fact.tensor_parallel_size": "Tensor parallel size",
    "fact.pipeline_parallel_size": "Pipeline parallel size",
    "fact.decode_context_parallel_size": "Decode context parallel size",
    "fact.prefill_context_parallel_size": "Prefill context parallel size",
    "fact.dtype": "Model dtype",
    "fact.quantization": "Quantization",
    "fact.kv_cache_dtype": "KV cache dtype",
    "fact.block_size": "Block size",
    "fact.gpu_memory_utilization": "GPU memory utilization",
    "fact.gpu_memory_utilization_without_cudagraph_profiling": (
        "Same budget without CUDA-graph profiling (utilization)"
    ),
    "fact.max_num_seqs": "Most sequences at once",
    "fact.max_num_batched_tokens": "Most tokens per batch",
    "fact.enable_prefix_caching": "Prefix caching",
    "fact.enforce_eager": "Eager mode (no CUDA graphs)",
    "fact.mamba_cache_mode": "Mamba cache mode",
    "fact.mamba_ssm_cache_dtype": "Mamba SSM state dtype",
    "fact.limit_mm_per_prompt": "Multimodal items per prompt",
    "fact.skip_mm_profiling": "Skip multimodal profiling",
    "fact.kv_cache_memory_bytes": "Fixed KV cache memory (per GPU)",
    "fact.kv_cache_memory_fixed": "KV cache memory fixed by kv_cache_memory_bytes",
    "fact.free_memory_gib": "Free GPU memory at start-up",
    "fact.consumed_memory_gib": "Weights and non-torch memory (consumed)",
    "fact.peak_torch_memory_gib": "PyTorch peak memory",
    "fact.cudagraph_estimate_gib": "CUDA graphs (vLLM's estimate before capture)",
    "fact.suggested_kv_cache_memory_bytes": "--kv-cache-memory vLLM suggests",
    "fact.oom_tried_to_allocate_mib": "Allocation that failed",
    "fact.yes": "yes",
    "fact.no": "no",
    "note.log_refined": (
        "The log prints the available memory rounded to 0.01 GiB ({gib} GiB); the plan uses "
        "{bytes} B, the figure within that rounding nearest to it that gives the log's own "
        "capacity ({blocks} blocks), so the recomputed lines match the log's."
    ),
    "note.log_least_worker": (
        "vLLM prints one worker's Available KV cache memory ({gib} GiB) but sizes the cache for "
        "the GPU with the least: the log's {logged} blocks mean about {implied} GiB on that GPU, "
        "{blocks} blocks fewer than {gib} GiB gives. The plan uses that figure, so its capacity "
        "lines are the log's."
    ),
    "note.log_disagrees": (
        "The log's figures disagree with the recomputation by {blocks} blocks (log {logged}, "
        "recomputed {recomputed}): no available memory that prints as {gib} GiB gives the log's "
        "capacity with this model and these settings, so the plan uses the printed figure. Check "
        "that the model, the flags and the vLLM version are those of the run."
    ),
    "note.log_unreachable": (
        "No available memory gives the log's capacity with this model and these settings, so the "
        "plan uses the printed {gib} GiB. Check that the model, the flags and the vLLM version "
        "are those of the run."
    ),
    "diag.kv_cache_too_small": "KV cache too small for max_model_len",
    "diag.no_memory_for_cache_blocks": "No memory left for the cache blocks",
    "diag.free_memory_below_utilization": "Free memory below the requested utilization",
    "diag.cuda_out_of_memory": "CUDA out of memory at run time",
    "diag.engine_failed": "The engine failed to start (cause not among the KV checks)",
    "diag.started": "Started successfully",
    "diag.unknown": "Not recognised",
    # the report's feasible table and charts
    "feasible.context": "Context (max_model_len)",
    "feasible.caption": (
        "Maximum concurrency by context length and KV cache dtype (– : does not start)"
    ),
    "chart.budget.title": "Per-GPU memory budget",
    "chart.concurrency.title": "Maximum concurrency against max_model_len",
    "chart.concurrency.x": "max_model_len (tokens)",
    "chart.concurrency.y": "concurrent full-length requests",
    "chart.you": "you",
    # Hostile input (README "Hostile input") and versions, ids (CONTRIBUTING.md §7): bounded input,
    # catalog matching.
    "err.number_too_long": '{field}: "{value}" is too long to be a valid number.',
    "err.version_too_old": "vLLM {value} is older than 0.6.0, which the calculator does not model.",
    "err.too_deep": "The input is nested {value} levels deep; at most {limit} levels are allowed.",
    "err.ambiguous_model": '"{value}" fits several models: {choices}. Type more of the id.',
    "err.ambiguous_gpu": '"{value}" fits several GPUs: {choices}. Type more of the id.',
    "err.did_you_mean": "Did you mean {choices}?",
    "err.log_empty": "The log is empty: paste the output of vllm serve.",
    "err.not_a_regular_file": (
        "{value} is not a regular file (a device, a pipe or a folder); give a file, or - for "
        "standard input."
    ),
    "err.log_too_large": (
        "The standard input is longer than {limit} bytes; save the log to a file instead."
    ),
    "err.unrepresentable": (
        "The result holds a number too large to show; check the inputs for extreme values."
    ),
    "note.log_truncated": (
        "The log is longer than 5 MB: only its last 5 MB were read (vLLM's fatal lines are at the "
        "end)."
    ),
    "err.url_value_dropped": "the value in the link could not be read and was left empty.",
    # the estimated budget as a band (CONTRIBUTING.md §8)
    "fig.available_band": "{value}, likely {low}–{high} GiB",
    "verdict.borderline.title": "Borderline: it depends on what vLLM measures at start-up",
    "verdict.borderline.summary": (
        "One request of {max_model_len} tokens needs {needed} of KV cache. The estimate leaves "
        "{available} for it, likely between {low} and {high} GiB: inside that range vLLM may "
        "start or refuse. The advice below holds at the pessimistic end."
    ),
    "note.band": (
        "The available KV memory is a range: each estimated term carries the error seen against "
        "public vLLM logs, and the fixes are checked at the range's pessimistic end."
    ),
    "note.encoder_estimated": (
        "Multimodal model: before measuring, vLLM runs the vision encoder on dummy images (or "
        "videos) of the largest size the processor accepts, as many as the encoder budget holds "
        "(the larger of --max-num-batched-tokens and one such item), and keeps their outputs "
        "while the rest of the profile runs. The activation peak includes an estimate of that "
        "run, checked against few public logs. --limit-mm-per-prompt with 0 for a modality you do "
        "not use makes vLLM profile the next-largest one instead; every modality at 0, or "
        "--skip-mm-profiling, leaves the run out (the calculator shows each). The measured "
        "figures from your log replace the estimate."
    ),
    "note.encoder_unknown": (
        "Multimodal model: before measuring, vLLM runs the vision encoder on dummy inputs of the "
        "largest size the processor accepts; for this model that size is not known here, so the "
        "activation estimate leaves the run out and the range's pessimistic end is widened. Enter "
        "the measured figures from your log, or set --limit-mm-per-prompt to 0 for the modalities "
        "you do not use."
    ),
    "note.encoder_skipped": (
        "Multimodal model with --skip-mm-profiling: vLLM profiles the language model only, so the "
        "activation estimate leaves the vision encoder out and no memory is kept back for it. The "
        "encoder's activations and its cache come out of the headroom when the first images "
        "arrive; if they do not fit, requests fail with CUDA out of memory. Lower "
        "gpu_memory_utilization to leave room for them."
    ),
    "err.mm_limit_bad": (
        '{field}: "{value}" is not a limit vLLM reads: give a JSON object of whole numbers per '
        'modality, such as {{"image": 2, "video": 0}}.'
    ),
    "err.mm_limit_options": (
        "{field}: the dummy-size options ({key}) change the size of the profiled item, which the "
        'calculator does not model; give the count only, such as {{"image": 2}}.'
    ),
    "err.mm_limit_options_release": (
        '{field}: a dict per modality ({{"count": …}}) needs vLLM 0.11.1 or newer; vLLM {value} '
        'takes whole numbers only, such as {{"image": 2}}.'
    ),
    "err.mm_limit_json_release": (
        "{field}: vLLM {value} reads only the form image=2,video=0 (JSON objects from 0.8.5)."
    ),
    "err.mm_limit_pairs_release": (
        '{field}: vLLM {value} reads only a JSON object, such as {{"image": 2, "video": 0}} (the '
        "form image=2,video=0 was removed in 0.10.0)."
    ),
    "err.skip_mm_profiling_release": (
        "--skip-mm-profiling needs vLLM 0.10.1 or newer; vLLM {value} refuses the flag."
    ),
    "note.unified_memory": (
        "This GPU shares its memory with the host (unified memory): what the system and other "
        "processes take while vLLM starts counts against the cache. From vLLM 0.11.1 the estimate "
        "counts 1.6 GiB for it, the middle of the 1.3–2.7 GiB measured in public GB10 logs; the "
        "real figure changes from one start to the next, so give the figure from your own log."
    ),
    "note.interconnect_assumed": (
        "The GPU is given by its memory only, so how the GPUs are joined is not known: the "
        "central figure assumes NVSwitch-class GPUs ({non_torch} of non-torch memory per GPU "
        "here); the range also covers PCIe and unified memory. Give --interconnect (nvswitch, "
        "pcie or unified) for the figure of your machine."
    ),
    "note.term_few_rows": (
        "The {term} estimate rests on {rows} public logs that print it, fewer than five: its "
        "share of the range is the least tested part of the estimate."
    ),
    "err.kv_dtype_release": (
        "--kv-cache-dtype {value} needs vLLM {limit} or newer: this release's vLLM refuses it as "
        "an invalid choice."
    ),
    "err.kv_dtype_turboquant": (
        "--kv-cache-dtype {value} is not modelled yet: its quantized layers take {key} B per "
        "token and KV head (K and V packed), but vLLM keeps the first and last two layers "
        'unquantized, a mix of page sizes the calculator does not build. Enter the "Available KV '
        'cache memory" and the capacity from your log instead.'
    ),
    "err.kv_dtype_layout": (
        "--kv-cache-dtype {value} is modelled for models with K and V attention heads only, not "
        "for MLA models or Mamba hybrids."
    ),
    "err.kv_dtype_gpu": (
        "vLLM finds no attention backend for --kv-cache-dtype {value} on this GPU (compute "
        "capability {key}): FlashInfer, the only backend that takes it, needs compute capability "
        "{limit} in this release."
    ),
    "err.kv_dtype_rocm": (
        "vLLM finds no attention backend for --kv-cache-dtype {value} on AMD GPUs: FlashInfer, "
        "the only backend that takes it, runs on CUDA only."
    ),
    "err.kv_dtype_not_implemented": (
        'vLLM 0.20.x accepts --kv-cache-dtype {value} but stops at start-up ("nvfp4 KV cache is '
        'not yet supported"): use vLLM 0.21.0 or newer.'
    ),
    "err.kv_dtype_head_size": (
        "vLLM finds no attention backend for --kv-cache-dtype {value} with head size 64 on this "
        'GPU (compute capability {key}): "fa2 prefill misreads an NVFP4 KV cache at head_size '
        '64". It runs on compute capability 10.x (B200, B300).'
    ),
    "err.calculate_kv_scales_removed": (
        "--calculate-kv-scales was removed in vLLM 0.28.0: vLLM refuses the flag (unrecognized "
        "arguments). The KV scales come from the checkpoint, else 1.0; drop the flag."
    ),
    "err.kv_dtype_not_modelled": (
        '--kv-cache-dtype {value} is not modelled yet by the calculator. Enter the "Available KV '
        'cache memory" and the capacity from your log instead.'
    ),
    "err.model_name_unsafe": (
        "The model name {value} holds a line break, a control or invisible character, or starts "
        "with '-': it cannot be placed in a vllm serve command. Fix _name_or_path in config.json."
    ),
    "err.flag_release": (
        "{key} needs vLLM {minimum} or newer; vLLM {value} refuses it (unrecognized arguments)."
    ),
    "fig.draft_weights": "of which MTP layers (--speculative-config)",
    "fig.lora": "of which LoRA adapter slots",
    "note.spec_mtp": (
        "Speculative decoding with MTP: vLLM loads the checkpoint's {layers} MTP layer(s) "
        "({weights} per GPU, at most {high}) and gives each its own KV cache with the model's "
        "layer spec, in the same KV cache groups; {tokens} speculative tokens reuse the MTP "
        "layers. The drafter's share of the profile run and of the CUDA graphs is not estimated."
    ),
    "note.spec_ngram": (
        "Speculative decoding with n-gram prompt lookup ({tokens} tokens): it runs on the CPU and "
        "adds no weights and no KV cache."
    ),
    "note.spec_mamba": (
        "Each Mamba / linear-attention layer keeps {tokens} extra states for the speculative "
        "tokens (vLLM's num_speculative_blocks)."
    ),
    "note.lora": (
        "LoRA: {loras} adapter slot(s) of rank {rank} take {slots} per GPU (A and B stacks of "
        "every linear layer, and of the embedding and LM head where the model class wraps them), "
        "allocated while the model loads. --max-cpu-loras ({cpu}) sizes a cache in host memory "
        "only."
    ),
    "err.spec_config_bad": (
        '{field}: {value} cannot be read; give a JSON object such as {{"method": "mtp", '
        '"num_speculative_tokens": 3}}.'
    ),
    "err.spec_config_key": "{field}: the calculator does not read the key(s) {key}.",
    "err.spec_no_mtp_layers": (
        "{field}: {value} has no MTP layers (num_nextn_predict_layers / mtp_num_hidden_layers is "
        "0 or missing), so vLLM has none to load."
    ),
    "err.spec_tokens_not_divisible": (
        "{field}: vLLM refuses num_speculative_tokens {value}: above the checkpoint's {limit} MTP "
        "layer(s) it must be a multiple of {limit}."
    ),
    "err.spec_deepseek_v4": (
        "{field}: MTP on DeepSeek-V4 is not modelled (its MTP layer gets its own KV cache group)."
    ),
    "err.spec_model_type": (
        "{field}: MTP for model type {model_type} is not modelled; the calculator reads the MTP "
        "layers of DeepSeek-V3/V3.2, GLM-4.5/4.7 and Qwen3-Next/3.5/3.6."
    ),
    "err.spec_v0": "{field}: speculative decoding on vLLM's V0 engine is not modelled.",
    "err.spec_draft": (
        "{field}: method {value} needs the draft model {key}, whose config is not in the "
        "calculator's catalog; MTP and n-gram are modelled, and EAGLE-3 when you paste the "
        "drafter's config.json (draft_config)."
    ),
    "err.spec_method": "{field}: method {value} is not modelled; MTP and n-gram are.",
    "err.spec_pp": "{field}: speculative decoding with pipeline parallelism is not modelled.",
    "err.lora_release": (
        "{field}: LoRA before vLLM 0.12.0 (with its extra vocabulary) is not modelled."
    ),
    "err.lora_layout": (
        "{field}: LoRA is sized for dense text models with Llama's layer layout only (not MoE, "
        "MLA, Mamba or multimodal models)."
    ),
    "err.lora_model_type": (
        "{field}: the LoRA layers of model type {model_type} are not modelled (Llama, Granite, "
        "Qwen2/3 and Gemma 2/3 are)."
    ),
    "err.lora_tied": (
        "{field}: LoRA on a model whose LM head is tied to its embedding is not modelled."
    ),
    "err.lora_pp": "{field}: LoRA with pipeline parallelism is not modelled.",
    "err.spec_tokens_missing": (
        "{field}: vLLM needs num_speculative_tokens here: the config of {value} gives no "
        "n_predict to default to."
    ),
    "fact.tensor_parallel_size_at_least": (
        "Tensor parallel size, at least (highest worker rank + 1)"
    ),
    "fact.pipeline_parallel_size_at_least": (
        "Pipeline parallel size, at least (highest worker rank + 1)"
    ),
    "fact.world_size_at_least": "GPUs, at least (highest worker rank + 1)",
    "fact.hybrid_attention_block_size": "Attention block size set for the hybrid model",
    "fact.mamba_page_padding_pct": "Mamba page padding (%)",
    "fact.num_padding_layers": "Padding layers added to the KV cache groups",
    "fact.mamba_cache_blocks": "Mamba cache blocks available",
    "diag.load_out_of_memory": "CUDA out of memory while loading the weights (start-up)",
    "diag.pre_flight": "Pre-flight: a command not yet run, its settings planned",
    "verdict.load_out_of_memory.title": "CUDA ran out of memory while loading the weights",
    "verdict.load_out_of_memory.summary": (
        "vLLM failed at start-up, before it sized any KV cache: one GPU's share of the weights "
        "(with what the loader allocates) did not fit in the memory left. Split the model over "
        "more GPUs, use quantized weights, or free the GPU of other processes."
    ),
    "note.two_models": (
        "The log names several models ({models}); the diagnosis and the figures are those of its "
        "last start, {used}."
    ),
    "note.two_starts": (
        "The log holds {n} starts of vLLM; the diagnosis and the figures are those of the last one."
    ),
    "note.parallel_at_least": (
        "The worker prefixes show {what} of at least {n}, and the log states no size: the plan "
        "uses {n}. Pass the real size (--tensor-parallel-size, --pipeline-parallel-size) if it "
        "was larger."
    ),
    "note.log_mismatch": (
        "Warning: the recomputation misses the log's {figure}: the log prints {printed}, the "
        "recomputation gives {recomputed} ({pct} off), beyond the log's own rounding. Likely "
        "causes: another model or checkpoint than the log's, another KV cache dtype, or a setting "
        "the log does not show (pass it as a flag, which wins over the log)."
    ),
    "note.pre_flight": (
        "Pre-flight: this is the command's plan before it runs, from its own settings; what the "
        "command does not set takes vLLM's defaults and the calculator's estimates."
    ),
    "diag.mamba_blocks_below_max_num_seqs": (
        "Fewer Mamba cache blocks than max_num_seqs (hybrid model)"
    ),
    "quote.cut": "… ({n} characters)",
    "err.answer_too_large": (
        "The answer would be longer than {limit} characters; paste less (only the log's start-up "
        "lines, only config.json)."
    ),
    "err.output_failed": "Cannot write the output: {value}.",
    "err.encoder_model": (
        "{model_type}: encoder-only and encoder-decoder models size their cache by other rules in "
        "vLLM, which the calculator does not model."
    ),
    "err.invisible_id": (
        "{field}: the id holds an invisible or control character ({value}); type it again without "
        "it."
    ),
    "note.assumed_architecture": (
        "Not known to the calculator: {what}. Planned as a standard decoder (full attention on "
        "every layer, gated MLP, rope, 16-bit weights unless the quantization is known); check "
        "the figures against vLLM's own log."
    ),
    "ask.model": (
        "The log names no model: choose the model it serves (or paste its config.json) for the "
        "full plan."
    ),
    "ask.gpu": "The log does not say which GPU: choose it (or enter its memory) for the full plan.",
    "ask.model_gpu": (
        "The log names no model and no GPU: choose the model it serves (or paste its config.json) "
        "and the GPU for the full plan."
    ),
    "cli.ask.model": (
        "The log names no model: give --model (a catalog id) or --config (its config.json) for "
        "the full plan."
    ),
    "cli.ask.gpu": (
        "The log does not say which GPU: give --gpu (a catalog id) or --gpu-memory-gib for the "
        "full plan."
    ),
    "cli.ask.model_gpu": (
        "The log names no model and no GPU: give --model (or --config) and --gpu (or "
        "--gpu-memory-gib) for the full plan."
    ),
    "rec.lower_max_model_len.band.title": "Lower --max-model-len to {value}",
    "rec.lower_max_model_len.band.detail": (
        "The calculator estimates that at most {estimated} tokens fit; at the pessimistic end of "
        "its estimate ({edge_gib} GiB available) {edge_estimated} do, so this length starts "
        "whatever vLLM measures. Raise it once the service is stable."
    ),
    "rec.lower_max_model_len.borderline.title": "Lower --max-model-len to {value} (borderline)",
    "rec.lower_max_model_len.borderline.detail": (
        "At the calculator's central estimate at most {estimated} tokens fit, and this length is "
        "60–80 % of that ({low}–{high}); at the pessimistic end of the estimate ({edge_gib} GiB "
        "available) not even a short request fits, so it starts only if vLLM measures close to "
        "the central figure. Check the Available KV cache memory line of your log."
    ),
    "rec.kv_cache_memory_bytes.checked.title": "Fix the KV budget: --kv-cache-memory-bytes {value}",
    "rec.kv_cache_memory_bytes.checked.detail": (
        "Replaces the utilization-based sizing with an exact per-GPU figure ({gib} GiB, enough "
        "for one full request). With the rest of vLLM's memory it comes to about {utilization} of "
        "the GPU, within the 0.95 that leaves the headroom the guide keeps. vLLM then no longer "
        "checks that weights plus cache fit the GPU: you own that margin."
    ),
    "rec.quantize_weights.catalog.title": "Use the quantized checkpoint {model}",
    "rec.quantize_weights.catalog.detail": (
        "The catalog's quantized checkpoint of this model, weighed as it is stored. Smaller "
        "weights leave room for the KV cache; check its quality for your task."
    ),
    "rec.quantize_weights.generic.title": "Use a quantized checkpoint of this model",
    "rec.quantize_weights.generic.detail": (
        "A 4-bit (AWQ/GPTQ) or fp8 checkpoint of this model shrinks the largest item in the "
        "budget. The figures assume a 4-bit AWQ one (4-bit weights plus a 16-bit scale and a "
        "4-bit zero point per group of 128); serve that checkpoint's repository in place of this "
        "one, and check its quality for your task."
    ),
    "rec.larger_gpu.usable.title": "Use a larger GPU ({gpu})",
    "rec.larger_gpu.usable.detail": (
        "{gpu} ({gib} GiB) is the smallest GPU in the catalog with more usable memory than the "
        "{current} on which this configuration starts. The command does not change: run the same "
        "command on that GPU."
    ),
    "rec.result.does_not_fit_edge": (
        "still does not fit at the pessimistic end of the estimate (needs {needed}, {available} "
        "available there; {base} without this change)"
    ),
    "rec.raise_gpu_memory_utilization.log.title": (
        "Raise --gpu-memory-utilization, if nothing else runs on the GPU"
    ),
    "rec.raise_gpu_memory_utilization.log.detail": (
        "vLLM's own suggestion: a utilization set low leaves the cache nothing, however small the "
        "model. Lowering it makes this error worse."
    ),
    "rec.lower_gpu_memory_utilization.runtime.title": "Lower --gpu-memory-utilization to {to}",
    "rec.lower_gpu_memory_utilization.runtime.detail": (
        "vLLM allocated the whole KV cache at start-up; what ran out is the headroom outside its "
        "budget. A little less utilization leaves more of it."
    ),
    "rec.limit_concurrency.oom.title": "Lower the profiled batch: {flags}",
    "rec.limit_concurrency.oom.detail": (
        "The profiling run's dummy batch of --max-num-batched-tokens tokens and the sampler "
        "warm-up over --max-num-seqs requests needed more than was free; smaller values shrink "
        "both."
    ),
    "note.available_implausible": (
        "The available KV memory your log gives ({available} GiB) is below the pessimistic end of "
        "the calculator's estimate for this model and GPU ({low} GiB): something outside this "
        "vLLM (another process, a second instance starting on the same GPU) probably held memory "
        'while it profiled. Check nvidia-smi; see "Free memory below the requested utilization".'
    ),
    "err.max_model_len_too_long_rope": (
        "max_model_len {value} is longer than the model's maximum ({limit}). Its model card "
        "extends the context with YaRN rope scaling to {maximum} tokens: add {key}. "
        "(VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 only skips the check, without scaling.)"
    ),
    "diag.cuda_out_of_memory_startup": "CUDA out of memory at start-up",
    "verdict.cuda_out_of_memory_startup.title": "CUDA ran out of memory at start-up",
    "verdict.cuda_out_of_memory_startup.summary": (
        "vLLM ran out of memory before it finished starting: while loading the weights, in the "
        "profiling run or while capturing CUDA graphs. The fixes below depend on where it stopped."
    ),
    "fact.kv_cache_group_block_sizes": "Block size of each KV cache group (tokens)",
    "fact.full_kv_cache_memory_bytes": (
        "--kv-cache-memory that vLLM suggests to use all free memory"
    ),
    "err.dtype_float32_budget": (
        "{field} {value}: the memory budget is estimated for 16-bit weights and activations only. "
        "Give the available KV cache memory your log prints (available_kv_gib) or "
        "kv_cache_memory_bytes, and the plan follows at 4 bytes per element."
    ),
    "err.dp_release": (
        "{field}: data and expert parallelism are modelled from vLLM {limit} on (the release that "
        "shards MoE layers over all data × tensor parallel ranks); these rules are {value}."
    ),
    "note.expert_parallel": (
        "Data parallel {dp} × tensor parallel {tp}: the MoE layers span {ranks} GPUs; {how}. "
        "Attention, shared experts and embeddings stay on each data-parallel replica's TP GPUs, "
        "and each replica has its own KV cache, sized and checked as above. The all-to-all "
        "buffers of expert parallelism are not counted."
    ),
    "note.expert_parallel.ep": (
        "with --enable-expert-parallel each holds whole experts, {local} of {experts} on the most "
        "loaded one"
    ),
    "note.expert_parallel.tp": (
        "without --enable-expert-parallel every expert is split over them (1/{ranks} each)"
    ),
    "note.calculate_kv_scales_deprecated": (
        "--calculate-kv-scales is deprecated from vLLM {since} (vLLM warns at start-up) and "
        "removed in {removed}, which refuses it: the command still runs on this release, not from "
        "{removed}."
    ),
    "fig.draft_weights_eagle3": "of which the EAGLE-3 drafter (--speculative-config)",
    "note.spec_eagle3": (
        "Speculative decoding with EAGLE-3: vLLM loads the drafter of the pasted draft config, "
        "{weights} per GPU (its decoder layers, fc, norms, LM head over its draft vocabulary; the "
        "embedding is the target's), and gives each of its {layers} layer(s) a full-attention KV "
        "cache with the model's spec, in the same KV cache group; {tokens} speculative tokens per "
        "step. The drafter's share of the profile run and of the CUDA graphs is not counted."
    ),
    "err.draft_config_bad": (
        "{field}: {value} is not a drafter config.json; paste the config.json of the EAGLE-3 "
        "checkpoint named in speculative_config."
    ),
    "err.spec_eagle3_layout": (
        "{field}: this EAGLE-3 drafter is not modelled: only Llama-layout drafters "
        "(LlamaForCausalLMEagle3) with the target's KV heads and head size, for targets with full "
        "attention on every layer, are sized."
    ),
    "err.spec_draft_tp": (
        "{field}: draft_tensor_parallel_size {key} differs from the target's tensor parallel "
        "size; an EAGLE drafter runs at the target's."
    ),
    "err.draft_config_unused": (
        "{field}: the drafter's config.json is read only with --speculative-config method eagle3."
    ),
    "note.log_refined_estimate": (
        "The log prints the available memory rounded to 0.01 GiB ({gib} GiB); the plan uses "
        "{bytes} B, the figure within that rounding nearest to it that gives the log's own "
        "estimated maximum length ({tokens} tokens), so the recomputed lines match the log's."
    ),
}

ES: dict[str, str] = {
    "err.config_unreadable": "No se puede leer el config.json en {value}.",
    "err.log_unreadable": "No se puede leer el archivo de registro {value}.",
    "verdict.fits.title": "vLLM arranca: la caché KV cabe",
    "verdict.fits.summary": (
        "Una petición de {max_model_len} tokens necesita {needed} de caché KV y hay {available} "
        "disponibles. Caben unas {concurrency} peticiones así a la vez ({tokens} tokens)."
    ),
    "verdict.does_not_fit.title": "vLLM no arranca: la caché KV es demasiado pequeña",
    "verdict.does_not_fit.summary": (
        "Una petición de {max_model_len} tokens necesita {needed} de caché KV, pero solo hay "
        "{available} disponibles. El contexto más largo que cabe ronda los {estimated} tokens."
    ),
    "verdict.weights_do_not_fit.title": "Los pesos no caben por sí solos",
    "verdict.weights_do_not_fit.summary": (
        "Tras los pesos y la memoria de ejecución no queda nada para la caché KV ({available}). "
        "vLLM se detiene con «No available memory for the cache blocks»."
    ),
    "verdict.auto_fit_failed.title": "--max-model-len auto no puede ajustar ni un token",
    "verdict.auto_fit_failed.summary": (
        "La memoria KV disponible ({available}) no alcanza para un solo bloque; primero reduzca "
        "lo que ocupa la GPU."
    ),
    "verdict.free_memory_below_utilization.title": "Otro proceso ocupa memoria de la GPU",
    "verdict.free_memory_below_utilization.summary": (
        "vLLM quería {requested} de la GPU, pero al arrancar solo había {free} libres. Baje "
        "gpu_memory_utilization o libere la GPU."
    ),
    "verdict.started.title": "El registro muestra un arranque correcto",
    "verdict.started.summary": (
        "vLLM informó de {tokens} tokens de caché KV; las cifras de abajo se recalculan a partir "
        "del registro."
    ),
    "verdict.cuda_out_of_memory.title": "CUDA se quedó sin memoria en ejecución",
    "verdict.cuda_out_of_memory.summary": (
        "La comprobación de arranque pasó, pero una reserva posterior falló: el presupuesto dejó "
        "muy poco margen para activaciones u otros procesos."
    ),
    "verdict.unknown.title": "No se encontró ningún mensaje de memoria de vLLM",
    "verdict.unknown.summary": (
        "Pegue el registro de arranque desde la primera línea hasta el error (las líneas con "
        "«Available KV cache memory» o el texto del error)."
    ),
    "verdict.mamba_blocks_below_max_num_seqs.title": (
        "vLLM se detiene al capturar los CUDA graphs: menos bloques de caché Mamba que max_num_seqs"
    ),
    "verdict.mamba_blocks_below_max_num_seqs.summary": (
        "La caché KV admite una petición de {max_model_len} tokens, pero su reserva solo tiene "
        "{blocks} bloques y max_num_seqs es {max_num_seqs}: cada secuencia en decodificación "
        "necesita su propio bloque de estado Mamba para los CUDA graphs."
    ),
    "rec.limit_concurrency.mamba.title": (
        "Limite las secuencias a los bloques de caché Mamba: {flags}"
    ),
    "rec.limit_concurrency.mamba.detail": (
        "La sugerencia del propio vLLM: con {blocks} secuencias como máximo, cada secuencia en "
        "decodificación tiene un bloque de estado Mamba y los CUDA graphs se pueden capturar."
    ),
    "rec.result.mamba_blocks": (
        "sigue deteniéndose: {blocks} bloques para max_num_seqs {max_num_seqs}"
    ),
    "verdict.weights_exceed_gpu.title": "Los pesos por sí solos no caben en la GPU",
    "verdict.weights_exceed_gpu.summary": (
        "Solo los pesos necesitan {weights} por GPU, más que los {total} de la GPU: vLLM falla "
        "con «CUDA out of memory» al cargarlos, antes de dimensionar la caché KV. Use pesos "
        "cuantizados o reparta el modelo en más GPU."
    ),
    "serve.current.starts": "Su comando actual (arranca)",
    "serve.current.fails": "Su comando actual (no arranca)",
    "rec.result.label": "Resultado",
    "cli.log.diagnosis": "Diagnóstico",
    "cli.log.facts": "Lo que dice el registro",
    "cli.log.no_facts": "El registro no contiene ninguna cifra de memoria de vLLM.",
    "cli.log.not_recomputed": "No recalculado",
    "chart.budget.needed": "una petición necesita {needed}",
    "chart.you_at": "usted: {length}",
    "rec.result.choose_model": "Elija su modelo (o pegue su config.json) para calcularlo",
    "verdict.log_only.summary": (
        "Estas cifras salen solo de su registro. Elija el modelo que sirve (o pegue su "
        "config.json) para el plan completo: presupuesto de memoria, bloques, concurrencia y cada "
        "solución calculada."
    ),
    "note.chosen_model_over_log": (
        "El registro nombra {logged}, pero este plan es del modelo que usted eligió, {planned}: "
        "todas las cifras de abajo son de ese modelo, no de la ejecución. Vacíe el campo del "
        "modelo (en la CLI, omita --model) para planificar el modelo del propio registro."
    ),
    "note.model_not_planned": (
        "La calculadora no pudo planificar el modelo que nombra el registro: elija el modelo en "
        "que se basa, o pegue su config.json, para el plan completo."
    ),
    "note.choose_model": (
        "El registro no nombra el modelo: elíjalo arriba, o pegue su config.json, para el plan "
        "completo."
    ),
    "fig.kv_per_token_from_log": (
        "Caché KV por token (a partir de los GiB redondeados del registro)"
    ),
    "fig.kv_per_token": "Caché KV por token (por GPU, todas las capas)",
    "fig.needed_kv": "Caché KV que necesita una petición",
    "fig.available_kv": "Memoria disponible para la caché KV (por GPU)",
    "fig.num_blocks": "Bloques en GPU",
    "fig.tokens": "Tamaño de la caché KV en GPU",
    "fig.concurrency": "Concurrencia máxima con max_model_len",
    "fig.estimated_max_len": "Contexto más largo que cabe",
    "fig.max_model_len": "max_model_len comprobado",
    "fig.total": "Memoria de la GPU (total del controlador)",
    "fig.requested": "Parte de vLLM (total × utilización)",
    "fig.weights": "Pesos del modelo",
    "fig.activation": "Pico de activaciones",
    "fig.non_torch": "Memoria fuera de PyTorch",
    "fig.cudagraph": "Grafos CUDA",
    "fig.kv": "Caché KV",
    "fig.headroom": "Fuera de la parte de vLLM",
    "fig.estimate_suffix": " (estimación)",
    "fig.tokens_value": "{tokens} tokens",
    "fig.concurrency_value": "{concurrency}x",
    "fig.blocks_value": "{blocks} bloques de {block_size} tokens",
    "fig.len_value": "{value} tokens",
    "rec.lower_max_model_len.title": "Baje --max-model-len a {value}",
    "rec.lower_max_model_len.detail": (
        "vLLM estima que caben como máximo {estimated} tokens; empiece entre el 60 y el 80 % de "
        "esa cifra ({low}–{high}) y súbala cuando el servicio sea estable."
    ),
    "rec.limit_concurrency.title": "Limite la concurrencia: {flags}",
    "rec.limit_concurrency.detail": (
        "Menos secuencias y lotes más pequeños reducen el pico de activaciones de la pasada de "
        "perfilado y la reserva de grafos CUDA, y dejan más memoria para la caché KV. No cambian "
        "lo que necesita una sola petición."
    ),
    "rec.raise_gpu_memory_utilization.title": "Suba --gpu-memory-utilization de {from} a {to}",
    "rec.raise_gpu_memory_utilization.detail": (
        "Hágalo en pasos pequeños y pruebe con tráfico real; por encima de {warn_above} el margen "
        "para grafos CUDA, otros procesos y picos es escaso y los errores de memoria en ejecución "
        "se vuelven probables."
    ),
    "rec.fp8_kv_cache.title": "Guarde la caché KV en fp8: --kv-cache-dtype fp8",
    "rec.fp8_kv_cache.detail": (
        "Reduce a la mitad los bytes por token de una caché de 16 bits. Compruebe que su GPU, su "
        "versión de vLLM y el modelo lo admiten, y pruebe contextos largos, razonamiento, "
        "llamadas a herramientas y salida estructurada frente a la precisión por defecto."
    ),
    "rec.kv_cache_memory_bytes.title": "Fije el presupuesto KV: --kv-cache-memory-bytes {value}",
    "rec.kv_cache_memory_bytes.detail": (
        "Sustituye el cálculo basado en la utilización por una cifra exacta por GPU ({gib} GiB, "
        "suficiente para una petición completa). vLLM deja de comprobar que pesos y caché quepan "
        "en la GPU: ese margen pasa a ser suyo."
    ),
    "rec.kv_cache_memory_bytes.free.title": (
        "O dé a vLLM un presupuesto KV fijo con --kv-cache-memory-bytes"
    ),
    "rec.kv_cache_memory_bytes.free.detail": (
        "Una cifra fija por GPU hace previsibles varios servicios en la misma GPU."
    ),
    "rec.cpu_offload.title": (
        "Deje {gib} GiB de pesos por GPU en la memoria de la CPU: --cpu-offload-gb {gib}"
    ),
    "rec.cpu_offload.detail": (
        "vLLM trae los pesos descargados por PCIe en cada pasada: arranca, pero cada paso es "
        "mucho más lento. Sirve para poner el modelo en marcha, no para dar servicio. (La "
        "descarga de la caché KV es otra cosa: no hace caber una petición que no cabe en la GPU)."
    ),
    "rec.quantize_weights.title": "Use un checkpoint cuantizado (AWQ/GPTQ de 4 bits o fp8)",
    "rec.quantize_weights.detail": (
        "Unos pesos más pequeños dejan sitio a la caché KV; las cifras suponen un checkpoint AWQ "
        "de 4 bits del mismo modelo."
    ),
    "rec.add_gpus.title": "Reparta el modelo en más GPU: --tensor-parallel-size {tp}",
    "rec.add_gpus.detail": (
        "El paralelismo tensorial divide los pesos y las cabezas KV entre las GPU."
    ),
    "rec.larger_gpu.title": "Use una GPU mayor ({gpu})",
    "rec.larger_gpu.detail": (
        "La GPU más pequeña del catálogo con la que esta configuración arranca."
    ),
    "rec.enforce_eager.title": "Prescinda de los grafos CUDA: --enforce-eager",
    "rec.enforce_eager.detail": (
        "No captura grafos CUDA, así que su memoria queda para la caché KV (vLLM la descuenta del "
        "presupuesto KV desde la 0.20); la decodificación se vuelve algo más lenta."
    ),
    "rec.lower_gpu_memory_utilization.title": "Baje --gpu-memory-utilization a {to}",
    "rec.lower_gpu_memory_utilization.detail": (
        "vLLM pide de entrada su parte de toda la GPU; si otro proceso la usa, pida menos de lo "
        "que está libre."
    ),
    "rec.free_the_gpu.title": "Detenga el otro proceso que ocupa memoria de la GPU",
    "rec.free_the_gpu.detail": (
        "Revise nvidia-smi: otra instancia de vLLM, un notebook o el escritorio pueden ocupar "
        "memoria. Dé a cada instancia un presupuesto explícito en lugar de 0,9 a todas."
    ),
    "rec.result.fits": "cabe ({concurrency}x con {max_model_len} tokens)",
    "rec.result.does_not_fit": "sigue sin caber (necesita {needed}, hay {available})",
    "rec.result.unknown": "vLLM lo mide al arrancar; pruébelo",
    "rec.result.exceeds_gpu": (
        "Atención: según nuestra estimación, los pesos más este presupuesto superan la memoria de "
        "la GPU."
    ),
    "note.estimates": (
        "Los pesos, el pico de activaciones, la memoria fuera de PyTorch y la de los grafos CUDA "
        "son estimaciones; vLLM los mide al arrancar. Introduzca las cifras de su registro en "
        "«Cifras medidas» para sustituirlas."
    ),
    "note.measured": (
        "Memoria KV disponible tomada de su entrada; a partir de ahí la aritmética de vLLM es "
        "exacta."
    ),
    "note.fixed_budget": (
        "Con --kv-cache-memory-bytes vLLM usa esa cifra por GPU e ignora gpu_memory_utilization."
    ),
    "note.rules": "Reglas de {rules}.",
    "note.hma_off": (
        "Gestor híbrido de caché KV desactivado: las capas de ventana deslizante reservan memoria "
        "para todos los tokens."
    ),
    "note.padding": "vLLM rellena los grupos de caché KV de este modelo con {n} capas.",
    "note.mamba": (
        "Modo de caché Mamba {mode}: bloques de atención de {block} tokens y el estado de cada "
        "capa Mamba rellenado hasta una página de {page}; cada petición ocupa {states} páginas de "
        "estado por grupo Mamba, sea cual sea su longitud."
    ),
    "err.not_an_integer": "{field}: «{value}» no es un número entero (ejemplos: 32768, 32k, 32K).",
    "err.binary_suffix_decimal": (
        "{field}: los sufijos binarios (K, M, G) no admiten decimales; escriba «{value}» con un "
        "sufijo decimal en minúscula o como número entero."
    ),
    "err.out_of_range": (
        "{field}: {value} está fuera del intervalo permitido ({minimum} a {maximum})."
    ),
    "err.not_a_number": "{field}: «{value}» no es un número.",
    "err.not_a_boolean": "{field}: «{value}» no es verdadero ni falso.",
    "err.bad_choice": "{field}: «{value}» no es ninguna de estas opciones: {choices}.",
    "err.config_not_json": "El config.json no es JSON válido (línea {line}, columna {column}).",
    "err.config_not_object": "El config.json debe ser un objeto JSON ({{…}}).",
    "err.config_too_large": "Ocupa más de 2 MB: pegue solo el config.json.",
    "err.config_missing_key": (
        "Al config.json le falta «{key}», necesario para dimensionar la caché KV."
    ),
    "err.config_bad_value": "El config.json tiene un «{key}» no válido: {value}.",
    "err.unsupported_architecture": (
        "{model_type}: la calculadora aún no cubre la disposición del estado Mamba o de atención "
        "lineal de este modelo. Introduzca la «Available KV cache memory» de su registro y lea "
        "las cifras del propio vLLM."
    ),
    "err.model_removed": (
        "{model_type}: vLLM ya no sirve este modelo; la última versión que lo hace es la {value}."
    ),
    "err.mamba_tp_not_divisor": (
        "El valor {key} del modelo ({limit}) no se puede repartir entre {value} GPU: vLLM exige "
        "que el tamaño del paralelismo tensorial lo divida."
    ),
    "err.unknown_model": (
        "Modelo desconocido «{value}». Elija uno de la lista o pegue su config.json."
    ),
    "err.unknown_gpu": (
        "GPU desconocida «{value}». Elija una de la lista o introduzca su memoria en GiB."
    ),
    "err.missing_model": "Elija un modelo o pegue su config.json.",
    "err.missing_gpu": "Elija una GPU, introduzca su memoria o la memoria KV disponible medida.",
    "err.tp_not_divisor": (
        "Las {limit} cabezas de atención del modelo no se pueden repartir entre {value} GPU: el "
        "tamaño del paralelismo tensorial debe dividirlas."
    ),
    "err.max_model_len_too_long": (
        "max_model_len {value} supera el máximo del modelo ({limit}); vLLM lo rechaza salvo con "
        "VLLM_ALLOW_LONG_MAX_MODEL_LEN=1."
    ),
    "err.auto_unsupported": "--max-model-len auto requiere vLLM 0.14 o posterior.",
    "err.bad_version": (
        "No se reconoce la versión de vLLM «{value}» (ejemplos: 0.10.1, 0.11.0, latest)."
    ),
    "err.unknown_input": "Entrada desconocida «{value}».",
    "err.unsupported": "vLLM no admite esta combinación.",
    "err.v4_not_served": (
        "{value} se detiene con \"Model architectures ['DeepseekV4ForCausalLM'] are not supported "
        'for now.": DeepSeek-V4 llegó con vLLM 0.20.0.'
    ),
    "err.v4_not_modelled": "La calculadora no modela DeepSeek-V4 con {field} = {value}.",
    "err.v4_block_too_small": (
        "vLLM 0.20–0.26 se detiene con --block-size {value} para DeepSeek-V4: las páginas de la "
        "ventana deslizante de 64 tokens superan a todas las páginas MLA, y vLLM exige que no lo "
        "hagan. Use --block-size 256."
    ),
    "err.v4_kv_cache_dtype": (
        'vLLM rechaza --kv-cache-dtype {value} para DeepSeek-V4 ("{assertion} {value}"): use '
        "--kv-cache-dtype fp8."
    ),
    "err.dcp_refused": (
        "vLLM rechaza --decode-context-parallel-size {value} con un paralelismo tensorial de "
        "{limit}. Mensaje de vLLM: {key}"
    ),
    "err.bad_request": "La calculadora recibió una petición mal formada.",
    "err.internal": "Error interno de la calculadora; por favor, infórmenos con este enlace.",
    "fact.vllm_version": "Versión de vLLM",
    "fact.model": "Modelo",
    "fact.gpu_name": "GPU",
    "fact.derived_max_model_len": "Contexto completo del modelo (antes del ajuste automático)",
    "fact.tensor_parallel_size": "Paralelismo de tensor",
    "fact.pipeline_parallel_size": "Paralelismo de pipeline",
    "fact.decode_context_parallel_size": "Paralelismo de contexto en la decodificación",
    "fact.prefill_context_parallel_size": "Paralelismo de contexto en el prellenado",
    "fact.dtype": "Tipo de datos del modelo",
    "fact.quantization": "Cuantización",
    "fact.kv_cache_dtype": "Tipo de datos de la caché KV",
    "fact.block_size": "Tamaño de bloque",
    "fact.gpu_memory_utilization": "Utilización de la memoria de la GPU",
    "fact.gpu_memory_utilization_without_cudagraph_profiling": (
        "Mismo presupuesto sin perfilar los grafos CUDA (utilización)"
    ),
    "fact.max_num_seqs": "Máximo de secuencias a la vez",
    "fact.max_num_batched_tokens": "Máximo de tokens por lote",
    "fact.enable_prefix_caching": "Caché de prefijos",
    "fact.enforce_eager": "Modo eager (sin grafos CUDA)",
    "fact.mamba_cache_mode": "Modo de la caché Mamba",
    "fact.mamba_ssm_cache_dtype": "Tipo de datos del estado SSM de Mamba",
    "fact.limit_mm_per_prompt": "Elementos multimodales por prompt",
    "fact.skip_mm_profiling": "Omitir el perfilado multimodal",
    "fact.kv_cache_memory_bytes": "Memoria fija para la caché KV (por GPU)",
    "fact.kv_cache_memory_fixed": "Memoria de la caché KV fijada por kv_cache_memory_bytes",
    "fact.free_memory_gib": "Memoria libre de la GPU al arrancar",
    "fact.consumed_memory_gib": "Pesos y memoria fuera de PyTorch (consumida)",
    "fact.peak_torch_memory_gib": "Pico de memoria de PyTorch",
    "fact.cudagraph_estimate_gib": "Grafos CUDA (estimación de vLLM antes de capturarlos)",
    "fact.suggested_kv_cache_memory_bytes": "--kv-cache-memory que sugiere vLLM",
    "fact.oom_tried_to_allocate_mib": "Reserva que falló",
    "fact.yes": "sí",
    "fact.no": "no",
    "note.log_refined": (
        "El registro imprime la memoria disponible redondeada a 0,01 GiB ({gib} GiB); el plan usa "
        "{bytes} B, la cifra dentro de ese redondeo más cercana a ella que da la capacidad del "
        "propio registro ({blocks} bloques), así que las líneas recalculadas coinciden con las "
        "del registro."
    ),
    "note.log_least_worker": (
        "vLLM imprime la memoria disponible para la caché KV de un solo proceso ({gib} GiB), pero "
        "dimensiona la caché para la GPU que menos tiene: los {logged} bloques del registro "
        "equivalen a unos {implied} GiB en esa GPU, {blocks} bloques menos de los que dan {gib} "
        "GiB. El plan usa esa cifra, así que sus líneas de capacidad son las del registro."
    ),
    "note.log_disagrees": (
        "Las cifras del registro no coinciden con el recálculo por {blocks} bloques (registro "
        "{logged}, recálculo {recomputed}): ninguna memoria disponible que se imprima como {gib} "
        "GiB da la capacidad del registro con este modelo y estos ajustes, así que el plan usa la "
        "cifra impresa. Compruebe que el modelo, las opciones y la versión de vLLM son los de la "
        "ejecución."
    ),
    "note.log_unreachable": (
        "Ninguna memoria disponible da la capacidad del registro con este modelo y estos ajustes, "
        "así que el plan usa los {gib} GiB impresos. Compruebe que el modelo, las opciones y la "
        "versión de vLLM son los de la ejecución."
    ),
    "diag.kv_cache_too_small": "Caché KV demasiado pequeña para max_model_len",
    "diag.no_memory_for_cache_blocks": "No queda memoria para los bloques de caché",
    "diag.free_memory_below_utilization": "Memoria libre por debajo de la utilización pedida",
    "diag.cuda_out_of_memory": "CUDA sin memoria en ejecución",
    "diag.engine_failed": "El motor no arrancó (la causa no es una de las comprobaciones de KV)",
    "diag.started": "Arranque correcto",
    "diag.unknown": "No reconocido",
    "feasible.context": "Contexto (max_model_len)",
    "feasible.caption": (
        "Concurrencia máxima por longitud de contexto y tipo de caché KV (–: no arranca)"
    ),
    "chart.budget.title": "Presupuesto de memoria por GPU",
    "chart.concurrency.title": "Concurrencia máxima según max_model_len",
    "chart.concurrency.x": "max_model_len (tokens)",
    "chart.concurrency.y": "peticiones completas simultáneas",
    "chart.you": "usted",
    # Entradas hostiles (README "Hostile input"), versiones e identificadores (CONTRIBUTING.md §7).
    "err.number_too_long": "{field}: «{value}» es demasiado largo para ser un número válido.",
    "err.version_too_old": (
        "vLLM {value} es anterior a 0.6.0, versión que la calculadora no modela."
    ),
    "err.too_deep": (
        "La entrada tiene {value} niveles de anidamiento; se admiten como máximo {limit}."
    ),
    "err.ambiguous_model": (
        "«{value}» corresponde a varios modelos: {choices}. Escriba más caracteres del "
        "identificador."
    ),
    "err.ambiguous_gpu": (
        "«{value}» corresponde a varias GPU: {choices}. Escriba más caracteres del identificador."
    ),
    "err.did_you_mean": "¿Quiso decir {choices}?",
    "err.log_empty": "El registro está vacío: pegue la salida de vllm serve.",
    "err.not_a_regular_file": (
        "{value} no es un archivo normal (es un dispositivo, una tubería o una carpeta); indique "
        "un archivo, o - para la entrada estándar."
    ),
    "err.log_too_large": (
        "La entrada estándar supera los {limit} bytes; guarde el registro en un archivo."
    ),
    "err.unrepresentable": (
        "El resultado contiene un número demasiado grande para mostrarlo; revise si algún valor "
        "de entrada es extremo."
    ),
    "note.log_truncated": (
        "El registro supera los 5 MB: solo se han leído sus últimos 5 MB (las líneas de error "
        "fatal de vLLM están al final)."
    ),
    "err.url_value_dropped": "no se pudo leer el valor del enlace y se ha dejado vacío.",
    # el presupuesto estimado como intervalo (CONTRIBUTING.md §8)
    "fig.available_band": "{value}; probablemente entre {low} y {high} GiB",
    "verdict.borderline.title": "En el límite: depende de lo que vLLM mida al arrancar",
    "verdict.borderline.summary": (
        "Una petición de {max_model_len} tokens necesita {needed} de caché KV. La estimación deja "
        "{available} para ella, probablemente entre {low} y {high} GiB: dentro de ese intervalo "
        "vLLM puede arrancar o negarse. Los consejos siguientes valen también en el extremo "
        "pesimista."
    ),
    "note.band": (
        "La memoria disponible para la caché KV es un intervalo: cada término estimado arrastra "
        "el error observado frente a registros públicos de vLLM, y las soluciones se comprueban "
        "en su extremo pesimista."
    ),
    "note.encoder_estimated": (
        "Modelo multimodal: antes de medir, vLLM pasa por el codificador de visión imágenes (o "
        "vídeos) ficticias del mayor tamaño que acepta el procesador, tantas como caben en el "
        "presupuesto del codificador (el mayor entre --max-num-batched-tokens y una de ellas), y "
        "conserva sus salidas mientras corre el resto del perfilado. El pico de activaciones "
        "incluye una estimación de esa pasada, contrastada con pocos registros públicos. Con "
        "--limit-mm-per-prompt a 0 para una modalidad que no use, vLLM perfila en su lugar la "
        "siguiente más grande; con todas a 0, o con --skip-mm-profiling, la pasada desaparece (la "
        "calculadora muestra cada caso). Las cifras medidas de su registro sustituyen la "
        "estimación."
    ),
    "note.encoder_unknown": (
        "Modelo multimodal: antes de medir, vLLM pasa por el codificador de visión entradas "
        "ficticias del mayor tamaño que acepta el procesador; para este modelo ese tamaño no se "
        "conoce aquí, así que la estimación de activaciones deja fuera esa pasada y el extremo "
        "pesimista del intervalo se amplía. Introduzca las cifras medidas de su registro o ponga "
        "--limit-mm-per-prompt a 0 para las modalidades que no use."
    ),
    "note.encoder_skipped": (
        "Modelo multimodal con --skip-mm-profiling: vLLM perfila solo el modelo de lenguaje, así "
        "que la estimación de activaciones deja fuera el codificador de visión y no se reserva "
        "memoria para él. Las activaciones del codificador y su caché salen del margen cuando "
        "llegan las primeras imágenes; si no caben, las peticiones fallan con CUDA out of memory. "
        "Baje gpu_memory_utilization para dejarles sitio."
    ),
    "err.mm_limit_bad": (
        "{field}: «{value}» no es un límite que vLLM lea: indique un objeto JSON con números "
        'enteros por modalidad, como {{"image": 2, "video": 0}}.'
    ),
    "err.mm_limit_options": (
        "{field}: las opciones de tamaño ficticio ({key}) cambian el tamaño del elemento "
        'perfilado, que la calculadora no modela; indique solo la cantidad, como {{"image": 2}}.'
    ),
    "err.mm_limit_options_release": (
        '{field}: un diccionario por modalidad ({{"count": …}}) requiere vLLM 0.11.1 o posterior; '
        'vLLM {value} solo admite números enteros, como {{"image": 2}}.'
    ),
    "err.mm_limit_json_release": (
        "{field}: vLLM {value} solo lee la forma image=2,video=0 (los objetos JSON llegan en "
        "0.8.5)."
    ),
    "err.mm_limit_pairs_release": (
        '{field}: vLLM {value} solo lee un objeto JSON, como {{"image": 2, "video": 0}} (la forma '
        "image=2,video=0 desapareció en 0.10.0)."
    ),
    "err.skip_mm_profiling_release": (
        "--skip-mm-profiling requiere vLLM 0.10.1 o posterior; vLLM {value} rechaza la opción."
    ),
    "note.unified_memory": (
        "Esta GPU comparte la memoria con el sistema (memoria unificada): lo que el sistema y "
        "otros procesos ocupan mientras vLLM arranca se descuenta de la caché. Desde vLLM 0.11.1 "
        "la estimación cuenta 1,6 GiB por ello, el centro de los 1,3–2,7 GiB medidos en registros "
        "públicos de GB10; la cifra real cambia de un arranque a otro, así que indique la de su "
        "propio registro."
    ),
    "note.interconnect_assumed": (
        "La GPU se indica solo por su memoria, así que no se sabe cómo se conectan las GPU: la "
        "cifra central supone GPU de clase NVSwitch ({non_torch} de memoria fuera de PyTorch por "
        "GPU aquí); el intervalo cubre también PCIe y memoria unificada. Indique --interconnect "
        "(nvswitch, pcie o unified) para la cifra de su máquina."
    ),
    "note.term_few_rows": (
        "La estimación de {term} se apoya en {rows} registros públicos que la imprimen, menos de "
        "cinco: su parte del intervalo es lo menos comprobado de la estimación."
    ),
    "err.kv_dtype_release": (
        "--kv-cache-dtype {value} requiere vLLM {limit} o posterior: el vLLM de esta versión lo "
        "rechaza como opción no válida."
    ),
    "err.kv_dtype_turboquant": (
        "--kv-cache-dtype {value} aún no está modelado: sus capas cuantizadas ocupan {key} B por "
        "token y cabeza KV (K y V empaquetadas), pero vLLM deja sin cuantizar las dos primeras y "
        "las dos últimas capas, una mezcla de tamaños de página que la calculadora no construye. "
        "Introduzca en su lugar la «Available KV cache memory» y la capacidad de su registro."
    ),
    "err.kv_dtype_layout": (
        "--kv-cache-dtype {value} solo está modelado para modelos con cabezas de atención K y V, "
        "no para modelos MLA ni híbridos Mamba."
    ),
    "err.kv_dtype_gpu": (
        "vLLM no encuentra ningún backend de atención para --kv-cache-dtype {value} en esta GPU "
        "(capacidad de cómputo {key}): FlashInfer, el único backend que lo admite, requiere "
        "capacidad de cómputo {limit} en esta versión."
    ),
    "err.kv_dtype_rocm": (
        "vLLM no encuentra ningún backend de atención para --kv-cache-dtype {value} en GPU de "
        "AMD: FlashInfer, el único backend que lo admite, solo funciona con CUDA."
    ),
    "err.kv_dtype_not_implemented": (
        "vLLM 0.20.x acepta --kv-cache-dtype {value} pero se detiene al arrancar («nvfp4 KV cache "
        "is not yet supported»): use vLLM 0.21.0 o posterior."
    ),
    "err.kv_dtype_head_size": (
        "vLLM no encuentra ningún backend de atención para --kv-cache-dtype {value} con tamaño de "
        "cabeza 64 en esta GPU (capacidad de cómputo {key}): «fa2 prefill misreads an NVFP4 KV "
        "cache at head_size 64». Funciona con capacidad de cómputo 10.x (B200, B300)."
    ),
    "err.calculate_kv_scales_removed": (
        "--calculate-kv-scales se eliminó en vLLM 0.28.0: vLLM rechaza la opción (unrecognized "
        "arguments). Las escalas de la caché KV salen del checkpoint o valen 1.0; quite la opción."
    ),
    "err.kv_dtype_not_modelled": (
        "La calculadora aún no modela --kv-cache-dtype {value}. Introduzca en su lugar la "
        "«Available KV cache memory» y la capacidad de su registro."
    ),
    "err.model_name_unsafe": (
        "El nombre del modelo {value} contiene un salto de línea, un carácter de control o "
        "invisible, o empieza por '-': no puede ir en un comando vllm serve. Corrija "
        "_name_or_path en config.json."
    ),
    "err.flag_release": (
        "{key} requiere vLLM {minimum} o posterior; vLLM {value} la rechaza (unrecognized "
        "arguments)."
    ),
    "fig.draft_weights": "de ellos, capas MTP (--speculative-config)",
    "fig.lora": "de ellos, ranuras de adaptadores LoRA",
    "note.spec_mtp": (
        "Decodificación especulativa con MTP: vLLM carga las {layers} capa(s) MTP del checkpoint "
        "({weights} por GPU, como mucho {high}) y da a cada una su propia caché KV con la "
        "especificación de las capas del modelo, en los mismos grupos de caché KV; {tokens} "
        "tokens especulativos reutilizan las capas MTP. No se estima la parte del borrador en la "
        "ejecución de perfilado ni en los grafos CUDA."
    ),
    "note.spec_ngram": (
        "Decodificación especulativa con búsqueda de n-gramas en el prompt ({tokens} tokens): se "
        "ejecuta en la CPU y no añade pesos ni caché KV."
    ),
    "note.spec_mamba": (
        "Cada capa Mamba / de atención lineal guarda {tokens} estados más para los tokens "
        "especulativos (num_speculative_blocks de vLLM)."
    ),
    "note.lora": (
        "LoRA: {loras} ranura(s) de adaptador de rango {rank} ocupan {slots} por GPU (las pilas A "
        "y B de cada capa lineal, y de la incrustación y la cabeza LM donde la clase del modelo "
        "las envuelve), reservadas al cargar el modelo. --max-cpu-loras ({cpu}) dimensiona una "
        "caché solo en la memoria del sistema."
    ),
    "err.spec_config_bad": (
        '{field}: no se puede leer {value}; indique un objeto JSON como {{"method": "mtp", '
        '"num_speculative_tokens": 3}}.'
    ),
    "err.spec_config_key": "{field}: la calculadora no lee la(s) clave(s) {key}.",
    "err.spec_no_mtp_layers": (
        "{field}: {value} no tiene capas MTP (num_nextn_predict_layers / mtp_num_hidden_layers es "
        "0 o falta), así que vLLM no tiene ninguna que cargar."
    ),
    "err.spec_tokens_not_divisible": (
        "{field}: vLLM rechaza num_speculative_tokens {value}: por encima de las {limit} capa(s) "
        "MTP del checkpoint debe ser múltiplo de {limit}."
    ),
    "err.spec_deepseek_v4": (
        "{field}: MTP en DeepSeek-V4 no está modelado (su capa MTP recibe su propio grupo de "
        "caché KV)."
    ),
    "err.spec_model_type": (
        "{field}: MTP para el tipo de modelo {model_type} no está modelado; la calculadora lee "
        "las capas MTP de DeepSeek-V3/V3.2, GLM-4.5/4.7 y Qwen3-Next/3.5/3.6."
    ),
    "err.spec_v0": (
        "{field}: la decodificación especulativa en el motor V0 de vLLM no está modelada."
    ),
    "err.spec_draft": (
        "{field}: el método {value} necesita el modelo borrador {key}, cuya configuración no está "
        "en el catálogo de la calculadora; están modelados MTP y n-gramas, y EAGLE-3 si pega el "
        "config.json del borrador (draft_config)."
    ),
    "err.spec_method": "{field}: el método {value} no está modelado; MTP y n-gramas sí.",
    "err.spec_pp": (
        "{field}: la decodificación especulativa con paralelismo de canalización no está modelada."
    ),
    "err.lora_release": (
        "{field}: LoRA antes de vLLM 0.12.0 (con su vocabulario adicional) no está modelado."
    ),
    "err.lora_layout": (
        "{field}: LoRA solo se dimensiona para modelos de texto densos con la disposición de "
        "capas de Llama (no MoE, MLA, Mamba ni multimodales)."
    ),
    "err.lora_model_type": (
        "{field}: las capas LoRA del tipo de modelo {model_type} no están modeladas (Llama, "
        "Granite, Qwen2/3 y Gemma 2/3 sí)."
    ),
    "err.lora_tied": (
        "{field}: LoRA en un modelo cuya cabeza LM comparte los pesos de la incrustación no está "
        "modelado."
    ),
    "err.lora_pp": "{field}: LoRA con paralelismo de canalización no está modelado.",
    "err.spec_tokens_missing": (
        "{field}: vLLM necesita num_speculative_tokens aquí: la configuración de {value} no da "
        "ningún n_predict por defecto."
    ),
    "fact.tensor_parallel_size_at_least": (
        "Tamaño de paralelismo de tensor, como mínimo (rango de worker más alto + 1)"
    ),
    "fact.pipeline_parallel_size_at_least": (
        "Tamaño de paralelismo de pipeline, como mínimo (rango de worker más alto + 1)"
    ),
    "fact.world_size_at_least": "GPU, como mínimo (rango de worker más alto + 1)",
    "fact.hybrid_attention_block_size": (
        "Tamaño de bloque de atención fijado para el modelo híbrido"
    ),
    "fact.mamba_page_padding_pct": "Relleno de la página Mamba (%)",
    "fact.num_padding_layers": "Capas de relleno añadidas a los grupos de caché KV",
    "fact.mamba_cache_blocks": "Bloques de caché Mamba disponibles",
    "diag.load_out_of_memory": "CUDA sin memoria al cargar los pesos (arranque)",
    "diag.pre_flight": (
        "Antes de arrancar: un comando aún no ejecutado, con sus ajustes planificados"
    ),
    "verdict.load_out_of_memory.title": "CUDA se quedó sin memoria al cargar los pesos",
    "verdict.load_out_of_memory.summary": (
        "vLLM falló al arrancar, antes de dimensionar la caché KV: la parte de los pesos de una "
        "GPU (con lo que reserva el cargador) no cupo en la memoria que quedaba. Reparta el "
        "modelo en más GPU, use pesos cuantizados o libere la GPU de otros procesos."
    ),
    "note.two_models": (
        "El registro nombra varios modelos ({models}); el diagnóstico y las cifras son los de su "
        "último arranque, {used}."
    ),
    "note.two_starts": (
        "El registro contiene {n} arranques de vLLM; el diagnóstico y las cifras son los del "
        "último."
    ),
    "note.parallel_at_least": (
        "Los prefijos de los workers muestran {what} de al menos {n}, y el registro no indica el "
        "tamaño: el plan usa {n}. Indique el tamaño real (--tensor-parallel-size, "
        "--pipeline-parallel-size) si era mayor."
    ),
    "note.log_mismatch": (
        "Aviso: el recálculo no coincide con {figure} del registro: el registro imprime "
        "{printed}, el recálculo da {recomputed} ({pct} de diferencia), más allá del redondeo del "
        "propio registro. Causas probables: otro modelo o checkpoint que el del registro, otro "
        "tipo de dato de la caché KV o un ajuste que el registro no muestra (indíquelo como "
        "opción, que prevalece sobre el registro)."
    ),
    "note.pre_flight": (
        "Antes de arrancar: este es el plan del comando antes de ejecutarlo, con sus propios "
        "ajustes; lo que el comando no fija toma los valores por defecto de vLLM y las "
        "estimaciones de la calculadora."
    ),
    "diag.mamba_blocks_below_max_num_seqs": (
        "Menos bloques de caché Mamba que max_num_seqs (modelo híbrido)"
    ),
    "quote.cut": "… ({n} caracteres)",
    "err.answer_too_large": (
        "La respuesta tendría más de {limit} caracteres; pegue menos (solo las líneas de arranque "
        "del registro, solo config.json)."
    ),
    "err.output_failed": "No se puede escribir la salida: {value}.",
    "err.encoder_model": (
        "{model_type}: los modelos solo codificador y codificador-decodificador dimensionan su "
        "caché con otras reglas en vLLM, que la calculadora no modela."
    ),
    "err.invisible_id": (
        "{field}: el identificador contiene un carácter invisible o de control ({value}); "
        "escríbalo de nuevo sin él."
    ),
    "note.assumed_architecture": (
        "Desconocido para la calculadora: {what}. Se planifica como un decodificador estándar "
        "(atención completa en cada capa, MLP con compuerta, rope, pesos de 16 bits salvo que se "
        "conozca la cuantización); contraste las cifras con el propio registro de vLLM."
    ),
    "ask.model": (
        "El registro no nombra el modelo: elija el modelo que sirve (o pegue su config.json) para "
        "el plan completo."
    ),
    "ask.gpu": (
        "El registro no dice qué GPU: elíjala (o introduzca su memoria) para el plan completo."
    ),
    "ask.model_gpu": (
        "El registro no nombra ni el modelo ni la GPU: elija el modelo que sirve (o pegue su "
        "config.json) y la GPU para el plan completo."
    ),
    "cli.ask.model": (
        "El registro no nombra el modelo: indique --model (un id del catálogo) o --config (su "
        "config.json) para el plan completo."
    ),
    "cli.ask.gpu": (
        "El registro no dice qué GPU: indique --gpu (un id del catálogo) o --gpu-memory-gib para "
        "el plan completo."
    ),
    "cli.ask.model_gpu": (
        "El registro no nombra ni el modelo ni la GPU: indique --model (o --config) y --gpu (o "
        "--gpu-memory-gib) para el plan completo."
    ),
    "rec.lower_max_model_len.band.title": "Baje --max-model-len a {value}",
    "rec.lower_max_model_len.band.detail": (
        "La calculadora estima que caben como máximo {estimated} tokens; en el extremo pesimista "
        "de su estimación ({edge_gib} GiB disponibles) caben {edge_estimated}, así que esta "
        "longitud arranca mida lo que mida vLLM. Súbala cuando el servicio sea estable."
    ),
    "rec.lower_max_model_len.borderline.title": "Baje --max-model-len a {value} (al límite)",
    "rec.lower_max_model_len.borderline.detail": (
        "Con la estimación central de la calculadora caben como máximo {estimated} tokens, y esta "
        "longitud es el 60–80 % de esa cifra ({low}–{high}); en el extremo pesimista de la "
        "estimación ({edge_gib} GiB disponibles) no cabe ni una petición corta, así que solo "
        "arranca si vLLM mide algo cercano a la cifra central. Compruebe la línea Available KV "
        "cache memory de su registro."
    ),
    "rec.kv_cache_memory_bytes.checked.title": (
        "Fije el presupuesto KV: --kv-cache-memory-bytes {value}"
    ),
    "rec.kv_cache_memory_bytes.checked.detail": (
        "Sustituye el cálculo basado en la utilización por una cifra exacta por GPU ({gib} GiB, "
        "suficiente para una petición completa). Con el resto de la memoria de vLLM equivale a "
        "unos {utilization} de la GPU, dentro del 0,95 que deja el margen que recomienda la guía. "
        "vLLM deja de comprobar que pesos y caché quepan en la GPU: ese margen pasa a ser suyo."
    ),
    "rec.quantize_weights.catalog.title": "Use el checkpoint cuantizado {model}",
    "rec.quantize_weights.catalog.detail": (
        "El checkpoint cuantizado de este modelo que tiene el catálogo, pesado tal como se "
        "almacena. Unos pesos más pequeños dejan sitio a la caché KV; compruebe su calidad para "
        "su tarea."
    ),
    "rec.quantize_weights.generic.title": "Use un checkpoint cuantizado de este modelo",
    "rec.quantize_weights.generic.detail": (
        "Un checkpoint de 4 bits (AWQ/GPTQ) o fp8 de este modelo reduce la partida más grande del "
        "presupuesto. Las cifras suponen uno AWQ de 4 bits (pesos de 4 bits más una escala de 16 "
        "bits y un punto cero de 4 bits por grupo de 128); sirva el repositorio de ese checkpoint "
        "en lugar de este y compruebe su calidad para su tarea."
    ),
    "rec.larger_gpu.usable.title": "Use una GPU mayor ({gpu})",
    "rec.larger_gpu.usable.detail": (
        "{gpu} ({gib} GiB) es la GPU más pequeña del catálogo con más memoria utilizable que la "
        "{current} con la que esta configuración arranca. El comando no cambia: ejecute el mismo "
        "comando en esa GPU."
    ),
    "rec.result.does_not_fit_edge": (
        "sigue sin caber en el extremo pesimista de la estimación (necesita {needed}, hay "
        "{available} ahí; {base} sin este cambio)"
    ),
    "rec.raise_gpu_memory_utilization.log.title": (
        "Suba --gpu-memory-utilization, si la GPU no ejecuta nada más"
    ),
    "rec.raise_gpu_memory_utilization.log.detail": (
        "La sugerencia del propio vLLM: una utilización baja no deja nada a la caché, por pequeño "
        "que sea el modelo. Bajarla empeora este error."
    ),
    "rec.lower_gpu_memory_utilization.runtime.title": "Baje --gpu-memory-utilization a {to}",
    "rec.lower_gpu_memory_utilization.runtime.detail": (
        "vLLM reservó toda la caché KV al arrancar; lo que se agotó es el margen fuera de su "
        "presupuesto. Algo menos de utilización deja más margen."
    ),
    "rec.limit_concurrency.oom.title": "Reduzca el lote del perfilado: {flags}",
    "rec.limit_concurrency.oom.detail": (
        "El lote ficticio de --max-num-batched-tokens tokens de la pasada de perfilado y el "
        "calentamiento del muestreador con --max-num-seqs peticiones necesitaron más de lo que "
        "había libre; valores más pequeños reducen ambos."
    ),
    "note.available_implausible": (
        "La memoria KV disponible que da su registro ({available} GiB) está por debajo del "
        "extremo pesimista de la estimación de la calculadora para este modelo y esta GPU ({low} "
        "GiB): probablemente algo ajeno a este vLLM (otro proceso, una segunda instancia "
        "arrancando en la misma GPU) ocupaba memoria mientras perfilaba. Revise nvidia-smi; vea "
        "«Memoria libre por debajo de la utilización pedida»."
    ),
    "err.max_model_len_too_long_rope": (
        "max_model_len {value} supera el máximo del modelo ({limit}). Su ficha amplía el contexto "
        "con el escalado RoPE YaRN hasta {maximum} tokens: añada {key}. "
        "(VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 solo omite la comprobación, sin escalar)."
    ),
    "diag.cuda_out_of_memory_startup": "CUDA sin memoria al arrancar",
    "verdict.cuda_out_of_memory_startup.title": "CUDA se quedó sin memoria al arrancar",
    "verdict.cuda_out_of_memory_startup.summary": (
        "vLLM se quedó sin memoria antes de terminar de arrancar: al cargar los pesos, en la "
        "pasada de perfilado o al capturar los grafos CUDA. Las soluciones de abajo dependen de "
        "dónde se detuvo."
    ),
    "fact.kv_cache_group_block_sizes": "Tamaño de bloque de cada grupo de caché KV (tokens)",
    "fact.full_kv_cache_memory_bytes": (
        "--kv-cache-memory que vLLM sugiere para usar toda la memoria libre"
    ),
    "err.dtype_float32_budget": (
        "{field} {value}: el presupuesto de memoria se estima solo para pesos y activaciones de 16 "
        "bits. Indique la memoria de caché KV disponible que imprime su log (available_kv_gib) o "
        "kv_cache_memory_bytes, y el plan se calcula a 4 bytes por elemento."
    ),
    "err.dp_release": (
        "{field}: el paralelismo de datos y de expertos está modelado desde vLLM {limit} (la "
        "versión que reparte las capas MoE entre todos los rangos de datos × tensor); estas "
        "reglas son {value}."
    ),
    "note.expert_parallel": (
        "Paralelismo de datos {dp} × de tensor {tp}: las capas MoE ocupan {ranks} GPU; {how}. La "
        "atención, los expertos compartidos y las incrustaciones quedan en las GPU de TP de cada "
        "réplica de datos, y cada réplica tiene su propia caché KV, dimensionada y comprobada "
        "como arriba. No se cuentan los búferes all-to-all del paralelismo de expertos."
    ),
    "note.expert_parallel.ep": (
        "con --enable-expert-parallel cada una guarda expertos enteros, {local} de {experts} en "
        "la más cargada"
    ),
    "note.expert_parallel.tp": (
        "sin --enable-expert-parallel cada experto se reparte entre ellas (1/{ranks} cada una)"
    ),
    "note.calculate_kv_scales_deprecated": (
        "--calculate-kv-scales está obsoleta desde vLLM {since} (vLLM lo avisa al arrancar) y se "
        "eliminó en {removed}, que la rechaza: el comando aún funciona en esta versión, no desde "
        "{removed}."
    ),
    "fig.draft_weights_eagle3": "de ellos, el borrador EAGLE-3 (--speculative-config)",
    "note.spec_eagle3": (
        "Decodificación especulativa con EAGLE-3: vLLM carga el borrador de la configuración "
        "pegada, {weights} por GPU (sus capas de decodificador, fc, normas, cabeza LM sobre su "
        "vocabulario de borrador; la incrustación es la del modelo), y da a cada una de sus "
        "{layers} capa(s) una caché KV de atención completa con la especificación del modelo, en "
        "el mismo grupo de caché KV; {tokens} tokens especulativos por paso. No se cuenta la "
        "parte del borrador en la pasada de perfilado ni en los grafos CUDA."
    ),
    "err.draft_config_bad": (
        "{field}: {value} no es un config.json de borrador; pegue el config.json del checkpoint "
        "EAGLE-3 que nombra speculative_config."
    ),
    "err.spec_eagle3_layout": (
        "{field}: este borrador EAGLE-3 no está modelado: solo se dimensionan borradores con la "
        "estructura de Llama (LlamaForCausalLMEagle3) con las cabezas KV y el tamaño de cabeza "
        "del modelo, para modelos con atención completa en todas las capas."
    ),
    "err.spec_draft_tp": (
        "{field}: draft_tensor_parallel_size {key} no coincide con el paralelismo de tensor del "
        "modelo; un borrador EAGLE se ejecuta con el del modelo."
    ),
    "err.draft_config_unused": (
        "{field}: el config.json del borrador solo se lee con --speculative-config de método "
        "eagle3."
    ),
    "note.log_refined_estimate": (
        "El registro imprime la memoria disponible redondeada a 0,01 GiB ({gib} GiB); el plan usa "
        "{bytes} B, la cifra dentro de ese redondeo más cercana a ella que da la longitud máxima "
        "estimada del propio registro ({tokens} tokens), así que las líneas recalculadas "
        "coinciden con las del registro."
    ),
}

ZH: dict[str, str] = {
    "err.config_unreadable": "无法读取 {value} 处的 config.json。",
    "err.log_unreadable": "无法读取日志文件 {value}。",
    "verdict.fits.title": "vLLM 可以启动：KV 缓存放得下",
    "verdict.fits.summary": (
        "一个 {max_model_len} token 的请求需要 {needed} KV 缓存，可用 {available}。同时约可容纳 "
        "{concurrency} 个这样的请求（共 {tokens} 个 token）。"
    ),
    "verdict.does_not_fit.title": "vLLM 拒绝启动：KV 缓存不够",
    "verdict.does_not_fit.summary": (
        "一个 {max_model_len} token 的请求需要 {needed} KV 缓存，但只有 {available} 可用。能放下的"
        "最长上下文约为 {estimated} 个 token。"
    ),
    "verdict.weights_do_not_fit.title": "仅权重就放不下",
    "verdict.weights_do_not_fit.summary": (
        "扣除权重和运行时显存后，KV 缓存已无空间（{available}）。vLLM 会报 “No available memory "
        "for the cache blocks” 并退出。"
    ),
    "verdict.auto_fit_failed.title": "--max-model-len auto 连一个 token 都放不下",
    "verdict.auto_fit_failed.summary": (
        "可用的 KV 显存（{available}）连一个块都放不下；请先减少 GPU 上的其他占用。"
    ),
    "verdict.free_memory_below_utilization.title": "有其他进程占用显存",
    "verdict.free_memory_below_utilization.summary": (
        "vLLM 需要 {requested} 显存，但启动时只有 {free} 空闲。请降低 gpu_memory_utilization 或释"
        "放 GPU。"
    ),
    "verdict.started.title": "日志显示启动成功",
    "verdict.started.summary": (
        "vLLM 报告了 {tokens} 个 token 的 KV 缓存；下面的数字根据日志重新计算。"
    ),
    "verdict.cuda_out_of_memory.title": "运行时 CUDA 显存不足",
    "verdict.cuda_out_of_memory.summary": (
        "启动检查已通过，但之后的一次分配失败：预算给激活值或其他进程留的余量太少。"
    ),
    "verdict.unknown.title": "没有找到 vLLM 的显存相关信息",
    "verdict.unknown.summary": (
        "请粘贴从第一行到报错为止的启动日志（包含 “Available KV cache memory” 或报错原文的那些"
        "行）。"
    ),
    "verdict.mamba_blocks_below_max_num_seqs.title": (
        "vLLM 在捕获 CUDA graph 时停止：Mamba 缓存块少于 max_num_seqs"
    ),
    "verdict.mamba_blocks_below_max_num_seqs.summary": (
        "KV 缓存能容纳一个 {max_model_len} token 的请求，但缓存池只有 {blocks} 个块，而 "
        "max_num_seqs 为 {max_num_seqs}：每个解码中的序列都需要自己的 Mamba 状态块才能使用 CUDA "
        "graph。"
    ),
    "rec.limit_concurrency.mamba.title": "把序列数限制在 Mamba 缓存块数以内：{flags}",
    "rec.limit_concurrency.mamba.detail": (
        "这是 vLLM 自己的建议：最多 {blocks} 个序列时，每个解码中的序列都有一个 Mamba 状态块，"
        "CUDA graph 就能捕获。"
    ),
    "rec.result.mamba_blocks": "仍会停止：{blocks} 个块，而 max_num_seqs 为 {max_num_seqs}",
    "verdict.weights_exceed_gpu.title": "仅权重就超过了 GPU 显存",
    "verdict.weights_exceed_gpu.summary": (
        "仅权重每张 GPU 就需要 {weights}，超过了 GPU 的 {total}：vLLM 在加载权重时就会报 “CUDA "
        "out of memory”，根本走不到 KV 缓存的计算。请换用量化权重，或把模型切到更多 GPU 上。"
    ),
    "serve.current.starts": "当前命令（可以启动）",
    "serve.current.fails": "当前命令（无法启动）",
    "rec.result.label": "结果",
    "cli.log.diagnosis": "诊断",
    "cli.log.facts": "日志中的数字",
    "cli.log.no_facts": "日志里没有 vLLM 打印的显存数字。",
    "cli.log.not_recomputed": "未能重新计算",
    "chart.budget.needed": "单个请求需要 {needed}",
    "chart.you_at": "你的设置：{length}",
    "rec.result.choose_model": "选择模型（或粘贴它的 config.json）后才能算出",
    "verdict.log_only.summary": (
        "这些数字只来自你的日志。选择它所服务的模型（或粘贴 config.json），即可得到完整方案：显存"
        "预算、块数、并发以及每条修复建议的计算结果。"
    ),
    "note.chosen_model_over_log": (
        "日志中的模型是 {logged}，但本方案按您选择的模型 {planned} 计算：下面的所有数字都属于该模"
        "型，而不是这次运行。清空模型字段（CLI 中去掉 --model）即可按日志自己的模型规划。"
    ),
    "note.model_not_planned": (
        "计算器无法为日志中的模型制定方案：请选择它所基于的模型，或粘贴其 config.json，以得到完整"
        "方案。"
    ),
    "note.choose_model": "日志里没有模型名：请在上方选择模型或粘贴 config.json，以得到完整方案。",
    "fig.kv_per_token_from_log": "每 token 的 KV 缓存（按日志中四舍五入的 GiB 估算）",
    "fig.kv_per_token": "每个 token 的 KV 缓存（每张 GPU，所有层）",
    "fig.needed_kv": "单个请求所需 KV 缓存",
    "fig.available_kv": "可用 KV 缓存显存（每张 GPU）",
    "fig.num_blocks": "GPU 块数",
    "fig.tokens": "GPU KV 缓存容量",
    "fig.concurrency": "max_model_len 下的最大并发",
    "fig.estimated_max_len": "能放下的最长上下文",
    "fig.max_model_len": "检查所用的 max_model_len",
    "fig.total": "GPU 显存（驱动报告的总量）",
    "fig.requested": "vLLM 的份额（总量 × 利用率）",
    "fig.weights": "模型权重",
    "fig.activation": "激活峰值",
    "fig.non_torch": "非 PyTorch 显存",
    "fig.cudagraph": "CUDA Graph",
    "fig.kv": "KV 缓存",
    "fig.headroom": "vLLM 份额之外的余量",
    "fig.estimate_suffix": "（估算）",
    "fig.tokens_value": "{tokens} 个 token",
    "fig.concurrency_value": "{concurrency}x",
    "fig.blocks_value": "{blocks} 个块，每块 {block_size} 个 token",
    "fig.len_value": "{value} 个 token",
    "rec.lower_max_model_len.title": "把 --max-model-len 降到 {value}",
    "rec.lower_max_model_len.detail": (
        "vLLM 估计最多能放下 {estimated} 个 token；先取它的 60%–80%（{low}–{high}），服务稳定后再"
        "逐步调高。"
    ),
    "rec.limit_concurrency.title": "限制并发：{flags}",
    "rec.limit_concurrency.detail": (
        "更少的序列和更小的批次会降低显存分析时的激活峰值和 CUDA Graph 占用，给 KV 缓存留出更多显"
        "存。它不会改变单个请求的需求。"
    ),
    "rec.raise_gpu_memory_utilization.title": "把 --gpu-memory-utilization 从 {from} 调到 {to}",
    "rec.raise_gpu_memory_utilization.detail": (
        "小步调整并用真实请求测试；超过 {warn_above} 后，留给 CUDA Graph、其他进程和峰值的余量很"
        "小，运行时容易 OOM。"
    ),
    "rec.fp8_kv_cache.title": "用 fp8 存储 KV 缓存：--kv-cache-dtype fp8",
    "rec.fp8_kv_cache.detail": (
        "16 位缓存的每 token 字节数减半。先确认 GPU、vLLM 版本和模型都支持，并在默认精度下对比测试"
        "长上下文、复杂推理、工具调用和结构化输出。"
    ),
    "rec.kv_cache_memory_bytes.title": "固定 KV 预算：--kv-cache-memory-bytes {value}",
    "rec.kv_cache_memory_bytes.detail": (
        "用每张 GPU 的精确数值（{gib} GiB，够一个完整请求）取代按利用率推算。此后 vLLM 不再检查权"
        "重加缓存是否放得下，这部分余量需要你自己把握。"
    ),
    "rec.kv_cache_memory_bytes.free.title": "或者用 --kv-cache-memory-bytes 给 vLLM 固定的 KV 预算",
    "rec.kv_cache_memory_bytes.free.detail": (
        "每张 GPU 一个固定数值，能让同卡上的多个服务互不干扰。"
    ),
    "rec.cpu_offload.title": "每张 GPU 把 {gib} GiB 权重放到 CPU 内存：--cpu-offload-gb {gib}",
    "rec.cpu_offload.detail": (
        "vLLM 每次前向都要经 PCIe 把卸载的权重搬回来：能启动，但每一步都慢得多。只适合先把模型跑起"
        "来，不适合正式服务。（KV offload 是另一回事：GPU 上放不下的请求，它也救不了。）"
    ),
    "rec.quantize_weights.title": "换用量化权重（AWQ/GPTQ 4 bit 或 fp8）",
    "rec.quantize_weights.detail": (
        "权重变小就能给 KV 缓存腾出空间；这里的数字按同一模型的 4 bit AWQ 版本计算。"
    ),
    "rec.add_gpus.title": "把模型切到更多 GPU 上：--tensor-parallel-size {tp}",
    "rec.add_gpus.detail": "张量并行会把权重和 KV 头分摊到多张 GPU 上。",
    "rec.larger_gpu.title": "换更大的 GPU（{gpu}）",
    "rec.larger_gpu.detail": "目录中能让这套配置启动的最小 GPU。",
    "rec.enforce_eager.title": "关闭 CUDA Graph：--enforce-eager",
    "rec.enforce_eager.detail": (
        "不捕获 CUDA Graph，这部分显存就留给了 KV 缓存（vLLM 自 0.20 起从 KV 预算中扣除它）；代价"
        "是解码速度略有下降。"
    ),
    "rec.lower_gpu_memory_utilization.title": "把 --gpu-memory-utilization 降到 {to}",
    "rec.lower_gpu_memory_utilization.detail": (
        "vLLM 启动时会按整张卡的比例申请显存；卡上有其他进程时，申请量要低于空闲量。"
    ),
    "rec.free_the_gpu.title": "停掉占用显存的其他进程",
    "rec.free_the_gpu.detail": (
        "用 nvidia-smi 查看：另一个 vLLM 实例、notebook 或桌面程序都可能占用显存。给每个实例明确的"
        "预算，而不是都设成 0.9。"
    ),
    "rec.result.fits": "可以启动（{max_model_len} token 时 {concurrency}x）",
    "rec.result.does_not_fit": "仍然放不下（需要 {needed}，可用 {available}）",
    "rec.result.unknown": "由 vLLM 在启动时实测，请试一下",
    "rec.result.exceeds_gpu": "注意：按我们的估算，权重加上这个预算会超过 GPU 显存。",
    "note.estimates": (
        "权重、激活峰值、非 PyTorch 显存和 CUDA Graph 显存都是估算值；vLLM 会在启动时实测。可在“实"
        "测数值”中填入日志里的数字来替换它们。"
    ),
    "note.measured": "可用 KV 显存取自你的输入；从这里开始的计算与 vLLM 完全一致。",
    "note.fixed_budget": (
        "设置 --kv-cache-memory-bytes 后，vLLM 在每张 GPU 上使用该数值，并忽略 "
        "gpu_memory_utilization。"
    ),
    "note.rules": "按 {rules} 的规则计算。",
    "note.hma_off": "混合 KV 缓存管理器已关闭：滑动窗口层也要为所有 token 预留显存。",
    "note.padding": "vLLM 会为该模型的 KV 缓存组补齐 {n} 层。",
    "note.mamba": (
        "Mamba 缓存模式 {mode}：注意力块为 {block} 个 token，每个 Mamba 层的状态补齐为一页 "
        "{page}；无论请求多长，每个请求在每个 Mamba 组中占用 {states} 页状态。"
    ),
    "err.not_an_integer": "{field}：“{value}” 不是整数（例如 32768、32k、32K）。",
    "err.binary_suffix_decimal": (
        "{field}：二进制后缀（K、M、G）不能带小数；请把 “{value}” 改用小写的十进制后缀或写成整数。"
    ),
    "err.out_of_range": "{field}：{value} 超出允许范围（{minimum} 到 {maximum}）。",
    "err.not_a_number": "{field}：“{value}” 不是数字。",
    "err.not_a_boolean": "{field}：“{value}” 不是 true 或 false。",
    "err.bad_choice": "{field}：“{value}” 不在可选值中：{choices}。",
    "err.config_not_json": "config.json 不是合法的 JSON（第 {line} 行，第 {column} 列）。",
    "err.config_not_object": "config.json 必须是一个 JSON 对象（{{…}}）。",
    "err.config_too_large": "内容超过 2 MB：请只粘贴 config.json。",
    "err.config_missing_key": "config.json 缺少 “{key}”，无法计算 KV 缓存大小。",
    "err.config_bad_value": "config.json 中的 “{key}” 无效：{value}。",
    "err.unsupported_architecture": (
        "{model_type}：计算器尚未覆盖该模型的 Mamba 或线性注意力状态布局。请填入日志中的 "
        "“Available KV cache memory”，并以 vLLM 自己的数字为准。"
    ),
    "err.model_removed": "{model_type}：vLLM 已不再支持该模型；最后支持它的版本是 {value}。",
    "err.mamba_tp_not_divisor": (
        "模型的 {key}（{limit}）无法平均分到 {value} 张 GPU 上：vLLM 要求张量并行数能整除它。"
    ),
    "err.unknown_model": "未知模型 “{value}”。请从列表中选择，或粘贴它的 config.json。",
    "err.unknown_gpu": "未知 GPU “{value}”。请从列表中选择，或填写显存大小（GiB）。",
    "err.missing_model": "请选择模型或粘贴它的 config.json。",
    "err.missing_gpu": "请选择 GPU、填写显存大小，或填写实测的可用 KV 显存。",
    "err.tp_not_divisor": (
        "模型的 {limit} 个注意力头无法平均分到 {value} 张 GPU 上：张量并行数必须能整除它。"
    ),
    "err.max_model_len_too_long": (
        "max_model_len {value} 超过模型上限（{limit}）；除非设置 VLLM_ALLOW_LONG_MAX_MODEL_LEN=1，"
        "vLLM 会拒绝。"
    ),
    "err.auto_unsupported": "--max-model-len auto 需要 vLLM 0.14 或更新版本。",
    "err.bad_version": "无法识别 vLLM 版本 “{value}”（例如 0.10.1、0.11.0、latest）。",
    "err.unknown_input": "未知输入 “{value}”。",
    "err.unsupported": "vLLM 不支持这种组合。",
    "err.v4_not_served": (
        "{value} 会以 \"Model architectures ['DeepseekV4ForCausalLM'] are not supported for "
        'now." 停止：DeepSeek-V4 自 vLLM 0.20.0 起才受支持。'
    ),
    "err.v4_not_modelled": "计算器未建模 {field} = {value} 时的 DeepSeek-V4。",
    "err.v4_block_too_small": (
        "vLLM 0.20–0.26 在 DeepSeek-V4 使用 --block-size {value} 时会停止：64 token 的滑动窗口页大"
        "于所有 MLA 页，而 vLLM 断言不得如此。请使用 --block-size 256。"
    ),
    "err.v4_kv_cache_dtype": (
        'vLLM 拒绝为 DeepSeek-V4 使用 --kv-cache-dtype {value}（"{assertion} {value}"）：请使用 '
        "--kv-cache-dtype fp8。"
    ),
    "err.dcp_refused": (
        "vLLM 拒绝在张量并行度 {limit} 下使用 --decode-context-parallel-size {value}。vLLM 的消"
        "息：{key}"
    ),
    "err.bad_request": "计算器收到了格式错误的请求。",
    "err.internal": "计算器内部错误，请附上此链接反馈。",
    "fact.vllm_version": "vLLM 版本",
    "fact.model": "模型",
    "fact.gpu_name": "GPU",
    "fact.derived_max_model_len": "模型的完整上下文（自动适配之前）",
    "fact.tensor_parallel_size": "张量并行数",
    "fact.pipeline_parallel_size": "流水线并行数",
    "fact.decode_context_parallel_size": "解码上下文并行数",
    "fact.prefill_context_parallel_size": "预填充上下文并行数",
    "fact.dtype": "模型数据类型",
    "fact.quantization": "量化方式",
    "fact.kv_cache_dtype": "KV 缓存数据类型",
    "fact.block_size": "块大小",
    "fact.gpu_memory_utilization": "GPU 显存利用率",
    "fact.gpu_memory_utilization_without_cudagraph_profiling": (
        "不对 CUDA Graph 做显存分析时的等效利用率"
    ),
    "fact.max_num_seqs": "同时处理的最多序列数",
    "fact.max_num_batched_tokens": "每批最多 token 数",
    "fact.enable_prefix_caching": "前缀缓存",
    "fact.enforce_eager": "Eager 模式（不用 CUDA Graph）",
    "fact.mamba_cache_mode": "Mamba 缓存模式",
    "fact.mamba_ssm_cache_dtype": "Mamba SSM 状态数据类型",
    "fact.limit_mm_per_prompt": "每个提示的多模态条目数",
    "fact.skip_mm_profiling": "跳过多模态显存分析",
    "fact.kv_cache_memory_bytes": "固定的 KV 缓存显存（每张 GPU）",
    "fact.kv_cache_memory_fixed": "KV 缓存显存由 kv_cache_memory_bytes 固定",
    "fact.free_memory_gib": "启动时的空闲显存",
    "fact.consumed_memory_gib": "权重与非 PyTorch 显存（已占用）",
    "fact.peak_torch_memory_gib": "PyTorch 显存峰值",
    "fact.cudagraph_estimate_gib": "CUDA Graph（捕获前 vLLM 的估算）",
    "fact.suggested_kv_cache_memory_bytes": "vLLM 建议的 --kv-cache-memory",
    "fact.oom_tried_to_allocate_mib": "分配失败的大小",
    "fact.yes": "是",
    "fact.no": "否",
    "note.log_refined": (
        "日志打印的可用显存四舍五入到了 0.01 GiB（{gib} GiB）；方案采用 {bytes} B，即在这一舍入范"
        "围内、最接近该值且能得到日志自身容量（{blocks} 个块）的数字，因此重新计算出的各行与日志一"
        "致。"
    ),
    "note.log_least_worker": (
        "vLLM 只打印一个进程的可用 KV 缓存显存（{gib} GiB），但按显存最少的那块 GPU 来确定缓存大"
        "小：日志中的 {logged} 个块相当于那块 GPU 上约 {implied} GiB，比 {gib} GiB 能给出的少 "
        "{blocks} 个块。方案采用这个数字，因此其容量行与日志一致。"
    ),
    "note.log_disagrees": (
        "日志中的数字与重新计算相差 {blocks} 个块（日志 {logged}，重新计算 {recomputed}）：在这个"
        "模型和这些设置下，任何打印为 {gib} GiB 的可用显存都得不到日志中的容量，因此方案采用打印出"
        "的数字。请确认模型、参数和 vLLM 版本与实际运行的一致。"
    ),
    "note.log_unreachable": (
        "在这个模型和这些设置下，任何可用显存都得不到日志中的容量，因此方案采用打印出的 {gib} "
        "GiB。请确认模型、参数和 vLLM 版本与实际运行的一致。"
    ),
    "diag.kv_cache_too_small": "KV 缓存不足以支持 max_model_len",
    "diag.no_memory_for_cache_blocks": "没有显存留给缓存块",
    "diag.free_memory_below_utilization": "空闲显存低于申请的利用率",
    "diag.cuda_out_of_memory": "运行时 CUDA 显存不足",
    "diag.engine_failed": "引擎启动失败（原因不在 KV 检查之列）",
    "diag.started": "启动成功",
    "diag.unknown": "无法识别",
    "feasible.context": "上下文（max_model_len）",
    "feasible.caption": "按上下文长度和 KV 缓存类型的最大并发（–：无法启动）",
    "chart.budget.title": "每张 GPU 的显存预算",
    "chart.concurrency.title": "最大并发随 max_model_len 的变化",
    "chart.concurrency.x": "max_model_len（token）",
    "chart.concurrency.y": "同时容纳的满长请求数",
    "chart.you": "当前",
    # 恶意输入（README "Hostile input"）与版本、ID 匹配（CONTRIBUTING.md §7）。
    "err.number_too_long": "{field}：“{value}” 太长，不是有效的数字。",
    "err.version_too_old": "vLLM {value} 早于 0.6.0，计算器不对其建模。",
    "err.too_deep": "输入嵌套了 {value} 层；最多允许 {limit} 层。",
    "err.ambiguous_model": "“{value}” 可对应多个模型：{choices}。请输入更完整的 ID。",
    "err.ambiguous_gpu": "“{value}” 可对应多个 GPU：{choices}。请输入更完整的 ID。",
    "err.did_you_mean": "您是不是要找 {choices}？",
    "err.log_empty": "日志为空：请粘贴 vllm serve 的输出。",
    "err.not_a_regular_file": (
        "{value} 不是普通文件（而是设备、管道或文件夹）；请指定一个文件，或用 - 表示标准输入。"
    ),
    "err.log_too_large": "标准输入超过 {limit} 字节；请先把日志保存到文件中。",
    "err.unrepresentable": "结果中的数字太大，无法显示；请检查输入中是否有极端值。",
    "note.log_truncated": "日志超过 5 MB：只读取了最后 5 MB（vLLM 的致命错误行在末尾）。",
    "err.url_value_dropped": "无法读取链接中的值，已留空。",
    # 估算的显存预算是一个区间（CONTRIBUTING.md §8）
    "fig.available_band": "{value}，很可能在 {low}–{high} GiB 之间",
    "verdict.borderline.title": "临界：取决于 vLLM 启动时实测的数值",
    "verdict.borderline.summary": (
        "一个 {max_model_len} token 的请求需要 {needed} KV 缓存。估算留给它的是 {available}，很可"
        "能在 {low} 到 {high} GiB 之间：在这个区间内，vLLM 可能启动，也可能拒绝启动。下面的建议在"
        "最悲观的一端也成立。"
    ),
    "note.band": (
        "可用 KV 缓存显存是一个区间：每个估算项都带着与公开 vLLM 日志对比得到的误差，调整建议按区"
        "间最悲观的一端检验。"
    ),
    "note.encoder_estimated": (
        "多模态模型：vLLM 在测量前会让视觉编码器处理处理器所允许的最大尺寸的虚拟图像（或视频），数"
        "量以编码器预算为限（--max-num-batched-tokens 与单个此类输入两者中的较大者），并在显存分析"
        "的其余过程中保留其输出。激活峰值已包含对这一步的估算，但只对照过少量公开日志。用 "
        "--limit-mm-per-prompt 把不用的模态设为 0，vLLM 会改用次大的模态做显存分析；所有模态都设"
        "为 0，或使用 --skip-mm-profiling，则不再运行这一步（计算器会分别显示）。日志中的实测数值"
        "会取代估算。"
    ),
    "note.encoder_unknown": (
        "多模态模型：vLLM 在测量前会让视觉编码器处理处理器所允许的最大尺寸的虚拟输入；本计算器不知"
        "道该模型的这一尺寸，因此激活估算未包含这一步，并放宽了区间的悲观端。请填入日志中的实测数"
        "值，或对不用的模态把 --limit-mm-per-prompt 设为 0。"
    ),
    "note.encoder_skipped": (
        "多模态模型且使用了 --skip-mm-profiling：vLLM 只对语言模型做显存分析，因此激活估算不包含视"
        "觉编码器，也不会为它预留内存。编码器的激活和缓存会在首批图像到来时从余量中分配；若放不"
        "下，请求会因 CUDA out of memory 失败。请调低 gpu_memory_utilization 为其留出空间。"
    ),
    "err.mm_limit_bad": (
        "{field}：“{value}” 不是 vLLM 能读取的限制：请给出每种模态一个整数的 JSON 对象，例如 "
        '{{"image": 2, "video": 0}}。'
    ),
    "err.mm_limit_options": (
        "{field}：虚拟输入尺寸选项（{key}）会改变显存分析所用输入的大小，计算器不对此建模；请只给"
        '出数量，例如 {{"image": 2}}。'
    ),
    "err.mm_limit_options_release": (
        '{field}：按模态给出字典（{{"count": …}}）需要 vLLM 0.11.1 或更新版本；vLLM {value} 只接受'
        '整数，例如 {{"image": 2}}。'
    ),
    "err.mm_limit_json_release": (
        "{field}：vLLM {value} 只读取 image=2,video=0 形式（JSON 对象自 0.8.5 起支持）。"
    ),
    "err.mm_limit_pairs_release": (
        '{field}：vLLM {value} 只读取 JSON 对象，例如 {{"image": 2, "video": 0}}（image=2,video=0 '
        "形式已在 0.10.0 移除）。"
    ),
    "err.skip_mm_profiling_release": (
        "--skip-mm-profiling 需要 vLLM 0.10.1 或更新版本；vLLM {value} 不接受该选项。"
    ),
    "note.unified_memory": (
        "这块 GPU 与主机共用内存（统一内存）：vLLM 启动期间系统和其他进程占用的内存都会从缓存中扣"
        "除。自 vLLM 0.11.1 起，估算为此计入 1.6 GiB，即公开 GB10 日志实测 1.3–2.7 GiB 的中间值；"
        "实际数值每次启动都不同，请填入你自己日志中的数值。"
    ),
    "note.interconnect_assumed": (
        "只按显存大小给出 GPU，无法得知 GPU 之间如何互连：中心值按 NVSwitch 级 GPU 估算（此处每块 "
        "GPU {non_torch} 的非 torch 显存）；区间同时涵盖 PCIe 和统一内存。请用 --interconnect"
        "（nvswitch、pcie 或 unified）给出你机器的互连方式，得到对应数值。"
    ),
    "note.term_few_rows": (
        "{term}的估算只基于 {rows} 份打印了该项的公开日志，不足五份：它在区间中所占的部分是整个估"
        "算中验证最少的。"
    ),
    "err.kv_dtype_release": (
        "--kv-cache-dtype {value} 需要 vLLM {limit} 或更新版本：该版本的 vLLM 会把它当作无效选项拒"
        "绝。"
    ),
    "err.kv_dtype_turboquant": (
        "--kv-cache-dtype {value} 尚未建模：其量化层每个 token 每个 KV 头占 {key} B（K 和 V 打包存"
        "放），但 vLLM 让前两层和最后两层保持不量化，形成计算器尚不构建的混合页大小。请改为填入日"
        "志中的 “Available KV cache memory” 和容量。"
    ),
    "err.kv_dtype_layout": (
        "--kv-cache-dtype {value} 只对具有 K、V 注意力头的模型建模，不适用于 MLA 模型或 Mamba 混合"
        "模型。"
    ),
    "err.kv_dtype_gpu": (
        "vLLM 在这块 GPU（计算能力 {key}）上找不到支持 --kv-cache-dtype {value} 的注意力后端：唯一"
        "支持它的 FlashInfer 在该版本中需要计算能力 {limit}。"
    ),
    "err.kv_dtype_rocm": (
        "vLLM 在 AMD GPU 上找不到支持 --kv-cache-dtype {value} 的注意力后端：唯一支持它的 "
        "FlashInfer 只能在 CUDA 上运行。"
    ),
    "err.kv_dtype_not_implemented": (
        "vLLM 0.20.x 接受 --kv-cache-dtype {value}，但启动时会停止（“nvfp4 KV cache is not yet "
        "supported”）：请使用 vLLM 0.21.0 或更新版本。"
    ),
    "err.kv_dtype_head_size": (
        "vLLM 在这块 GPU（计算能力 {key}）上找不到支持头维度 64 的 --kv-cache-dtype {value} 注意力"
        "后端：“fa2 prefill misreads an NVFP4 KV cache at head_size 64”。它可在计算能力 10.x"
        "（B200、B300）上运行。"
    ),
    "err.calculate_kv_scales_removed": (
        "--calculate-kv-scales 已在 vLLM 0.28.0 中移除：vLLM 不接受该选项（unrecognized "
        "arguments）。KV 缩放因子来自检查点，否则为 1.0；请去掉该选项。"
    ),
    "err.kv_dtype_not_modelled": (
        "计算器尚未对 --kv-cache-dtype {value} 建模。请改为填入日志中的 “Available KV cache "
        "memory” 和容量。"
    ),
    "err.model_name_unsafe": (
        "模型名称 {value} 含有换行符、控制字符或不可见字符，或以 '-' 开头：无法放入 vllm serve 命"
        "令。请修改 config.json 中的 _name_or_path。"
    ),
    "err.flag_release": (
        "{key} 需要 vLLM {minimum} 或更新版本；vLLM {value} 不接受该选项（unrecognized "
        "arguments）。"
    ),
    "fig.draft_weights": "其中 MTP 层（--speculative-config）",
    "fig.lora": "其中 LoRA 适配器槽位",
    "note.spec_mtp": (
        "使用 MTP 的推测解码：vLLM 加载检查点的 {layers} 个 MTP 层（每块 GPU {weights}，至多 "
        "{high}），并按模型层的规格为每层分配自己的 KV 缓存，归入相同的 KV 缓存组；{tokens} 个推"
        "测 token 复用这些 MTP 层。草稿模型在剖析运行和 CUDA 图中的占用未作估算。"
    ),
    "note.spec_ngram": (
        "使用 n-gram 提示查找的推测解码（{tokens} 个 token）：在 CPU 上运行，不增加权重，也不增加 "
        "KV 缓存。"
    ),
    "note.spec_mamba": (
        "每个 Mamba / 线性注意力层为推测 token 额外保留 {tokens} 个状态（vLLM 的 "
        "num_speculative_blocks）。"
    ),
    "note.lora": (
        "LoRA：{loras} 个秩为 {rank} 的适配器槽位每块 GPU 占用 {slots}（每个线性层的 A、B 堆叠，以"
        "及模型类包装的嵌入层和 LM 头），在加载模型时分配。--max-cpu-loras（{cpu}）只决定主机内存"
        "中的缓存大小。"
    ),
    "err.spec_config_bad": (
        '{field}：无法读取 {value}；请给出 JSON 对象，例如 {{"method": "mtp", '
        '"num_speculative_tokens": 3}}。'
    ),
    "err.spec_config_key": "{field}：计算器不读取键 {key}。",
    "err.spec_no_mtp_layers": (
        "{field}：{value} 没有 MTP 层（num_nextn_predict_layers / mtp_num_hidden_layers 为 0 或缺"
        "失），vLLM 无层可加载。"
    ),
    "err.spec_tokens_not_divisible": (
        "{field}：vLLM 拒绝 num_speculative_tokens {value}：超过检查点的 {limit} 个 MTP 层时必须"
        "是 {limit} 的倍数。"
    ),
    "err.spec_deepseek_v4": (
        "{field}：未对 DeepSeek-V4 的 MTP 建模（其 MTP 层有单独的 KV 缓存组）。"
    ),
    "err.spec_model_type": (
        "{field}：未对模型类型 {model_type} 的 MTP 建模；计算器读取 DeepSeek-V3/V3.2、GLM-4.5/4.7 "
        "和 Qwen3-Next/3.5/3.6 的 MTP 层。"
    ),
    "err.spec_v0": "{field}：未对 vLLM V0 引擎的推测解码建模。",
    "err.spec_draft": (
        "{field}：方法 {value} 需要草稿模型 {key}，其配置不在计算器的目录中；已建模的是 MTP 和 "
        "n-gram，粘贴草稿模型的 config.json（draft_config）时也支持 EAGLE-3。"
    ),
    "err.spec_method": "{field}：未对方法 {value} 建模；已建模的是 MTP 和 n-gram。",
    "err.spec_pp": "{field}：未对流水线并行下的推测解码建模。",
    "err.lora_release": "{field}：未对 vLLM 0.12.0 之前（带额外词表）的 LoRA 建模。",
    "err.lora_layout": (
        "{field}：LoRA 只对采用 Llama 层布局的稠密文本模型估算（不含 MoE、MLA、Mamba 或多模态模"
        "型）。"
    ),
    "err.lora_model_type": (
        "{field}：未对模型类型 {model_type} 的 LoRA 层建模（已建模 Llama、Granite、Qwen2/3 和 "
        "Gemma 2/3）。"
    ),
    "err.lora_tied": "{field}：未对 LM 头与嵌入层共享权重的模型上的 LoRA 建模。",
    "err.lora_pp": "{field}：未对流水线并行下的 LoRA 建模。",
    "err.spec_tokens_missing": (
        "{field}：这里 vLLM 需要 num_speculative_tokens：{value} 的配置没有可作默认值的 n_predict。"
    ),
    "fact.tensor_parallel_size_at_least": "张量并行规模，至少（最高 worker 序号 + 1）",
    "fact.pipeline_parallel_size_at_least": "流水线并行规模，至少（最高 worker 序号 + 1）",
    "fact.world_size_at_least": "GPU 数量，至少（最高 worker 序号 + 1）",
    "fact.hybrid_attention_block_size": "为混合模型设定的注意力块大小",
    "fact.mamba_page_padding_pct": "Mamba 页填充（%）",
    "fact.num_padding_layers": "KV 缓存组中添加的填充层",
    "fact.mamba_cache_blocks": "可用的 Mamba 缓存块",
    "diag.load_out_of_memory": "加载权重时 CUDA 显存不足（启动阶段）",
    "diag.pre_flight": "启动前：尚未运行的命令，按其设置制定方案",
    "verdict.load_out_of_memory.title": "加载权重时 CUDA 显存不足",
    "verdict.load_out_of_memory.summary": (
        "vLLM 在启动时失败，尚未确定 KV 缓存大小：单张 GPU 分到的权重（加上加载器分配的内存）放不"
        "进剩余显存。请把模型分到更多 GPU 上、使用量化权重，或释放被其他进程占用的 GPU。"
    ),
    "note.two_models": "日志中出现了多个模型（{models}）；诊断和数字取自最后一次启动，即 {used}。",
    "note.two_starts": "日志包含 {n} 次 vLLM 启动；诊断和数字取自最后一次。",
    "note.parallel_at_least": (
        "worker 前缀显示{what}至少为 {n}，而日志没有给出规模：方案按 {n} 计算。如果实际更大，请传"
        "入真实规模（--tensor-parallel-size、--pipeline-parallel-size）。"
    ),
    "note.log_mismatch": (
        "警告：重新计算与日志中的{figure}不符：日志打印 {printed}，重新计算得到 {recomputed}（相"
        "差 {pct}），超出了日志本身的舍入误差。可能的原因：模型或权重文件与日志中的不同、KV 缓存数"
        "据类型不同，或日志中未显示的某个设置（请用参数传入，参数优先于日志）。"
    ),
    "note.pre_flight": (
        "启动前：这是该命令运行前的方案，依据命令自身的设置；命令未设置的项取 vLLM 的默认值和计算"
        "器的估算。"
    ),
    "diag.mamba_blocks_below_max_num_seqs": "Mamba 缓存块少于 max_num_seqs（混合模型）",
    "quote.cut": "…（共 {n} 个字符）",
    "err.answer_too_large": (
        "结果将超过 {limit} 个字符；请少粘贴一些（只粘贴日志的启动部分，只粘贴 config.json）。"
    ),
    "err.output_failed": "无法写出结果：{value}。",
    "err.encoder_model": (
        "{model_type}：仅编码器和编码器-解码器模型在 vLLM 中按其他规则确定缓存大小，计算器未对此建"
        "模。"
    ),
    "err.invisible_id": "{field}：该 ID 含有不可见字符或控制字符（{value}）；请去掉后重新输入。",
    "note.assumed_architecture": (
        "计算器不认识：{what}。按标准解码器规划（每层全注意力、门控 MLP、rope，除非量化方式已知，"
        "否则按 16 位权重）；请以 vLLM 自己的日志核对这些数字。"
    ),
    "ask.model": "日志里没有模型名：请选择它所服务的模型（或粘贴其 config.json），以得到完整方案。",
    "ask.gpu": "日志没有说明是哪块 GPU：请选择 GPU（或填写显存大小），以得到完整方案。",
    "ask.model_gpu": (
        "日志里既没有模型名也没有 GPU：请选择它所服务的模型（或粘贴其 config.json）和 GPU，以得到"
        "完整方案。"
    ),
    "cli.ask.model": (
        "日志里没有模型名：请用 --model（目录中的 id）或 --config（其 config.json）给出模型，以得"
        "到完整方案。"
    ),
    "cli.ask.gpu": (
        "日志没有说明是哪块 GPU：请用 --gpu（目录中的 id）或 --gpu-memory-gib 给出，以得到完整方"
        "案。"
    ),
    "cli.ask.model_gpu": (
        "日志里既没有模型名也没有 GPU：请给出 --model（或 --config）和 --gpu（或 "
        "--gpu-memory-gib），以得到完整方案。"
    ),
    "rec.lower_max_model_len.band.title": "把 --max-model-len 降到 {value}",
    "rec.lower_max_model_len.band.detail": (
        "计算器估计最多能放下 {estimated} 个 token；按估算的悲观端（可用 {edge_gib} GiB）能放下 "
        "{edge_estimated} 个，所以无论 vLLM 实测多少，这个长度都能启动。服务稳定后再调高。"
    ),
    "rec.lower_max_model_len.borderline.title": "把 --max-model-len 降到 {value}（临界）",
    "rec.lower_max_model_len.borderline.detail": (
        "按计算器的中间估算最多能放下 {estimated} 个 token，这个长度取其 60%–80%（{low}–{high}）；"
        "按估算的悲观端（可用 {edge_gib} GiB）连一个短请求都放不下，所以只有 vLLM 实测接近中间值时"
        "才能启动。请查看日志中的 Available KV cache memory 一行。"
    ),
    "rec.kv_cache_memory_bytes.checked.title": "固定 KV 预算：--kv-cache-memory-bytes {value}",
    "rec.kv_cache_memory_bytes.checked.detail": (
        "用每张 GPU 的精确数值（{gib} GiB，够一个完整请求）取代按利用率推算。加上 vLLM 其余的显"
        "存，约占 GPU 的 {utilization}，在指南为余量保留的 0.95 以内。此后 vLLM 不再检查权重加缓存"
        "是否放得下，这部分余量需要你自己把握。"
    ),
    "rec.quantize_weights.catalog.title": "换用量化权重 {model}",
    "rec.quantize_weights.catalog.detail": (
        "目录中该模型的量化版本，按其存储方式计算权重。权重变小就能给 KV 缓存腾出空间；请确认它在"
        "你的任务上的质量。"
    ),
    "rec.quantize_weights.generic.title": "换用该模型的量化权重",
    "rec.quantize_weights.generic.detail": (
        "该模型的 4 bit（AWQ/GPTQ）或 fp8 版本能缩小预算中最大的一项。这里的数字按 4 bit AWQ 版本"
        "计算（4 bit 权重，每 128 个一组另加一个 16 位 scale 和一个 4 bit 零点）；请改为部署那个量"
        "化版本的仓库，并确认它在你的任务上的质量。"
    ),
    "rec.larger_gpu.usable.title": "换更大的 GPU（{gpu}）",
    "rec.larger_gpu.usable.detail": (
        "{gpu}（{gib} GiB）是目录中可用显存比 {current} 多、能让这套配置启动的最小 GPU。命令不变："
        "在那张 GPU 上运行同样的命令。"
    ),
    "rec.result.does_not_fit_edge": (
        "按估算的悲观端仍放不下（需要 {needed}，那里可用 {available}；不做此改动时为 {base}）"
    ),
    "rec.raise_gpu_memory_utilization.log.title": (
        "若 GPU 上没有其他任务，调高 --gpu-memory-utilization"
    ),
    "rec.raise_gpu_memory_utilization.log.detail": (
        "这是 vLLM 自己的建议：利用率设得太低时，无论模型多小，缓存都分不到显存。调低它只会让这个"
        "错误更严重。"
    ),
    "rec.lower_gpu_memory_utilization.runtime.title": "把 --gpu-memory-utilization 降到 {to}",
    "rec.lower_gpu_memory_utilization.runtime.detail": (
        "vLLM 在启动时已一次性分配全部 KV 缓存；耗尽的是预算之外的余量。稍低的利用率能留出更多余"
        "量。"
    ),
    "rec.limit_concurrency.oom.title": "缩小 profiling 的批次：{flags}",
    "rec.limit_concurrency.oom.detail": (
        "profiling 时 --max-num-batched-tokens 个 token 的虚拟批次和 --max-num-seqs 个请求的采样器"
        "预热需要的显存超过了空闲量；调小这两个值能同时减少两者。"
    ),
    "note.available_implausible": (
        "日志给出的可用 KV 显存（{available} GiB）低于计算器对该模型和 GPU 估算的悲观端（{low} "
        "GiB）：很可能有 vLLM 之外的东西（其他进程、同一 GPU 上同时启动的另一个实例）在 profiling "
        "时占用了显存。请查看 nvidia-smi，并参阅“空闲显存低于所请求的利用率”。"
    ),
    "err.max_model_len_too_long_rope": (
        "max_model_len {value} 超过模型上限（{limit}）。模型卡用 YaRN RoPE 缩放把上下文扩展到 "
        "{maximum} 个 token：请加上 {key}。（VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 只会跳过检查，不做缩"
        "放。）"
    ),
    "diag.cuda_out_of_memory_startup": "启动时 CUDA 显存不足",
    "verdict.cuda_out_of_memory_startup.title": "启动时 CUDA 显存不足",
    "verdict.cuda_out_of_memory_startup.summary": (
        "vLLM 在启动完成之前就耗尽了显存：加载权重时、profiling 时或捕获 CUDA Graph 时。下面的办法"
        "取决于它停在哪一步。"
    ),
    "fact.kv_cache_group_block_sizes": "每个 KV 缓存组的块大小（token）",
    "fact.full_kv_cache_memory_bytes": "vLLM 建议的用满全部空闲显存的 --kv-cache-memory",
    "err.dtype_float32_budget": (
        "{field} {value}：显存预算只按 16 位权重和激活估算。请填写日志打印的可用 KV 缓存显存"
        "（available_kv_gib）或 kv_cache_memory_bytes，即按每元素 4 字节规划。"
    ),
    "err.dp_release": (
        "{field}：数据并行和专家并行从 vLLM {limit} 起建模（该版本起 MoE 层分布在所有数据 × 张量并"
        "行 rank 上）；当前规则为 {value}。"
    ),
    "note.expert_parallel": (
        "数据并行 {dp} × 张量并行 {tp}：MoE 层分布在 {ranks} 块 GPU 上；{how}。注意力、共享专家和"
        "嵌入层留在每个数据并行副本的 TP GPU 上，每个副本有自己的 KV 缓存，按上文计算和检查。专家"
        "并行的 all-to-all 缓冲区未计入。"
    ),
    "note.expert_parallel.ep": (
        "使用 --enable-expert-parallel 时每块 GPU 持有完整的专家，负载最大的一块持有 {experts} 个"
        "中的 {local} 个"
    ),
    "note.expert_parallel.tp": (
        "不使用 --enable-expert-parallel 时每个专家切分到这些 GPU 上（每块 1/{ranks}）"
    ),
    "note.calculate_kv_scales_deprecated": (
        "--calculate-kv-scales 自 vLLM {since} 起弃用（vLLM 启动时会警告），并在 {removed} 中移"
        "除，{removed} 起会拒绝它：该命令在当前版本仍可运行。"
    ),
    "fig.draft_weights_eagle3": "其中 EAGLE-3 草稿模型（--speculative-config）",
    "note.spec_eagle3": (
        "使用 EAGLE-3 的推测解码：vLLM 加载所粘贴草稿配置对应的草稿模型，每块 GPU {weights}（其解"
        "码器层、fc、归一化层、基于草稿词表的 LM 头；嵌入层与目标模型共用），并为其 {layers} 个层"
        "各分配一个全注意力 KV 缓存，规格与模型相同，归入同一个 KV 缓存组；每步 {tokens} 个推测 "
        "token。草稿模型在剖析运行和 CUDA 图中的份额未计入。"
    ),
    "err.draft_config_bad": (
        "{field}：{value} 不是草稿模型的 config.json；请粘贴 speculative_config 中所指 EAGLE-3 检"
        "查点的 config.json。"
    ),
    "err.spec_eagle3_layout": (
        "{field}：未对该 EAGLE-3 草稿模型建模：只计算 Llama 结构（LlamaForCausalLMEagle3）、KV 头"
        "数和头大小与目标模型相同的草稿模型，且目标模型每层都是全注意力。"
    ),
    "err.spec_draft_tp": (
        "{field}：draft_tensor_parallel_size {key} 与目标模型的张量并行大小不同；EAGLE 草稿模型按"
        "目标模型的张量并行运行。"
    ),
    "err.draft_config_unused": (
        "{field}：只有在 --speculative-config 的方法为 eagle3 时才会读取草稿模型的 config.json。"
    ),
    "note.log_refined_estimate": (
        "日志打印的可用显存四舍五入到了 0.01 GiB（{gib} GiB）；方案采用 {bytes} B，即在这一舍入范"
        "围内、最接近该值且能得到日志自身估算最大长度（{tokens} 个 token）的数字，因此重新计算出的"
        "各行与日志一致。"
    ),
}

STRINGS: dict[str, dict[str, str]] = {"en": EN, "es": ES, "zh": ZH}


def lang_or_default(lang: object) -> str:
    """``lang`` when it is one of the guide's languages, else English: the one fallback."""
    return lang if isinstance(lang, str) and lang in LANGS else "en"


def t(lang: str, key: str, /, **params: object) -> str:
    """The string for ``key`` in ``lang`` (English when the language is unknown)."""
    table = STRINGS[lang_or_default(lang)]
    return table[key].format(**params) if params else table[key]
