"""robots.txt in the gate: a candidate whose site disallows citecheck is never fetched, never
answered from the cache, and never earns an ID; it is rejected (a source already in the corpus
is kept stale) with the reason `robots-disallowed`.

The check comes after the offline rules (a placeholder URL must not cost a robots.txt fetch of
its host) and the SSRF guard's URL check, and before the cache: a URL the run's policy forbids is
not answered from facts fetched under another policy. `citecheck.fetch.robots` has the rules.
"""
from __future__ import annotations

from typing import Any

from citecheck.fetch.facts import now_iso
from citecheck.fetch.guard import Refused
from citecheck.fetch.robots import ERROR, origin_of
from citecheck.harvest.gate import Policy, Reason, failing, finding_reason
from citecheck.harvest.judge import Judge, Verdict
from citecheck.harvest.plan import Found
from citecheck.models import Link, LinkKind, Outcome, Page, Severity


class RobotsGate:
    def __init__(self, fetcher: Any, engine: Any, policy: Policy) -> None:
        self.fetcher, self.engine, self.policy = fetcher, engine, policy
        self.disallowed = 0

    async def judge(self, judge: Judge, group: list[Found]) -> list[Verdict]:
        """The judge's verdicts for a group, unless robots.txt keeps its URL from being fetched."""
        url = group[0].candidate.url
        if not judge.by_registry(url) and await self._asks(group[0]) and not await self.fetcher.robots.allows(url):
            self.disallowed += 1
            reason = Reason("fetch", "", ERROR, Severity.ERROR,
                            f"robots.txt of {origin_of(url)} disallows citecheck here (--ignore-robots to fetch it "
                            "anyway)", url)
            page = Page(url, Outcome.UNVERIFIABLE, fetched_at=now_iso(), error=ERROR)
            return [Verdict(found, [reason], page=page) for found in group]
        return await judge.judge(group)

    async def _asks(self, found: Found) -> bool:
        """Does robots.txt have a say (robots on, the URL passes the offline rules and the guard)?"""
        if self.fetcher.robots is None:
            return False
        link = _link(found)
        findings = self.engine.check_links([link], link.location.path)
        if failing(self.policy, [finding_reason(f) for f in findings]):
            return False
        try:
            self.fetcher.guard.vet_url(link.url)
        except Refused:
            return False
        return True


def _link(found: Found) -> Link:
    c = found.candidate
    return Link(c.url, found.location, LinkKind.CORPUS, c.title, False, c.url, found.section)
