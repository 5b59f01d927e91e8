"""HTML memos: exact positions for attribute values, text runs (tails included), markers and comments."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from citecheck.extract import extract_document, read_text
from citecheck.extract.htmlfrag import TagMatcher
from citecheck.models import Document, Link, LinkKind


def extract(text: str) -> Document:
    return extract_document("memo.html", text, "html")


def at(text: str, link: Link) -> str:
    return text.split("\n")[link.location.line - 1][link.location.column - 1:]


PAGE = """<!doctype html>
<html><head><title>https://title.com/not-prose</title>
<link rel="dns-prefetch" href="//cdn.example.net">
<style>body { background: url(https://style.com/bg.png) }</style></head>
<body>
<h1>Findings</h1>
<p>Revenue grew <a
   class="cite"
   href="https://a.com/report?x=1&amp;y=2">per the filing</a> and then fell,
   see https://tail.com/later and <b>bold</b> then https://tail2.com/x.</p>
<h2>Code</h2>
<pre>curl https://pre.com/x</pre> <code><a href='https://code-link.com/'>c</a></code>
<script>var u = "https://script.com/x";</script>
<img srcset="https://s.com/a.png 1x,  https://s.com/b.png 2x" src=https://s.com/c.png alt="chart">
</body></html>
"""


def test_every_link_points_at_its_text() -> None:
    document = extract(PAGE)
    for link in document.links:
        assert at(PAGE, link).startswith(link.raw), link


def test_what_is_extracted_and_how() -> None:
    found = {link.url: (link.kind, link.location.line, link.in_code, link.section) for link in extract(PAGE).links}
    assert found == {
        "https://a.com/report?x=1&y=2": (LinkKind.HTML, 9, False, "Findings"),
        "https://tail.com/later": (LinkKind.BARE, 10, False, "Findings"),
        "https://tail2.com/x": (LinkKind.BARE, 10, False, "Findings"),
        "https://pre.com/x": (LinkKind.BARE, 12, True, "Code"),
        "https://code-link.com/": (LinkKind.HTML, 12, True, "Code"),
        "https://s.com/a.png": (LinkKind.HTML, 14, False, "Code"),
        "https://s.com/b.png": (LinkKind.HTML, 14, False, "Code"),
        "https://s.com/c.png": (LinkKind.HTML, 14, False, "Code"),
    }


def test_attribute_value_keeps_entities_in_raw() -> None:
    link = next(link for link in extract(PAGE).links if link.url.startswith("https://a.com"))
    assert (link.raw, link.location.column, link.text) == ("https://a.com/report?x=1&amp;y=2", 10, "per the filing")


def test_tail_text_after_nested_element_has_its_own_line_and_column() -> None:
    page = "<p>one <em>two\nthree</em> and https://after.com/x</p>"
    link = extract(page).links[0]
    assert (link.location.line, link.location.column) == (2, 16)


def test_markers_headings_and_directives_have_positions() -> None:
    page = ("<h1>T</h1>\n<p>Claim [src-004].\n<needs-source claim=\"why\"></needs-source></p>\n"
            "<!--\n citecheck: disable=U001 reason=\"ok\" -->\n<p>https://example.com/x</p>\n")
    document = extract(page)
    assert sorted((m.kind, m.value, m.location.line, m.location.column) for m in document.markers) == [
        ("needs-source", "why", 3, 1), ("source-id", "src-004", 2, 11)]
    assert [(h.level, h.text, h.location.line) for h in document.headings] == [(1, "T", 1)]
    directive = document.directives[0]
    assert (directive.action, directive.rules, directive.location.line, directive.target_line) == (
        "disable", ("U001",), 4, 6)


def test_unquoted_and_single_quoted_values() -> None:
    page = "<a href=https://u.com/x>u</a> <a href='https://s.com/y'>s</a>"
    assert [(link.url, link.location.column) for link in extract(page).links] == [
        ("https://u.com/x", 9), ("https://s.com/y", 40)]


def test_broken_quote_does_not_leak_markup_as_prose() -> None:
    # HTML5 (and lxml) read everything up to the next quote as the href; the standard tokenizer gives
    # up on the tag and calls it text: that "text" must not become bare links
    page = '<a href="http://www.example.com/>no end quote</a>\n<p>ok https://inside.com</p>\n<a href="x">'
    assert [link.kind for link in extract(page).links] == [LinkKind.HTML]


def test_declared_charset_is_honoured(tmp_path: Path) -> None:
    page = tmp_path / "latin.html"
    page.write_bytes('<meta charset="iso-8859-1"><a href="https://b\xfccher.de/">B\xfccher</a>'.encode("latin-1"))
    document = extract_document(str(page), read_text(str(page)), "html")
    assert [(link.url, link.text) for link in document.links] == [("https://bücher.de/", "Bücher")]


def test_empty_and_garbage_documents() -> None:
    for page in ("", "   ", "<", "<<<>>>", "<a href=", "\x0c", "<!-- unterminated"):
        assert extract(page).links == ()


def test_position_holds_when_the_two_parsers_disagree(monkeypatch: pytest.MonkeyPatch) -> None:
    # force the fallback: no scanned start tag matches, so the value is searched near lxml's line
    monkeypatch.setattr(TagMatcher, "find", lambda self, name, attr="", value=None: None)
    page = "<p>intro</p>\n<p>see <a\n   href=\"https://a.com/x\"\n  >a</a></p>\n"
    for document in (extract(page), extract_document("memo.md", "Text\n\n" + page)):
        link = next(link for link in document.links if link.kind is LinkKind.HTML)
        source = document.text
        assert at(source, link).startswith(link.raw) and link.location.line in (3, 5), link


@pytest.mark.parametrize("odd", ["<![0", "a<![1]", "<![foo]>", "<p>x <![0 y</p>"])
def test_unknown_marked_sections_never_end_an_audit(tmp_path: Path, odd: str) -> None:
    """`<![` that opens no marked section the tokenizer knows raised AssertionError from `_markupbase`
    and killed a whole directory walk: it is markup, and the links around it are still found."""
    from click.testing import CliRunner

    from citecheck.cli import main

    (tmp_path / "a.html").write_text(f"<p>{odd}</p><p><a href='https://example.com/a'>a</a></p>", encoding="utf-8")
    (tmp_path / "b.md").write_text("See [b](https://example.com/b).\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["audit", "--offline", "--format", "json", str(tmp_path)])
    assert result.exit_code == 1, result.output
    urls = {f["url"] for f in json.loads(result.stdout)["findings"]}
    assert {"https://example.com/a", "https://example.com/b"} <= urls
