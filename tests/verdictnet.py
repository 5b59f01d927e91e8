"""Test doubles for verdicts and outages: a raw HTTP server on 127.0.0.1 (in its own thread, for the
CLI) whose paths misbehave after their headers, and a stub resolver with a switch for "no DNS at all"
and the control query `zone_exists` (citecheck.fetch.dns). Nothing here ever reaches real DNS."""
from __future__ import annotations

import asyncio
import socket
import threading
from collections import Counter
from typing import Any, Self

from aiohttp.abc import AbstractResolver, ResolveResult

ARTICLE = (b"<html><head><title>Harbor freight report 2023</title></head><body><h1>Harbor freight report</h1>"
           + b"<p>The harbor handled more freight than ever before in 2023, the port authority said.</p>" * 20
           + b"</body></html>")


class RawWeb:
    """`with RawWeb() as web`: web.port serves /ok (200), /missing (404), /stall (200 headers, then
    silence), /short (Content-Length 100000, 40 bytes, close), /hang (never answers), /flaky (503)."""

    def __init__(self) -> None:
        self.hits: Counter[str] = Counter()
        self.port = 0
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._server: asyncio.AbstractServer | None = None

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._server = self._loop.run_until_complete(asyncio.start_server(self._serve, "127.0.0.1", 0))
        self.port = self._server.sockets[0].getsockname()[1]
        self._ready.set()
        self._loop.run_forever()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            path = head.split(b" ", 2)[1].decode().split("?", 1)[0]
            self.hits[path] += 1
            await self._answer(path, writer)
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.CancelledError):
            pass
        finally:
            writer.close()

    async def _answer(self, path: str, writer: asyncio.StreamWriter) -> None:
        if path == "/hang":
            await asyncio.sleep(60)
        elif path == "/stall":
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 5000\r\n\r\n<html><title>st")
            await writer.drain()
            await asyncio.sleep(60)
        elif path == "/short":
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 100000\r\n\r\n"
                         b"<html><title>cut short</title><p>only th")
            await writer.drain()
        else:
            status, body = {"/ok": (b"200 OK", ARTICLE), "/flaky": (b"503 Service Unavailable", b"busy")}.get(
                path.rstrip("0123456789"), (b"404 Not Found", b"<html><title>Not found</title></html>"))
            writer.write(b"HTTP/1.1 " + status + b"\r\nContent-Type: text/html\r\nConnection: close\r\n"
                         b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
            await writer.drain()

    def __enter__(self) -> Self:
        self._thread.start()
        self._ready.wait(10)
        return self

    async def _shutdown(self) -> None:
        assert self._server is not None
        self._server.close()
        tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def __exit__(self, *exc: object) -> None:
        asyncio.run_coroutine_threadsafe(self._shutdown(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
        self._loop.close()


class SwitchDns(AbstractResolver):
    """Names in `table` resolve to `address` (127.0.0.1); names in `silent` never get an answer (EAI_AGAIN, a
    resolver timing out); others get "no such name". With `down` every name fails the same way (a
    sandbox without DNS). `zones`: what the control query finds."""

    def __init__(self, names: tuple[str, ...] = (), zones: tuple[str, ...] = (), silent: tuple[str, ...] = ()) -> None:
        self.table = set(names)
        self.zones = set(zones)
        self.silent = set(silent)
        self.address = "127.0.0.1"  # what every name in `table` resolves to
        self.down = False
        self.lookups: list[str] = []
        self.controls: list[str] = []

    async def resolve(self, host: str, port: int = 0, family: Any = socket.AF_INET) -> list[ResolveResult]:
        self.lookups.append(host)
        if host in self.silent:
            raise socket.gaierror(socket.EAI_AGAIN, "Temporary failure in name resolution")
        if self.down or host not in self.table:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return [ResolveResult(hostname=host, host=self.address, port=port, family=socket.AF_INET, proto=0,
                              flags=socket.AI_NUMERICHOST)]

    async def zone_exists(self, zone: str) -> bool:
        self.controls.append(zone)
        return not self.down and zone in self.zones

    async def close(self) -> None:
        return None
