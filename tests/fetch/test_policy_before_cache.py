"""The run's policy speaks before the fact cache, for every knob that changes a verdict (issue 26
item 6): robots.txt on the hops of a stored redirect walk, the body-size caps, the per-host request
headers (and `--max-redirects`, in test_fact_identity). A fact stored under another policy is not
served: the URL is fetched again, and the run reports what a run on an empty cache reports.
Loopback servers and a stub resolver; nothing leaves 127.0.0.1."""
from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from verdictnet import ARTICLE, RawWeb, SwitchDns

from citecheck.cli import main
from citecheck.fetch.guard import Guard
from citecheck.models import Outcome, Page

NOT_FOUND = b"<html><title>Not found</title></html>"


class PolicyWeb(RawWeb):
    """www.real.gov: /article (200), /hop (301 to other.real.gov/private/page), /secret (200 with the
    header X-Token: t, else 404); other.real.gov: /private/page (200), and a robots.txt that
    disallows /private/ when `strict_robots` is set. Every request is logged as host + target."""

    def __init__(self) -> None:
        super().__init__()
        self.log: list[str] = []
        self.strict_robots = True

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1")
            lines = head.split("\r\n")
            target = lines[0].split(" ")[1]
            headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:] if line)}
            host = headers["host"].split(":")[0]
            self.log.append(f"{host}{target}")
            writer.write(self._answer_for(host, target, headers))
            await writer.drain()
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.CancelledError):
            pass
        finally:
            writer.close()

    def _answer_for(self, host: str, target: str, headers: dict[str, str]) -> bytes:
        if target == "/hop":
            return (f"HTTP/1.1 301 Moved\r\nLocation: http://other.real.gov:{self.port}/private/page\r\n"
                    "Content-Length: 0\r\nConnection: close\r\n\r\n").encode()
        if target == "/robots.txt":
            rules = b"User-agent: *\nDisallow: /private/\n" if host == "other.real.gov" and self.strict_robots else b""
            return _response(b"200 OK", rules, b"text/plain")
        ok = target in ("/article", "/private/page") or (target == "/secret" and headers.get("x-token") == "t")
        return _response(b"200 OK", ARTICLE) if ok else _response(b"404 Not Found", NOT_FOUND)


def _response(status: bytes, body: bytes, content_type: bytes = b"text/html") -> bytes:
    return (b"HTTP/1.1 " + status + b"\r\nContent-Type: " + content_type + b"\r\nConnection: close\r\n"
            b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)


@pytest.fixture
def web() -> Iterator[PolicyWeb]:
    with PolicyWeb() as server:
        yield server


@pytest.fixture
def dns(monkeypatch: pytest.MonkeyPatch) -> SwitchDns:
    stub = SwitchDns(names=("www.real.gov", "other.real.gov"), zones=("gov",))
    monkeypatch.setattr("citecheck.fetch.dns.SystemResolver", lambda: stub)
    return stub


def audit(folder: Path, url: str, *extra: str, fetch: dict[str, Any] | None = None) -> tuple[int, dict[str, Any]]:
    folder.mkdir(exist_ok=True)
    memo = folder / "memo.md"
    memo.write_text(f"# Memo\n\nHarbor freight report ([Harbor freight report 2023]({url})).\n")
    config = folder / "citecheck.yaml"
    config.write_text(json.dumps({"fetch": fetch or {}}))
    result = CliRunner().invoke(main, ["audit", str(memo), "--format", "json", "--allow-private", "--timeout", "2",
                                       "--cache", str(folder.parent / "cache.sqlite"), "--config", str(config),
                                       "--ignore", "M008", "--fail-on", "warning", *extra])
    assert result.stdout, result.stderr
    return result.exit_code, json.loads(result.stdout or "{}")


def findings(payload: dict[str, Any]) -> list[tuple[str, str]]:
    return sorted((f["rule"], f["message"]) for f in payload["findings"])


def same_as_empty_cache(tmp_path: Path, url: str, *extra: str, fetch: dict[str, Any] | None = None) -> dict[str, Any]:
    """The report of a run with this policy on an empty cache (its own folder, its own cache)."""
    fresh = tmp_path / "empty"
    fresh.mkdir()
    _, payload = audit(fresh / "run", url, *extra, fetch=fetch)
    return payload


def test_robots_txt_of_a_stored_hop_is_asked_before_the_cache(web: PolicyWeb, dns: SwitchDns, tmp_path: Path) -> None:
    url = f"http://www.real.gov:{web.port}/hop"
    _, first = audit(tmp_path / "a", url, "--ignore-robots")
    assert first["summary"]["outcomes"] == {"ok": 1}, first["findings"]
    expected = same_as_empty_cache(tmp_path, url)
    assert expected["summary"]["outcomes"] == {"unverifiable": 1}
    before = len(web.log)
    _code, payload = audit(tmp_path / "b", url)
    assert payload["summary"]["from_cache"] == 0  # the stored walk went through a hop robots.txt now disallows
    assert findings(payload) == findings(expected) and payload["summary"]["outcomes"] == {"unverifiable": 1}
    assert "other.real.gov/private/page" not in web.log[before:]  # the disallowed hop is never requested
    web.strict_robots = False  # a site that allows it again: the stored robots.txt answers for a day,
    _, again = audit(tmp_path / "c", url, "--ignore-robots")  # the stored fact, for a run that may use it
    assert again["summary"]["outcomes"] == {"ok": 1} and again["summary"]["from_cache"] == 1


def test_a_body_stored_whole_is_not_served_to_a_run_with_a_smaller_cap(web: PolicyWeb, dns: SwitchDns,
                                                                        tmp_path: Path) -> None:
    url = f"http://www.real.gov:{web.port}/article"
    code, first = audit(tmp_path / "a", url)
    assert code == 0 and first["summary"]["outcomes"] == {"ok": 1}, first["findings"]
    small = {"max-body": 1000}
    expected = same_as_empty_cache(tmp_path, url, fetch=small)
    assert [rule for rule, _ in findings(expected)] == ["H011"]  # truncated-body
    _, payload = audit(tmp_path / "b", url, fetch=small)
    assert payload["summary"]["from_cache"] == 0 and findings(payload) == findings(expected)
    code, again = audit(tmp_path / "c", url)  # the cut body is not served to the default cap either
    assert code == 0 and again["summary"]["from_cache"] == 0 and findings(again) == []
    code, again = audit(tmp_path / "d", url, fetch={"max-body": len(ARTICLE)})  # a cap the body fits: served
    assert code == 0 and again["summary"]["from_cache"] == 1


def test_an_answer_to_request_headers_is_not_served_to_a_run_without_them(web: PolicyWeb, dns: SwitchDns,
                                                                          tmp_path: Path) -> None:
    url = f"http://www.real.gov:{web.port}/secret"
    code, first = audit(tmp_path / "a", url, "--header", "www.real.gov:X-Token:t")
    assert code == 0 and first["summary"]["outcomes"] == {"ok": 1}, first["findings"]
    expected = same_as_empty_cache(tmp_path, url)
    assert expected["summary"]["outcomes"] == {"dead": 1}
    code, payload = audit(tmp_path / "b", url)
    assert payload["summary"]["from_cache"] == 0 and code == 1 and findings(payload) == findings(expected)
    code, again = audit(tmp_path / "c", url, "--header", "www.real.gov:X-Token:t")  # nor the other way round
    assert code == 0 and again["summary"]["from_cache"] == 0 and again["summary"]["outcomes"] == {"ok": 1}
    code, again = audit(tmp_path / "d", url, "--header", "www.real.gov:X-Token:t")
    assert code == 0 and again["summary"]["from_cache"] == 1


@pytest.mark.parametrize("stored,caps,served", [
    ({"wire_bytes": 5000, "body_bytes": 5000}, (5000, 5000), True),
    ({"wire_bytes": 5000, "body_bytes": 5000}, (4999, 8000), False),
    ({"wire_bytes": 1000, "body_bytes": 9000}, (2000, 8000), False),  # decodes past max-decompressed
    ({"wire_bytes": 1500, "body_bytes": 1000, "error": "body-too-large"}, (1200, 8000), True),  # cut by this cap too
    ({"wire_bytes": 1500, "body_bytes": 1000, "error": "body-too-large"}, (1500, 8000), False),  # might fit whole now
    ({"wire_bytes": 300, "body_bytes": 4000, "error": "decompression-bomb"}, (2000, 4000), True),
    ({"wire_bytes": 300, "body_bytes": 4000, "error": "decompression-bomb"}, (2000, 4001), False),
    ({"content_length": 3000}, (2000, 8000), False),  # a row from before sizes were recorded
    ({"content_length": 3000}, (3000, 8000), True),
])
def test_guard_reads_stored_bodies_as_its_caps_would(stored: dict[str, Any], caps: tuple[int, int],
                                                      served: bool) -> None:
    page = Page(url="https://example.org/a", outcome=Outcome.OK, status=200, **stored)
    assert Guard(caps=caps).holds(page) is served
    assert Guard().holds(page)  # a reader that judges nothing (curate) has no caps of its own


def test_facts_of_the_strict_policy_are_not_served_to_a_run_that_sends_headers(tmp_path: Path) -> None:
    from citecheck.fetch.cache import Cache

    page = Page(url="https://example.org/a", outcome=Outcome.DEAD, status=404, wire_bytes=10, body_bytes=10)
    with Cache(tmp_path / "c.sqlite", Guard()) as strict:
        strict.put(page)
    with Cache(tmp_path / "c.sqlite", Guard(("example.org",))) as wider:  # a wider allowlist: the same request
        assert wider.get(page.url, 30) is not None
    with Cache(tmp_path / "c.sqlite", Guard(headers={"example.org": {"Cookie": "session=1"}})) as token:
        assert token.get(page.url, 30) is None
