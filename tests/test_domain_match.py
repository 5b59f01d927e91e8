"""One "host under a domain list" test (`citecheck.urls.domain_match`), used by every rule, pack
check type and harvest helper that asks it."""
from __future__ import annotations

import re
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from citecheck.urls import domain_match

ROOT = Path(__file__).resolve().parent.parent
label = st.text("abcx-", min_size=1, max_size=4)


def test_a_host_is_under_its_parents_only_at_label_boundaries() -> None:
    domains = {"example.com", "b.example.com", "test"}
    assert domain_match("a.b.example.com", domains) == "b.example.com"  # the most specific entry
    assert domain_match("example.com", domains) == "example.com"
    assert domain_match("x.test", domains) == "test"
    assert domain_match("ample.com", domains) == "" and domain_match("notexample.com", domains) == ""
    assert domain_match("", domains) == "" and domain_match("example.com", ()) == ""


@given(st.lists(label, min_size=1, max_size=4), st.lists(st.lists(label, min_size=1, max_size=3), max_size=4))
def test_it_agrees_with_the_suffix_comparison(host_labels: list[str], entries: list[list[str]]) -> None:
    host = ".".join(host_labels)
    domains = {".".join(e) for e in entries}
    expected = any(host == d or host.endswith("." + d) for d in domains)
    assert bool(domain_match(host, domains)) is expected


def test_no_other_module_compares_host_suffixes_itself() -> None:
    pattern = re.compile(r'\.endswith\(\s*(?:"\."\s*\+|f"\.\{)')
    found = [str(p.relative_to(ROOT)) for p in (ROOT / "citecheck").rglob("*.py")
             if pattern.search(p.read_text(encoding="utf-8"))]
    assert found == [], found
