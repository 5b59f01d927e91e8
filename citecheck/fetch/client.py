"""One aiohttp session per run: guarded hops, bounded bodies, retries, per-host politeness.

`Fetcher.fetch(url)` walks one URL: every hop is vetted by the guard (and its address by the
guarded resolver), redirects are followed by hand up to `max_redirects` with loop detection, each
request is a real GET, and the per-URL `timeout` covers every hop, retry and wait.
"""
from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Self
from urllib.parse import urljoin

import aiohttp

from citecheck import __version__
from citecheck.config import FetchConfig
from citecheck.errors import CacheError
from citecheck.fetch.body import ACCEPT_ENCODING, BodyReader
from citecheck.fetch.dns import DnsEvidence
from citecheck.fetch.facts import Answer, Raw, build_page, now_iso, refused_page, revalidated, select_headers
from citecheck.fetch.facts import validators as conditional_headers
from citecheck.fetch.guard import Guard, Refused
from citecheck.fetch.hosts import Slots
from citecheck.fetch.probe import NOT_PROBED, Siblings
from citecheck.fetch.resolver import GuardedResolver
from citecheck.fetch.retry import backoff, retry_after
from citecheck.fetch.robots import ERROR as ROBOTS_ERROR
from citecheck.fetch.robots import Robots
from citecheck.fetch.verdict import REDIRECT_STATUSES, RETRY_STATUSES, RETRYABLE_ERRORS, classify, is_challenge
from citecheck.models import Hop, Outcome, Page
from citecheck.urls import fact_key, host_of

USER_AGENT = f"citecheck/{__version__} (+https://github.com/citecheck/citecheck)"
ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"


@dataclass(frozen=True)
class FetchResult:
    page: Page
    body: bytes | None = None  # decoded body (bounded by the caps) when asked for and fetched now
    raw: Raw | None = None  # with defer_parse: what `facts.complete` needs to fill in the body facts


class Fetcher:
    """`async with Fetcher(config) as f: result = await f.fetch(url)`.

    With `defer_parse=True` fresh pages come without their body facts and `FetchResult.raw` carries
    the body (and the host's sibling-probe body) for `facts.complete` to parse elsewhere: the audit
    parses in its page-rule workers, so this event loop only does network work."""

    def __init__(self, config: FetchConfig, *, resolver: Any = None, cache: Any = None,
                 socket_factory: Callable[..., Any] | None = None, defer_parse: bool = False,
                 robots: Robots | None = None) -> None:
        """`robots`: the run's robots.txt rules when the caller asked them already (`fetch.opener`)."""
        self.config = config
        self.defer_parse = defer_parse
        self.guard = Guard.of(config)
        self.cache = cache
        # With a team cache the per-host budget counts every runner's requests (`fetch.hosts`); a
        # request keeps its shared slot at most its time budget (and the close of the connection).
        self.slots = Slots(config.concurrency, config.host_concurrency, config.host_interval,
                           shared=cache if getattr(cache, "shared", False) else None, hold=config.timeout + 5.0)
        self.siblings = Siblings(self)
        self.robots = robots if robots is not None else Robots(self._fetch_robots, cache) if config.robots else None
        self._resolver = GuardedResolver(self.guard, resolver)
        self.dns = self._resolver.evidence = DnsEvidence(self._resolver)
        self._socket_factory = socket_factory
        self._session: aiohttp.ClientSession | None = None
        self.connected: set[str] = set()  # hosts a TCP connection was made to (evidence for fetch.outage)

    async def __aenter__(self) -> Self:
        connector = aiohttp.TCPConnector(limit=self.config.concurrency, limit_per_host=0, resolver=self._resolver,
                                         ttl_dns_cache=60, socket_factory=self._socket_factory)
        timeout = aiohttp.ClientTimeout(total=None, sock_connect=self.config.connect_timeout,
                                        sock_read=self.config.read_timeout)
        headers = {"User-Agent": self.config.user_agent or USER_AGENT, "Accept": ACCEPT,
                   "Accept-Language": "en;q=1.0, *;q=0.5", "Accept-Encoding": ACCEPT_ENCODING}
        trace = aiohttp.TraceConfig()
        trace.on_request_start.append(_note_host)
        trace.on_connection_create_end.append(self._note_connected)
        self._session = aiohttp.ClientSession(connector=connector, timeout=timeout, headers=headers,
                                              auto_decompress=False, trust_env=False, cookie_jar=aiohttp.CookieJar(),
                                              trace_configs=[trace])
        return self

    async def _note_connected(self, _session: Any, context: Any, _params: Any) -> None:
        host = getattr(context, "host", "")
        if host:
            self.connected.add(host)

    async def __aexit__(self, *exc: object) -> None:
        await self.siblings.close()
        await self.dns.close()
        if self._session is not None:
            await self._session.close()

    async def fetch(self, url: str, *, keep_body: bool = False) -> FetchResult:
        """The Page for `url` (from the cache when fresh there), and its body when asked."""
        if self.cache is not None:
            cached = self.cache.get(url, self.config.max_age_days)
            if cached is not None:
                return FetchResult(cached)
        result = await self.fetch_fresh(url, keep_body=keep_body)
        if self.cache is not None:
            self.cache.put(result.page)
        return result

    async def fetch_fresh(self, url: str, *, keep_body: bool = False, probe: bool = True,
                          urgent: bool = False, stored: Page | None = None) -> FetchResult:
        """Fetch over the network, never from the cache (`urgent` walks go before fresh URLs).
        With `stored` facts of the URL, the request for their final URL is conditional (their ETag
        and Last-Modified): a 304 gives those facts back, fetched now, without a body."""
        fetched_at, started = now_iso(), time.perf_counter()
        body: bytes | None = None
        raw: Raw | None = None
        found = NOT_PROBED
        try:
            page, body = await self._walk(url, fetched_at, urgent, stored=stored)
            if page.error == "unresolved" and await self.dns.corroborates(host_of(page.final_url or url)):
                page = replace(page, outcome=Outcome.DEAD, error="nxdomain")
            unparsed = body if self.defer_parse else None
            if not (keep_body or self.defer_parse):
                body = None  # do not hold the body while waiting for the host's sibling probe
            if probe:
                found = await self.siblings.find(page, unparsed)
            if unparsed is not None:
                raw = Raw(unparsed, page.headers.get("content-type", ""), found[2])
        except CacheError:
            raise  # the team cache failed (its per-host budget): the run stops, it does not go on without it
        except Exception as err:  # noqa: BLE001 - a citecheck bug becomes outcome=error, never a crash
            page = Page(url=url, outcome=Outcome.ERROR, fetched_at=fetched_at,
                        error=f"internal: {type(err).__name__}: {err}"[:300])
            raw, found = None, NOT_PROBED
        # One copy of the page with everything known only now.
        page = replace(page, elapsed_ms=round((time.perf_counter() - started) * 1000, 1),
                       sibling_status=found[0], sibling_text=found[1], sibling_shape=found[3])
        return FetchResult(page, body if keep_body else None, raw)

    async def _fetch_robots(self, url: str) -> tuple[Page, bytes]:
        """A robots.txt walk: urgent (requests wait for it), and itself never subject to robots.txt."""
        return await self._walk(url, now_iso(), urgent=True, robots=False)

    async def _robots_allow(self, url: str, budget: _Budget) -> bool:
        """robots.txt's answer for one hop; the time spent asking counts against the URL's budget."""
        loop = asyncio.get_running_loop()
        asked = loop.time()
        try:
            return await self.robots.allows(url)  # type: ignore[union-attr]
        finally:
            budget.spend(loop.time() - asked)

    async def _walk(self, url: str, fetched_at: str, urgent: bool = False, robots: bool = True,
                    stored: Page | None = None) -> tuple[Page, bytes]:
        budget = _Budget(self.config.timeout, urgent)
        # stored facts this run's policy would not have found (a body past its caps) are not revalidated
        conditional = conditional_headers(stored) if stored is not None and self.guard.holds(stored) else {}
        at = fact_key(stored.chain[-1].url if stored.chain else stored.final_url or stored.url) \
            if stored is not None and conditional else ""  # the stored answer's URL: the one asked conditionally
        chain: list[Hop] = []
        visits: dict[str, int] = {}
        cookies = False
        current = url
        for _ in range(self.config.max_redirects + 1):
            try:
                target = self.guard.vet_url(current)
            except Refused as err:
                return refused_page(url, err.error, tuple(chain), fetched_at), b""
            key = str(target.with_fragment(None))
            if robots and self.robots is not None and not await self._robots_allow(key, budget):
                return refused_page(url, ROBOTS_ERROR, tuple(chain), fetched_at), b""
            visits[key] = visits.get(key, 0) + 1
            if visits[key] > 2 or (visits[key] == 2 and not cookies):
                return build_page(url, Answer(key, chain[-1].status), tuple(chain), fetched_at, "redirect-loop"), b""
            ask = conditional if conditional and fact_key(key) == at else {}
            answer = await self._request(target, budget, ask)
            if answer.error in ("blocked-private", "credentials", "bad-scheme", "invalid-url"):
                return refused_page(url, answer.error, tuple(chain), fetched_at), b""
            if ask and answer.status == 304 and stored is not None:
                return revalidated(url, stored, (*chain, Hop(key, 304, "")), answer, fetched_at), b""
            location = answer.headers.get("location", "")
            if answer.status in REDIRECT_STATUSES and location:
                chain.append(Hop(key, answer.status or 0, location))
                cookies = cookies or "set-cookie" in answer.headers
                current = urljoin(key, location.strip())
                continue
            chain.append(Hop(key, answer.status or 0, ""))
            return build_page(url, answer, tuple(chain), fetched_at, parse=not self.defer_parse), answer.body
        last = chain[-1]
        return build_page(url, Answer(last.url, last.status), tuple(chain), fetched_at, "too-many-redirects"), b""

    async def _request(self, target: Any, budget: _Budget, extra: dict[str, str] | None = None) -> Answer:
        """One hop, retried on timeouts, resets, 429 and 502/503/504 within the budget (`extra`:
        headers for this request only, the conditional ones)."""
        for attempt in range(self.config.retries + 1):
            answer = await self._attempt(target, budget, extra)
            wait = self._retry_wait(answer, attempt, budget)
            if wait is None:  # always so on the last attempt
                return answer
            stats = self.slots.stats.get(_host_key(target))
            if stats is not None:
                stats.retries += 1
            await asyncio.sleep(wait)
        return Answer(str(target))  # retries < 0: no attempt at all

    def _retry_wait(self, answer: Answer, attempt: int, budget: _Budget) -> float | None:
        if attempt >= self.config.retries:
            return None
        if answer.error in RETRYABLE_ERRORS:
            wait = backoff(attempt, self.config.backoff)
        elif answer.status in RETRY_STATUSES and not is_challenge(answer.status, answer.headers, answer.body):
            asked = retry_after(answer.headers.get("retry-after"))
            if asked is not None and asked > self.config.retry_after_cap:
                return None
            wait = asked * 1.05 + 0.01 if asked is not None else backoff(attempt, self.config.backoff)
        else:
            return None
        return wait if wait < budget.left() else None

    async def _attempt(self, target: Any, budget: _Budget, extra: dict[str, str] | None = None) -> Answer:
        assert self._session is not None, "use Fetcher as an async context manager"
        response: aiohttp.ClientResponse | None = None
        reader: BodyReader | None = None
        async with self.slots.hold(_host_key(target), urgent=budget.urgent or budget.deadline is not None) as stats:
            answer = Answer(str(target))  # made once the slots are ours: thousands of URLs wait for them
            try:
                async with asyncio.timeout_at(budget.start(stats.waited)):  # one clock for headers and body
                    headers = self._headers_for(target.raw_host or "")
                    response = await self._session.get(target, allow_redirects=False,
                                                       headers={**headers, **extra} if extra else headers)
                    answer.status = response.status
                    answer.headers = select_headers(response.headers)
                    stats.statuses[str(response.status)] += 1
                    if not (response.status in REDIRECT_STATUSES and "location" in answer.headers):
                        reader = BodyReader(response.headers.get("content-encoding", ""), self.config.max_body,
                                            self.config.max_decompressed)
                        await reader.read(response.content)
            except Exception as err:  # noqa: BLE001 - every transport failure becomes an error word
                if response is None:
                    refusal = _refusal(err)
                    answer.error = refusal.error if refusal else classify(err)
                    stats.statuses[answer.error] += 1
                    return answer
                if reader is not None:
                    reader.exception = err  # the deadline passed mid-body: keep what arrived
            finally:
                if response is not None:
                    self._finish(response, answer, reader, stats)
        return answer

    def _finish(self, response: aiohttp.ClientResponse, answer: Answer, reader: BodyReader | None,
                stats: Any) -> None:
        if reader is not None:
            answer.body = reader.data
            answer.wire = reader.wire_bytes
            answer.error = reader.error or (classify(reader.exception) if reader.exception else "")
            answer.complete = not answer.error
            stats.wire_bytes += reader.wire_bytes
            if reader.error or reader.exception:
                response.close()  # never hand a half-read connection back to the pool
        response.release()

    def _headers_for(self, host: str) -> dict[str, str]:
        extra = self.config.headers
        if not extra:
            return {}
        merged = dict(extra.get("*", {}))
        merged.update(extra.get(host.lower(), {}))
        return merged


class _Budget:
    """The per-URL time budget: it runs from the first request on, but not while waiting for slots
    (queueing behind other URLs is not this URL's slowness)."""

    def __init__(self, seconds: float, urgent: bool = False) -> None:
        self.seconds = seconds
        self.urgent = urgent
        self.deadline: float | None = None

    def start(self, waited: float = 0.0) -> float:
        if self.deadline is None:
            self.deadline = asyncio.get_running_loop().time() + self.seconds
        else:
            self.deadline += waited
        return self.deadline

    def spend(self, seconds: float) -> None:
        """Time spent before the first request (asking robots.txt) comes off the budget; later it is
        on the clock already."""
        if self.deadline is None:
            self.seconds = max(0.0, self.seconds - seconds)

    def left(self) -> float:
        if self.deadline is None:
            return self.seconds
        return self.deadline - asyncio.get_running_loop().time()


async def _note_host(_session: Any, context: Any, params: Any) -> None:
    context.host = (params.url.raw_host or "").lower().rstrip(".")


def _host_key(target: Any) -> str:
    return f"{target.raw_host}:{target.port}"


def _refusal(err: BaseException) -> Refused | None:
    for candidate in (getattr(err, "os_error", None), err.__cause__, err):
        if isinstance(candidate, Refused):
            return candidate
    return None
