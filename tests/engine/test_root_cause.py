"""One finding per root cause (issue 25): a dead, soft-404 or walled link is one finding; what only
follows from it (title mismatch, unsupported claim, redirect advice) is named in its evidence, and
the score counts the link once. Run through the real engine and page stage, pages from a stub fetcher."""
from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

from citecheck._audit import Report, audit_inputs
from citecheck.config import build
from citecheck.engine.registry import build_registry
from citecheck.engine.rootcause import fold_derived
from citecheck.extract import Inputs, extract_document
from citecheck.fetch import Pages
from citecheck.models import Finding, Gate, Hop, Outcome, Page, Severity, Verdict

DEEP = "https://news.acme-robotics.com/2023/revenue-growth-annual-report"
HOME = "https://news.acme-robotics.com/"
MOVED = "https://news.acme-robotics.com/archive/2023/revenue-growth-annual-report"
CLAIM = "Acme's revenue grew 60% in 2023 ([revenue growth report]({url}))."
UNRELATED = "Welcome to Acme Robotics News. Latest stories from our newsroom about robots and factories."


def _page(url: str, status: int, title: str, text: str, final: str = "", chain: tuple[Hop, ...] = ()) -> Page:
    return Page(url, Outcome.OK if status < 400 else Outcome.DEAD, status, final or url, chain, {}, "text/html",
                title=title, text_sample=text, html_sample=f"<html><title>{title}</title><body>{text}</body></html>",
                sibling_status=404, sibling_text="Not found")


def _audit(memo: str, pages: Mapping[str, Page]) -> Report:
    inputs = Inputs()
    inputs.documents.append(extract_document("m.md", memo, "markdown"))

    async def fetcher(urls: list[str], _config: Any, /, **_: Any) -> Pages:
        return Pages({u: pages[u] for u in urls if u in pages})

    return asyncio.run(audit_inputs(inputs, build({}), build_registry(), online=True, fetcher=fetcher))


def test_a_link_sent_to_the_home_page_is_one_soft_404_finding() -> None:
    """Issue 25's case: H003 soft-404 + H007 title mismatch + M008 unsupported + H008 "moved
    permanently: cite http://host/ instead" was four findings for one dead link."""
    page = _page(DEEP, 200, "Acme Robotics News", UNRELATED, HOME, (Hop(DEEP, 301, HOME), Hop(HOME, 200)))
    report = _audit(f"# Acme\n\n{CLAIM.format(url=DEEP)}\n", {DEEP: page})
    assert [f.rule for f in report.findings] == ["H003"]
    root = report.findings[0]
    assert "also H007 title-mismatch: title mismatch" in root.evidence
    assert "also M008 unsupported-citation: cited source does not support the claim" in root.evidence
    assert HOME not in root.fix and "H008" not in root.evidence  # never "cite the home page instead"
    assert report.summary["verdicts"] == {"soft-404": 1} and report.summary["citations"] == 1


def test_a_permanent_redirect_to_a_soft_404_folds_into_it() -> None:
    page = _page(DEEP, 200, "Page not found", "Sorry, this page could not be found.", MOVED,
                 (Hop(DEEP, 301, MOVED), Hop(MOVED, 200)))
    report = _audit(f"# Acme\n\n{CLAIM.format(url=DEEP)}\n", {DEEP: page})
    assert [f.rule for f in report.findings] == ["H003"]
    assert "also H008 redirect: moved permanently" in report.findings[0].evidence
    assert not report.findings[0].fix


def test_a_hard_paywall_takes_the_claim_and_a_metered_one_does_not() -> None:
    teaser = "Acme Robotics. Subscribe to continue reading. This article is for subscribers only."
    report = _audit(f"# Acme\n\n{CLAIM.format(url=DEEP)}\n", {DEEP: _page(DEEP, 200, "Revenue growth report", teaser)})
    assert [f.rule for f in report.findings] == ["H004"] and "also M008" in report.findings[0].evidence
    metered = "You've reached your free article limit. Acme Robotics reported revenue up 45% in 2023."
    report = _audit(f"# Acme\n\n{CLAIM.format(url=DEEP)}\n", {DEEP: _page(DEEP, 200, "Revenue growth report", metered)})
    assert sorted(f.rule for f in report.findings) == ["H004", "M008"]  # the text is there: the claim is judged


def test_a_claim_citing_a_live_page_that_does_not_support_it_stays() -> None:
    live = _page(DEEP, 200, "Revenue growth report 2023", "Acme Robotics revenue grew 45% in 2023, the report says.")
    report = _audit(f"# Acme\n\n{CLAIM.format(url=DEEP)}\n", {DEEP: live})
    assert [f.rule for f in report.findings] == ["M008"]


def _finding(rule: str, verdict: Verdict, line: int, column: int, url: str, message: str = "m",
             gate: Gate = Gate.SEVERITY) -> Finding:
    return Finding("m.md", line, column, rule, rule.lower(), Severity.WARNING, message, url, "e", verdict=verdict,
                   gate=gate)


def test_only_findings_on_the_same_link_fold() -> None:
    other = "https://other.example.org/a"
    findings = [
        _finding("M008", Verdict.UNSUPPORTED, 3, 1, DEEP),  # its sentence starts before the link
        _finding("H001", Verdict.DEAD, 3, 40, DEEP),
        _finding("H007", Verdict.TITLE_MISMATCH, 3, 40, DEEP),
        _finding("H007", Verdict.TITLE_MISMATCH, 3, 90, other),  # another link: stays
        _finding("H008", Verdict.ADVISORY, 5, 1, DEEP),  # the same URL cited again, a live occurrence: stays
        _finding("H004", Verdict.UNVERIFIABLE, 7, 1, other, gate=Gate.ACCESS),  # a metered wall is no root
        _finding("H007", Verdict.TITLE_MISMATCH, 7, 1, other),
    ]
    folded = fold_derived(findings)
    assert [(f.rule, f.line, f.column) for f in folded] == [("H001", 3, 40), ("H007", 3, 90), ("H008", 5, 1),
                                                             ("H004", 7, 1), ("H007", 7, 1)]
    assert folded[0].evidence == "e; also M008 m008: m; also H007 h007: m"
