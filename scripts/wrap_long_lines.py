"""Wrap what ``ruff format`` leaves over the line length: comments, docstrings and string literals.

``make wrap`` runs ``ruff format calc`` and then this script on ``calc``. For every file, in rounds
until nothing changes (``ruff format`` between the rounds):

- a ``#`` comment over the limit is re-flowed at word boundaries, from its first long line to the end
  of its paragraph, keeping the indentation and the ``#`` / ``#:`` marker (a list item keeps its
  hanging indent); a trailing comment on a long line moves above its line first (pragmas stay);
- a docstring (any bare string statement) is re-flowed the same way inside its paragraph;
- a string literal is split into an implicit concatenation (in parentheses where it is not inside
  brackets already), at spaces, after ``\\n`` escapes or between CJK characters, so that every piece
  keeps its exact characters; an f-string is split only in its literal parts, each piece keeps the
  prefix, and a run of pieces with one prefix is re-flowed as one text.

A file is written only if its syntax tree is the one it had (``ast.dump``, with adjacent f-string
literal parts joined and a docstring's whitespace inside a paragraph collapsed); otherwise it is
refused, named, and the exit status is 1. Standard library only; the result is a fixed point, so a
second run changes nothing. ``--check`` writes nothing and exits 1 if some file would change.
"""

from __future__ import annotations

import argparse
import ast
import io
import re
import shutil
import subprocess
import sys
import time
import tokenize
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

WIDTH = 100
MAX_ROUNDS = 8
#: Comments a tool reads where they stand: never moved or re-flowed.
PRAGMA = re.compile(r"#\s*(type:|noqa\b|pragma\b|fmt:|pyright:|mypy:|ruff:|isort:|-\*-|!)")
BULLET = re.compile(r"([-*+•]|\d{1,2}[.)]|\([a-z0-9]\))\s+")
#: CJK punctuation that must not start a line (a break before it is not taken) or end one.
NO_BREAK_BEFORE = set("，。、；：！？）》」』】〕…—・％")
NO_BREAK_AFTER = set("（《「『【〔")
FSTRING_TOKENS = tuple(
    getattr(tokenize, n) for n in ("FSTRING_START", "FSTRING_MIDDLE", "FSTRING_END") if hasattr(tokenize, n)
)


def char_width(c: str) -> int:
    """Columns a character takes, as ruff's E501 counts them (East Asian wide and fullwidth: 2)."""
    if unicodedata.combining(c) or unicodedata.category(c) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(c) in ("W", "F") else 1


def width(text: str) -> int:
    return sum(char_width(c) for c in text)


def code_width(line: str) -> int:
    """The width ruff's E501 measures: a trailing pragma comment is not counted."""
    match = re.search(r"\s+#\s*(type:|noqa\b|pragma\b|pyright:)", line)
    return width(line[: match.start()] if match else line)


def too_long(line: str) -> bool:
    return code_width(line) > WIDTH


# --------------------------------------------------------------------------------------------
# Tokens


@dataclass(frozen=True)
class Tok:
    """One token, an f-string (3.12+: FSTRING_START … FSTRING_END) merged into one STRING."""

    type: int
    string: str
    start: tuple[int, int]
    end: tuple[int, int]


def tokens(source: str) -> list[Tok]:
    out: list[Tok] = []
    depth = 0
    lines = source.splitlines(keepends=True)
    start: tuple[int, int] = (0, 0)
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if FSTRING_TOKENS and tok.type == FSTRING_TOKENS[0]:
            if depth == 0:
                start = tok.start
            depth += 1
            continue
        if FSTRING_TOKENS and tok.type == FSTRING_TOKENS[2]:
            depth -= 1
            if depth == 0:
                out.append(Tok(tokenize.STRING, span(lines, start, tok.end), start, tok.end))
            continue
        if depth == 0:
            out.append(Tok(tok.type, tok.string, tok.start, tok.end))
    return out


def span(lines: list[str], start: tuple[int, int], end: tuple[int, int]) -> str:
    if start[0] == end[0]:
        return lines[start[0] - 1][start[1] : end[1]]
    middle = lines[start[0] : end[0] - 1]
    return lines[start[0] - 1][start[1] :] + "".join(middle) + lines[end[0] - 1][: end[1]]


def offsets(source: str) -> list[int]:
    """Offset of the start of each line (1-based rows: ``offsets[row - 1]``)."""
    out = [0]
    for line in source.splitlines(keepends=True):
        out.append(out[-1] + len(line))
    return out


def apply(source: str, edits: list[tuple[int, int, str]]) -> str:
    for start, end, text in sorted(edits, reverse=True):
        source = source[:start] + text + source[end:]
    return source


# --------------------------------------------------------------------------------------------
# Re-flowing a paragraph (comments and docstrings)


def greedy(words: list[str], first_lead: str, lead: str) -> list[str]:
    """Lines of at most WIDTH columns (a word wider than that stands alone)."""
    lines: list[str] = []
    current = first_lead
    has_word = False
    for word in words:
        candidate = current + (" " if has_word else "") + word
        if has_word and width(candidate) > WIDTH:
            lines.append(current)
            current = lead + word
        else:
            current = candidate
        has_word = True
    lines.append(current)
    return lines


@dataclass(frozen=True)
class Row:
    """One physical line of a comment block or a docstring: what precedes the text, and the text."""

    lead: str
    text: str
    #: Leading whitespace and marker only: the lead a continuation line would take by default.
    base: str


def _verbatim(text: str) -> bool:
    return bool(re.search(r"\S {3,}\S", text)) or text.startswith((">>>", "...", "|", "```", "$ "))


def _bullet_lead(row: Row) -> str:
    match = BULLET.match(row.text)
    return row.base + " " * (len(row.lead) - len(row.base) + match.end()) if match else ""


def _cell(row: Row) -> tuple[Row, str] | None:
    """A table row's last cell (after a run of spaces) as a row of its own, and its hanging lead."""
    ends = [
        m.end()
        for m in re.finditer(r" {2,}", row.text)
        if width(row.lead + row.text[: m.end()]) < WIDTH - 20
    ]
    if not ends:
        return None
    lead = row.lead + row.text[: ends[-1]]
    return Row(lead, row.text[ends[-1] :], row.base), row.base + " " * (len(lead) - len(row.base))


def reflow_rows(rows: list[Row], last_suffix: str = "") -> list[str] | None:
    """The rows re-flowed where a paragraph has a line over WIDTH; None if nothing changes.

    A paragraph: a line and the lines under it with one lead (a list item's hanging indent, or
    the lead of its second line), up to a blank, verbatim or list-item line. It is re-flowed from
    its first long line on. ``last_suffix`` (a docstring's closing quotes) ends the last row."""
    out = [r.lead + r.text for r in rows]
    if last_suffix:
        out[-1] += last_suffix
    changed = False
    i = 0
    while i < len(rows):
        row = rows[i]
        cell = _cell(row) if _verbatim(row.text) and too_long(out[i]) else None
        if not row.text.strip() or (_verbatim(row.text) and cell is None):
            i += 1
            continue
        j = i + 1
        if cell is not None:
            rows[i] = row = cell[0]
            cont = cell[1]
        else:
            cont = _bullet_lead(row) or row.base
            if (
                j < len(rows)
                and rows[j].text.strip()
                and not BULLET.match(rows[j].text)
                and not _verbatim(rows[j].text)
                and len(rows[j].lead) >= len(row.base)
            ):
                cont = rows[j].lead
        while (
            j < len(rows)
            and rows[j].lead == cont
            and rows[j].text.strip()
            and not BULLET.match(rows[j].text)
            and not _verbatim(rows[j].text)
        ):
            j += 1
        long = [k for k in range(i, j) if too_long(out[k])]
        if long:
            k = long[0]
            words = " ".join(r.text for r in rows[k:j]).split()
            if j == len(rows) and last_suffix and words:
                words[-1] += last_suffix
            if words and not any(w.endswith("\\") for w in words):
                new = greedy(words, rows[k].lead, cont)
                if new != out[k:j]:
                    out[k:j] = new
                    rows = rows[:k] + [Row(cont, "", cont)] * len(new) + rows[j:]
                    changed = True
                    j = k + len(new)
        i = j
    return out if changed else None


# --------------------------------------------------------------------------------------------
# Comments


def comment_pass(source: str) -> str:
    lines = source.splitlines(keepends=True)
    toks = tokens(source)
    in_string: set[int] = set()  # rows that start inside a string
    for tok in toks:
        if tok.type == tokenize.STRING and tok.end[0] > tok.start[0]:
            in_string.update(range(tok.start[0] + 1, tok.end[0] + 1))
    comments = {tok.start[0]: tok for tok in toks if tok.type == tokenize.COMMENT}
    # 1. A trailing comment on a long line goes above its line.
    for row in sorted(comments, reverse=True):
        tok = comments[row]
        line = lines[row - 1]
        code = line[: tok.start[1]]
        if not code.strip() or PRAGMA.match(tok.string) or not too_long(line.rstrip("\n")):
            continue
        if row in in_string or (row > 1 and lines[row - 2].rstrip("\n").endswith("\\")):
            continue
        indent = re.match(r"\s*", code).group()  # type: ignore[union-attr]
        lines[row - 1] = code.rstrip() + "\n"
        lines.insert(row - 1, indent + tok.string.rstrip() + "\n")
    # 2. Full-line comment blocks, re-flowed by paragraph.
    source = "".join(lines)
    lines = source.splitlines(keepends=True)
    rows_of: list[tuple[int, Row]] = []
    for tok in tokens(source):
        if tok.type != tokenize.COMMENT or lines[tok.start[0] - 1][: tok.start[1]].strip():
            continue
        match = re.match(r"(#:?)(\s*)(.*)", tok.string.rstrip())
        assert match
        indent = lines[tok.start[0] - 1][: tok.start[1]]
        if PRAGMA.match(tok.string) or tok.string.startswith("#!"):
            rows_of.append((tok.start[0], Row("", "", "")))  # a block boundary
            continue
        lead = indent + match.group(1) + (match.group(2) or " ")
        base = indent + match.group(1) + " "
        rows_of.append((tok.start[0], Row(lead, match.group(3), base)))
    blocks: list[list[tuple[int, Row]]] = []
    for row, item in rows_of:
        same = blocks and blocks[-1][-1][0] == row - 1 and blocks[-1][-1][1].base == item.base
        if same and item.base:
            blocks[-1].append((row, item))
        else:
            blocks.append([(row, item)])
    for block in reversed(blocks):
        if not block[0][1].base:
            continue
        new = reflow_rows([r for _, r in block])
        if new is not None:
            first, last = block[0][0], block[-1][0]
            lines[first - 1 : last] = [t + "\n" for t in new]
    return "".join(lines)


# --------------------------------------------------------------------------------------------
# Docstrings and string literals


def _prefix_quote(text: str) -> tuple[str, str]:
    match = re.match(r"([A-Za-z]*)('''|\"\"\"|'|\")", text)
    assert match, text
    return match.group(1), match.group(2)


def _bare_string_groups(toks: list[Tok]) -> list[list[int]]:
    """Indices of the STRING tokens of each logical line that is strings only (a docstring)."""
    out: list[list[int]] = []
    skip = (tokenize.NL, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING)
    at_start = True
    i = 0
    while i < len(toks):
        tok = toks[i]
        if tok.type in skip:
            i += 1
            continue
        if at_start and tok.type == tokenize.STRING:
            j = i
            group = []
            while j < len(toks) and toks[j].type in (tokenize.STRING, tokenize.NL):
                if toks[j].type == tokenize.STRING:
                    group.append(j)
                j += 1
            if j >= len(toks) or toks[j].type in (tokenize.NEWLINE, tokenize.ENDMARKER):
                out.append(group)
            i = j
            at_start = False
            continue
        at_start = tok.type == tokenize.NEWLINE or (tok.type == tokenize.OP and tok.string == ";")
        i += 1
    return out


def docstring_pass(source: str) -> str:
    lines = source.splitlines(keepends=True)
    toks = tokens(source)
    starts = offsets(source)
    edits: list[tuple[int, int, str]] = []
    for group in _bare_string_groups(toks):
        if len(group) != 1:
            continue
        tok = toks[group[0]]
        prefix, quote = _prefix_quote(tok.string)
        if len(quote) != 3 or "f" in prefix.lower() or "b" in prefix.lower():
            continue
        if not any(too_long(lines[r - 1].rstrip("\n")) for r in range(tok.start[0], tok.end[0] + 1)):
            continue
        head = lines[tok.start[0] - 1][: tok.start[1]]
        indent = head if not head.strip() else re.match(r"\s*", head).group()  # type: ignore[union-attr]
        body = tok.string[len(prefix) + 3 : -3]
        texts = body.split("\n")
        rows = []
        for n, text in enumerate(texts):
            if n == 0:
                lead = head + prefix + quote
                rows.append(Row(lead, text, indent))
            else:
                ws = re.match(r"[ \t]*", text).group()  # type: ignore[union-attr]
                rows.append(Row(ws, text[len(ws) :], indent))
        new = reflow_rows(rows, last_suffix=quote)
        if new is None:
            continue
        text = "\n".join(new)[len(head) :]
        start = starts[tok.start[0] - 1] + tok.start[1]
        end = starts[tok.end[0] - 1] + tok.end[1]
        edits.append((start, end, text))
    return apply(source, edits)


@dataclass(frozen=True)
class Unit:
    """An atomic piece of a string's source body (a character, an escape, an f-string field)."""

    text: str
    #: A piece may end after this unit.
    break_after: bool


_ESCAPE = re.compile(r"\\(N\{[^}]*\}|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{1,3}|.|\n)", re.S)


def _field_end(body: str, i: int) -> int:
    """Index after the ``}`` that closes the replacement field opened at ``body[i]``."""
    depth = 0
    quote = ""
    j = i
    while j < len(body):
        c = body[j]
        if quote:
            if c == quote:
                quote = ""
        elif c in "'\"":
            quote = c
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                return j + 1
        j += 1
    raise ValueError("unclosed replacement field")


def units(body: str, prefix: str) -> list[Unit]:
    raw, fmt = "r" in prefix.lower(), "f" in prefix.lower()
    pieces: list[str] = []
    i = 0
    while i < len(body):
        c = body[i]
        if fmt and body.startswith(("{{", "}}"), i):
            pieces.append(body[i : i + 2])
        elif fmt and c == "{":
            pieces.append(body[i : _field_end(body, i)])
        elif c == "\\":
            match = _ESCAPE.match(body, i)
            if raw or not match:
                pieces.append(body[i : i + 2])
            else:
                pieces.append(match.group())
        else:
            pieces.append(c)
        i += len(pieces[-1])
    out = []
    for n, piece in enumerate(pieces):
        nxt = pieces[n + 1] if n + 1 < len(pieces) else ""
        ok = piece == " " or (piece == "\\n" and not raw) or (piece == "|" and raw)
        ok = ok or _cjk_break(piece, nxt)
        out.append(Unit(piece, ok and nxt != "" and nxt != " "))
    return out


def _cjk_break(a: str, b: str) -> bool:
    if len(a) != 1 or len(b) != 1 or " " in (a, b):
        return False
    if b in NO_BREAK_BEFORE or a in NO_BREAK_AFTER:
        return False
    return char_width(a) == 2 or char_width(b) == 2


def string_pass(source: str) -> str:
    lines = source.splitlines(keepends=True)
    toks = tokens(source)
    starts = offsets(source)
    docstrings = {i for g in _bare_string_groups(toks) for i in g if len(g) == 1}
    depth = 0
    prev = ""
    edits: list[tuple[int, int, str]] = []
    i = 0
    while i < len(toks):
        tok = toks[i]
        if tok.type == tokenize.OP and tok.string in "([{":
            depth += 1
        elif tok.type == tokenize.OP and tok.string in ")]}":
            depth -= 1
        if tok.type != tokenize.STRING:
            if tok.type not in (tokenize.NL, tokenize.COMMENT):
                prev = tok.string if tok.type == tokenize.OP else ""
            i += 1
            continue
        group = [i]
        j = i + 1
        while j < len(toks) and toks[j].type in (tokenize.STRING, tokenize.NL):
            if toks[j].type == tokenize.STRING:
                group.append(j)
            j += 1
        i = j
        after_colon = prev in (":", "=")
        prev = ""
        if group[0] in docstrings:
            continue
        # Parentheses where the pieces could not continue on the next line, or would continue at
        # the column of a dict key or a keyword.
        edit = _split_group([toks[g] for g in group], lines, depth == 0 or after_colon)
        if edit is not None:
            (r0, c0), (r1, c1), text = edit
            edits.append((starts[r0 - 1] + c0, starts[r1 - 1] + c1, text))
    return apply(source, edits)


def _segments(group: list[Tok]) -> list[list[Tok]]:
    """Runs of parts that can be re-flowed as one text: one quote, one rawness, and an f-string
    run joined only by plain parts without braces. A triple-quoted part stands alone."""
    out: list[list[Tok]] = []
    for tok in group:
        prefix, quote = _prefix_quote(tok.string)
        kind = ("r" in prefix.lower(), "b" in prefix.lower(), quote)
        if out and len(quote) == 1:
            last = out[-1][-1]
            lp, lq = _prefix_quote(last.string)
            if ("r" in lp.lower(), "b" in lp.lower(), lq) == kind:
                fs = ["f" in _prefix_quote(t.string)[0].lower() for t in [*out[-1], tok]]
                plain = [t for t, f in zip([*out[-1], tok], fs, strict=True) if not f]
                if not any(f for f in fs) or not any("{" in t.string or "}" in t.string for t in plain):
                    out[-1].append(tok)
                    continue
        out.append([tok])
    return out


def _split_group(
    group: list[Tok], lines: list[str], parenthesize: bool
) -> tuple[tuple[int, int], tuple[int, int], str] | None:
    if not any(too_long(lines[t.start[0] - 1].rstrip("\n")) for t in group):
        return None
    first_line = lines[group[0].start[0] - 1]
    indent = width(re.match(r"\s*", first_line).group())  # type: ignore[union-attr]
    own_line = not first_line[: group[0].start[1]].strip()
    if len(group) > 1 and group[1].start[0] != group[0].start[0]:
        cont = width(lines[group[1].start[0] - 1][: group[1].start[1]])
    elif own_line:
        cont = width(first_line[: group[0].start[1]])
    else:
        cont = indent + 4
    # A parenthesized part after other code on its line lands on a line of its own, at ``cont``.
    column = cont if parenthesize and not own_line else width(first_line[: group[0].start[1]])
    last = group[-1]
    rest = lines[last.end[0] - 1][last.end[1] :].rstrip("\n").strip()
    reserve_last = max(1, width(rest)) if width(rest) <= 10 else 1
    pieces: list[str] = []
    changed = False
    segments = _segments(group)
    for n, seg in enumerate(segments):
        long = any(too_long(lines[t.start[0] - 1].rstrip("\n")) for t in seg)
        if len(_prefix_quote(seg[0].string)[1]) == 3 or not long:
            pieces += [t.string for t in seg]
            column = cont
            continue
        try:
            tagged = [
                (u, prefix)
                for t in seg
                for prefix in [_prefix_quote(t.string)[0]]
                for u in _token_units(t.string, prefix)
            ]
        except ValueError:
            pieces += [t.string for t in seg]
            column = cont
            continue
        reserve = reserve_last if n == len(segments) - 1 else 1
        quote = _prefix_quote(seg[0].string)[1]
        new = _pieces(tagged, quote, WIDTH - column - reserve, WIDTH - cont - reserve)
        if new != [t.string for t in seg]:
            changed = True
        pieces += new
        column = cont
    if not changed and (own_line or not parenthesize):
        return None
    text = ("\n" + " " * cont).join(pieces)
    if parenthesize:
        text = "(" + text + ")"
    return group[0].start, last.end, text


def _token_units(text: str, prefix: str) -> list[Unit]:
    quote = _prefix_quote(text)[1]
    us = units(text[len(prefix) + len(quote) : -len(quote)], prefix)
    if us:  # a part's own end is a place to break
        us[-1] = Unit(us[-1].text, True)
    return us


def _pieces(tagged: list[tuple[Unit, str]], quote: str, first: int, rest: int) -> list[str]:
    """Greedy pieces of at most ``first`` (then ``rest``) columns, quotes and prefix included,
    cut after a unit that allows it. A piece with a unit of an f-string is an f-string."""
    out: list[list[tuple[Unit, str]]] = []
    current: list[tuple[Unit, str]] = []
    room = first
    cut = -1
    for item in tagged:
        current.append(item)
        if _piece_width(current) > room and 0 <= cut < len(current) - 1:
            out.append(current[: cut + 1])
            current = current[cut + 1 :]
            room = rest
            cut = max((n for n, (u, _) in enumerate(current[:-1]) if u.break_after), default=-1)
        if item[0].break_after:
            cut = len(current) - 1
    out.append(current)
    return [_render(p, quote) for p in out if p]


def _piece_prefix(piece: list[tuple[Unit, str]]) -> str:
    fs = [p for _, p in piece if "f" in p.lower()]
    return fs[0] if fs else piece[0][1]


def _piece_width(piece: list[tuple[Unit, str]]) -> int:
    return width(_piece_prefix(piece)) + 2 + sum(width(u.text) for u, _ in piece)


def _render(piece: list[tuple[Unit, str]], quote: str) -> str:
    return _piece_prefix(piece) + quote + "".join(u.text for u, _ in piece) + quote


# --------------------------------------------------------------------------------------------
# Checking and driving


class _Normalise(ast.NodeTransformer):
    """Docstring whitespace inside a paragraph collapsed; adjacent f-string literals joined."""

    def visit_Expr(self, node: ast.Expr) -> ast.AST:
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            paragraphs = re.split(r"\n\s*\n", node.value.value.strip())
            node.value.value = "\n\n".join(" ".join(p.split()) for p in paragraphs)
        return self.generic_visit(node)

    def visit_JoinedStr(self, node: ast.JoinedStr) -> ast.AST:
        values: list[ast.expr] = []
        for value in node.values:
            last = values[-1] if values else None
            if isinstance(value, ast.Constant) and isinstance(last, ast.Constant):
                values[-1] = ast.Constant(str(last.value) + str(value.value))
            else:
                values.append(value)
        node.values = values
        return self.generic_visit(node)


def same_tree(before: str, after: str) -> bool:
    def dump(source: str) -> str:
        return ast.dump(_Normalise().visit(ast.parse(source)))

    return dump(before) == dump(after)


def ruff_format(ruff: str, path: Path, source: str) -> str:
    proc = subprocess.run(
        [ruff, "format", "--quiet", "--stdin-filename", str(path), "-"],
        input=source,
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"ruff format failed on {path}: {proc.stderr.strip()}")
    return proc.stdout


def wrap(source: str, path: Path, ruff: str) -> str:
    for _ in range(MAX_ROUNDS):
        new = source
        for step in (comment_pass, docstring_pass, string_pass):
            new = step(new)
        if new == source:
            return source
        new = ruff_format(ruff, path, new)
        if new == source:
            return source
        source = new
    raise RuntimeError(f"{path}: no fixed point after {MAX_ROUNDS} rounds")


def python_files(paths: list[Path]) -> Iterator[Path]:
    for path in paths:
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*.py") if p.is_file())
        else:
            yield path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("paths", nargs="+", type=Path)
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a file would change")
    parser.add_argument("--ruff", default=None, help="the ruff executable (default: the one next to Python)")
    args = parser.parse_args(argv)
    beside = Path(sys.executable).parent / "ruff"
    ruff = args.ruff or (str(beside) if beside.exists() else shutil.which("ruff"))
    if not ruff:
        parser.error("ruff not found")
    began = time.monotonic()
    changed: list[Path] = []
    refused: list[Path] = []
    for path in python_files(args.paths):
        before = path.read_text(encoding="utf-8")
        after = wrap(before, path.resolve(), ruff)
        if after == before:
            continue
        if not same_tree(before, after):
            refused.append(path)
            continue
        changed.append(path)
        if not args.check:
            path.write_text(after, encoding="utf-8")
    verb = "would change" if args.check else "changed"
    print(f"wrap_long_lines: {len(changed)} files {verb} in {time.monotonic() - began:.1f} s")
    for path in refused:
        print(f"refused (syntax tree would change): {path}", file=sys.stderr)
    return 1 if refused or (args.check and changed) else 0


if __name__ == "__main__":
    sys.exit(main())
