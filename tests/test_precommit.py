"""Both pre-commit hooks, exercised with `pre-commit try-repo` on a throwaway git repository.

pre-commit builds the hook's virtualenv from this checkout. To keep the test off the network it
builds it with system site-packages visible, no package index and no build isolation, so the
dependencies already installed for the test run satisfy the hook's environment.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.slow

ARTICLE = b"<html><head><title>Quarterly robotics market report</title></head><body><article>" + (
    b"<p>The robotics market grew steadily this quarter across North America.</p>" * 40) + b"</article></body></html>"


class _Site(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body, status = (ARTICLE, 200) if self.path == "/reports/q3" else (b"<title>404 Not Found</title>", 404)
        self.send_response(status)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Site)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory, site: str) -> Path:
    if shutil.which("pre-commit") is None:
        pytest.skip("pre-commit is not installed (it is in the [test] extra)")
    path = tmp_path_factory.mktemp("memo-repo")
    (path / "bad.md").write_text("# Acme\n\nRevenue doubled ([source](https://example.com/acme-report)).\n")
    (path / "ok.md").write_text(f"# Acme\n\nThe market grew ([report]({site}/reports/q3)).\n")
    (path / "dead.md").write_text(f"# Acme\n\nThe market grew ([report]({site}/gone/q3)).\n")
    (path / ".citecheck.yaml").write_text("ignore: [U004]  # the test web lives on loopback\nfetch:\n  allow: [127.0.0.1]\n  no-cache: true\n")
    for cmd in (["git", "init", "-q"], ["git", "add", "."],
                ["git", "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "memos"]):
        subprocess.run(cmd, cwd=path, check=True)
    return path


def _try(repo: Path, hook: str, file: str, home: Path, *more: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PRE_COMMIT_HOME": str(home), "PIP_NO_INDEX": "1", "VIRTUALENV_SYSTEM_SITE_PACKAGES": "1",
           "PIP_NO_BUILD_ISOLATION": "0"}
    return subprocess.run(["pre-commit", "try-repo", str(ROOT), hook, "--files", file, *more, "--hook-stage", "manual",
                           "--verbose"], cwd=repo, env=env, capture_output=True, text=True, timeout=900)


def test_offline_and_online_hooks(repo: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    home = tmp_path_factory.mktemp("pre-commit-home")
    # one offline run over a bad and a clean memo (each try-repo call costs ~8 s): findings for the
    # bad one only; the clean memo's exit 0 is asserted by the online hook below
    both = _try(repo, "citecheck", "bad.md", home, "ok.md")
    assert both.returncode == 1, both.stdout + both.stderr
    assert "U001" in both.stdout and "bad.md" in both.stdout and "ok.md" not in both.stdout
    dead = _try(repo, "citecheck-online", "dead.md", home)
    assert dead.returncode == 1 and "H001" in dead.stdout, dead.stdout + dead.stderr
    live = _try(repo, "citecheck-online", "ok.md", home)
    assert live.returncode == 0, live.stdout + live.stderr
