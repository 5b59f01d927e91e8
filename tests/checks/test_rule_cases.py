"""Every rule's pass/fail fixture cases, one test id per case (fixtures/rules/<ID>.yml)."""
from __future__ import annotations

from typing import Any

import pytest
from rulecases import load_cases, run_case

CASES = load_cases()


@pytest.mark.parametrize("case", [c for _, c in CASES], ids=[i for i, _ in CASES])
def test_rule_case(case: dict[str, Any]) -> None:
    found = run_case(case)
    got = sorted([f.line, f.column] for f in found)
    expected = sorted(list(p) for p in case.get("expect", []))
    if case["name"].startswith("ok_"):
        assert expected == [], "ok_* cases must expect no finding"
    else:
        assert expected, "bad_* cases must expect at least one finding"
    assert got == expected, "\n".join(f"{f.line}:{f.column} {f.message}" for f in found)
    for f in found:
        assert f.path and f.line >= 1 and f.column >= 1 and f.severity and f.message
