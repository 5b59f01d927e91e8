"""Inline directives in a draft are the model's words, not the user's: `write` takes them out.

A directive (`<!-- citecheck: disable=M006 reason="…" -->`) is how a *person* tells `audit` that
a finding is understood. In a draft it comes from the model whose citations `write` gates, so
`write` never lets it suppress anything and never copies one into the memo: it is removed, as
text, before the draft is transformed. The pattern is wider than what `audit` reads (a space
before the colon, `--!>` as the end, as HTML ends a comment there), and removal repeats until
nothing changes, since taking one out can join the halves of another around it
(`<!-<!-- citecheck: x -->- citecheck: disable=all -->`). An opener that is never closed loses
the opener, so no later `-->` (in the memo or appended to it) can complete it. A removed
directive leaves its line breaks, so every other line of the draft keeps its number (the findings
point into the draft as the writer wrote it).
"""
from __future__ import annotations

import re

_DIRECTIVE_RE = re.compile(r"<!--\s*citecheck\s*:.*?--!?>", re.DOTALL | re.IGNORECASE)
_OPENER_RE = re.compile(r"<!--\s*citecheck\s*:", re.IGNORECASE)


def strip_directives(text: str) -> tuple[str, int]:
    """`text` without any citecheck directive (or unclosed directive opener), and how many went."""
    removed = 0
    while True:
        text, closed = _DIRECTIVE_RE.subn(_line_breaks, text)
        text, opened = _OPENER_RE.subn("", text)
        if not closed and not opened:
            return text, removed
        removed += closed + opened


def has_directive(text: str) -> bool:
    """Whether anything in `text` still opens a citecheck directive."""
    return _OPENER_RE.search(text) is not None


def _line_breaks(match: re.Match[str]) -> str:
    return "\n" * match.group().count("\n")
