"""Which language a block of text is written in: the heuristics the site's language checks share.

Used on the built pages (tests/test_docs_site.py) and on what the calculator writes in the browser
(tests/browser/test_page_languages.py). A Chinese character counts about as much as a Latin word;
Spanish and English are told apart by function words the other language does not have.
"""

from __future__ import annotations

import re

#: Frequent Spanish function words that are not also common English words
#: ("a", "no", "me", "he", "e", "o" left out so English log lines stay neutral).
SPANISH_WORDS = frozenset(
    ["de", "la", "que", "el", "en", "y", "los", "las", "del", "se", "por", "con", "una", "un", "para", "es", "al", "lo", "como", "más", "pero", "sus", "su", "le", "ya", "este", "sí", "porque", "esta", "entre", "cuando", "muy", "sin", "sobre", "también", "hasta", "hay", "donde", "desde", "todo", "nos", "durante", "todos", "uno", "les", "ni", "contra", "otros", "ese", "eso", "ante", "ellos", "esto", "antes", "algunos", "qué", "unos", "otro", "otras", "otra", "él", "tanto", "esa", "estos", "mucho", "cual", "poco", "ella", "estar", "estas", "algunas", "algo", "cada", "puede", "son", "está", "están", "ser", "tiene", "usted", "cuántas", "cuánto", "si", "aunque", "mientras", "según"]
)
_LATIN_WORD = re.compile(r"[a-záéíóúüñ]+")
_LATIN_RUN = re.compile(r"[A-Za-zÀ-ÿ]+")
SPANISH_MIN_HITS = 3
SPANISH_MIN_SHARE = 0.2
CJK_MIN_CHARS = 6
CJK_MIN_SHARE = 0.3


def is_cjk(char: str) -> bool:
    code = ord(char)
    return 0x3400 <= code <= 0x9FFF or 0xF900 <= code <= 0xFAFF or 0x20000 <= code <= 0x2FFFF


def is_chinese_paragraph(text: str) -> bool:
    """True when a paragraph is written in Chinese (not a quoted term or two).

    A Chinese character carries about as much as a Latin word, so the share is
    CJK characters against CJK characters plus Latin-script words.
    """
    cjk = sum(1 for c in text if is_cjk(c))
    latin_words = len(_LATIN_RUN.findall(text))
    return cjk >= CJK_MIN_CHARS and cjk >= CJK_MIN_SHARE * (cjk + latin_words)


def is_spanish_paragraph(text: str) -> bool:
    """True when a paragraph's Latin-script words are mostly Spanish prose."""
    words = _LATIN_WORD.findall(text.lower())
    hits = sum(1 for w in words if w in SPANISH_WORDS)
    return hits >= SPANISH_MIN_HITS and hits >= SPANISH_MIN_SHARE * len(words)


#: Frequent English function words that are not Spanish words ("a", "no", "me", "he" left out), so
#: that model ids, flags and numbers count as words but never as English.
ENGLISH_WORDS = frozenset(
    ["the", "is", "are", "of", "and", "to", "with", "which", "that", "this", "for", "from", "by", "be", "on", "at",
     "you", "your", "it", "its", "when", "has", "have", "not", "was", "were", "will", "can", "does", "than", "into",
     "only", "what", "how", "why", "if", "or", "an", "as", "there", "they", "their", "but", "all", "more", "these",
     "those", "would", "should", "then", "one", "each", "so", "do", "any", "it's", "don't", "doesn't"]
)
_ENGLISH_WORD = re.compile(r"[a-z][a-z'-]*")
ENGLISH_MIN_HITS = 3
ENGLISH_MIN_SHARE = 0.2
#: Quoted text (a log line, an issue's title) is the source's language, not the page's.
_QUOTED = re.compile(r"«[^»]*»|“[^”]*”|\"[^\"]*\"|‘[^’]*’")


def is_english_paragraph(text: str) -> bool:
    """True when a paragraph's Latin-script words are mostly English prose."""
    words = _ENGLISH_WORD.findall(text.lower())
    hits = sum(1 for w in words if w in ENGLISH_WORDS)
    return hits >= ENGLISH_MIN_HITS and hits >= ENGLISH_MIN_SHARE * len(words)


def wrong_language(text: str, lang: str) -> str | None:
    """The language a block of a ``lang`` page is written in when it is not ``lang``, else None.

    Quotations are left out first: vLLM's English lines and an issue's title quoted in Chinese or
    Spanish prose are the source's words. Code is left out by the caller.
    """
    text = _QUOTED.sub(" ", text)
    if lang == "zh":
        if is_chinese_paragraph(text):
            return None
        if is_spanish_paragraph(text):
            return "es"
        return "en" if is_english_paragraph(text) else None
    if is_chinese_paragraph(text):
        return "zh"
    if lang == "es":
        return "en" if is_english_paragraph(text) and not is_spanish_paragraph(text) else None
    return "es" if is_spanish_paragraph(text) else None
