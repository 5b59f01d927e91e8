"""Run active rules over subjects: every rule on every subject, crashes become E000 findings (`crash`),
suppression directives applied afterwards."""
from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from citecheck.engine.meta import INTERNAL_ERROR, INVALID_DIRECTIVE, META_RULES, SUPPRESSION_REASON
from citecheck.engine.rule import RuleSpec
from citecheck.engine.select import ActiveRule, matches
from citecheck.models import (
    Bibliography,
    Corpus,
    Directive,
    Document,
    Fault,
    Finding,
    Hit,
    Link,
    Location,
    Page,
    Severity,
    Verdict,
)

if TYPE_CHECKING:
    from citecheck.scholarly.records import Lookup
    from citecheck.scholarly.references import Reference


@dataclass(frozen=True)
class Fetched:
    """Subject of page-stage rules: one link occurrence and the page its URL fetched to."""

    link: Link
    page: Page
    # what the page rules derive from the page (folded text, lowered markup, word pools), shared by
    # the rules judging it; one per URL and call of `check_pages`, never process-wide
    memo: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)


@dataclass(frozen=True)
class Cited:
    """Subject of reference-stage rules: one scholarly reference and what its registry answered."""

    reference: Reference
    lookup: Lookup


@dataclass(frozen=True)
class Memo:
    """Subject of memo-stage rules: a document and, when given, the corpus it must cite from and the
    bibliographies its Pandoc citations (`[@key]`) must name (`bibliographies=None`: it has none).

    `share=(i, n)`: a shardable rule (`SHARDABLE = True`) does the i-th of n interleaved parts of
    its work, so n processes can share it (the page stage: a share's pages then carry only their
    URL, outcome, title and text sample); other rules always get (0, 1)."""

    document: Document
    corpus: Corpus | None = None
    pages: Mapping[str, Page] = field(default_factory=dict)
    share: tuple[int, int] = (0, 1)
    bibliographies: tuple[Bibliography, ...] | None = None


class Engine:
    def __init__(self, active: list[ActiveRule]) -> None:
        self.active = active
        self.by_stage: dict[str, list[ActiveRule]] = {}
        for rule in active:
            self.by_stage.setdefault(rule.spec.stage, []).append(rule)
        self.crashed = False
        self._meta = {r.spec.id: r for r in self.by_stage.get("engine", [])}

    def _run(self, rule: ActiveRule, subject: Any, path: str, section: str = "") -> list[Finding]:
        try:
            hits = list(rule.check(subject, rule.options))
        except Exception as err:  # noqa: BLE001 - a crashing rule must be reported, never skipped
            return [self._crashed(rule, err, path)]
        return [self.finding(rule, hit, section) for hit in hits]

    def _crashed(self, rule: ActiveRule, err: Exception, path: str) -> Finding:
        """The finding that stands for a rule that raised on a subject."""
        return self.crash(Location(path), f"rule {rule.spec.id} ({rule.spec.name}) crashed: {type(err).__name__}: {err}")

    def crash(self, loc: Location, message: str) -> Finding:
        """The engine's crash finding (E000, `Fault.CRASH`): citecheck failed on an input; the run exits 2."""
        self.crashed = True
        return self.meta(INTERNAL_ERROR.id, loc, message)

    def finding(self, rule: ActiveRule, hit: Hit, section: str = "") -> Finding:
        loc = hit.location
        severity = hit.severity if hit.severity is not None and not rule.severity_set else rule.severity
        return Finding(loc.path, loc.line, loc.column, rule.spec.id, rule.spec.name, severity, hit.message,
                       hit.url, hit.evidence, hit.fix, section, hit.verdict or rule.spec.verdict or Verdict.INPUT,
                       hit.gate or rule.spec.gate, rule.spec.stage, rule.spec.fault, hit.compared)

    def meta_active(self, rule_id: str) -> bool:
        """Whether the configuration keeps engine rule `rule_id` (E000 always runs)."""
        return rule_id in self._meta

    def meta(self, rule_id: str, loc: Location, message: str, evidence: str = "") -> Finding:
        """A finding of engine rule `rule_id` (`citecheck.engine.meta`); one left out by --select/--ignore
        still reports (it is about citecheck's input), at its declared severity."""
        rule = self._meta.get(rule_id)
        spec = rule.spec if rule else _meta_spec(rule_id)
        severity = rule.severity if rule else spec.severity if spec else Severity.ERROR
        name = rule.spec.name if rule else rule_id
        return Finding(loc.path, loc.line, loc.column, rule_id, name, severity, message, "", evidence,
                       verdict=Verdict.INPUT, stage="engine", fault=spec.fault if spec else Fault.NONE)

    def check_links(self, links: Iterable[Link], path: str) -> list[Finding]:
        out: list[Finding] = []
        for link in links:
            for rule in self.by_stage.get("url", []):
                if link.in_code and not rule.options.get("code"):
                    continue
                out.extend(self._run(rule, link, path, link.section))
        return out

    def check_pages(self, links: Iterable[Link], pages: Mapping[str, Page], path: str) -> list[Finding]:
        """Page rules over every link whose URL was fetched: `_run` per (link, rule), unrolled.

        Tens of thousands of (link, rule) pairs mostly yield nothing, so the loop pays for little
        beyond the calls themselves: one `Fetched` per link, shared by its rules (frozen, and rules
        are pure), and each rule's check, options and `code` option looked up once per call.
        """
        rules = [(rule, rule.check, rule.options) for rule in self.by_stage.get("page", [])]
        in_code = [entry for entry in rules if entry[2].get("code")]
        out: list[Finding] = []
        memos: dict[str, dict[Any, Any]] = {}  # one per URL: a URL cited twice is derived from once
        for link in links:
            page = pages.get(link.url)
            if page is None:
                continue
            subject = Fetched(link, page, memos.setdefault(link.url, {}))
            for rule, check, options in in_code if link.in_code else rules:
                try:
                    hits = [*check(subject, options)]
                except Exception as err:  # noqa: BLE001 - a crashing rule must be reported, never skipped
                    out.append(self._crashed(rule, err, path))
                    continue
                if hits:
                    out += [self.finding(rule, hit, link.section) for hit in hits]
        return out

    def check_references(self, cited: Iterable[Cited], path: str) -> list[Finding]:
        """Reference rules over every reference whose identifier a registry was asked about."""
        out: list[Finding] = []
        for subject in cited:
            for rule in self.by_stage.get("reference", []):
                out.extend(self._run(rule, subject, path, subject.reference.section))
        return out

    def check_memo(self, memo: Memo) -> list[Finding]:
        out: list[Finding] = []
        for rule in self.by_stage.get("memo", []):
            out.extend(self._run(rule, memo, memo.document.path))
        return out

    def check_corpus(self, corpus: Corpus) -> list[Finding]:
        out: list[Finding] = []
        for rule in self.by_stage.get("corpus", []):
            out.extend(self._run(rule, corpus, corpus.path))
        return out

    def check_bibliography(self, bibliography: Bibliography) -> list[Finding]:
        out: list[Finding] = []
        for rule in self.by_stage.get("bibliography", []):
            out.extend(self._run(rule, bibliography, bibliography.path))
        return out

    def apply_directives(self, doc: Document, findings: list[Finding], known: Iterable[Any],
                         today: dt.date | None = None, *, honour: bool = True) -> Applied:
        """Split findings into kept and suppressed; directive problems become E001/E002 findings.
        With `honour=False` (`--no-inline-config`) no directive is read: nothing is suppressed."""
        if not honour:
            return Applied(list(findings), [], (), len(doc.directives))
        specs = list(known)
        today = today or dt.date.today()
        extra: list[Finding] = []
        live: list[Directive] = []
        for d in doc.directives:
            problem = _directive_problem(d, specs)
            refusal = "" if problem else _refusal(d, specs, today)
            if problem:
                extra.append(self.meta(INVALID_DIRECTIVE.id, d.location, problem, ",".join(d.rules)))
            elif refusal:  # the finding it meant to hide stays, beside this E002
                extra.append(self.meta(SUPPRESSION_REASON.id, d.location, refusal))
            else:
                live.append(d)
        kept: list[Finding] = []
        hidden: dict[Directive, list[Finding]] = {d: [] for d in live}
        for f in findings:
            by = next((d for d in live if f.path == doc.path and f.fault is not Fault.CRASH and _covers(d, f, specs)), None)
            if by is None:
                kept.append(f)
            else:
                hidden[by].append(f)
        uses = tuple(Suppression(d, len(found)) for d, found in hidden.items())
        return Applied(kept + extra, [f for found in hidden.values() for f in found], uses)


@dataclass(frozen=True)
class Suppression:
    """A directive that was honoured, and how many findings it suppressed in this run."""

    directive: Directive
    count: int

    def to_dict(self) -> dict[str, Any]:
        d = self.directive
        return {"path": d.location.path, "line": d.location.line, "directive": f"{d.action}={','.join(d.rules)}",
                "reason": d.reason, "until": d.until, "suppressed": self.count}


@dataclass(frozen=True)
class Applied:
    """What the directives of one document did: the findings kept (with E001/E002 findings about
    the directives themselves), those suppressed, each honoured directive's count, and how many
    directives were not read at all (`--no-inline-config`)."""

    kept: list[Finding]
    suppressed: list[Finding]
    uses: tuple[Suppression, ...] = ()
    ignored: int = 0


def _meta_spec(rule_id: str) -> RuleSpec | None:
    return next((r for r in META_RULES if r.id == rule_id), None)


def _directive_problem(d: Directive, specs: list[Any]) -> str:
    if d.action == "invalid":
        return f"unknown citecheck directive {d.rules[0]!r} (use disable=, disable-file=, reason=, until=)"
    for token in d.rules:
        if token != "all" and not any(matches(s, token) for s in specs):
            return f"suppression names unknown rule {token!r}"
    if d.until:
        try:
            dt.date.fromisoformat(d.until)
        except ValueError:
            return f"until={d.until!r} is not a YYYY-MM-DD date"
    return ""


def _refusal(d: Directive, specs: list[Any], today: dt.date) -> str:
    """Why a well-formed directive still suppresses nothing (E002), or ''. A directive names the
    rules it silences one by one: `all`, a bare `disable`, a stage letter or an ID prefix would let
    one comment in a memo switch the gate off."""
    what = ",".join(d.rules)
    if d.action in ("disable", "disable-file"):
        group = next((t for t in d.rules if not _names_one_rule(t, specs)), None)
        if group is not None:
            return (f"suppression of {'all rules' if group == 'all' else f'the rule group {group!r}'} is refused "
                    "and does not suppress: name each rule (ID or slug)")
    if not d.reason:  # an unexplained silence silences nothing
        return f"suppression of {what} has no reason=\"…\" and does not suppress"
    if d.until and _expired(d.until, today):
        return f"suppression of {what} expired on {d.until}"
    return ""


def _names_one_rule(token: str, specs: list[Any]) -> bool:
    return any(s.id.upper() == token.upper() or s.name == token.lower() for s in specs)


def _expired(until: str, today: dt.date) -> bool:
    return dt.date.fromisoformat(until) < today


def _covers(d: Directive, f: Finding, specs: list[Any]) -> bool:
    if d.action not in ("disable", "disable-file"):
        return False
    if d.action == "disable" and d.target_line != f.line:
        return False
    spec = next((s for s in specs if s.id == f.rule), None)
    return any((spec is not None and matches(spec, t)) or t.upper() == f.rule for t in d.rules)
