"""The built wheel is complete: installed into a fresh venv, its `citecheck` lists U001 and loads the
placeholder pack that ships inside it (citecheck/packs/placeholder.yaml), from any working directory.

Slow (a wheel build and a venv, about 20 s) but part of the default suite. Needs the build backend's
requirements installed (setuptools and wheel, as in the `test` extras): the build runs without isolation
so it never touches the network.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from tools import share_site_packages

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("citecheck", "rules", "setup.cfg", "pyproject.toml", "README.md", "LICENSE")
_IGNORE = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "build", "dist")


def _run(args: list[str | Path], cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    env.update(PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_INPUT="1", PYTHONDONTWRITEBYTECODE="1")
    proc = subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout,
                          check=False)
    command = " ".join(map(str, args))
    assert proc.returncode == 0, f"{command} exited {proc.returncode}:\n{proc.stdout[-2000:]}\n{proc.stderr[-3000:]}"
    return proc


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Build from a copy of the tree, so concurrent runs never share a build/ directory."""
    src = tmp_path_factory.mktemp("src")
    for name in SOURCES:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, src / name, ignore=_IGNORE)
        elif path.is_file():
            shutil.copy2(path, src / name)
    dist = tmp_path_factory.mktemp("dist")
    _run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", dist, src], cwd=src, timeout=300)
    (built,) = dist.glob("citecheck-*.whl")
    return built


@pytest.fixture(scope="module")
def venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv that sees the dependencies (system site-packages) and has the wheel installed."""
    env_dir = tmp_path_factory.mktemp("venv")
    _run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", env_dir], cwd=env_dir)
    share_site_packages(env_dir)
    python = env_dir / "bin" / "python"
    _run([python, "-m", "pip", "install", "--no-deps", "--no-index", "--quiet", wheel], cwd=env_dir, timeout=300)
    return env_dir


@pytest.fixture
def elsewhere(tmp_path: Path) -> Path:
    """A working directory far from the checkout."""
    (tmp_path / "memo.md").write_text("# Memo\n\nSee [the post](https://www.yourdomain.com/blog/post).\n",
                                      encoding="utf-8")
    return tmp_path


def _shipped_files() -> list[str]:
    """Every file of the checkout that the wheel must carry, as its path inside the wheel."""
    found = [p.relative_to(ROOT).as_posix() for p in (ROOT / "citecheck").rglob("*")
             if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"]
    found += [f"citecheck/packs/{p.name}" for p in (ROOT / "rules").iterdir() if p.suffix in (".py", ".yaml")]
    return sorted(found)


def test_wheel_contains_every_module_pack_and_schema(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    must = {"citecheck/packs/placeholder.yaml", "citecheck/schemas/report-v1.schema.json", "citecheck/py.typed"}
    assert must <= names
    missing = [name for name in _shipped_files() if name not in names]
    assert not missing, f"missing from the wheel (check packages/package_data in setup.cfg): {missing}"
    entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    text = zipfile.ZipFile(wheel).read(entry_points).decode()
    assert "citecheck = citecheck.cli:run" in text and "[citecheck.verifiers]" in text


# Imports every rule and reporter, then prints where each citecheck module came from. The checkout's editable
# install stays visible through --system-site-packages, and its import hook would quietly serve any module the
# wheel lacks, so every module must be shown to come from the venv.
_WHERE = """
import sys, citecheck, citecheck.cli, citecheck.engine.packs as packs
from citecheck.engine.registry import build_registry
from citecheck.report import FORMATS, available
import importlib
build_registry()  # imports every built-in rule module
for fmt in available():
    if fmt in FORMATS:
        importlib.import_module(FORMATS[fmt].reporter.split(":")[0])
print(packs.builtin_dir())
for name, module in sorted(sys.modules.items()):
    if name.split(".")[0] == "citecheck" and getattr(module, "__file__", None):
        print(name, module.__file__)
"""


def test_venv_imports_the_wheel_not_the_checkout(venv: Path, elsewhere: Path) -> None:
    lines = _run([venv / "bin" / "python", "-c", _WHERE], cwd=elsewhere).stdout.splitlines()
    site = next((venv / "lib").glob("python3*/site-packages")).resolve()
    assert Path(lines[0]).resolve() == site / "citecheck" / "packs"
    modules = dict(line.split(" ", 1) for line in lines[1:])
    assert "citecheck" in modules and "citecheck.checks.placeholder_domain" in modules
    leaked = {name: path for name, path in modules.items() if not Path(path).resolve().is_relative_to(site)}
    assert not leaked, f"imported from outside the installed wheel: {leaked}"


def test_installed_citecheck_lists_and_explains_u001(venv: Path, elsewhere: Path) -> None:
    listing = _run([venv / "bin" / "citecheck", "rules"], cwd=elsewhere).stdout
    assert any(line.split()[:2] == ["U001", "placeholder-domain"] for line in listing.splitlines())
    explained = _run([venv / "bin" / "citecheck", "rules", "U001"], cwd=elsewhere).stdout
    assert "Data pack: placeholder" in explained


def test_installed_citecheck_finds_a_pack_domain(venv: Path, elsewhere: Path) -> None:
    proc = subprocess.run([str(venv / "bin" / "citecheck"), "audit", "memo.md", "--offline", "--format", "json",
                           "--select", "U001"], cwd=elsewhere, capture_output=True, text=True, timeout=120,
                          check=False)
    assert proc.returncode == 1, proc.stderr
    findings = json.loads(proc.stdout)["findings"]
    # yourdomain.com is not a reserved name: only the placeholder pack inside the wheel knows it.
    assert [(f["rule"], f["evidence"], f["line"]) for f in findings] == [("U001", "yourdomain.com", 3)]
