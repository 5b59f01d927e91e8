"""The run's fetch policy and the offline rules agree: what `--allow` / `--allow-private` let the
fetcher reach, U004 private-address and C005 placeholder-in-corpus do not report, in audit as in
harvest; what they do not allow is reported with the flag that would."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from citecheck import audit
from citecheck._util.allowlist import allow_hint, allows_url, parse_allow
from citecheck._util.netaddr import parse_ip
from citecheck.config import build
from citecheck.errors import ConfigError

MEMO = "Figures: [a](http://127.0.0.1:8080/a), [b](http://127.0.0.1:9090/b), [c](http://10.1.2.3/c).\n"


def private_findings(tmp_path: Path, fetch: dict[str, object]) -> list[tuple[str, str]]:
    memo = tmp_path / "memo.md"
    memo.write_text(MEMO)
    report = audit([str(memo)], build({"fetch": fetch}))
    return [(f.rule, f.url) for f in report.findings if f.rule == "U004"]


def test_audit_reports_only_what_the_policy_does_not_allow(tmp_path: Path) -> None:
    assert [u for _, u in private_findings(tmp_path, {})] == ["http://127.0.0.1:8080/a", "http://127.0.0.1:9090/b",
                                                               "http://10.1.2.3/c"]
    assert [u for _, u in private_findings(tmp_path, {"allow": ["127.0.0.1:8080"]})] == [
        "http://127.0.0.1:9090/b", "http://10.1.2.3/c"]
    assert [u for _, u in private_findings(tmp_path, {"allow": ["127.0.0.0/8", "10.1.2.3:80"]})] == []
    assert private_findings(tmp_path, {"allow-private": True}) == []


def test_finding_names_the_flag(tmp_path: Path) -> None:
    memo = tmp_path / "memo.md"
    memo.write_text(MEMO)
    messages = {f.url: f.message for f in audit([str(memo)], build({})).findings if f.rule == "U004"}
    assert messages["http://127.0.0.1:9090/b"].endswith("(to fetch it anyway: --allow 127.0.0.1:9090 or --allow-private)")
    assert messages["http://10.1.2.3/c"].endswith("(to fetch it anyway: --allow 10.1.2.3 or --allow-private)")
    assert allow_hint("http://[::1]:3000/x", "::1") == "--allow [::1]:3000 or --allow-private"
    assert allow_hint("http://0x7f000001/x", "0x7f000001") == "--allow-private, or write the address as 127.0.0.1"


def test_corpus_rule_follows_the_same_policy(tmp_path: Path) -> None:
    corpus = tmp_path / "sourced_corpus.json"
    entry = {"id": "src-001", "url": "http://127.0.0.1:8080/a", "canonical_url": "http://127.0.0.1:8080/a",
             "title": "A", "fetched_at": "2025-01-01T00:00:00Z", "body_excerpt": "", "summary": "",
             "retrieval_query": "q", "retrieval_tool": "urls"}
    corpus.write_text(json.dumps([entry]))
    flagged = [f for f in audit([str(corpus)], build({})).findings if f.rule == "C005"]
    assert len(flagged) == 1 and "U004" in flagged[0].message
    assert not [f for f in audit([str(corpus)], build({"fetch": {"allow": ["127.0.0.1:8080"]}})).findings
                if f.rule == "C005"]


@pytest.mark.parametrize("entry,url,allowed", [
    ("127.0.0.1", "http://127.0.0.1:1234/", True),
    ("127.0.0.1:1234", "http://127.0.0.1:1234/", True),
    ("127.0.0.1:1234", "http://127.0.0.1/", False),
    ("127.0.0.1:80", "http://127.0.0.1/", True),  # the scheme's default port
    ("127.0.0.1:443", "https://127.0.0.1/", True),
    ("127.0.0.1:443", "https://0x7f000001/", False),  # another spelling: another destination to the policy
    ("10.0.0.0/8", "http://[::ffff:10.9.9.9]/", False),  # an IPv6 form that delivers to it: refused too
    ("intranet.test", "http://10.0.0.1/", False),  # a name allows that name, not an address
])
def test_allows_url(entry: str, url: str, allowed: bool) -> None:
    from citecheck.urls import url_host

    host = url_host(url)
    assert allows_url(url, host, parse_ip(host), [entry], False) is allowed


@pytest.mark.parametrize("bad", ["1.2.3.4.5", "127.0.0.1:0", "[::1", "::1:99999", ""])
def test_bad_allow_entries_are_config_errors(bad: str) -> None:
    with pytest.raises(ConfigError):
        parse_allow(bad)
