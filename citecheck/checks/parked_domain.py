"""The domain is parked or for sale: whatever source lived there is gone.

Expired domains of defunct publications, startups and research projects get bought by parking
services, which answer every path with 200 and a page of ads or a "This domain is for sale"
offer. Status checks pass them; a model may even have cited a domain it only knew from old
training data. Evidence: parking-service scripts and frames (Sedo, Bodis, ParkingCrew, Above,
GoDaddy CashParking …), a redirect to a domain marketplace (Dan.com, Afternic, HugeDomains, Sedo),
or a for-sale notice on a short page, in several languages (`parked` pack).

Failing example (the page loads `img.sedoparking.com` and says "This domain may be for sale"):

    The startup reported 10x growth ([blog](https://www.quantumleap-ai-labs.com/blog/growth)).

Passing example (the company's real blog answers):

    The startup reported 10x growth ([blog](https://openai.com/blog/)).
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from citecheck.checks._page import Lists, Memo, emit
from citecheck.models import Hit, Page
from citecheck.urls import host_of, registrable_domain

if TYPE_CHECKING:
    from citecheck.engine.run import Fetched

ID = "H009"
NAME = "parked-domain"
STAGE = "page"
SEVERITY = "error"
VERDICT = "dead"
GATE = "gone"
EVIDENCE = "Matched parking marker"  # what the HTML report calls a finding's evidence
PACK = "parked"
DEFAULTS: dict[str, Any] = {"short_text": 1000, "extra_markup": [], "extra_phrases": [], "extra_hosts": []}
OPTIONS = {"short_text": "for-sale notices count on pages with at most this much visible text",
           "extra_markup": "more parking-service markup markers", "extra_phrases": "more for-sale notice regexes",
           "extra_hosts": "more domain-marketplace domains"}


def prepare(options: Mapping[str, Any]) -> Lists:
    return Lists.of(options, phrases=("phrases",), markers=("markup",), lowered=("hosts",))


def evidence(page: Page, options: Mapping[str, Any], prepared: Lists | None = None,
             memo: Memo | None = None) -> list[str]:
    """Why the domain looks parked; empty when it does not."""
    lists = prepared or prepare(options)
    final = page.final_url or page.url
    market = registrable_domain(host_of(final))
    if market in lists.lowered["hosts"] and market != registrable_domain(host_of(page.url)):
        return [f"redirected to the domain marketplace {market}"]
    if page.status is not None and page.status >= 400:
        return []
    marker = lists.marker("markup", page.html_sample, memo)
    if marker:
        return [f"parking markup {marker!r}"]
    if len(page.text_sample or "") > int(options.get("short_text", 1000)):
        return []
    notice = lists.find("phrases", f"{page.title}\n{page.text_sample}", memo)
    return [f"text {notice!r}"] if notice else []


def check(fetched: Fetched, options: Mapping[str, Any], prepared: Lists | None = None) -> Iterator[Hit]:
    found = evidence(fetched.page, options, prepared, fetched.memo)
    if found:
        yield emit(fetched, "parked domain: the site is gone, the domain is parked or for sale", "; ".join(found))
