"""Links inside raw HTML (fragments embedded in Markdown, or whole HTML memos) via lxml."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from lxml import etree, html

_URL_ATTRS = (("a", "href"), ("img", "src"), ("area", "href"), ("link", "href"), ("iframe", "src"),
              ("source", "src"), ("video", "src"), ("audio", "src"), ("embed", "src"), ("object", "data"),
              ("blockquote", "cite"), ("q", "cite"))


@dataclass(frozen=True)
class HtmlLink:
    url: str
    text: str
    line_offset: int  # lines after the fragment's first line


def html_fragment_links(content: str) -> Iterator[HtmlLink]:
    """Every URL attribute in an HTML fragment, with a line offset relative to the fragment."""
    lowered = content.lower()
    if not any(f"{attr}=" in lowered for _, attr in _URL_ATTRS):
        return
    try:
        root = html.fragment_fromstring(content, create_parent="div")
    except (etree.ParserError, ValueError):
        return
    yield from element_links(root, 1)


def element_links(root: etree._Element, base_line: int) -> Iterator[HtmlLink]:
    for tag, attr in _URL_ATTRS:
        for el in root.iter(tag):
            value = el.get(attr)
            if value and value.strip():
                text = (el.text_content() if tag == "a" else el.get("alt") or "").strip()
                yield HtmlLink(value.strip(), " ".join(text.split()), max(0, (el.sourceline or base_line) - base_line))
