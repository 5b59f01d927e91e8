"""`--format json`: the versioned v1 contract, validated against the shipped JSON Schema."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from reportkit import BAD_MEMO, CLEAN_MEMO, audit_files, hostile_findings, render_report, summary_of

from citecheck.cli import main
from citecheck.report import render
from citecheck.schemas import REPORT_V1, load_schema

SUPPRESSING_MEMO = BAD_MEMO + "\n<!-- citecheck: disable=U001 reason=\"quoted\" -->\nhttps://example.org/quoted\n"


@pytest.fixture(scope="module")
def validator() -> jsonschema.Draft202012Validator:
    schema = load_schema(REPORT_V1)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def errors_of(validator: jsonschema.Draft202012Validator, payload: dict[str, Any]) -> list[str]:
    return [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(payload)]


def test_audit_output_matches_the_v1_schema(tmp_path: Path, validator: Any) -> None:
    report = audit_files(tmp_path, {"memo.md": SUPPRESSING_MEMO, "clean.md": CLEAN_MEMO})
    payload = json.loads(render_report("json", report, suppressed=True))
    assert errors_of(validator, payload) == []
    assert payload["version"] == 1
    assert [f["url"] for f in payload["suppressed"]] == ["https://example.org/quoted"]
    assert payload["findings"] == [f.to_dict() for f in report.findings]


def test_hostile_and_empty_payloads_match_the_schema(validator: Any) -> None:
    findings = hostile_findings()
    assert errors_of(validator, json.loads(render("json", findings, summary_of(findings)))) == []
    assert errors_of(validator, json.loads(render("json", [], summary_of([])))) == []


@pytest.mark.parametrize("breakage", [
    lambda p: p.update(version=2),
    lambda p: p.pop("summary"),
    lambda p: p["findings"][0].update(severity="fatal"),
    lambda p: p["findings"][0].update(line=0),
    lambda p: p["findings"][0].pop("url"),
    lambda p: p["findings"][0].update(rule="X1"),
    lambda p: p["summary"].pop("errors"),
    lambda p: p.update(extra=True),
], ids=["version", "no-summary", "severity", "line-0", "no-url", "rule-id", "no-errors-count", "extra-key"])
def test_schema_rejects_contract_breaks(tmp_path: Path, validator: Any, breakage: Any) -> None:
    payload = json.loads(render_report("json", audit_files(tmp_path, {"memo.md": BAD_MEMO})))
    breakage(payload)
    assert errors_of(validator, payload)


def test_cli_prints_only_the_payload(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, validator: Any) -> None:
    (tmp_path / "memo.md").write_text(BAD_MEMO, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["audit", "memo.md", "--offline", "--format", "json", "--select", "U001"])
    assert result.exit_code == 1
    assert result.stderr == ""
    payload = json.loads(result.stdout)
    assert errors_of(validator, payload) == []
    assert {f["path"] for f in payload["findings"]} == {"memo.md"}


def test_schema_ships_inside_the_package() -> None:
    from importlib import resources

    assert resources.files("citecheck.schemas").joinpath(REPORT_V1).is_file()


@given(st.lists(st.tuples(st.sampled_from(["a.md", "b.md", "é.md"]), st.integers(0, 3), st.integers(0, 3),
                          st.sampled_from(["U001", "H003", "M008", "E000"]), st.text(max_size=3)), max_size=30))
def test_the_sort_key_is_the_findings_own_order(rows: list[tuple[str, int, int, str, str]]) -> None:
    from citecheck._audit import finding_order
    from citecheck.models import Finding

    findings = [Finding(path, line, column, rule, "name", message=message) for path, line, column, rule, message in rows]
    assert sorted(findings, key=finding_order) == sorted(findings)
    assert [f.message for f in sorted(findings, key=finding_order)] == [f.message for f in sorted(findings)]  # stable alike


def test_rows_are_what_json_dumps_writes() -> None:
    from citecheck.report.json import dumps

    rows = [{"rule": "U001", "message": "naïve “quotes” \u2028 and \\ slashes", "line": 3}, {"rule": "H003", "n": None}]
    text = dumps({"version": 1, "findings": rows})
    assert json.loads(text)["findings"] == rows
    assert text.split("\n")[3] == "    " + json.dumps(rows[0], ensure_ascii=False) + ","
