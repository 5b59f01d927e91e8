"""The shipped example pipeline runs end to end in one command (harvest → prompt → write → audit)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from leakscan import leaked

ROOT = Path(__file__).resolve().parents[2]


def test_pipeline_runs_and_its_memo_cites_only_the_corpus(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, str(ROOT / "examples" / "pipeline" / "run.py"), "--workdir", str(tmp_path)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    corpus = json.loads((tmp_path / "sourced_corpus.json").read_text())
    assert [s["id"] for s in corpus] == ["src-001", "src-002", "src-003"]
    rejects = json.loads((tmp_path / "rejects.json").read_text())["rejects"]
    assert sorted(r["reasons"][0]["rule"] for r in rejects) == ["H001", "H003"]  # the dead link and the soft-404
    memo = (tmp_path / "memo.md").read_text()
    assert "[^1]" in memo and "[^3]:" in memo and "[src-" not in memo
    assert '<needs-source claim="Freight demand will double by 2030"/>' in memo  # the invented ID
    assert leaked(memo, [s["url"] for s in corpus]) == []  # the fabricated URL and the bare domain are gone
    assert "M006" in proc.stdout and "M009" in proc.stdout  # the gate said why
    assert "## Market size and structure" in (tmp_path / "prompt.txt").read_text()
