"""`harvest --bib FILE`: the entries of a bibliography that verify become corpus sources
(docs/scholarly.md, "harvest and write").

Every entry of the file (BibTeX/BibLaTeX, CSL-JSON, CSL-YAML) is verified as `audit` verifies it: by
its DOI or arXiv ID, else by registry search, with its title, authors and year compared with the
record. An entry whose registry has its record becomes a candidate judged by that record, exactly as
a DOI candidate of a search is (`citecheck.harvest.judge`: the record stands for the page, the same
gate, the title check, R001-R004 with the entry's claim, the thin-excerpt rule on the record's
abstract); its URL is the identifier's resolver URL (`https://doi.org/…`, `https://arxiv.org/abs/…`),
its `retrieval_query` the entry's key, and it earns a stable `src-NNN` with the record's fields.

Dropped and reported with the findings that failed them, as harvest reports every reject: an entry
the registry says does not exist (R001), whose record contradicts it (R002), that no registry asked
knows (R005: never "fabricated"), about which a registry could not answer (R003), a registered DOI
no registry describes, an entry with nothing to verify (no identifier, no title of two words or
more). A web entry (`@online`, `@misc` with a URL and no venue) has no registry: its URL is gated as
a page, like a `--urls` line.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from citecheck.harvest.gate import Policy, Reason, failing, finding_reason
from citecheck.harvest.outline import Section
from citecheck.harvest.plan import Found, SectionPlan, slug
from citecheck.harvest.providers import Candidate
from citecheck.harvest.result import Reject
from citecheck.models import BibEntry, Bibliography, Finding, Severity
from citecheck.scholarly.ids import SEARCH, Identifier, from_url
from citecheck.scholarly.records import Claim, Lookup, Record

TOOL = "bibliography"


@dataclass(frozen=True)
class Entry:
    """One entry of an imported bibliography, and the reference it is verified as (None: nothing to verify)."""

    bib: Bibliography
    entry: BibEntry
    reference: Any  # citecheck.scholarly.references.Reference | None
    section: str


@dataclass
class Imported:
    """What the bibliographies add to a harvest: a section each, the candidates that verified, their
    registry answers and claims (for the judge), and the entries dropped before it."""

    plans: list[SectionPlan] = field(default_factory=list)
    lookups: dict[str, Lookup] = field(default_factory=dict)
    claims: dict[Found, Claim] = field(default_factory=dict)  # each candidate's own claim (entries may share a DOI)
    rejects: list[Reject] = field(default_factory=list)
    late: int = 0  # entries whose lookup the run's --deadline cut off (among the rejects)


def load(paths: Sequence[str], max_bytes: int, taken: Iterable[str] = ()) -> list[Entry]:
    """Every entry of the named bibliographies (an unreadable file is an InputError: one line, exit 2)."""
    from citecheck.extract.bibliography import load_bibliographies
    from citecheck.scholarly.unlinked import bib_references

    out: list[Entry] = []
    used = set(taken)
    for bib in load_bibliographies(paths, max_bytes):
        section = _section_id(bib.path, used)
        used.add(section)
        for entry in bib.entries:  # one at a time: two entries may start on one line
            found = bib_references(replace(bib, entries=(entry,)))
            out.append(Entry(bib, entry, found[0] if found else None, section))
    return out


def identifiers(entries: Iterable[Entry]) -> list[Identifier]:
    return [e.reference.identifier for e in entries if e.reference is not None]


def admit(entries: Sequence[Entry], lookups: Any, engine: Any, policy: Policy, deadline: float = 0.0) -> Imported:
    """Split the entries: those whose registry has a record that the entry's claim passes under the
    gate become candidates; the others are rejects now, with the findings that failed them (R001,
    R002, R003, R005), so that an entry sharing its DOI with one that verifies is still reported.
    An entry whose lookup the run's --deadline (`deadline` seconds) cut off is unverifiable, as a
    candidate the deadline cut off is (`harvest.deadline`)."""
    out = Imported()
    listed: dict[str, list[Found]] = {}
    titles: dict[str, str] = {}
    for rank, item in enumerate(entries, 1):
        entry = item.entry
        titles.setdefault(item.section, item.bib.path)
        listed.setdefault(item.section, [])
        lookup = lookups.get(item.reference.identifier) if item.reference is not None and lookups is not None else None
        url = _url(item, lookup)
        found = Found(Candidate(url or entry.url, entry.title, "", f"@{entry.key}", f"{TOOL}:{item.bib.path}", rank),
                      item.section, entry.location)
        if item.reference is None:
            if _web(entry):
                listed[item.section].append(found)  # its URL is its source: gated as a page
            else:
                out.rejects.append(Reject(found, [_reason("nothing-to-verify", "the entry has no DOI or arXiv ID and "
                                                          "no title of two words or more to search for")]))
            continue
        if lookups is not None and item.reference.identifier.key in lookups.late:
            from citecheck.fetch import past_deadline
            from citecheck.harvest.deadline import deadline_reason

            page = past_deadline(found.candidate.url, deadline)
            out.rejects.append(Reject(found, [deadline_reason(page, deadline)]))
            out.late += 1
            continue
        findings = _findings(item, lookup, engine)
        reasons = [finding_reason(f) for f in findings]
        if lookup is not None and lookup.record is not None and url and not failing(policy, reasons):
            # verified: judged by its record like a DOI candidate (entries that share a DOI each keep their claim)
            listed[item.section].append(found)
            out.lookups[url] = lookup
            out.claims[found] = item.reference.claim
            continue
        if lookup is not None and lookup.record is not None and not url:
            reasons.append(_reason("no-identifier", f"the {lookup.registry} record has no DOI, arXiv or PubMed ID "
                                   "and no URL to cite it by"))
        elif not reasons:
            reasons.append(_reason("no-record", "no registry record to import: " + (lookup.reason if lookup is not None
                                                                                    else "the registries were not asked")))
        out.rejects.append(Reject(found, reasons, findings))
    out.plans = [SectionPlan(Section(sid, titles[sid]), (), titles[sid], tuple(found)) for sid, found in listed.items()]
    return out


def _url(item: Entry, lookup: Lookup | None) -> str:
    """The URL an entry is cited by: its identifier's resolver URL, or (found by search) the record's."""
    ident = item.reference.identifier if item.reference is not None else None
    if ident is None:
        return ""
    if ident.kind != SEARCH:
        return ident.url
    record = lookup.record if lookup is not None else None
    return record_url(record) if record is not None else ""


def record_url(record: Record) -> str:
    """A record's identifier URL (DOI first), else its own URL when that names an identifier."""
    if record.doi:
        return Identifier("doi", record.doi).url
    ident = from_url(record.url) if record.url else None
    return ident.url if ident is not None else ""


def _findings(item: Entry, lookup: Lookup | None, engine: Any) -> list[Finding]:
    if lookup is None:
        return []
    from citecheck.engine.run import Cited

    return list(engine.check_references([Cited(item.reference, lookup)], item.bib.path))


def _web(entry: BibEntry) -> bool:
    kind = entry.type.lower()
    return bool(entry.url) and (kind in ("online", "webpage", "www", "electronic") or (kind == "misc" and not entry.venue))


def _reason(name: str, message: str) -> Reason:
    return Reason("registry", "", name, Severity.ERROR, message)


def _section_id(path: str, used: set[str]) -> str:
    base = slug(Path(path).stem) or "bibliography"
    sid, n = base, 2
    while sid in used:
        sid, n = f"{base}-{n}", n + 1
    return sid


