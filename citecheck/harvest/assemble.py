"""Verdicts → corpus, as a merge with the corpus being extended (`citecheck.harvest.merge`).

A passing URL keeps (or regains) its registry ID, a new one gets the next; URLs that reach one page
become one source; a known source that fails now is retired on evidence or kept stale; a new URL
that fails is a reject. The corpus about to be written is checked by the C rules.
"""
from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from citecheck.engine.run import Engine
from citecheck.harvest.corpus import build_source, canonical_of, render
from citecheck.harvest.evidence import judge_failure
from citecheck.harvest.gate import Reason, wall_access
from citecheck.harvest.ids import IdBook, id_number
from citecheck.harvest.judge import Verdict
from citecheck.harvest.merge import MergeRow, mark_stale, reason_label, retirement, same_content
from citecheck.harvest.plan import Found, SectionPlan
from citecheck.harvest.providers import Candidate
from citecheck.harvest.result import HarvestResult, Reject
from citecheck.models import Corpus, Location, Severity, Source
from citecheck.urls import dedupe_key


@dataclass(frozen=True)
class Run:
    """What the merge needs to know about the run itself."""

    now: str  # ISO timestamp: the date of retirements
    min_excerpt: int = 200


def existing_found(corpus: Corpus | None) -> list[Found]:
    """Sources already in the corpus, as candidates: they are gated again with the new ones."""
    if corpus is None:
        return []
    return [Found(Candidate(s.url, s.title, s.snippet, s.retrieval_query, s.retrieval_tool), s.section,
                  Location(corpus.path, s.line, 1)) for s in corpus.sources if s.url]


@dataclass(frozen=True)
class _Claim:
    """A URL whose candidates passed: the page it reached, and the ID the URL already has."""

    passing: list[Verdict]
    identity: str  # dedupe key of the page's canonical URL
    own: str | None
    order: int

    @property
    def url(self) -> str:
        return self.passing[0].found.candidate.url


class _Merge:
    def __init__(self, book: IdBook, existing: Corpus | None, run: Run) -> None:
        self.book, self.run = book, run
        self.old = {s.id: s for s in existing.sources} if existing is not None else {}
        self.kept: dict[str, Source] = {}  # page identity (or stale:ID) -> source
        self.members: dict[str, list[str]] = {}  # source ID -> sections
        self.rows: list[MergeRow] = []
        self.rejects: list[Reject] = []
        self.duplicates = 0

    def merge(self, groups: Sequence[list[Verdict]]) -> None:
        pages: dict[str, list[_Claim]] = {}
        failing = []
        for order, verdicts in enumerate(groups):
            for verdict in verdicts:
                _require_excerpt(verdict, self.run.min_excerpt)
            passing = [v for v in verdicts if v.passed]
            if not passing:
                failing.append(verdicts)
                continue
            assert passing[0].page is not None
            claim = _Claim(passing, dedupe_key(canonical_of(passing[0].page)), self.book.id_of(passing[0].found.candidate.url),
                           order)
            pages.setdefault(claim.identity, []).append(claim)
        for claims in pages.values():
            self._settle(claims)
        for verdicts in failing:
            self._failed(verdicts)

    def _settle(self, claims: list[_Claim]) -> None:
        """One page, one ID: of the URLs that reached it, one already in the corpus keeps it (the
        page's own URL first); any other corpus source among them now duplicates it and retires."""
        winner = min(claims, key=lambda c: (c.own not in self.old, c.own is None, dedupe_key(c.url) != c.identity,
                                            c.order))
        first = winner.passing[0]
        assert first.page is not None
        source_id = self.book.assign(winner.url)
        source = build_source(source_id, first.found.candidate, first.page, first.found.section, first.text, first.record)
        access = next((a for v in winner.passing for a in [wall_access(v.noted)] if a), "")
        if access:
            source = replace(source, extra={**source.extra, "access": access})
        for other in claims:
            if other is not winner:
                self.duplicates += 1
                if other.own in self.old:
                    self._retire(self.old[other.own], Reason("page", "", "duplicate", Severity.ERROR,
                                                             f"now the same page as {source_id}", source.canonical_url))
        self.kept[winner.identity] = source
        self.members[source_id] = list(dict.fromkeys(v.found.section for c in claims for v in c.passing))
        self.rows.append(self._passed_row(source))

    def _passed_row(self, source: Source) -> MergeRow:
        regained = self.book.restore(source.id) or (source.id not in self.old and source.id not in self.book.issued)
        old = self.old.get(source.id)
        if old is None:
            return MergeRow("added", source.id, source.url, "regained its ID" if regained else "")
        return MergeRow("kept" if same_content(old, source) else "refreshed", source.id, source.url)

    def _failed(self, verdicts: list[Verdict]) -> None:
        known = self.book.id_of(verdicts[0].found.candidate.url)
        settled = {s.id for s in self.kept.values()} | set(self.book.retired)
        if known not in self.old or known in settled:
            self.rejects += [self._reject(v) for v in _distinct(verdicts)]
            return
        source = self.old[known]
        last = str(source.extra.get("last_verified") or source.fetched_at)
        judged = judge_failure(verdicts[0].failed, verdicts[0].page, last)
        if judged.retire:
            self._retire(source, judged.reason)
            self.rejects += [self._reject(v) for v in _distinct(verdicts)]
            return
        stale = mark_stale(source, judged.reason)
        self.kept[f"stale:{known}"] = stale
        self.members[known] = list(dict.fromkeys([source.section, *(v.found.section for v in verdicts)]))
        self.rows.append(MergeRow("stale", known, source.url,
                                  f"{reason_label(judged.reason)}; last verified {stale.extra['last_verified']}"))

    def _retire(self, source: Source, reason: Reason) -> None:
        self.book.retire(source.id, retirement(source, reason, self.run.now))
        self.rows.append(MergeRow("retired", source.id, source.url, reason_label(reason)))

    def _reject(self, verdict: Verdict) -> Reject:
        """A failed candidate; one that was in the corpus names the ID it had."""
        previous = self.book.id_of(verdict.found.candidate.url) or ""
        page = verdict.page
        return Reject(verdict.found, verdict.failed, verdict.findings, previous if previous in self.old else "",
                      page.final_url if page is not None else "")


def assemble(groups: Sequence[list[Verdict]], book: IdBook, plans: Sequence[SectionPlan], existing: Corpus | None,
             engine: Engine, gate: str, errors: list[str], path: str, run: Run) -> HarvestResult:
    merge = _Merge(book, existing, run)
    merge.merge(groups)
    corpus = _ordered(merge.kept.values(), existing)
    by_section = {p.section.id: [s.id for s in corpus if p.section.id in merge.members.get(s.id, [])] for p in plans}
    result = HarvestResult(corpus, merge.rejects, {}, by_section, errors,
                           [sid for sid, ids in by_section.items() if not ids], book.high_water,
                           _self_check(corpus, engine, path), gate, merge=merge.rows, book=book)
    result.stats.update(sections=len(plans), kept=len(corpus), new=len(book.issued), rejected=len(merge.rejects),
                        duplicates=merge.duplicates, provider_errors=len(errors),
                        per_section={sid: len(ids) for sid, ids in by_section.items()})
    return result


def _require_excerpt(verdict: Verdict, minimum: int) -> None:
    """A source earns an ID only with enough main text to ground a claim against."""
    if not verdict.passed or len(verdict.text.strip()) >= minimum:
        return
    why = ("the registry's record has no abstract long enough (--min-excerpt 0 admits a record without one)"
           if verdict.record is not None else "a script-rendered shell, a wall or an empty page")
    verdict.failed.append(Reason("page", "", "thin-excerpt", Severity.ERROR,
                                 f"main text is {len(verdict.text.strip())} characters, fewer than the {minimum} "
                                 f"needed to ground a claim ({why})", verdict.text.strip()[:80]))


def _distinct(verdicts: list[Verdict]) -> list[Verdict]:
    seen: set[tuple[str, str]] = set()
    out = []
    for v in verdicts:
        key = (v.found.candidate.url, v.found.section)
        if key not in seen:
            seen.add(key)
            out.append(v)
    return out


def _ordered(sources: Any, existing: Corpus | None) -> list[Source]:
    """Known sources in their old order, then new ones by ID."""
    before = {s.id: i for i, s in enumerate(existing.sources)} if existing is not None else {}
    return sorted(sources, key=lambda s: (s.id not in before, before.get(s.id, 0), id_number(s.id) or 0))


def _self_check(corpus: list[Source], engine: Engine, path: str) -> list[Any]:
    """C rules over the corpus about to be written: an error here is a harvest bug, never shipped silently."""
    records = json.loads(render(corpus))
    findings = engine.check_corpus(Corpus(path, tuple(corpus), tuple(records), tuple(range(1, len(records) + 1))))
    return [f for f in findings if f.severity is Severity.ERROR]
