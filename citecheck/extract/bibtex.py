"""BibTeX/BibLaTeX files as a `Bibliography`, through bibtexparser v2: every entry in file order
(a repeated key included, for B001), with the line of its `@type{key,`, and the blocks the parser
could not read (an unbalanced brace, a missing key) for B003."""
from __future__ import annotations

import logging
import re

from citecheck.extract.bibfields import entry_from_fields
from citecheck.models import BibEntry, Bibliography, Location

# bibtexparser logs every block it gives up on at WARNING (Python's last-resort handler prints it on
# stderr); those blocks are reported as findings instead
logging.getLogger("bibtexparser").addHandler(logging.NullHandler())
logging.getLogger("bibtexparser").propagate = False

_ENTRY_HEAD = re.compile(r"@\s*[A-Za-z]+\s*[{(]\s*([^,\s]*)")


def load_bibtex(path: str, text: str) -> Bibliography:
    """Parse BibTeX text; nothing in it is an error that stops the run (unreadable blocks are kept)."""
    import bibtexparser  # only for a run with a .bib file
    from bibtexparser import model

    library = bibtexparser.parse_string(text)
    lines = text.split("\n")
    entries: list[BibEntry] = []
    unreadable: list[tuple[Location, str]] = []
    for block in library.blocks:
        if isinstance(block, model.Entry):
            entries.append(_entry(path, block, lines))
        elif isinstance(block, model.DuplicateBlockKeyBlock) and isinstance(block.ignore_error_block, model.Entry):
            entries.append(_entry(path, block.ignore_error_block, lines))
        elif isinstance(block, model.ParsingFailedBlock):
            unreadable.append((_where(path, block.start_line, lines), _why(block)))
    entries.sort(key=lambda e: (e.location.line, e.location.column))
    return Bibliography(path, "bibtex", tuple(entries), tuple(unreadable))


def _entry(path: str, entry: object, lines: list[str]) -> BibEntry:
    from bibtexparser import model

    assert isinstance(entry, model.Entry)
    fields = {f.key.lower(): _value(f.value) for f in entry.fields}
    return entry_from_fields(entry.key, entry.entry_type.lower(), _where(path, entry.start_line, lines, entry.key),
                             fields, bibtex_authors(fields.get("author", "")))


def _value(value: object) -> str:
    return " ".join(str(value).split())


def _where(path: str, start_line: int | None, lines: list[str], key: str = "") -> Location:
    """The `@type{key,` of a block that starts on 0-based `start_line` (column of its `@`): the head
    naming `key` where one is given (two entries may share a line), else the first `@`."""
    line = start_line or 0
    window = range(line, min(line + 50, len(lines)))
    if key:
        head = re.compile(r"@\s*[A-Za-z]+\s*[{(]\s*" + re.escape(key) + r"\s*[,})]")
        for index in window:
            found = head.search(lines[index])
            if found:
                return Location(path, index + 1, found.start() + 1)
    for index in window:
        column = lines[index].find("@")
        if column >= 0:
            return Location(path, index + 1, column + 1)
    return Location(path, line + 1, 1)


def _why(block: object) -> str:
    error = getattr(block, "error", None)
    raw = str(getattr(block, "raw", "") or "")
    head = _ENTRY_HEAD.match(raw.lstrip())
    what = f"entry {head.group(1)!r}" if head and head.group(1) else "block"
    reason = str(error) if error is not None and str(error) else "unbalanced braces or quotes, or a missing key"
    return f"{what} cannot be read: {reason}"


def bibtex_authors(value: str) -> tuple[str, ...]:
    """The names of a BibTeX name list (`A and B and {C and D Ltd}`): split on `and` outside braces."""
    names: list[str] = []
    depth, start, i = 0, 0, 0
    while i < len(value):
        char = value[i]
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth == 0 and value[i:i + 5].lower() == " and ":
            names.append(value[start:i])
            start = i + 5
            i += 5
            continue
        i += 1
    names.append(value[start:])
    return tuple(n for n in (_name(n) for n in names) if n)


def _name(name: str) -> str:
    text = " ".join(name.replace("{", "").replace("}", "").split())
    return "" if text.lower() in ("others", "") else text

