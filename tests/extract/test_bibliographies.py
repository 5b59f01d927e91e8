"""Pandoc citations, .bib / CSL bibliographies, and a Quarto memo audited against its bibliography."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from citecheck.cli import main
from citecheck.extract import extract_document, sniff
from citecheck.extract.bibliography import parse_bibliography
from citecheck.extract.bibtex import bibtex_authors, load_bibtex
from citecheck.extract.csl import load_csl_json
from citecheck.extract.pandoc import bibliography_refs, citations

BIB = """% a comment
@string{jcl = "Journal of Climate"}

@article{doe2020,
  title = {Ocean {Heat} Content and {\\"U}ber-Trends},
  author = {Doe, Jane and van der Berg, Piet and {World Health Organization}},
  journal = jcl,
  year = 2020,
  doi = {https://doi.org/10.1175/JCLI-D-19-0001.1},
}

  @misc{vaswani2017,
  title = "Attention Is All You Need",
  author = "Vaswani, Ashish and others",
  eprint = {1706.03762}, archivePrefix = {arXiv}, year = {2017}}
"""


def test_bibtex_entries_keep_their_line_and_fields() -> None:
    bib = load_bibtex("refs.bib", BIB)
    first, second = bib.entries
    assert (first.key, first.location.line, first.location.column) == ("doe2020", 4, 1)
    assert first.title == "Ocean Heat Content and Über-Trends"
    assert first.authors == ("Doe, Jane", "van der Berg, Piet", "World Health Organization")
    assert (first.year, first.doi, first.venue) == (2020, "10.1175/jcli-d-19-0001.1", "Journal of Climate")
    assert (second.location.line, second.location.column, second.arxiv, second.authors) == (
        12, 3, "1706.03762", ("Vaswani, Ashish",))
    assert bib.unreadable == ()


def test_two_entries_on_one_line_each_point_at_their_own_head() -> None:
    text = "% two on a line\n@article{first, title={A}, year={2020}} @book{second, title={B}, year={2021}}\n"
    bib = load_bibtex("refs.bib", text)
    where = {e.key: (e.location.line, e.location.column) for e in bib.entries}
    assert where == {"first": (2, 1), "second": (2, text.split("\n")[1].index("@book") + 1)}


def test_bibtex_author_list_splits_outside_braces_only() -> None:
    assert bibtex_authors("{Barnes and Noble, Inc.} and Smith, J.") == ("Barnes and Noble, Inc.", "Smith, J.")


def test_csl_json_items_located_at_their_id() -> None:
    text = json.dumps([{"id": "a1", "type": "book", "title": "T", "issued": {"date-parts": [[1999, 2]]},
                        "author": [{"family": "Lee", "given": "K"}], "DOI": "10.1000/X"}], indent=2)
    bib = load_csl_json("refs.json", text)
    entry = bib.entries[0]
    assert (entry.key, entry.location.line, entry.year, entry.authors, entry.doi) == ("a1", 3, 1999, ("Lee, K",), "10.1000/x")
    assert sniff("refs.json", text) == "csl-json"
    assert sniff("corpus.json", '[{"id": "src-001", "url": "https://x.org", "type": "book"}]') == "corpus"
    assert parse_bibliography("refs.json", text).format == "csl-json"


@pytest.mark.parametrize(("text", "keys"), [
    ("[@doe99; @smith2000]", [("doe99", True), ("smith2000", True)]),
    ("[see @doe99, pp. 33-35; also -@smith04, chap. 1]", [("doe99", True), ("smith04", True)]),
    ("@Foo_bar.baz. says", [("Foo_bar.baz", False)]),
    ("@Foo_bar--baz", [("Foo_bar", False)]),
    ("[@{https://example.com/bib?name=foobar&date=2000}, p. 33]", [("https://example.com/bib?name=foobar&date=2000", True)]),
    ("mail ir@acme.com or \\@escaped", []),
    ("@fig-plot and [@tbl-costs; @eq-energy]", []),
])
def test_pandoc_citation_keys(text: str, keys: list[tuple[str, bool]]) -> None:
    assert [(c.key, c.bracketed) for c in citations(text)] == keys


def test_front_matter_names_the_bibliography() -> None:
    refs = bibliography_refs({"bibliography": ["a.bib", "b.json"], "nocite": "@x, @{y.z}", "references": []})
    assert refs.files == ("a.bib", "b.json") and refs.inline and refs.nocite == {"x", "y.z"}
    assert bibliography_refs({"nocite": "@*"}).nocite == {"*"}


def test_markdown_markers_skip_code_links_and_urls() -> None:
    doc = extract_document("m.md", "A [@a1] `[@b2]` [x @c3](https://e.org/@d4) https://medium.com/@e5 @f6.\n")
    assert [(m.kind, m.value) for m in doc.markers] == [("citation", "a1"), ("in-text-citation", "f6")]


QMD = """---
title: "Ocean memo"
bibliography: refs.bib
---

# Findings

Ocean heat content rose [@doe2020] and attention is all you need [@vaswani2017, p. 3].
Margins fell [@smith2021ocean]. As @patel2022 argues; ping @octocat or ir@acme.com.
"""


def _audit(*args: str) -> tuple[int, dict]:  # type: ignore[type-arg]
    result = CliRunner(env={"GITHUB_ACTIONS": None}).invoke(main, ["audit", "--offline", "--format", "json", *args])
    return result.exit_code, json.loads(result.stdout) if result.stdout.strip() else {}


def test_quarto_memo_audited_end_to_end(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "refs.bib").write_text(BIB + "@book{doe2020, title = {Twin}, year = 2020}\n@book{lee2019, title={M}}\n",
                                       encoding="utf-8")
    (tmp_path / "memo.qmd").write_text(QMD, encoding="utf-8")
    monkeypatch.chdir(tmp_path.parent)
    code, report = _audit(str(tmp_path / "memo.qmd"))
    got = sorted((f["rule"], Path(f["path"]).name, f["line"], f["evidence"] if f["rule"] != "U003" else "")
                 for f in report["findings"])
    assert code == 1
    assert got == [("B001", "refs.bib", 16, "doe2020"), ("M012", "memo.qmd", 9, "patel2022"),
                   ("M012", "memo.qmd", 9, "smith2021ocean"), ("M013", "refs.bib", 17, "lee2019"),
                   ("U003", "memo.qmd", 9, "")], got


def test_bibliography_option_for_memos_without_front_matter(tmp_path: Path) -> None:
    (tmp_path / "refs.bib").write_text(BIB, encoding="utf-8")
    (tmp_path / "memo.md").write_text("Heat rose [@doe2020; @vaswani2017; @ghost2024].\n", encoding="utf-8")
    code, report = _audit(str(tmp_path / "memo.md"), "--bibliography", str(tmp_path / "refs.bib"))
    assert code == 1 and [f["evidence"] for f in report["findings"] if f["rule"] == "M012"] == ["ghost2024"]
    code, report = _audit(str(tmp_path / "memo.md"))
    assert code == 0 and not report["findings"]


def test_missing_bibliography_is_e003_not_unknown_keys(tmp_path: Path) -> None:
    (tmp_path / "memo.md").write_text("---\nbibliography: nowhere.bib\n---\nHeat rose [@doe2020].\n", encoding="utf-8")
    code, report = _audit(str(tmp_path / "memo.md"))
    assert [f["rule"] for f in report["findings"]] == ["E003"]
    assert "nowhere.bib" in report["findings"][0]["path"] and code != 0


DRAFT = """---
title: "Ocean memo"
bibliography: refs.bib
---

Ocean heat content rose [@doe2020; see @ghost2021, p. 3] per [the paper](https://evil.example/x).
Margins fell [@smith2021ocean]. As @patel2022 argues, costs rise. Ping @octocat; `[@code2020]`.
"""


def test_write_gates_a_pandoc_draft_against_its_bibliography(tmp_path: Path) -> None:
    (tmp_path / "refs.bib").write_text(BIB, encoding="utf-8")
    (tmp_path / "draft.qmd").write_text(DRAFT, encoding="utf-8")
    out = tmp_path / "memo.qmd"
    result = CliRunner(env={"GITHUB_ACTIONS": None}).invoke(
        main, ["write", str(tmp_path / "draft.qmd"), "-o", str(out), "--format", "json",
               "--bibliography", str(tmp_path / "refs.bib")])
    assert result.exit_code == 1, result.output
    memo = out.read_text(encoding="utf-8")
    assert "[@doe2020]" in memo
    body = memo.split("---\n", 2)[2]
    assert "@ghost2021" not in body and "@smith2021ocean" not in body and "evil.example" not in body
    assert body.count("<needs-source") == 3 and "`[@code2020]`" in body and "@octocat" in body
    report = json.loads(result.stdout)
    assert sorted(f["evidence"] for f in report["findings"] if f["rule"] == "M012") == [
        "ghost2021", "patel2022", "smith2021ocean"]
    assert report["summary"]["unknown_keys"] == 3 and report["summary"]["corpora"] == 0


def test_write_needs_a_corpus_or_a_bibliography(tmp_path: Path) -> None:
    (tmp_path / "draft.md").write_text("Heat rose [@doe2020].\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["write", str(tmp_path / "draft.md"), "-o", str(tmp_path / "m.md")])
    assert result.exit_code == 2 and "--bibliography" in result.output


def test_write_never_takes_the_drafts_own_references(tmp_path: Path) -> None:
    """A draft that lists its invented works inline cannot vouch for its own keys."""
    (tmp_path / "refs.bib").write_text(BIB, encoding="utf-8")
    (tmp_path / "draft.md").write_text("---\nreferences:\n  - {id: ghost2021, type: book, title: Ghost}\n---\n"
                                       "Heat rose [@ghost2021].\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["write", str(tmp_path / "draft.md"), "-o", str(tmp_path / "m.md"),
                                       "--bibliography", str(tmp_path / "refs.bib"), "--format", "json"])
    assert result.exit_code == 1 and "<needs-source" in (tmp_path / "m.md").read_text(encoding="utf-8")


def test_citation_keys_are_scored_like_source_ids(tmp_path: Path) -> None:
    (tmp_path / "refs.bib").write_text(BIB, encoding="utf-8")
    (tmp_path / "memo.md").write_text("---\nbibliography: refs.bib\n---\n# Memo\n\nA [@doe2020]. B [@ghost2024].\n",
                                      encoding="utf-8")
    _code, report = _audit(str(tmp_path / "memo.md"))
    summary = report["summary"]
    assert summary["citations"] == 2 and summary["verdicts"] == {"fabricated": 1, "ok": 1}
    assert summary["citation_truth_score"] == 2.5  # weights 3 (fabricated, 0) and 1 (ok, 1)
    (tmp_path / "bare.md").write_text("# Memo\n\nA [@doe2020].\n", encoding="utf-8")
    _code, report = _audit(str(tmp_path / "bare.md"))
    assert report["summary"]["verdicts"] == {"unchecked": 1}  # no bibliography: looked up by nobody
