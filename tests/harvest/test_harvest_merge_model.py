"""Property: any sequence of harvests, with hosts up or down and pages live, changed, gone or
redirected to another page of the pool, never gives one ID to two URLs and never changes the ID
of a URL once it has one; a URL that passes a run is in that run's corpus (under its own ID, or
retired as the duplicate of the page it now leads to); a run where no host answers writes nothing.

The merge is driven through `assemble` with verdicts shaped as the judge makes them (the real
fetch and rules are covered end to end in test_harvest_merge.py); the corpus and its registry
make the round trip through their files between runs.
"""
from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from citecheck.config import build
from citecheck.engine.registry import build_registry
from citecheck.engine.run import Engine
from citecheck.engine.select import resolve
from citecheck.extract import load_corpus
from citecheck.fetch.outage import assess
from citecheck.harvest.assemble import Run, assemble, existing_found
from citecheck.harvest.corpus import write_corpus
from citecheck.harvest.gate import Reason
from citecheck.harvest.ids import IdBook, write_registry
from citecheck.harvest.judge import Verdict
from citecheck.harvest.outline import Section
from citecheck.harvest.plan import Found, SectionPlan
from citecheck.harvest.providers import Candidate
from citecheck.models import Gate, Hop, Location, Outcome, Page, Severity
from citecheck.urls import dedupe_key

HOSTS = ("a.example-news.com", "b.example-stats.org")
PER_HOST = 2
URLS = tuple(f"https://{h}/p{i}" for h in HOSTS for i in range(PER_HOST))
TEXT = "Road freight carried by hauliers registered in the European Union grew again last year. " * 4
PLAN = SectionPlan(Section("s", "S"), (), "<model>")
ENGINE = Engine(resolve(build_registry(()), build({})))

page_state = st.one_of(st.just(("live", 0)), st.just(("live", 1)), st.just(("gone", 0)),
                       st.tuples(st.just("moved"), st.integers(0, len(URLS) - 1)))
world = st.fixed_dictionaries({"up": st.lists(st.booleans(), min_size=len(HOSTS), max_size=len(HOSTS)),
                               "pages": st.lists(page_state, min_size=len(URLS), max_size=len(URLS)),
                               "found": st.sets(st.sampled_from(URLS), max_size=len(URLS))})
LIVE = [("live", 0)] * len(URLS)


@dataclass
class World:
    up: list[bool]
    pages: list[tuple[str, int]]

    def fetch(self, url: str, hops: int = 0) -> Page:
        index = URLS.index(url)
        if not self.up[index // PER_HOST]:
            return Page(url, Outcome.UNVERIFIABLE, error="refused", fetched_at="2026-01-01T00:00:00Z")
        state, value = self.pages[index]
        if state == "moved" and hops == 0 and URLS[value] != url:
            target = self.fetch(URLS[value], 1)
            chain = (Hop(url, 301, URLS[value]), *target.chain)
            return Page(url, target.outcome, target.status, target.final_url, chain, title=target.title,
                        content_hash=target.content_hash, fetched_at=target.fetched_at, error=target.error)
        if state == "gone":
            return Page(url, Outcome.DEAD, 404, url, (Hop(url, 404),), title="Not Found",
                        fetched_at="2026-01-01T00:00:00Z")
        return Page(url, Outcome.OK, 200, url, (Hop(url, 200),), title=f"Page {index}",
                    content_hash=f"{index}-v{value}", fetched_at="2026-01-01T00:00:00Z")


def verdict(found: Found, page: Page) -> Verdict:
    if page.outcome is Outcome.OK:
        return Verdict(found, page=page, text=TEXT)
    reason = (Reason("page", "H001", "http-error", Severity.ERROR, "dead link: HTTP 404", "404", Gate.GONE)
              if page.status == 404 else
              Reason("fetch", "", "fetch-unverifiable", Severity.ERROR, f"fetch outcome unverifiable ({page.error})"))
    return Verdict(found, [reason], page=page)


def harvest_once(path: Path, state: dict[str, Any]) -> Any:
    """One run: the corpus's own sources and this run's finds, judged against the world."""
    existing = load_corpus(str(path)) if path.exists() else None
    book = IdBook.from_corpus(existing, path)
    found = existing_found(existing) + [Found(Candidate(u, "", "", "q", "model"), "s", Location("<model>", 1, 1))
                                        for u in sorted(state["found"])]
    groups: dict[str, list[Found]] = {}
    for item in found:
        groups.setdefault(dedupe_key(item.candidate.url), []).append(item)
    now = World(state["up"], state["pages"])
    verdicts = [[verdict(f, now.fetch(f.candidate.url)) for f in group] for group in groups.values()]
    if assess(v.page for group in verdicts for v in group if v.page is not None) is not None:
        return None  # the pipeline raises NetworkUnavailableError: nothing is written
    result = assemble(verdicts, book, [PLAN], existing, ENGINE, "default", [], str(path), Run("2026-06-01T00:00:00Z"))
    write_corpus(path, result.corpus)
    write_registry(path, result.book)
    return result, now


def gone(*indexes: int) -> list[tuple[str, int]]:
    return [("gone", 0) if i in indexes else ("live", 0) for i in range(len(URLS))]


UP = [True] * len(HOSTS)


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(world, min_size=1, max_size=6))
@example([{"up": UP, "pages": LIVE, "found": {URLS[0], URLS[1]}},  # the highest ID retires, then a URL is added
          {"up": UP, "pages": gone(1), "found": set()}, {"up": UP, "pages": LIVE, "found": {URLS[3]}}])
@example([{"up": UP, "pages": LIVE, "found": {URLS[0]}},  # a new URL now redirects to a known page
          {"up": UP, "pages": [("live", 0), ("moved", 0), ("live", 0), ("live", 0)], "found": {URLS[1]}}])
@example([{"up": UP, "pages": LIVE, "found": {URLS[0], URLS[2]}},  # a host goes down, then the other page dies
          {"up": [True, False], "pages": LIVE, "found": set()},
          {"up": UP, "pages": gone(0), "found": {URLS[1]}}])
def test_ids_belong_to_their_urls_forever(runs: list[dict[str, Any]]) -> None:
    first_id: dict[str, str] = {}  # URL key -> the ID it was first given
    owner: dict[str, str] = {}  # ID -> the URL key it was first given to
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "corpus.json"
        for state in runs:
            before = path.read_bytes() if path.exists() else None
            previous = {dedupe_key(s.url): s.id for s in load_corpus(str(path)).sources} if path.exists() else {}
            done = harvest_once(path, state)
            if done is None:  # the network was down: nothing written
                assert (path.read_bytes() if path.exists() else None) == before
                continue
            result, now = done
            ids = [s.id for s in result.corpus]
            assert len(ids) == len(set(ids)), "one ID twice in a corpus"
            named = [(s.id, s.url) for s in result.corpus] + [(r["id"], r["url"]) for r in result.book.retired.values()]
            for source_id, url in named:
                key = dedupe_key(url)
                assert owner.setdefault(source_id, key) == key, f"{source_id} named {owner[source_id]} and {key}"
                assert first_id.setdefault(key, source_id) == source_id, f"{url} changed its ID"
            corpus = {dedupe_key(s.url): s for s in result.corpus}
            reached = {dedupe_key(u) for s in result.corpus for u in (s.final_url, s.canonical_url)}
            for url in URLS:
                key, page = dedupe_key(url), now.fetch(url)
                direct = page.outcome is Outcome.OK and dedupe_key(page.final_url) == key
                if key in previous and direct:  # live on its own page: stays, same ID
                    assert key in corpus and corpus[key].id == previous[key], url
                if key in previous and page.error == "refused":  # unverifiable now: stays, stale
                    assert corpus[key].extra.get("stale") is True and corpus[key].id == previous[key], url
                if (url in state["found"] or key in previous) and page.outcome is Outcome.OK:
                    assert key in corpus or dedupe_key(page.final_url) in reached, url  # it or its page is cited
