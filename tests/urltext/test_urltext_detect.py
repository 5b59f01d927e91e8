"""The URL-text detector (`citecheck.urltext.detect`) against what markdown-it-py's linkify links.

A schemeless host with a path right after an underscore (`_evil.com/x_`: emphasis around the host)
is linked by markdown-it, so the detector must find it itself: `write` removes it as a `domain`,
M009 reports it in `audit --corpus`, and the render check never has to take it out.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from citecheck import audit
from citecheck.config import Config
from citecheck.extract import load_corpus
from citecheck.urltext.corpusindex import CorpusIndex
from citecheck.urltext.detect import url_spans
from citecheck.urltext.violations import url_violations
from citecheck.write import transform
from citecheck.write.rendered import render_markdown_it

CORPUS = load_corpus(str(Path(__file__).resolve().parents[2] / "fixtures" / "write" / "corpus.json"))
INDEX = CorpusIndex(CORPUS)
UNDERSCORED = [  # (text, the URL as written, markdown-it's href)
    ("_evil.com/x_", "evil.com/x", "http://evil.com/x"),
    ("__evil.com/x__", "evil.com/x", "http://evil.com/x"),
    ("_evil.com:8080_", "evil.com:8080", "http://evil.com:8080"),
    ("_evil.com?q=1_", "evil.com?q=1", "http://evil.com?q=1"),
    ("_a.evil.com/x_", "a.evil.com/x", "http://a.evil.com/x"),
    ("_xn--80ak6aa92e.com/x_", "xn--80ak6aa92e.com/x", "http://xn--80ak6aa92e.com/x"),
    ("_//evil.com/x_", "//evil.com/x", "//evil.com/x"),
]


@pytest.mark.parametrize(("text", "written", "href"), UNDERSCORED)
def test_a_host_after_an_underscore_is_found_whole(text: str, written: str, href: str) -> None:
    assert f'href="{href}"' in render_markdown_it(text), "markdown-it no longer links this: the case is void"
    assert [text[s.start:s.end] for s in url_spans(text)] == [written]


@pytest.mark.parametrize(("text", "written", "href"), UNDERSCORED)
def test_write_removes_it_as_a_url_and_m009_reports_it(text: str, written: str, href: str) -> None:
    out = transform(f"Claim [src-001]. {text} more.", INDEX)
    assert [(v.url, v.kind) for v in out.violations] == [(written, "domain")]
    assert "evil" not in out.text and "xn--80ak6aa92e" not in out.text
    assert [v.url for v in url_violations(f"Claim. {text} more.", INDEX, allow_corpus=True)] == [written]


def test_m009_in_audit_reports_the_underscored_host(tmp_path: Path) -> None:
    memo = tmp_path / "memo.md"
    memo.write_text("Claim [src-001]. See _evil.com/x_ for more.\n", encoding="utf-8")
    found = audit([str(memo)], Config(select=("M009",)), corpus=CORPUS).findings
    assert [(f.rule, f.line, f.column, f.url) for f in found] == [("M009", 1, 23, "evil.com/x")]


@pytest.mark.parametrize("text", ["my_site.com/x", "x_evil.com/x", "snake_case.io/p"])
def test_an_underscore_inside_a_label_keeps_the_whole_host(text: str) -> None:
    assert [text[s.start:s.end] for s in url_spans(text)] == [text]
