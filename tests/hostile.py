"""A hostile web on 127.0.0.1 for fetch tests: one aiohttp app whose routes misbehave on purpose.

    /article /missing /gone /soft404 /pdf /bigtitle /deep /latin1 /linkedin /cf /cf503
    /chain/{n}            n redirect hops, then /article
    /loop/a <-> /loop/b   a redirect loop
    /to?url=…             302 to any Location (a private address, file://, credentials …)
    /ratelimit/{id}?n=&after=&date=   429 n times (Retry-After seconds or HTTP-date), then 200
    /flap/{id}?n=         503 n times, then 200
    /bomb /brbomb         gzip / brotli bombs;  /endless  a chunked body that never ends
    /drip                 one byte every 50 ms;  /echo  what headers arrived
`HostileWeb.hits` counts requests by path; `HostileWeb.headers` keeps every request's headers.
"""
from __future__ import annotations

import asyncio
import email.utils
import time
import zlib
from collections import Counter
from functools import cache
from typing import Any

from aiohttp import web

ARTICLE = ("<!doctype html><html><head><meta charset='utf-8'><title>Quantum harbor report</title>"
           "<link rel='canonical' href='https://example.org/quantum'>"
           "<meta name='description' content='A report.'></head>"
           "<body><article><h1>Quantum harbor report</h1><p>The harbor grew 45% in 2023.</p>"
           "<script>var hidden = 1;</script></article></body></html>")
NOT_FOUND = ("<html><head><title>Page not found</title></head><body><h1>Page not found</h1>"
             "<p>Sorry, the page you are looking for could not be found.</p></body></html>")
CHALLENGE = ("<html><head><title>Just a moment...</title></head><body>"
             "<div id='cf-browser-verification'>Checking your browser before accessing.</div></body></html>")


@cache
def gzip_bomb(size: int = 64 * 1024 * 1024) -> bytes:
    """`size` zero bytes as one gzip member (about 1000:1)."""
    packer = zlib.compressobj(6, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    block = b"\0" * (1024 * 1024)
    return b"".join(packer.compress(block) for _ in range(size // len(block))) + packer.flush()


@cache
def brotli_bomb(size: int = 64 * 1024 * 1024) -> bytes:
    import brotli

    return brotli.compress(b"\0" * size, quality=1)


class HostileWeb:
    def __init__(self) -> None:
        self.hits: Counter[str] = Counter()
        self.headers: list[dict[str, str]] = []
        self._counts: Counter[str] = Counter()
        self.app = web.Application(middlewares=[self._count])
        r = self.app.router
        for path, handler in {
            "/article": self.article, "/missing": self.missing, "/gone": self.gone, "/soft404": self.soft404,
            "/pdf": self.pdf, "/bigtitle": self.bigtitle, "/deep": self.deep, "/latin1": self.latin1,
            "/linkedin": self.linkedin, "/cf": self.cf, "/cf503": self.cf503, "/chain/{n}": self.chain,
            "/loop/{name}": self.loop, "/to": self.to, "/ratelimit/{id}": self.ratelimit, "/flap/{id}": self.flap,
            "/bomb": self.bomb, "/brbomb": self.brbomb, "/endless": self.endless, "/drip": self.drip,
            "/echo": self.echo,
        }.items():
            r.add_get(path, handler)

    @web.middleware
    async def _count(self, request: web.Request, handler: Any) -> web.StreamResponse:
        self.hits[request.path] += 1
        self.headers.append(dict(request.headers))
        return await handler(request)

    @staticmethod
    def html(text: str, status: int = 200, **headers: str) -> web.Response:
        return web.Response(text=text, status=status, content_type="text/html", headers=headers)

    async def article(self, request: web.Request) -> web.Response:
        return self.html(ARTICLE)

    async def missing(self, request: web.Request) -> web.Response:
        return self.html(NOT_FOUND, 404)

    async def gone(self, request: web.Request) -> web.Response:
        return self.html(NOT_FOUND, 410)

    async def soft404(self, request: web.Request) -> web.Response:
        return self.html(NOT_FOUND)

    async def pdf(self, request: web.Request) -> web.Response:
        return web.Response(body=b"%PDF-1.4\n" + b"0" * 5000 + b"\n%%EOF", content_type="application/pdf")

    async def bigtitle(self, request: web.Request) -> web.Response:
        return self.html(f"<html><head><title>{'T' * 100_000}</title></head><body>x</body></html>")

    async def deep(self, request: web.Request) -> web.Response:
        n = 100_000
        return self.html("<html><head><title>Deep</title></head><body>" + "<div>" * n + "bottom" + "</div>" * n)

    async def latin1(self, request: web.Request) -> web.Response:
        body = "<html><head><title>Caf\xe9 cr\xe8me</title></head><body>na\xefve</body></html>".encode("latin-1")
        return web.Response(body=body, headers={"Content-Type": "text/html; charset=utf-8"})

    async def linkedin(self, request: web.Request) -> web.Response:
        return web.Response(status=999, text="")

    async def cf(self, request: web.Request) -> web.Response:
        return self.html(CHALLENGE, 403, **{"cf-mitigated": "challenge", "Server": "cloudflare"})

    async def cf503(self, request: web.Request) -> web.Response:
        return self.html(CHALLENGE, 503, Server="cloudflare")

    async def chain(self, request: web.Request) -> web.Response:
        n = int(request.match_info["n"])
        raise web.HTTPFound(f"/chain/{n - 1}" if n > 1 else "/article")

    async def loop(self, request: web.Request) -> web.Response:
        raise web.HTTPMovedPermanently("/loop/b" if request.match_info["name"] == "a" else "/loop/a")

    async def to(self, request: web.Request) -> web.Response:
        return web.Response(status=302, headers={"Location": request.query["url"]})

    async def ratelimit(self, request: web.Request) -> web.Response:
        key = "rl" + request.match_info["id"]
        self._counts[key] += 1
        if self._counts[key] <= int(request.query.get("n", "1")):
            after = float(request.query.get("after", "1"))
            value = email.utils.formatdate(time.time() + after, usegmt=True) if "date" in request.query else f"{after:g}"
            return web.Response(status=429, text="slow down", headers={"Retry-After": value})
        return self.html(ARTICLE)

    async def flap(self, request: web.Request) -> web.Response:
        key = "flap" + request.match_info["id"]
        self._counts[key] += 1
        if self._counts[key] <= int(request.query.get("n", "2")):
            return web.Response(status=503, text="busy")
        return self.html(ARTICLE)

    async def bomb(self, request: web.Request) -> web.Response:
        return web.Response(body=gzip_bomb(), headers={"Content-Type": "text/html", "Content-Encoding": "gzip"})

    async def brbomb(self, request: web.Request) -> web.Response:
        return web.Response(body=brotli_bomb(), headers={"Content-Type": "text/html", "Content-Encoding": "br"})

    async def endless(self, request: web.Request) -> web.StreamResponse:
        response = web.StreamResponse(headers={"Content-Type": "text/html"})
        response.enable_chunked_encoding()
        await response.prepare(request)
        chunk = b"<p>" + b"x" * 65_000 + b"</p>"
        try:
            for _ in range(100_000):
                await response.write(chunk)
        except (ConnectionError, RuntimeError):
            pass
        return response

    async def drip(self, request: web.Request) -> web.StreamResponse:
        response = web.StreamResponse(headers={"Content-Type": "text/html"})
        await response.prepare(request)
        try:
            for _ in range(2000):
                await response.write(b"x")
                await asyncio.sleep(0.05)
        except (ConnectionError, RuntimeError):
            pass
        return response

    async def echo(self, request: web.Request) -> web.Response:
        return self.html("<html><body>echo</body></html>")
