"""The pure helpers behind the memo rules M001-M007."""
from __future__ import annotations

from typing import Any

import pytest

from citecheck.checks import firm_context_leak, uncorpused_url, unknown_source_id
from citecheck.checks.firm_context_leak import as_profile, resolve, unclaimed_terms
from citecheck.checks.footnote_integrity import footnote_problems
from citecheck.checks.watermark_company import company_name, normalise, watermark_match
from citecheck.engine.packs import load_packs
from citecheck.engine.run import Memo
from citecheck.extract import extract_document
from citecheck.extract.corpus import build_corpus
from citecheck.models import FootnoteRef, Location

PACKS = load_packs().data
PROFILES = PACKS["firm_profiles"]
WATERMARKS = PACKS["watermarks"]


def memo(text: str, corpus: list[dict[str, Any]] | None = None) -> Memo:
    built = build_corpus("corpus.json", corpus, [1] * len(corpus)) if corpus is not None else None
    return Memo(extract_document("m.md", text), built)


def test_as_profile_forms() -> None:
    profiles = PROFILES["profiles"]
    assert as_profile("indonesian-vc", profiles)["name"] == "Nusantara Ventures"
    assert as_profile("Acme Capital", profiles) == {"name": "Acme Capital"}
    merged = as_profile({"profile": "indonesian-vc", "name": "NV II"}, profiles)
    assert merged["name"] == "NV II" and "OJK" in merged["terms"]
    assert as_profile(None, profiles) == {} and as_profile(["x"], profiles) == {}


def test_front_matter_adds_to_the_configured_profiles_never_replaces_them() -> None:
    """Issue 26, item 2 (front matter used to win per key: a memo could replace the firm's terms)."""
    options = {"pack": PROFILES, "profile": "", "firm": {"name": "Config Fund", "terms": ["Lagos"]},
               "company": {"name": "Acme", "geographies": ["Canada"]}}
    firm, company = resolve(options, {"firm": {"name": "Other", "terms": ["Jakarta"], "related": {"US": ["Lagos"]}},
                                      "company": {"geographies": ["US"]}})
    assert firm == {"name": "Config Fund", "terms": ["Lagos", "Jakarta"]}
    assert company == {"name": "Acme", "geographies": ["Canada"]}


def test_front_matter_speaks_for_a_profile_the_configuration_does_not_set() -> None:
    firm, company = resolve({"pack": PROFILES, "profile": ""}, {"firm": {"name": "F", "terms": ["Jakarta"]},
                                                               "company": {"geographies": ["US"]}})
    assert firm == {"name": "F", "terms": ["Jakarta"]} and company == {"geographies": ["US"]}


def test_profile_option_is_the_base() -> None:
    firm, _ = resolve({"pack": PROFILES, "profile": "indonesian-vc", "firm": {"name": "Other"}}, {})
    assert firm["name"] == "Other" and "rupiah" in firm["terms"]


@pytest.mark.parametrize("geographies, claimed", [
    (["Indonesia"], {"Indonesia", "Indonesian", "rupiah", "IDR", "OJK", "Bank Indonesia", "Jakarta", "Jabodetabek"}),
    (["Southeast Asia"], {"Southeast Asia", "ASEAN"}),
    (["Asia"], {"Southeast Asia", "ASEAN"}),  # a term containing a claimed geography is claimed, and its group
    (["Greater Jakarta"], {"Jakarta"}),  # a geography containing the term claims it
    (["United States", "US"], set()),
    (["Russia"], set()),  # whole words: "US" is not inside "Russia", "IDR" not inside anything
])
def test_unclaimed_terms(geographies: list[str], claimed: set[str]) -> None:
    firm = PROFILES["profiles"]["indonesian-vc"]
    unclaimed = set(unclaimed_terms(firm, {"geographies": geographies}))
    assert unclaimed == set(firm["terms"]) - claimed


def test_unclaimed_terms_allow_and_no_terms() -> None:
    assert unclaimed_terms({"terms": ["OJK", "IDR"]}, {}, ["ojk"]) == ["IDR"]
    assert unclaimed_terms({"name": "Fund"}, {"geographies": ["US"]}) == []


def test_firm_leak_message_names_section_and_multiword_term_across_lines() -> None:
    text = "---\nfirm: indonesian-vc\ncompany: {geographies: [US]}\n---\n## Go-to-market\nGrowth in Southeast\nAsia.\n"
    hits = list(firm_context_leak.check(memo(text), {**firm_context_leak.DEFAULTS, "pack": PROFILES}))
    assert [(h.location.line, h.location.column, h.evidence) for h in hits] == [(6, 11, "Southeast\nAsia")]
    assert "'Go-to-market'" in hits[0].message and "US" in hits[0].message


def test_firm_leak_in_table_is_reported_once_per_occurrence() -> None:
    text = "---\nfirm: indonesian-vc\n---\n| Market | Currency |\n| --- | --- |\n| Indonesia | rupiah |\n"
    hits = list(firm_context_leak.check(memo(text), {**firm_context_leak.DEFAULTS, "pack": PROFILES}))
    assert sorted((h.location.line, h.location.column) for h in hits) == [(6, 3), (6, 15)]


@pytest.mark.parametrize("name, platform", [
    ("DocSend", "DocSend"), ("docsend", "DocSend"), ("DocSend, Inc.", "DocSend"), ("Drop box", "Dropbox"),
    ("GoogleDrive", "Google Drive"), ("Beautiful AI", "Beautiful.ai"), ("Dropbox DocSend", "Dropbox DocSend"),
    ("Papermark Ltd", "Papermark"), ("ＤｏｃＳｅｎｄ", "DocSend"),
])
def test_watermark_match(name: str, platform: str) -> None:
    assert watermark_match(name, WATERMARKS) == platform


@pytest.mark.parametrize("name", ["Acme Box", "Boxed", "Canvas", "Pitch Perfect Robotics", "Slidebeam", "Notion Labs",
                                  "OneDrive for Business Analytics", "Acme Robotics", "", "Inc"])
def test_watermark_near_misses(name: str) -> None:
    assert watermark_match(name, WATERMARKS) == ""


def test_normalise_drops_legal_suffixes_but_not_the_whole_name() -> None:
    assert normalise("Acme Robotics, Inc.", WATERMARKS) == "acme robotics"
    assert normalise("Co", WATERMARKS) == "co"


@pytest.mark.parametrize("text, name, where", [
    ("---\ncompany: DocSend\n---\n# Dropbox\n", "DocSend", (2, 10)),
    ("---\ntitle: x\ncompany:\n  name: Box\n---\n", "Box", (4, 9)),
    ("# Dropbox Investment Memo\n", "Dropbox", (1, 1)),
    ("# Google Drive — Series B Investment Memorandum\n", "Google Drive", (1, 1)),
    ("Intro\n\n# Acme: IC Memo\n", "Acme", (3, 1)),
    ("---\ncompany: {geographies: [US]}\n---\n# Scribd Deal Memo\n", "Scribd", (4, 1)),
])
def test_company_name_and_location(text: str, name: str, where: tuple[int, int]) -> None:
    got, loc = company_name(extract_document("m.md", text), WATERMARKS)
    assert (got, (loc.line, loc.column)) == (name, where)


def _fn(label: str, line: int, definition: bool) -> FootnoteRef:
    return FootnoteRef(label, Location("m.md", line, 1), definition)


def test_footnote_problems() -> None:
    notes = (_fn("1", 1, False), _fn("2", 1, False), _fn("1", 3, True), _fn("1", 4, True), _fn("x", 5, True),
             _fn("A", 2, False), _fn("a", 6, True))
    problems = [(f.label, f.location.line, p.split(" is ")[1].split()[0]) for f, p in footnote_problems(notes)]
    assert problems == [("2", 1, "cited"), ("1", 4, "defined"), ("x", 5, "defined")]


def test_unknown_source_id_needs_a_corpus() -> None:
    text = "Claim [src-001, src-002] and `[src-009]`.\n"
    assert list(unknown_source_id.check(memo(text), {})) == []
    hits = list(unknown_source_id.check(memo(text, [{"id": "src-001", "url": "https://a.gov/"}]), {}))
    assert [(h.evidence, h.location.column) for h in hits] == [("src-002", 17)]


def test_uncorpused_url_compares_dedupe_keys_and_skips_code() -> None:
    corpus = [{"id": "src-001", "url": "https://reut.rs/1", "final_url": "https://www.reuters.com/a/"}]
    text = "[a](http://reuters.com/a?utm_source=x) [b](https://www.reuters.com/b) `https://x.io/c` [c](#top)\n"
    hits = list(uncorpused_url.check(memo(text, corpus), uncorpused_url.DEFAULTS))
    assert [h.url for h in hits] == ["https://www.reuters.com/b"]
    with_code = list(uncorpused_url.check(memo(text, corpus), {"code": True}))
    assert [h.url for h in with_code] == ["https://www.reuters.com/b", "https://x.io/c"]
