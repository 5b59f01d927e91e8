"""Network-level test doubles: raw TCP misbehaviour, a canary that must never be reached, a stub DNS
resolver and socket factories that record (or translate) every connection attempt.

Everything listens on 127.0.0.1; the "public" addresses the stub resolver hands out are only ever
translated to a loopback port by `NatSockets`, never connected to.
"""
from __future__ import annotations

import asyncio
import socket
import struct
import threading
from collections.abc import Awaitable, Callable
from typing import Any, Self

from aiohttp import web
from aiohttp.abc import AbstractResolver, ResolveResult

Handler = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


class RawServer:
    """`async with RawServer(handler) as srv`: an asyncio TCP server on 127.0.0.1:srv.port."""

    def __init__(self, handler: Handler) -> None:
        self.handler = handler
        self.connections = 0
        self.port = 0
        self._server: asyncio.AbstractServer | None = None

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            await self.handler(reader, writer)
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            writer.close()

    async def __aenter__(self) -> Self:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._server is not None
        self._server.close()


async def read_request(reader: asyncio.StreamReader) -> bytes:
    return await reader.readuntil(b"\r\n\r\n")


async def canary(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """A server that must never be reached: answers 200 so that a leak would look like success."""
    await read_request(reader)
    writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
    await writer.drain()


async def endless_headers(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    await read_request(reader)
    writer.write(b"HTTP/1.1 200 OK\r\n")
    for n in range(10_000):
        writer.write(f"X-Drip-{n}: a\r\n".encode())
        await writer.drain()
        await asyncio.sleep(0.05)


async def short_body(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Content-Length promises 100 000 bytes; 30 arrive, then the connection closes."""
    await read_request(reader)
    writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 100000\r\n\r\n<html><title>cut</title>")
    await writer.drain()


async def long_body(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Content-Length says 27 bytes; more follow (a lying length the other way)."""
    await read_request(reader)
    writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 27\r\n\r\n"
                 b"<html><title>ok</title>    TRAILING GARBAGE" * 1)
    await writer.drain()


async def reset_mid_body(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Half the promised body, then a TCP reset (SO_LINGER 0)."""
    await read_request(reader)
    writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 100000\r\n\r\n" + b"<p>x</p>" * 1000)
    await writer.drain()
    await asyncio.sleep(0.05)
    sock = writer.get_extra_info("socket")
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    writer.transport.abort()


class StubResolver(AbstractResolver):
    """Test DNS: name → answers (a list per lookup; the last one repeats). Unknown names raise the
    same socket.gaierror(EAI_NONAME) that aiohttp's ThreadedResolver lets through for NXDOMAIN."""

    def __init__(self, table: dict[str, list[list[str]]]) -> None:
        self.table = table
        self.lookups: list[str] = []

    async def resolve(self, host: str, port: int = 0, family: int = socket.AF_INET) -> list[ResolveResult]:
        self.lookups.append(host)
        answers = self.table.get(host)
        if answers is None:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        index = min(sum(1 for h in self.lookups if h == host) - 1, len(answers) - 1)
        return [ResolveResult(hostname=host, host=ip, port=port, family=socket.AF_INET6 if ":" in ip else socket.AF_INET,
                              proto=0, flags=socket.AI_NUMERICHOST) for ip in answers[index]]

    async def close(self) -> None:
        return None


class RecordingSockets:
    """aiohttp `socket_factory`: remembers every address a connection was attempted to."""

    def __init__(self) -> None:
        self.addresses: list[tuple[str, int]] = []

    def __call__(self, addr_info: Any) -> socket.socket:
        family, type_, proto, _, address = addr_info
        self.addresses.append((address[0], address[1]))
        return socket.socket(family, type_, proto)


class NatSockets(RecordingSockets):
    """Like RecordingSockets, and connects a "public" test address to a loopback port instead."""

    def __init__(self, nat: dict[str, int]) -> None:
        super().__init__()
        self.nat = nat

    def __call__(self, addr_info: Any) -> socket.socket:
        family, type_, proto, _, address = addr_info
        self.addresses.append((address[0], address[1]))
        return _NatSocket(family, type_, proto, nat=self.nat)


class _NatSocket(socket.socket):
    def __init__(self, *args: Any, nat: dict[str, int]) -> None:
        super().__init__(*args)
        self.nat = nat

    def connect(self, address: Any) -> None:  # type: ignore[override]
        if address[0] in self.nat:
            address = ("127.0.0.1", self.nat[address[0]])
        return super().connect(address)


class ServerThread:
    """An aiohttp app served from its own thread and loop, for sync callers (CLI, `citecheck.audit`)."""

    def __init__(self, app: web.Application) -> None:
        self.app = app
        self.port = 0
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._runner = web.AppRunner(self.app)
        self._loop.run_until_complete(self._runner.setup())
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        self._loop.run_until_complete(site.start())
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self._ready.set()
        self._loop.run_forever()

    def __enter__(self) -> Self:
        self._thread.start()
        self._ready.wait(10)
        return self

    def __exit__(self, *exc: object) -> None:
        asyncio.run_coroutine_threadsafe(self._runner.cleanup(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
