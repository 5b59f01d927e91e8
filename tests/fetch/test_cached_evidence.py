"""Cached evidence is evidence (issue 26 item 4): one silent host never turns a run into "network
unavailable", findings from fresh cached facts are never dropped, and a re-harvest whose new
candidates sit on a dead host keeps the rest. An outage still needs more than one host failing
fresh and no outside host answering, fresh or from the cache; then it exits 2 and stores nothing.
Loopback servers and a stub resolver only."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from harvestkit import cli, pages
from harvestsite import Restartable
from verdictcli import audit, cache_stats, rules_at
from verdictnet import RawWeb, SwitchDns

pytestmark = pytest.mark.slow  # servers, subprocesses or many generated cases: the full suite, not the inner loop

FAKE = "http://fabricated-institute.org/report"


@pytest.fixture
def dns(monkeypatch: pytest.MonkeyPatch) -> SwitchDns:
    stub = SwitchDns(names=("harbor-data.org",), zones=("org",), silent=("quiet-mirror.net", "still-archive.net"))
    monkeypatch.setattr("citecheck.fetch.dns.SystemResolver", lambda: stub)
    return stub


def test_one_silent_host_keeps_the_cached_dead_finding(dns: SwitchDns, tmp_path: Path) -> None:
    code, payload, _ = audit(tmp_path, [FAKE])
    assert code == 1 and rules_at(payload, FAKE) == {("H002", "error")}
    silent = "http://quiet-mirror.net/paper"
    code, payload, err = audit(tmp_path, [FAKE, silent])
    assert code == 1 and "network unavailable" not in err, err
    assert rules_at(payload, FAKE) == {("H002", "error")} and rules_at(payload, silent) == {("H002", "warning")}
    assert payload["summary"]["from_cache"] == 1 and payload["summary"]["citation_truth_score"] is not None


def test_every_link_cached_but_one_new_host_without_dns(web: RawWeb, dns: SwitchDns, tmp_path: Path) -> None:
    links = [f"http://harbor-data.org:{web.port}/ok", f"http://harbor-data.org:{web.port}/missing"]
    code, first, _ = audit(tmp_path, links)
    assert code == 1 and rules_at(first, links[1]) == {("H001", "error")}
    dns.down = True  # the whole resolver is gone now: only the cache knows anything
    code, payload, err = audit(tmp_path, [*links, "http://harbor-news.org/new"], "--fail-on", "warning")
    assert code == 1 and "network unavailable" not in err
    assert rules_at(payload, links[1]) == {("H001", "error")} and rules_at(payload, links[0]) == set()
    assert rules_at(payload, "http://harbor-news.org/new") == {("H002", "warning")}  # unverifiable, never dead


def test_two_silent_hosts_beside_cached_answers_are_not_an_outage(web: RawWeb, dns: SwitchDns, tmp_path: Path) -> None:
    ok = f"http://harbor-data.org:{web.port}/ok"
    assert audit(tmp_path, [ok])[0] == 0
    silent = ["http://quiet-mirror.net/a", "http://still-archive.net/b"]
    code, payload, err = audit(tmp_path, [ok, *silent], "--fail-on", "warning")
    assert code == 1 and "network unavailable" not in err
    assert all(rules_at(payload, url) == {("H002", "warning")} for url in silent)
    assert cache_stats(tmp_path)["pages"] == 1  # the timeouts are never stored


def test_two_fresh_hosts_failing_and_nothing_else_is_an_outage(dns: SwitchDns, tmp_path: Path) -> None:
    code, payload, err = audit(tmp_path, ["http://quiet-mirror.net/a", "http://still-archive.net/b"])
    assert code == 2 and "network unavailable: 0 of 2 hosts reachable; no verdicts recorded" in err
    assert payload["summary"]["citation_truth_score"] is None and cache_stats(tmp_path)["pages"] == 0


def test_reharvest_keeps_the_corpus_when_new_candidates_sit_on_a_dead_host(dns: SwitchDns, tmp_path: Path) -> None:
    with Restartable(pages()) as server:
        listed = tmp_path / "Sources.md"
        known = "".join(f"- [{t}](http://harbor-data.org:{server.port}{p})\n" for p, t in
                        (("/a", "Road freight statistics 2023"), ("/b", "Goods transport by road in Germany")))
        listed.write_text(known)
        args = ["--urls", str(listed), "-o", str(tmp_path / "corpus.json"), "--allow", "harbor-data.org",
                "--cache", str(tmp_path / "cache.sqlite"), "--timeout", "2", "--rejects", str(tmp_path / "rejects.json")]
        assert cli(*args).exit_code == 0
        listed.write_text(known + "- [Freight mirror](http://quiet-mirror.net/freight)\n"
                          "- [Freight archive](http://still-archive.net/freight)\n")
        again = cli(*args)
    assert again.exit_code == 0, again.stderr
    assert "network unavailable" not in again.stderr
    corpus = json.loads((tmp_path / "corpus.json").read_text())
    assert [e["id"] for e in corpus] == ["src-001", "src-002"] and not any(e.get("stale") for e in corpus)
    rejects: list[dict[str, Any]] = json.loads((tmp_path / "rejects.json").read_text())["rejects"]
    assert sorted(r["url"] for r in rejects) == ["http://quiet-mirror.net/freight", "http://still-archive.net/freight"]
    assert all(r["reasons"][0]["name"] == "fetch-unverifiable" and "timeout" in r["reasons"][0]["message"] for r in rejects)
