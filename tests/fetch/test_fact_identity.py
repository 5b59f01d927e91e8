"""Facts by exact URL (issue 26 item 6): the fetch cache answers only for the URL that was fetched,
normalised only where the request stays the same, and the run's redirect limit is applied to
stored walks as to fresh ones. Loopback servers and a stub resolver; nothing leaves 127.0.0.1."""
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
from citecheck.urls import dedupe_key, fact_key


class PathWeb(RawWeb):
    """Answers by the whole request target (query included) and logs every one: /dir/ and
    /q?id=1&id=2 are articles, /hop/N redirects to /hop/N-1 and /hop/0 is an article; the rest 404."""

    def __init__(self) -> None:
        super().__init__()
        self.log: list[str] = []

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")
            target = lines[0].split(" ")[1]
            host = next(line.split(":", 1)[1].strip() for line in lines if line.lower().startswith("host:"))
            self.log.append(f"{host.split(':')[0]}{target}")
            if target.startswith("/hop/") and target[5:].isdigit() and target != "/hop/0":
                step = int(target.rsplit("/", 1)[1])
                writer.write(f"HTTP/1.1 301 Moved\r\nLocation: /hop/{step - 1}\r\nContent-Length: 0\r\n\r\n".encode())
            else:
                ok = target in ("/dir/", "/q?id=1&id=2", "/hop/0")
                status, body = (b"200 OK", ARTICLE) if ok else (b"404 Not Found", b"<html><title>Not found</title></html>")
                writer.write(b"HTTP/1.1 " + status + b"\r\nContent-Type: text/html\r\nConnection: close\r\n"
                             b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
            await writer.drain()
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.CancelledError, StopIteration):
            pass
        finally:
            writer.close()


@pytest.fixture
def web() -> Iterator[PathWeb]:
    with PathWeb() as server:
        yield server


@pytest.fixture
def dns(monkeypatch: pytest.MonkeyPatch) -> SwitchDns:
    stub = SwitchDns(names=("www.real.gov", "files.real.gov"), zones=("gov",))
    monkeypatch.setattr("citecheck.fetch.dns.SystemResolver", lambda: stub)
    return stub


def audit(tmp_path: Path, urls: list[str], *extra: str) -> tuple[int, dict[str, Any]]:
    memo = tmp_path / "memo.md"
    memo.write_text("# Memo\n\n" + "".join(f"Claim {n} ([source]({url})).\n\n" for n, url in enumerate(urls)))
    result = CliRunner().invoke(main, ["audit", str(memo), "--format", "json", "--allow-private", "--timeout", "2",
                                       "--cache", str(tmp_path / "cache.sqlite"), "--ignore", "M008", *extra])
    return result.exit_code, json.loads(result.stdout or "{}")


def outcome(payload: dict[str, Any], url: str) -> set[str]:
    return {f["rule"] for f in payload["findings"] if f["url"] == url}


def test_facts_never_answer_for_another_spelling_of_the_source(web: PathWeb, dns: SwitchDns, tmp_path: Path) -> None:
    port = web.port
    fetched = [f"http://www.real.gov:{port}/dir/", f"http://files.real.gov:{port}/q?id=1&id=2"]
    code, payload = audit(tmp_path, fetched)
    assert code == 0 and payload["summary"]["outcomes"] == {"ok": 2}, payload["findings"]
    # same sources by the dedupe key, other requests: each must be asked, and none is ok
    others = [f"http://real.gov:{port}/dir/", f"http://www.real.gov:{port}/dir", f"http://files.real.gov:{port}/q?id=1"]
    assert all(dedupe_key(o) in {dedupe_key(f) for f in fetched} for o in others)
    before = list(web.log)
    code, payload = audit(tmp_path, fetched + others)
    assert code == 1 and payload["summary"]["from_cache"] == 2 and payload["summary"]["fetched_now"] == 3
    asked = [line for line in web.log[len(before):] if "citecheck-probe" not in line]
    assert sorted(asked) == ["files.real.gov/q?id=1", "www.real.gov/dir"]
    assert outcome(payload, others[0]) == {"H002"}  # real.gov: NXDOMAIN, corroborated by the .gov zone
    assert outcome(payload, others[1]) == {"H001"} and outcome(payload, others[2]) == {"H001"}
    assert outcome(payload, fetched[0]) == set() and outcome(payload, fetched[1]) == set()


def test_identity_keeping_spellings_share_facts(web: PathWeb, dns: SwitchDns, tmp_path: Path) -> None:
    port = web.port
    audit(tmp_path, [f"http://www.real.gov:{port}/dir/"])
    requests = len(web.log)
    code, payload = audit(tmp_path, [f"HTTP://WWW.Real.Gov:{port}/%64ir/#top"])
    assert code == 0 and payload["summary"]["from_cache"] == 1 and len(web.log) == requests


def test_max_redirects_applies_to_stored_walks(web: PathWeb, dns: SwitchDns, tmp_path: Path) -> None:
    url = f"http://www.real.gov:{web.port}/hop/3"
    code, payload = audit(tmp_path, [url])
    assert code == 0 and payload["summary"]["outcomes"] == {"ok": 1}
    fresh_dir = tmp_path / "fresh"
    fresh_dir.mkdir()
    fresh_code, fresh = audit(fresh_dir, [url], "--max-redirects", "2", "--fail-on", "warning")
    code, cached = audit(tmp_path, [url], "--max-redirects", "2", "--fail-on", "warning")
    assert cached["summary"]["from_cache"] == 0  # the stored 3-hop walk is not one this run would make
    assert (code, without_path(cached)) == (fresh_code, without_path(fresh)) and code == 1
    assert "redirect" in cached["findings"][0]["message"]
    code, again = audit(tmp_path, [url], "--max-redirects", "3")
    assert code == 0 and again["summary"]["from_cache"] == 1


def without_path(payload: dict[str, Any]) -> list[dict[str, Any]]:
    return [{k: v for k, v in f.items() if k != "path"} for f in payload["findings"]]


@pytest.mark.parametrize("a,b", [
    ("HTTP://Example.COM/a", "http://example.com/a"), ("https://example.com:443/a", "https://example.com/a"),
    ("http://example.com:80", "http://example.com/"), ("http://example.com/%7Euser/%61", "http://example.com/~user/a"),
    ("http://example.com/a%2fb", "http://example.com/a%2Fb"), ("http://example.com/a#frag", "http://example.com/a"),
])
def test_fact_key_keeps_identity(a: str, b: str) -> None:
    assert fact_key(a) == fact_key(b)


@pytest.mark.parametrize("a,b", [
    ("http://www.example.com/a", "http://example.com/a"), ("http://example.com/a", "https://example.com/a"),
    ("http://example.com/dir", "http://example.com/dir/"), ("http://example.com/?id=1", "http://example.com/?id=1&id=1"),
    ("http://example.com/?a=1&b=2", "http://example.com/?b=2&a=1"), ("http://example.com/a%2Fb", "http://example.com/a/b"),
    ("http://example.com/A", "http://example.com/a"), ("http://example.com:8080/", "http://example.com/"),
    ("http://example.com/?utm_source=x", "http://example.com/"),
])
def test_fact_key_never_merges_other_requests(a: str, b: str) -> None:
    assert fact_key(a) != fact_key(b)


def test_harvest_judges_each_spelling_on_its_own_page(dns: SwitchDns, tmp_path: Path) -> None:
    """Two candidates of one source by the dedupe key: the bare domain does not exist, the www one
    does. Each is judged on its own fetch; the verdict of one never speaks for the other."""
    from harvestkit import cli, pages
    from harvestsite import Restartable

    with Restartable(pages()) as server:
        listed = tmp_path / "Sources.md"
        listed.write_text(f"- [Road freight statistics 2023](http://real.gov:{server.port}/a)\n"
                          f"- [Road freight statistics 2023](http://www.real.gov:{server.port}/a)\n")
        result = cli("--urls", str(listed), "-o", str(tmp_path / "corpus.json"), "--allow", "www.real.gov",
                     "--cache", str(tmp_path / "cache.sqlite"), "--timeout", "2",
                     "--rejects", str(tmp_path / "rejects.json"))
    assert result.exit_code == 0, result.stderr
    corpus = json.loads((tmp_path / "corpus.json").read_text())
    assert [e["url"] for e in corpus] == [f"http://www.real.gov:{server.port}/a"]
    assert corpus[0]["final_url"] == corpus[0]["url"]  # fetched at that very URL


@pytest.mark.parametrize("url", ["https://www.example.org/reports/2024/item-7?id=7&lang=en", "http://a.com/",
                                 "https://a.b.c/x;p?q=1", "http://a.com/?q=a+b", "http://a.com/a/b/"])
def test_fact_key_fast_path_is_the_parsed_form(url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import re

    import citecheck.urls as urls

    fast = urls.fact_key.__wrapped__(url)  # type: ignore[attr-defined]
    monkeypatch.setattr(urls, "_PLAIN_URL", re.compile(r"(?!)"))
    assert urls.fact_key.__wrapped__(url) == fast == url  # type: ignore[attr-defined]
