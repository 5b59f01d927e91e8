"""Whole HTML memos: lxml for structure (URL attributes, anchor text, headings, marker elements),
`htmlscan` for exact positions of attribute values, text runs and comments."""
from __future__ import annotations

import html as entities
from bisect import bisect_right
from collections.abc import Callable

from lxml import etree, html

from citecheck.extract import htmlfrag
from citecheck.extract import markers as marker_scan
from citecheck.extract.bare import find_urls
from citecheck.extract.htmlfrag import HtmlLink, TagMatcher, element_links, source_line, text_of
from citecheck.extract.htmlscan import Scan, TextRun, prose_of, scan_html
from citecheck.extract.mdinline import BARE_KINDS
from citecheck.extract.positions import LineIndex
from citecheck.models import Document, Heading, Link, LinkKind, Location, Marker, TextSpan

_MARKER_TAGS = ("needs-source", "insufficient-data", "needs-deeper-grounding")
_PARSER = html.HTMLParser(encoding="utf-8", huge_tree=True)  # depth to libxml2's 2048 levels, not 256
_Loc = Callable[[int], Location]


class _Sections:
    """The heading in force at any offset."""

    def __init__(self, headings: list[tuple[int, Heading]]) -> None:
        self.offsets = [offset for offset, _ in headings]
        self.headings = [heading for _, heading in headings]

    def at(self, offset: int) -> str:
        i = bisect_right(self.offsets, offset) - 1
        return self.headings[i].text if i >= 0 else ""


def extract_html(path: str, text: str) -> Document:
    """Extract an HTML memo with exact positions for links, markers, prose and directives."""
    try:
        root = html.document_fromstring(text.encode("utf-8"), parser=_PARSER)
    except (etree.ParserError, ValueError):
        return Document(path=path, text=text, format="html")
    scan, index = scan_html(text), LineIndex(text)

    def loc(offset: int) -> Location:
        return Location(path, *index.position(offset))

    headings = _headings(root, scan, index, loc)
    sections = _Sections(headings)
    deep = htmlfrag.too_deep(_PARSER)  # past it lxml dropped the rest: read the links from the scanned tags
    items = htmlfrag.scanned_links(scan, text) if deep else element_links(root, scan)
    links = [_html_link(item, text, index, loc, sections) for item in items]
    spans: list[TextSpan] = []
    marks = _marker_elements(root, scan, loc, sections)
    for run in scan.runs:
        if run.prose and prose_of(run.raw).strip():
            _run(run, loc, sections.at(run.offset), links, marks, spans)
    links.sort(key=lambda link: (link.location.line, link.location.column))
    comments = [(raw, index.position(offset)[0]) for offset, raw in scan.comments]
    return Document(path=path, text=text, format="html", links=tuple(links), markers=tuple(marks),
                    spans=tuple(spans), headings=tuple(h for _, h in headings),
                    directives=marker_scan.directives(path, comments, text.split("\n")),
                    too_deep=(Location(path, deep, 1),) if deep else ())


def _html_link(item: HtmlLink, text: str, index: LineIndex, loc: _Loc, sections: _Sections) -> Link:
    offset = item.offset if item.offset >= 0 else _near(text, index, item)
    return Link(item.url, loc(offset), LinkKind.HTML, item.text, item.in_code, item.raw, sections.at(offset))


def _near(text: str, index: LineIndex, item: HtmlLink) -> int:
    """Where the two parsers disagreed: the value as written, searched in the lines up to lxml's line
    (which is where the start tag ends), else the start of that line."""
    last = min(item.sourceline, len(index.starts))
    start, end = index.starts[max(last - 20, 1) - 1], index.starts[last] if last < len(index.starts) else len(text)
    found = text.rfind(item.raw, start, end)
    return found if found >= 0 else index.starts[last - 1]


def _run(run: TextRun, loc: _Loc, section: str, links: list[Link], marks: list[Marker],
         spans: list[TextSpan]) -> None:
    raw = prose_of(run.raw)
    lead = len(raw) - len(raw.lstrip())
    spans.append(TextSpan(entities.unescape(raw.strip()), loc(run.offset + lead), section))
    for m in find_urls(raw):
        url = entities.unescape(m.url) if "&" in m.raw else m.url
        links.append(Link(url, loc(run.offset + m.start), BARE_KINDS[m.kind], "", run.in_code, m.raw, section))
    for offset, sid in marker_scan.source_ids(raw):
        marks.append(Marker("source-id", sid, loc(run.offset + offset), section, run.in_code))


def _headings(root: etree._Element, scan: Scan, index: LineIndex, loc: _Loc) -> list[tuple[int, Heading]]:
    matcher, found = TagMatcher(scan), []
    for el in root.iter("h1", "h2", "h3", "h4", "h5", "h6"):
        tag = matcher.find(str(el.tag))
        offset = tag.offset if tag is not None else index.starts[min(source_line(el), len(index.starts)) - 1]
        found.append((offset, Heading(int(str(el.tag)[1]), text_of(el), loc(offset))))
    return sorted(found, key=lambda pair: pair[0])


def _marker_elements(root: etree._Element, scan: Scan, loc: _Loc, sections: _Sections) -> list[Marker]:
    matcher, found = TagMatcher(scan), []
    for el in root.iter(*_MARKER_TAGS):
        tag = matcher.find(str(el.tag))
        value = el.get("claim") or el.get("ids") or el.get("reason") or ""
        offset = tag.offset if tag is not None else 0
        found.append(Marker(str(el.tag), value, loc(offset), sections.at(offset)))
    return found
