"""End to end: the HTML report in headless Chromium over the DevTools protocol (tests/browser.py).

The page is opened from file:// and must request nothing but itself, log no error, run its
script under its own CSP, show the JSON report's numbers, never execute hostile text, open
evidence in one click (two without JavaScript) and print with every panel expanded.
Screenshots land in $CITECHECK_TEST_ARTIFACTS (default: citecheck-test-artifacts/ in the temp
directory) for a human to look at.
"""
from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from browser import SharedBrowser, Tab, chromium_path
from reportsample import sample_report
from tools import artifacts_dir

from citecheck.report import ReportContext, render

ARTIFACTS = artifacts_dir()
pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(chromium_path() is None,
                                 reason="chromium is not installed (run .ci/install-chromium.sh)")]

Sample = tuple[str, dict[str, Any]]  # (html page, JSON payload) of the same audit
SUMMARY_JS = """(() => {
  const pick = (sel, attr) => Object.fromEntries([...document.querySelectorAll(sel)].map(
    e => [e.getAttribute(attr), (e.querySelector('.num') || e).textContent.trim()]));
  return {keys: pick('#summary [data-key]', 'data-key'), rules: pick('[data-rule-count]', 'data-rule-count'),
          memos: pick('[data-memo-score]', 'data-memo-score'), sections: pick('[data-section-score]', 'data-section-score'),
          legend: pick('#verdicts [data-verdict]', 'data-verdict'),
          highlighted: [...document.querySelectorAll('.src a.cite')].map(a => a.className.split(' v-')[1])};
})()"""


@pytest.fixture(scope="module")
def chromium() -> Iterator[SharedBrowser]:
    shared = SharedBrowser()
    yield shared
    shared.close()


def run_in_tab(chromium: SharedBrowser, html: str, tmp_path: Path, check: Callable[[Tab, str], Awaitable[Any]],
               name: str = "report") -> Any:
    """Write `html` to a file, open it in a fresh 1280-px tab, run `check(tab, file_url)`."""
    target = tmp_path / f"{name}.html"
    target.write_text(html, encoding="utf-8")

    async def main() -> Any:
        tab = await chromium.browser.new_tab()
        try:
            await tab.send("Emulation.setDeviceMetricsOverride", {"width": 1280, "height": 900,
                                                                   "deviceScaleFactor": 1, "mobile": False})
            await tab.goto(target.as_uri())
            return await check(tab, target.as_uri())
        finally:
            await tab.close()
    return chromium.call(main())


def assert_clean(tab: Tab, own_url: str) -> None:
    stray = [u for u in tab.requested_urls() if u != own_url and not u.startswith("data:")]
    assert stray == [], f"the report requested {stray}"
    assert tab.console_errors() == []
    assert tab.events("Page.javascriptDialogOpening") == []


@pytest.fixture(scope="module")
def sample() -> Sample:
    report, findings, summary = sample_report()
    page = render("html", findings, summary, ReportContext(report=report))
    payload = json.loads(render("json", findings, summary, ReportContext(report=report)))
    return page, payload


def test_report_loads_offline_clean_and_shows_the_json_numbers(chromium: SharedBrowser, sample: Sample, tmp_path: Path) -> None:
    page, payload = sample

    async def check(tab: Tab, url: str) -> dict[str, Any]:
        assert await tab.evaluate("document.documentElement.classList.contains('js')"), "script blocked by CSP?"
        shown = await tab.evaluate(SUMMARY_JS)
        await tab.screenshot(ARTIFACTS / "html-report-1280.png", 1280, 900, full_page=True)
        await tab.screenshot(ARTIFACTS / "html-report-phone.png", 390, 844, mobile=True, full_page=True)
        assert await tab.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth"), \
            "the page scrolls sideways on a phone"
        assert_clean(tab, url)
        return dict(shown)

    shown = run_in_tab(chromium, page, tmp_path, check)
    summary = payload["summary"]
    for key, text in shown["keys"].items():
        assert float(text) == float(summary[key]), key
    assert {"findings", "errors", "warnings", "infos", "links", "urls", "citation_truth_score"} <= set(shown["keys"])
    assert {k: int(v) for k, v in shown["rules"].items()} == summary["by_rule"]
    assert {k: float(v) for k, v in shown["memos"].items()} == summary["memos"]
    assert {k: float(v) for k, v in shown["sections"].items()} == {k: v["score"] for k, v in summary["sections"].items()}
    counted = {v: shown["highlighted"].count(v) for v in shown["legend"]}
    assert {k: int(v) for k, v in shown["legend"].items()} == counted
    assert all(int(v) > 0 for v in shown["legend"].values())  # the sample has every verdict
    assert (ARTIFACTS / "html-report-1280.png").stat().st_size > 10_000


@pytest.mark.parametrize("strip_csp", [False, True], ids=["with-csp", "escaping-alone"])
def test_hostile_text_never_executes(chromium: SharedBrowser, sample: Sample, tmp_path: Path, strip_csp: bool) -> None:
    page, _ = sample
    if strip_csp:  # prove the escaping holds by itself, not only because the CSP blocks script
        page = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", page)
        assert "Content-Security-Policy" not in page

    async def check(tab: Tab, url: str) -> None:
        await tab.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
        await asyncio.sleep(0.3)
        assert await tab.evaluate("typeof window.__pwned") == "undefined"
        assert await tab.evaluate("document.querySelectorAll('img, iframe, object, embed').length") == 0
        title = await tab.evaluate("[...document.querySelectorAll('.facts q')].map(q => q.textContent).join('|')")
        assert "<script>window.__pwned=1;alert(1)</script>" in title  # shown as text
        assert_clean(tab, url)

    run_in_tab(chromium, page, tmp_path, check)


def test_evidence_opens_from_the_highlight_by_mouse_and_keyboard(chromium: SharedBrowser, sample: Sample, tmp_path: Path) -> None:
    page, _ = sample
    aws = 'a.cite.v-fabricated[aria-label*="aws.amazon.com"]'

    async def check(tab: Tab, url: str) -> None:
        target = await tab.evaluate(f"document.querySelector('{aws}').getAttribute('href').slice(1)")
        await tab.evaluate(f"document.querySelector('{aws}').click()")
        await asyncio.sleep(0.2)
        assert await tab.evaluate(f"document.getElementById('{target}').open")
        assert await tab.evaluate(f"document.activeElement === document.querySelector('#{target} > summary')")
        panel = await tab.evaluate(f"document.getElementById('{target}').innerText")
        assert "Status chain" in panel and "404" in panel and "M010" in panel
        other = await tab.evaluate("document.querySelector('a.cite.v-dead').getAttribute('href').slice(1)")
        await tab.evaluate("document.querySelector('a.cite.v-dead').focus()")
        for kind in ("keyDown", "keyUp"):
            await tab.send("Input.dispatchKeyEvent", {"type": kind, "key": "Enter", "code": "Enter",
                                                      "windowsVirtualKeyCode": 13, "text": "\r"})
        await asyncio.sleep(0.2)
        assert await tab.evaluate(f"document.getElementById('{other}').open")
        assert_clean(tab, url)

    run_in_tab(chromium, page, tmp_path, check)


def test_without_javascript_evidence_is_two_clicks_away(chromium: SharedBrowser, sample: Sample, tmp_path: Path) -> None:
    page, _ = sample
    page = page.replace(page[page.index("<script>"):page.index("</script>") + 9], "")

    async def check(tab: Tab, url: str) -> None:
        assert not await tab.evaluate("document.documentElement.classList.contains('js')")
        assert await tab.evaluate("document.getElementById('ffilters').hidden")  # no dead controls
        row = "[...document.querySelectorAll('#ftable tr')].find(r => r.textContent.includes('M010'))"
        target = await tab.evaluate(f"{row}.querySelector('a').getAttribute('href').slice(1)")
        await tab.evaluate(f"{row}.querySelector('a').click()")  # click 1: jump to the panel
        assert await tab.evaluate("location.hash") == f"#{target}"
        await tab.evaluate(f"document.querySelector('#{target} > summary').click()")  # click 2: open it
        assert await tab.evaluate(f"document.getElementById('{target}').open")
        assert_clean(tab, url)

    run_in_tab(chromium, page, tmp_path, check)


def test_findings_table_filters_and_sorts(chromium: SharedBrowser, sample: Sample, tmp_path: Path) -> None:
    page, payload = sample

    async def check(tab: Tab, url: str) -> None:
        visible = "[...document.querySelectorAll('#ftable tbody tr')].filter(r => !r.hidden)"
        await tab.evaluate("const s = document.getElementById('f-sev'); s.value = 'error';"
                           "s.dispatchEvent(new Event('input', {bubbles: true}))")
        errors = sum(1 for f in payload["findings"] if f["severity"] == "error")
        assert await tab.evaluate(f"{visible}.length") == errors
        assert await tab.evaluate("document.getElementById('f-count').textContent") == \
            f"{errors} of {len(payload['findings'])} findings shown"
        await tab.evaluate("document.querySelectorAll('#ftable thead th button')[1].click()")
        rules = await tab.evaluate(f"{visible}.map(r => r.dataset.rule)")
        assert rules == sorted(rules)
        assert await tab.evaluate("document.querySelectorAll('#ftable thead th')[1].getAttribute('aria-sort')") == \
            "ascending"
        assert_clean(tab, url)

    run_in_tab(chromium, page, tmp_path, check)


def test_print_expands_every_panel_and_unsticks_the_header(chromium: SharedBrowser, sample: Sample, tmp_path: Path) -> None:
    page, _ = sample

    async def check(tab: Tab, url: str) -> None:
        closed_panel = "document.querySelector('details.ev:not([open]) .panel')"
        assert await tab.evaluate(f"{closed_panel}.checkVisibility()") is False
        await tab.send("Emulation.setEmulatedMedia", {"media": "print"})
        assert await tab.evaluate(f"{closed_panel}.checkVisibility()") is True
        assert await tab.evaluate("getComputedStyle(document.querySelector('.top')).position") == "static"
        pdf = await tab.send("Page.printToPDF", {})
        assert len(pdf["data"]) > 1000
        assert_clean(tab, url)

    run_in_tab(chromium, page, tmp_path, check)
