"""The model's architecture: ``config.json`` read into a ``ModelSpec``, its layer kinds and window
rules.

Imports only the shared pieces at the package root (errors, limits, units, versions, …).
"""
