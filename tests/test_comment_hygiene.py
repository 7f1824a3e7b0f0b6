"""Comments and docstrings point only at what a newcomer can open (CONTRIBUTING.md, intro).

A comment cites a section of CONTRIBUTING.md, a vLLM file or a vLLM pull request (``#41069``): never
a numbered section of a design document outside the repository, the folder that holds it, or a
numbered issue of this project; and it states the current rule, not how the code used to behave
(git keeps the history, the validation page the current figures). This test reads every comment and
docstring of the Python and JavaScript trees and fails on the phrases those habits leave.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TREES = ("calc", "kvguide_macros", "scripts", "docs/javascripts", "tests", "bench", "hooks.py")
SKIP = ("tests/data/",)

#: A reference to something outside the repository, or to this project's issue tracker.
OUTSIDE = {
    "numbered spec section": r"\bspec \d+(\.\d+)*\b",
    "section of the spec": r"\bsections? \d[\d.,\s]*(and \d[\d.]*\s)?of the spec\b",
    "the outside document": r"\bshared/(spec|design|notes)\b|\.\./shared\b|vllm-kv-sizing\.md",
    "a project issue number": r"\bissues? \d+(-\d+)?\b|\bissue \d+'s\b",
}
#: A changelog phrase: what the code or its figures were, rather than what holds.
CHANGELOG = {
    "used to": r"\b(it|this test|this|they|that|which) used to\b"
    r"|\bused to (be|expect|print|ask|start|assert|take)\b",
    "previously": r"\bpreviously\b",
    "no longer a miss": r"\bno longer a miss\b",
    "any more": r"\bany ?more\b",
    "(before: …)": r"\(before: ",
    "before / since an issue": r"\b(before|since|after) issue\b",
    "was N % before": r"\bwas [−-]?\d[\d.,]* ?%? before\b",
    "the old …": r"\bthe old (example|validation half|rule|figure|figures|estimate)\b",
}
PATTERNS = {name: re.compile(rx, re.IGNORECASE) for name, rx in {**OUTSIDE, **CHANGELOG}.items()}
_JS_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)


def python_comments(source: str) -> Iterator[tuple[int, str]]:
    """``(line, text)`` of every ``#`` comment and every bare string statement (docstrings, field
    docstrings)."""
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT:
            yield tok.start[0], tok.string
    for node in ast.walk(ast.parse(source)):
        body = getattr(node, "body", None)
        for stmt in body if isinstance(body, list) else []:
            if (
                isinstance(stmt, ast.Expr)
                and isinstance(stmt.value, ast.Constant)
                and isinstance(stmt.value.value, str)
            ):
                for offset, line in enumerate(stmt.value.value.splitlines()):
                    yield stmt.lineno + offset, line


def js_comments(source: str) -> Iterator[tuple[int, str]]:
    for match in _JS_COMMENT.finditer(source):
        first = source.count("\n", 0, match.start()) + 1
        for offset, line in enumerate(match.group().splitlines()):
            yield first + offset, line


def _files() -> list[Path]:
    out: list[Path] = []
    for tree in TREES:
        base = ROOT / tree
        paths = [base] if base.is_file() else sorted(base.rglob("*"))
        out += [
            p
            for p in paths
            if p.suffix in (".py", ".js", ".mjs")
            and not any(s in p.relative_to(ROOT).as_posix() for s in SKIP)
        ]
    return out


def findings(path: Path) -> list[str]:
    source = path.read_text(encoding="utf-8")
    comments = python_comments(source) if path.suffix == ".py" else js_comments(source)
    rel = path.relative_to(ROOT).as_posix()
    return [
        f"{rel}:{line}: {name}: {text.strip()[:120]}"
        for line, text in comments
        for name, rx in PATTERNS.items()
        if rx.search(text)
    ]


def test_the_trees_are_scanned() -> None:
    files = {p.relative_to(ROOT).as_posix() for p in _files()}
    for expected in (
        "calc/verdict.py",
        "kvguide_macros/results.py",
        "scripts/build_web_assets.py",
        "docs/javascripts/kvcalc.js",
        "tests/test_cli.py",
        "bench/core_bench.py",
        "hooks.py",
    ):
        assert any(f.endswith(expected.split("/")[-1]) for f in files), expected
    assert len(files) > 100


def test_no_comment_points_outside_the_repository_or_reads_like_a_changelog() -> None:
    found = [f for path in _files() for f in findings(path)]
    assert not found, (
        "rewrite as the current rule, citing CONTRIBUTING.md §, a vLLM file or PR:\n"
        + "\n".join(found)
    )


@pytest.mark.parametrize(
    "text",
    [
        "# Which layers slide (spec 3.6).",
        "# see shared/spec/vllm-kv-sizing.md section 5",
        "# as issue 9 asked",
        "# the budget (issues 8-9)",
        "# issue 8's corpus",
        "# sections 3.1, 3.2 and 4.2 of the spec",
        "# it used to ask for a made-up repo",
        "# -9.5 % (was −9.5 % before)",
        "# no longer a miss",
        "# (before: x 1.003 for the load overhead)",
        "# no GPU carries it any more",
        "# since issue 8",
        "# see ../shared/design.md",
        "# the old validation half",
    ],
)
def test_the_patterns_catch_what_they_name(text: str) -> None:
    source = f"x = 1  {text}\n"
    assert any(rx.search(t) for _, t in python_comments(source) for rx in PATTERNS.values()), text


@pytest.mark.parametrize(
    "text",
    [
        "# before #41069 each worker printed both (vLLM's own history is a release rule)",
        "# the spec of the target's last layer",
        "# vllm#21348 quotes two workers",
        "# used to size the page",
        "# CONTRIBUTING.md §2.3",
        "# spec.max_memory_usage_bytes per layer",
    ],
)
def test_the_patterns_leave_current_rules_alone(text: str) -> None:
    source = f"x = 1  {text}\n"
    assert not any(rx.search(t) for _, t in python_comments(source) for rx in PATTERNS.values()), (
        text
    )


def test_docstrings_and_js_comments_are_read() -> None:
    py = 'class A:\n    x: int = 0\n    """A field (spec 3.6)."""\n'
    assert [line for line, _ in python_comments(py)] == [3]
    js = "const a = 1; // issue 9\n/* two\n   issue 12 */\n"
    assert [
        line for line, t in js_comments(js) if PATTERNS["a project issue number"].search(t)
    ] == [1, 3]


#: Paths the two pages cite that are not files of this repository: build output, vLLM's own files.
NOT_IN_THE_REPOSITORY = {"docs/assets/pyodide/", "tests/v1/core/test_kv_cache_utils.py"}
_CITED_PATH = re.compile(
    r"(?<![\w/.-])((?:calc|kvguide_macros|scripts|tests|bench|docs|\.ci|\.github)/[\w./-]*[\w/])"
)


@pytest.mark.parametrize("page", ["README.md", "CONTRIBUTING.md"])
def test_every_path_the_pages_cite_exists(page: str) -> None:
    # a module that moved leaves its old path in the prose: the newcomer's first dead end
    cited = set(_CITED_PATH.findall((ROOT / page).read_text(encoding="utf-8")))
    assert len(cited) > 10
    missing = sorted(
        p
        for p in cited - NOT_IN_THE_REPOSITORY
        if not any(c in p for c in "<*…") and not (ROOT / p).exists()
    )
    assert not missing, f"{page} cites paths that do not exist: {missing}"
