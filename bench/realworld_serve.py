"""Serve the labelled real pages from 127.0.0.1 and fetch them through citecheck's own fetcher.

Each capture gets its own loopback origin per (scheme, host) of its redirect chain, so two captures
of one URL (an article in 2020, a challenge in 2024) never collide. An origin answers the recorded
hops with 302 to the next hop, the final URL with the recorded status, headers and body, and any
other path (the fetcher's random sibling probe) with that host's hard-404 page when the set has
one, else a generic 404. Fetched pages get their original URLs back before the rules run.
"""
from __future__ import annotations

import socket
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from aiohttp import web
from realworld_pages import (
    GENERIC_404,
    PAGES,
    Capture,
    load_captures,
    report,
    run_rules,
    sibling_answers,
)

from citecheck.config import FetchConfig
from citecheck.models import Hop, Page

Answer = tuple[int, dict[str, str], bytes]
_PASS_HEADERS = ("content-type", "cf-mitigated", "server", "retry-after", "refresh", "x-datadome")


@dataclass
class Origin:
    """One loopback origin standing in for `scheme://host` of one capture."""

    real: str  # scheme://host as recorded
    port: int
    routes: dict[str, Answer | str] = field(default_factory=dict)  # path?query -> answer, or URL to redirect to
    missing: tuple[int, bytes] = (404, GENERIC_404)


def _origin_key(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def _route_key(url: str) -> str:
    """path?query decoded until stable, so client-side re-quoting cannot miss a route."""
    parts = urlsplit(url)
    return _decoded(f"{parts.path or '/'}?{parts.query}")


def _decoded(text: str) -> str:
    for _ in range(4):
        plain = unquote(text.replace("+", "%2B"))
        if plain == text:
            break
        text = plain
    return text


class Web:
    """All loopback origins of a run; maps URLs between the recorded web and 127.0.0.1."""

    def __init__(self, captures: list[Capture]) -> None:
        self.captures = captures
        self.origins: dict[tuple[int, str], Origin] = {}
        self.by_port: dict[int, Origin] = {}
        self.sockets: list[socket.socket] = []
        self._siblings = sibling_answers(captures)

    def _origin(self, index: int, url: str) -> Origin:
        key = (index, _origin_key(url))
        if key not in self.origins:
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.bind(("127.0.0.1", 0))
            self.sockets.append(sock)
            host = urlsplit(url).hostname or ""
            origin = Origin(key[1], sock.getsockname()[1], missing=self._siblings.get(host, (404, GENERIC_404)))
            self.origins[key] = self.by_port[origin.port] = origin
        return self.origins[key]

    def local(self, index: int, url: str) -> str:
        parts = urlsplit(url)
        query = f"?{parts.query}" if parts.query else ""
        return f"http://127.0.0.1:{self._origin(index, url).port}{parts.path or '/'}{query}"

    def build(self) -> None:
        for index, cap in enumerate(self.captures):
            for hop, nxt in zip(cap.hops, cap.hops[1:]):
                self._origin(index, hop).routes[_route_key(hop)] = self.local(index, nxt)
            headers = {k: v for k, v in cap.headers.items() if k in _PASS_HEADERS}
            self._origin(index, cap.final_url).routes[_route_key(cap.final_url)] = (cap.status, headers, cap.body)

    async def handle(self, request: web.Request) -> web.StreamResponse:
        origin = self.by_port[int(request.host.rsplit(":", 1)[1])]
        raw = request.raw_path if "?" in request.raw_path else f"{request.raw_path}?"
        found = origin.routes.get(_decoded(raw))
        if isinstance(found, str):
            return web.Response(status=302, headers={"Location": found})
        if found is not None:
            status, headers, body = found
            return web.Response(status=status, body=body, headers=headers)
        status, body = origin.missing
        return web.Response(status=status, body=body, content_type="text/html")

    def real(self, url: str) -> str:
        """The recorded URL behind a loopback URL (unchanged when it is not one of ours)."""
        parts = urlsplit(url)
        origin = self.by_port.get(parts.port or 0) if parts.hostname == "127.0.0.1" else None
        if origin is None:
            return url
        query = f"?{parts.query}" if parts.query else ""
        return f"{origin.real}{parts.path}{query}"


def restore(page: Page, cited: str, site: Web) -> Page:
    """The fetched page with its recorded URLs back in place of the loopback ones."""
    chain = tuple(Hop(site.real(h.url), h.status, site.real(h.location) if h.location else "") for h in page.chain)
    return replace(page, url=cited, final_url=site.real(page.final_url), chain=chain)


async def fetch_served(captures: list[Capture]) -> dict[str, Page]:
    """Serve every capture on loopback, fetch each cited URL with `citecheck.fetch.fetch_all`."""
    from citecheck.fetch import fetch_all

    site = Web(captures)
    site.build()
    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", site.handle)
    runner = web.AppRunner(app)
    await runner.setup()
    try:
        for sock in site.sockets:
            await web.SockSite(runner, sock).start()
        local = {cap.path: site.local(i, cap.url) for i, cap in enumerate(captures)}
        config = FetchConfig(allow=("127.0.0.1",), use_cache=False, retries=0, timeout=10.0)
        fetched = await fetch_all(list(local.values()), config)
        return {path: restore(fetched[url], cap.url, site) for (path, url), cap in zip(local.items(), captures)}
    finally:
        await runner.cleanup()


async def evaluate_served(pages_dir: Path = PAGES) -> dict[str, Any]:
    """The evaluation of `realworld_pages.evaluate`, with pages fetched from loopback."""
    captures = load_captures(pages_dir)
    pages = await fetch_served(captures)
    return report(captures, run_rules(captures, pages), "served")
