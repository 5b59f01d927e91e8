"""The framework-hook examples (`examples/agents/`) run offline against their loopback site, as docs/agents.md says."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


def run(name: str, work: Path) -> str:
    proc = subprocess.run([sys.executable, str(ROOT / "examples" / "agents" / name), "--workdir", str(work)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    return proc.stdout


def test_storm_filter_keeps_corpus_sources_only(tmp_path: Path) -> None:
    out = run("storm_is_valid_source.py", tmp_path)
    assert [line.split()[0] for line in out.splitlines()[1:]] == ["keep", "keep", "drop", "drop", "drop"]
    assert len(json.loads((tmp_path / "sourced_corpus.json").read_text())) == 3  # dead link and soft-404 rejected


def test_gpt_researcher_gets_only_validated_urls(tmp_path: Path) -> None:
    out = run("gpt_researcher_source_urls.py", tmp_path)
    assert "complement_source_urls=False" in out and "/stats/road-freight-2024'" in out
    assert "road-freight-2019" not in out and "freight-outlook-2025" not in out


def test_output_gate_gates_the_final_answer(tmp_path: Path) -> None:
    out = run("output_gate.py", tmp_path)
    assert '<needs-source claim="Freight demand will double by 2030"/>' in out and "[^3]:" in out
    memo = out.split("removed:")[0]
    assert "example.com" not in memo and "freight-rules.eu" not in memo
