"""Curate URLs across many runs: gather, dedupe on the canonical key, validate each once, rank.

Seven pipeline runs of a memo produce overlapping URL lists; curating 159 of them by hand is the
kind of work a tool should do. The master list keeps, per distinct URL, its verdict, the findings
that earned it, and every run and file it appeared in, sorted by how often it recurs.

`from_cache` draws the list from a fact cache instead (a team cache holds every source every
runner fetched): one entry per stored fact, judged by the current rules from those facts, with
when it was fetched and its kind; no run, no fetch.
"""
from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from citecheck._audit import CITEABLE_SCHEMES
from citecheck.engine.run import Engine
from citecheck.extract import DEFAULT_INCLUDE, collect
from citecheck.extract.walk import GENERATED_MARK, refuse_unreadable
from citecheck.models import Finding, Link, LinkKind, Location, Outcome, Page
from citecheck.score import CLAIMS, WEIGHTS
from citecheck.urls import dedupe_key

CACHE_PATH = "<cache>"  # the location of an entry drawn from the cache (no file cited it)


@dataclass
class Entry:
    url: str
    key: str
    first: Location
    text: str = ""
    occurrences: int = 0
    runs: set[str] = field(default_factory=set)
    files: set[str] = field(default_factory=set)
    findings: list[Finding] = field(default_factory=list)
    page: Page | None = None
    kind: str = ""  # from a cache listing: the stored fact's kind (answer, nxdomain)

    @property
    def verdict(self) -> str:
        worst = ("ok", 1.0)
        for f in self.findings:
            weight_credit = None if f.verdict in CLAIMS else WEIGHTS.get(f.verdict)
            if weight_credit and weight_credit[1] < worst[1]:
                worst = (f.verdict.value, weight_credit[1])
            elif f.severity.value == "error" and worst[1] > 0 and not weight_credit:
                worst = ("invalid", 0.0)
        return worst[0]

    def to_dict(self) -> dict[str, Any]:
        page = self.page
        return {
            "url": self.url, "key": self.key, "verdict": self.verdict, "occurrences": self.occurrences,
            "runs": sorted(self.runs), "files": sorted(self.files),
            "status": page.status if page else None, "final_url": page.final_url if page else "",
            "title": page.title if page else "", "outcome": page.outcome.value if page else "not-fetched",
            "fetched_at": page.fetched_at if page else "", **({"kind": self.kind} if self.kind else {}),
            "findings": [f.to_dict() for f in self.findings],
        }


def gather(runs: Iterable[str], include: Iterable[str] = DEFAULT_INCLUDE, exclude: Iterable[str] = (),
           max_bytes: int = 20 * 1024 * 1024) -> dict[str, Entry]:
    """Every cite-able URL of every run, deduplicated on the canonical key (first spelling wins)."""
    entries: dict[str, Entry] = {}
    for run in runs:
        inputs = collect([run], tuple(include), tuple(exclude), max_bytes)
        refuse_unreadable(inputs.problems)
        links: list[Link] = [link for doc in inputs.documents for link in doc.links if not link.in_code]
        for corpus in inputs.corpora:
            links += [Link(s.url, Location(corpus.path, s.line, 1), LinkKind.CORPUS, s.title) for s in corpus.sources]
        for link in links:
            if not link.url.lower().startswith(CITEABLE_SCHEMES):
                continue
            key = dedupe_key(link.url)
            entry = entries.setdefault(key, Entry(link.url, key, link.location, link.text))
            entry.occurrences += 1
            entry.runs.add(run)
            entry.files.add(link.location.path)
    return entries


def from_cache(facts: Iterable[tuple[float, str, Page]]) -> tuple[dict[str, Entry], dict[str, Page]]:
    """Entries and their pages from a cache's stored facts (`FactCache.every_fact`): one entry per
    source (dedupe key), with the facts of its URL fetched last (facts are stored per URL fetched)."""
    latest: dict[str, tuple[float, str, Page]] = {}
    for fetched, kind, page in facts:
        key = dedupe_key(page.url)
        if key not in latest or fetched > latest[key][0]:
            latest[key] = (fetched, kind, page)
    entries: dict[str, Entry] = {}
    pages: dict[str, Page] = {}
    for key, (_fetched, kind, page) in latest.items():
        entries[key] = Entry(page.url, key, Location(CACHE_PATH, 1, 1), kind=kind)
        pages[page.url] = page
    return entries, pages


def judge(entries: dict[str, Entry], engine: Engine, pages: dict[str, Page]) -> None:
    """Run the URL rules on each entry once, and the page rules on its fetched page."""
    for entry in entries.values():
        link = Link(entry.url, entry.first, LinkKind.INLINE, entry.text)
        entry.page = pages.get(entry.url)
        entry.findings = engine.check_links([link], entry.first.path)
        entry.findings += engine.check_pages([link], pages, entry.first.path)


def cache_markdown_report(entries: list[Entry], location: str) -> str:
    """The Markdown view of a cache listing: verdict and latest facts per URL."""
    rows = ["| # | verdict | status | kind | fetched at | URL | title |", "| --- | --- | --- | --- | --- | --- | --- |"]
    for n, e in enumerate(entries, start=1):
        page = e.page or Page(url=e.url, outcome=Outcome.ERROR)
        status = page.status if page.status is not None else ""
        title = page.title.replace("|", "/")[:80]
        rows.append(f"| {n} | {e.verdict} | {status} | {e.kind} | {page.fetched_at} | <{e.url}> | {title} |")
    head = (f"<!-- {GENERATED_COMMENT} -->\n# Sources in the cache\n\n{len(entries)} URL(s) with stored facts in "
            f"`{location}`: {_counts(entries)}")
    return head + "\n\n" + "\n".join(rows) + "\n"


def _counts(entries: list[Entry]) -> str:
    counts: dict[str, int] = {}
    for e in entries:
        counts[e.verdict] = counts.get(e.verdict, 0) + 1
    return ", ".join(f"{v} {k}" for k, v in sorted(counts.items()))


def ranked(entries: dict[str, Entry]) -> list[Entry]:
    return sorted(entries.values(), key=lambda e: (-e.occurrences, -len(e.runs), e.url))


GENERATED_COMMENT = f'<meta {GENERATED_MARK}"> (a walk of this folder skips this file)'


def markdown_report(entries: list[Entry]) -> str:
    rows = ["| # | occurrences | runs | verdict | status | URL | title |", "| --- | --- | --- | --- | --- | --- | --- |"]
    for n, e in enumerate(entries, start=1):
        status = e.page.status if e.page and e.page.status is not None else ""
        title = (e.page.title if e.page else "").replace("|", "/")[:80]
        rows.append(f"| {n} | {e.occurrences} | {len(e.runs)} | {e.verdict} | {status} | <{e.url}> | {title} |")
    counts: dict[str, int] = {}
    for e in entries:
        counts[e.verdict] = counts.get(e.verdict, 0) + 1
    head = f"<!-- {GENERATED_COMMENT} -->\n# Curated URLs\n\n{len(entries)} distinct URL(s): " + ", ".join(f"{v} {k}" for k, v in sorted(counts.items()))
    return head + "\n\n" + "\n".join(rows) + "\n"


def csv_report(entries: list[Entry]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["url", "verdict", "occurrences", "runs", "status", "final_url", "title", "rules", "fetched_at",
                     "kind"])
    for e in entries:
        page = e.page
        writer.writerow([e.url, e.verdict, e.occurrences, len(e.runs), page.status if page else "",
                         page.final_url if page else "", page.title if page else "",
                         " ".join(sorted({f.rule for f in e.findings})), page.fetched_at if page else "", e.kind])
    return out.getvalue()


def run_label(path: str) -> str:
    return Path(path).name or path
