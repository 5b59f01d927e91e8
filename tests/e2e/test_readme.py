"""The README's runnable shell blocks work as written, on a fresh environment.

Every ```sh block preceded by `<!-- runnable exit=N -->` runs with bash from the root of a copy of
the checkout (so nothing, not even `citecheck.egg-info`, is written into the checkout) in a new
virtualenv (so `python3 -m pip install -e .` installs there, not over the developer's install), and
must exit N. The venv sees the already installed dependencies and pip uses no index and no build
isolation, so the test stays off the network.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from tools import share_site_packages

ROOT = Path(__file__).resolve().parents[2]
BLOCK = re.compile(r"<!-- runnable exit=(\d+) -->\n```sh\n(.*?)```", re.DOTALL)
BLOCKS = BLOCK.findall((ROOT / "README.md").read_text(encoding="utf-8"))
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def checkout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The checkout's files (tracked and untracked, minus what git ignores) in a temp directory."""
    copy = tmp_path_factory.mktemp("readme-checkout")
    listed = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            capture_output=True, check=False)
    if listed.returncode != 0:  # not a git checkout (an unpacked sdist): copy all but build products
        shutil.copytree(ROOT, copy, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("*.egg-info", "build", "dist", "__pycache__", ".hypothesis"))
        return copy
    for name in filter(None, listed.stdout.decode("utf-8", "surrogateescape").split("\0")):
        source = ROOT / name
        if source.is_file():
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, copy / name)
    return copy


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory, checkout: Path) -> Path:
    path = tmp_path_factory.mktemp("readme-venv")
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(path)], check=True)
    share_site_packages(path)
    # Blocks after the quick start assume it ran; install once here so each block can run alone.
    subprocess.run([str(path / "bin" / "python3"), "-m", "pip", "install", "-q", "--no-deps", "-e", "."], cwd=checkout,
                   env={**os.environ, **_OFFLINE}, check=True, capture_output=True)
    return path


_OFFLINE = {"PIP_NO_INDEX": "1", "PIP_NO_BUILD_ISOLATION": "0"}


def test_the_quick_start_blocks_are_marked() -> None:
    assert len(BLOCKS) >= 3
    assert any("pip install" in body and "bad_incident_memo.md" in body for _, body in BLOCKS)


@pytest.mark.parametrize("expected,body", BLOCKS, ids=[b.strip().splitlines()[0][:60] for _, b in BLOCKS])
def test_runnable_block(venv: Path, checkout: Path, expected: str, body: str) -> None:
    env = {**os.environ, **_OFFLINE, "PATH": f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}",
           "VIRTUAL_ENV": str(venv), "NO_COLOR": "1"}
    proc = subprocess.run(["bash", "-c", body], cwd=checkout, env=env, capture_output=True, text=True, timeout=600,
                          check=False)
    assert proc.returncode == int(expected), proc.stdout[-2000:] + proc.stderr[-2000:]
