"""`--format junit`: a suite per file, a case per finding, a passing case per clean file; always valid XML."""
from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree
from reportkit import BAD_MEMO, CLEAN_MEMO, HOSTILE, audit_files, finding, hostile_findings, render_report, summary_of

from citecheck.report import ReportContext, render
from citecheck.report.junit import CLEAN_CASE, xml_text

XSD = Path(__file__).resolve().parents[2] / "fixtures" / "schemas" / "junit.xsd"


@pytest.fixture(scope="module")
def schema() -> etree.XMLSchema:
    return etree.XMLSchema(etree.parse(str(XSD)))


def parse(payload: str, schema: etree.XMLSchema) -> etree._Element:
    assert payload.startswith("<?xml version='1.0' encoding='UTF-8'?>")
    root = etree.fromstring(payload.encode("utf-8"))  # strict parser: raises on anything malformed
    schema.assertValid(root)
    return root


def test_suite_per_file_case_per_finding_and_passing_case_for_clean_file(tmp_path: Path,
                                                                          schema: etree.XMLSchema) -> None:
    report = audit_files(tmp_path, {"bad.md": BAD_MEMO, "clean.md": CLEAN_MEMO})
    root = parse(render_report("junit", report), schema)
    assert root.tag == "testsuites" and root.get("name") == "citecheck"
    suites = {s.get("name"): s for s in root.findall("testsuite")}
    bad, clean = str(tmp_path / "bad.md"), str(tmp_path / "clean.md")
    assert set(suites) == {bad, clean}
    cases = suites[bad].findall("testcase")
    assert len(cases) == len(report.findings) == 2
    for case, f in zip(cases, report.findings):
        (failure,) = case
        assert failure.tag == "failure"
        assert failure.get("message") == f.message and failure.get("type") == "error"
        assert case.get("file") == bad and case.get("line") == str(f.line)
        assert case.get("name") == f"U001 placeholder-domain at {f.line}:{f.column}"
        assert f.url in (failure.text or "")
    (passing,) = suites[clean].findall("testcase")
    assert passing.get("name") == CLEAN_CASE and len(passing) == 0
    assert [suites[bad].get(a) for a in ("tests", "failures", "errors", "skipped")] == ["2", "2", "0", "0"]
    assert [suites[clean].get(a) for a in ("tests", "failures", "errors", "skipped")] == ["1", "0", "0", "0"]
    assert [root.get(a) for a in ("tests", "failures", "errors", "skipped")] == ["3", "2", "0", "0"]


def test_hostile_text_still_makes_valid_xml(schema: etree.XMLSchema) -> None:
    findings = hostile_findings()
    root = parse(render("junit", findings, summary_of(findings)), schema)
    case = root.find("testsuite/testcase")
    assert case is not None
    message = case[0].get("message")
    assert message == xml_text(HOSTILE)
    assert '<b>&amp; "q"' in message and "]]>" in message and "\\x00" in message and "\\x1b" in message
    assert [s.get("name") for s in root.findall("testsuite")] == [findings[0].path, "memo.md"]


def test_xml_text_replaces_only_what_xml_cannot_carry() -> None:
    assert xml_text("tab\tnl\ncr\r ok é 東京") == "tab\tnl\ncr\r ok é 東京"
    assert xml_text("\x00\x0b\ud800\ufffe") == "\\x00\\x0b\\xd800\\xfffe"


def test_internal_error_is_an_error_and_suppressed_is_skipped(schema: etree.XMLSchema) -> None:
    crash = finding("E000", "internal-error", message="rule X001 (boom) crashed: KeyError: 'x'")
    silenced = finding(line=9, url="https://example.com/")
    root = parse(render("junit", [crash], summary_of([crash]), ReportContext(suppressed=[silenced])), schema)
    kinds = [case[0].tag for case in root.iter("testcase")]
    assert kinds == ["error", "skipped"]
    assert [root.get(a) for a in ("tests", "failures", "errors", "skipped")] == ["2", "0", "1", "1"]


def test_total_time_is_the_run_duration(schema: etree.XMLSchema) -> None:
    root = parse(render("junit", [], summary_of([])), schema)
    assert root.get("time") == "0.5" and len(root) == 0
