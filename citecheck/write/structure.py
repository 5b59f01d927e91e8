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

from citecheck.write.regions import Regions


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


_OPEN_BRACKET_RE = re.compile(r"(?<!\\)(?:\\\\)*\[")
_REFDEF_RE = re.compile(
    r"^(?P<prefix>[ \t>]*)\[(?P<label>(?:[^\]\\\n]|\\.){1,999})\]:[ \t]*\n?[ \t]*(?P<dest><[^<>\n]*>|[^\s<>]\S*)"
    r"(?:[ \t]*\n?[ \t]*(?:\"[^\"]*\"|'[^']*'|\([^)]*\)))?[ \t]*$", re.MULTILINE)
_AUTOLINK_RE = re.compile(r"<(?:[A-Za-z][A-Za-z0-9+.\-]{1,31}:[^\s<>]*|[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@"
                          r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9-]+)*)>")


def _bracket_end(text: str, i: int) -> int | None:
    """Offset of the `]` closing the `[` at `i` (nesting, escapes, no blank line), or None."""
    depth, j, stop = 0, i, min(len(text), i + 4000)
    while j < stop:
        c = text[j]
        if c == "\\":
            j += 2
            continue
        if c == "[":
            depth += 1
        elif c == "]":
            depth -= 1
            if depth == 0:
                return j
        elif c == "\n" and _blank_line_follows(text, j):
            return None
        j += 1
    return None


def _blank_line_follows(text: str, newline_at: int) -> bool:
    end = text.find("\n", newline_at + 1)
    return not text[newline_at + 1:end if end >= 0 else len(text)].strip()


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
    dest = parseLinkDestination(text, pos, len(text))
    if not dest.ok:
        return None
    dest_at, pos = pos, _skip_ws(text, dest.pos)
    if pos < len(text) and text[pos] in "\"'(" and pos > dest.pos:
        title = parseLinkTitle(text, pos, len(text))
        if title.ok:
            pos = _skip_ws(text, title.pos)
    if pos < len(text) and text[pos] == ")":
        return unescapeAll(dest.str), dest_at, pos + 1
    return None


def links(text: str, literal: Regions) -> list[Construct]:
    """Inline links and images, and bracket pairs that may use a reference definition."""
    found: list[Construct] = []
    for m in _OPEN_BRACKET_RE.finditer(text):
        open_at = m.end() - 1
        close = _bracket_end(text, open_at) if open_at not in literal else None
        if close is None or text[open_at + 1:open_at + 2] == "^":
            continue
        image = open_at > 0 and text[open_at - 1] == "!" and (open_at < 2 or text[open_at - 2] != "\\")
        start, keep = (open_at - 1 if image else open_at), (open_at + 1, close)
        nxt = text[close + 1:close + 2]
        if nxt == "(":
            tail = _inline_tail(text, close + 1)
            if tail:
                found.append(Construct(start, tail[2], "image" if image else "inline", tail[0], tail[1], keep))
                continue
        end, label = close + 1, text[open_at + 1:close]
        if nxt == "[":
            label_end = _bracket_end(text, close + 1)
            if label_end is not None:
                label = text[close + 2:label_end] or label
                end = label_end + 1
        found.append(Construct(start, end, "refuse", "", open_at, keep, label=normalizeReference(label)))
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
