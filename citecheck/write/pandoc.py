"""Pandoc citations in a draft, against its bibliography: what `write` does with `[src-NNN]` for
`[@key]`.

A key the bibliography holds stays as written (Pandoc renders it and the reference list). A
bracketed citation loses the items whose key the bibliography lacks (`[see @a, p. 3; @ghost]` →
`[see @a, p. 3]`), and becomes `<needs-source claim="…"/>` when no item is left; an in-text `@key`
the bibliography lacks (one that reads as a key, see `citecheck.extract.pandoc.looks_like_key`) is
replaced by the marker. Citations in code, HTML comments and URLs are text and stay as written.
"""
from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass

from citecheck.extract.pandoc import citations, looks_like_key
from citecheck.urltext.detect import url_spans
from citecheck.urltext.regions import literal_regions
from citecheck.write.cite import needs_source
from citecheck.write.claims import sentence_before

_SENTENCE_END = re.compile(r"[.!?](?=\s|$)|\n\s*\n")
_BRACKET = re.compile(r"\[(?P<body>[^\[\]]*@[^\[\]]*)\](?![(\[:])")


@dataclass(frozen=True)
class KeyedCitations:
    text: str
    cited: tuple[str, ...]  # known keys, first use first
    unknown: tuple[str, ...]  # keys the bibliography lacks, in order of appearance


def cite_keys(body: str, keys: Collection[str]) -> KeyedCitations:
    """The draft with unknown keys taken out (see the module doc)."""
    if "@" not in body:
        return KeyedCitations(body, (), ())
    literal = literal_regions(body)
    spans = url_spans(body)
    skip = [(s.start, s.end) for s in spans] if spans else []
    cited: dict[str, None] = {}
    unknown: list[str] = []
    edits: list[tuple[int, int, str]] = []

    def ignored(offset: int) -> bool:
        return offset in literal or any(start <= offset < end for start, end in skip)

    taken: list[tuple[int, int]] = []
    for group in _BRACKET.finditer(body):
        if ignored(group.start()):
            continue
        items = list(citations(group.group("body")))
        if not items:
            continue
        taken.append(group.span())
        edit = _bracket(body, group, keys, cited, unknown)
        if edit is not None:
            edits.append(edit)
    for cite in citations(body):
        inside = any(start <= cite.offset < end for start, end in taken)
        if inside or cite.bracketed or ignored(cite.offset):
            continue
        if cite.key in keys:
            cited.setdefault(cite.key, None)
        elif looks_like_key(cite.key):
            unknown.append(cite.key)
            end = cite.offset + 1 + len(cite.key) + (2 if body[cite.offset + 1:cite.offset + 2] == "{" else 0)
            stop = _SENTENCE_END.search(body, end)
            close = stop.start() if stop else len(body)
            edits.append((cite.offset, end, needs_source(sentence_before(body, close, close))))
    return KeyedCitations(_apply(body, edits), tuple(cited), tuple(unknown))


def _bracket(body: str, group: re.Match[str], keys: Collection[str], cited: dict[str, None],
             unknown: list[str]) -> tuple[int, int, str] | None:
    """The edit of one bracketed citation (None: every key is known)."""
    pieces = group.group("body").split(";")
    kept: list[str] = []
    for piece in pieces:
        found = list(citations(piece))
        missing = [c.key for c in found if c.key not in keys]
        for c in found:
            if c.key in keys:
                cited.setdefault(c.key, None)
        unknown.extend(missing)
        if not missing:
            kept.append(piece)
    if len(kept) == len(pieces):
        return None
    if kept:
        return group.start(), group.end(), "[" + ";".join(kept).strip() + "]"
    return group.start(), group.end(), needs_source(sentence_before(body, group.start(), group.end()))


def _apply(body: str, edits: list[tuple[int, int, str]]) -> str:
    out, pos = [], 0
    for start, end, replacement in sorted(edits):
        if start < pos:
            continue
        out += [body[pos:start], replacement]
        pos = end
    out.append(body[pos:])
    return "".join(out)
