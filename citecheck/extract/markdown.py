"""Markdown extraction through markdown-it-py tokens (plus footnote and front-matter plugins).

Block tokens carry line maps; the parser wrapped in `mdparse` records the source range of every
link, image, autolink, code span and raw-HTML token, so positions are computed, never searched for.
Bare URLs are found in the inline source with those constructs blanked out, so a URL is reported
where it is written even when escapes or entities (`\\_`, `&amp;`) change its rendered text.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from markdown_it.token import Token

from citecheck.extract import markers as marker_scan
from citecheck.extract.deep import MAX_STRUCTURED, past_limit, skipped_runs
from citecheck.extract.frontmatter import parse_front_matter
from citecheck.extract.mdinline import InlineScan, scan_inline, scan_raw
from citecheck.extract.mdparse import build_parser, parse
from citecheck.extract.positions import CellMap, ContentMap, LineIndex
from citecheck.extract.text import extract_text
from citecheck.models import Document, FootnoteRef, Heading, Link, LinkKind, Location, Marker, TextSpan

_MD = build_parser()
_CELLS = ("th_open", "td_open")


@dataclass
class _Walk:
    path: str
    text: str
    lines: list[str]
    index: LineIndex
    links: list[Link] = field(default_factory=list)
    markers: list[Marker] = field(default_factory=list)
    spans: list[TextSpan] = field(default_factory=list)
    headings: list[Heading] = field(default_factory=list)
    footnotes: list[FootnoteRef] = field(default_factory=list)
    html_chunks: list[tuple[str, int]] = field(default_factory=list)
    front: dict[str, Any] = field(default_factory=dict)
    too_deep: list[Location] = field(default_factory=list)
    section: str = ""
    footnote: str = ""
    heading: int = 0
    in_cell: bool = False
    row_cursor: int = 0

    def loc(self, line: int, col: int) -> Location:
        return Location(self.path, line, col)


def extract_markdown(path: str, text: str) -> Document:
    """Extract links, markers, prose spans, headings, footnotes and front matter from Markdown."""
    if len(text) > MAX_STRUCTURED:  # markdown-it's tokens would cost hundreds of times the text
        return replace(extract_text(path, text), format="markdown", too_deep=(Location(path, 1, 1),))
    lines = text.split("\n")
    walk = _Walk(path, text, lines, LineIndex(text))
    tokens, _env = parse(_MD, text)
    for tok in tokens:
        _token(walk, tok)
    if past_limit(tokens):
        _too_deep(walk, tokens)
    links = sorted(walk.links, key=lambda link: (link.location.line, link.location.column))
    if "\x00" in text:
        links = [_as_written(link, lines) for link in links]
    return Document(
        path=path, text=text, format="markdown", links=tuple(links), markers=tuple(walk.markers),
        spans=tuple(walk.spans), headings=tuple(walk.headings), footnotes=tuple(walk.footnotes),
        directives=marker_scan.directives(path, walk.html_chunks, lines), front_matter=walk.front,
        too_deep=tuple(walk.too_deep),
    )


def _as_written(link: Link, lines: list[str]) -> Link:
    """markdown-it reads U+0000 as U+FFFD (CommonMark's security rule), one character for one, so
    positions hold; the raw text is taken back from the source so that it is what was written."""
    line = lines[link.location.line - 1] if link.location.line <= len(lines) else ""
    start = link.location.column - 1
    written = line[start:start + len(link.raw)]
    if written != link.raw and written.replace("\x00", "\ufffd") == link.raw:
        return replace(link, raw=written)
    return link


def _token(walk: _Walk, tok: Token) -> None:
    kind = tok.type
    if kind == "inline":
        _inline(walk, tok)
    elif kind == "heading_open":
        walk.heading = int(tok.tag[1])
    elif kind in _CELLS or kind in ("th_close", "td_close"):
        walk.in_cell = kind in _CELLS
    elif kind == "tr_open":
        walk.row_cursor = 0
    elif kind == "definition" and "dest" in tok.meta:
        _definition(walk, tok)
    elif kind in ("fence", "code_block") and tok.map:
        _code_block(walk, tok)
    elif kind == "html_block" and tok.map:
        _html_block(walk, tok)
    elif kind == "footnote_reference_open" and tok.map:
        _footnote_definition(walk, tok)
    elif kind == "footnote_reference_close":
        walk.footnote = ""
    elif kind == "front_matter" and tok.map:
        _front_matter(walk, tok)


def _inline(walk: _Walk, tok: Token) -> None:
    first, last = tok.map or (0, 1)
    if walk.in_cell:
        cell = CellMap(tok.content, walk.lines[first] if first < len(walk.lines) else "", first, walk.row_cursor)
        walk.row_cursor, walk.in_cell = cell.end, False
        walk.spans.append(TextSpan(tok.content, walk.loc(*cell.position(0)), walk.section))
        _record(walk, scan_inline(tok, cell), in_heading=False)
        return
    if walk.heading:
        walk.section = tok.content.strip()
        walk.headings.append(Heading(walk.heading, walk.section, walk.loc(first + 1, 1)))
    walk.spans.append(TextSpan("\n".join(walk.lines[first:last]), walk.loc(first + 1, 1), walk.section))
    _record(walk, scan_inline(tok, ContentMap(tok.content, walk.lines, first)), in_heading=bool(walk.heading))
    walk.heading = 0


def _record(walk: _Walk, found: InlineScan, in_heading: bool) -> None:
    """Turn what one inline token yielded into Links, Markers and FootnoteRefs."""
    walk.too_deep.extend(walk.loc(*position) for position in found.too_deep)
    for item in found.links:
        kind = _footnote_kind(item.kind) if walk.footnote else item.kind
        walk.links.append(Link(item.url, walk.loc(*item.position), kind, item.text, item.in_code, item.raw,
                               walk.section))
    for mk in found.markers:
        walk.markers.append(Marker(mk.kind, mk.value, walk.loc(*mk.position), walk.section, mk.in_code))
    for label, position in found.footnote_refs:
        walk.footnotes.append(FootnoteRef(label, walk.loc(*position), False))
    walk.html_chunks.extend(found.html_chunks)


def _too_deep(walk: _Walk, tokens: list[Token]) -> None:
    """Lines the parser skipped past its nesting limit: scanned as plain text (see `deep`)."""
    for first, end in skipped_runs(tokens, walk.lines):
        content = "\n".join(walk.lines[first:end])
        _record(walk, scan_raw(content, ContentMap(content, walk.lines, first)), False)
        walk.too_deep.append(walk.loc(first + 1, 1))


def _footnote_kind(kind: LinkKind) -> LinkKind:
    """Inside a footnote definition a link is a footnote link, unless its kind says more."""
    return LinkKind.FOOTNOTE if kind in (LinkKind.INLINE, LinkKind.AUTOLINK, LinkKind.BARE) else kind


def _definition(walk: _Walk, tok: Token) -> None:
    start, end = tok.meta["dest"]
    line, col = walk.index.position(start)
    raw = walk.text[start:end]
    walk.links.append(Link(str(tok.meta["url"]), walk.loc(line, col), LinkKind.REFERENCE,
                           str(tok.meta.get("label", "")), False, raw, walk.section))


def _code_block(walk: _Walk, tok: Token) -> None:
    assert tok.map
    first = tok.map[0] + (1 if tok.type == "fence" else 0)
    _record(walk, scan_raw(tok.content, ContentMap(tok.content, walk.lines, first), in_code=True), False)


def _html_block(walk: _Walk, tok: Token) -> None:
    assert tok.map
    walk.html_chunks.append((tok.content, tok.map[0] + 1))
    _record(walk, scan_raw(tok.content, ContentMap(tok.content, walk.lines, tok.map[0]), html=True), False)


def _front_matter(walk: _Walk, tok: Token) -> None:
    assert tok.map
    walk.front = parse_front_matter(walk.path, tok.content, tok.map[0] + 2)
    _record(walk, scan_raw(tok.content, ContentMap(tok.content, walk.lines, tok.map[0] + 1)), False)


def _footnote_definition(walk: _Walk, tok: Token) -> None:
    assert tok.map
    label = str(tok.meta.get("label", ""))
    walk.footnote = label or " "
    line = walk.lines[tok.map[0]] if tok.map[0] < len(walk.lines) else ""
    col = line.find(f"[^{label}]")
    walk.footnotes.append(FootnoteRef(label, walk.loc(tok.map[0] + 1, col + 1 if col >= 0 else 1), True))
