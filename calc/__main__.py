"""``python -m kvcalc``."""
from .cli import entry

entry()
