"""Whole HTML memos via lxml: links with source lines, headings, prose, markers, directives."""
from __future__ import annotations

from lxml import etree, html

from citecheck.extract import markers as marker_scan
from citecheck.extract.bare import find_urls
from citecheck.extract.htmlfrag import element_links
from citecheck.extract.markdown import _BARE_KINDS
from citecheck.models import Document, Heading, Link, LinkKind, Location, Marker, TextSpan

_SKIP_TEXT = {"script", "style", "a", "title", "head"}


def extract_html(path: str, text: str) -> Document:
    """Extract an HTML memo; positions come from lxml's source lines and a search within them."""
    lines = text.split("\n")
    try:
        root = html.document_fromstring(text.encode("utf-8"))
    except (etree.ParserError, ValueError):
        return Document(path=path, text=text, format="html")
    links: list[Link] = []
    used: dict[int, int] = {}

    def locate(line: int, needle: str) -> Location:
        src = lines[line - 1] if 0 < line <= len(lines) else ""
        idx = src.find(needle, used.get(line, 0))
        if idx < 0:
            idx = src.find(needle)
        else:
            used[line] = idx + len(needle)
        return Location(path, line, idx + 1 if idx >= 0 else 1)

    sections = _sections(root)
    for item in element_links(root, 1):
        line = 1 + item.line_offset
        links.append(Link(item.url, locate(line, item.url), LinkKind.HTML, item.text, False, item.url,
                          _section_at(sections, line)))
    spans: list[TextSpan] = []
    marks: list[Marker] = []
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        in_code = el.tag in ("code", "pre")
        for chunk, line in ((el.text, el.sourceline), (el.tail, _tail_line(el))):
            if not chunk or not chunk.strip() or not line or (chunk is el.text and el.tag in _SKIP_TEXT):
                continue
            section = _section_at(sections, line)
            spans.append(TextSpan(chunk, Location(path, line, 1), section))
            for m in find_urls(chunk):
                ln = line + chunk[: m.start].count("\n")
                links.append(Link(m.url, locate(ln, m.raw), _BARE_KINDS[m.kind], "", in_code, m.raw, section))
            for offset, sid in marker_scan.source_ids(chunk):
                ln = line + chunk[:offset].count("\n")
                marks.append(Marker("source-id", sid, locate(ln, sid), section))
        if el.tag in ("needs-source", "insufficient-data", "needs-deeper-grounding"):
            line = el.sourceline or 1
            value = el.get("claim") or el.get("ids") or ""
            marks.append(Marker(el.tag, value, locate(line, "<" + el.tag), _section_at(sections, line)))
    comments = [(etree.tostring(c, encoding="unicode", with_tail=False), c.sourceline or 1)
                for c in root.iter(etree.Comment)]
    links.sort(key=lambda link: (link.location.line, link.location.column))
    return Document(path=path, text=text, format="html", links=tuple(links), markers=tuple(marks),
                    spans=tuple(spans), headings=tuple(h for _, h in sections),
                    directives=marker_scan.directives(path, comments, lines))


def _tail_line(el: etree._Element) -> int | None:
    # lxml gives no line for tails; the element's end is the best cheap estimate.
    nxt = el.getnext()
    return (nxt.sourceline if nxt is not None else None) or el.sourceline


def _sections(root: etree._Element) -> list[tuple[int, Heading]]:
    found = []
    for el in root.iter("h1", "h2", "h3", "h4", "h5", "h6"):
        line = el.sourceline or 1
        found.append((line, Heading(int(el.tag[1]), " ".join(el.text_content().split()), Location("", line, 1))))
    return found


def _section_at(sections: list[tuple[int, Heading]], line: int) -> str:
    current = ""
    for start, heading in sections:
        if start > line:
            break
        current = heading.text
    return current
