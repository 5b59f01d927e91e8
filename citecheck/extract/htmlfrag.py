"""URL attributes of HTML (fragments embedded in Markdown, or whole memos): lxml for meaning,
`htmlscan` for the offset of each value as written."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from lxml import etree, html

from citecheck.extract.htmlscan import CODE, Scan, StartTag, scan_html

# Any element's href/src/cite is a URL (custom elements included, as browsers and lychee treat them).
URL_ATTRS = ("href", "src", "cite")
_TAG_ATTRS = {"object": ("data",), "video": ("poster",), "form": ("action",)}
_HINTS = ("href", "src", "cite", "data", "poster", "action")


@dataclass(frozen=True)
class HtmlLink:
    url: str  # decoded, surrounding blanks removed
    raw: str  # the value as written (entities undecoded), or `url` when it could not be located
    offset: int  # of `raw` in the scanned text; -1 when unknown
    text: str  # anchor text or alt text
    tag: str
    sourceline: int  # lxml's line for the element, relative to the scanned text
    in_code: bool = False  # inside pre/code/samp/kbd/var


def html_fragment_links(content: str) -> list[HtmlLink]:
    """Every URL attribute in an HTML fragment (a Markdown html_block or html_inline)."""
    lowered = content.lower()
    if not any(hint in lowered for hint in _HINTS):
        return []
    try:
        root = html.fragment_fromstring(content, create_parent="div")
    except (etree.ParserError, ValueError):
        return []
    return list(element_links(root, scan_html(content)))


def element_links(root: etree._Element, scan: Scan) -> Iterator[HtmlLink]:
    """URL attributes in document order, each joined to its start tag in `scan` for an offset."""
    matcher = TagMatcher(scan)
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        for attr in URL_ATTRS + _TAG_ATTRS.get(el.tag, ()):
            value = el.get(attr)
            if value is None or not value.strip():
                continue
            tag = matcher.find(el.tag, attr, value)
            yield _link(el, attr, value, tag)


def _link(el: etree._Element, attr: str, value: str, tag: StartTag | None) -> HtmlLink:
    url = value.strip()
    text = el.text_content() if el.tag == "a" else el.get("alt") or ""
    found = tag.attr(attr) if tag is not None else None
    raw, offset = url, -1
    if found is not None:
        lead = len(found.raw) - len(found.raw.lstrip())
        raw, offset = found.raw.strip(), found.offset + lead
    in_code = any(isinstance(a.tag, str) and a.tag in CODE for a in el.iterancestors())
    return HtmlLink(url, raw, offset, " ".join(text.split()), el.tag, el.sourceline or 1, in_code)


class TagMatcher:
    """Joins lxml elements to scanned start tags: same name, same attribute value, document order.

    The two parsers agree on almost every document; where they do not, a bounded look-ahead keeps
    a mismatch from costing more than a few comparisons (the link then gets its lxml line).
    """

    LOOKAHEAD = 64

    def __init__(self, scan: Scan) -> None:
        self.tags: dict[str, list[StartTag]] = {}
        for tag in scan.tags:
            self.tags.setdefault(tag.name, []).append(tag)
        self.cursor: dict[tuple[str, str], int] = {}

    def find(self, name: str, attr: str = "", value: str | None = None) -> StartTag | None:
        """The next start tag named `name` (carrying `attr`, equal to `value`, when given)."""
        candidates = self.tags.get(name, [])
        start = self.cursor.get((name, attr), 0)
        for i in range(start, min(len(candidates), start + self.LOOKAHEAD)):
            found = candidates[i].attr(attr) if attr else None
            if not attr or found is not None and (value is None or found.value.strip() == value.strip()):
                self.cursor[(name, attr)] = i + 1
                return candidates[i]
        return None
