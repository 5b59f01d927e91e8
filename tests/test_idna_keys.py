"""The dedupe key reads hosts as IDNA 2008 (UTS #46, non-transitional), as browsers and the fetcher
do: `straße.de` is `xn--strae-oqa.de`, not `strasse.de` (IDNA 2003, which w3lib's canonicalize_url
applies, folded the two together). The corpus lookup (write --hybrid, audit --corpus, harvest's IDs)
must never take one registrable name for another."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from citecheck.cli import main
from citecheck.extract.corpus import build_corpus
from citecheck.urls import dedupe_key
from citecheck.urltext.corpusindex import CorpusIndex


@pytest.mark.parametrize("a,b", [
    ("https://straße.de/x", "https://strasse.de/x"),
    ("https://faß.de/", "https://fass.de/"),
    ("https://βόλος.com/a", "https://βόλοσ.com/a"),  # final sigma: IDNA 2003 maps ς to σ
])
def test_deviation_characters_are_other_hosts(a: str, b: str) -> None:
    assert dedupe_key(a) != dedupe_key(b)


@pytest.mark.parametrize("a,b", [
    ("https://straße.de/x", "https://xn--strae-oqa.de/x"),
    ("https://www.Straße.de/x/", "http://straße.de/x"),
    ("https://Bücher.example/x", "https://xn--bcher-kva.example/x"),
    ("https://ＥＸＡＭＰＬＥ.com/a", "https://example.com/a"),
    ("https://user@straße.de:8080/p?utm_source=x#top", "straße.de:8080/p"),
])
def test_spellings_of_one_host_share_a_key(a: str, b: str) -> None:
    assert dedupe_key(a) == dedupe_key(b)
    assert dedupe_key(dedupe_key(a)) == dedupe_key(a)  # still a fixed point


def entry(url: str) -> dict[str, str]:
    return {"id": "src-001", "url": url, "canonical_url": url, "title": "Güterverkehr 2023",
            "fetched_at": "2026-01-01T00:00:00Z", "body_excerpt": "Freight grew 2 per cent in 2023.", "summary": "s",
            "retrieval_query": "q", "retrieval_tool": "t"}


def test_the_corpus_lookup_never_takes_strasse_for_strasse_with_eszett() -> None:
    index = CorpusIndex(build_corpus("c.json", [entry("https://strasse.de/x")], [1]))
    assert index.lookup("https://strasse.de/x") == "src-001"
    assert index.lookup("https://straße.de/x") == "" and index.lookup("https://xn--strae-oqa.de/x") == ""
    own = CorpusIndex(build_corpus("c.json", [entry("https://straße.de/x")], [1]))
    assert own.lookup("https://xn--strae-oqa.de/x") == "src-001" and own.lookup("https://strasse.de/x") == ""


def test_write_hybrid_does_not_keep_another_domain_as_a_corpus_link(tmp_path: Path) -> None:
    (tmp_path / "c.json").write_text(json.dumps([entry("https://strasse.de/x")]), encoding="utf-8")
    (tmp_path / "draft.md").write_text("Freight grew ([Güterverkehr 2023](https://straße.de/x)).\n", encoding="utf-8")
    result = CliRunner(env={"GITHUB_ACTIONS": None}).invoke(main, [
        "write", str(tmp_path / "draft.md"), "--corpus", str(tmp_path / "c.json"), "-o", str(tmp_path / "memo.md"),
        "--hybrid", "--format", "json"])
    memo = (tmp_path / "memo.md").read_text(encoding="utf-8") if (tmp_path / "memo.md").exists() else ""
    assert "src-001" not in memo and "strasse.de" not in memo, memo
    assert result.exit_code == 1, result.output
