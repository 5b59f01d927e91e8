"""Re-harvesting is a merge, on a real server that goes down, comes back and loses a page.

The issue's scenario end to end through the CLI: harvest three pages → stop the server →
re-harvest keeps all three, stale, same IDs (a loopback server says nothing about the network) →
restart with one page now 404 → the live pages keep their IDs, the 404 is retired with its
evidence, and a URL added in the same run does not get its ID; when the page comes back it regains
it. And with outside names whose DNS goes away (the network is down): exit 2, the corpus and its
registry byte-identical.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from harvestkit import cli, harvest, ids, listing, pages
from harvestsite import Page, Restartable, article
from verdictnet import SwitchDns

pytestmark = pytest.mark.slow  # servers, subprocesses or many generated cases: the full suite, not the inner loop


def test_outage_then_a_dead_page_then_its_return(tmp_path: Path) -> None:
    with Restartable(pages()) as server:
        listed = listing(server, tmp_path, "/a", "/b", "/c")
        first = harvest(server, tmp_path, listed)
        assert first.exit_code == 0, first.stderr
        assert ids(tmp_path) == {"/a": "src-001", "/b": "src-002", "/c": "src-003"}
        assert "merge into" in first.stderr and "3 added" in first.stderr
        registry = (tmp_path / "corpus.json.ids").read_bytes()

        server.stop()
        down = harvest(server, tmp_path, listed, "--max-age", "0")
        assert down.exit_code == 0, down.stderr
        assert ids(tmp_path) == {"/a": "src-001", "/b": "src-002", "/c": "src-003"}
        stale = json.loads((tmp_path / "corpus.json").read_text())
        assert all(e["stale"] is True and "refused" in e["stale_reason"] for e in stale)
        assert "3 stale" in down.stderr and (tmp_path / "corpus.json.ids").read_bytes() == registry

        server.site.pages["/b"] = Page(404, "<html><head><title>Not Found</title></head><body>gone</body></html>")
        server.start()  # the same port
        listed = listing(server, tmp_path, "/a", "/c", "/d")  # /b no longer listed; /d is new
        back = harvest(server, tmp_path, listed, "--max-age", "0")
        assert back.exit_code == 0, back.stderr
        assert ids(tmp_path) == {"/a": "src-001", "/c": "src-003", "/d": "src-004"}  # src-002 not reused
        assert not any("stale" in e for e in json.loads((tmp_path / "corpus.json").read_text()))
        data = json.loads((tmp_path / "corpus.json.ids").read_text())
        retired = data["retired"]
        assert [r["id"] for r in retired] == ["src-002"] and retired[0]["rule"] == "H001"
        assert retired[0]["url"] == server.site.url("/b") and "404" in retired[0]["reason"]
        assert retired[0]["retired_at"] and retired[0]["last_verified"]
        assert "1 retired" in back.stderr and "src-002" in back.stderr
        assert "Merge into the corpus" in (tmp_path / "report.html").read_text()

        server.site.pages["/b"] = pages()["/b"]  # it comes back, found again
        listed = listing(server, tmp_path, "/a", "/c", "/d", "/b")
        again = harvest(server, tmp_path, listed, "--max-age", "0")
        assert again.exit_code == 0, again.stderr
        assert ids(tmp_path) == {"/a": "src-001", "/c": "src-003", "/d": "src-004", "/b": "src-002"}
        assert "regained its ID" in again.stderr
        assert json.loads((tmp_path / "corpus.json.ids").read_text())["retired"] == []


def test_network_unavailable_exits_2_and_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    dns = SwitchDns(names=("harbor-data.org", "slow-archive.org"), zones=("org",))
    monkeypatch.setattr("citecheck.fetch.dns.SystemResolver", lambda: dns)
    with Restartable(pages()) as server:
        listed = tmp_path / "Sources.md"
        listed.write_text("".join(f"- [{t}](http://{h}:{server.port}{p})\n" for h, p, t in
                                  (("harbor-data.org", "/a", "Road freight statistics 2023"),
                                   ("slow-archive.org", "/b", "Goods transport by road in Germany"))))
        args = ["--urls", str(listed), "-o", str(tmp_path / "corpus.json"), "--allow", "harbor-data.org",
                "--allow", "slow-archive.org", "--cache", str(tmp_path / "cache.sqlite"), "--max-age", "0",
                "--timeout", "2"]
        assert cli(*args).exit_code == 0
        corpus, registry = (tmp_path / "corpus.json").read_bytes(), (tmp_path / "corpus.json.ids").read_bytes()
        dns.down = True  # no name resolves any more: the network, not the site, is gone
        down = cli(*args)
    assert down.exit_code == 2, down.stderr
    assert "network unavailable: 0 of 2 hosts reachable" in down.stderr and "corpus.json is unchanged" in down.stderr
    assert len(down.stderr.strip().splitlines()) <= 3 and "Traceback" not in down.stderr
    assert (tmp_path / "corpus.json").read_bytes() == corpus and (tmp_path / "corpus.json.ids").read_bytes() == registry


def test_unverifiable_now_is_kept_stale_with_its_last_good_facts(tmp_path: Path) -> None:
    with Restartable(pages()) as server:
        listed = listing(server, tmp_path, "/a", "/b")
        assert harvest(server, tmp_path, listed).exit_code == 0
        before = {e["id"]: e for e in json.loads((tmp_path / "corpus.json").read_text())}
        server.site.pages["/b"] = Page(503, "<html><body>busy</body></html>")
        server.site.pages["/a"] = Page(200, server.site.pages["/a"].html.replace("2 per cent", "2.4 per cent"))
        result = harvest(server, tmp_path, listed, "--max-age", "0")
    assert result.exit_code == 0, result.stderr
    after = {e["id"]: e for e in json.loads((tmp_path / "corpus.json").read_text())}
    assert list(after) == ["src-001", "src-002"]
    stale = after["src-002"]
    assert stale["stale"] is True and stale["last_verified"] == before["src-002"]["fetched_at"]
    assert "503" in stale["stale_reason"] or "server" in stale["stale_reason"]
    assert {k: v for k, v in stale.items() if k not in ("stale", "last_verified", "stale_reason")} == before["src-002"]
    assert "2.4 per cent" in after["src-001"]["summary"] and "stale" not in after["src-001"]
    assert "1 refreshed" in result.stderr and "1 stale" in result.stderr


def test_dry_run_prints_the_merge_and_writes_nothing(tmp_path: Path) -> None:
    with Restartable(pages()) as server:
        listed = listing(server, tmp_path, "/a", "/b")
        fresh = harvest(server, tmp_path, listed, "--dry-run", "--rejects", str(tmp_path / "rejects.json"))
        assert fresh.exit_code == 0 and "2 added" in fresh.stderr and "nothing written" in fresh.stderr
        assert not any((tmp_path / n).exists() for n in ("corpus.json", "corpus.json.ids", "rejects.json", "report.html"))
        assert harvest(server, tmp_path, listed).exit_code == 0
        corpus, registry = (tmp_path / "corpus.json").read_bytes(), (tmp_path / "corpus.json.ids").read_bytes()
        server.site.pages["/a"] = Page(410, "gone")
        dry = harvest(server, tmp_path, listed, "--dry-run", "--max-age", "0")
    assert "1 retired" in dry.stderr and "src-001" in dry.stderr
    assert (tmp_path / "corpus.json").read_bytes() == corpus and (tmp_path / "corpus.json.ids").read_bytes() == registry


def test_too_little_main_text_earns_no_id(tmp_path: Path) -> None:
    shell = ('<!doctype html><html><head><title>Freight dashboard</title><script src="/app.js"></script></head>'
             '<body><div id="root"></div><noscript>Enable JavaScript.</noscript></body></html>')
    with Restartable({**pages(), "/app": Page(200, shell)}) as server:
        listed = listing(server, tmp_path, "/a", "/app")
        result = harvest(server, tmp_path, listed, "--rejects", str(tmp_path / "rejects.json"))
        assert result.exit_code == 0, result.stderr
        assert ids(tmp_path) == {"/a": "src-001"}
        reject = json.loads((tmp_path / "rejects.json").read_text())["rejects"][0]
        assert reject["reasons"][0]["name"] == "thin-excerpt" and "fewer than the 200" in reject["reasons"][0]["message"]
        lower = harvest(server, tmp_path, listed, "--min-excerpt", "0", "-o", str(tmp_path / "other.json"))
    assert lower.exit_code == 0
    assert len(json.loads((tmp_path / "other.json").read_text())) == 2


def test_metered_wall_with_the_text_present_is_kept_with_access(tmp_path: Path) -> None:
    metered = article("City council passes budget", "The council voted 7-2 on Tuesday to pass the budget.",
                      extra_body="<aside>You have 2 free articles left this month. Subscribe for unlimited "
                                 "access.</aside>")
    with Restartable({**pages(), "/metered": Page(200, metered)}) as server:
        listed = listing(server, tmp_path, "/a", "/metered")
        result = harvest(server, tmp_path, listed)
    assert result.exit_code == 0, result.stderr
    corpus = {e["url"].rsplit("/", 1)[1]: e for e in json.loads((tmp_path / "corpus.json").read_text())}
    assert corpus["metered"]["access"] == "metered" and "access" not in corpus["a"]
    assert "The council voted 7-2" in corpus["metered"]["body_excerpt"]


def test_merge_on_the_team_cache(tmp_path: Path, pg_url: str) -> None:
    """The same merge with the shared PostgreSQL cache: main text, rule results and robots.txt
    go through the side-table API every backend has."""
    with Restartable(pages()) as server:
        listed = listing(server, tmp_path, "/a", "/b")
        args = ["--urls", str(listed), "-o", str(tmp_path / "corpus.json"), "--allow", server.site.host,
                "--cache", pg_url]
        first = cli(*args)
        assert first.exit_code == 0, first.stderr
        server.site.log.clear()
        again = cli(*args)
        assert again.exit_code == 0, again.stderr
        # robots.txt from the team cache; the corpus's own sources are re-checked on every harvest
        assert server.requests("/robots.txt") == 0 and server.requests("/a") == 1
    assert ids(tmp_path) == {"/a": "src-001", "/b": "src-002"} and "2 kept" in again.stderr
