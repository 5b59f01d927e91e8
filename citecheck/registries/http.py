"""Requests to the scholarly registries, under the run's fetch policy and each registry's pace.

Every request goes through the SSRF guard (`fetch.guard.Guard` on each hop, `GuardedResolver` for
the connection) exactly as page fetches do, so a loopback mirror needs `--allow` like any other
private URL. Each registry has its own session (one connection for arXiv, whose terms ask for one
request per 3 s on a single connection) and a `Pacer`: at most `concurrency` requests at once,
starts at least `interval` seconds apart. 429 and 502/503/504 are retried within the per-request
budget after `Retry-After` (which also holds back the registry's next requests) or a backoff;
what is still failing is a `Reply` with its status or error word: never "not found".
"""
from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urljoin

import aiohttp

from citecheck.config import FetchConfig
from citecheck.fetch.body import ACCEPT_ENCODING, BodyReader
from citecheck.fetch.client import USER_AGENT
from citecheck.fetch.guard import Guard, Refused
from citecheck.fetch.resolver import GuardedResolver
from citecheck.fetch.retry import backoff, retry_after
from citecheck.fetch.verdict import classify
from citecheck.models import Hop, Outcome, Page

RETRY = frozenset({429, 502, 503, 504})
MAX_REDIRECTS = 5


@dataclass
class Reply:
    """What one registry request came to: a status and body, or an error word (timeout, refused, …)."""

    url: str
    status: int | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    body: bytes = b""
    error: str = ""

    @property
    def answered(self) -> bool:
        return self.status is not None and not self.error

    def why(self) -> str:
        """A short reason for evidence: 'HTTP 503', 'timeout'."""
        return f"HTTP {self.status}" if self.status is not None else (self.error or "no answer")

    def as_page(self) -> Page:
        """The request as page facts, for the run's outage accounting (`fetch.outage.assess`)."""
        outcome = Outcome.OK if self.status is not None else Outcome.UNVERIFIABLE
        if self.error.startswith("blocked") or self.error in ("bad-scheme", "invalid-url", "credentials"):
            outcome = Outcome.EXCLUDED
        chain = (Hop(self.url, self.status),) if self.status is not None else ()
        return Page(url=self.url, outcome=outcome, status=self.status, final_url=self.url, chain=chain,
                    error=self.error)


class Pacer:
    """At most `concurrency` requests at once, their starts `interval` seconds apart."""

    def __init__(self, interval: float, concurrency: int) -> None:
        self.interval = interval
        self.slots = asyncio.Semaphore(max(1, concurrency))
        self.lock = asyncio.Lock()
        self.next_start = 0.0

    async def turn(self) -> None:
        async with self.lock:
            loop = asyncio.get_running_loop()
            wait = self.next_start - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            self.next_start = loop.time() + self.interval

    def hold_off(self, seconds: float) -> None:
        """Retry-After: no request to this registry before `seconds` from now."""
        self.next_start = max(self.next_start, asyncio.get_running_loop().time() + seconds)


class RegistryHttp:
    """`async with RegistryHttp(fetch_config, pace) as http: reply = await http.get("crossref", url)`."""

    def __init__(self, config: FetchConfig, pace: Mapping[str, tuple[float, int]], resolver: Any = None) -> None:
        self.config = config
        self.guard = Guard(config.allow, config.allow_private)
        self.pace = pace
        self._base_resolver = resolver
        self._sessions: dict[str, aiohttp.ClientSession] = {}
        self._pacers: dict[str, Pacer] = {}
        self.replies: list[Reply] = []  # every request's last reply, in order (outage accounting, tests)
        self.connected: set[str] = set()

    async def __aenter__(self) -> RegistryHttp:
        return self

    async def __aexit__(self, *exc: object) -> None:
        for session in self._sessions.values():
            await session.close()

    def _session(self, registry: str) -> aiohttp.ClientSession:
        session = self._sessions.get(registry)
        if session is None:
            _interval, concurrency = self.pace.get(registry, (0.0, 1))
            connector = aiohttp.TCPConnector(limit=concurrency, resolver=GuardedResolver(self.guard, self._base_resolver),
                                             ttl_dns_cache=60)
            timeout = aiohttp.ClientTimeout(total=None, sock_connect=self.config.connect_timeout,
                                            sock_read=self.config.read_timeout)
            trace = aiohttp.TraceConfig()
            trace.on_connection_create_end.append(self._note_connected)
            trace.on_request_start.append(_note_host)
            session = aiohttp.ClientSession(connector=connector, timeout=timeout, trust_env=False, auto_decompress=False,
                                            headers={"User-Agent": self.config.user_agent or USER_AGENT,
                                                     "Accept-Encoding": ACCEPT_ENCODING},
                                            trace_configs=[trace])
            self._sessions[registry] = session
        return session

    async def _note_connected(self, _session: Any, context: Any, _params: Any) -> None:
        host = getattr(context, "host", "")
        if host:
            self.connected.add(host)

    def _pacer(self, registry: str) -> Pacer:
        if registry not in self._pacers:
            interval, concurrency = self.pace.get(registry, (0.0, 1))
            self._pacers[registry] = Pacer(interval, concurrency)
        return self._pacers[registry]

    async def get(self, registry: str, url: str, headers: Mapping[str, str] | None = None,
                  params: Mapping[str, str] | None = None) -> Reply:
        """GET `url` (redirects followed by hand, each hop vetted), retried within the time budget."""
        pacer = self._pacer(registry)
        deadline = time.monotonic() + self.config.timeout
        reply = Reply(url)
        async with pacer.slots:
            for attempt in range(self.config.retries + 1):
                await pacer.turn()
                reply = await self._walk(registry, url, headers or {}, params, deadline)
                wait = self._retry_wait(reply, attempt, deadline)
                if wait is None:
                    break
                pacer.hold_off(wait)
        self.replies.append(reply)
        return reply

    def _retry_wait(self, reply: Reply, attempt: int, deadline: float) -> float | None:
        if attempt >= self.config.retries:
            return None
        if reply.status in RETRY:
            asked = retry_after(reply.headers.get("retry-after"))
            if asked is not None and asked > self.config.retry_after_cap:
                return None
            wait = asked if asked is not None else backoff(attempt, self.config.backoff)
        elif reply.status is None and reply.error in ("timeout", "reset", "refused"):
            wait = backoff(attempt, self.config.backoff)
        else:
            return None
        return wait if time.monotonic() + wait < deadline else None

    async def _walk(self, registry: str, url: str, headers: Mapping[str, str], params: Mapping[str, str] | None,
                    deadline: float) -> Reply:
        current = url
        for _hop in range(MAX_REDIRECTS + 1):
            try:
                target = self.guard.vet_url(current)
            except Refused as err:
                return Reply(url, error=err.error)
            reply = await self._request(registry, target, headers, params, deadline)
            location = reply.headers.get("location", "")
            if reply.status in (301, 302, 303, 307, 308) and location:
                current, params = urljoin(str(target), location), None
                continue
            reply.url = url
            return reply
        return Reply(url, error="too-many-redirects")

    async def _request(self, registry: str, target: Any, headers: Mapping[str, str],
                       params: Mapping[str, str] | None, deadline: float) -> Reply:
        reply = Reply(str(target))
        left = deadline - time.monotonic()
        if left <= 0:
            reply.error = "timeout"
            return reply
        try:
            async with asyncio.timeout(left):
                async with self._session(registry).get(target, headers=dict(headers), params=params,
                                                       allow_redirects=False) as response:
                    reply.status = response.status
                    reply.headers = {k.lower(): v for k, v in response.headers.items()}
                    reader = BodyReader(response.headers.get("content-encoding", ""), self.config.max_body,
                                        self.config.max_decompressed)
                    await reader.read(response.content)
                    reply.body = reader.data
                    if reader.exception is not None:
                        reply.status, reply.error = None, classify(reader.exception)
                    elif reader.error:
                        reply.error = reader.error
        except Exception as err:  # noqa: BLE001 - every transport failure becomes an error word
            refusal = next((c for c in (getattr(err, "os_error", None), err.__cause__, err) if isinstance(c, Refused)),
                           None)
            reply.error = refusal.error if refusal else classify(err)
            if reply.status is not None and not reply.body:
                reply.status = None  # the answer broke off: nothing to read
        return reply


async def _note_host(_session: Any, context: Any, params: Any) -> None:
    context.host = (params.url.raw_host or "").lower().rstrip(".")
