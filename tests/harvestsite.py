"""A small real web on 127.0.0.1 for the harvest tests: good articles, a dead page, a soft-404, a
paywalled teaser, a page whose title contradicts its search result, and a site-search page.
Every request is logged so tests can prove which URLs were fetched in a run. `Restartable` serves
the same pages from a server that can be stopped and started again on the same port."""
from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Self

from aiohttp import web

PARAGRAPH = ("Road freight carried by hauliers registered in the European Union grew again last year, "
             "with international transport between neighbouring member states accounting for most of the gain. "
             "Analysts attribute the change to new distribution centres and to longer average hauls. ")


def article(title: str, lede: str, paragraphs: int = 6, extra_head: str = "", extra_body: str = "") -> str:
    body = "".join(f"<p>{lede if i == 0 else PARAGRAPH * 2}</p>\n" for i in range(paragraphs))
    return (f"<!doctype html><html><head><title>{title}</title>"
            f'<meta name="description" content="{lede}">{extra_head}</head><body>'
            '<nav><a href="/">Home</a> | <a href="/about">About us</a> | <a href="/login">Sign in</a></nav>'
            f"<article><h1>{title}</h1>{body}</article>{extra_body}"
            "<footer>Copyright Example Statistics Office. Cookie settings. Newsletter sign-up.</footer>"
            "</body></html>")


PAYWALL_HEAD = ('<script type="application/ld+json">{"@type": "NewsArticle", "isAccessibleForFree": false,'
                ' "hasPart": {"@type": "WebPageElement", "isAccessibleForFree": false, "cssSelector": ".paywall"}}'
                "</script>")


PAYWALL_BODY = ('<div class="paywall">Subscribe to continue reading. This article is for subscribers only. '
                "Already a subscriber? Log in.</div>")


SOFT_404 = ("<!doctype html><html><head><title>Page not found</title></head><body><h1>Page not found</h1>"
            "<p>Sorry, the page you are looking for does not exist or has been moved.</p>"
            '<p><a href="/">Go to the home page</a></p></body></html>')


@dataclass
class Page:
    status: int
    html: str
    headers: dict[str, str] = field(default_factory=dict)


def default_pages() -> dict[str, Page]:
    return {
        "/stats/road-freight-2023": Page(200, article("Road freight transport statistics 2023",
                                                      "In 2023, EU road freight transport amounted to 1 857 billion "
                                                      "tonne-kilometres.")),
        "/stats/goods-transport": Page(200, article("Goods transport by road in Germany",
                                                    "German hauliers carried 3.1 billion tonnes of goods in 2023.")),
        "/stats/removed-report": Page(404, "<html><head><title>404 Not Found</title></head><body>Not Found</body></html>"),
        "/stats/old-table": Page(200, SOFT_404),
        "/news/carrier-ranking": Page(200, article("Europe's largest road carriers ranked",
                                                   "DSV, DHL and Girteka lead the ranking of European carriers.",
                                                   extra_head=PAYWALL_HEAD, extra_body=PAYWALL_BODY, paragraphs=1)),
        "/news/spot-rates": Page(200, article("Spot freight rates between Germany and Poland",
                                              "Spot rates on the DE-PL lanes rose four per cent in the quarter.")),
        "/law/mobility-package": Page(200, article("Mobility Package I: cabotage and driver rest",
                                                   "The Mobility Package I changes the rules on cabotage.")),
        "/law/recycled-slug": Page(200, article("Ten cookie recipes for the holidays",
                                                "Preheat the oven and line two trays with baking paper.")),
        "/search": Page(200, '<html><head><title>Search</title></head><body><ul>'
                             '<li><a href="/law/mobility-package">Mobility Package I: cabotage and driver rest</a></li>'
                             '<li><a href="/search?page=2">Next page</a></li>'
                             '<li><a href="https://elsewhere.example.org/x">Elsewhere entirely</a></li>'
                             "</ul></body></html>"),
    }


def _not_modified(request: web.Request, headers: dict[str, str]) -> bool:
    """RFC 9110 13.1: If-None-Match against the page's ETag, else If-Modified-Since against Last-Modified."""
    etag = next((v for k, v in headers.items() if k.lower() == "etag"), None)
    modified = next((v for k, v in headers.items() if k.lower() == "last-modified"), None)
    if "If-None-Match" in request.headers:
        return etag is not None and etag in [t.strip() for t in request.headers["If-None-Match"].split(",")]
    return modified is not None and request.headers.get("If-Modified-Since") == modified


class Site:
    """`site = await Site.start(aiohttp_server)`; `site.url(path)`; `site.log` of requested paths."""

    def __init__(self, pages: dict[str, Page]) -> None:
        self.pages = pages
        self.log: list[str] = []
        self.not_modified: list[str] = []  # requests answered 304 (a page with ETag/Last-Modified headers)
        self.server: Any = None

    @classmethod
    async def start(cls, aiohttp_server: Any, pages: dict[str, Page] | None = None) -> Site:
        site = cls(pages or default_pages())
        app = web.Application()
        app.router.add_get("/{tail:.*}", site.handle)
        site.server = await aiohttp_server(app, host="127.0.0.1")
        return site

    async def handle(self, request: web.Request) -> web.Response:
        self.log.append(request.path_qs)
        page = self.pages.get(request.path)
        if page is not None and page.status == 200 and _not_modified(request, page.headers):
            self.not_modified.append(request.path_qs)
            return web.Response(status=304, headers={k: v for k, v in page.headers.items()
                                                     if k.lower() in ("etag", "last-modified")})
        if page is None:
            return web.Response(status=404, text="<html><head><title>Not Found</title></head><body>404</body></html>",
                                content_type="text/html")
        return web.Response(status=page.status, text=page.html, content_type="text/html", headers=page.headers)

    @property
    def host(self) -> str:
        return f"127.0.0.1:{self.port}"

    @property
    def port(self) -> int:
        return int(self.server.port)

    def url(self, path: str) -> str:
        return f"http://{self.host}{path}"

    def fetched(self, path: str) -> int:
        return sum(1 for p in self.log if p.split("?")[0] == path)


@contextlib.contextmanager
def threaded_site(pages: dict[str, Page] | None = None) -> Iterator[Site]:
    """The same site on its own event loop in a thread, for synchronous callers (the CLI runner)."""
    site = Site(pages or default_pages())
    loop = asyncio.new_event_loop()
    ready = threading.Event()
    holder: dict[str, Any] = {}

    async def start() -> None:
        app = web.Application()
        app.router.add_get("/{tail:.*}", site.handle)
        runner = web.AppRunner(app)
        await runner.setup()
        tcp = web.TCPSite(runner, "127.0.0.1", 0)
        await tcp.start()
        holder["runner"] = runner
        site.server = type("Bound", (), {"port": tcp._server.sockets[0].getsockname()[1]})()  # type: ignore[union-attr]
        ready.set()

    thread = threading.Thread(target=lambda: (loop.run_until_complete(start()), loop.run_forever()), daemon=True)
    thread.start()
    ready.wait(10)
    try:
        yield site
    finally:
        asyncio.run_coroutine_threadsafe(holder["runner"].cleanup(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)


class Restartable:
    """`with Restartable(pages) as server:` … `server.stop()` … `server.start()` (same port)."""

    def __init__(self, pages: dict[str, Page]) -> None:
        self.site = Site(pages)
        self.port = 0
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.runner: web.AppRunner | None = None

    def __enter__(self) -> Self:
        self.thread.start()
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)

    def start(self) -> None:
        asyncio.run_coroutine_threadsafe(self._start(), self.loop).result(10)

    def stop(self) -> None:
        if self.runner is not None:
            asyncio.run_coroutine_threadsafe(self.runner.cleanup(), self.loop).result(10)
            self.runner = None

    async def _start(self) -> None:
        app = web.Application()
        app.router.add_get("/{tail:.*}", self.site.handle)
        self.runner = web.AppRunner(app)
        await self.runner.setup()
        tcp = web.TCPSite(self.runner, "127.0.0.1", self.port, reuse_address=True)
        await tcp.start()
        self.port = self.port or int(tcp._server.sockets[0].getsockname()[1])  # type: ignore[union-attr]
        self.site.server = type("Bound", (), {"port": self.port})()

    def requests(self, path: str) -> int:
        return self.site.fetched(path)
