"""NXDOMAIN is corroborated only by DNS (issue 26 item 5): another outside name answered by the
same resolver with a global address, or the public suffix's zone. A name from the hosts file, a
special-use or single-label name, and loopback or private answers never corroborate, so a resolver
that says "no such name" for everything never produces a "dead" that is stored and shared.
A stub resolver and loopback servers only."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from verdictnet import SwitchDns

from citecheck.cli import main
from citecheck.fetch.dns import DnsEvidence, hosts_file_names, vouches

REAL = ["https://www.sec.gov/Archives/edgar/data/1318605/", "https://www.iea.org/reports/global-ev-outlook-2024"]


@pytest.fixture
def nxdomain_for_all(monkeypatch: pytest.MonkeyPatch) -> SwitchDns:
    """A resolver that says "no such name" for every name except localhost (as from /etc/hosts),
    and whose control query finds nothing either."""
    stub = SwitchDns(names=("localhost",))
    monkeypatch.setattr("citecheck.fetch.dns.SystemResolver", lambda: stub)
    return stub


def run(tmp_path: Path, cache: str, urls: list[str]) -> tuple[int, dict[str, Any], str]:
    memo = tmp_path / "memo.md"
    memo.write_text("# Memo\n\n" + "".join(f"Claim {n} ([source]({url})).\n\n" for n, url in enumerate(urls)))
    result = CliRunner(env={"CITECHECK_CACHE_URL": None}).invoke(main, [
        "audit", str(memo), "--format", "json", "--timeout", "2", "--cache", cache, "--ignore", "M008"])
    return result.exit_code, json.loads(result.stdout or "{}"), result.stderr


def stored(cache: str) -> int:
    result = CliRunner(env={"CITECHECK_CACHE_URL": None}).invoke(main, ["cache", "stats", "--json", "--cache", cache])
    return int(json.loads(result.stdout)["pages"])


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])  # PostgreSQL: the full suite
def cache(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return str(tmp_path / "c.sqlite") if request.param == "sqlite" else str(request.getfixturevalue("pg_url"))


def test_localhost_never_corroborates_a_resolver_that_denies_everything(nxdomain_for_all: SwitchDns, cache: str,
                                                                        tmp_path: Path) -> None:
    code, payload, err = run(tmp_path, cache, ["http://localhost:3000/dashboard", *REAL])
    assert "localhost" in nxdomain_for_all.lookups  # it did answer, from the "hosts file"
    dead = [f for f in payload["findings"] if f.get("verdict") == "dead" or "NXDOMAIN" in f["message"]]
    assert dead == [] and code == 2 and "network unavailable: 0 of 2 hosts reachable" in err
    assert stored(cache) == 0  # nothing a teammate could be served
    one_code, one, _ = run(tmp_path, cache, ["http://localhost:3000/dashboard", REAL[0]])
    assert {(f["rule"], f["severity"]) for f in one["findings"] if f["url"] == REAL[0]} == {("H002", "warning")}
    assert one_code == 1 and stored(cache) == 0  # exit 1: U004 on the localhost link, not a dead source


def test_a_teammate_with_working_dns_gets_fresh_verdicts(nxdomain_for_all: SwitchDns, cache: str,
                                                         tmp_path: Path) -> None:
    run(tmp_path, cache, ["http://localhost:3000/dashboard", *REAL])
    nxdomain_for_all.zones.update({"gov", "org"})  # the teammate's DNS works: the zones answer
    nxdomain_for_all.controls.clear()
    _code, payload, _ = run(tmp_path, cache, REAL)
    assert sorted(nxdomain_for_all.controls) == ["gov", "org"]  # asked afresh, nothing served from the cache
    assert payload["summary"]["from_cache"] == 0


@pytest.mark.parametrize("host,addresses,vouched", [
    ("harbor-data.org", ["93.184.216.34"], True),
    ("harbor-data.org", ["2606:2800:220:1:248:1893:25c8:1946"], True),
    ("harbor-data.org", ["127.0.0.1"], False),
    ("harbor-data.org", ["10.0.0.7"], False),
    ("harbor-data.org", ["93.184.216.34", "192.168.1.2"], False),
    ("harbor-data.org", ["169.254.169.254"], False),
    ("harbor-data.org", [], False),
    ("localhost", ["93.184.216.34"], False),
    ("app.localhost", ["93.184.216.34"], False),
    ("printer.local", ["93.184.216.34"], False),
    ("intranet", ["93.184.216.34"], False),
    ("dev.example.org", ["93.184.216.34"], False),  # listed in the hosts file below
])
def test_which_answers_vouch_for_dns(host: str, addresses: list[str], vouched: bool) -> None:
    assert vouches(host, addresses, frozenset({"dev.example.org"})) is vouched


def test_hosts_file_names(tmp_path: Path) -> None:
    hosts = tmp_path / "hosts"
    hosts.write_text("127.0.0.1 localhost\n# 1.2.3.4 commented.example\n93.184.216.34  Dev.Example.org dev  # alias\n"
                     "::1 ip6-localhost ip6-loopback\n")
    assert hosts_file_names(hosts) == {"localhost", "dev.example.org", "dev", "ip6-localhost", "ip6-loopback"}
    assert hosts_file_names(tmp_path / "missing") == frozenset()


async def test_a_hosts_file_name_with_a_public_address_does_not_corroborate() -> None:
    evidence = DnsEvidence(SwitchDns(), local_names=frozenset({"dev.example.org"}))
    evidence.lookup_started()
    evidence.lookup_ended("dev.example.org", ["93.184.216.34"])
    assert not await evidence.corroborates("fabricated-institute.org")
    evidence.lookup_started()
    evidence.lookup_ended("harbor-data.org", ["93.184.216.34"])
    assert await evidence.corroborates("fabricated-institute.org")
    await evidence.close()
