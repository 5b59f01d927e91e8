"""Pandoc/Quarto citations (`[@key]`, `[see @key, p. 3; -@other]`, in-text `@key`) and where a memo
names its bibliography (front matter `bibliography:`, `references:`, `nocite:`).

The key grammar is Pandoc's ("Citation syntax" in the Pandoc manual, `citeKey` in
Text.Pandoc.Parsing.Citations): a key starts with a letter, digit or `_` and continues with those
and single internal punctuation characters (`:.#$%&-+?<>~/`), so a final full stop is not part of
it; `@{…}` braces any key. The `@` must not follow a word character, a full stop or a backslash: an
e-mail address (`ir@acme.com`) or an escaped `\\@` is no citation. Quarto cross-references
(`@fig-…`, `@tbl-…`, `@sec-…`, `@eq-…`) are not citations. An in-text `@name` outside brackets is
kept with `bracketed=False`: the rules decide whether an unknown one reads as a key or as a
mention of someone.
"""
from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

_KEY = r"(?:\{(?P<braced>[^{}\s]+)\}|(?P<key>\w+(?:[:.#$%&+?<>~/\-]\w+)*))"
_AT = re.compile(rf"(?<![\w.@\\])-?@{_KEY}")
_BRACKET = re.compile(r"\[(?P<body>[^\[\]]*@[^\[\]]*)\](?![(\[:])")
CROSSREF_PREFIXES = ("fig", "tbl", "sec", "eq", "lst", "thm", "lem", "cor", "prp", "cnj", "def", "exm", "exr",
                     "sol", "rem", "alg", "apx", "nte", "wrn", "imp", "tip", "cau", "vid")
_CROSSREF = re.compile(rf"(?:{'|'.join(CROSSREF_PREFIXES)})-", re.IGNORECASE)
MENTION_LIKE = re.compile(r"[A-Za-z][A-Za-z_]*")  # `@octocat`: no digit, no punctuation — may be a person


@dataclass(frozen=True)
class Cite:
    """One cited key: its offset (of the `@`) in the scanned text and whether it sat in brackets."""

    offset: int
    key: str
    bracketed: bool


def citations(text: str) -> Iterator[Cite]:
    """Every citation key of `text` (links, code and URLs already blanked out), in order."""
    if "@" not in text:
        return
    taken: list[tuple[int, int]] = []
    found: list[Cite] = []
    for group in _BRACKET.finditer(text):
        cites = list(_keys(group.group("body"), group.start("body"), True))
        if cites:
            found += cites
            taken.append(group.span())
    for cite in _keys(text, 0, False):
        if not any(start <= cite.offset < end for start, end in taken):
            found.append(cite)
    yield from sorted(found, key=lambda c: c.offset)


def _keys(text: str, base: int, bracketed: bool) -> Iterator[Cite]:
    for match in _AT.finditer(text):
        key = match.group("braced") or match.group("key")
        if not key or _CROSSREF.match(key):
            continue
        yield Cite(base + match.start() + (1 if match.group(0).startswith("-") else 0), key, bracketed)


def looks_like_key(key: str) -> bool:
    """Whether an in-text `@key` reads as a citation key rather than a mention (`@octocat`): it has a
    digit or internal punctuation, as `smith2021`, `doe:ocean`, `Smith_2021` do."""
    return not MENTION_LIKE.fullmatch(key)


@dataclass(frozen=True)
class BibliographyRefs:
    """What a memo's front matter says about its bibliography."""

    files: tuple[str, ...] = ()  # `bibliography:` paths as written (relative to the memo)
    inline: bool = False  # `references:` items in the front matter itself
    nocite: frozenset[str] = frozenset()  # keys listed in `nocite:`; "*" for all


def bibliography_refs(front: Mapping[str, Any]) -> BibliographyRefs:
    """The `bibliography:`, `references:` and `nocite:` of front matter."""
    value = front.get("bibliography")
    files = (value,) if isinstance(value, str) else tuple(str(v) for v in value) if isinstance(value, list) else ()
    nocite = front.get("nocite")
    text = " ".join(str(n) for n in nocite) if isinstance(nocite, list) else str(nocite or "")
    keys = frozenset(m.group("braced") or m.group("key") or "*" for m in re.finditer(rf"@(?:\*|{_KEY})", text))
    return BibliographyRefs(tuple(f.strip() for f in files if f.strip()), isinstance(front.get("references"), list),
                            keys)
