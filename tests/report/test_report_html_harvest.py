"""`render_harvest_report`: kept and rejected candidates per section, escaped, self-contained."""
from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest
from browser import Browser, chromium_path
from tools import artifacts_dir

from citecheck.models import Finding, Severity, Source, Verdict
from citecheck.report.html_harvest import render_harvest_report

ARTIFACTS = artifacts_dir()
HOSTILE = '<script>window.__pwned=1</script>"><img src=x onerror="window.__pwned=2">'


def result() -> dict[str, Any]:
    placeholder = Finding("<harvest>", 1, 1, "U001", "placeholder-domain", Severity.ERROR,
                          "placeholder domain 'example.com'", "https://example.com/x", "example.com",
                          verdict=Verdict.FABRICATED)
    return {
        "title": "Harvest for the Lumen memo",
        "sections": {
            "Market": {
                "kept": [Source("src-001", "https://www.trucking.org/data", title="Economics and Industry Data",
                                final_url="https://www.trucking.org/economics", status=200,
                                retrieval_query="US trucking freight share"),
                         {"id": "src-002", "url": "https://www.bts.gov/freight", "title": HOSTILE, "status": 200}],
                "rejected": [
                    {"url": "https://example.com/x", "findings": [placeholder]},
                    {"url": "javascript:alert(1)", "title": HOSTILE, "reasons": ["not a web URL"]},
                    {"url": "https://dead.example-site.com/", "findings": [
                        {"rule": "H001", "name": "http-error", "severity": "error", "message": "HTTP 404",
                         "url": "https://dead.example-site.com/", "evidence": "404 Not Found", "verdict": "dead"}]},
                ],
            },
            "Traction": {"kept": [], "rejected": [
                {"url": "https://soft.example-site.com/", "reasons": "soft 404",
                 "findings": [{"rule": "H003", "name": "soft-404", "severity": "error", "message": "not found page", "verdict": "soft-404",
                               "fix": "https://web.archive.org/web/2024/https://soft.example-site.com/"}]}]},
        },
    }


def test_kept_and_rejected_are_listed_per_section_with_reasons() -> None:
    page = render_harvest_report(result())
    assert page.startswith("<!DOCTYPE html>") and "<h1>Harvest for the Lumen memo</h1>" in page
    assert '<td data-k="000002" data-kept="1">2</td><td data-k="000003" data-rejected="1">3</td>' in page
    assert '<td data-k="000000" data-kept="2">0</td><td data-k="000001" data-rejected="2">1</td>' in page
    assert "<code>src-001</code>" in page and "query: US trucking freight share" in page
    assert 'final: <a class="ext" href="https://www.trucking.org/economics"' in page
    assert 'class="badge v-fabricated"' in page and 'class="badge v-dead"' in page and "v-soft-404" in page
    assert "<li>not a web URL</li>" in page and "<li>soft 404</li>" in page
    assert '<q>404 Not Found</q>' in page and 'fix: <a class="ext" href="https://web.archive.org/' in page
    assert "<code>U001 placeholder-domain</code> <b>1</b>" in page


def test_hostile_strings_are_escaped_and_javascript_is_not_linked() -> None:
    page = render_harvest_report(result())
    assert HOSTILE not in page and "<img" not in page and page.count("<script") == 1
    assert "&lt;script&gt;window.__pwned=1&lt;/script&gt;" in page
    assert not re.search(r'href="\s*javascript', page, re.IGNORECASE)
    assert '<span class="nolink" title="not a web link: shown as text">javascript:alert(1)</span>' in page


def test_sections_as_a_list_and_empty_input() -> None:
    listed = render_harvest_report({"sections": [{"name": "Only", "kept": [{"id": "src-009", "url": "https://a.org/"}]}]})
    assert 'href="#s1">Only</a>' in listed and "None rejected." in listed
    empty = render_harvest_report({})
    assert "0 sources kept and 0 candidates rejected across 0 sections." in empty


def test_deterministic_and_stamped_only_when_asked() -> None:
    assert render_harvest_report(result()) == render_harvest_report(result())
    assert "Generated" not in render_harvest_report(result())
    assert "Generated 2026-11-29T14:00:00Z." in render_harvest_report({**result(), "generated_at": "2026-11-29T14:00:00Z"})


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.skipif(chromium_path() is None, reason="chromium is not installed (run .ci/install-chromium.sh)")
def test_harvest_report_in_the_browser(tmp_path: Path) -> None:
    target = tmp_path / "harvest.html"
    target.write_text(render_harvest_report(result()), encoding="utf-8")

    async def main() -> None:
        async with Browser() as browser:
            tab = await browser.new_tab()
            await tab.goto(target.as_uri())
            await tab.screenshot(ARTIFACTS / "html-harvest-1280.png", 1280, 900, full_page=True)
            await tab.screenshot(ARTIFACTS / "html-harvest-phone.png", 390, 844, mobile=True, full_page=True)
            assert await tab.evaluate("document.documentElement.classList.contains('js')")
            assert await tab.evaluate("typeof window.__pwned") == "undefined"
            assert [u for u in tab.requested_urls() if u != target.as_uri()] == []
            assert tab.console_errors() == [] and tab.events("Page.javascriptDialogOpening") == []

    asyncio.run(main())
