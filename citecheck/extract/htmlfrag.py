"""URL attributes of HTML (fragments embedded in Markdown, or whole memos): lxml for meaning,
`htmlscan` for the offset of each value as written."""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from html import unescape as std_unescape

from lxml import etree, html

from citecheck.extract.htmlscan import CODE, Scan, StartTag, scan_html

# Any element's href/src/cite is a URL (custom elements included, as browsers and lychee treat them);
# srcset holds a comma-separated list of "URL [descriptor]" candidates.
URL_ATTRS = ("href", "src", "cite", "srcset")
_TAG_ATTRS = {"object": ("data",), "video": ("poster",), "form": ("action",)}
_HINTS = ("href", "src", "cite", "data", "poster", "action")
_ORIGIN_ONLY = {"dns-prefetch", "preconnect"}  # <link rel=…> naming an origin to warm up, not a resource
PARSER = html.HTMLParser(huge_tree=True)  # depth to libxml2's 2048 levels instead of 256


@dataclass(frozen=True)
class HtmlLink:
    url: str  # decoded, surrounding blanks removed (one srcset candidate per link)
    raw: str  # the value as written (entities undecoded), or `url` when it could not be located
    offset: int  # of `raw` in the scanned text; -1 when unknown
    text: str  # anchor text or alt text
    tag: str
    sourceline: int  # lxml's line for the element, relative to the scanned text
    in_code: bool = False  # inside pre/code/samp/kbd/var


def html_fragment_links(content: str) -> list[HtmlLink]:
    """Every URL attribute in an HTML fragment (a Markdown html_block or html_inline)."""
    return html_fragment(content)[0]


def html_fragment(content: str) -> tuple[list[HtmlLink], int]:
    """(links, line of the fragment where it nests too deep for lxml, or 0).

    Past libxml2's depth limit lxml drops the rest of the tree; the links are then read from the
    start tags as scanned (`scanned_links`), which knows no depth, so none is hidden.
    """
    lowered = content.lower()
    if not any(hint in lowered for hint in _HINTS):
        return [], 0
    try:
        root = html.fragment_fromstring(content, create_parent="div", parser=PARSER)
    except (etree.ParserError, ValueError):
        return [], 0
    scan = scan_html(content)
    deep = too_deep(PARSER)
    if deep:
        return scanned_links(scan, content), deep
    # An attribute left open at the end (`<img src=`) makes lxml read its own closing markup as
    # the value (`</body`): a value whose start tag was not found and that is not in the text at
    # all was never written, so it is no link.
    return [link for link in element_links(root, scan) if link.offset >= 0 or link.raw in content], 0


def too_deep(parser: etree.HTMLParser) -> int:
    """The line where the last parse stopped at libxml2's depth limit, or 0."""
    return next((max(e.line, 1) for e in parser.error_log if "Excessive depth" in e.message), 0)


def scanned_links(scan: Scan, content: str) -> list[HtmlLink]:
    """Every URL attribute of every scanned start tag (no anchor text: the tree is not known)."""
    found: list[HtmlLink] = []
    for tag in scan.tags:
        for attr in URL_ATTRS + _TAG_ATTRS.get(tag.name, ()):
            value = tag.attr(attr)
            if value is None or not value.value.strip():
                continue
            line = content.count("\n", 0, value.offset) + 1
            for start, piece in _srcset(value.raw) if attr == "srcset" else [(0, value.raw)]:
                lead = len(piece) - len(piece.lstrip())
                url = std_unescape(piece).strip()
                if url:
                    found.append(HtmlLink(url, piece.strip(), value.offset + start + lead, "", tag.name, line))
    return found


def element_links(root: etree._Element, scan: Scan) -> Iterator[HtmlLink]:
    """URL attributes in document order, each joined to its start tag in `scan` for an offset."""
    matcher = TagMatcher(scan)
    for el in root.iter():
        if not isinstance(el.tag, str) or _origin_only(el):
            continue
        for attr in URL_ATTRS + _TAG_ATTRS.get(el.tag, ()):
            value = el.get(attr)
            if value is not None and value.strip():
                yield from _links(el, attr, value, matcher.find(el.tag, attr, value))


def _origin_only(el: etree._Element) -> bool:
    return el.tag == "link" and not _ORIGIN_ONLY.isdisjoint((el.get("rel") or "").lower().split())


def source_line(el: etree._Element) -> int:
    """lxml's line for an element (where its start tag ends), 1 when it has none."""
    line = getattr(el, "sourceline", None)
    return line if isinstance(line, int) and line > 0 else 1


def text_of(el: etree._Element) -> str:
    """The element's text content, whitespace collapsed."""
    return " ".join(str(el.xpath("string()")).split())


def _links(el: etree._Element, attr: str, value: str, tag: StartTag | None) -> Iterator[HtmlLink]:
    text = text_of(el) if el.tag == "a" else " ".join((el.get("alt") or "").split())
    in_code = any(isinstance(a.tag, str) and a.tag in CODE for a in el.iterancestors())
    found = tag.attr(attr) if tag is not None else None
    raw, offset = (found.raw, found.offset) if found is not None else (value, -1)
    pieces = _srcset(raw) if attr == "srcset" else [(0, raw)]
    for start, piece in pieces:
        lead = len(piece) - len(piece.lstrip())
        url = std_unescape(piece).strip() if found is not None else piece.strip()
        if url:
            yield HtmlLink(url, piece.strip(), offset + start + lead if offset >= 0 else -1, text, str(el.tag),
                           source_line(el), in_code)


def _srcset(raw: str) -> list[tuple[int, str]]:
    """(offset, URL) of each candidate in a srcset value: "a.png 1x, b.png 2x"."""
    found, pos = [], 0
    for part in raw.split(","):
        stripped = part.lstrip()
        url = stripped.split(None, 1)[0] if stripped else ""
        if url:
            found.append((pos + len(part) - len(stripped), url))
        pos += len(part) + 1
    return found


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
            if not attr or (found is not None and (value is None or found.value.strip() == value.strip())):
                self.cursor[(name, attr)] = i + 1
                return candidates[i]
        return None
