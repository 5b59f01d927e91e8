"""A dead URL that once existed: the Wayback Machine has a snapshot. Suggests the snapshot as the fix.

Link rot is not fabrication: the page was real and can still be cited through its archived copy.
Needs an online audit with `--archive-check`.

Failing example (404 today, archived in 2019):

    See [the 2019 report](https://www.example-news.com/2019/old-story).

Passing example (live):

    See [the filing](https://www.sec.gov/Archives/edgar/data/320193/).
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from citecheck.models import Hit, Outcome

ID = "M011"
NAME = "rotted"
STAGE = "memo"
SEVERITY = "warning"
VERDICT = "rotted"
DEFAULTS: dict[str, Any] = {}
OPTIONS: dict[str, str] = {}


def check(memo: Any, options: Mapping[str, Any]) -> Iterator[Hit]:
    for link in memo.document.links:
        page = memo.pages.get(link.url)
        if link.in_code or page is None or page.outcome is not Outcome.DEAD or not page.archived:
            continue
        yield Hit("dead link that was archived: cite the snapshot instead", link.location, link.url,
                  evidence=page.error or f"HTTP {page.status}", fix=page.snapshot_url)
