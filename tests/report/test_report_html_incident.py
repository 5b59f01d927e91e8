"""The incident memo in the HTML report: every planted problem shows at its line; the fabricated
AWS URL's evidence (dead, never archived) is one click away with JavaScript, two without."""
from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import pytest
from browser import Browser, chromium_path
from tools import artifacts_dir

from citecheck._audit import Report, audit_inputs
from citecheck.config import FetchConfig, load_config
from citecheck.engine.registry import build_registry
from citecheck.extract import collect, load_corpus
from citecheck.fetch import Pages
from citecheck.models import Hop, Outcome, Page
from citecheck.report import ReportContext, render

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "memos"
MEMO = FIXTURES / "bad_incident_memo.md"
AWS = "https://aws.amazon.com/blogs/machine-learning/fabricated-slug-building-agentic-rag-pipelines/"
TTNEWS = "https://www.ttnews.com/articles/path/to/lumen-series-a"
SNAPSHOT = "https://web.archive.org/web/20240101000000/" + TTNEWS
ARTIFACTS = artifacts_dir()
pytestmark = pytest.mark.skipif(not MEMO.exists(), reason="fixtures/memos/bad_incident_memo.md is not written yet")


async def fake_fetch(urls: list[str], config: FetchConfig, /, **_: Any) -> Pages:
    """What an online run with --archive-check would learn about two of the memo's URLs."""
    return Pages({
        AWS: Page(AWS, Outcome.DEAD, 404, AWS, (Hop(AWS, 404),), title="Page not found | AWS", error="HTTP 404",
                  archived=False),
        TTNEWS: Page(TTNEWS, Outcome.DEAD, 404, TTNEWS, (Hop(TTNEWS, 404),), archived=True, snapshot_url=SNAPSHOT),
    })


def audited(online: bool, corpus: bool = False) -> tuple[Report, str]:
    config, registry = load_config(), build_registry()
    inputs = collect([str(MEMO)])
    loaded = load_corpus(str(FIXTURES / "corpus.json")) if corpus else None
    report = asyncio.run(audit_inputs(inputs, config, registry, online=online, corpus=loaded,
                                      fetcher=fake_fetch if online else None))
    page = render("html", report.findings, report.summary, ReportContext(registry=registry, report=report, corpus=loaded))
    return report, page


def shown_at_its_line(page: str, target: str, line: int) -> bool:
    """The element `target` sits between the row of `line` and the next row of the memo."""
    start = page.index(f'id="m1-L{line}"')
    end = page.find('id="m1-L', start + 10)
    return start < page.index(f'id="{target}"') < (end if end > 0 else len(page))


@pytest.mark.parametrize("online,corpus", [(False, False), (False, True), (True, False)],
                         ids=["offline", "offline-corpus", "online-facts"])
def test_every_planted_problem_is_shown_where_it_occurs(online: bool, corpus: bool) -> None:
    report, page = audited(online, corpus)
    expected = json.loads((FIXTURES / "bad_incident_memo.expected.json").read_text())
    found = {(f.rule, f.line, f.column) for f in report.findings}
    assert {(e["rule"], e["line"], e["column"]) for e in expected} <= found
    for f in report.findings:
        target = re.search(rf'<a href="#([\w-]+)" title="{re.escape(f.path)}, line {f.line}, column {f.column}">',
                           page)
        assert target, f
        assert shown_at_its_line(page, target.group(1), f.line), f
        details = page[page.index(f'id="{target.group(1)}"'):]
        assert '<code class="rule"' in details and f">{f.rule}</code>" in details.split("</details>", 1)[0], f


def test_the_fabricated_aws_url_carries_its_evidence() -> None:
    report, page = audited(online=True)
    m010 = next(f for f in report.findings if f.rule == "M010")
    assert m010.url == AWS
    panel = page[page.index('<details class="ev v-fabricated"', page.index(f'aria-label="Fabricated link: {AWS}')):]
    panel = panel.split("</details>", 1)[0]
    assert "none: the Wayback Machine has no snapshot" in panel
    assert '<span class="st">404</span>' in panel and "M010" in panel and "likely-fabricated" in panel
    assert f'Wayback snapshot: <a class="ext" href="{SNAPSHOT}"' in page  # the rotted one gets its fix


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.skipif(chromium_path() is None, reason="chromium is not installed (run .ci/install-chromium.sh)")
def test_aws_evidence_is_one_click_from_the_findings_table(tmp_path: Path) -> None:
    _, page = audited(online=True)
    target = tmp_path / "incident.html"
    target.write_text(page, encoding="utf-8")

    async def main() -> str:
        async with Browser() as browser:
            tab = await browser.new_tab()
            await tab.send("Emulation.setDeviceMetricsOverride", {"width": 1280, "height": 900,
                                                                   "deviceScaleFactor": 1, "mobile": False})
            await tab.goto(target.as_uri())
            row = "[...document.querySelectorAll('#ftable tr')].find(r => r.dataset.rule === 'M010')"
            panel = await tab.evaluate(f"{row}.querySelector('a').getAttribute('href').slice(1)")
            await tab.evaluate(f"{row}.querySelector('a').click()")
            await asyncio.sleep(0.3)
            assert await tab.evaluate(f"document.getElementById('{panel}').open")
            await tab.screenshot(ARTIFACTS / "html-incident-aws-evidence-1280.png", 1280, 900)
            await tab.screenshot(ARTIFACTS / "html-incident-phone.png", 390, 844, mobile=True)
            assert await tab.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
            assert [u for u in tab.requested_urls() if u != target.as_uri()] == []
            assert tab.console_errors() == [] and tab.events("Page.javascriptDialogOpening") == []
            return str(await tab.evaluate(f"document.getElementById('{panel}').innerText"))

    text = asyncio.run(main())
    assert "Wayback Machine has no snapshot" in text and "404" in text
