"""The pure helpers behind the URL rules U002-U008 (the case files cover the rules end to end)."""
from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from citecheck.checks.credentials_in_url import userinfo_of
from citecheck.checks.hallucination_pattern import as_date, hallucination_signals
from citecheck.checks.malformed_url import has_authority, host_problem, malformed_reason
from citecheck.checks.missing_scheme import schemeless_target
from citecheck.checks.private_address import private_reason
from citecheck.checks.unknown_suffix import unknown_suffix
from citecheck.checks.unsupported_scheme import scheme_of
from citecheck.engine.packs import load_packs

ROOT = Path(__file__).resolve().parents[2]
PLACEHOLDER = load_packs().data["placeholder"]
TODAY = dt.date(2025, 6, 15)


@pytest.mark.parametrize("url, scheme", [
    ("https://a.com", "https"), ("JavaScript:alert(1)", "javascript"), ("mailto:x@y.z", "mailto"),
    ("#risks", ""), ("./x.md", ""), ("../x", ""), ("/docs/x", ""), ("C:\\Users\\x", ""), ("c:/x", ""),
    ("www.reuters.com/x", ""), ("  https://a.com", "https"), ("git+ssh://x", "git+ssh"),
])
def test_scheme_of(url: str, scheme: str) -> None:
    assert scheme_of(url) == scheme


@pytest.mark.parametrize("url, fragment", [
    ("http://[::1", "unbalanced"), ("http://::1]/", "unbalanced"), ("http://[::1]x/", "unbalanced"),
    ("http://[zz]/", "not a valid IPv6"), ("https:///x", "empty host"), ("https://:443/", "empty host"),
    ("https:example.com", "empty host"), ("https://a.com:65536/", "outside 1-65535"), ("https://a.com:0/", "outside"),
    ("https://a.com:8o/", "not a number"), ("https://a b.com/", "whitespace"), ("https://a.com/\tx", "whitespace"),
    ("https://a.com\\@b.com/", "backslash"), ("https://a..com/", "empty label"), ("https://-a.com/", "characters"),
    ("https://a%2ecom/", "characters"), ("https://xn--zz.com/", "punycode"), ("https://☃.com/", "internationalised"),
    ("https://" + "a" * 64 + ".com/", "longer than 63"), ("https://" + "a." * 127 + "com/", "longer than 253"),
])
def test_malformed_reason_names_the_problem(url: str, fragment: str) -> None:
    assert fragment in malformed_reason(url)


@pytest.mark.parametrize("url", [
    "https://www.sec.gov/x", "http://[2606:4700::1111]:8443/", "https://bücher.de/", "https://my_host.acme.io/",
    "https://a.com./", "https://a.com:/", "https://user:pw@a.com/", "http://0x7f.0.0.1/", "https://xn--bcher-kva.de/",
    "mailto:x@y.z", "javascript:void(0)", "#x", "./a b.md", "", "ftp://ftp.gnu.org/",
])
def test_malformed_reason_accepts_valid_and_unjudged_urls(url: str) -> None:
    assert malformed_reason(url) == ""


def test_has_authority_covers_http_and_hierarchical_urls_only() -> None:
    assert has_authority("https:x") and has_authority("ftp://h/") and has_authority("sftp://h/")
    assert not has_authority("mailto:a@b.c") and not has_authority("data:text/plain,x") and not has_authority("/x")


def test_host_problem_strips_one_trailing_dot_only() -> None:
    assert host_problem("www.gov.uk.") == ""
    assert "empty label" in host_problem("www.gov.uk..")


@pytest.mark.parametrize("url, address", [
    ("http://127.1/", "127.0.0.1"), ("http://[::ffff:10.0.0.1]/", "::ffff:a00:1"),
    ("ftp://192.168.0.1/", "192.168.0.1"), ("https://user@0x0a000001/", "10.0.0.1"),
])
def test_private_reason(url: str, address: str) -> None:
    got, reason = private_reason(url)
    assert got == address and reason


@pytest.mark.parametrize("url", ["https://8.8.8.8/", "https://www.sec.gov/", "http://[::1", "mailto:a@10.0.0.1",
                                 "javascript:fetch('http://10.0.0.1')"])
def test_private_reason_ignores_public_names_and_non_authority_urls(url: str) -> None:
    assert private_reason(url) == ("", "")


@pytest.mark.parametrize("url, info", [
    ("https://u:p@a.com/", ("u", True)), ("https://u@a.com/", ("u", False)), ("https://:p@a.com/", ("", True)),
    ("https://www.reuters.com@evil.io/", ("www.reuters.com", False)), ("https://a.com/@handle", None),
    ("https://a.com/?e=a@b.c", None), ("mailto:a@b.c", None), ("https://a.com/#x@y", None),
])
def test_userinfo_of(url: str, info: tuple[str, bool] | None) -> None:
    assert userinfo_of(url) == info


@pytest.mark.parametrize("host, suffix", [
    ("www.gartner.cmo", "cmo"), ("intranet", "intranet"), ("acme.corp", "corp"), ("x.consultancy", "consultancy"),
])
def test_unknown_suffix_reports_the_last_label(host: str, suffix: str) -> None:
    assert unknown_suffix(host, {"pack": PLACEHOLDER}) == suffix


@pytest.mark.parametrize("host", ["www.gartner.com", "acme.co.uk", "bücher.de", "xn--e1afmkfd.xn--p1ai",
                                  "reports.mckinsey", "127.0.0.1", "0x7f.0.0.1", "::1", "localhost", "a.localhost",
                                  "acme.example", "x.test", "nas.local", "", "a..corp"])
def test_unknown_suffix_leaves_known_and_other_rules_hosts_alone(host: str) -> None:
    assert unknown_suffix(host, {"pack": PLACEHOLDER}) == ""


def test_unknown_suffix_allow_option() -> None:
    assert unknown_suffix("sp.acme.corp", {"pack": PLACEHOLDER, "allow": ["corp"]}) == ""
    assert unknown_suffix("sp.acme.corp", {"pack": PLACEHOLDER, "allow": ["acme.corp"]}) == ""
    assert unknown_suffix("sp.acme.corp", {"pack": PLACEHOLDER, "allow": ["lan"]}) == "corp"


@pytest.mark.parametrize("target, expected", [
    ("www.reuters.com/x", True), ("ft.com/content/abc", True), ("reuters.com", False), ("docs/notes.md", False),
    ("./x.md", False), ("#top", False), ("https://www.reuters.com/x", False), ("/ft.com/x", False),
    ("see www.reuters.com/x", False),
])
def test_schemeless_target(target: str, expected: bool) -> None:
    assert schemeless_target(target) is expected


def test_as_date_accepts_strings_dates_datetimes_and_defaults_to_today() -> None:
    assert as_date("2025-06-15") == TODAY
    assert as_date("2025-06-15T23:00:00Z") == TODAY
    assert as_date(TODAY) == TODAY
    assert as_date(dt.datetime(2025, 6, 15, 12)) == TODAY
    assert as_date(None) == dt.date.today()


def test_hallucination_signals_collects_every_signal() -> None:
    signals = hallucination_signals("https://www.acme.com/2031/04/02/{slug}/path/to/x", PLACEHOLDER, TODAY)
    assert signals == ["template token '{slug}'", "placeholder path 'path/to/'", "future date '2031/04/02'"]


@pytest.mark.parametrize("url", [
    "https://www.reuters.com/markets/2025/06/15/acme/", "https://blog.acme.io/2025/06/", "https://acme.io/2025-06-15",
    "https://doi.org/10.1038/x", "https://www.nature.com/articles/10.1038/x", "https://x.org/doi/abs/10.1145/1",
    "https://x.org/p?doi=10.1145/1", "mailto:{id}@x.com", "https://www.saudi2030.gov.sa/vision-2030-10-goals",
])
def test_hallucination_signals_spares_real_shapes(url: str) -> None:
    assert hallucination_signals(url, PLACEHOLDER, TODAY) == []


def test_hallucination_signals_extra_doi_hosts() -> None:
    url = "https://papers.acme.org/10.5555/2024.01"
    assert hallucination_signals(url, PLACEHOLDER, TODAY)
    assert hallucination_signals(url, PLACEHOLDER, TODAY, ("acme.org",)) == []


def test_future_month_is_relative_to_today() -> None:
    url = "https://blog.acme.io/2025/07/launch"
    assert hallucination_signals(url, PLACEHOLDER, TODAY) == ["future date '2025/07'"]
    assert hallucination_signals(url, PLACEHOLDER, dt.date(2025, 7, 1)) == []


@given(st.text(max_size=80))
def test_url_helpers_never_raise(text: str) -> None:
    for url in (text, "https://" + text, "http://[" + text, "https://a.com/" + text):
        malformed_reason(url)
        private_reason(url)
        userinfo_of(url)
        hallucination_signals(url, PLACEHOLDER, TODAY)
        schemeless_target(url)


def test_pack_patterns_compile() -> None:
    raw = yaml.safe_load((ROOT / "rules" / "placeholder_patterns.yaml").read_text(encoding="utf-8"))
    for entry in raw["data"]["url_patterns"]:
        re.compile(entry["pattern"])
        assert entry["label"]


def test_bare_email_is_info_but_a_written_mailto_link_stays_an_error(tmp_path: Path) -> None:
    from citecheck import audit

    memo = tmp_path / "memo.md"
    memo.write_text("Questions to ir@acme-robotics.com.\n\nSee [the data room](mailto:ir@acme-robotics.com).\n")
    found = {(f.line, f.severity.value) for f in audit([str(memo)]).findings if f.rule == "U003"}
    assert found == {(1, "info"), (3, "error")}
