"""Bounded body reading: at most `max_body` bytes off the wire, at most `max_decompressed` bytes
out of the decoder (gzip, deflate and brotli decoded here, with aiohttp's auto-decompression off,
so a gzip bomb stops at the cap instead of filling memory)."""
from __future__ import annotations

import zlib
from typing import Any

try:
    import brotli
except ImportError:  # pragma: no cover - brotli is optional
    brotli = None

ACCEPT_ENCODING = "gzip, deflate, br" if brotli is not None else "gzip, deflate"
CHUNK = 64 * 1024
_DECODE_ERRORS: tuple[type[Exception], ...] = (zlib.error,) if brotli is None else (zlib.error, brotli.error)


class Bomb(Exception):
    """The decoded body passed max_decompressed."""


class Undecodable(Exception):
    """The body is not valid in its declared content coding."""


class Decoder:
    """Incremental decoder for one Content-Encoding, bounded in output."""

    def __init__(self, encoding: str, limit: int) -> None:
        self.encoding = encoding.strip().lower()
        self.limit = limit
        self.parts: list[bytes] = []
        self.size = 0
        self._zlib: Any = None
        self._brotli: Any = None
        if self.encoding in ("gzip", "x-gzip"):
            self._zlib = zlib.decompressobj(16 + zlib.MAX_WBITS)
        elif self.encoding == "br" and brotli is not None:
            self._brotli = brotli.Decompressor()
        elif self.encoding not in ("", "identity", "deflate"):
            raise Undecodable(f"unsupported content-encoding {encoding!r}")

    def feed(self, data: bytes) -> None:
        if not data:
            return
        if self.encoding == "deflate" and self._zlib is None:
            # "deflate" should be zlib-wrapped, but many servers send raw deflate
            wrapped = len(data) > 1 and data[0] & 0x0F == 8 and (data[0] << 8 | data[1]) % 31 == 0
            self._zlib = zlib.decompressobj(zlib.MAX_WBITS if wrapped else -zlib.MAX_WBITS)
        try:
            if self._zlib is not None:
                self._keep(self._zlib.decompress(data, self.limit - self.size + 1))
                if self._zlib.unconsumed_tail:
                    raise Bomb()
            elif self._brotli is not None:
                self._feed_brotli(data)
            else:
                self._keep(data)
        except _DECODE_ERRORS as err:
            raise Undecodable(str(err)) from None

    def _feed_brotli(self, data: bytes) -> None:
        out = self._brotli.process(data, output_buffer_limit=self.limit - self.size + 1)
        self._keep(out)
        while not self._brotli.can_accept_more_data():
            self._keep(self._brotli.process(b"", output_buffer_limit=self.limit - self.size + 1))

    def _keep(self, out: bytes) -> None:
        room = self.limit - self.size
        if len(out) > room:
            self.parts.append(out[:room])
            self.size = self.limit
            raise Bomb()
        if out:
            self.parts.append(out)
            self.size += len(out)

    def result(self) -> bytes:
        return b"".join(self.parts)


class BodyReader:
    """Reads one response body up to the caps; what arrived stays readable after a failure."""

    def __init__(self, encoding: str, max_body: int, max_decompressed: int) -> None:
        self.max_body = max_body
        self.wire_bytes = 0
        self.error = ""  # "" | body-too-large | decompression-bomb | invalid-response
        self.exception: BaseException | None = None  # transport failure mid-body (reset, timeout …)
        try:
            self.decoder: Decoder | None = Decoder(encoding, max_decompressed)
        except Undecodable:
            self.decoder, self.error = None, "invalid-response"

    @property
    def data(self) -> bytes:
        return self.decoder.result() if self.decoder is not None else b""

    async def read(self, content: Any) -> None:
        """Read until EOF or a cap; transport errors are recorded, never raised."""
        if self.decoder is None:
            return
        try:
            while True:
                chunk = await content.readany()
                if not chunk:
                    return
                room = self.max_body - self.wire_bytes
                self.wire_bytes += len(chunk)
                if len(chunk) > room:
                    self.decoder.feed(chunk[:room])
                    self.error = "body-too-large"
                    return
                self.decoder.feed(chunk)
        except Bomb:
            self.error = "decompression-bomb"
        except Undecodable:
            self.error = "invalid-response"
        except Exception as err:  # noqa: BLE001 - the caller classifies it (reset, timeout, invalid-response)
            self.exception = err
