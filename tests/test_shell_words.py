"""The log reader splits a pasted command line as ``shlex.split`` does, in a few regex steps (its character
loop took a second on 5 MB of long command lines): same words, same refusals, on any mix of quotes,
escapes and blanks."""
from __future__ import annotations

import shlex

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kvcalc.logs.logparse import _shell_words


def _split(split: object, text: str) -> list[str] | str:
    assert callable(split)
    try:
        words = split(text)
    except ValueError:
        return "refused"
    assert isinstance(words, list)
    return words


@settings(max_examples=600, deadline=None)
@given(st.text(alphabet=" \t\r\n'\"\\ab\x0b\xa0#$=-", max_size=40))
def test_the_same_words_as_shlex(text: str) -> None:
    assert _split(_shell_words, text) == _split(shlex.split, text)


@pytest.mark.parametrize("text", [
    "vllm serve 'a b' --x=\"c \\\" d\"", "a\\ b", "''", 'a "" b', "x\\", "'open", 'a"b"c', "\\\n",
    "vllm serve Qwen/Qwen3-8B --max-model-len " + "1" * 3000, "docker run vllm/vllm-openai:v0.11.0 --model 'x y'",
])
def test_known_lines(text: str) -> None:
    assert _split(_shell_words, text) == _split(shlex.split, text)
