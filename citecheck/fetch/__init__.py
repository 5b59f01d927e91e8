"""Fetching: guarded, bounded, polite GETs and their facts as Pages (`fetch_all`; the HTTP client,
`Fetcher`, is `citecheck.fetch.client`'s).

Page.chain lists every response of the walk in order, redirects first and the final answer last
(`Hop(url, status, location)`); a refused hop ends the chain at the redirect that pointed to it.
"""
from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from citecheck._util.aio import late_after
from citecheck.config import FetchConfig
from citecheck.errors import InputError
from citecheck.models import Page

if TYPE_CHECKING:
    from citecheck.fetch.cache import FactCache
    from citecheck.fetch.facts import Raw
    from citecheck.fetch.hosts import HostStats
    from citecheck.fetch.outage import Outage

# The HTTP client (`citecheck.fetch.client.Fetcher`; aiohttp: ~0.25 s of imports) and the cache
# (`citecheck.fetch.cache`) are imported from their own modules where they are used: a process that
# only parses pages (`citecheck.fetch.facts`, the audit's page workers), runs `--no-cache` or finds
# every page in the cache (`fetch.opener`) never imports what it does not use.
__all__ = ["PageFetcher", "Pages", "fetch_all", "open_cache"]

FLUSH_EVERY = 200
CACHE_CHUNK = 500


class Pages(dict[str, Page]):
    """The fetch outcome, what `fetch_all` returns: URL → Page, plus bodies (with keep_bodies),
    per-host stats, how many distinct URLs came from the cache and how many were fetched, and the
    run's `outage` (None while the network answered; see `citecheck.fetch.outage`). `Pages(mapping)`
    makes one of given pages (a stand-in fetcher's)."""

    def __init__(self, pages: Mapping[str, Page] | None = None) -> None:
        super().__init__(pages or {})
        self.bodies: dict[str, bytes] = {}
        self.stats: dict[str, HostStats] = {}
        self.cached = 0
        self.fetched = 0
        self.outage: Outage | None = None

    def __repr__(self) -> str:
        # Cheap on purpose: Python 3.11's asyncio.run formats the main task's result on the way out.
        return f"<Pages: {len(self)} URLs, {self.cached} from the cache>"


class PageFetcher(Protocol):
    """How an audit fetches its pages; `fetch_all` is the one it uses unless given another (a test's
    stand-in, an agent's own fetcher). `on_page(url, page)` — with `defer_parse`, `on_page(url, page,
    raw)` — takes each page as it is known; a fetcher that never calls it is fine (the audit takes the
    pages it returns). `cache`: the fact cache the run shares with its page stage (None: none)."""

    async def __call__(self, urls: list[str], config: FetchConfig, /, *,
                       on_page: Callable[..., Page | None] | None = None, defer_parse: bool = False,
                       cache: FactCache | None = None) -> Pages: ...


async def fetch_all(urls: list[str], config: FetchConfig, *, progress: bool = False, resolver: Any = None,
                    cache: FactCache | None = None, keep_bodies: bool = False,
                    socket_factory: Callable[..., Any] | None = None,
                    on_page: Callable[..., Page | None] | None = None, defer_parse: bool = False,
                    room: Callable[[], Awaitable[None]] | None = None) -> Pages:
    """Fetch each distinct URL once (fragments ignored); cached facts are reused when fresh.
    `on_page(url, page)` is called as each URL's page is known (cache hits first), so a caller can
    start judging pages while the rest are still being fetched; a page it returns replaces the one
    kept in the result (the cache always gets the full facts).

    With `defer_parse` (needs `on_page`) fresh bodies are not parsed here: `on_page(url, page, raw)`
    gets the page without its body facts and a `facts.Raw` to complete it with (None for a cache
    hit, which is complete), and the caller writes completed fresh pages to the cache. `room()`,
    awaited before each fetch, lets the caller hold the fetch back while it has too many bodies to
    parse (the page stage's pool lags behind: their memory is bounded)."""
    if defer_parse and on_page is None:
        raise ValueError("defer_parse needs on_page: someone has to parse the bodies")
    own = open_cache(config) if cache is None and config.use_cache else None
    store = cache or own
    try:
        return await _fetch_all(urls, config, progress, resolver, store, keep_bodies, socket_factory, on_page,
                                defer_parse, room)
    finally:
        if own is not None:
            own.close()


async def _fetch_all(urls: list[str], config: FetchConfig, progress: bool, resolver: Any, cache: FactCache | None,
                     keep_bodies: bool, socket_factory: Callable[..., Any] | None,
                     on_page: Callable[..., Page | None] | None = None, defer_parse: bool = False,
                     room: Callable[[], Awaitable[None]] | None = None) -> Pages:
    from citecheck.fetch.flight import Flight
    from citecheck.fetch.opener import Opener
    from citecheck.fetch.outage import assess
    from citecheck.fetch.progress import ProgressBar

    loop = asyncio.get_running_loop()
    started = loop.time()
    by_target: dict[str, list[str]] = {}
    for url in urls:
        by_target.setdefault(url.split("#", 1)[0], []).append(url)
    pages = Pages()
    hit: set[str] = set()
    pending: list[Page] = []
    fresh: list[Page] = []
    known: list[Page] = []  # pages answered from fresh cached facts: evidence for the outage assessment
    allowed: set[str] = set()  # targets robots.txt lets this run ask the cache about
    with ProgressBar(progress, len(by_target)) as bar:
        shared = cache is not None and cache.shared
        # With a team cache the bodies are parsed here, not in the caller's workers: the others
        # wait for this runner's facts, which must be complete and stored as each fetch ends.

        def make(robots: Any) -> Any:
            from citecheck.fetch.client import Fetcher  # aiohttp: only once something must be fetched

            return Fetcher(config, resolver=resolver, cache=cache, socket_factory=socket_factory,
                           defer_parse=defer_parse and not shared, robots=robots)

        opener = Opener(make, config.robots, cache)
        try:
            # robots.txt first, every origin's at once (one request each), then the fetch in the
            # memo's order. Asked as each walk began, an origin's requests woke together when its
            # robots.txt came and went out one host after another: a burst of up to
            # `host_concurrency` requests per host, and four times the connections on the
            # 5,000-link benchmark (976 vs 244). robots.txt is also part of the run's URL policy,
            # so it speaks before the cache: a page a site now disallows is never answered from
            # facts stored while it was allowed (its fresh walk is refused without a request).
            askable = await opener.allowed(list(by_target))
            allowed.update(askable)
            if cache is not None:
                # Read in chunks when someone takes the pages as they come: a caller that keeps slim
                # copies (the audit's page workers) then never holds every cached page's full facts.
                step = CACHE_CHUNK if on_page is not None else max(1, len(askable))
                for start in range(0, len(askable), step):
                    hits = await _robots_keep(opener, cache.get_many(askable[start:start + step], config.max_age_days))
                    bar.advance(len(hits))
                    for target, page in hits.items():
                        _record(pages, by_target[target], page, None, on_page, defer_parse)
                    hit.update(hits)
                    known.extend(hits.values())
            pages.cached = len(hit)
            todo = [t for t in by_target if t not in hit]
            if not todo:
                return pages  # the cache answered every URL: the HTTP stack was never loaded
            fetcher = await opener.get()
            flight = Flight(cache, config.max_age_days, config.concurrency, config.timeout) if shared else None

            async def one(target: str) -> None:
                if room is not None:
                    await room()
                if flight is not None and target in allowed:  # a team cache: one runner fetches, the others take its facts
                    stored, result = await flight.run(target, lambda: fetcher.fetch_fresh(target, keep_body=keep_bodies))
                    if stored is not None and not await _robots_keep(opener, {target: stored}):
                        stored, result = None, await fetcher.fetch_fresh(target, keep_body=keep_bodies)
                    if result is None:
                        assert stored is not None
                        known.append(stored)
                        _record(pages, by_target[target], stored, None, on_page, defer_parse)
                        bar.advance()
                        return
                else:
                    result = await fetcher.fetch_fresh(target, keep_body=keep_bodies)
                fresh.append(result.page)
                _record(pages, by_target[target], result.page, result.body, on_page, defer_parse, result.raw)
                if flight is not None:
                    flight.cache.put_many([result.page])  # stored (if a fact) and the lease ended at once
                elif cache is not None and not defer_parse:
                    pending.append(result.page)
                    if len(pending) >= FLUSH_EVERY:  # written as we go: an interrupted run resumes
                        cache.put_many(pending)
                        pending.clear()
                bar.advance()

            try:
                for target in await _within(config.deadline - (loop.time() - started), [one(t) for t in todo], todo):
                    if by_target[target][0] not in pages:  # the run's deadline passed before it was judged
                        _record(pages, by_target[target], past_deadline(target, config.deadline), None, on_page,
                                defer_parse)
                        bar.advance()
            finally:
                if flight is not None:
                    flight.close()
            pages.stats = fetcher.slots.stats
            pages.cached += flight.waited if flight is not None else 0
        finally:
            await opener.close()
        pages.fetched = len(fresh)
        pages.outage = assess([*known, *fresh], fetcher.connected)
    if cache is not None and pages.outage is None:  # an outage records nothing (nothing it saw is a fact)
        cache.put_many(pending)
    return pages


async def _robots_keep(opener: Any, hits: dict[str, Page]) -> dict[str, Page]:
    """The stored pages whose redirect hops robots.txt lets this run request: a walk through a hop
    the run may not ask (it honours robots.txt now, or the hop's site disallows it now) is not this
    run's fact; that URL is fetched, and its walk stops at the hop. The targets were asked already."""
    if opener.robots is None:
        return hits
    hops = {target: [hop.url for hop in page.chain[1:]] for target, page in hits.items() if len(page.chain) > 1}
    if not hops:
        return hits
    allowed = set(await opener.allowed(list(dict.fromkeys(url for urls in hops.values() for url in urls))))
    return {target: page for target, page in hits.items() if all(url in allowed for url in hops.get(target, ()))}


async def _within(seconds: float, jobs: list[Any], targets: list[str]) -> list[str]:
    """Run the jobs until they end or `seconds` pass; the targets of the jobs cancelled then."""
    _, late = await late_after(seconds, jobs)
    return [target for i, target in enumerate(targets) if i in late]


def past_deadline(url: str, seconds: float) -> Page:
    """The page of a URL the run's `--deadline` passed before: unverifiable, never a fact to cache."""
    from citecheck.fetch.facts import now_iso
    from citecheck.models import Outcome

    return Page(url=url, outcome=Outcome.UNVERIFIABLE, fetched_at=now_iso(), error="deadline")


def _record(pages: Pages, urls: list[str], page: Page, body: bytes | None,
            on_page: Callable[..., Page | None] | None = None, defer_parse: bool = False,
            raw: Raw | None = None) -> None:
    for url in urls:
        pages[url] = page if url == page.url else _renamed(page, url)
        if body is not None:
            pages.bodies[url] = body
        if on_page is not None:
            kept = on_page(url, pages[url], raw) if defer_parse else on_page(url, pages[url])
            if kept is not None:
                pages[url] = kept


def _renamed(page: Page, url: str) -> Page:
    from dataclasses import replace

    return replace(page, url=url)


def open_cache(config: FetchConfig) -> FactCache | None:
    """The run's cache, answering only under the run's URL policy (CacheError — a file citecheck did
    not create — stops the run; a location where no cache can be made costs a warning)."""
    from citecheck.fetch.cache import open_store
    from citecheck.fetch.guard import Guard

    try:
        return open_store(config.cache or None, guard=Guard.of(config))
    except InputError as err:
        print(f"citecheck: warning: {err}; fetching without a cache", file=sys.stderr)
        return None
