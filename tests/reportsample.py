"""A hand-built online audit for the HTML report tests: one memo, fetched pages, every verdict.

The memo is extracted by the real Markdown extractor; pages and findings are written by hand so
the renderer is tested without the fetcher or page rules (other modules test those).
"""
from __future__ import annotations

from typing import Any

from reportkit import registry

from citecheck._audit import Report
from citecheck.extract import Inputs
from citecheck.extract.markdown import extract_markdown
from citecheck.models import Document, Finding, Hop, Outcome, Page, Severity, Verdict
from citecheck.score import summarize

PATH = "memos/incident.md"
HOSTILE_TITLE = ('<script>window.__pwned=1;alert(1)</script>"><img src=x onerror="window.__pwned=2;alert(2)">'
                 "<svg onload=alert(3)>")
MEMO = """# Incident review

Revenue grew 60% in 2023 [src-001]. AWS said so [here](https://aws.amazon.com/blogs/machine-learning/fabricated-slug/).

## Evidence

- Live: [the filing](https://www.sec.gov/Archives/edgar/data/320193/) is fine.
- Dead: https://dead.example-site.com/gone was removed.
- Soft: [soft](https://soft.example-site.com/missing) serves a not-found page.
- Paywall: [FT](https://www.ft.com/content/abc) needs a subscription.
- Wrong page: [title](https://title.example-site.com/x) is about cats.
- Placeholder: [report](https://example.com/report).
- Rotted: [old story](https://rotted.example-site.com/2019/story).

## Offline notes

<script>window.__pwned = 3; alert("memo")</script>
Code: `https://code.example-site.com/sample` stays unchecked.
"""

OK = Outcome.OK


def _pages() -> dict[str, Page]:
    return {
        "https://aws.amazon.com/blogs/machine-learning/fabricated-slug/": Page(
            "https://aws.amazon.com/blogs/machine-learning/fabricated-slug/", Outcome.DEAD, 404,
            "https://aws.amazon.com/blogs/machine-learning/fabricated-slug/",
            (Hop("https://aws.amazon.com/blogs/machine-learning/fabricated-slug/", 404),), error="HTTP 404"),
        "https://www.sec.gov/Archives/edgar/data/320193/": Page(
            "https://www.sec.gov/Archives/edgar/data/320193/", OK, 200, "https://www.sec.gov/Archives/edgar/data/320193/",
            (Hop("https://sec.gov/Archives/edgar/data/320193/", 301, "https://www.sec.gov/Archives/edgar/data/320193/"),
             Hop("https://www.sec.gov/Archives/edgar/data/320193/", 200)), title=HOSTILE_TITLE,
            content_type="text/html", fetched_at="2026-11-29T10:00:00Z"),
        "https://dead.example-site.com/gone": Page("https://dead.example-site.com/gone", Outcome.DEAD, 410),
        "https://soft.example-site.com/missing": Page("https://soft.example-site.com/missing", OK, 200,
                                                      title="Page not found"),
        "https://www.ft.com/content/abc": Page("https://www.ft.com/content/abc", OK, 200, title="Subscribe to read"),
        "https://title.example-site.com/x": Page("https://title.example-site.com/x", OK, 200, title="Cats weekly"),
        "https://rotted.example-site.com/2019/story": Page(
            "https://rotted.example-site.com/2019/story", Outcome.DEAD, 404, error="HTTP 404"),
    }


def _at(doc: Document, url: str) -> tuple[int, int, str]:
    link = next(link for link in doc.links if link.url == url)
    return link.location.line, link.location.column, link.section


def _finding(doc: Document, url: str, rule: str, name: str, sev: str, message: str, **more: str) -> Finding:
    line, col, section = _at(doc, url)
    declared = registry().get(rule)  # the verdict the engine would stamp
    verdict = declared.verdict if declared and declared.verdict else Verdict.ADVISORY
    return Finding(doc.path, line, col, rule, name, Severity(sev), message, url, section=section, verdict=verdict,
                   **more)


def findings_for(doc: Document) -> list[Finding]:
    wayback = "https://web.archive.org/web/2019/https://rotted.example-site.com/2019/story"
    found = [
        _finding(doc, "https://aws.amazon.com/blogs/machine-learning/fabricated-slug/", "M010", "likely-fabricated",
                 "error", "likely fabricated: dead (HTTP 404), never archived", evidence="HTTP 404"),
        _finding(doc, "https://dead.example-site.com/gone", "H001", "http-error", "error", "HTTP 410 Gone"),
        _finding(doc, "https://soft.example-site.com/missing", "H003", "soft-404", "error",
                 "the page says it does not exist", evidence="Page not found"),
        _finding(doc, "https://www.ft.com/content/abc", "H004", "paywall", "warning", "paywalled",
                 evidence="Subscribe to read"),
        _finding(doc, "https://title.example-site.com/x", "H007", "title-mismatch", "warning",
                 "title does not match the link text", evidence="Cats weekly"),
        _finding(doc, "https://example.com/report", "U001", "placeholder-domain", "error",
                 "placeholder domain 'example.com'", evidence="example.com"),
        _finding(doc, "https://rotted.example-site.com/2019/story", "M011", "rotted", "warning",
                 "dead link that was archived: cite the snapshot instead", evidence="HTTP 404", fix=wayback),
        Finding(doc.path, 3, 1, "M008", "unsupported-citation", Severity.WARNING,
                "cited source does not support the claim (number 60% not in source)",
                evidence="Revenue grew 45% in 2023, the company said.", section="Incident review",
                verdict=Verdict.UNSUPPORTED),
        Finding(doc.path, 17, 1, "M099", "raw-script", Severity.INFO, "raw <script> in the memo"),
    ]
    return sorted(found)


def sample_report() -> tuple[Report, list[Finding], dict[str, Any]]:
    """(report, findings, summary) for the sample memo, as the audit command would pass them."""
    doc = extract_markdown(PATH, MEMO)
    found = findings_for(doc)
    report = Report(found, [], Inputs(documents=[doc]), _pages(), online=True)
    report.extra_summary.update(summarize([doc], found))
    return report, found, report.summary
