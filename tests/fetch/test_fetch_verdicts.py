"""Verdicts from evidence (DESIGN.md "Verdicts and evidence"), end to end through `citecheck audit`:
dead only on an answered status or a corroborated NXDOMAIN, unverifiable with its reason for the
rest, and a run that finds no network says so, records nothing and exits 2."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from verdictcli import audit, cache_stats, rules_at
from verdictnet import RawWeb, SwitchDns

from citecheck.cli import main
from citecheck.fetch.outage import Outage, assess
from citecheck.models import Hop, Outcome, Page

pytestmark = pytest.mark.slow  # servers, subprocesses or many generated cases: the full suite, not the inner loop

LINE = "network unavailable: 0 of 2 hosts reachable; no verdicts recorded"


@pytest.fixture
def dns(monkeypatch: pytest.MonkeyPatch) -> SwitchDns:
    """The resolver every fetch of the test uses (the default one, replaced)."""
    stub = SwitchDns(names=("harbor-data.org", "slow-archive.org"), zones=("org",))
    monkeypatch.setattr("citecheck.fetch.dns.SystemResolver", lambda: stub)
    return stub


def test_total_outage_records_nothing_then_recovers(web: RawWeb, dns: SwitchDns, tmp_path: Path) -> None:
    links = [f"http://harbor-data.org:{web.port}/ok", f"http://slow-archive.org:{web.port}/missing"]
    dns.down = True
    code, payload, err = audit(tmp_path, links)
    assert code == 2 and LINE in err.splitlines()
    assert not [f for f in payload["findings"] if f["rule"] in ("H001", "H002")]
    assert payload["summary"]["network"] == "unavailable" and payload["summary"]["citation_truth_score"] is None
    assert payload["summary"]["outcomes"] == {"unverifiable": 2} and sum(web.hits.values()) == 0
    stats = CliRunner().invoke(main, ["cache", "stats", "--json", "--cache", str(tmp_path / "cache.sqlite")])
    assert json.loads(stats.stdout)["pages"] == 0 and json.loads(stats.stdout)["extras"] == 0
    dns.down = False
    code, payload, err = audit(tmp_path, links)
    assert code == 1 and "network unavailable" not in err
    assert rules_at(payload, links[0]) == set() and rules_at(payload, links[1]) == {("H001", "error")}
    assert payload["summary"]["from_cache"] == 0 and payload["summary"]["fetched_now"] == 2
    assert web.hits["/ok"] == 1 and payload["summary"]["citation_truth_score"] == 3.33


def test_partial_outage(web: RawWeb, dns: SwitchDns, tmp_path: Path) -> None:
    fake, slow, missing = "http://fabricated-institute.org/report", f"http://slow-archive.org:{web.port}/hang", \
        f"http://harbor-data.org:{web.port}/missing"
    # the control query (the zone of org) corroborates the NXDOMAIN: harbor-data.org resolving to a
    # loopback test address never would (tests/fetch/test_dns_evidence.py)
    code, payload, err = audit(tmp_path, [fake, slow, missing])
    assert code == 1 and "network unavailable" not in err
    assert rules_at(payload, fake) == {("H002", "error")}
    assert rules_at(payload, slow) == {("H002", "warning")}
    assert rules_at(payload, missing) == {("H001", "error")}
    assert payload["summary"]["verdicts"] == {"dead": 2, "unverifiable": 1}
    assert cache_stats(tmp_path)["by_kind"] == {"answer": 1, "nxdomain": 1}  # the timeout is never stored
    code, again, err = audit(tmp_path, [fake, slow, missing])  # only the stalled host is fetched again
    assert code == 1 and "network unavailable" not in err and again["findings"] == payload["findings"]
    assert (again["summary"]["from_cache"], again["summary"]["fetched_now"]) == (2, 1)
    assert web.hits["/missing"] == 1 and web.hits["/hang"] == 2


def test_policy_change_is_never_answered_from_the_cache(web: RawWeb, dns: SwitchDns, tmp_path: Path) -> None:
    links = [f"http://127.0.0.1:{web.port}/ok", f"http://127.0.0.1:{web.port}/missing",
             f"http://harbor-data.org:{web.port}/ok2"]
    allowed = ("--allow", f"127.0.0.1:{web.port}", "--allow", f"harbor-data.org:{web.port}")
    code, payload, _err = audit(tmp_path, links, policy=allowed)
    assert code == 1 and payload["summary"]["outcomes"] == {"dead": 1, "ok": 2}
    hits = sum(web.hits.values())
    for policy in ((), ("--allow", f"127.0.0.1:{web.port + 1}")):
        code, payload, _err = audit(tmp_path, links, policy=policy)
        assert payload["summary"]["outcomes"] == {"excluded": 3} and payload["summary"]["from_cache"] == 0
        # no verdict from a fetch; the cited name that resolves to loopback is reported as such (issue 25)
        assert not [f for f in payload["findings"] if f["rule"] in ("H001", "H002", "H003")
                    and "resolves to a private, loopback" not in f["message"]]
        assert sum(web.hits.values()) == hits  # nothing reached the server, nothing came from the cache
    code, payload, _err = audit(tmp_path, links, policy=allowed)  # the same policy again: the cache answers
    assert payload["summary"]["outcomes"] == {"dead": 1, "ok": 2} and sum(web.hits.values()) == hits


def test_lone_fabricated_domain_is_dead_by_the_control_query(dns: SwitchDns, tmp_path: Path) -> None:
    fake = "http://fabricated-institute.org/report"
    code, payload, _err = audit(tmp_path, [fake])
    assert code == 1 and rules_at(payload, fake) == {("H002", "error")} and dns.controls == ["org"]
    assert "NXDOMAIN" in payload["findings"][0]["message"]


def test_lone_nxdomain_without_any_evidence_is_unverifiable_not_an_outage(dns: SwitchDns, tmp_path: Path) -> None:
    """One silent host is that host's problem (issue 26 item 4): unverifiable, never dead, nothing stored."""
    dns.zones.clear()
    url = "http://fabricated-institute.org/report"
    code, payload, err = audit(tmp_path, [url], "--fail-on", "warning")
    assert code == 1 and "network unavailable" not in err
    assert rules_at(payload, url) == {("H002", "warning")} and payload["summary"]["verdicts"] == {"unverifiable": 1}
    assert cache_stats(tmp_path)["pages"] == 0


@pytest.mark.parametrize("path", ["/stall", "/short"])
def test_incomplete_body_is_an_unverifiable_finding(web: RawWeb, dns: SwitchDns, tmp_path: Path, path: str) -> None:
    url = f"http://harbor-data.org:{web.port}{path}"
    code, payload, _err = audit(tmp_path, [url], "--fail-on", "warning")
    assert code == 1 and payload["summary"]["outcomes"] == {"unverifiable": 1}
    [finding] = [f for f in payload["findings"] if f["url"] == url]
    assert (finding["rule"], finding["severity"]) == ("H002", "warning")
    assert finding["message"].startswith("incomplete response: HTTP 200")
    assert payload["summary"]["verdicts"] == {"unverifiable": 1} and payload["summary"]["citation_truth_score"] == 5.0


def test_server_error_after_retries_is_unverifiable(web: RawWeb, dns: SwitchDns, tmp_path: Path) -> None:
    url = f"http://harbor-data.org:{web.port}/flaky"
    code, payload, _ = audit(tmp_path, [url], "--fail-on", "warning")
    assert code == 1 and rules_at(payload, url) == {("H002", "warning")} and "HTTP 503" in payload["findings"][0]["message"]


def page(url: str, **facts: Any) -> Page:
    return Page(url=url, outcome=facts.pop("outcome", Outcome.UNVERIFIABLE), **facts)


def test_assess_counts_outside_hosts_only() -> None:
    down = [page("https://a.example/x", error="unresolved"), page("https://b.example/y", error="timeout"),
            page("http://127.0.0.1:8080/z", status=200, outcome=Outcome.OK)]
    assert assess(down) == Outage(hosts=2, failed=2)
    assert assess([*down, page("https://c.example/", status=404, outcome=Outcome.DEAD)]) is None
    assert assess([page("https://a.example/x", error="nxdomain", outcome=Outcome.DEAD)]) is None
    assert assess([page("https://a.example/x", error="unresolved", from_cache=True)]) is None
    redirected = page("https://a.example/x", error="timeout", final_url="https://b.example/",
                      chain=(Hop("https://a.example/x", 301, "https://b.example/"), Hop("https://b.example/", 0)))
    assert assess([redirected]) is None  # a.example answered the redirect
    assert assess(down, connected={"b.example"}) is None  # b.example accepted a connection, then stalled
    assert Outage(hosts=3, failed=3).line() == "network unavailable: 0 of 3 hosts reachable; no verdicts recorded"


async def test_system_resolver_control_query_asks_for_the_zone_soa(monkeypatch: pytest.MonkeyPatch) -> None:
    """The production control query, with dnspython's resolver replaced (no real DNS in tests)."""
    resolver = pytest.importorskip("dns.asyncresolver")
    import dns.resolver

    from citecheck.fetch.dns import SystemResolver

    asked: list[tuple[str, str]] = []

    class Fake:
        async def resolve(self, name: str, rdtype: str, lifetime: float) -> list[str]:
            asked.append((name, rdtype))
            if name == "org.":
                return ["a0.org.afilias-nst.info. hostmaster.donuts.email. 1 2 3 4 5"]
            raise dns.resolver.NXDOMAIN()

    monkeypatch.setattr(resolver, "Resolver", Fake)
    system = SystemResolver()
    assert await system.zone_exists("org") is True and await system.zone_exists("invalid-zone") is None
    assert asked == [("org.", "SOA"), ("invalid-zone.", "SOA")]
    await system.close()


def test_outage_text_report_says_why_there_is_no_score(dns: SwitchDns, tmp_path: Path) -> None:
    dns.down = True
    memo = tmp_path / "memo.md"
    memo.write_text("# Memo\n\nClaim ([source](http://harbor-data.org/r)), ([more](http://slow-archive.org/s)).\n")
    result = CliRunner().invoke(main, ["audit", str(memo), "--format", "text", "--no-cache", "--ignore", "M008"])
    assert result.exit_code == 2 and "no citation-truth score (network unavailable)" in result.stdout
    assert result.stderr.strip().splitlines()[-1] == LINE


async def test_nxdomain_waits_for_lookups_in_flight(web: RawWeb) -> None:
    """The fabricated name fails at once, the real one answers later (with a public address, which a
    socket factory connects to the loopback server); the control query finds nothing (no zones):
    the NXDOMAIN is still corroborated by the lookup that was under way."""
    import asyncio

    from hostile_net import NatSockets

    from citecheck.config import FetchConfig
    from citecheck.fetch import fetch_all

    class SlowDns(SwitchDns):
        async def resolve(self, host: str, port: int = 0, family: Any = 0) -> Any:
            if host in self.table:
                await asyncio.sleep(0.3)
            return await super().resolve(host, port)

    def slow() -> SlowDns:
        dns = SlowDns(names=("harbor-data.org",))
        dns.address = "93.184.216.34"
        return dns

    fake, real = "http://fabricated-institute.org/r", f"http://harbor-data.org:{web.port}/ok"
    config = FetchConfig(use_cache=False, timeout=3, retries=0)
    sockets = NatSockets({"93.184.216.34": web.port})
    pages = await fetch_all([fake, real], config, resolver=slow(), socket_factory=sockets)
    assert (pages[fake].outcome, pages[fake].error) == (Outcome.DEAD, "nxdomain")
    assert pages[real].outcome is Outcome.OK and pages.outage is None
    alone = await fetch_all([fake], config, resolver=slow(), socket_factory=sockets)
    assert (alone[fake].outcome, alone[fake].error) == (Outcome.UNVERIFIABLE, "unresolved")


@pytest.mark.parametrize("marker", [b"<script>window.__CF$cv$params={r:'x'}</script>",
                                    b'<script src="/cdn-cgi/bm/cv/669835187/api.js"></script>'])
def test_cloudflare_bot_management_stub_is_a_challenge_not_a_server_error(marker: bytes) -> None:
    from citecheck.fetch.verdict import decide, is_challenge

    body = b"<html><head><title>x</title></head><body>" + marker + b"</body></html>"
    assert is_challenge(503, {}, body)
    assert decide(503, "", is_challenge(503, {}, body)) == (Outcome.UNVERIFIABLE, "challenge")
    assert decide(503, "", is_challenge(503, {}, b"<html>Service Unavailable</html>"))[1] == "server-error"


def test_a_baseline_in_an_outage_is_not_written(dns: SwitchDns, tmp_path: Path) -> None:
    """Without network the findings lack every verdict: a baseline of them would be wrong, so none is written."""
    dns.down = True
    memo, baseline = tmp_path / "memo.md", tmp_path / "baseline.json"
    memo.write_text("# Memo\n\nClaim ([source](http://harbor-data.org/r)), ([more](http://slow-archive.org/s)).\n")
    result = CliRunner().invoke(main, ["baseline", str(memo), "-o", str(baseline), "--no-cache", "--ignore", "M008"])
    assert result.exit_code == 2 and result.stderr.strip().splitlines()[-1] == LINE
    assert not baseline.exists()
