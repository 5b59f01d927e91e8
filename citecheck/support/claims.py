"""Which sentences cite what: footnote refs, `[src-NNN]` IDs, inline links and bare URLs."""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from citecheck.extract.bare import find_urls
from citecheck.extract.markers import SOURCE_GROUP_RE, SOURCE_ID_RE
from citecheck.extract.positions import offset_location
from citecheck.models import Document, Location
from citecheck.support.text import split_sentences

_FOOTREF_RE = re.compile(r"\[\^([^\]\s]+)\](?!:)")
_FOOTDEF_RE = re.compile(r"^ {0,3}\[\^([^\]]+)\]:")
_INLINE_RE = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")


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
    """Every sentence of `doc` that cites something, in document order (memoised per document:
    the audit's partition and M008 ask for the same document's claims)."""
    entry = _CLAIMS.get(id(doc))
    if entry is not None and entry[0] is doc:  # the memo holds the document: its id is not reused
        return entry[1]
    claims = _cited_claims(doc)
    adopt(doc, claims)
    return claims


# The page workers' contract with `pagejudge` (worker 0 finds the claims, the others adopt them);
# it goes with pagejudge's sharded M008. Identity-keyed, bounded, holding the documents it names.
_CLAIMS: dict[int, tuple[Document, list[CitedClaim]]] = {}


@dataclass(frozen=True)
class Partition:
    """The cited claims of some documents split into `parts` parts that share no source:
    `claim_part[d][i]` is the part of claim i of document d, `url_part` the part of each cited URL.
    A process holding the pages of its part's URLs judges its part's claims exactly as one process
    holding every page would (M008 with `options["shard"] = (part, parts, claim_part[d])`)."""

    claim_part: tuple[tuple[int, ...], ...]
    url_part: dict[str, int]
    load: tuple[int, ...]  # claims plus URLs per part


def adopt(doc: Document, claims: list[CitedClaim]) -> None:
    """Take `claims` as `doc`'s cited claims: what `cited_claims(doc)` returned in another process
    that holds the same document (the audit's page workers find them once, not once each)."""
    if len(_CLAIMS) >= 64:
        _CLAIMS.clear()
    _CLAIMS[id(doc)] = (doc, claims)


def partition(docs: Sequence[Document], parts: int) -> Partition:
    """Claims that share a source (a URL, or two spellings with one dedupe key), in any of `docs`,
    go to one part; parts are balanced greedily by claims plus URLs. Deterministic."""
    claims = [cited_claims(doc) for doc in docs]
    link_urls = {link.url for doc in docs for link in doc.links}
    by_key: dict[str, list[str]] | None = None
    boss: dict[Any, Any] = {}

    def find(node: Any) -> Any:
        root = node
        while boss.get(root, root) != root:
            root = boss[root]
        while node != root:
            boss[node], node = root, boss[node]
        return root

    for d, doc_claims in enumerate(claims):
        for i, claim in enumerate(doc_claims):
            me = find((d, i))
            for url in claim.urls:
                spellings = [url]
                if url not in link_urls:  # M008 then looks the page up by dedupe key: keep those together
                    from citecheck.urls import dedupe_key

                    if by_key is None:
                        by_key = {}
                        for link_url in link_urls:
                            by_key.setdefault(dedupe_key(link_url), []).append(link_url)
                    spellings += by_key.get(dedupe_key(url), [])
                for spelling in spellings:
                    other = find(spelling)
                    if other != me:
                        boss[other] = me  # claim nodes are tuples, URLs strings: roots are claims
    groups: dict[Any, int] = {}
    for d, doc_claims in enumerate(claims):
        for i in range(len(doc_claims)):
            root = find((d, i))
            groups[root] = groups.get(root, 0) + 1
    urls = [node for node in boss if isinstance(node, str)]
    for url in urls:
        groups[find(url)] += 1
    load = [0] * parts
    owner: dict[Any, int] = {}
    for root, size in groups.items():
        part = min(range(parts), key=load.__getitem__)
        owner[root] = part
        load[part] += size
    claim_part = tuple(tuple(owner[find((d, i))] for i in range(len(c))) for d, c in enumerate(claims))
    return Partition(claim_part, {url: owner[find(url)] for url in urls}, tuple(load))


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
