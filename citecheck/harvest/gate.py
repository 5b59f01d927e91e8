"""The gate's verdict on one candidate: which findings reject it under `--gate strict|default|lenient`.

    strict   rejects on any warning or error (a paywall, a redirect, a bot challenge …)
    default  rejects on errors
    lenient  rejects only errors that prove the source is not there or cannot be used: findings whose
             rule declares `GATE = "gone"` or `"blocked"` (dead pages: H001 http-error, H002
             unreachable, H003 soft-404, H009 parked-domain; U001 placeholder-domain, U004
             private-address), and the fetch outcomes dead and excluded

How a finding counts is its rule's declaration, stamped on the finding (`Finding.gate`, see
`citecheck.models.Gate`), never a list of rule IDs here. Whatever the gate, a wall keeps a page out
of the corpus (`wall`: a login or consent wall, a hard paywall whose text is only a teaser). A
metered or registration wall whose text is present passes (`access`), and the source carries
`access: metered` (or `registration`). A client-rendered shell the site serves for any path
(`unverifiable`) is rejected like an unverifiable fetch (not under lenient). `harvest.lenient_rules`
in the configuration replaces the declarations for lenient with a list of rule IDs or slugs.

Besides the engine's findings, two harvest checks feed the same verdict: the fetch outcome itself
(a page that could not be fetched has no content to cite: error, except `unsupported` content,
a warning) and the title check (`citecheck.harvest.titlecheck`, an error).
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from citecheck._util.allowlist import allow_hint
from citecheck.errors import UsageError
from citecheck.models import Finding, Gate, Outcome, Page, Severity
from citecheck.urls import host_of

GATES = ("strict", "default", "lenient")
_LENIENT_GATES = (Gate.GONE, Gate.BLOCKED)
_OUTCOME_SEVERITY = {Outcome.DEAD: Severity.ERROR, Outcome.EXCLUDED: Severity.ERROR, Outcome.ERROR: Severity.ERROR,
                     Outcome.UNVERIFIABLE: Severity.ERROR, Outcome.UNSUPPORTED: Severity.WARNING}
_LENIENT_OUTCOMES = (Outcome.DEAD, Outcome.EXCLUDED)
_ACCESS = re.compile(r"access=([a-z]+)\b")  # a wall's machine-readable head of evidence (H004's `access=<kind>;`)


@dataclass(frozen=True)
class Reason:
    """Why a candidate failed: an engine finding, the fetch outcome, or the title check."""

    stage: str  # preflight | fetch | page | title
    rule: str  # rule ID for engine findings, '' for harvest checks
    name: str  # rule slug, or fetch-<outcome> / title-contradiction
    severity: Severity
    message: str
    evidence: str = ""
    gate: Gate = Gate.SEVERITY  # how the finding counts (its rule's declaration); harvest's own checks: severity

    def to_dict(self) -> dict[str, Any]:
        return {"stage": self.stage, "rule": self.rule, "name": self.name, "severity": self.severity.value,
                "message": self.message, "evidence": self.evidence}


@dataclass(frozen=True)
class Policy:
    gate: str = "default"
    lenient_rules: tuple[str, ...] = ()  # rule IDs or slugs replacing the declared gates under lenient

    def __post_init__(self) -> None:
        if self.gate not in GATES:
            raise UsageError(f"--gate must be one of {', '.join(GATES)}, got {self.gate!r}")

    def rejects(self, reason: Reason) -> bool:
        if reason.gate is Gate.UNVERIFIABLE:  # like an unverifiable fetch outcome
            return self.gate != "lenient"
        if reason.gate in (Gate.WALL, Gate.ACCESS):
            return reason.gate is Gate.WALL
        if self.gate == "strict":
            return reason.severity.rank >= Severity.WARNING.rank
        if self.gate == "default":
            return reason.severity is Severity.ERROR
        if reason.severity is not Severity.ERROR:
            return False
        if reason.name.startswith("fetch-"):
            return reason.name in {f"fetch-{o.value}" for o in _LENIENT_OUTCOMES}
        if self.lenient_rules:
            return reason.rule in self.lenient_rules or reason.name in self.lenient_rules
        return reason.gate in _LENIENT_GATES


def wall_kind(evidence: str) -> str:
    """The kind of wall a wall finding's evidence names (`access=<kind>;` at its head), else `hard`."""
    found = _ACCESS.match(evidence)
    return found.group(1) if found else "hard"


def wall_access(findings: Iterable[Finding]) -> str:
    """The corpus `access` of a page that passed: the kind of its soft wall, '' when it has none."""
    return next((wall_kind(f.evidence) for f in findings if f.gate is Gate.ACCESS), "")


def policy_from(gate: str, harvest_config: Mapping[str, Any]) -> Policy:
    rules = harvest_config.get("lenient_rules")
    return Policy(gate, tuple(map(str, rules)) if isinstance(rules, list) else ())


def finding_reason(finding: Finding) -> Reason:
    return Reason("preflight" if finding.stage == "url" else "page", finding.rule, finding.name, finding.severity, finding.message, finding.evidence,
                  finding.gate)


def outcome_reason(page: Page) -> Reason | None:
    """A reason when the fetch itself did not produce a page to cite."""
    severity = _OUTCOME_SEVERITY.get(page.outcome)
    if severity is None:
        return None
    status = f"HTTP {page.status}" if page.status else page.error or page.outcome.value
    message = f"fetch outcome {page.outcome.value} ({status})"
    if page.error == "blocked-private":
        target = page.final_url or page.url
        message += f": a private address (to fetch it anyway: {allow_hint(target, host_of(target) or 'HOST')})"
    return Reason("fetch", "", f"fetch-{page.outcome.value}", severity, message, page.error)


def failing(policy: Policy, reasons: Iterable[Reason]) -> list[Reason]:
    """The reasons that reject under the policy (empty: the candidate passes)."""
    return [r for r in reasons if policy.rejects(r)]
