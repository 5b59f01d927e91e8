"""The HTML review report: escaping, every verdict, evidence, numbers, determinism, self-containment."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from reportsample import HOSTILE_TITLE, sample_report

from citecheck._audit import Report
from citecheck.cli import main
from citecheck.engine.registry import build_registry
from citecheck.extract import Inputs
from citecheck.extract.markdown import extract_markdown
from citecheck.models import Finding, Link, LinkKind, Location, Severity
from citecheck.report import ReportContext, render
from citecheck.report.html_markup import link_or_text, web_url
from citecheck.report.html_script import csp_hash
from citecheck.report.html_verdicts import VERDICTS


@pytest.fixture(scope="module")
def page() -> str:
    report, findings, summary = sample_report()
    return render("html", findings, summary, ReportContext(registry=build_registry(), report=report))


def test_every_verdict_is_highlighted_with_icon_and_label(page: str) -> None:
    for v in VERDICTS:
        assert f'class="cite v-{v.key}"' in page, v.key
        assert f'<use href="#i-{v.key}"/></svg><span class="lbl">{v.label}</span>' in page
        assert f'<symbol id="i-{v.key}"' in page


def test_hostile_page_title_is_escaped(page: str) -> None:
    assert HOSTILE_TITLE not in page
    assert "<img" not in page and "<svg onload" not in page and "onerror=\"window" not in page
    assert "&lt;script&gt;window.__pwned=1;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=" in page
    assert page.count("<script") == 1  # the report's own script only


def test_raw_html_in_the_memo_is_shown_escaped(page: str) -> None:
    assert '&lt;script&gt;window.__pwned = 3; alert(&quot;memo&quot;)&lt;/script&gt;' in page


@pytest.mark.parametrize("url", ["javascript:alert(1)", "JaVaScRiPt:alert(1)", " javascript:alert(1)",
                                 "java\tscript:alert(1)", "data:text/html,<script>alert(1)</script>",
                                 "vbscript:msgbox(1)", "https:javascript:alert(1)", "http://exa mple.com/",
                                 "//evil.example/x", "file:///etc/passwd", "https://\nexample.com"])
def test_only_http_urls_become_links(url: str) -> None:
    assert not web_url(url)
    assert "<a " not in link_or_text(url) and "href" not in link_or_text(url)


def test_http_urls_become_safe_links() -> None:
    html = link_or_text('https://example.org/a?b=1&c="x"')
    assert html.startswith('<a class="ext" href="https://example.org/a?b=1&amp;c=&quot;x&quot;"')
    assert 'rel="noreferrer noopener nofollow"' in html


def test_javascript_link_in_a_memo_is_not_rendered_as_a_link() -> None:
    doc = extract_markdown("m.md", "# M\n\nSee <a href=\"javascript:alert(1)\">x</a> and [y](javascript:alert(2)).\n")
    bad = Link("javascript:alert(3)", Location("m.md", 3, 1), LinkKind.HTML, raw="javascript:alert(3)")
    doc = type(doc)(**{**doc.__dict__, "links": (*doc.links, bad)})
    finding = Finding("m.md", 3, 1, "U002", "bad-scheme", Severity.ERROR, "not a web URL", "javascript:alert(3)")
    report = Report([finding], inputs=Inputs(documents=[doc]))
    page = render("html", [finding], report.summary, ReportContext(report=report))
    assert not re.search(r"href\s*=\s*\"\s*javascript", page, re.IGNORECASE)
    assert "javascript:alert(3)" in page


def test_evidence_panel_shows_chain_title_marker_passage_and_fix(page: str) -> None:
    assert '<span class="st">301</span> <a class="ext" href="https://sec.gov/Archives/edgar/data/320193/"' in page
    assert "Matched soft-404 marker:</span> <q>Page not found</q>" in page
    assert "Matched paywall marker:</span> <q>Subscribe to read</q>" in page
    assert "<figcaption>Best supporting passage</figcaption><blockquote>Revenue grew 45% in 2023" in page
    assert ('Wayback snapshot: <a class="ext" href="https://web.archive.org/web/2019/https://rotted.example-site.com'
            '/2019/story"') in page
    assert "Findings on this link (1)" in page


def test_summary_numbers_equal_the_json_summary(page: str) -> None:
    _, _, summary = sample_report()
    shown = dict(re.findall(r'<dd data-key="(\w+)">([\d.]+)</dd>', page))
    for key in ("findings", "errors", "warnings", "infos", "files", "links", "urls", "fetched", "citations"):
        assert shown[key] == str(summary[key]), key
    assert f'data-key="citation_truth_score"><span class="score poor"><span class="num">' \
           f'{summary["citation_truth_score"]}</span>' in page
    for rule, count in summary["by_rule"].items():
        assert f'data-rule-count="{rule}">{count}</b>' in page


def test_sections_are_ranked_by_trouble(page: str) -> None:
    table = page.split('id="sections"', 1)[1].split("</table>", 1)[0]
    names = re.findall(r'<th scope="row"><a href="#m1-L\d+">([^<]+)</a>', table)
    assert names == ["Evidence", "Incident review", "Offline notes"]


def test_every_finding_is_shown_where_it_occurs(page: str) -> None:
    _, findings, _ = sample_report()
    for f in findings:
        anchor = re.search(rf'<a href="#([\w-]+)" title="{re.escape(f.path)}, line {f.line}, column {f.column}">'
                           rf'{f.line}:{f.column}</a>', page)
        assert anchor, f
        assert f'id="{anchor.group(1)}"' in page
    assert 'id="m1-lf17"' in page  # the finding without a URL sits under its line


def test_output_is_deterministic_and_has_no_clock() -> None:
    first, second = (render("html", f, s, ReportContext(report=r)) for r, f, s in (sample_report(), sample_report()))
    assert first == second
    assert "Generated" not in first
    report, findings, summary = sample_report()
    stamped = render("html", findings, summary, ReportContext(report=report, generated_at="2026-11-29T12:00:00Z"))
    assert "Generated 2026-11-29T12:00:00Z." in stamped


def test_self_contained_with_a_strict_csp(page: str) -> None:
    style = page.split("<style>", 1)[1].split("</style>", 1)[0]
    script = page.split("<script>", 1)[1].split("</script>", 1)[0]
    csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', page).group(1).replace("&#x27;", "'")
    assert csp.startswith("default-src 'none'; ")
    assert f"style-src {csp_hash(style)}" in csp and f"script-src {csp_hash(script)}" in csp
    assert "img-src data:" in csp and "unsafe" not in csp
    assert not re.findall(r"<[^>]*\s(?:src|style|srcset|background)\s*=", page)  # no external resource or style attribute
    assert re.findall(r"<link [^>]*>", page) == ['<link rel="icon" href="data:,">']
    assert "@import" not in style and "url(" not in style


def test_without_a_report_context_the_findings_still_render() -> None:
    finding = Finding("memo.md", 2, 3, "U001", "placeholder-domain", Severity.ERROR, "placeholder", "https://example.com")
    page = render("html", [finding], {"findings": 1, "errors": 1})
    assert "2:3" in page and '<dd data-key="findings">1</dd>' in page


def test_cli_writes_the_html_report(tmp_path: Path) -> None:
    memo = tmp_path / "memo.md"
    memo.write_text("# Memo\n\nSee [x](https://example.com/a) <b>bold</b>.\n")
    out = tmp_path / "report.html"
    result = CliRunner().invoke(main, ["audit", str(memo), "--offline", "--format", "html", "-o", str(out)])
    assert result.exit_code == 1, result.output
    page = out.read_text()
    assert page.startswith("<!DOCTYPE html>") and 'class="cite v-fabricated"' in page
    assert "&lt;b&gt;bold&lt;/b&gt;" in page
