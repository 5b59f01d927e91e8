"""Cites: every link and `[src-NNN]` citation of a memo, with the findings that concern it.

A finding belongs to a cite when it names the cite's URL on the cite's line (or a few lines
below the sentence start a memo rule reports), or sits exactly on a citation ID. Everything
else stays a finding of its line, so nothing found is ever dropped from the memo view.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from citecheck.models import Corpus, Document, Finding, Link, Page, Source, Verdict
from citecheck.report.html_verdicts import BY_KEY, classify, finding_verdict

SENTENCE_SPAN = 5  # lines a memo rule's sentence may run before its citation


@dataclass
class Cite:
    key: str  # unique within the report; the evidence panel is "ev-<key>"
    line: int
    column: int
    text: str  # as written in the source, for the highlight
    url: str  # "" for a citation ID
    kind: str
    section: str
    in_code: bool = False
    link: Link | None = None
    source: Source | None = None  # corpus entry of a citation ID, when the corpus is known
    page: Page | None = None
    findings: list[Finding] = field(default_factory=list)
    verdict: str = "unchecked"
    reasons: list[str] = field(default_factory=list)

    @property
    def anchor(self) -> str:
        return f"ev-{self.key}"


def cites_of(doc: Document, prefix: str, pages: Mapping[str, Page], corpus: Corpus | None) -> list[Cite]:
    """All links and citation IDs of a document, in reading order."""
    known = corpus.by_id() if corpus is not None else {}
    found: list[Cite] = []
    for link in doc.links:
        found.append(Cite("", link.location.line, link.location.column, link.raw or link.url, link.url,
                          link.kind.value, link.section, link.in_code, link=link, page=pages.get(link.url)))
    for marker in doc.markers:
        if marker.kind == "source-id":
            source = next((s for k, s in known.items() if k.lower() == marker.value.lower()), None)
            found.append(Cite("", marker.location.line, marker.location.column, marker.value, "", "source-id",
                              marker.section, marker.in_code, source=source))
    found.sort(key=lambda c: (c.line, c.column))
    for n, cite in enumerate(found, 1):
        cite.key = f"{prefix}c{n}"
    return found


def owner(f: Finding, cites: list[Cite]) -> Cite | None:
    """The cite a finding is about (among `cites`, those on its line and the next few), or None when
    it concerns its line as a whole."""
    near = [c for c in cites if f.line <= c.line <= f.line + SENTENCE_SPAN]
    if f.url:
        same = [c for c in near if f.url in (c.url, c.text)]
        exact = [c for c in same if (c.line, c.column) == (f.line, f.column)]
        after = [c for c in same if (c.line, c.column) >= (f.line, f.column)]
        ranked = exact or after or [c for c in same if c.line == f.line]
        return ranked[0] if ranked else None
    ids = [c for c in near if c.kind == "source-id"]
    exact = [c for c in ids if (c.line, c.column) == (f.line, f.column)]
    if exact:
        return exact[0]
    if f.verdict is Verdict.UNSUPPORTED:
        return next((c for c in ids if (c.line, c.column) >= (f.line, f.column)), None)
    return None


def settle(cite: Cite) -> None:
    """Fix a cite's verdict once its findings are attached."""
    cite.findings.sort(key=_weight, reverse=True)  # the verdict-deciding finding leads the summary line
    cite.verdict, cite.reasons = classify(cite.findings, cite.page)
    if cite.kind == "source-id" and cite.verdict == "unchecked" and cite.source is not None:
        cite.verdict, cite.reasons = "live", ["in corpus"]
    if cite.in_code and "code sample" not in cite.reasons:
        cite.reasons.append("code sample")


def _weight(f: Finding) -> tuple[int, int]:
    implied = finding_verdict(f)
    return (BY_KEY[implied[0]].rank if implied else -1), f.severity.rank
