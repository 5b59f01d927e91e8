"""Citation markers and inline directives: `[src-NNN]`, `<needs-source/>`, `<!-- citecheck: ... -->`."""
from __future__ import annotations

import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass

from citecheck.models import Directive, Location

SOURCE_GROUP_RE = re.compile(r"\[(?P<ids>src-\d{3,}(?:\s*[,;]\s*src-\d{3,})*)\]", re.IGNORECASE)
SOURCE_ID_RE = re.compile(r"src-\d{3,}", re.IGNORECASE)
_MARKER_RE = re.compile(
    r"<(?P<kind>needs-source|insufficient-data|needs-deeper-grounding)\b(?P<attrs>[^>]*?)/?>", re.IGNORECASE
)
_ATTR_RE = re.compile(r"(?P<name>[\w-]+)\s*=\s*(?:\"(?P<dq>[^\"]*)\"|'(?P<sq>[^']*)')")
_DIRECTIVE_RE = re.compile(r"<!--\s*citecheck:\s*(?P<body>.*?)\s*-->", re.DOTALL | re.IGNORECASE)


@dataclass(frozen=True)
class HtmlMarker:
    kind: str
    value: str
    offset: int
    raw: str


def source_ids(text: str) -> Iterator[tuple[int, str]]:
    """(offset, id) for every `src-NNN` inside a `[...]` citation group."""
    for group in SOURCE_GROUP_RE.finditer(text):
        for sid in SOURCE_ID_RE.finditer(group.group("ids")):
            yield group.start("ids") + sid.start(), sid.group(0).lower()


def attributes(attrs: str) -> dict[str, str]:
    return {m.group("name").lower(): (m.group("dq") if m.group("dq") is not None else m.group("sq") or "")
            for m in _ATTR_RE.finditer(attrs)}


def html_markers(content: str) -> Iterator[HtmlMarker]:
    """Marker elements in an HTML fragment: their kind, main attribute and offset."""
    for m in _MARKER_RE.finditer(content):
        attrs = attributes(m.group("attrs"))
        kind = m.group("kind").lower()
        value = attrs.get("claim") or attrs.get("ids") or ""
        if not value and attrs.get("reason"):
            value = f"reason={attrs['reason']}"  # e.g. a URL that `write` removed
        yield HtmlMarker(kind, value, m.start(), m.group(0))


def directives(path: str, chunks: list[tuple[str, int]], lines: list[str]) -> tuple[Directive, ...]:
    """Parse `<!-- citecheck: disable=U001,M002 reason="…" until=2027-01-01 -->` comments."""
    found: list[Directive] = []
    for content, first_line in chunks:
        for m in _DIRECTIVE_RE.finditer(content):
            line = first_line + content[: m.start()].count("\n")
            end_line = first_line + content[: m.end()].count("\n")
            found.append(_directive(path, m.group("body"), line, _target(lines, line, end_line, m.group(0))))
    return tuple(found)


def _target(lines: list[str], line: int, end_line: int, raw: str) -> int:
    src = lines[line - 1] if 0 < line <= len(lines) else ""
    if src.strip() and src.strip() != raw.strip() and line == end_line:
        rest = src.replace(raw, "").strip()
        if rest:
            return line  # a trailing comment applies to its own line
    for ln in range(end_line, len(lines)):
        if lines[ln].strip():
            return ln + 1
    return end_line + 1


def _directive(path: str, body: str, line: int, target: int) -> Directive:
    try:
        parts = shlex.split(body)
    except ValueError:
        parts = body.split()
    action, reason, until = "disable", "", ""
    rules: tuple[str, ...] = ()
    for part in parts:
        key, _, value = part.partition("=")
        key = key.lower()
        if key in ("disable", "disable-file", "enable", "disable-next-line"):
            action = "disable" if key == "disable-next-line" else key
            rules = tuple(r.strip() for r in value.split(",") if r.strip()) if value else ("all",)
        elif key == "reason":
            reason = value
        elif key == "until":
            until = value
        else:
            action, rules = "invalid", (part,)
    return Directive(action, rules, Location(path, line, 1), 0 if action == "disable-file" else target, reason, until)
