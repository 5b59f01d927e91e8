"""Start-up: `citecheck --help` lists each command once and imports no subcommand; an offline audit
of a small memo imports only what it needs (no rich, rapidfuzz, aiohttp or harvest stack).
The timings themselves are measured by bench/startup.py (figures in bench/README.md)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("rich", "rapidfuzz", "aiohttp", "trafilatura", "citecheck.harvest", "citecheck.fetch", "lxml", "sqlite_utils")


def _modules_after(args: list[str], cwd: Path) -> tuple[str, set[str]]:
    code = ("import sys, json; sys.argv = ['citecheck', *json.loads(sys.argv[1])]; from citecheck.cli import main\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "sys.stdout.flush(); print('\\n@@' + json.dumps(sorted(sys.modules)))")
    proc = subprocess.run([sys.executable, "-c", code, json.dumps(args)], cwd=cwd, capture_output=True, text=True,
                          check=False, env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)})
    out, _, modules = proc.stdout.rpartition("\n@@")
    return out, set(json.loads(modules))


def test_help_lists_each_command_once_without_importing_them(tmp_path: Path) -> None:
    from citecheck.cli import SUBCOMMANDS

    out, modules = _modules_after(["--help"], tmp_path)
    commands = [line.split()[0] for line in out.split("Commands:", 1)[1].splitlines() if line.strip()]
    for name in SUBCOMMANDS:
        assert commands.count(name) == 1, name
    assert not {f"citecheck.cli.{name}" for name in SUBCOMMANDS} & modules
    assert not {m for m in modules if m.split(".")[0] in HEAVY or m.startswith(HEAVY)}


def test_offline_audit_of_a_small_memo_imports_no_heavy_stack(tmp_path: Path) -> None:
    (tmp_path / "memo.md").write_text("# Acme Robotics\n\nGrowth ([BLS](https://www.bls.gov/cpi/)), see "
                                      "<https://www.sec.gov/cgi-bin/browse-edgar>.\n")
    out, modules = _modules_after(["audit", "--offline", "memo.md"], tmp_path)
    assert "No findings" in out
    assert sorted(m for m in modules if m.startswith(HEAVY)) == []


@given(st.text("abcde fgh", max_size=14), st.text("abcde fgh", max_size=14), st.sampled_from([80.0, 92.0, 95.0]))
@settings(max_examples=500, deadline=None)
def test_watermark_length_bound_agrees_with_rapidfuzz(a: str, b: str, cutoff: float) -> None:
    from rapidfuzz import fuzz

    from citecheck.checks.watermark_company import _similar

    assert _similar(a, b, cutoff) == (bool(a and b) and fuzz.ratio(a, b) >= cutoff)
