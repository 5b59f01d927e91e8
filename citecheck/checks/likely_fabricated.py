"""A dead URL that the Wayback Machine never archived and no corpus vouches for: likely fabricated.

Real pages rot; invented ones never existed. A URL that is dead now (404/410, NXDOMAIN), has no
snapshot in the Internet Archive, and did not come from the corpus is most likely made up (the
method of the urlhealth study, arXiv 2604.03173). Needs an online audit with `--archive-check`.

Failing example (dead, never archived, not in the corpus):

    See [the report](https://aws.amazon.com/blogs/machine-learning/fabricated-slug/).

Passing example (dead but archived: reported by M011 rotted instead):

    See [the 2019 report](https://www.example-news.com/2019/old-story).
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from citecheck.models import Hit, Outcome
from citecheck.urls import dedupe_key

ID = "M010"
NAME = "likely-fabricated"
STAGE = "memo"
SEVERITY = "error"
VERDICT = "fabricated"
DEFAULTS: dict[str, Any] = {}
OPTIONS: dict[str, str] = {}


def corpus_keys(memo: Any) -> set[str]:
    if memo.corpus is None:
        return set()
    return {dedupe_key(u) for u in memo.corpus.urls()}


def check(memo: Any, options: Mapping[str, Any]) -> Iterator[Hit]:
    known = corpus_keys(memo)
    for link in memo.document.links:
        page = memo.pages.get(link.url)
        if link.in_code or page is None or page.outcome is not Outcome.DEAD or page.archived is not False:
            continue
        if dedupe_key(link.url) in known:
            continue
        why = page.error or f"HTTP {page.status}"
        yield Hit(f"likely fabricated: dead ({why}), never archived by the Wayback Machine, not in the corpus",
                  link.location, link.url, evidence=why)
