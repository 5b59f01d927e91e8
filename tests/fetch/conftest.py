"""Servers the fetch tests share: the hostile web on the test's event loop (`site`) and the raw
socket web whose every answer a test scripts (`web`)."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from hostile import HostileWeb
from verdictnet import RawWeb


@pytest.fixture
async def site(aiohttp_server: Any) -> Any:
    """The hostile web (`hostile.HostileWeb`) on a loopback port of the test's loop; `.base` is its URL prefix."""
    web = HostileWeb()
    server = await aiohttp_server(web.app)
    web.base = f"http://127.0.0.1:{server.port}"  # type: ignore[attr-defined]
    return web


@pytest.fixture
def web() -> Iterator[RawWeb]:
    with RawWeb() as server:
        yield server
