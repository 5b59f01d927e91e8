"""Markdown past the parser's limits: still scanned for URLs, and the place reported.

markdown-it stops building tokens at `maxNesting` levels (a blockquote in a list in a blockquote…
counts each container) and skips the rest of the innermost container, so a link twenty
blockquotes deep made no token at all. The limit stays (it bounds the parser's recursion and
work), but every source line that no leaf token covers and that holds more than container
markers is scanned as plain text for URLs, and reported (`E005`). A paragraph above `MAX_INLINE`,
or one of pathological brackets (link labels that need more than `LABEL_STEPS_PER_CHAR` scanning
steps a character), is likewise read as text (`mdparse._inline_where_needed`), and so is a whole
document above `MAX_STRUCTURED` (`markdown.extract_markdown`).
"""
from __future__ import annotations

import re
from collections.abc import Sequence

from markdown_it.token import Token

MAX_NESTING = 64  # container levels markdown-it builds tokens for: 32 nested lists, 64 blockquotes
# A paragraph longer than this is not parsed for inline structure: markdown-it's tokens cost about
# 200 times the text (20 MiB of `a` code spans took 4.9 GB). Its text is scanned whole for URLs.
MAX_INLINE = 256 * 1024
# markdown-it's link-label scan visits every position of a label and recurses into each nested `[`
# (up to MAX_NESTING), so a paragraph of `[` runs costs ~64 scan steps a character. A paragraph
# whose labels need more than this many steps is read as text, like one above MAX_INLINE: prose
# and the real-world READMEs under /work/shared/realworld stay below 0.6 a character.
LABEL_STEPS_PER_CHAR = 2
LABEL_STEPS_BASE = 1024
# A Markdown document longer than this is read as plain text, line by line (every URL is still
# found; structure, front matter and directives are not read): markdown-it keeps a token object per
# block, and a document of tiny blocks (one short list item per line) peaks near 500 times its size.
MAX_STRUCTURED = 4 * 1024 * 1024
_MARKERS = re.compile(r"[ \t>]*(?:(?:[-*+]|\d{1,9}[.)])(?=[ \t]|$)[ \t>]*)*")


def past_limit(tokens: Sequence[Token]) -> bool:
    """Whether any container reached the nesting limit (so content may have been skipped)."""
    return any(token.level >= MAX_NESTING - 1 for token in tokens)


def skipped_runs(tokens: Sequence[Token], lines: Sequence[str]) -> list[tuple[int, int]]:
    """(first, end) 0-based line ranges with content that no leaf token covers."""
    covered = bytearray(len(lines))
    for token in tokens:
        if token.nesting == 0 and token.map:
            first, last = token.map
            covered[first:last] = b"\x01" * (min(last, len(lines)) - first)
    runs: list[tuple[int, int]] = []
    for number, line in enumerate(lines):
        if covered[number] or len(_MARKERS.match(line).group(0)) == len(line):  # type: ignore[union-attr]
            continue
        if runs and runs[-1][1] == number:
            runs[-1] = (runs[-1][0], number + 1)
        else:
            runs.append((number, number + 1))
    return runs
