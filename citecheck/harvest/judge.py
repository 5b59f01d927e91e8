"""One distinct URL through the gate: preflight → fetch (cache first) → page rules (on the page
stage) → title check → main text for the candidates that passed.

Candidates whose URLs share a dedupe key are judged together; each distinct URL (`urls.fact_key`)
is fetched once per run and judged on its own page (facts about `www.x.org/a/` never speak for
`x.org/a`); each candidate keeps its own verdict (its own search title, its own section). A cached page is judged as is;
only when a candidate passes and no main text is stored for that body is the page fetched again.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from citecheck.harvest.gate import Policy, Reason, failing, finding_reason, outcome_reason
from citecheck.harvest.maintext import Extractor
from citecheck.harvest.plan import Found
from citecheck.harvest.scholarly import cited, record_page
from citecheck.harvest.titlecheck import check_title
from citecheck.models import Finding, Link, LinkKind, Outcome, Page, Severity
from citecheck.scholarly.records import Claim, Lookup, Record
from citecheck.stage.pages import PageStage
from citecheck.urls import fact_key

FLUSH_EVERY = 25
RECHECK_ANY_AGE = 36500.0  # days: a corpus source's stored validators serve whatever their age


@dataclass
class Verdict:
    found: Found
    failed: list[Reason] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)  # engine findings behind the failed reasons
    noted: list[Finding] = field(default_factory=list)  # engine findings that did not fail it (a metered wall)
    page: Page | None = None
    text: str = ""
    record: Record | None = None  # the registry's record of a DOI/arXiv/PubMed candidate

    @property
    def passed(self) -> bool:
        return not self.failed


class Judge:
    def __init__(self, stage: PageStage, policy: Policy, fetcher: Any, cache: Any, extractor: Extractor,
                 max_age_days: float, title_threshold: float, recheck: Iterable[str] = (),
                 scholarly: Mapping[str, Lookup] | None = None, claims: Mapping[Found, Claim] | None = None) -> None:
        """`recheck`: URLs of sources already in the corpus, verified over the network on every
        harvest (conditionally, from their stored ETag/Last-Modified), never taken from the cache.
        `scholarly`: URL -> the registry's settled answer for the candidates judged by their registry;
        `claims`: candidate -> what a bibliography entry says about the work (compared with the record)."""
        self.stage, self.policy, self.fetcher, self.cache = stage, policy, fetcher, cache
        self.scholarly = dict(scholarly or {})
        self.claims = dict(claims or {})
        self.extractor, self.max_age, self.threshold = extractor, max_age_days, title_threshold
        self.recheck = {fact_key(url) for url in recheck}
        self.revalidated = 0  # corpus sources a 304 confirmed
        self.fetch_log: dict[str, str] = {}  # url -> "network" | "cache"
        self.texts_reused = 0
        self._pending: list[Page] = []
        self._hits: dict[str, Page] = {}
        self._looked_up: set[str] = set()

    async def judge(self, group: list[Found]) -> list[Verdict]:
        links = [_link(f) for f in group]
        verdicts = [Verdict(f) for f in group]
        for verdict, link in zip(verdicts, links):  # one link at a time: findings belong to their candidate
            self._fail(verdict, self.stage.parent.check_links([link], link.location.path))
        by_request: dict[str, list[tuple[Verdict, Link]]] = {}
        for verdict, link in zip(verdicts, links):
            if verdict.passed:  # each URL is judged on its own page: the dedupe key merges IDs, never verdicts
                by_request.setdefault(fact_key(link.url), []).append((verdict, link))
        for alive in by_request.values():
            await self._judge_url(alive)
        return verdicts

    async def _judge_url(self, alive: list[tuple[Verdict, Link]]) -> None:
        """The candidates citing one URL, judged on its page (and given its main text when they pass)."""
        url = alive[0][1].url
        if url in self.scholarly:
            self._judge_record(alive, self.scholarly[url])
            return
        page, body = await self._page(url)
        await self._judge_page(alive, page)
        if not any(v.passed for v, _ in alive) or page.outcome is not Outcome.OK:
            return
        text = self.extractor.cached(page.content_hash)
        if text is None and body is None:  # cached facts but no stored main text: fetch the body again
            page, body = await self._fresh(url)
            await self._judge_page(alive, page)
            if not any(v.passed for v, _ in alive) or page.outcome is not Outcome.OK:
                return
        if text is not None:
            self.texts_reused += 1
        else:
            text = await self.extractor.text(page.content_hash, body or b"", page.content_type, page.final_url or url)
        for verdict, _ in alive:
            verdict.text = text

    def by_registry(self, url: str) -> bool:
        """Whether `url` is judged by its registry's answer (no landing page, no robots.txt of its host)."""
        return url in self.scholarly

    def _judge_record(self, alive: list[tuple[Verdict, Link]], lookup: Lookup) -> None:
        """DOI, arXiv and PubMed candidates judged by the registry's record (docs/scholarly.md): R001 when
        it says the identifier does not exist, the title check against the record's title, R004 noted."""
        url = alive[0][1].url
        page = record_page(url, lookup)
        self.fetch_log[url] = "registry"
        for verdict, link in alive:
            verdict.page, verdict.record, verdict.failed, verdict.findings, verdict.noted = page, lookup.record, [], [], []
            verdict.text = lookup.record.abstract if lookup.record is not None else ""
            reasons = []
            candidate = verdict.found.candidate
            if lookup.record is not None:
                title = check_title(candidate.title, candidate.snippet, page, self.threshold)
                if not title.ok:
                    reasons.append(Reason("title", "", "title-contradiction", Severity.ERROR,
                                          "the registry's record is not the work the search result named",
                                          title.evidence))
            self._fail(verdict, self.stage.parent.check_references(cited(link, lookup, self.claims.get(verdict.found)),
                                                                  link.location.path), reasons)

    async def _judge_page(self, alive: list[tuple[Verdict, Link]], page: Page) -> None:
        for verdict, link in alive:
            verdict.page, verdict.failed, verdict.findings, verdict.noted = page, [], [], []
            reasons = [r for r in [outcome_reason(page)] if r is not None]
            candidate = verdict.found.candidate
            if page.outcome is Outcome.OK:
                title = check_title(candidate.title, candidate.snippet, page, self.threshold)
                if not title.ok:
                    reasons.append(Reason("title", "", "title-contradiction", Severity.ERROR,
                                          "the fetched page is not the document the search result named",
                                          title.evidence))
            self._fail(verdict, await self.stage.judge(link, page), reasons)

    def _fail(self, verdict: Verdict, findings: list[Finding], extra: Sequence[Reason] = ()) -> None:
        reasons = [finding_reason(f) for f in findings]
        bad = failing(self.policy, reasons)
        verdict.findings += [f for f, r in zip(findings, reasons) if r in bad]
        verdict.noted += [f for f, r in zip(findings, reasons) if r not in bad]
        verdict.failed += bad + failing(self.policy, extra)
        verdict.failed.sort(key=lambda r: -r.severity.rank)  # the strongest reason first

    def prefetch(self, urls: list[str]) -> None:
        """Look every new candidate's URL up in the cache at once (one query per 500, not one per URL)."""
        urls = [url for url in urls if fact_key(url) not in self.recheck]
        if self.cache is not None:
            self._hits.update(self.cache.get_many(urls, self.max_age))
            self._looked_up.update(urls)

    async def _page(self, url: str) -> tuple[Page, bytes | None]:
        if fact_key(url) in self.recheck:
            return await self._recheck(url)
        hit = self._hits.pop(url, None)
        if hit is None and self.cache is not None and url not in self._looked_up:
            hit = self.cache.get(url, self.max_age)
        if hit is not None and await self._hops_allowed(hit):
            self.fetch_log[url] = "cache"
            return hit, None
        return await self._fresh(url)

    async def _hops_allowed(self, page: Page) -> bool:
        """Whether robots.txt lets this run request every redirect hop of a stored walk (the URL
        itself was asked by the robots gate): a walk through a hop it may not ask now is fetched
        again, and stops there."""
        robots = self.fetcher.robots
        if robots is None:
            return True
        for hop in page.chain[1:]:
            if not await robots.allows(hop.url):
                return False
        return True

    async def _recheck(self, url: str) -> tuple[Page, bytes | None]:
        """A corpus source, over the network: a conditional request when facts of any age are
        stored (a 304 refreshes them, and the body is then not needed unless its text is not kept)."""
        stored = self.cache.get(url, RECHECK_ANY_AGE) if self.cache is not None else None
        result = await self.fetcher.fetch_fresh(url, keep_body=True, stored=stored)
        self.fetch_log[url] = "network"
        if stored is not None and not result.body and result.page.outcome is Outcome.OK \
                and result.page.content_hash == stored.content_hash:
            self.revalidated += 1  # a 304: the stored facts again, fetched now
        self._pending.append(result.page)
        return result.page, result.body or None

    async def _fresh(self, url: str) -> tuple[Page, bytes | None]:
        result = await self.fetcher.fetch_fresh(url, keep_body=True)
        self.fetch_log[url] = "network"
        self._pending.append(result.page)
        if len(self._pending) >= FLUSH_EVERY:
            self.flush()
        return result.page, result.body

    def flush(self) -> None:
        """Store fetched facts now, so an interrupted run resumes from the cache."""
        if self.cache is not None and self._pending:
            self.cache.put_many(self._pending)
        self._pending.clear()


def _link(found: Found) -> Link:
    c = found.candidate
    return Link(c.url, found.location, LinkKind.CORPUS, c.title, False, c.url, found.section)
