"""Exact offsets in HTML source: start tags, their attribute values, and text runs with context.

lxml decides what an HTML document *means* (which element carries which URL, anchor text,
headings), but it records only a line per element — the line where the start tag *ends* — and
nothing for text. The standard library's tokenizer (`html.parser`) reports where every construct
starts, so this module walks it once to give each start tag, attribute value and text run its
offset; `htmlfrag` and `html` join the two by document order.
"""
from __future__ import annotations

import html.parser as std
import re
from dataclasses import dataclass, field
from html import unescape

VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
                  "source", "track", "wbr"})
CODE = frozenset({"pre", "code", "samp", "kbd", "var", "tt", "listing", "xmp", "plaintext"})
NO_PROSE = frozenset({"script", "style", "title", "a", "template", "textarea", "head"})


@dataclass(frozen=True)
class AttrValue:
    name: str
    value: str  # decoded
    raw: str  # as written, quotes removed
    offset: int  # of `raw` in the scanned text


@dataclass(frozen=True)
class StartTag:
    name: str
    offset: int
    raw: str
    attrs: tuple[AttrValue, ...]

    def attr(self, name: str) -> AttrValue | None:
        return next((a for a in self.attrs if a.name == name), None)


@dataclass(frozen=True)
class TextRun:
    offset: int
    raw: str
    in_code: bool
    prose: bool  # False inside script/style/title/anchors, where text is not prose


@dataclass
class Scan:
    tags: list[StartTag] = field(default_factory=list)
    runs: list[TextRun] = field(default_factory=list)
    comments: list[tuple[int, str]] = field(default_factory=list)  # (offset, raw `<!-- … -->`)


class _Tokenizer(std.HTMLParser):
    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.text = text
        self.starts = _line_starts(text)
        self.tags: list[StartTag] = []
        self.stack: list[str] = []
        # (offset, context) of every construct; context is (in_code, prose) for text, else a kind
        self.events: list[tuple[int, tuple[bool, bool] | str]] = []

    def _offset(self) -> int:
        line, col = self.getpos()
        return self.starts[line - 1] + col

    def _markup(self, kind: str = "markup") -> None:
        self.events.append((self._offset(), kind))

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._tag(tag, void=tag in VOID)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._tag(tag, void=True)

    def _tag(self, tag: str, void: bool) -> None:
        offset, raw = self._offset(), self.get_starttag_text() or ""
        self.events.append((offset, "markup"))
        self.tags.append(StartTag(tag, offset, raw, tuple(attribute_values(raw, offset))))
        if not void:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        self._markup()
        if tag in self.stack:
            while self.stack.pop() != tag:
                pass

    def handle_data(self, data: str) -> None:
        offset = self._offset()
        if not (self.events and self.events[-1][0] == offset):
            context = set(self.stack)
            self.events.append((offset, (not CODE.isdisjoint(context), NO_PROSE.isdisjoint(context))))

    def handle_comment(self, data: str) -> None:
        self._markup("comment")

    def handle_decl(self, decl: str) -> None:
        self._markup()

    def handle_pi(self, data: str) -> None:
        self._markup()

    def unknown_decl(self, data: str) -> None:
        self._markup()

    def parse_marked_section(self, i: int, report: bool = True) -> int:
        """`<![` as browsers read it in HTML content: anything but a marked section `_markupbase` knows
        (CDATA, IE's `<![if …]>`) is a bogus comment ending at the first `>`. The standard tokenizer
        raises AssertionError on those (`<![0`, `<![foo]>`), which must never end a run."""
        try:
            return super().parse_marked_section(i, report)
        except AssertionError:
            end = self.rawdata.find(">", i + 3)
            if end < 0:
                return -1  # incomplete: at close() html.parser reads the rest as text
            self._markup()
            return end + 1

    def run(self) -> Scan:
        self.feed(self.text)
        self.close()
        scan = Scan(self.tags)
        bounds = [offset for offset, _ in self.events[1:]] + [len(self.text)]
        for (offset, context), end in zip(self.events, bounds):
            raw = self.text[offset:max(end, offset)]
            if isinstance(context, tuple):
                scan.runs.append(TextRun(offset, raw, *context))
            elif context == "comment":
                scan.comments.append((offset, raw))
        return scan


# The very patterns html.parser reads start tags with, so offsets agree with its attribute values.
_TAGFIND: re.Pattern[str] = getattr(std, "tagfind_tolerant")  # noqa: B009 (not in typeshed)
_ATTRFIND: re.Pattern[str] = getattr(std, "attrfind_tolerant")  # noqa: B009
_BROKEN_TAG = re.compile(r"<[A-Za-z!/?]")


def prose_of(raw: str) -> str:
    """A text run up to the first `<letter`: in HTML that always opens a tag, so anything after it
    is markup the standard tokenizer failed to parse (an unterminated quote), not prose."""
    broken = _BROKEN_TAG.search(raw)
    return raw if broken is None else raw[:broken.start()]


def scan_html(text: str) -> Scan:
    """Start tags (with attribute offsets) and text runs of `text`, in document order."""
    return _Tokenizer(text).run()


def attribute_values(raw: str, base: int) -> list[AttrValue]:
    """Attributes of a raw start tag with the offset of each value, as html.parser reads them."""
    found: list[AttrValue] = []
    name_match = _TAGFIND.match(raw, 1)
    pos = name_match.end() if name_match else len(raw)
    while pos < len(raw):
        m = _ATTRFIND.match(raw, pos)
        if not m or m.end() == pos:
            break
        name, rest, value = m.group(1, 2, 3)
        if rest and value is not None:
            start = m.start(3)
            if value[:1] in "'\"" and value[-1:] == value[:1] and len(value) >= 2:
                value, start = value[1:-1], start + 1
            found.append(AttrValue(name.lower(), unescape(value), value, base + start))
        pos = m.end()
    return found


def _line_starts(text: str) -> list[int]:
    starts = [0]
    pos = text.find("\n")
    while pos >= 0:
        starts.append(pos + 1)
        pos = text.find("\n", pos + 1)
    return starts
