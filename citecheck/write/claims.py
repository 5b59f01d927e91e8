"""The sentence a citation was meant to support, as plain text for a `claim="…"` attribute.

The sentence is the text between the previous sentence end (or the start of the block: a blank
line, a heading, a list item, a quote) and the citation; when the citation follows a full stop
(`Revenue rose. [src-999]`) it is the sentence before. Markup is flattened and anything
URL-shaped cut out, so the attribute can never carry a URL.
"""
from __future__ import annotations

import re

from citecheck.urltext.detect import url_spans

MAX_CLAIM = 300
_BLOCK_START_RE = re.compile(r"\n[ \t]*\n|\n(?=[ \t]*(?:[-*+]\s|\d{1,9}[.)]\s|#{1,6}\s|>|\|))|\A")
_WINDOW = 1200  # how far back a sentence may start (claims are cut to 300 characters anyway)
_SENTENCE_END_RE = re.compile(r"[.!?][\"'”’)\]]*(?=\s)")
_FLATTEN = [
    (re.compile(r"\[src-\d{3,}(?:\s*[,;]\s*src-\d{3,})*\]", re.IGNORECASE), " "),  # citations
    (re.compile(r"\[\^[^\[\]\s]+\]"), " "),  # footnote references (no class holds its opener: linear)
    (re.compile(r"!?\[([^\[\]]*)\]\([^()]*\)"), r" \1 "),  # links keep their text
    (re.compile(r"<[^<>]*>"), " "),  # tags and markers
    (re.compile(r"^[ \t]*(?:[-*+]|\d{1,9}[.)]|#{1,6}|>)[ \t]+", re.MULTILINE), " "),  # block prefixes
    (re.compile(r"[*_`~]+"), ""),  # emphasis and code marks
]


def sentence_before(body: str, pos: int, end: int) -> str:
    """The cleaned claim for a citation at body[pos:end]."""
    window = body[max(0, pos - _WINDOW):pos]
    prefix = window[max(m.end() for m in _BLOCK_START_RE.finditer(window)):]
    ends = [m.end() for m in _SENTENCE_END_RE.finditer(prefix)]
    tail = clean(prefix[ends[-1]:] if ends else prefix)
    if tail:
        return tail
    after = body[end:end + 2000]
    if not ends or re.match(r"[ \t]*\w", after):  # the citation opens its sentence
        return clean(_sentence_after(after))
    return clean(prefix[ends[-2] if len(ends) > 1 else 0:ends[-1]])


def _sentence_after(rest: str) -> str:
    stop = re.search(r"[.!?](?=\s|$)|\n[ \t]*\n", rest)
    return rest[:stop.end() if stop else len(rest)]


def clean(text: str) -> str:
    """Plain one-line text without markup or URLs, at most MAX_CLAIM characters."""
    for regex, repl in _FLATTEN:
        text = regex.sub(repl, text)
    text = " ".join(text.split())
    for span in reversed(url_spans(text)):
        text = text[:span.start] + "…" + text[span.end:]
    text = text.strip(" ,;:")
    if len(text) > MAX_CLAIM:
        text = text[:MAX_CLAIM].rsplit(" ", 1)[0] + " …"
    return text
