"""The ID registry (`<corpus>.ids`): an ID is a permanent function of its URL within a corpus."""
from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from citecheck.errors import CorpusError
from citecheck.extract.corpus import build_corpus
from citecheck.harvest.ids import IdBook, read_registry, write_registry
from citecheck.schemas import load_schema


def corpus(*entries: tuple[str, str]) -> object:
    return build_corpus("c.json", [{"id": i, "url": u} for i, u in entries], list(range(1, len(entries) + 1)))


def test_round_trip_keeps_owners_keys_retired_and_mark(tmp_path: Path) -> None:
    book = IdBook.from_corpus(corpus(("src-001", "https://a.org/x")), None)  # type: ignore[arg-type]
    assert book.assign("https://b.org/y") == "src-002"
    book.retire("src-002", {"url": "https://b.org/y", "retired_at": "2026-12-01T00:00:00Z", "rule": "H001",
                            "reason": "dead link: HTTP 404", "evidence": "404"})
    write_registry(tmp_path / "c.json", book)
    data = json.loads((tmp_path / "c.json.ids").read_text())
    jsonschema.validate(data, load_schema("ids.schema.json"))
    assert data["high_water"] == 2 and data["next"] == "src-003"
    assert data["ids"]["src-002"] == {"url": "https://b.org/y", "keys": ["b.org/y"]}
    again = read_registry(tmp_path / "c.json")
    assert "src-002" in again.retired
    assert again.assign("http://www.b.org/y/?utm_source=x") == "src-002"  # a returning URL: its old ID
    assert again.restore("src-002") and not again.retired
    assert again.assign("https://c.org/z") == "src-003"


def test_an_id_names_its_own_url_only() -> None:
    """Where a URL redirects or what it declares canonical never claims another URL's key."""
    book = IdBook()
    assert book.assign("https://a.org/1") == "src-001"
    assert book.assign("https://b.org/2") == "src-002"
    assert book.id_of("https://a.org/1#top") == "src-001" and book.id_of("https://c.org/3") is None
    assert book.assign("https://a.org/1") == "src-001" and book.high_water == 2


def test_version_1_sidecar_is_upgraded(tmp_path: Path) -> None:
    (tmp_path / "c.json.ids").write_text('{"version": 1, "high_water": 7, "next": "src-008"}')
    book = IdBook.from_corpus(corpus(("src-003", "https://a.org/x")), tmp_path / "c.json")  # type: ignore[arg-type]
    assert book.high_water == 7 and book.lookup(["https://a.org/x"]) == "src-003"
    assert book.assign("https://new.org/") == "src-008"


def test_corpus_that_gives_a_registered_url_another_id_is_refused(tmp_path: Path) -> None:
    book = IdBook()
    book.assign("https://a.org/x")
    write_registry(tmp_path / "c.json", book)
    with pytest.raises(CorpusError, match=r"c.json:1: src-002's URL https://a.org/x is src-001 in .*c.json.ids"):
        IdBook.from_corpus(corpus(("src-002", "https://a.org/x")), tmp_path / "c.json")  # type: ignore[arg-type]


TWO_OWNERS = '{"high_water": 2, "ids": {"src-001": {"keys": ["k"]}, "src-002": {"keys": ["k"]}}}'


@pytest.mark.parametrize("text", ["{", '{"high_water": "x"}', TWO_OWNERS, '{"high_water": 1, "retired": [{"url": "x"}]}'])
def test_broken_registry_is_one_line_error(tmp_path: Path, text: str) -> None:
    (tmp_path / "c.json.ids").write_text(text)
    with pytest.raises(CorpusError, match="unreadable ID registry"):
        read_registry(tmp_path / "c.json")
