"""`write` keeps legitimate memos (issue 26 item 11), each failure of the probe as a regression test:
a source titled "Amazon.com, Inc. – Form 10-K", "Booking.com results" or "GOV.UK road freight
statistics", or a corpus URL with a Unicode IDN host, made `write` refuse ("links 'http://Amazon.com'
… not in the corpus"); a corpus URL with a space silently lost its footnote URL; abrupt HTML comments
(`<!-->`, `--!>`) hid the rest of the draft from the gate. And the invariant holds in every case:
nothing the renderers link is outside the corpus, and no marker lands inside an HTML tag.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from citecheck.cli import main
from citecheck.extract.corpus import build_corpus
from citecheck.urltext.corpusindex import CorpusIndex
from citecheck.urltext.regions import in_tag, literal_regions
from citecheck.write.rendered import host_forms, leaks, rendered_links


def entry(title: str, url: str, sid: str = "src-001") -> dict[str, str]:
    return {"id": sid, "url": url, "canonical_url": url, "title": title, "fetched_at": "2026-01-01T00:00:00Z",
            "body_excerpt": "EU road freight grew 2 per cent in 2023.", "summary": "s", "retrieval_query": "q",
            "retrieval_tool": "t"}


def run_write(tmp_path: Path, draft: str, *entries: dict[str, str]) -> tuple[Result, str]:
    (tmp_path / "c.json").write_text(json.dumps(list(entries), ensure_ascii=False, indent=1), encoding="utf-8")
    (tmp_path / "draft.md").write_text(draft, encoding="utf-8")
    result = CliRunner(env={"GITHUB_ACTIONS": None}).invoke(main, [
        "write", str(tmp_path / "draft.md"), "--corpus", str(tmp_path / "c.json"), "-o", str(tmp_path / "memo.md"),
        "--format", "json"])
    memo = (tmp_path / "memo.md").read_text(encoding="utf-8") if (tmp_path / "memo.md").exists() else ""
    return result, memo


def no_leak(memo: str, *entries: dict[str, str]) -> None:
    corpus = build_corpus("c.json", list(entries), list(range(1, len(entries) + 1)))
    assert leaks(memo, CorpusIndex(corpus)) == [], memo


@pytest.mark.parametrize("title", ["Amazon.com, Inc. – Form 10-K", "Booking.com results",
                                   "GOV.UK road freight statistics", "bücher.de and example.co.uk figures"])
def test_a_title_with_a_host_is_kept_and_linked_nowhere(tmp_path: Path, title: str) -> None:
    source = entry(title, "https://www.sec.gov/Archives/edgar/data/1018724/000101872424000008/amzn-20231231.htm")
    result, memo = run_write(tmp_path, "Revenue grew 12 per cent [src-001].\n", source)
    assert result.exit_code == 0, result.output
    assert source["url"] in memo and "[^1]: " in memo
    assert [link.url for link in rendered_links(memo) if not link.url.startswith("#")] == [source["url"]] * 2
    assert title.split(" ")[0].replace(".", "\\.") in memo  # the words stay, escaped
    no_leak(memo, source)


@pytest.mark.parametrize("url", ["https://bücher.example/statistik", "https://xn--bcher-kva.example/statistik",
                                 "https://straße.de/güterverkehr?jahr=2023"])
def test_an_idn_corpus_url_is_kept(tmp_path: Path, url: str) -> None:
    source = entry("Güterverkehr 2023", url)
    result, memo = run_write(tmp_path, "Freight grew [src-001].\n", source)
    assert result.exit_code == 0, result.output
    assert f"<{url}>" in memo
    no_leak(memo, source)


def test_a_corpus_url_with_a_space_keeps_its_footnote_url(tmp_path: Path) -> None:
    source = entry("Road freight", "https://example.org/road freight 2023.pdf")
    result, memo = run_write(tmp_path, "Freight grew [src-001].\n", source)
    assert result.exit_code == 0, result.output
    assert "<https://example.org/road%20freight%202023.pdf>" in memo
    no_leak(memo, source)


@pytest.mark.parametrize("opener", ["<!-->", "<!--->", "<!-- note --!>"])
def test_an_abrupt_comment_hides_nothing_from_the_gate(tmp_path: Path, opener: str) -> None:
    """A browser ends these comments at once (or at `--!>`): what follows is text, citations included."""
    source = entry("Road freight", "https://a.org/road")
    draft = (f"Intro {opener} freight grew [src-001], see <a href=\"https://evil.example.com/x\">this</a> and "
             "https://evil.example.com/y.\n\nMore [src-001].\n")
    result, memo = run_write(tmp_path, draft, source)
    assert result.exit_code == 1, result.output  # the draft linked outside the corpus: reported, memo written
    assert "evil.example.com" not in memo and "[src-001]" not in memo and memo.count("[^1]") == 3
    assert not any(in_tag(memo, m.start()) for m in re.finditer("<needs-source", memo))
    no_leak(memo, source)


def test_a_comment_opener_inside_an_attribute_is_text(tmp_path: Path) -> None:
    source = entry("Road freight", "https://a.org/road")
    result, memo = run_write(tmp_path, '<p title="x <!-- y">see https://evil.example.com/q</p> [src-001]\n', source)
    assert result.exit_code == 1 and "[src-001]" not in memo and "[^1]" in memo
    no_leak(memo, source)


def test_comment_regions_end_where_a_browser_ends_them() -> None:
    text = "a <!--> b <!---> c <!-- d --!> e <!-- f --> g"
    regions = literal_regions(text)
    assert [text[s:e] for s, e in regions.spans] == ["<!-->", "<!--->", "<!-- d --!>", "<!-- f -->"]


def test_a_take_out_in_a_tag_never_writes_the_marker_there() -> None:
    from citecheck.write.rendered import _replace

    text = '<img alt="x" src="https://evil.example.com/i.png"> and https://evil.example.com/i.png'
    out = _replace(text, "https://evil.example.com/i.png", '<needs-source reason="uncorpused-url"/>')
    assert out == '<img alt="x" src="#"> and <needs-source reason="uncorpused-url"/>'


def test_host_forms_equate_only_the_same_host() -> None:
    assert "https://bücher.example/x" in host_forms("https://b%C3%BCcher.example/x")
    assert "https://bücher.example/x" in host_forms("https://xn--bcher-kva.example/x")
    assert host_forms("https://a.org%2F@evil.com/x") == ["https://a.org%2F@evil.com/x"]  # userinfo: the browser's host
    assert host_forms("https://evil.com%40a.org/") == ["https://evil.com%40a.org/"]


def test_an_idn_spelling_never_equates_two_domains(tmp_path: Path) -> None:
    """IDNA 2003 (the fact keys) folds `straße.de` into `strasse.de`; a browser goes to
    `xn--strae-oqa.de`, another domain: a link there is not the corpus's `strasse.de`."""
    from citecheck.write.rendered import _allowed

    corpus = build_corpus("c.json", [entry("Strasse", "https://strasse.de/x")], [1])
    index = CorpusIndex(corpus)
    assert _allowed("https://strasse.de/x", index)
    assert not _allowed("https://xn--strae-oqa.de/x", index) and not _allowed("https://stra%C3%9Fe.de/x", index)
    own = CorpusIndex(build_corpus("c.json", [entry("Straße", "https://straße.de/x")], [1]))
    assert _allowed("https://xn--strae-oqa.de/x", own) and _allowed("https://stra%C3%9Fe.de/x", own)
