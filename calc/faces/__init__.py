"""What the outside sees: the report in a language, charts, the CLI and the browser's JSON boundary.

The only package that talks to a terminal or a page; nothing imports it but ``kvcalc.__main__``.
"""
