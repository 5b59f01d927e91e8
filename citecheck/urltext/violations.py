"""Every URL written into a draft or memo that the gate takes out: the facts behind M009.

The body is scrubbed exactly as `write` scrubs it (same code, so every removal is reported);
the generated citation list at the end is checked line by line, where corpus URLs belong and
anything else is a forgery.
"""
from __future__ import annotations

from citecheck.urltext.citations import split_block
from citecheck.urltext.corpusindex import CorpusIndex, url_key
from citecheck.urltext.detect import normalise_url, url_spans
from citecheck.urltext.scrub import CITED, UNCORPUSED, Removal, scrub
from citecheck.urltext.shadow import shadow_text


def url_violations(text: str, index: CorpusIndex, *, allow_corpus: bool) -> list[Removal]:
    """Removals that break the contract; corpus URLs count only when `allow_corpus` is false."""
    block = split_block(text)
    removals = scrub(text[:block.start], index, hybrid=allow_corpus).removals
    return contract_breaches(removals, text, block.start, index)


def contract_breaches(removals: tuple[Removal, ...], text: str, block_start: int, index: CorpusIndex) -> list[Removal]:
    """The removals that are violations, plus any non-corpus URL in the citation list."""
    found = [r for r in removals if r.reason != CITED]
    tail = text[block_start:]
    for span in url_spans(tail):
        if not index.lookup(span.url):
            found.append(Removal(block_start + span.start, tail[span.start:span.end], span.kind, UNCORPUSED))
    return found


def written_key(removal: Removal) -> str:
    """The dedupe key of the URL a removal took out (to compare with extracted links)."""
    return url_key(normalise_url(shadow_text(removal.url).strip(), removal.kind))
