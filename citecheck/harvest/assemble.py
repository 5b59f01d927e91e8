"""Verdicts → corpus: known sources keep their IDs, new ones get the next, redirects to one page
become one source, failures become rejects, and the new corpus is checked by the C rules."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from citecheck.engine.run import Engine
from citecheck.harvest.corpus import build_source, canonical_of, render
from citecheck.harvest.ids import IdBook, id_number
from citecheck.harvest.judge import Verdict
from citecheck.harvest.plan import Found, SectionPlan
from citecheck.harvest.providers import Candidate
from citecheck.harvest.result import HarvestResult, Reject
from citecheck.models import Corpus, Location, Severity, Source
from citecheck.urls import dedupe_key


def existing_found(corpus: Corpus | None) -> list[Found]:
    """Sources already in the corpus, as candidates: they are gated again with the new ones."""
    if corpus is None:
        return []
    return [Found(Candidate(s.url, s.title, s.snippet, s.retrieval_query, s.retrieval_tool), s.section,
                  Location(corpus.path, s.line, 1)) for s in corpus.sources if s.url]


def assemble(groups: Sequence[list[Verdict]], book: IdBook, plans: Sequence[SectionPlan], existing: Corpus | None,
             engine: Engine, gate: str, errors: list[str], path: str) -> HarvestResult:
    old_path = existing.path if existing is not None else None
    kept: dict[str, Source] = {}
    members: dict[str, list[str]] = {}
    rejects: list[Reject] = []
    duplicates = 0
    for verdicts in groups:
        passing = [v for v in verdicts if v.passed]
        if not passing:
            rejects += [_reject(v, book if v.found.location.path == old_path else None) for v in _distinct(verdicts)]
            continue
        first, page = passing[0], passing[0].page
        assert page is not None
        identity = dedupe_key(canonical_of(page))
        sections = list(dict.fromkeys(v.found.section for v in passing))
        if identity in kept:  # another URL already led to this page
            duplicates += 1
            members[kept[identity].id] += [s for s in sections if s not in members[kept[identity].id]]
            continue
        urls = [first.found.candidate.url, page.final_url, canonical_of(page), *(v.found.candidate.url for v in passing)]
        source = build_source(book.assign(urls), first.found.candidate, page, first.found.section, first.text)
        kept[identity] = source
        members[source.id] = sections
    corpus = _ordered(kept.values(), existing)
    by_section = {p.section.id: [s.id for s in corpus if p.section.id in members[s.id]] for p in plans}
    result = HarvestResult(corpus, rejects, {}, by_section, errors, [sid for sid, ids in by_section.items() if not ids],
                           book.high_water, _self_check(corpus, engine, path), gate)
    result.stats.update(sections=len(plans), kept=len(corpus), new=len(book.issued), rejected=len(rejects),
                        duplicates=duplicates, provider_errors=len(errors),
                        per_section={sid: len(ids) for sid, ids in by_section.items()})
    return result


def _distinct(verdicts: list[Verdict]) -> list[Verdict]:
    seen: set[tuple[str, str]] = set()
    out = []
    for v in verdicts:
        key = (v.found.candidate.url, v.found.section)
        if key not in seen:
            seen.add(key)
            out.append(v)
    return out


def _reject(verdict: Verdict, book: IdBook | None) -> Reject:
    """A failed candidate; one that was in the corpus names the ID it loses."""
    previous = book.lookup([verdict.found.candidate.url]) if book is not None else None
    page = verdict.page
    return Reject(verdict.found, verdict.failed, verdict.findings, previous or "",
                  page.final_url if page is not None else "")


def _ordered(sources: Any, existing: Corpus | None) -> list[Source]:
    """Known sources in their old order, then new ones by ID."""
    before = {s.id: i for i, s in enumerate(existing.sources)} if existing is not None else {}
    return sorted(sources, key=lambda s: (s.id not in before, before.get(s.id, 0), id_number(s.id) or 0))


def _self_check(corpus: list[Source], engine: Engine, path: str) -> list[Any]:
    """C rules over the corpus about to be written: an error here is a harvest bug, never shipped silently."""
    import json

    records = json.loads(render(corpus))
    findings = engine.check_corpus(Corpus(path, tuple(corpus), tuple(records), tuple(range(1, len(records) + 1))))
    return [f for f in findings if f.severity is Severity.ERROR]
