"""A cited source does not say what the sentence claims.

A live, real URL can still fail its sentence: studies find only about half to three quarters of
LLM citations fully support the claim they are attached to. For every sentence that cites a
source (a `[^N]` footnote, a `[src-NNN]` ID, an inline link or a bare URL) whose text is known —
the corpus entry's summary and `body_excerpt` (with `--corpus`), or the fetched page's visible
text (online) — citecheck finds the best-matching passage (lexical coverage of the claim's
content words plus rapidfuzz token-set similarity) and checks the hard facts: every number,
percentage and year, and every capitalised name in the claim must occur in that passage (names
anywhere in the source, or as their acronym); the source's own publisher ("the IEA says", citing
iea.org) is who speaks, not a fact the source must repeat. A sentence citing several sources is supported when
one of them, or all of them together, support it. The best passage is the evidence. Sentences whose source text is not
available are not judged. The passage ranker is pluggable: option `verifier` names an entry point
in the `citecheck.verifiers` group (a class with `best(claim, passages) -> (index, score)`), so an
NLI or embedding model can be installed as an extra; the default `lexical` stays light and offline.

Failing example (the source says revenue grew 45%):

    Acme's revenue grew 60% in 2023 [src-001].

Passing example:

    Acme's revenue grew 45% in 2023 [src-001].
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

from citecheck.models import Hit, Outcome
from citecheck.urls import dedupe_key, host_of, registrable_domain

ID = "M008"
NAME = "unsupported-citation"
STAGE = "memo"
SEVERITY = "warning"
VERDICT = "unsupported"
EVIDENCE = "Best supporting passage"  # what the HTML report calls a finding's evidence
DEFAULTS: dict[str, Any] = {"min_score": 0.5, "check_numbers": True, "check_entities": True, "ignore_entities": [],
                            "verifier": "lexical"}
PLUGINS = {"verifier": "citecheck.verifiers"}
SHARDABLE = True  # claims are judged independently: the page stage shares them out (Memo.share)
OPTIONS = {"min_score": "lowest lexical support score (0-1) for the best passage",
           "check_numbers": "numbers, percentages and years in the claim must appear in the passage",
           "check_entities": "capitalised names in the claim must appear in the source",
           "ignore_entities": "names never required in the source (e.g. the memo's company)",
           "verifier": "passage ranker: an entry point in the citecheck.verifiers group (default lexical)"}


class _Sources:
    """Claim reference → text to judge it against: corpus entries by ID and by dedupe key, then
    fetched pages by the URL as cited (the common case, no canonicalisation), then by dedupe key."""

    def __init__(self, memo: Any) -> None:
        self.by_id: dict[str, str] = {}
        self.url_of_id: dict[str, str] = {}
        self.corpus_keys: dict[str, str] = {}
        if memo.corpus is not None:
            for src in memo.corpus.sources:
                text = f"{src.title}. {src.summary} {src.body_excerpt}".strip()
                self.by_id[src.id.lower()] = text
                self.url_of_id[src.id.lower()] = src.final_url or src.url
                for url in (src.url, src.canonical_url, src.final_url):
                    if url:
                        self.corpus_keys[dedupe_key(url)] = text
        self.fetched = memo.pages
        self.pages = {url: page for url, page in memo.pages.items()
                      if page.outcome is Outcome.OK and page.text_sample}
        self._page_keys: dict[str, str] | None = None

    def __bool__(self) -> bool:
        return bool(self.by_id or self.corpus_keys or self.pages)

    def for_url(self, url: str) -> str | None:
        if self.corpus_keys:
            text = self.corpus_keys.get(dedupe_key(url))
            if text is not None:
                return text
        page = self.pages.get(url)
        if page is not None:
            return f"{page.title}. {page.text_sample}"
        if url in self.fetched:
            return None  # fetched as cited, but dead or empty: nothing to judge against
        if self._page_keys is None:  # built on the first URL cited in another spelling
            self._page_keys = {}
            for page_url, page in self.pages.items():
                self._page_keys.setdefault(dedupe_key(page_url), f"{page.title}. {page.text_sample}")
        return self._page_keys.get(dedupe_key(url))


def publisher_names(url: str) -> frozenset[str]:
    """How the cited site names itself: its registrable domain's first label (`iea` for
    www.iea.org, `ourworldindata` for ourworldindata.org); empty for a reference without a URL."""
    if "://" not in url:
        return frozenset()
    label = registrable_domain(host_of(url)).split(".", 1)[0]
    return frozenset({label}) if len(label) >= 2 else frozenset()


def check(memo: Any, options: Mapping[str, Any]) -> Iterator[Hit]:
    sources = _Sources(memo)
    if not sources:
        return
    from citecheck.support.assess import Thresholds, assess  # rapidfuzz and friends: only with sources
    from citecheck.support.claims import cited_claims

    company = memo.document.front_matter.get("company")
    ignore = set(options.get("ignore_entities", []))
    if isinstance(company, str):
        ignore.add(company)
    elif isinstance(company, dict) and company.get("name"):
        ignore.add(str(company["name"]))
    limits = Thresholds(float(options.get("min_score", 0.5)), bool(options.get("check_numbers", True)),
                        bool(options.get("check_entities", True)), frozenset(ignore))
    part, parts = memo.share  # the page stage shares the claims out: this call judges every parts-th
    for claim in cited_claims(memo.document)[part::parts]:
        texts = [(sid, sources.by_id[sid]) for sid in claim.ids if sid in sources.by_id]
        texts += [(url, text) for url in claim.urls if (text := sources.for_url(url)) is not None]
        if not texts:
            continue
        verifier = options.get("verifier") if not isinstance(options.get("verifier"), str) else None
        results = [(ref, assess(claim.sentence, text, verifier,
                                replace(limits, publishers=publisher_names(sources.url_of_id.get(ref, ref)))))
                   for ref, text in texts]
        if any(a.supported for _, a in results):
            continue
        every = frozenset().union(*(publisher_names(sources.url_of_id.get(ref, ref)) for ref, _ in texts))
        if len(texts) > 1 and assess(claim.sentence, " ".join(t for _, t in texts), verifier,
                                     replace(limits, publishers=every)).supported:
            continue  # a sentence citing several sources may draw each fact from a different one
        ref, best = max(results, key=lambda r: r[1].score)
        yield Hit(f"cited source does not support the claim ({best.reason})", claim.location,
                  ref if "://" in ref else "", evidence=best.passage[:300])
