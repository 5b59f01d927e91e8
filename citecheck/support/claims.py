"""Which sentences cite what: footnote refs, `[src-NNN]` IDs, inline links and bare URLs."""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from citecheck.extract.bare import find_urls
from citecheck.extract.markers import SOURCE_GROUP_RE, SOURCE_ID_RE
from citecheck.extract.positions import offset_location
from citecheck.models import Document, Location, Page
from citecheck.support.text import split_sentences
from citecheck.urls import dedupe_key

_FOOTREF_RE = re.compile(r"\[\^([^\[\]\s]+)\](?!:)")  # a class that excludes its own opener: linear
_FOOTDEF_RE = re.compile(r"^ {0,3}\[\^([^\]]+)\]:")
_INLINE_RE = re.compile(r"!?\[[^\[\]]*\]\(\s*<?([^()\s<>]+)>?(?:\s+\"[^\"]*\")?\s*\)")


@dataclass(frozen=True)
class CitedClaim:
    sentence: str
    location: Location
    section: str
    urls: tuple[str, ...]
    ids: tuple[str, ...]


def footnote_urls(doc: Document) -> dict[str, list[str]]:
    """Footnote label → URLs in its definition (the definition line and its indented continuation)."""
    lines = doc.text.split("\n")
    out: dict[str, list[str]] = {}
    label = ""
    ranges: dict[str, set[int]] = {}
    for number, line in enumerate(lines, start=1):
        m = _FOOTDEF_RE.match(line)
        if m:
            label = m.group(1)
            ranges[label] = {number}
        elif label and (line.startswith(("    ", "\t")) and line.strip()):
            ranges[label].add(number)
        else:
            label = ""
    by_line: dict[int, list[str]] = {}
    for link in doc.links:
        if not link.in_code:
            by_line.setdefault(link.location.line, []).append(link.url)
    for label, for_lines in ranges.items():  # links in document order, as before
        out[label] = [url for number in sorted(for_lines) for url in by_line.get(number, [])]
    return out


def cited_claims(doc: Document) -> list[CitedClaim]:
    """Every sentence of `doc` that cites something, in document order."""
    return _cited_claims(doc)


def cited_pages(claims: Iterable[CitedClaim], pages: Mapping[str, Page]) -> dict[str, Page]:
    """The pages M008 may read for `claims`: each cited URL's own page, and for a URL cited in a
    spelling no page has, every page with its dedupe key (M008 then looks it up that way), in the
    order of `pages`. M008 judges these claims against them exactly as against all of `pages`."""
    cited = {url for claim in claims for url in claim.urls}
    keys = {dedupe_key(url) for url in cited if url not in pages}
    return {url: page for url, page in pages.items() if url in cited or (keys and dedupe_key(url) in keys)}


def _cited_claims(doc: Document) -> list[CitedClaim]:
    notes = footnote_urls(doc)
    claims: list[CitedClaim] = []
    for span in doc.spans:
        if _FOOTDEF_RE.match(span.text):
            continue
        for offset, sentence in split_sentences(span.text):
            urls = [u for label in _FOOTREF_RE.findall(sentence) for u in notes.get(label, [])]
            inline = list(_INLINE_RE.finditer(sentence))
            urls += [m.group(1) for m in inline]
            inline_spans = [m.span() for m in inline]
            urls += [m.url for m in find_urls(sentence) if not any(a <= m.start < b for a, b in inline_spans)]
            ids = [sid.group(0).lower() for g in SOURCE_GROUP_RE.finditer(sentence)
                   for sid in SOURCE_ID_RE.finditer(g.group("ids"))]
            if urls or ids:
                lead = len(sentence) - len(sentence.lstrip())
                loc = offset_location(span.text, span.location, offset + lead)
                claims.append(CitedClaim(sentence.strip(), loc, span.section, tuple(dict.fromkeys(urls)), tuple(ids)))
    return claims
