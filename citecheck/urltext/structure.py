"""Link-bearing Markdown and HTML constructs with exact source offsets.

The gate removes a link's destination but keeps its text (`[text](bad)` → `text` + marker), so
it needs the whole construct, not only the URL: inline links and images (destinations and
titles parsed by markdown-it's own helpers), reference definitions and the links that use
them, autolinks, and raw HTML tags with URL-carrying attributes (`<a href>` is unwrapped).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from markdown_it.common.utils import normalizeReference, unescapeAll
from markdown_it.helpers import parseLinkDestination, parseLinkTitle

from citecheck.urltext.regions import Regions


@dataclass(frozen=True)
class Construct:
    """A link-bearing construct at [start, end); `keep` is the region whose text stays."""

    start: int
    end: int
    kind: str  # inline | image | refdef | refuse | autolink | anchor | tag
    dest: str  # destination or attribute value, unescaped ('' for a reference use)
    dest_at: int  # offset of the destination as written (where a finding points)
    keep: tuple[int, int] | None = None
    keep_text: str = ""  # replacement text when no region is kept (a cleaned tag, an image's alt)
    label: str = ""  # normalised reference label (refdef, refuse)
    more: tuple[tuple[str, int], ...] = ()  # further URL attributes of the same tag: (value, offset)


_MAX_DEST = 4096  # longer destinations are not parsed as links; the URL scan still removes them
_BRACKET_TOKEN_RE = re.compile(r"\\.|\[|\]|\n[ \t]*\n", re.DOTALL)  # escapes, brackets, blank lines
_REFDEF_RE = re.compile(
    r"^(?P<prefix>[ \t>]*)\[(?P<label>(?:[^\]\\\n]|\\.){1,999})\]:[ \t]*\n?[ \t]*(?P<dest><[^<>\n]*>|[^\s<>]\S*)"
    r"(?:[ \t]*\n?[ \t]*(?:\"[^\"]*\"|'[^']*'|\([^)]*\)))?[ \t]*$", re.MULTILINE)
_AUTOLINK_RE = re.compile(r"<(?:[A-Za-z][A-Za-z0-9+.\-]{1,31}:[^\s<>]*|[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@"
                          r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9-]+)*)>")


def bracket_pairs(text: str) -> dict[int, int]:
    """Each `[` mapped to the `]` that closes it (nesting and escapes respected, never across a
    blank line), in one pass: unmatched brackets cost nothing however many there are."""
    pairs: dict[int, int] = {}
    stack: list[int] = []
    for m in _BRACKET_TOKEN_RE.finditer(text):
        token = m.group(0)
        if token == "[":
            stack.append(m.start())
        elif token == "]":
            if stack:
                pairs[stack.pop()] = m.start()
        elif token[0] == "\n":
            stack.clear()
    return pairs


def _skip_ws(text: str, pos: int) -> int:
    newline = False
    while pos < len(text) and text[pos] in " \t\n":
        if text[pos] == "\n":
            if newline:
                break
            newline = True
        pos += 1
    return pos


def _inline_tail(text: str, pos: int) -> tuple[str, int, int] | None:
    """Parse `(dest "title")` at `pos` → (dest, dest offset, end), or None."""
    pos = _skip_ws(text, pos + 1)
    stop = min(len(text), pos + _MAX_DEST)  # bounded: `[x](` repeated must not be quadratic
    if text.find(")", pos, stop) < 0:
        return None
    dest = parseLinkDestination(text, pos, stop)
    if not dest.ok:
        return None
    dest_at, pos = pos, _skip_ws(text, dest.pos)
    if pos < len(text) and text[pos] in "\"'(" and pos > dest.pos:
        title = parseLinkTitle(text, pos, min(len(text), pos + _MAX_DEST))
        if title.ok:
            pos = _skip_ws(text, title.pos)
    if pos < len(text) and text[pos] == ")":
        return unescapeAll(dest.str), dest_at, pos + 1
    return None


def links(text: str, literal: Regions, labels: set[str] | frozenset[str] = frozenset()) -> list[Construct]:
    """Inline links and images, and bracket pairs that use one of the reference `labels`."""
    found: list[Construct] = []
    pairs = bracket_pairs(text)
    for open_at, close in pairs.items():
        if open_at in literal or text[open_at + 1:open_at + 2] == "^":
            continue
        image = open_at > 0 and text[open_at - 1] == "!" and (open_at < 2 or text[open_at - 2] != "\\")
        start, keep = (open_at - 1 if image else open_at), (open_at + 1, close)
        nxt = text[close + 1:close + 2]
        if nxt == "(":
            tail = _inline_tail(text, close + 1)
            if tail:
                found.append(Construct(start, tail[2], "image" if image else "inline", tail[0], tail[1], keep))
                continue
        if not labels:
            continue
        end, label = close + 1, text[open_at + 1:close]
        if nxt == "[":
            label_end = pairs.get(close + 1)
            if label_end is not None:
                label = text[close + 2:label_end] or label
                end = label_end + 1
        label = normalizeReference(label)
        if label in labels:
            found.append(Construct(start, end, "refuse", "", open_at, keep, label=label))
    return found


def reference_definitions(text: str, literal: Regions) -> list[Construct]:
    found = []
    for m in _REFDEF_RE.finditer(text):
        if m.start("label") - 1 in literal or m.group("label").startswith("^"):
            continue
        dest = m.group("dest")
        dest = dest[1:-1] if dest.startswith("<") else dest
        found.append(Construct(m.start("label") - 1, m.end(), "refdef", unescapeAll(dest), m.start("dest"),
                               label=normalizeReference(m.group("label"))))
    return found


def autolinks(text: str, literal: Regions) -> list[Construct]:
    return [Construct(m.start(), m.end(), "autolink", m.group(0)[1:-1], m.start() + 1)
            for m in _AUTOLINK_RE.finditer(text) if m.start() not in literal]
