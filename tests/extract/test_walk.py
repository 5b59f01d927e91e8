"""Directory walks like ruff's and lychee's: .gitignore respected (--no-ignore), citecheck's own
reports skipped, a bad entry is a finding for that entry while every other file is audited."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # servers, subprocesses or many generated cases: the full suite, not the inner loop

BAD = "# Memo\n\nSee [report](https://example.com/report).\n"


def _audit(cwd: Path, *args: str) -> tuple[int, dict, str]:
    proc = subprocess.run([sys.executable, "-m", "citecheck", "audit", "--offline", "--format", "json",
                           "--select", "U001,E", *args], cwd=cwd, capture_output=True, text=True, timeout=60, check=False,
                          env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])})
    return proc.returncode, json.loads(proc.stdout) if proc.stdout else {}, proc.stderr


def _paths(payload: dict) -> list[tuple[str, str]]:
    return sorted((f["path"], f["rule"]) for f in payload["findings"])


def _git_repo(path: Path) -> None:
    subprocess.run(["git", "init", "-q", str(path)], check=True)


def test_gitignored_files_are_skipped_unless_no_ignore(tmp_path: Path) -> None:
    _git_repo(tmp_path)
    (tmp_path / ".gitignore").write_text("logs/\n*.log.md\n")
    (tmp_path / "logs").mkdir()
    for name in ("memo.md", "logs/run.md", "debug.log.md"):
        (tmp_path / name).write_text(BAD)
    code, payload, _ = _audit(tmp_path, ".")
    assert code == 1 and _paths(payload) == [("memo.md", "U001")]
    code, payload, _ = _audit(tmp_path, ".", "--no-ignore")
    assert [p for p, _ in _paths(payload)] == ["debug.log.md", "logs/run.md", "memo.md"]
    # a file named on the command line is audited even when ignored
    assert _paths(_audit(tmp_path, "logs/run.md")[1]) == [("logs/run.md", "U001")]


def test_tracked_file_is_audited_although_it_matches_gitignore(tmp_path: Path) -> None:
    _git_repo(tmp_path)
    (tmp_path / "kept.md").write_text(BAD)
    subprocess.run(["git", "-C", str(tmp_path), "add", "kept.md"], check=True)
    (tmp_path / ".gitignore").write_text("*.md\n")
    assert _paths(_audit(tmp_path, ".")[1]) == [("kept.md", "U001")]


def test_outside_a_git_work_tree_nothing_is_ignored(tmp_path: Path) -> None:
    (tmp_path / ".gitignore").write_text("*.md\n")
    (tmp_path / "memo.md").write_text(BAD)
    env_root = tmp_path  # tmp_path is not inside a repository
    assert _paths(_audit(env_root, ".")[1]) == [("memo.md", "U001")]


def test_own_html_report_is_skipped(tmp_path: Path) -> None:
    (tmp_path / "memo.md").write_text(BAD)
    code, _, _ = _audit(tmp_path, "memo.md", "--format", "html", "-o", "report.html")
    assert code == 1 and "generator" in (tmp_path / "report.html").read_text()[:2048]
    (tmp_path / "other.html").write_text('<html><body><a href="https://example.org/x">x</a></body></html>')
    code, payload, _ = _audit(tmp_path, ".")
    assert _paths(payload) == [("memo.md", "U001"), ("other.html", "U001")]


def test_binary_and_bad_utf8_files_are_findings_and_the_rest_is_audited(tmp_path: Path) -> None:
    (tmp_path / "memo.md").write_text(BAD)
    (tmp_path / "scan.md").write_bytes(b"%PDF-1.7\x00\x01\x02binary")
    (tmp_path / "latin.md").write_bytes("caf\u00e9 https://example.com/x".encode("latin-1"))
    code, payload, err = _audit(tmp_path, ".")
    assert code == 2, err
    assert _paths(payload) == [("latin.md", "E003"), ("memo.md", "U001"), ("scan.md", "E003")]
    scan = next(f for f in payload["findings"] if f["path"] == "scan.md")
    assert "binary" in scan["message"] and scan["severity"] == "error"
    assert payload["summary"]["by_rule"]["E003"] == 2


def test_dangling_symlink_is_a_finding_not_an_abort(tmp_path: Path) -> None:
    (tmp_path / "memo.md").write_text(BAD)
    (tmp_path / "gone.md").symlink_to(tmp_path / "missing.md")
    code, payload, _ = _audit(tmp_path, ".")
    assert code == 2
    assert _paths(payload) == [("gone.md", "E003"), ("memo.md", "U001")]
    assert "dangling symlink" in next(f["message"] for f in payload["findings"] if f["rule"] == "E003")


def test_fifo_named_md_is_skipped_with_a_warning_instead_of_hanging(tmp_path: Path) -> None:
    (tmp_path / "memo.md").write_text(BAD)
    os.mkfifo(tmp_path / "live.md")
    code, payload, _ = _audit(tmp_path, ".")  # would block forever opening the FIFO
    assert code == 1
    assert _paths(payload) == [("live.md", "E004"), ("memo.md", "U001")]
    warning = next(f for f in payload["findings"] if f["rule"] == "E004")
    assert warning["severity"] == "warning" and "FIFO" in warning["message"]


def test_a_path_named_twice_is_audited_once(tmp_path: Path) -> None:
    (tmp_path / "f.md").write_text(BAD)
    code, payload, _ = _audit(tmp_path, "f.md", "./f.md", ".")
    assert code == 1 and len(payload["findings"]) == 1 and payload["summary"]["files"] == 1


def test_walk_api_reports_problems(tmp_path: Path) -> None:
    from citecheck.extract import collect

    (tmp_path / "a.md").write_text(BAD)
    (tmp_path / "b.md").write_bytes(b"\x00\x00")
    inputs = collect([str(tmp_path)])
    assert [d.path for d in inputs.documents] == [str(tmp_path / "a.md")]
    assert [(p.path, p.rule) for p in inputs.problems] == [(str(tmp_path / "b.md"), "E003")]


@pytest.mark.parametrize("command", ["baseline", "curate"])
def test_commands_without_per_file_findings_refuse_an_unreadable_entry(tmp_path: Path, command: str) -> None:
    (tmp_path / "memos").mkdir()
    (tmp_path / "memos" / "a.md").write_text(BAD)
    (tmp_path / "memos" / "b.md").write_bytes(b"\x00\x00")
    proc = subprocess.run([sys.executable, "-m", "citecheck", command, "memos", "--offline", "-o", "out.json"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False,
                          env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])})
    assert proc.returncode == 2 and "b.md" in proc.stderr and "Traceback" not in proc.stderr
