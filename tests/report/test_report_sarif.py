"""`--format sarif`: valid SARIF 2.1.0 (the official OASIS schema), rule metadata, stable fingerprints."""
from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import jsonschema
import pytest
from reportkit import BAD_MEMO, CLEAN_MEMO, audit_files, hostile_findings, registry, render_report, summary_of

from citecheck.report import ReportContext, render

SCHEMA_FILE = Path(__file__).resolve().parents[2] / "fixtures" / "schemas" / "sarif-schema-2.1.0.json"
SUPPRESSING_MEMO = BAD_MEMO + "\n<!-- citecheck: disable=U001 reason=\"quoted\" -->\nhttps://example.org/quoted\n"


@pytest.fixture(scope="module")
def validator() -> jsonschema.Draft4Validator:
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    jsonschema.Draft4Validator.check_schema(schema)
    return jsonschema.Draft4Validator(schema)


def sarif_of(tmp_path: Path, files: dict[str, str], **kwargs: Any) -> dict[str, Any]:
    report = audit_files(tmp_path, files, kwargs.pop("config", None))
    return json.loads(render_report("sarif", report, **kwargs))


def assert_valid(validator: jsonschema.Draft4Validator, log: dict[str, Any]) -> None:
    errors = sorted(validator.iter_errors(log), key=lambda e: list(e.absolute_path))
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:5])


def test_audit_output_validates_against_the_official_schema(tmp_path: Path, validator: Any) -> None:
    log = sarif_of(tmp_path, {"memo.md": SUPPRESSING_MEMO, "clean.md": CLEAN_MEMO}, suppressed=True)
    assert_valid(validator, log)
    assert log["version"] == "2.1.0" and len(log["runs"]) == 1
    assert len(log["runs"][0]["results"]) >= 3


def test_empty_and_hostile_outputs_are_valid_too(tmp_path: Path, validator: Any) -> None:
    assert_valid(validator, sarif_of(tmp_path, {"clean.md": CLEAN_MEMO}))
    findings = hostile_findings()
    log = json.loads(render("sarif", findings, summary_of(findings), ReportContext(registry=registry())))
    assert_valid(validator, log)
    assert log["runs"][0]["results"][0]["message"]["text"] == findings[0].message


def test_the_validator_rejects_a_broken_log(tmp_path: Path, validator: Any) -> None:
    log = sarif_of(tmp_path, {"memo.md": BAD_MEMO})
    log["runs"][0]["results"][0]["level"] = "fatal"
    assert list(validator.iter_errors(log))


def test_driver_describes_every_rule_that_has_a_result(tmp_path: Path) -> None:
    log = sarif_of(tmp_path, {"memo.md": SUPPRESSING_MEMO})
    driver = log["runs"][0]["tool"]["driver"]
    assert driver["name"] == "citecheck" and driver["version"]
    assert urlsplit(driver["informationUri"]).scheme == "https"
    rules = driver["rules"]
    result_ids = {r["ruleId"] for r in log["runs"][0]["results"]}
    assert [r["id"] for r in rules] == sorted(result_ids)
    for rule in rules:
        spec = registry().get(rule["id"])
        assert spec is not None
        assert rule["name"] == spec.name
        assert rule["shortDescription"]["text"] == spec.summary
        assert rule["fullDescription"]["text"] == spec.doc.strip()
        assert rule["defaultConfiguration"]["level"] == {"error": "error", "warning": "warning", "info": "note"}[
            spec.severity.value]


def test_results_point_at_rule_file_line_and_column(tmp_path: Path) -> None:
    report = audit_files(tmp_path, {"memo.md": BAD_MEMO})
    log = json.loads(render_report("sarif", report))
    run = log["runs"][0]
    results = run["results"]
    assert len(results) == len(report.findings) == 2
    for result, f in zip(results, report.findings):
        assert result["ruleId"] == f.rule
        assert run["tool"]["driver"]["rules"][result["ruleIndex"]]["id"] == f.rule
        assert result["level"] == "error"
        assert result["message"]["text"] == f.message
        location = result["locations"][0]["physicalLocation"]
        assert location["region"] == {"startLine": f.line, "startColumn": f.column}
        assert location["artifactLocation"]["uri"] == Path(f.path).as_uri()
        assert result["properties"]["url"] == f.url
    assert [r["properties"]["url"] for r in results] == ["https://example.com/acme-report",
                                                          "https://www.yourdomain.com/blog"]


def test_relative_paths_stay_relative_and_are_uri_encoded() -> None:
    findings = hostile_findings()
    findings[1] = replace(findings[1], path="memos/q3 memo.md")
    log = json.loads(render("sarif", findings, summary_of(findings)))
    uris = [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in log["runs"][0]["results"]]
    assert uris == ["dir,%20with:%20odd%25chars/memo.md", "memos/q3%20memo.md", "memo.md"]


def test_level_follows_the_configured_severity(tmp_path: Path) -> None:
    log = sarif_of(tmp_path, {"memo.md": BAD_MEMO}, config={"rules": {"U001": "warning"}})
    assert {r["level"] for r in log["runs"][0]["results"]} == {"warning"}
    assert log["runs"][0]["tool"]["driver"]["rules"][0]["defaultConfiguration"]["level"] == "error"


def test_fingerprints_survive_line_shifts_and_tell_findings_apart(tmp_path: Path) -> None:
    first = sarif_of(tmp_path / "a", {"memo.md": BAD_MEMO})
    shifted = sarif_of(tmp_path / "b", {"memo.md": "\n\n\n" + BAD_MEMO})

    def prints(log: dict[str, Any]) -> list[str]:
        return [r["partialFingerprints"]["citecheck/v1"] for r in log["runs"][0]["results"]]

    lines = [r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in shifted["runs"][0]["results"]]
    assert lines == [6, 7]
    # Different directories make different paths, so compare each run with its own shifted copy.
    again = sarif_of(tmp_path / "a", {"memo.md": "\n\n\n" + BAD_MEMO})
    assert prints(first) == prints(again)
    assert len(set(prints(first))) == 2
    twice = sarif_of(tmp_path / "c", {"memo.md": "https://example.com/x and https://example.com/x\n"})
    assert len(set(prints(twice))) == 2


def test_run_properties_carry_the_summary(tmp_path: Path) -> None:
    report = audit_files(tmp_path, {"memo.md": BAD_MEMO})
    log = json.loads(render_report("sarif", report))
    assert log["runs"][0]["properties"] == json.loads(json.dumps(report.summary))
    assert log["runs"][0]["properties"]["findings"] == 2
    assert log["runs"][0]["invocations"] == [{"executionSuccessful": True}]


def test_suppressed_findings_are_marked_in_source(tmp_path: Path) -> None:
    log = sarif_of(tmp_path, {"memo.md": SUPPRESSING_MEMO}, suppressed=True)
    silenced = [r for r in log["runs"][0]["results"] if "suppressions" in r]
    assert [r["properties"]["url"] for r in silenced] == ["https://example.org/quoted"]
    assert silenced[0]["suppressions"] == [{"kind": "inSource"}]
    without = sarif_of(tmp_path, {"memo.md": SUPPRESSING_MEMO})
    assert not [r for r in without["runs"][0]["results"] if "suppressions" in r]


def test_information_uri_follows_the_package_metadata(monkeypatch: pytest.MonkeyPatch) -> None:
    from email.message import Message

    from citecheck.report import sarif

    meta = Message()
    meta["Project-URL"] = "Homepage, https://citecheck.dev/docs"
    monkeypatch.setattr(sarif.metadata, "metadata", lambda name: meta)
    assert sarif.information_uri() == "https://citecheck.dev/docs"

    def missing(name: str) -> Message:
        raise sarif.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(sarif.metadata, "metadata", missing)
    assert sarif.information_uri() == sarif.INFORMATION_URI
