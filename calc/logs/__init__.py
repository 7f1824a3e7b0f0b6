"""A pasted vLLM log: its lines read into facts, the facts laid over the form, the diagnosis, the
capacity fit and the held-out evaluation.

Imports the stages at the package root (``inputs``, ``verdict``, ``advice``, ``analysis``) and
below.
"""
