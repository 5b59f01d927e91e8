"""H004's wall kinds and H005's sign-in evidence, read off the rule case files: every `bad_<kind>_*`
case of H004 reports that kind (machine-readable in the evidence) at that kind's severity."""
from __future__ import annotations

from typing import Any

import pytest
from rulecases import load_cases, run_case

from citecheck.checks import paywall
from citecheck.models import Finding, Severity

H004_CASES = [(name, case) for name, case in load_cases() if case["rule"] == "H004"]
KIND_CASES = [(name, case) for name, case in H004_CASES
              if any(case["name"].startswith(f"bad_{kind}_") for kind in paywall.KINDS)]
SEVERITY = {"hard": Severity.WARNING, "metered": Severity.INFO, "registration": Severity.INFO}


def test_every_kind_has_cases() -> None:
    kinds = {case["name"].split("_")[1] for _, case in KIND_CASES}
    assert kinds == set(paywall.KINDS)


@pytest.mark.parametrize("case", [c for _, c in KIND_CASES], ids=[n for n, _ in KIND_CASES])
def test_case_reports_its_kind_at_its_severity(case: dict[str, Any]) -> None:
    kind = case["name"].split("_")[1]
    found = [f for f in run_case(case) if f.rule == "H004"]
    assert len(found) == 1
    assert paywall.access_of(found[0]) == kind and found[0].evidence.startswith(f"access={kind};")
    assert found[0].severity is SEVERITY[kind] and f"({kind})" in found[0].message


def test_access_of_reads_only_h004_evidence() -> None:
    hit = Finding("m.md", 1, 1, "H004", "paywall", Severity.INFO, "m", evidence="access=metered; text 'x'")
    other = Finding("m.md", 1, 1, "H005", "login-wall", Severity.INFO, "m", evidence="access=metered; text 'x'")
    assert paywall.access_of(hit) == "metered" and paywall.access_of(other) == ""


def test_configured_severity_wins_over_the_kind() -> None:
    case = dict(next(c for n, c in KIND_CASES if c["name"].startswith("bad_metered_")))
    case["config"] = {"rules": {"H004": {"severity": "error"}}}
    assert [f.severity for f in run_case(case) if f.rule == "H004"] == [Severity.ERROR]


def test_401_evidence_names_the_authentication_challenge() -> None:
    case = next(c for n, c in load_cases() if n == "H005-bad_401_with_basic_auth_challenge")
    found = run_case(case)
    assert len(found) == 1 and found[0].evidence.startswith("HTTP 401; WWW-Authenticate 'Basic realm=")
    assert "title '401 Authorization Required'" in found[0].evidence
