"""OPT's weights as vLLM builds them (vllm/model_executor/models/opt.py, v0.11.0 to main).

OPT differs from the Llama-shaped count in model.py: its MLP is ``fc1`` → ReLU → ``fc2`` with no
gate (2 matrices, not 3), every linear layer carries a bias (``enable_bias``), its norms are
``nn.LayerNorm`` (weight and bias), positions are a learned ``OPTLearnedPositionalEmbedding`` of
``max_position_embeddings + 2`` rows ("OPT is set up so that if padding_idx is specified then offset
the embedding ids by 2"), and the token embedding is ``word_embed_proj_dim`` wide with
``project_in`` / ``project_out`` (``ReplicatedLinear``, no bias) when that differs from
``hidden_size`` (opt-350m). KV sizing needs nothing special: ``OPTAttention`` has ``head_dim =
embed_dim // total_num_heads`` and one KV head per query head, the generic rule.

Under tensor parallelism ``QKVParallelLinear`` / ``ColumnParallelLinear`` split weights and biases,
``RowParallelLinear`` (``out_proj``, ``fc2``) splits the weight but "bias is not parallelized", and
the positions ("Positional embeddings are replicated (not sharded)"), the LayerNorms and the
projections stay whole on every rank.
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["OPT_MODEL_TYPE", "opt_parameters", "opt_unsplit_parameters"]

OPT_MODEL_TYPE = "opt"
_POSITION_OFFSET = 2  # OPTLearnedPositionalEmbedding.offset


def _flag(text: Mapping[str, object], key: str, default: bool) -> bool:
    value = text.get(key)
    return default if value is None else bool(value)


def _width(text: Mapping[str, object], key: str, default: int) -> int:
    value = text.get(key)
    return (
        value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else default
    )


def _final_norm(text: Mapping[str, object]) -> bool:
    # OPTDecoder: a final LayerNorm only "if config.do_layer_norm_before and not
    # config._remove_final_layer_norm"
    return _flag(text, "do_layer_norm_before", True) and not _flag(
        text, "_remove_final_layer_norm", False
    )


def _norm_size(text: Mapping[str, object], hidden: int) -> int:
    # nn.LayerNorm(hidden, elementwise_affine=...): weight and bias, or nothing
    return 2 * hidden if _flag(text, "layer_norm_elementwise_affine", True) else 0


def _positions(text: Mapping[str, object], hidden: int) -> int:
    return (_width(text, "max_position_embeddings", 2048) + _POSITION_OFFSET) * hidden


def _projections(text: Mapping[str, object], hidden: int) -> int:
    embed = _width(text, "word_embed_proj_dim", hidden)
    return 0 if embed == hidden else 2 * hidden * embed


def opt_parameters(
    text: Mapping[str, object], *, hidden: int, layers: int, vocab: int, ffn: int
) -> int:
    """All parameters of an OPT checkpoint as vLLM loads it (the LM head counted unless tied)."""
    bias = _flag(text, "enable_bias", True)
    embed = _width(text, "word_embed_proj_dim", hidden)
    attention = 4 * hidden * hidden + (4 * hidden if bias else 0)  # q, k, v, out_proj
    mlp = 2 * hidden * ffn + ((ffn + hidden) if bias else 0)  # fc1, fc2
    per_layer = attention + mlp + 2 * _norm_size(text, hidden)
    tied = _flag(text, "tie_word_embeddings", True)
    head = 0 if tied else vocab * embed
    final = _norm_size(text, hidden) if _final_norm(text) else 0
    return (
        layers * per_layer
        + vocab * embed
        + head
        + _positions(text, hidden)
        + _projections(text, hidden)
        + final
    )


def opt_unsplit_parameters(text: Mapping[str, object], *, hidden: int, layers: int) -> int:
    """What every TP rank holds whole beyond the norm weights weight_share.py already counts
    (``(2 × layers + 1) × hidden``): the LayerNorm biases, the row-parallel biases of ``out_proj``
    and ``fc2``, the learned positions and the embedding projections."""
    norms = 2 * layers + (1 if _final_norm(text) else 0)
    norm_bias = norms * hidden if _flag(text, "layer_norm_elementwise_affine", True) else 0
    row_bias = 2 * layers * hidden if _flag(text, "enable_bias", True) else 0
    return norm_bias + row_bias + _positions(text, hidden) + _projections(text, hidden)
