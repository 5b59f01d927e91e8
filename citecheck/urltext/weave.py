"""Apply nested replacements to a text and map offsets of the result back to the original.

A replacement swaps [start, end) for the rendering of an optional kept region (with the
replacements nested inside it applied) followed by a suffix: `[text](bad)` keeps `text`, so an
image nested in the link text is still handled.
"""
from __future__ import annotations

import bisect
from dataclasses import dataclass


@dataclass(frozen=True)
class _Replacement:
    start: int
    end: int
    keep: tuple[int, int] | None
    suffix: str


@dataclass(frozen=True)
class Woven:
    """The result text and, for each run of it, the original offset it came from."""

    text: str
    out_starts: tuple[int, ...]
    origins: tuple[int, ...]
    verbatim: tuple[bool, ...]

    def to_original(self, offset: int) -> int:
        """The original offset of result offset `offset` (inserted text maps to its anchor)."""
        i = bisect.bisect_right(self.out_starts, offset) - 1
        if i < 0:
            return offset
        return self.origins[i] + (offset - self.out_starts[i] if self.verbatim[i] else 0)


class Weaver:
    def __init__(self, text: str) -> None:
        self.text = text
        self.reps: list[_Replacement] = []

    def replace(self, start: int, end: int, keep: tuple[int, int] | None, suffix: str) -> None:
        self.reps.append(_Replacement(start, end, keep, suffix))

    def result(self) -> Woven:
        self.reps.sort(key=lambda r: (r.start, -r.end))
        self._parts: list[str] = []
        self._runs: list[tuple[int, int, bool]] = []
        self._size = 0
        self._render(0, len(self.text), 0)
        return Woven("".join(self._parts), tuple(r[0] for r in self._runs), tuple(r[1] for r in self._runs),
                     tuple(r[2] for r in self._runs))

    def _emit(self, chunk: str, origin: int, verbatim: bool) -> None:
        if chunk:
            self._runs.append((self._size, origin, verbatim))
            self._parts.append(chunk)
            self._size += len(chunk)

    def _render(self, lo: int, hi: int, i: int) -> int:
        pos = lo
        while i < len(self.reps) and self.reps[i].start < hi:
            rep = self.reps[i]
            i += 1
            if rep.start < pos or rep.end > hi:
                continue  # overlaps something already replaced: its text is gone anyway
            self._emit(self.text[pos:rep.start], pos, True)
            if rep.keep:
                i = self._render(rep.keep[0], rep.keep[1], i)
            while i < len(self.reps) and self.reps[i].start < rep.end:
                i += 1
            self._emit(rep.suffix, rep.start, False)
            pos = rep.end
        self._emit(self.text[pos:hi], pos, True)
        return i
