"""The memory left for the KV cache: each runtime term vLLM measures, estimated before the first
start (weights and what loading adds, activation, encoder profiling, non-torch, CUDA graphs), and
the validation data behind the estimate.

Imports ``kv``, ``arch`` and the shared pieces.
"""
