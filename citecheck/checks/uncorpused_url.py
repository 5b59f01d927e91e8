"""A URL in the memo that is not a corpus source: it never went through the validation gate.

The invariant is that every URL in a memo was fetched, validated and given an ID first. With a
corpus given (`citecheck audit --corpus sourced_corpus.json`), every cite-able URL in the memo —
links, autolinks, HTML anchors, bare, schemeless and defanged URLs — must match the `url`,
`canonical_url` or `final_url` of a corpus entry (compared by `citecheck.urls.dedupe_key`:
tracking parameters, fragment, scheme, `www.` and a trailing slash do not matter). URLs in code
are skipped unless `code: true`.

Failing example (the corpus holds only https://www.sec.gov/Archives/edgar/data/1318605/):

    Acme's margins beat peers ([analysis](https://www.acme-robotics-analysis.com/margins)).

Passing example:

    Acme's margins beat peers ([10-K](https://sec.gov/Archives/edgar/data/1318605?utm_source=x)).
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from citecheck.checks.unsupported_scheme import CITEABLE, scheme_of
from citecheck.models import Corpus, Hit
from citecheck.urls import dedupe_key

ID = "M007"
NAME = "uncorpused-url"
STAGE = "memo"
SEVERITY = "error"
VERDICT = "uncorpused"
WRITE = "superseded"  # in write, every URL it could report is an M009 draft-url removal
DEFAULTS: dict[str, Any] = {"code": False}
OPTIONS = {"code": "also check URLs inside code spans and blocks"}


def corpus_keys(corpus: Corpus) -> set[str]:
    """dedupe keys of every url, canonical_url and final_url in the corpus."""
    return {dedupe_key(u) for u in corpus.urls()}


def check(memo: Any, options: Mapping[str, Any]) -> Iterator[Hit]:
    if memo.corpus is None:
        return
    keys = corpus_keys(memo.corpus)
    for link in memo.document.links:
        if link.in_code and not options.get("code"):
            continue
        if scheme_of(link.url) in CITEABLE and dedupe_key(link.url) not in keys:
            yield Hit(f"URL is not in the corpus ({memo.corpus.path}): cite it by [src-NNN] after harvesting it",
                      link.location, link.url, evidence=link.raw or link.url)
