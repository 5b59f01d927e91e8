"""What a failed gate says about a source already in the corpus: dead on evidence, or unverifiable now.

A source is **retired** only on evidence from the world that it is gone, gathered after it was last
verified: a finding whose rule declares so (`Gate.GONE`: a 4xx status its host answered, a soft-404,
a parked domain, a corroborated NXDOMAIN (`citecheck.fetch.dns`), a placeholder domain;
`Gate.RETIRES`: a URL the offline rules now refuse as malformed or invented), a dead fetch outcome
with such evidence (not 401/403/407/429/451/999, which mean blocked), or a page that is now another
document (the title check). Everything else is only **unverifiable now** — a timeout,
a refused connection, a 5xx or 429 after retries, a bot challenge, a wall, robots.txt, a private
address the run's policy no longer allows, too little text — and the source stays, **stale**, with
its last good facts. (Whether the network was there at all is `citecheck.fetch.outage`'s question,
asked before any of this.)
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from citecheck.fetch.verdict import UNVERIFIABLE_STATUSES
from citecheck.harvest.gate import Reason
from citecheck.models import Gate, Page


@dataclass(frozen=True)
class Judgement:
    retire: bool
    reason: Reason


def judge_failure(reasons: list[Reason], page: Page | None, last_verified: str) -> Judgement:
    """Retire (dead on evidence newer than `last_verified`) or keep stale, with the deciding reason."""
    fresh = page is None or _newer(page, last_verified)
    for reason in reasons:
        if fresh and _dead(reason, page):
            return Judgement(True, reason)
    return Judgement(False, reasons[0])


def _dead(reason: Reason, page: Page | None) -> bool:
    if reason.gate in (Gate.GONE, Gate.RETIRES):  # the URL itself (preflight), or the page's answer
        return reason.stage == "preflight" or page is not None
    if page is None:
        return False
    if reason.name == "title-contradiction":
        return True
    if reason.name == "fetch-dead":
        return answered_gone(page) or page.error == "nxdomain"  # the fetcher says nxdomain only when corroborated
    return False


def answered_gone(page: Page) -> bool:
    """The host itself answered that the page is not there (404, 410 and other 4xx)."""
    status = page.status
    return status is not None and 400 <= status < 500 and status not in UNVERIFIABLE_STATUSES


def _newer(page: Page, last_verified: str) -> bool:
    """Is the page's evidence newer than the source's last verification? (A fresh fetch always is.)"""
    if not page.from_cache:
        return True
    seen, verified = _when(page.fetched_at), _when(last_verified)
    return seen is not None and verified is not None and seen > verified


def _when(value: str) -> dt.datetime | None:
    try:
        stamp = dt.datetime.fromisoformat(value.strip())
    except (ValueError, AttributeError):
        return None
    return stamp if stamp.tzinfo else stamp.replace(tzinfo=dt.UTC)
