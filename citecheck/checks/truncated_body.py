"""The page's body was cut at citecheck's own limits: every page rule judged only its first part.

A body is read up to `fetch.max-body` (2 MiB) and decompressed up to `fetch.max-decompressed`
(8 MiB), so that an endless stream or a gzip bomb cannot exhaust the machine. What arrived is
judged as usual (title, soft-404, walls, claims), but it is not the whole page: a quote past the
cut cannot be checked, and a server that never stops sending or expands a few kilobytes into
gigabytes is not an ordinary source. This info finding says so, with the limit that was reached;
a page over the cap is never reported as plainly "ok".

Failing example (the server streams an endless chunked body, or a 64 KB gzip that expands to 64 MB):

    See the live feed ([stream](https://feeds.research-lab.net/endless)).

Passing example (a complete 40 KB page):

    See the quarterly report ([report](https://www.research-lab.net/q3-report)).
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from citecheck.checks._page import emit
from citecheck.models import Hit

if TYPE_CHECKING:
    from citecheck.engine.run import Fetched

ID = "H011"
NAME = "truncated-body"
STAGE = "page"
SEVERITY = "info"
VERDICT = "advisory"  # the other page rules judged what arrived; this says only that it was cut
DEFAULTS: dict[str, Any] = {}
OPTIONS: dict[str, str] = {}
_CUT = {"body-too-large": "the body went past the size cap (fetch.max-body): the server sent more, or never "
                          "stopped sending",
        "decompression-bomb": "the body expands past the decompression cap (fetch.max-decompressed): a "
                              "compression bomb, or a page far larger than any article"}


def check(fetched: Fetched, options: Mapping[str, Any]) -> Iterator[Hit]:
    page = fetched.page
    why = _CUT.get(page.error)
    if why is not None and page.status is not None:
        yield emit(fetched, f"truncated: {why}; the page rules judged what arrived before the cut",
                   f"truncated ({page.error}), HTTP {page.status}")
