"""Plain text: the bare-URL matcher line by line."""
from __future__ import annotations

from citecheck.extract import markers as marker_scan
from citecheck.extract.bare import find_urls
from citecheck.extract.mdinline import BARE_KINDS as _BARE_KINDS
from citecheck.models import Document, Link, Location, Marker, TextSpan


def extract_text(path: str, text: str) -> Document:
    links: list[Link] = []
    marks: list[Marker] = []
    spans: list[TextSpan] = []
    for number, line in enumerate(text.split("\n"), start=1):
        if line.strip():
            spans.append(TextSpan(line, Location(path, number, 1)))
        for m in find_urls(line):
            links.append(Link(m.url, Location(path, number, m.start + 1), _BARE_KINDS[m.kind], "", False, m.raw))
        for offset, sid in marker_scan.source_ids(line):
            marks.append(Marker("source-id", sid, Location(path, number, offset + 1)))
    return Document(path=path, text=text, format="text", links=tuple(links), markers=tuple(marks), spans=tuple(spans))
