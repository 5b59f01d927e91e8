"""The composite GitHub Action: its shape, and its audit step run for real on fixture memos."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]


def _action() -> dict:
    return yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))


def test_action_restores_cache_runs_audit_and_uploads_sarif() -> None:
    steps = _action()["runs"]["steps"]
    uses = [s.get("uses", "") for s in steps]
    assert any(u.startswith("actions/cache@") for u in uses)
    assert any(u.startswith("github/codeql-action/upload-sarif@") for u in uses)
    upload = next(s for s in steps if s.get("uses", "").startswith("github/codeql-action/upload-sarif"))
    assert upload["if"].startswith("always()")  # findings must not stop the upload
    assert steps[-1]["run"].strip() == "exit ${{ steps.audit.outputs.exit-code }}"


def test_an_upload_that_is_not_permitted_never_fails_the_job() -> None:
    """Private repositories without code scanning and pull requests from forks cannot upload SARIF:
    the upload may fail (or is skipped for forks), a warning says why, and only the gate fails."""
    steps = _action()["runs"]["steps"]
    upload = next(s for s in steps if s.get("uses", "").startswith("github/codeql-action/upload-sarif"))
    assert upload["continue-on-error"] is True and upload["id"] == "upload"
    assert "github.event.pull_request.head.repo.full_name != github.repository" in upload["if"]
    note = steps[steps.index(upload) + 1]
    assert "steps.upload.outcome != 'success'" in note["if"] and "::warning" in note["run"]
    assert "default" in _action()["inputs"]["upload-sarif"] and "fork" in _action()["inputs"]["upload-sarif"]["description"]


def test_readme_names_main_or_a_commit_that_holds_the_action() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    (ref,) = re.findall(r"uses: citecheck/citecheck@(\S+)", readme)
    if ref == "main":  # no release is tagged: the snippet follows main and says how to pin
        return
    assert re.fullmatch(r"[0-9a-f]{40}", ref), "pin a full commit SHA, or name main"
    shown = subprocess.run(["git", "-C", str(ROOT), "show", f"{ref}:action.yml"], capture_output=True, text=True,
                           check=False)
    assert shown.returncode == 0, f"{ref} does not hold action.yml: {shown.stderr}"
    assert subprocess.run(["git", "-C", str(ROOT), "merge-base", "--is-ancestor", ref, "HEAD"], check=False).returncode == 0


def _run_step(tmp_path: Path, paths: str, offline: str = "true", fail_on: str = "error",
              inline_config: str = "true") -> tuple[int, Path]:
    code, sarif, _ = _run_step_logged(tmp_path, paths, offline, fail_on, inline_config)
    return code, sarif


def _run_step_logged(tmp_path: Path, paths: str, offline: str = "true", fail_on: str = "error",
                     inline_config: str = "true") -> tuple[int, Path, subprocess.CompletedProcess[str]]:
    out = tmp_path / "gh_output"
    sarif = tmp_path / "out.sarif"
    # the step calls `citecheck` as the action installed it; here that is this interpreter's citecheck
    shim = tmp_path / "bin" / "citecheck"
    shim.parent.mkdir()
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m citecheck "$@"\n')
    shim.chmod(0o755)
    env = {**os.environ, "PATH": f"{shim.parent}{os.pathsep}{os.environ.get('PATH', '')}", "CC_PATHS": paths, "CC_ARGS": "", "CC_FAIL_ON": fail_on, "CC_OFFLINE": offline,
           "CC_INLINE_CONFIG": inline_config, "CC_SARIF": str(sarif), "GITHUB_OUTPUT": str(out),
           "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md")}
    proc = subprocess.run(["bash", str(ROOT / "scripts" / "action_audit.sh")], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr  # the step itself never fails: the gate step does
    line = out.read_text().strip().splitlines()[-1]
    return int(line.split("=", 1)[1]), sarif, proc


def test_audit_step_records_failure_and_writes_sarif(tmp_path: Path) -> None:
    code, sarif = _run_step(tmp_path, "fixtures/memos/bad_incident_memo.md")
    assert code == 1
    report = json.loads(sarif.read_text())
    assert report["version"] == "2.1.0" and report["runs"][0]["results"]


def test_audit_step_clean_memo_passes(tmp_path: Path) -> None:
    code, sarif = _run_step(tmp_path, "fixtures/memos/ok_clean_memo.md")
    assert code == 0
    assert json.loads(sarif.read_text())["runs"][0]["results"] == []


def test_audit_step_inline_config_false_reads_no_directive(tmp_path: Path) -> None:
    """Issue 26, item 1: the Action's setting for model-written memos."""
    memo = tmp_path / "memo.md"
    memo.write_text('# Memo\n\n<!-- citecheck: disable=U001 reason="reviewed" -->\nSee https://example.com/x.\n')
    assert _run_step(tmp_path, str(memo))[0] == 0
    (tmp_path / "again").mkdir()
    code, sarif = _run_step(tmp_path / "again", str(memo), inline_config="false")
    assert code == 1
    assert [r["ruleId"] for r in json.loads(sarif.read_text())["runs"][0]["results"]] == ["U001"]


def test_the_job_log_and_summary_show_the_report(tmp_path: Path) -> None:
    """The findings are in the job log and the job summary, not only in code scanning."""
    code, sarif, proc = _run_step_logged(tmp_path, "fixtures/memos/bad_incident_memo.md")
    assert code == 1 and json.loads(sarif.read_text())["runs"][0]["results"]
    assert "U001 placeholder domain" in proc.stdout and "finding(s):" in proc.stdout
    summary = (tmp_path / "summary.md").read_text()
    assert summary.startswith("## citecheck: failed") and "finding(s):" in summary and "U001" in summary
