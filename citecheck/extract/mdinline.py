"""What one Markdown inline token (or raw block) holds: links, bare URLs, markers, footnote refs.

Every offset is one the parser recorded (see `mdparse`) or one the bare matcher returned on the
source text, and a `Mapper` turns it into a (line, column) of the source as written.
"""
from __future__ import annotations

import html
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from markdown_it.common.utils import unescapeAll
from markdown_it.token import Token

from citecheck.extract import markers as marker_scan
from citecheck.extract.bare import find_urls
from citecheck.extract.pandoc import citations
from citecheck.extract.positions import Position
from citecheck.models import LinkKind

BARE_KINDS = {"bare": LinkKind.BARE, "www": LinkKind.WWW, "domain": LinkKind.DOMAIN, "defanged": LinkKind.DEFANGED,
              "email": LinkKind.EMAIL}
Range = tuple[int, int]


class Mapper(Protocol):
    def position(self, offset: int) -> Position: ...


@dataclass(frozen=True)
class FoundLink:
    url: str
    raw: str
    position: Position
    kind: LinkKind
    text: str = ""
    in_code: bool = False


@dataclass(frozen=True)
class FoundMarker:
    kind: str
    value: str
    position: Position
    in_code: bool = False


@dataclass
class InlineScan:
    links: list[FoundLink] = field(default_factory=list)
    markers: list[FoundMarker] = field(default_factory=list)
    footnote_refs: list[tuple[str, Position]] = field(default_factory=list)
    html_chunks: list[tuple[str, int]] = field(default_factory=list)
    too_deep: list[Position] = field(default_factory=list)  # past a parser limit (HTML depth, paragraph size)


def scan_inline(tok: Token, where: Mapper) -> InlineScan:
    """Links (by recorded range), then bare URLs and markers in the prose around them."""
    out, content, children = InlineScan(), tok.content, tok.children or []
    if tok.meta.get("too_large"):  # not parsed (see `mdparse`): the whole text is scanned below
        out.too_deep.append(where.position(0))
    blank: list[Range] = []
    code: list[Range] = []
    links: list[Range] = []
    for i, child in enumerate(children):
        src = child.meta.get("src")
        if src is None:
            continue
        if child.type in ("link_open", "image"):
            blank.append(src)
            links.append(src)
            _link(out, children, i, content, where)
        elif child.type == "code_inline":
            code.append(src)
        elif child.type == "html_inline":
            blank.append(src)
            _html_chunk(out, content[src[0]:src[1]], src[0], where)
        elif child.type == "footnote_ref":
            blank.append(src)
            out.footnote_refs.append((str(child.meta.get("label", "")), where.position(src[0])))
    code = _outside(code, links)
    prose = _mask(content, blank + code)
    _prose(out, prose, 0, where, False, _unescape_markdown)
    if "@" in prose:
        _citations(out, prose, where)
    for start, end in code:
        _prose(out, content[start:end], start, where, True, None)
    return out


def _outside(ranges: list[Range], covers: list[Range]) -> list[Range]:
    """The ranges not inside any of `covers` (code spans in link text are the link's), by bisection
    on the union of `covers`: linear, where testing every pair was quadratic in a paragraph of both."""
    union: list[list[int]] = []
    for start, end in sorted(covers):
        if union and start <= union[-1][1]:
            union[-1][1] = max(union[-1][1], end)
        else:
            union.append([start, end])
    starts = [start for start, _ in union]
    kept = []
    for start, end in ranges:
        k = bisect_right(starts, start) - 1
        if k < 0 or end > union[k][1]:
            kept.append((start, end))
    return kept


def scan_raw(content: str, where: Mapper, in_code: bool = False, html: bool = False) -> InlineScan:
    """A code block, front matter or raw HTML block: no Markdown inside, offsets are the content's."""
    out = InlineScan()
    if html:
        _html_block(out, content, where)
    else:
        _prose(out, content, 0, where, in_code, None)
    return out


def _link(out: InlineScan, children: list[Token], i: int, content: str, where: Mapper) -> None:
    child = children[i]
    dest = child.meta.get("dest")
    if dest is None:
        return  # a reference-style use: the definition carries the URL and is reported once
    if child.type == "image":
        url, text, kind = str(child.attrGet("src") or ""), child.content, LinkKind.IMAGE
    else:
        url, text = str(child.attrGet("href") or ""), _link_text(children, i)
        kind = LinkKind.AUTOLINK if child.markup == "autolink" else LinkKind.INLINE
    if url.strip():
        out.links.append(FoundLink(url, content[dest[0]:dest[1]], where.position(dest[0]), kind, text))


def _link_text(children: list[Token], i: int) -> str:
    parts, depth = [], 0
    for j in range(i + 1, len(children)):  # by index: a slice copied per link made many links quadratic
        child = children[j]
        if child.type == "link_close" and depth == 0:
            break
        depth += {"link_open": 1, "link_close": -1}.get(child.type, 0)
        parts.append(" " if child.type in ("softbreak", "hardbreak") else child.content)
    return "".join(parts)


def _prose(out: InlineScan, text: str, base: int, where: Mapper, in_code: bool,
           unescape: Callable[[str], str] | None) -> None:
    for m in find_urls(text):
        raw, url = m.raw, m.url
        if unescape is not None:
            raw, url = _unescaped(raw, url, unescape)
        if raw:
            out.links.append(FoundLink(url, raw, where.position(base + m.start), BARE_KINDS[m.kind], "", in_code))
    for offset, sid in marker_scan.source_ids(text):
        out.markers.append(FoundMarker("source-id", sid, where.position(base + offset), in_code))


def _citations(out: InlineScan, prose: str, where: Mapper) -> None:
    """Pandoc citation keys of the prose, URLs and e-mail addresses blanked first (`medium.com/@x`),
    except a URL braced as a key (`[@{https://…}]`)."""
    urls = [(m.start, m.start + len(m.raw)) for m in find_urls(prose) if prose[max(m.start - 2, 0):m.start] != "@{"]
    for cite in citations(_mask(prose, urls)):
        kind = "citation" if cite.bracketed else "in-text-citation"
        out.markers.append(FoundMarker(kind, cite.key, where.position(cite.offset)))


def _unescaped(raw: str, url: str, unescape: Callable[[str], str]) -> tuple[str, str]:
    if raw.endswith("\\"):  # a backslash before a line end is a hard break, not part of the URL
        raw, url = raw[:-1], url[:-1]
    if "\\" in raw or "&" in raw:
        url = unescape(url)
    return raw, url


def _unescape_markdown(text: str) -> str:
    return unescapeAll(text)


def _html_chunk(out: InlineScan, chunk: str, base: int, where: Mapper) -> None:
    from citecheck.extract.htmlfrag import html_fragment  # lxml: only for memos with raw HTML

    out.html_chunks.append((chunk, where.position(base)[0]))
    items, deep = html_fragment(chunk)
    if deep:
        out.too_deep.append(where.position(base))
    for item in items:
        offset = item.offset if item.offset >= 0 else max(chunk.find(item.raw), 0)
        position = where.position(base + offset)
        out.links.append(FoundLink(item.url, item.raw, position, LinkKind.HTML, item.text, item.in_code))
    for mk in marker_scan.html_markers(chunk):
        out.markers.append(FoundMarker(mk.kind, mk.value, where.position(base + mk.offset)))


def _html_block(out: InlineScan, content: str, where: Mapper) -> None:
    from citecheck.extract.htmlscan import prose_of, scan_html

    _html_chunk(out, content, 0, where)
    out.html_chunks.pop()  # the caller records a block chunk with its own first line
    for run in scan_html(content).runs:
        raw = prose_of(run.raw)
        if run.prose and raw.strip():
            _prose(out, raw, run.offset, where, run.in_code, html.unescape)


def _mask(text: str, ranges: list[Range]) -> str:
    """`text` with every range blanked (same length, so offsets still hold)."""
    if not ranges:
        return text
    pieces, pos = [], 0
    for start, end in sorted(ranges):
        if end <= pos:
            continue
        start = max(start, pos)
        pieces.append(text[pos:start])
        pieces.append(" " * (end - start))
        pos = end
    pieces.append(text[pos:])
    return "".join(pieces)
