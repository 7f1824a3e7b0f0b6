"""What the core answers, case by case, equals what was recorded (scripts/record_behaviour.py).

The guard for moving code: a change that should not change behaviour must leave every answer of
the corpus (CLI plan and log JSON, the browser boundary's answers, bad-input lines) byte for byte
as recorded. A change that is meant to change behaviour re-records with ``make behaviour`` after
reading ``scripts/record_behaviour.py --diff``: the changed cases are the review of the change.
"""
from __future__ import annotations

import difflib
import importlib.util
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _recorder():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("record_behaviour", ROOT / "scripts" / "record_behaviour.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


RECORDER = _recorder()
STORED = RECORDER.load()


@pytest.fixture(scope="module")
def answers() -> Iterator[dict[str, dict[str, object]]]:
    here = os.getcwd()
    os.chdir(ROOT)
    try:
        yield dict(RECORDER.cases())
    finally:
        os.chdir(here)


def test_the_corpus_is_large_enough() -> None:
    assert len(STORED) >= 300


def test_the_same_cases(answers: dict[str, dict[str, object]]) -> None:
    assert sorted(answers) == sorted(STORED)


@pytest.mark.parametrize("name", sorted(STORED))
def test_answer_unchanged(name: str, answers: dict[str, dict[str, object]]) -> None:
    got, want = answers.get(name), STORED[name]
    if got != want:
        lines = difflib.unified_diff(str(want).split("\\n"), str(got).split("\\n"), "recorded", "now", lineterm="", n=1)
        pytest.fail(f"{name}: the answer changed\n" + "\n".join(list(lines)[:40]), pytrace=False)
