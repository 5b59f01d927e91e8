"""Both pre-commit hooks, exercised with `pre-commit try-repo` on a throwaway git repository, and
the README's `.pre-commit-config.yaml` snippet, pinned as written, installed as a git hook.

pre-commit builds the hook's virtualenv from this checkout (or a clone of it at its HEAD). To keep the
test off the network it builds it with the test interpreter's site-packages visible, no package index
and no build isolation, so the dependencies already installed for the test run satisfy the hook's
environment, whether the tests run from a virtualenv or the system interpreter.
"""
from __future__ import annotations

import os
import re
import site as site_module
import subprocess
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
import yaml
from tools import installed_script

ROOT = Path(__file__).resolve().parents[2]
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
    path = tmp_path_factory.mktemp("memo-repo")
    (path / "bad.md").write_text("# Acme\n\nRevenue doubled ([source](https://example.com/acme-report)).\n")
    (path / "ok.md").write_text(f"# Acme\n\nThe market grew ([report]({site}/reports/q3)).\n")
    (path / "dead.md").write_text(f"# Acme\n\nThe market grew ([report]({site}/gone/q3)).\n")
    # the repository's own config may not widen the network policy nor ignore a rule (issue 26): its
    # `fetch.allow` and `ignore` are ignored with a warning; the user's config (XDG_CONFIG_HOME) allows
    # loopback and ignores U004 (the test web lives on loopback)
    (path / ".citecheck.yaml").write_text("ignore: [U004]\nfetch:\n  allow: [127.0.0.1]\n  no-cache: true\n")
    for cmd in (["git", "init", "-q"], ["git", "add", "."],
                ["git", "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "memos"]):
        subprocess.run(cmd, cwd=path, check=True)
    return path


def _offline_env(home: Path) -> dict[str, str]:
    # The hook's virtualenv sees the base interpreter's site-packages (system site packages), and, for
    # a test run from a virtualenv, this interpreter's too (PYTHONPATH): pip then finds every dependency
    # installed for the test run and needs no index. pip never uninstalls outside the hook's env.
    site_dirs = os.pathsep.join(site_module.getsitepackages())
    user = home / "xdg-config"  # the user's own config: the only place here that allows loopback
    (user / "citecheck").mkdir(parents=True, exist_ok=True)
    (user / "citecheck" / "config.yaml").write_text("ignore: [U004]\nfetch:\n  allow: [127.0.0.1]\n")
    return {**os.environ, "PRE_COMMIT_HOME": str(home), "PIP_NO_INDEX": "1", "VIRTUALENV_SYSTEM_SITE_PACKAGES": "1",
            "PIP_NO_BUILD_ISOLATION": "0", "PYTHONPATH": site_dirs, "XDG_CONFIG_HOME": str(user)}


def _try(repo: Path, hook: str, file: str, home: Path, *more: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([installed_script("pre-commit", "pre-commit"), "try-repo", str(ROOT), hook, "--files", file, *more, "--hook-stage", "manual",
                           "--verbose"], cwd=repo, env=_offline_env(home), capture_output=True, text=True, timeout=900,
                          check=False)


def test_offline_and_online_hooks(repo: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    home = tmp_path_factory.mktemp("pre-commit-home")
    # one offline run over a bad and a clean memo (each try-repo call costs ~8 s): findings for the
    # bad one only; the clean memo's exit 0 is asserted by the online hook below
    both = _try(repo, "citecheck", "bad.md", home, "ok.md")
    assert both.returncode == 1, both.stdout + both.stderr
    assert "U001" in both.stdout and "bad.md" in both.stdout and "ok.md" not in both.stdout
    dead = _try(repo, "citecheck-online", "dead.md", home)
    assert dead.returncode == 1 and "H001" in dead.stdout, dead.stdout + dead.stderr
    assert "fetch.allow ignored" in dead.stdout + dead.stderr  # the repository's own allow list was not used
    live = _try(repo, "citecheck-online", "ok.md", home)
    assert live.returncode == 0, live.stdout + live.stderr


def _readme_snippet() -> dict:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("\n## pre-commit\n"):]
    return yaml.safe_load(re.search(r"```yaml\n(.*?)```", section, re.DOTALL).group(1))


def test_readme_snippet_names_main_or_a_commit_of_its_history() -> None:
    (repo,) = _readme_snippet()["repos"]
    # no release is tagged: the snippet follows main, or pins a commit of main's history (never a stale
    # one that the test itself would then have to install)
    if repo["rev"] != "main":
        assert re.fullmatch(r"[0-9a-f]{40}", repo["rev"]), "pin a full commit SHA, or name main"
        ancestor = subprocess.run(["git", "-C", str(ROOT), "merge-base", "--is-ancestor", repo["rev"], "HEAD"],
                                  check=False)
        assert ancestor.returncode == 0, f"{repo['rev']} is not a commit of this history"
    assert [h["id"] for h in repo["hooks"]] == ["citecheck", "citecheck-online"]


def test_readme_snippet_as_written_blocks_a_bad_memo_and_passes_a_clean_one(tmp_path: Path) -> None:
    """The snippet verbatim but for `repo:` and `rev:` (a local clone of this checkout and its HEAD, so
    the hook runs the code under test and needs nothing but what is installed), installed as the git
    hook: committing the bad memo is refused (a directive in it notwithstanding), committing the clean one
    (and a .txt memo) passes."""
    snippet = _readme_snippet()
    clone = tmp_path / "citecheck-clone"
    subprocess.run(["git", "clone", "-q", "--no-checkout", str(ROOT), str(clone)], check=True)
    head = subprocess.run(["git", "-C", str(clone), "rev-parse", "HEAD"], capture_output=True, text=True,
                          check=True).stdout.strip()
    snippet["repos"][0].update(repo=str(clone), rev=head)
    work = tmp_path / "memos"
    work.mkdir()
    (work / ".pre-commit-config.yaml").write_text(yaml.safe_dump(snippet, sort_keys=False))
    env = _offline_env(tmp_path / "pre-commit-home")
    git = ["git", "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run(["git", "init", "-q"], cwd=work, check=True)
    subprocess.run([installed_script("pre-commit", "pre-commit"), "install", "--hook-type", "pre-commit",
                    "--hook-type", "pre-push"], cwd=work, env=env, check=True, capture_output=True)
    # the model wrote a directive to silence its placeholder link: the snippet's --no-inline-config reads none
    (work / "bad.md").write_text('# Acme\n\n<!-- citecheck: disable=U001 reason="reviewed" -->\n'
                                 "Revenue doubled ([source](https://example.com/acme-report)).\n")
    subprocess.run(["git", "add", "bad.md", ".pre-commit-config.yaml"], cwd=work, check=True)
    blocked = subprocess.run([*git, "commit", "-qm", "bad"], cwd=work, env=env, capture_output=True, text=True,
                             timeout=900, check=False)
    assert blocked.returncode != 0 and "U001" in blocked.stdout + blocked.stderr, blocked.stdout + blocked.stderr
    subprocess.run(["git", "rm", "-q", "--cached", "bad.md"], cwd=work, check=True)
    (work / "bad.txt").write_text("Sources: https://example.org/made-up-report\n")  # text memos are linted too
    subprocess.run(["git", "add", "bad.txt"], cwd=work, check=True)
    blocked = subprocess.run([*git, "commit", "-qm", "bad"], cwd=work, env=env, capture_output=True, text=True,
                             timeout=900, check=False)
    assert blocked.returncode != 0 and "bad.txt" in blocked.stdout + blocked.stderr, blocked.stdout + blocked.stderr
    subprocess.run(["git", "rm", "-q", "--cached", "bad.txt"], cwd=work, check=True)
    (work / "ok.md").write_text("# Acme\n\nThe market grew ([report](https://www.sec.gov/cgi-bin/browse-edgar)).\n")
    (work / "notes.txt").write_text("Sources: https://www.bls.gov/cpi/\n")
    subprocess.run(["git", "add", "ok.md", "notes.txt", ".pre-commit-config.yaml"], cwd=work, check=True)
    passed = subprocess.run([*git, "commit", "-qm", "ok"], cwd=work, env=env, capture_output=True, text=True,
                            timeout=900, check=False)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "citecheck (offline)" in passed.stdout + passed.stderr and "Passed" in passed.stdout + passed.stderr
