"""Harvest and write results → the agent tools' answers (`results.py`)."""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from citecheck.agents.results import (
    AddResult,
    CheckResult,
    FindingInfo,
    GateResult,
    IdentifierVerdict,
    ReasonInfo,
    ReferenceFinding,
    ReferenceResult,
    RejectedUrl,
    RemovedUrl,
    SearchResult,
    SourceCard,
    SourceEntry,
    UrlOutcome,
    UrlVerdict,
    WorkRecord,
)
from citecheck.errors import UsageError
from citecheck.harvest import HarvestResult, Reject
from citecheck.harvest.gate import Reason
from citecheck.harvest.ids import id_number
from citecheck.harvest.outline import Outline, Section
from citecheck.models import Corpus, Severity, Source
from citecheck.urltext.corpusindex import CorpusIndex
from citecheck.write.gate import WriteResult
from citecheck.write.neutralise import neutralise

CARD_EXCERPT = 300
MAX_REJECTS = 20


def card(source: Source, new: bool = False) -> SourceCard:
    return SourceCard(source.id, neutralise(source.title), source.url,
                      neutralise(source.body_excerpt or source.snippet, CARD_EXCERPT), source.section,
                      str(source.extra.get("access", "")), bool(source.extra.get("stale")), new)


def reasons(items: Iterable[Reason]) -> list[ReasonInfo]:
    return [ReasonInfo(r.stage, r.rule, r.name, r.severity.value, r.message, r.evidence) for r in items]


def warnings(result: HarvestResult) -> list[str]:
    notes = list(result.errors)
    if result.crashed:
        notes.append("a rule crashed (E000): the candidates it hit were rejected")
    notes += [f"corpus self-check: {f.rule} {f.message}" for f in result.corpus_findings]
    return notes


def search_result(result: HarvestResult, query: str, section: str, providers: list[str]) -> SearchResult:
    by_id = {s.id: s for s in result.corpus}
    added = _added(result)
    ours = [r for r in result.rejects if r.found.section == section]
    counted = Counter(_label(r) for r in ours)
    return SearchResult(query, section, providers,
                        [card(by_id[i], i in added) for i in result.sections.get(section, []) if i in by_id],
                        len(ours), dict(sorted(counted.items())),
                        [RejectedUrl(r.found.candidate.url, reasons(r.reasons), r.previous_id) for r in ours[:MAX_REJECTS]],
                        warnings(result), len(result.corpus))


def add_result(result: HarvestResult, section: str, urls: Sequence[str]) -> AddResult:
    by_id = {s.id: s for s in result.corpus}
    added = _added(result)
    rejected = {r.found.candidate.url: r for r in result.rejects if r.found.section == section}
    outcomes = []
    for url in urls:
        source_id = result.book.id_of(url) if url not in rejected else None
        if url in rejected:
            outcomes.append(UrlOutcome(url, "rejected", None, reasons(rejected[url].reasons)))
        elif source_id in by_id:
            outcomes.append(UrlOutcome(url, "kept", card(by_id[source_id], source_id in added)))
        else:
            outcomes.append(UrlOutcome(url, "merged"))
    return AddResult(section, outcomes, sum(o.status == "kept" for o in outcomes),
                     sum(o.status == "rejected" for o in outcomes), warnings(result), len(result.corpus))


def check_result(result: HarvestResult, urls: Sequence[str], corpus: CorpusIndex) -> CheckResult:
    by_id = {s.id: s for s in result.corpus}
    rejected: dict[str, Reject] = {r.found.candidate.url: r for r in result.rejects}
    verdicts = []
    for url in urls:
        known = corpus.lookup(url) if url.startswith(("http://", "https://")) else ""
        if url in rejected:
            reject = rejected[url]
            verdicts.append(UrlVerdict(url, False, reasons(reject.reasons), known, final_url=reject.final_url))
            continue
        source = by_id.get(result.book.id_of(url) or "")
        if source is None:  # reached the same page as another URL of the call: judged with it
            verdicts.append(UrlVerdict(url, True, [], known))
            continue
        verdicts.append(UrlVerdict(url, True, [], known, neutralise(source.title), source.final_url, source.status,
                                   str(source.extra.get("access", ""))))
    passed = sum(v.passes for v in verdicts)
    return CheckResult(verdicts, passed, len(verdicts) - passed)


def entry(source: Source, max_chars: int) -> SourceEntry:
    extra = source.extra
    return SourceEntry(source.id, neutralise(source.title), source.url, source.canonical_url, source.fetched_at,
                       source.section, neutralise(source.summary), neutralise(source.body_excerpt, max_chars),
                       str(extra.get("access", "")), bool(extra.get("stale")), str(extra.get("last_verified", "")))


def gate_result(result: WriteResult, draft: str, ok: bool) -> GateResult:
    text = draft.replace("\r\n", "\n").replace("\r", "\n")  # the offsets of removals are in this text
    removed = [RemovedUrl(r.url, r.reason, r.kind, *_position(text, r.at), r.source_id) for r in result.violations]
    findings = [FindingInfo(f.rule, f.name, f.severity.value, f.message, f.line, f.column, f.verdict.value)
                for f in result.findings]
    return GateResult(result.text, ok, dict(result.citations), list(result.unknown_ids), removed, findings,
                      list(result.cited_keys), list(result.unknown_keys))


def prompt_outline(outline: Outline | None, corpus: Corpus, section: str | None,
                   title: str) -> tuple[Outline, str, bool]:
    """The outline to render with, the section id, and whether to list every source.

    With an outline its sections are used as written; without one, a section is any name the
    corpus uses (or asked for), and no section means the whole memo: every source listed."""
    if outline is not None:
        if section is None and len(outline.sections) == 1:
            return outline, outline.sections[0].id, False
        if section is not None:
            return outline, section, False
        raise UsageError(f"name a section: the outline has {', '.join(s.id for s in outline.sections)}")
    sid = section or "memo"
    names = list(dict.fromkeys([*(s.section for s in corpus.sources if s.section), sid]))
    sections = tuple(Section(n, n.replace("-", " ").capitalize()) for n in names)
    return Outline(title, sections), sid, section is None


def id_range(corpus: Corpus) -> str:
    ids = sorted((s.id for s in corpus.sources), key=lambda i: id_number(i) or 0)
    return ids[0] if len(ids) == 1 else f"{ids[0]} … {ids[-1]}"


def _added(result: HarvestResult) -> set[str]:
    return {row.id for row in result.merge if row.state == "added"}


def _label(reject: Reject) -> str:
    first = reject.reasons[0] if reject.reasons else None
    return (first.rule or first.name) if first else "unknown"


def _position(text: str, offset: int) -> tuple[int, int]:
    before = text[:offset]
    return before.count("\n") + 1, offset - (before.rfind("\n") + 1) + 1


def reference_result(reference: str, refs: Sequence[Any], report: Any) -> ReferenceResult:
    """Each identifier with its registry's answer and the reference rules' findings on it."""
    verdicts = []
    for ref in refs:
        urls = {ref.url, ref.identifier.url} - {""}
        found = [f for f in report.findings if f.url in urls and f.stage == "reference"]
        lookup = report.lookups.get(ref.identifier) if report.lookups is not None else None
        record = lookup.record if lookup is not None else None
        verdicts.append(IdentifierVerdict(
            ref.identifier.label, ref.identifier.url, lookup.status.value if lookup is not None else "unverifiable",
            lookup is not None and lookup.status.value == "found" and not any(f.severity is not Severity.INFO for f in found),
            [ReferenceFinding(f.rule, f.name, f.severity.value, f.message, f.evidence, f.fix, f.verdict.value)
             for f in found],
            WorkRecord(record.registry, record.title, [a.display for a in record.authors], record.year, record.venue,
                       record.doi, record.retracted) if record is not None else None,
            lookup.reason if lookup is not None else ""))
    return ReferenceResult(reference, verdicts, all(v.ok for v in verdicts))
