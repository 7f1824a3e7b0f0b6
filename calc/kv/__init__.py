"""The KV cache's shape: each layer's spec and page, vLLM's groups, block sizes per backend, the
hybrid (Mamba) and DeepSeek-V4 layouts, speculative layers, and the one-request check.

Imports ``arch`` and the shared pieces.
"""
