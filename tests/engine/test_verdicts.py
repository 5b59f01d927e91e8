"""Every rule declares what its findings mean (`VERDICT`, `GATE`); the score, the HTML report, the
harvest gate and curation read the finding, never a table of rule IDs."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from reportkit import finding
from rulecases import load_cases, run_case

from citecheck.engine.registry import build_registry
from citecheck.models import Gate, Verdict
from citecheck.report.html_verdicts import finding_verdict
from citecheck.score import CLAIMS, NOT_SCORED, WEIGHTS

pytestmark = pytest.mark.slow  # servers, subprocesses or many generated cases: the full suite, not the inner loop

ROOT = Path(__file__).resolve().parents[2]
CASES = [(i, c) for i, c in load_cases() if not c["name"].startswith("ok_")]


def test_every_registered_rule_declares_a_verdict_and_a_gate() -> None:
    for rule in build_registry().rules:
        assert isinstance(rule.verdict, Verdict), rule.id
        assert isinstance(rule.gate, Gate), rule.id


def test_every_verdict_is_weighed_or_declared_neutral() -> None:
    assert set(WEIGHTS) | set(NOT_SCORED) == set(Verdict)
    assert not set(WEIGHTS) & set(NOT_SCORED)
    assert set(WEIGHTS) >= CLAIMS


@pytest.mark.parametrize("case", [c for _, c in CASES], ids=[i for i, _ in CASES])
def test_every_finding_of_a_failing_case_carries_its_verdict(case: dict[str, Any]) -> None:
    registry = build_registry()
    rule = registry.get(case["rule"]) if "rule" in case else None
    for found in run_case(case):
        assert isinstance(found.verdict, Verdict) and isinstance(found.gate, Gate)
        own = registry.get(found.rule)  # and its rule's stage and fault, for whoever reads them
        assert own is not None and (found.stage, found.fault) == (own.stage, own.fault), found
        if rule is not None and found.rule == rule.id and found.verdict is not rule.verdict:
            assert found.verdict in WEIGHTS, f"{found.rule}: a per-hit verdict must count for something"


def test_the_html_verdict_follows_the_finding_not_the_rule() -> None:
    dead = finding("U001", "placeholder-domain")
    assert finding_verdict(dead) == ("fabricated", "fabricated")
    from dataclasses import replace

    assert finding_verdict(replace(dead, verdict=Verdict.UNVERIFIABLE)) == ("unverifiable", "unverifiable")
    assert finding_verdict(replace(dead, verdict=Verdict.ADVISORY)) is None


def test_a_data_rule_declares_its_verdict_in_its_pack(tmp_path: Path) -> None:
    (tmp_path / "x.yaml").write_text(
        "pack: house\nkind: rules\nrules:\n"
        "  - {id: U901, name: no-intranet, type: domain-list, message: 'intranet {}', domains: [corp.local],"
        " verdict: invalid, gate: gone}\n"
        "  - {id: M901, name: no-hype, type: existence, message: 'hype {}', tokens: [revolutionary]}\n"
        "  - {id: H901, name: coming-soon, type: phrase-list, message: 'placeholder {}', phrases: [coming soon]}\n",
        encoding="utf-8")
    rules = {r.id: r for r in build_registry([str(tmp_path)]).rules}
    assert (rules["U901"].verdict, rules["U901"].gate) == (Verdict.INVALID, Gate.GONE)
    assert rules["U901"].defaults.keys() == {"message", "domains"}  # not options of the check
    assert rules["M901"].verdict is Verdict.MEMO and rules["H901"].verdict is Verdict.ADVISORY
    (tmp_path / "x.yaml").write_text("pack: house\nkind: rules\nrules:\n  - {id: U902, name: x, type: domain-list,"
                                     " message: m, domains: [a.b], verdict: terrible}\n", encoding="utf-8")
    from citecheck.errors import PackError

    with pytest.raises(PackError, match=r"x\.yaml"):
        build_registry([str(tmp_path)])
