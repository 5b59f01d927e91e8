"""A loopback site that can be stopped and started again on the same port (an outage, then a
recovery), serving `test_harvest_site.Site`'s pages and logging every request."""
from __future__ import annotations

import asyncio
import threading
from typing import Self

from aiohttp import web
from test_harvest_site import Page, Site


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


def test_restartable_refuses_while_stopped_and_answers_again_on_the_same_port() -> None:
    import socket

    with Restartable({"/x": Page(200, "<html>x</html>")}) as server:
        port = server.port
        server.stop()
        with socket.socket() as sock:
            assert sock.connect_ex(("127.0.0.1", port)) != 0
        server.start()
        assert server.port == port
        with socket.create_connection(("127.0.0.1", port), timeout=5):
            pass
