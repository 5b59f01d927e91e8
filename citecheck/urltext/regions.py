"""Where a Markdown draft is literal: code blocks, code spans and HTML comments.

Citation IDs inside these are text, not citations, and link syntax inside them is not a link;
URLs inside them are still removed (a reader can copy a URL out of a code block).
"""
from __future__ import annotations

import bisect
import re

from markdown_it import MarkdownIt

# Block structure is all that is needed here: skip inline parsing (most of markdown-it's time).
_MD = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"]).disable("inline")
_MAYBE_CODE_BLOCK_RE = re.compile(r"^(?: {0,3}(?:`{3,}|~{3,})| *\t| {4,}\S)", re.MULTILINE)
# A comment ends where a browser ends it: at once for the abrupt `<!-->` and `<!--->`, else at the
# first `-->` or `--!>` (CommonMark ends it at `-->` only; what follows `--!>` is then text to both).
_COMMENT_RE = re.compile(r"<!--(?:-?>|.*?(?:--!?>|\Z))", re.DOTALL)
_BACKTICKS_RE = re.compile(r"`+")
_BLANK_LINE_RE = re.compile(r"\n[ \t]*\n")


class Regions:
    """Sorted, non-overlapping half-open spans with a fast membership test."""

    def __init__(self, spans: list[tuple[int, int]]) -> None:
        merged: list[tuple[int, int]] = []
        for start, end in sorted(spans):
            if merged and start <= merged[-1][1]:
                merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
            else:
                merged.append((start, end))
        self.spans = merged
        self._starts = [s for s, _ in merged]

    def __contains__(self, offset: object) -> bool:
        if not isinstance(offset, int):
            return False
        i = bisect.bisect_right(self._starts, offset) - 1
        return i >= 0 and offset < self.spans[i][1]


def line_offsets(text: str) -> list[int]:
    """Offset of the first character of every line (plus the end of the text)."""
    offsets = [0]
    offsets.extend(m.end() for m in re.finditer("\n", text))
    offsets.append(len(text) + 1)
    return offsets


def literal_regions(text: str) -> Regions:
    """Code blocks (fenced and indented), code spans and HTML comments."""
    blocks: list[tuple[int, int]] = []
    block_starts: list[int] = []  # where a block (paragraph, heading, list item, table row, fence …) begins
    lines = line_offsets(text) if "`" in text or _MAYBE_CODE_BLOCK_RE.search(text) else []
    for tok in _MD.parse(text) if lines else ():
        if not tok.map:
            continue
        first, last = tok.map
        block_starts.append(lines[first])
        if tok.type in ("fence", "code_block"):
            blocks.append((lines[first], min(lines[min(last, len(lines) - 1)], len(text))))
            block_starts.append(min(lines[min(last, len(lines) - 1)], len(text)))
    block_regions = Regions(blocks)
    spans = list(blocks)
    spans.extend(_code_spans(text, block_regions, sorted(set(block_starts))))
    if "<!--" in text:
        spans.extend(_comments(text, block_regions))
    return Regions(spans)


def _comments(text: str, blocks: Regions) -> list[tuple[int, int]]:
    """HTML comments outside code blocks; a `<!--` inside a tag (`<p title="a <!-- b">`) is attribute
    text to a browser, not a comment that would hide the rest of the draft from the gate."""
    spans: list[tuple[int, int]] = []
    pos = text.find("<!--")
    while pos != -1:
        match = None if pos in blocks or in_tag(text, pos) else _COMMENT_RE.match(text, pos)
        if match is None:  # (matched only when needed: a skipped opener never scans ahead)
            pos = text.find("<!--", pos + 4)
            continue
        spans.append((pos, match.end()))
        pos = text.find("<!--", match.end())
    return spans


_TAG_OPEN_RE = re.compile(r"<[A-Za-z][^\s/>]*")
_TAG_RE = re.compile(r"""<[A-Za-z][^\s/>]*(?:\s*/?\s*[^\s=/>"']+(?:\s*=\s*(?:"[^"]*"?|'[^']*'?|[^\s>]*))?)*""")
_TAG_LOOKBACK = 4096


def in_tag(text: str, offset: int) -> bool:
    """Whether `offset` lies inside an HTML start tag (its name or attributes, quoted values too)."""
    window = max(0, offset - _TAG_LOOKBACK)
    openers = list(_TAG_OPEN_RE.finditer(text, window, offset))
    if not openers:
        return False
    tag = _TAG_RE.match(text, openers[-1].start(), offset + 1)  # to `offset` only: bounded by the look-back
    return tag is not None and tag.end() > offset


def _code_spans(text: str, blocks: Regions, block_starts: list[int]) -> list[tuple[int, int]]:
    """CommonMark code spans: a backtick run closes at the next run of the same length, within
    the paragraph. Runs are indexed by length, so unmatched runs cost a lookup, not a scan.

    The paragraph ends at a blank line or where the block parser starts another block: a lone
    backtick before a fenced block, list item or table row never pairs with one after it
    (markdown-it's block tokens give those starts; past its nesting limit only blank lines do)."""
    if "`" not in text:
        return []
    runs = [(m.start(), m.end()) for m in _BACKTICKS_RE.finditer(text)
            if m.start() not in blocks and not _escaped(text, m.start())]
    by_width: dict[int, list[int]] = {}
    for index, (start, end) in enumerate(runs):
        by_width.setdefault(end - start, []).append(index)
    breaks = sorted(set(block_starts).union(m.start() for m in _BLANK_LINE_RE.finditer(text)))
    spans: list[tuple[int, int]] = []
    i = 0
    while i < len(runs):
        start, end = runs[i]
        same = by_width[end - start]
        k = bisect.bisect_right(same, i)
        j = same[k] if k < len(same) else -1
        b = bisect.bisect_left(breaks, end)
        if j < 0 or (b < len(breaks) and breaks[b] <= runs[j][0]):
            i += 1
            continue
        spans.append((start, runs[j][1]))
        i = j + 1
    return spans


def _escaped(text: str, offset: int) -> bool:
    """An odd number of backslashes before `offset`."""
    count = 0
    while offset - count > 0 and text[offset - count - 1] == "\\":
        count += 1
    return count % 2 == 1
