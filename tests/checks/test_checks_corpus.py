"""The pure helpers behind the corpus rules C001-C005."""
from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from citecheck.checks import (
    duplicate_canonical_url,
    id_integrity,
    placeholder_in_corpus,
    stale_fetch,
)
from citecheck.checks.id_integrity import id_problem
from citecheck.checks.placeholder_in_corpus import prepare, url_problems
from citecheck.checks.schema import parse_timestamp, record_problems
from citecheck.engine.packs import load_packs
from citecheck.extract.corpus import build_corpus
from citecheck.models import Corpus

PLACEHOLDER = load_packs().data["placeholder"]
TODAY = dt.date(2025, 6, 30)
FULL = {"id": "src-001", "url": "https://a.gov/x", "canonical_url": "https://a.gov/x", "title": "t",
        "fetched_at": "2025-06-01T00:00:00Z", "body_excerpt": "", "summary": "", "retrieval_query": "q",
        "retrieval_tool": "tavily"}


def corpus(*records: dict[str, Any]) -> Corpus:
    return build_corpus("c.json", list(records), [10 * (i + 1) for i in range(len(records))])


def test_complete_record_has_no_problem() -> None:
    assert list(record_problems(FULL)) == []
    assert list(record_problems({**FULL, "status": 404, "final_url": None, "extra": [1]})) == []


@pytest.mark.parametrize("change, problem", [
    ({"summary": None}, "field 'summary' must be a string, got NoneType"),
    ({"id": ""}, "field 'id' is empty"),
    ({"fetched_at": "2025-13-01"}, "fetched_at '2025-13-01' is not an ISO-8601 timestamp"),
    ({"status": True}, "field 'status' must be an integer HTTP status, got True"),
    ({"status": "200"}, "field 'status' must be an integer HTTP status, got '200'"),
    ({"snippet": 3}, "field 'snippet' must be a string, got int"),
])
def test_record_problems(change: dict[str, Any], problem: str) -> None:
    assert list(record_problems({**FULL, **change})) == [problem]


def test_missing_fields_are_each_reported() -> None:
    problems = list(record_problems({"id": "src-001"}))
    assert len(problems) == 8 and all(p.startswith("missing required field") for p in problems)


@pytest.mark.parametrize("value", ["2025-06-01", "2025-06-01T10:00:00Z", "2025-06-01T10:00:00.123+07:00",
                                   "2025-06-01 10:00"])
def test_parse_timestamp_accepts_iso_8601(value: str) -> None:
    assert parse_timestamp(value) is not None


@pytest.mark.parametrize("value", ["", "yesterday", "06/01/2025", "2025-02-30"])
def test_parse_timestamp_rejects_the_rest(value: str) -> None:
    assert parse_timestamp(value) is None


@pytest.mark.parametrize("source_id, problem", [
    ("src-001", ""), ("src-1000", ""), ("src-12345", ""), ("src-000", ""),
    ("src-7", "not of the form"), ("src-07", "not of the form"), ("src-0007", "expected 'src-007'"),
    ("src-01000", "expected 'src-1000'"), ("SRC-001", "not of the form"), ("src_001", "not of the form"),
    ("src-001 ", "not of the form"), ("src-٠٠١", "not of the form"),
])
def test_id_problem(source_id: str, problem: str) -> None:
    got = id_problem(source_id)
    assert (problem in got) if problem else got == ""


def test_id_reuse_is_case_insensitive_and_points_at_the_first() -> None:
    hits = list(id_integrity.check(corpus({"id": "src-001"}, {"id": "src-002"}, {"id": "SRC-001"}), {}))
    assert [(h.location.line, h.message.split(" (")[0]) for h in hits] == [
        (30, "'SRC-001' is not of the form src-NNN"), (30, "'SRC-001' is used again")]
    assert "first at line 10" in hits[1].message


def test_duplicate_canonical_url_names_the_first_id() -> None:
    hits = list(duplicate_canonical_url.check(corpus(
        {"id": "src-001", "url": "https://reut.rs/a", "canonical_url": "https://www.reuters.com/a/"},
        {"id": "src-002", "url": "https://reuters.com/a?utm_source=x"}), {}))
    assert [(h.location.line, h.evidence) for h in hits] == [(20, "src-001")]


@pytest.mark.parametrize("fetched, stale", [
    ("2025-05-31T23:59:59Z", False), ("2025-05-30T00:00:00Z", True), ("2025-05-30", True), ("2025-07-01", False),
])
def test_stale_fetch_boundary(fetched: str, stale: bool) -> None:
    hits = list(stale_fetch.check(corpus({"id": "src-001", "url": "https://a.gov", "fetched_at": fetched}),
                                  {"today": TODAY, "max_age_days": 30}))
    assert bool(hits) is stale


def test_url_problems_reuse_each_url_rule() -> None:
    assert [r for r, _ in url_problems("https://example.com/{id}", prepare({"pack": PLACEHOLDER}), TODAY)] == ["U001", "U005"]
    assert [r for r, _ in url_problems("http://[::ffff:10.0.0.1]:99999/", prepare({"pack": PLACEHOLDER}), TODAY)] == ["U002", "U004"]
    assert list(url_problems("https://www.sec.gov/Archives/", prepare({"pack": PLACEHOLDER}), TODAY)) == []


def test_placeholder_in_corpus_checks_each_distinct_url_field() -> None:
    hits = list(placeholder_in_corpus.check(corpus(
        {"id": "src-001", "url": "https://example.com/a", "canonical_url": "https://example.com/a",
         "final_url": "http://127.0.0.1/"}), {"pack": PLACEHOLDER, "today": TODAY}))
    assert [(h.url, h.evidence) for h in hits] == [("https://example.com/a", "U001"), ("http://127.0.0.1/", "U004")]
