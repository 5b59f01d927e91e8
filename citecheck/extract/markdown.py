"""Markdown extraction through markdown-it-py token maps (plus footnote and front-matter plugins).

Block tokens carry line maps; inline positions are found by searching each inline child's
source text forward from a cursor inside its block's lines, so repeated URLs land on the
right occurrence.
"""
from __future__ import annotations

import re
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.front_matter import front_matter_plugin

from citecheck.extract import markers as marker_scan
from citecheck.extract.bare import find_urls
from citecheck.extract.frontmatter import parse_front_matter
from citecheck.extract.htmlfrag import html_fragment_links
from citecheck.models import (Document, FootnoteRef, Heading, Link, LinkKind, Location, Marker,
                              TextSpan)

_REF_DEF_RE = re.compile(r"^ {0,3}\[(?P<label>[^\]]+)\]:\s*<?(?P<url>[^\s>]+)>?")
_FOOTNOTE_DEF_RE = re.compile(r"^ {0,3}\[\^(?P<label>[^\]]+)\]:")
_BARE_KINDS = {"bare": LinkKind.BARE, "www": LinkKind.WWW, "domain": LinkKind.DOMAIN, "defanged": LinkKind.DEFANGED}


def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
    return md.use(front_matter_plugin).use(footnote_plugin)


_MD = _parser()


class _Cursor:
    """Finds successive substrings inside a block's source lines and reports 1-based positions."""

    def __init__(self, lines: list[str], first: int, last: int) -> None:
        self.lines, self.first, self.last = lines, first, max(last, first + 1)
        self.line, self.col = first, 0

    def find(self, needle: str) -> tuple[int, int] | None:
        if not needle:
            return None
        for ln in range(self.line, min(self.last, len(self.lines))):
            start = self.col if ln == self.line else 0
            idx = self.lines[ln].find(needle, start)
            if idx >= 0:
                self.line, self.col = ln, idx + len(needle)
                return ln + 1, idx + 1
        return None

    def locate(self, *needles: str) -> tuple[int, int]:
        for needle in needles:
            hit = self.find(needle)
            if hit:
                return hit
        return self.line + 1, self.col + 1


class _State:
    def __init__(self, path: str, text: str) -> None:
        self.path, self.text = path, text
        self.lines = text.split("\n")
        self.links: list[Link] = []
        self.markers: list[Marker] = []
        self.spans: list[TextSpan] = []
        self.headings: list[Heading] = []
        self.footnotes: list[FootnoteRef] = []
        self.html_chunks: list[tuple[str, int]] = []
        self.section = ""
        self.covered: set[int] = set()

    def loc(self, line: int, col: int) -> Location:
        return Location(self.path, line, col)

    def span_source(self, first: int, last: int) -> str:
        return "\n".join(self.lines[first:last])


def extract_markdown(path: str, text: str) -> Document:
    """Extract links, markers, prose spans, headings, footnotes and front matter from Markdown."""
    state = _State(path, text)
    env: dict[str, Any] = {}
    tokens = _MD.parse(text, env)
    front: dict[str, Any] = {}
    block_map: list[int] | None = None
    in_footnote = ""
    pending_heading: int | None = None
    for tok in tokens:
        if tok.map:
            block_map = tok.map
            state.covered.update(range(tok.map[0], tok.map[1]))
        if tok.type == "front_matter":
            front = parse_front_matter(path, tok.content, 2)
        elif tok.type == "heading_open":
            pending_heading = int(tok.tag[1])
        elif tok.type == "footnote_open":
            in_footnote = str(tok.meta.get("label", ""))
        elif tok.type == "footnote_close":
            in_footnote = ""
        elif tok.type in ("fence", "code_block") and tok.map:
            _code_block(state, tok)
        elif tok.type == "html_block" and tok.map:
            state.html_chunks.append((tok.content, tok.map[0] + 1))
            _html(state, tok.content, tok.map[0] + 1)
        elif tok.type == "inline" and block_map:
            if pending_heading is not None:
                state.section = tok.content.strip()
                state.headings.append(Heading(pending_heading, state.section, state.loc(block_map[0] + 1, 1)))
                pending_heading = None
            _inline(state, tok, block_map, in_footnote)
    _reference_definitions(state, env)
    links = sorted(state.links, key=lambda link: (link.location.line, link.location.column))
    return Document(
        path=path, text=text, format="markdown", links=tuple(links), markers=tuple(state.markers),
        spans=tuple(state.spans), headings=tuple(state.headings), footnotes=tuple(state.footnotes),
        directives=marker_scan.directives(path, state.html_chunks, state.lines), front_matter=front,
    )


def _inline(state: _State, tok: Token, block_map: list[int], in_footnote: str) -> None:
    first, last = block_map
    cursor = _Cursor(state.lines, first, last)
    state.spans.append(TextSpan(state.span_source(first, last), state.loc(first + 1, 1), state.section))
    if in_footnote:
        _record_footnote_def(state, in_footnote, first)
    children = tok.children or []
    i = 0
    while i < len(children):
        child = children[i]
        if child.type in ("link_open", "image"):
            i = _link(state, children, i, cursor, in_footnote)
            continue
        if child.type == "text":
            _prose(state, child.content, cursor, False, in_footnote)
        elif child.type == "code_inline":
            _prose(state, child.content, cursor, True)
        elif child.type == "html_inline":
            line, col = cursor.locate(child.content)
            state.html_chunks.append((child.content, line))
            _html(state, child.content, line, col)
        elif child.type == "footnote_ref":
            label = str(child.meta.get("label", ""))
            line, col = cursor.locate(f"[^{label}]")
            state.footnotes.append(FootnoteRef(label, state.loc(line, col), False))
        i += 1


def _link(state: _State, children: list[Token], i: int, cursor: _Cursor, in_footnote: str) -> int:
    child = children[i]
    if child.type == "image":
        href = str(child.attrGet("src") or "")
        text, kind, end = child.content, LinkKind.IMAGE, i + 1
    else:
        href = str(child.attrGet("href") or "")
        kind = LinkKind.AUTOLINK if child.markup == "autolink" else LinkKind.INLINE
        end, parts = i + 1, []
        while end < len(children) and children[end].type != "link_close":
            parts.append(children[end].content)
            end += 1
        text = "".join(parts)
        for inner in children[i + 1:end]:  # positions of inner text advance the cursor
            if inner.type == "text" and inner.content and kind is LinkKind.INLINE:
                cursor.find(inner.content)
        end += 1
    if in_footnote and kind is LinkKind.INLINE:
        kind = LinkKind.FOOTNOTE
    raw = _raw_href(href, child)
    hit = cursor.find(raw) or cursor.find(href)
    if hit is None and kind is not LinkKind.IMAGE and child.markup != "autolink":
        return end  # a reference-style use: the definition line carries the URL
    line, col = hit or (cursor.line + 1, cursor.col + 1)
    state.links.append(Link(href, state.loc(line, col), kind, text, False, raw, state.section))
    return end


def _raw_href(href: str, tok: Token) -> str:
    from urllib.parse import unquote

    return unquote(href) if "%" in href and tok.markup != "autolink" else href


def _prose(state: _State, content: str, cursor: _Cursor, in_code: bool, in_footnote: str = "") -> None:
    base = cursor.find(content)
    for m in find_urls(content):
        if base and "\n" not in content[: m.start]:
            line, col = base[0], base[1] + m.start
        else:
            line, col = _relocate(state, cursor, m.raw, base)
        kind = LinkKind.FOOTNOTE if in_footnote and m.kind == "bare" else _BARE_KINDS[m.kind]
        state.links.append(Link(m.url, state.loc(line, col), kind, "", in_code, m.raw, state.section))
    for mk in marker_scan.source_ids(content):
        line, col = (base[0], base[1] + mk[0]) if base and "\n" not in content[: mk[0]] else (base or (cursor.line + 1, 1))
        state.markers.append(Marker("source-id", mk[1], state.loc(line, col), state.section, in_code))


def _relocate(state: _State, cursor: _Cursor, raw: str, base: tuple[int, int] | None) -> tuple[int, int]:
    start_line = (base[0] - 1) if base else cursor.line
    for ln in range(start_line, min(len(state.lines), start_line + 200)):
        idx = state.lines[ln].find(raw)
        if idx >= 0:
            return ln + 1, idx + 1
    return (base or (cursor.line + 1, 1))


def _code_block(state: _State, tok: Token) -> None:
    assert tok.map
    first = tok.map[0] + (1 if tok.type == "fence" else 0)
    for offset, line_text in enumerate(tok.content.split("\n")):
        line_no = first + offset + 1
        src = state.lines[line_no - 1] if line_no - 1 < len(state.lines) else line_text
        for m in find_urls(line_text):
            idx = src.find(m.raw)
            col = idx + 1 if idx >= 0 else m.start + 1
            state.links.append(Link(m.url, state.loc(line_no, col), _BARE_KINDS[m.kind], "", True, m.raw, state.section))


def _html(state: _State, content: str, line: int, col: int = 1) -> None:
    for item in html_fragment_links(content):
        src_line = line + item.line_offset
        src = state.lines[src_line - 1] if 0 < src_line <= len(state.lines) else ""
        idx = src.find(item.url)
        state.links.append(Link(item.url, state.loc(src_line, idx + 1 if idx >= 0 else col), LinkKind.HTML,
                                item.text, False, item.url, state.section))
    for mk in marker_scan.html_markers(content):
        src_line = line + content[: mk.offset].count("\n")
        src = state.lines[src_line - 1] if 0 < src_line <= len(state.lines) else ""
        idx = src.find(mk.raw)
        state.markers.append(Marker(mk.kind, mk.value, state.loc(src_line, idx + 1 if idx >= 0 else col), state.section))


def _record_footnote_def(state: _State, label: str, first: int) -> None:
    for ln in range(first, max(-1, first - 50), -1):
        m = _FOOTNOTE_DEF_RE.match(state.lines[ln])
        if m and m.group("label") == label:
            if not any(f.is_definition and f.location.line == ln + 1 for f in state.footnotes):
                state.footnotes.append(FootnoteRef(label, state.loc(ln + 1, m.start("label") - 1), True))
            return


def _reference_definitions(state: _State, env: dict[str, Any]) -> None:
    """Reference definitions make no tokens: find them on lines no block token covers."""
    known = {k.lower() for k in env.get("references", {})}
    for ln, line in enumerate(state.lines):
        if ln in state.covered:
            continue
        m = _REF_DEF_RE.match(line)
        if m and not m.group("label").startswith("^") and _norm_label(m.group("label")) in known:
            state.links.append(Link(m.group("url"), state.loc(ln + 1, m.start("url") + 1), LinkKind.REFERENCE,
                                    m.group("label"), False, m.group("url"), ""))
    # A footnote definition's own line is covered by its paragraph; record any we missed.
    for ln, line in enumerate(state.lines):
        m = _FOOTNOTE_DEF_RE.match(line)
        if m and not any(f.is_definition and f.location.line == ln + 1 for f in state.footnotes):
            if ln in state.covered:
                state.footnotes.append(FootnoteRef(m.group("label"), state.loc(ln + 1, m.start("label") - 1), True))


def _norm_label(label: str) -> str:
    return " ".join(label.split()).lower()
