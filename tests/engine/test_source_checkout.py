"""`python -m citecheck` runs from a source checkout that was never installed (PYTHONPATH=<checkout>, as
bench/ab_warm.sh and ab_online.sh run trees): the built-in packs come from the checkout's `rules/`
folder, which setup.cfg's `package_dir` maps to `citecheck.packs` only at install time. Without
`rules/` either, one clear line and exit 2, never a traceback.

The child runs with `-S` and this venv's site-packages on PYTHONPATH: the dependencies are there, but
not the editable install's finder (a .pth file that `-S` skips), so `citecheck.packs` does not exist,
as in a checkout run by a Python where citecheck was never installed. ~0.3-0.4 s a test (load ~2): fast suite.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MEMO = "# M\n\nSee [x](https://example.com/report).\n"


def _run(tree: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env["PYTHONPATH"] = os.pathsep.join([str(tree), sysconfig.get_paths()["purelib"]])
    return subprocess.run([sys.executable, "-S", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=60, check=False)


def test_checkout_audit_reads_the_packs_from_rules(tmp_path: Path) -> None:
    probe = _run(ROOT, "-c", "import importlib.util as u, citecheck.engine.packs as p; "
                 "print(u.find_spec('citecheck.packs'), p.builtin_dir())", cwd=tmp_path)
    assert probe.returncode == 0, probe.stderr
    assert probe.stdout.split() == ["None", str(ROOT / "rules")]  # not installed: the checkout's folder
    (tmp_path / "memo.md").write_text(MEMO)
    proc = _run(ROOT, "-m", "citecheck", "audit", "--offline", "memo.md", cwd=tmp_path)
    assert "Traceback" not in proc.stderr
    assert proc.returncode == 1, proc.stderr
    assert "U001 placeholder domain 'example.com'" in proc.stdout  # rules/placeholder.yaml was read


def test_checkout_without_rules_is_one_line_exit_2(tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    shutil.copytree(ROOT / "citecheck", tree / "citecheck", ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "memo.md").write_text(MEMO)
    proc = _run(tree, "-m", "citecheck", "audit", "--offline", "memo.md", cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.splitlines() == [
        f"citecheck: error: the built-in rule packs are missing: no package citecheck.packs and no {tree / 'rules'} "
        "(install citecheck, or run it from a complete source checkout)"]
