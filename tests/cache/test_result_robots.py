"""robots.txt speaks before the stored whole-audit result too (issue 26, item 6's leftovers): the
result is served only while the robots.txt rules the cache holds, each within its day, allow every
cited URL; a site that disallows citecheck since then is asked, as the fact cache's run asks it.
Loopback server and a stub resolver; nothing leaves 127.0.0.1."""
from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from verdictnet import ARTICLE, RawWeb, SwitchDns

from citecheck.cli import main


class RobotsWeb(RawWeb):
    """/article (200) and a robots.txt that disallows it once `disallow` is set."""

    def __init__(self) -> None:
        super().__init__()
        self.disallow = False
        self.log: list[str] = []

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            target = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split(" ")[1]
            self.log.append(target)
            if target == "/robots.txt":
                status, body, kind = b"200 OK", b"User-agent: *\nDisallow: /article\n" if self.disallow else b"", b"text/plain"
            elif target == "/article":
                status, body, kind = b"200 OK", ARTICLE, b"text/html"
            else:
                status, body, kind = b"404 Not Found", b"<html><title>Not found</title></html>", b"text/html"
            writer.write(b"HTTP/1.1 " + status + b"\r\nContent-Type: " + kind + b"\r\nConnection: close\r\n"
                         b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
            await writer.drain()
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.CancelledError):
            pass
        finally:
            writer.close()


@pytest.fixture
def web() -> Iterator[RobotsWeb]:
    with RobotsWeb() as server:
        yield server


@pytest.fixture
def dns(monkeypatch: pytest.MonkeyPatch) -> SwitchDns:
    stub = SwitchDns(names=("www.real.gov",), zones=("gov",))
    monkeypatch.setattr("citecheck.fetch.dns.SystemResolver", lambda: stub)
    return stub


def audit(tmp_path: Path, url: str) -> dict[str, Any]:
    memo = tmp_path / "memo.md"
    memo.write_text(f"# Memo\n\nHarbor freight ([Harbor freight report 2023]({url})).\n")
    result = CliRunner().invoke(main, ["audit", str(memo), "--format", "json", "--allow-private", "--timeout", "2",
                                       "--cache", str(tmp_path / "cache.sqlite"), "--ignore", "M008"])
    assert result.stdout, result.stderr
    return json.loads(result.stdout)["summary"]


def test_a_stored_result_is_not_served_past_robots_txt(web: RobotsWeb, dns: SwitchDns, tmp_path: Path) -> None:
    url = f"http://www.real.gov:{web.port}/article"
    assert audit(tmp_path, url)["outcomes"] == {"ok": 1}
    again = audit(tmp_path, url)
    assert again.get("from_result_cache") is True and again["outcomes"] == {"ok": 1}
    web.disallow = True  # the site now disallows citecheck; the rules stored a day ago have expired
    with sqlite3.connect(tmp_path / "cache.sqlite") as conn:
        conn.execute("UPDATE extras SET data = json_set(data, '$.fetched', ?) WHERE kind = 'robots'",
                     [time.time() - 2 * 86400])
    now = audit(tmp_path, url)
    assert not now.get("from_result_cache") and now["outcomes"] == {"unverifiable": 1}, now
    assert web.log.count("/article") == 1  # asked once, by the first run; never again
