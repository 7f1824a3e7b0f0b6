"""``python -m kvcalc``."""

from .faces.cli import entry

entry()
