"""The link is a document, not a web page (PDF, spreadsheet, image, JSON …): fine, noted for the record.

Reports, filings and papers are often PDFs, and they are good sources. Page rules that read titles
and text (H003 soft-404, H007 title-mismatch, H004 paywall) skip non-HTML answers, so this info
finding says what was checked instead: the media type and the size. Nothing to fix.

Failing example (informational; the server answers `application/pdf`, 1.2 MB):

    Net revenue rose 12% ([10-K](https://s2.q4cdn.com/470004039/files/doc_financials/2023/ar/2023-annual-report.pdf)).

Passing example (an HTML page):

    Net revenue rose 12% ([filing index](https://www.sec.gov/cgi-bin/browse-edgar?action=getcompany&CIK=0001018724)).
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from citecheck.checks._page import answered, content_type, emit, is_html
from citecheck.models import Hit, Page

if TYPE_CHECKING:
    from citecheck.engine.run import Fetched

ID = "H010"
NAME = "non-html"
STAGE = "page"
SEVERITY = "info"
VERDICT = "advisory"
DEFAULTS: dict[str, Any] = {}
OPTIONS: dict[str, str] = {}


def size_of(page: Page) -> int | None:
    if page.content_length is not None:
        return page.content_length
    raw = page.headers.get("content-length", "").strip()
    return int(raw) if raw.isdigit() else None


def human(size: int | None) -> str:
    if size is None:
        return "size unknown"
    value = float(size)
    for unit in ("bytes", "KB", "MB", "GB"):
        if value < 1000 or unit == "GB":
            return f"{value:.0f} {unit}" if unit == "bytes" else f"{value:.1f} {unit}"
        value /= 1000
    return f"{size} bytes"


def check(fetched: Fetched, options: Mapping[str, Any]) -> Iterator[Hit]:
    page = fetched.page
    if not answered(page) or is_html(page):
        return
    ctype = content_type(page)
    yield emit(fetched, f"non-HTML document: {ctype}, {human(size_of(page))}", ctype)
