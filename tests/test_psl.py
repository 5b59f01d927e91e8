"""`citecheck.psl.public_suffix` must give exactly tldextract's `.suffix` (same bundled snapshot,
same trie walk): every rule of the list in several spellings, plus hosts that are not names."""
from __future__ import annotations

import random
import re

import pytest
import tldextract

from citecheck import psl
from citecheck.urls import public_suffix, registrable_domain

pytestmark = pytest.mark.slow  # servers, subprocesses or many generated cases: the full suite, not the inner loop

EXTRACT = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)


@pytest.fixture(autouse=True, params=["whole list", "per last label"])
def lookup(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test runs on both ways `public_suffix` reads the list: the two sets of the whole list
    (a long run), and only the rules a host's last label can reach (`_trie_for`, a short run)."""
    if request.param == "whole list":
        monkeypatch.setattr(psl, "_lookup", lambda last: psl._rules())
    else:  # every label read by lines, however many rules it has
        _no_line_limit(monkeypatch)
        monkeypatch.setattr(psl, "_lookup", psl._trie_for)


def _no_line_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(psl, "_MAX_LINES", 10**9)
    psl._rules_ending.cache_clear()
    psl._trie_for.cache_clear()


def _rules() -> list[str]:
    text = psl.snapshot_path().read_text(encoding="utf-8")
    return [m.group("suffix") for m in re.finditer(r"^(?P<suffix>[.*!]*\w[\S]*)", text, re.MULTILINE)]


def _spellings(rule: str) -> list[str]:
    name = rule.lstrip("!").replace("*", "w")
    return [name, f"a.{name}", f"b.a.{name}", f"www.{name}".upper(), f"x.{name}.", f"x.{name}:8080",
            f"https://user@x.{name}/path?q#f", f"x\u3002{name}"]


def test_every_rule_of_the_list_in_several_spellings() -> None:
    rules = _rules()
    assert len(rules) > 5000  # the ICANN and private sections of the bundled list
    hosts = [h for rule in rules for h in _spellings(rule)]
    wrong = [(h, psl.public_suffix(h), EXTRACT(h).suffix) for h in hosts if psl.public_suffix(h) != EXTRACT(h).suffix]
    assert not wrong, wrong[:10]
    wrong = [(h, psl.registrable_domain(h), _top(h)) for h in hosts if psl.registrable_domain(h) != _top(h)]
    assert not wrong, wrong[:10]


def _top(host: str) -> str:
    ext = EXTRACT(host)
    return ext.top_domain_under_public_suffix if hasattr(ext, "top_domain_under_public_suffix") else ext.registered_domain


@pytest.mark.parametrize("host", [
    "", ".", "..", "localhost", "intranet", "acme-robotics.cmo", "reports.mckinsey", "1.2.3.4", "999.1.1.1",
    "[::1]", "[2001:db8::1]:443", "xn--fiqs8s", "a.xn--fiqs8s", "xn--broken-", "a.xn--zz.com", "www.ck",
    "a.b.ck", "city.kawasaki.jp", "x.city.kawasaki.jp", "a.b.c.kawasaki.jp", "EXAMPLE.COM", "bücher.de",
    "例子.中国", "a..com", "com.", "//host.co.uk/x", "ftp://h.org", "h.org#x", "user:pw@h.net:1",
])
def test_odd_hosts(host: str) -> None:
    assert psl.public_suffix(host) == EXTRACT(host).suffix
    assert psl.registrable_domain(host) == _top(host)


def test_random_text() -> None:
    rng = random.Random(7)
    alphabet = "abcz.-:/@[]#?" + "\u3002" + "ü"
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 16))) + rng.choice(["", ".com", ".co.uk", ".ck"])
        assert psl.public_suffix(text) == EXTRACT(text).suffix, text
        assert psl.registrable_domain(text) == _top(text), text


def test_urls_public_suffix_is_the_same_lookup() -> None:
    assert public_suffix("news.bbc.co.uk") == "co.uk"
    assert registrable_domain("news.bbc.co.uk") == "bbc.co.uk" and registrable_domain("127.0.0.1") == ""
    assert public_suffix("www.gartner.cmo") == ""


@pytest.mark.parametrize("last", ["", "*", "!jp", "no such", "ZZ", "xn--p1ai", "рф", "c\u00f6m", "com\n", "\n"])
def test_rules_ending_a_label_are_those_of_the_whole_list(last: str, monkeypatch: pytest.MonkeyPatch) -> None:
    _no_line_limit(monkeypatch)
    rules = psl._rules()[0]
    by_last: dict[str, set[str]] = {}
    for rule in rules:
        by_last.setdefault(rule.rpartition(".")[2], set()).add(rule)
    assert len(by_last) > 1000
    for label in [*by_last, last]:
        assert psl._rules_ending(label) == frozenset(by_last.get(label, ())), label


def test_a_short_run_reads_only_its_labels_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.undo()  # the real `_lookup` and line limit
    for cached in (psl._rules, psl._trie_for, psl._rules_ending):
        cached.cache_clear()
    for host in ("www.bls.gov", "news.bbc.co.uk", "www.ck", "x.www.ck", "a.b.c.org"):
        assert psl.public_suffix(host) == EXTRACT(host).suffix, host
    assert psl._rules.cache_info().currsize == 0  # the whole list was never split into sets
    assert psl._rules_ending("jp") is None  # ~1,800 rules: the whole list is cheaper
    assert psl.public_suffix("x.city.kawasaki.jp") == EXTRACT("x.city.kawasaki.jp").suffix
    assert psl._rules.cache_info().currsize == 1
    psl._rules.cache_clear()
    psl._trie_for.cache_clear()
    for n in range(psl._LAZY_LABELS + 1):
        psl.public_suffix(f"host.label{n}")
    assert psl._rules.cache_info().currsize == 1  # many labels: the whole list, once
    assert psl.public_suffix("www.bls.gov") == "gov"
