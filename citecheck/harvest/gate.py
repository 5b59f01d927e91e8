"""The gate's verdict on one candidate: which findings reject it under `--gate strict|default|lenient`.

    strict   rejects on any warning or error (a paywall, a redirect, a bot challenge …)
    default  rejects on errors
    lenient  rejects only errors that prove the source is not there: dead pages (H001 http-error,
             H002 unreachable, H003 soft-404, H009 parked-domain), placeholder domains (U001) and
             private addresses (U004)

Whatever the gate, a wall keeps a page out of the corpus: a login or consent wall (H005) and a hard
paywall (H004 with `access=hard`: only a teaser is readable).
A metered or registration wall whose text is present passes, and the source carries
`access: metered` (or `registration`). A page the site serves for any path (H003's "same page for
any path" warning) is unverifiable, so it is rejected like an unverifiable fetch (not under lenient).

Besides the engine's findings, two harvest checks feed the same verdict: the fetch outcome itself
(a page that could not be fetched has no content to cite: error, except `unsupported` content,
a warning) and the title check (`citecheck.harvest.titlecheck`, an error).
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from citecheck.allowlist import allow_hint
from citecheck.checks.paywall import access_of
from citecheck.checks.soft_404 import SHELL_MESSAGE
from citecheck.errors import UsageError
from citecheck.models import Finding, Outcome, Page, Severity
from citecheck.urls import host_of

GATES = ("strict", "default", "lenient")
LENIENT_RULES = ("placeholder-domain", "private-address", "http-error", "unreachable", "soft-404", "parked-domain")
_OUTCOME_SEVERITY = {Outcome.DEAD: Severity.ERROR, Outcome.EXCLUDED: Severity.ERROR, Outcome.ERROR: Severity.ERROR,
                     Outcome.UNVERIFIABLE: Severity.ERROR, Outcome.UNSUPPORTED: Severity.WARNING}
_LENIENT_OUTCOMES = (Outcome.DEAD, Outcome.EXCLUDED)
WALL_RULES = ("H004", "H005")  # paywall, login-wall
_SOFT_WALLS = ("metered", "registration")
_ACCESS = re.compile(r"access=([a-z]+)\b")  # H004's machine-readable head of evidence (paywall.access_of)


@dataclass(frozen=True)
class Reason:
    """Why a candidate failed: an engine finding, the fetch outcome, or the title check."""

    stage: str  # preflight | fetch | page | title
    rule: str  # rule ID for engine findings, '' for harvest checks
    name: str  # rule slug, or fetch-<outcome> / title-contradiction
    severity: Severity
    message: str
    evidence: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"stage": self.stage, "rule": self.rule, "name": self.name, "severity": self.severity.value,
                "message": self.message, "evidence": self.evidence}


@dataclass(frozen=True)
class Policy:
    gate: str = "default"
    lenient_rules: tuple[str, ...] = LENIENT_RULES

    def __post_init__(self) -> None:
        if self.gate not in GATES:
            raise UsageError(f"--gate must be one of {', '.join(GATES)}, got {self.gate!r}")

    def rejects(self, reason: Reason) -> bool:
        if reason.rule == "H003" and reason.message == SHELL_MESSAGE:  # unverifiable, like such an outcome
            return self.gate != "lenient"
        if reason.rule in WALL_RULES:
            return reason.rule == "H005" or wall_kind(reason.evidence) not in _SOFT_WALLS
        if self.gate == "strict":
            return reason.severity.rank >= Severity.WARNING.rank
        if self.gate == "default":
            return reason.severity is Severity.ERROR
        if reason.severity is not Severity.ERROR:
            return False
        if reason.name.startswith("fetch-"):
            return reason.name in {f"fetch-{o.value}" for o in _LENIENT_OUTCOMES}
        return reason.rule in self.lenient_rules or reason.name in self.lenient_rules


def wall_kind(evidence: str) -> str:
    """The wall an H004 or H005 reason reports: H004's `access=<kind>;` evidence head, else `hard`."""
    found = _ACCESS.match(evidence)
    return found.group(1) if found else "hard"


def wall_access(findings: Iterable[Finding]) -> str:
    """The corpus `access` of a page that passed: the kind of its soft wall, '' when it has none."""
    kinds = [access_of(f) for f in findings]
    return next((kind for kind in kinds if kind in _SOFT_WALLS), "")


def policy_from(gate: str, harvest_config: Mapping[str, Any]) -> Policy:
    rules = harvest_config.get("lenient_rules")
    return Policy(gate, tuple(map(str, rules)) if isinstance(rules, list) else LENIENT_RULES)


def finding_reason(finding: Finding) -> Reason:
    stage = {"U": "preflight", "H": "page"}.get(finding.rule[:1], "page")
    return Reason(stage, finding.rule, finding.name, finding.severity, finding.message, finding.evidence)


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
