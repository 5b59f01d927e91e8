"""Only an explicit configuration widens the network policy (issue 26, item 3): `fetch.allow`,
`allow-private`, `headers`, `robots: false`, `archive-url` and `cache` count from `--config`, `$CITECHECK_CONFIG`
or the user's config directory; from a `.citecheck.yaml` found by walking up they are ignored, with one
warning naming the keys."""
from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from click.testing import CliRunner

from citecheck.cli import main
from citecheck.config import load_config
from citecheck.errors import ConfigError

WIDENING = ("fetch:\n  allow: [127.0.0.1]\n  allow-private: true\n  headers: {metadata.internal: {X-Token: k}}\n"
            "  robots: false\n  archive-url: http://169.254.169.254/latest\n  cache: ./planted.sqlite\n  timeout: 7\n")
SECRET = b"<html><head><title>AWS metadata: AKIAFAKEKEY1234567890</title></head><body>SecretAccessKey=fake</body></html>"


@pytest.fixture
def metadata() -> Iterator[tuple[str, list[str]]]:
    """A stand-in for a cloud metadata service on loopback, logging every request it gets."""
    seen: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            seen.append(self.path)
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(SECRET)))
            self.end_headers()
            self.wfile.write(SECRET)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}", seen
    server.shutdown()


def test_a_discovered_config_cannot_widen_the_policy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / ".citecheck.yaml").write_text(WIDENING)
    (tmp_path / "memos").mkdir()
    monkeypatch.chdir(tmp_path / "memos")
    config = load_config()
    assert (config.fetch.allow, config.fetch.allow_private, dict(config.fetch.headers), config.fetch.robots) == (
        (), False, {}, True)
    assert config.fetch.archive_url == "https://archive.org/wayback/available"
    assert config.fetch.cache == ""  # a planted fact cache would answer for every URL
    assert config.ignored == ("fetch.allow", "fetch.allow-private", "fetch.headers", "fetch.robots", "fetch.archive-url",
                              "fetch.cache")
    assert config.fetch.timeout == 7  # narrowing and neutral keys still count


def test_a_discovered_pyproject_table_is_discovered_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.citecheck.fetch]\nallow = ["10.0.0.1"]\n')
    monkeypatch.chdir(tmp_path)
    assert load_config().fetch.allow == () and load_config().ignored == ("fetch.allow",)


@pytest.mark.parametrize("how", ["--config", "CITECHECK_CONFIG", "user"])
def test_an_explicit_config_widens_the_policy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    monkeypatch.chdir(tmp_path)
    if how == "user":
        (tmp_path / "xdg" / "citecheck").mkdir(parents=True)
        (tmp_path / "xdg" / "citecheck" / "config.yaml").write_text(WIDENING)
        monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
        config = load_config()
    else:
        (tmp_path / "ci.yaml").write_text(WIDENING)
        if how == "CITECHECK_CONFIG":
            monkeypatch.setenv("CITECHECK_CONFIG", str(tmp_path / "ci.yaml"))
        config = load_config(str(tmp_path / "ci.yaml") if how == "--config" else None)
    assert config.fetch.allow == ("127.0.0.1",) and config.fetch.allow_private and not config.fetch.robots
    assert config.ignored == ()


def test_the_user_config_policy_stands_beside_a_discovered_config(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "xdg" / "citecheck").mkdir(parents=True)
    (tmp_path / "xdg" / "citecheck" / "config.yaml").write_text("fetch:\n  allow: [10.1.2.3]\n")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    (tmp_path / "repo").mkdir()
    (tmp_path / "repo" / ".citecheck.yaml").write_text("fail-on: warning\nfetch:\n  allow: [127.0.0.1]\n")
    monkeypatch.chdir(tmp_path / "repo")
    config = load_config()
    assert config.fail_on == "warning" and config.fetch.allow == ("10.1.2.3",) and config.ignored == ("fetch.allow",)


@pytest.mark.slow
def test_a_planted_config_does_not_fetch_the_private_page_into_the_reports(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, metadata: tuple[str, list[str]]) -> None:
    """Issue 26, failure 3: a `.citecheck.yaml` in the audited tree allowed loopback; the private page's
    title and text landed in the SARIF, JSON and HTML reports."""
    base, seen = metadata
    (tmp_path / ".citecheck.yaml").write_text("fetch:\n  allow: [127.0.0.1]\n  no-cache: true\n")
    (tmp_path / "memo.md").write_text(f"# Memo\n\nKeys at [the service]({base}/latest/meta-data/iam).\n")
    monkeypatch.chdir(tmp_path)
    for fmt in ("sarif", "json", "html"):
        result = CliRunner().invoke(main, ["audit", "memo.md", "--format", fmt, "--timeout", "5"])
        assert result.exit_code == 1, result.output
        assert "AKIAFAKEKEY" not in result.stdout and "SecretAccessKey" not in result.stdout
        warnings = [line for line in result.stderr.splitlines() if "fetch.allow ignored" in line]
        assert len(warnings) == 1 and ".citecheck.yaml" in warnings[0]
    assert seen == []
    sarif = CliRunner().invoke(main, ["audit", "memo.md", "--format", "json", "--timeout", "5"])
    assert "U004" in {f["rule"] for f in json.loads(sarif.stdout)["findings"]}
    # the same allow list given explicitly is honoured
    explicit = CliRunner().invoke(main, ["audit", "memo.md", "--format", "json", "--timeout", "5", "--config",
                                         ".citecheck.yaml"])
    assert explicit.exit_code in (0, 1) and seen and "fetch.allow ignored" not in explicit.stderr


def test_ignore_robots_is_a_config_key_and_a_discovered_one_is_ignored(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / ".citecheck.yaml").write_text("fetch:\n  ignore-robots: true\n")
    monkeypatch.chdir(tmp_path)
    discovered = load_config()
    assert discovered.fetch.robots and discovered.ignored == ("fetch.ignore-robots",)
    assert not load_config(str(tmp_path / ".citecheck.yaml")).fetch.robots
    (tmp_path / "bad.yaml").write_text("fetch:\n  ignore-robots: sometimes\n")
    with pytest.raises(ConfigError, match="ignore-robots must be true or false"):
        load_config(str(tmp_path / "bad.yaml"))
    result = CliRunner().invoke(main, ["audit", "--offline", str(tmp_path / ".citecheck.yaml")])
    assert [line for line in result.stderr.splitlines() if "ignored" in line] == [
        f"citecheck: {tmp_path / '.citecheck.yaml'}: fetch.ignore-robots ignored: a configuration found by walking up "
        "from the working directory may only narrow the network policy and add to or tighten the checks (give it with "
        "--config FILE, $CITECHECK_CONFIG or ~/.config/citecheck/config.yaml, or on the command line: --allow, "
        "--header, --cache, --ignore)"]
