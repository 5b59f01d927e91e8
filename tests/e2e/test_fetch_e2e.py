"""End to end: `citecheck audit --allow 127.0.0.1 --format json`, the Python API, `citecheck cache`."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from hostile import HostileWeb

import citecheck
from citecheck.cli import main
from citecheck.config import Config, FetchConfig
from citecheck.models import Outcome


def memo(tmp_path: Path, base: str) -> Path:
    path = tmp_path / "memo.md"
    path.write_text("# Harbor memo\n\n"
                    f"The harbor grew 45% in 2023 ([report]({base}/article)).\n\n"
                    f"A missing study says otherwise ([study]({base}/missing)).\n\n"
                    f"Again the report: <{base}/article>.\n", encoding="utf-8")
    return path


def test_cli_audit_json(served: Any, tmp_path: Path) -> None:
    args = ["audit", str(memo(tmp_path, served.base)), "--allow", "127.0.0.1", "--format", "json", "--verbose",
            "--cache", str(tmp_path / "c.sqlite"), "--timeout", "5"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1, result.output
    payload = json.loads(result.stdout)
    assert payload["summary"]["fetched"] == 2 and payload["summary"]["outcomes"] == {"dead": 1, "ok": 1}
    dead = [f for f in payload["findings"] if f["url"].endswith("/missing")]
    assert any(f["rule"] == "H001" for f in dead)
    assert not any(f["rule"] in ("H001", "H002", "H003") for f in payload["findings"] if f["url"].endswith("/article"))
    assert served.hits["/article"] == 1 and f"127.0.0.1:{served.base.rsplit(':', 1)[1]}: " in result.stderr
    again = CliRunner().invoke(main, args)
    assert json.loads(again.stdout)["findings"] == payload["findings"] and served.hits["/article"] == 1
    assert "unchanged since a stored audit" in again.stderr  # the result cache: nothing refetched or re-judged
    memo(tmp_path, served.base).write_text(memo(tmp_path, served.base).read_text() + "\nEdited.\n")
    edited = CliRunner().invoke(main, args)  # an edited memo re-runs the rules on the cached pages
    assert json.loads(edited.stdout)["findings"] == payload["findings"] and served.hits["/article"] == 1
    assert "2 pages from the cache" in edited.stderr


def test_cli_without_allow_refuses_loopback(served: Any, tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["audit", str(memo(tmp_path, served.base)), "--format", "json", "--no-cache"])
    payload = json.loads(result.stdout)
    assert payload["summary"]["outcomes"] == {"excluded": 2} and sum(served.hits.values()) == 0


def test_python_api_sync(served: Any, tmp_path: Path) -> None:
    config = Config(fetch=FetchConfig(allow=("127.0.0.1",), use_cache=False, timeout=5))
    report = citecheck.audit([str(memo(tmp_path, served.base))], config, online=True)
    outcomes = {url: page.outcome for url, page in report.pages.items()}
    assert outcomes == {served.base + "/article": Outcome.OK, served.base + "/missing": Outcome.DEAD}
    assert any(f.rule == "H001" and f.url.endswith("/missing") for f in report.findings)


async def test_python_api_async(aiohttp_server: Any, tmp_path: Path) -> None:
    web = HostileWeb()
    server = await aiohttp_server(web.app)
    config = Config(fetch=FetchConfig(allow=("127.0.0.1",), use_cache=False, timeout=5))
    report = await citecheck.audit_async([str(memo(tmp_path, f"http://127.0.0.1:{server.port}"))], config, online=True)
    assert sorted(p.outcome.value for p in report.pages.values()) == ["dead", "ok"]


def test_cache_cli(served: Any, tmp_path: Path) -> None:
    cache = str(tmp_path / "c.sqlite")
    CliRunner().invoke(main, ["audit", str(memo(tmp_path, served.base)), "--allow", "127.0.0.1", "--format", "json",
                              "--cache", cache])
    stats = CliRunner().invoke(main, ["cache", "stats", "--cache", cache, "--json"])
    assert stats.exit_code == 0 and json.loads(stats.stdout)["by_outcome"] == {"dead": 1, "ok": 1}
    assert "pruned 0 entries" in CliRunner().invoke(main, ["cache", "prune", "--cache", cache]).stdout
    # two pages, the stored audit result (citecheck.cache.results) and the host's robots.txt
    assert "cleared 4 entries" in CliRunner().invoke(main, ["cache", "clear", "--cache", cache]).stdout
    text = CliRunner().invoke(main, ["cache", "stats", "--cache", cache])
    assert "pages:    0" in text.stdout
