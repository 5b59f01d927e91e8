"""Exact source positions: absolute offsets and parser-made content strings mapped to (line, column).

markdown-it builds each block's content from its source lines minus indentation and container
markers (`> `, list bullets), so every content line is a suffix of its source line (apart from
spaces a tab was expanded into, and trailing blanks the parser stripped). `ContentMap` anchors each
content line on its source line once; a content offset then maps to a 1-based (line, column) in
O(log n), and the positions point at the text as written.
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right

from citecheck.models import Location

Position = tuple[int, int]  # 1-based (line, column)


class LineIndex:
    """Absolute offsets of a text → 1-based (line, column)."""

    def __init__(self, text: str) -> None:
        starts = [0]
        find = text.find
        pos = find("\n")
        while pos >= 0:
            starts.append(pos + 1)
            pos = find("\n", pos + 1)
        self.starts = starts

    def position(self, offset: int) -> Position:
        line = bisect_right(self.starts, offset) - 1
        return line + 1, offset - self.starts[line] + 1


class ContentMap:
    """Offsets in a block's content string → positions in the source lines it came from."""

    def __init__(self, content: str, lines: list[str], first: int) -> None:
        self.starts: list[int] = []
        self.anchors: list[tuple[int, int, int]] = []  # (source line index, column of text, synthetic lead)
        offset = 0
        for k, piece in enumerate(content.split("\n")):
            index = min(first + k, len(lines) - 1) if lines else 0
            source = lines[index] if lines else ""
            column, lead = _anchor(source, piece)
            self.starts.append(offset)
            self.anchors.append((index, column, lead))
            offset += len(piece) + 1

    def position(self, offset: int) -> Position:
        k = bisect_right(self.starts, offset) - 1
        index, column, lead = self.anchors[k]
        within = offset - self.starts[k]
        return index + 1, column + max(within - lead, 0) + 1


def _anchor(source: str, piece: str) -> tuple[int, int]:
    """Where `piece` (a content line) starts in `source`, and how many leading spaces are synthetic."""
    body = piece.lstrip(" ")
    lead = len(piece) - len(body)
    core = body.rstrip(" \t")
    if not core:
        return len(source.rstrip(" \t")), lead
    trimmed = source.rstrip(" \t")
    if trimmed.endswith(core):
        return len(trimmed) - len(core), lead
    found = source.find(core)  # an ATX heading's text sits between its `#` runs
    if found < 0:
        return len(source) - len(source.lstrip()), lead
    return found, lead


class CellMap:
    """Offsets in a table cell's content → positions in its row (`\\|` in the row is `|` in the content)."""

    def __init__(self, content: str, line: str, row: int, cursor: int) -> None:
        self.row, self.pipes = row, []
        found = line.find(content, cursor) if content else cursor
        escaped = content.replace("|", "\\|")
        if found < 0 and escaped != content:
            found = line.find(escaped, cursor)
            if found >= 0:
                self.pipes = [i for i, ch in enumerate(content) if ch == "|"]
        self.column = found if found >= 0 else cursor
        self.end = self.column + len(content) + len(self.pipes)

    def position(self, offset: int) -> Position:
        return self.row + 1, self.column + offset + bisect_left(self.pipes, offset) + 1


def offset_location(text: str, start: Location, offset: int) -> Location:
    """The file position of `offset` inside a span that begins at `start`."""
    before = text[:offset]
    newlines = before.count("\n")
    if newlines == 0:
        return Location(start.path, start.line, start.column + offset)
    return Location(start.path, start.line + newlines, offset - before.rfind("\n"))
