"""The exit-code gate: 0 clean, 1 findings at or above --fail-on, 2 a crashed rule or an input that
could not be audited (a finding whose rule declares a `Fault`: E000, E003)."""
from __future__ import annotations

from collections.abc import Iterable

from citecheck.models import Fault, Finding, Severity


def exit_code(findings: Iterable[Finding], fail_on: str = "error", crashed: bool = False) -> int:
    findings = list(findings)
    if crashed or any(f.fault is not Fault.NONE for f in findings):
        return 2
    threshold = Severity(fail_on).rank
    return 1 if any(f.severity.rank >= threshold for f in findings) else 0
