"""What lychee, ruff and markdownlint users look for (issue 25 item 7): URL excludes with reasons,
`--quiet`, a dump of the extracted links, and `write -o -`."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from harvestsite import Page, threaded_site

from citecheck.cli import main

ROOT = Path(__file__).resolve().parents[2]
ARTICLE = Page(200, "<html><head><title>Freight volumes</title></head><body><article>"
                    + "<p>Freight volumes rose by rail and road in the quarter, the agency said.</p>" * 20
                    + "</article></body></html>")


def _cli(*args: str, cwd: Path | None = None) -> Result:
    return CliRunner(env={"GITHUB_ACTIONS": None, "CITECHECK_CACHE_URL": None}).invoke(main, list(args))


@pytest.fixture
def online(tmp_path: Path) -> Any:
    with threaded_site({"/a": ARTICLE}) as site:  # /b and /c would be 404s: dead if ever fetched
        base = f"http://{site.host}"
        (tmp_path / "memo.md").write_text(f"# Memo\n\nFreight volumes rose by rail and road in the quarter "
                                          f"([a]({base}/a)).\n\nTwo ([b]({base}/b)).\n\nThree ([c]({base}/c)).\n")
        (tmp_path / "cfg.yaml").write_text(
            "fetch: {allow: [127.0.0.1], no-cache: true, robots: false}\n"
            "exclude-urls:\n  - {pattern: '/b$', reason: 'vendor portal, checked by hand'}\n")
        yield site, tmp_path


def test_excluded_urls_are_not_fetched_and_are_counted_with_their_reasons(online: Any) -> None:
    site, tmp = online
    result = _cli("audit", str(tmp / "memo.md"), "--config", str(tmp / "cfg.yaml"), "--exclude-url", r"/c$",
                  "--format", "json", "--verbose")
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert payload["findings"] == [] and payload["summary"]["verdicts"]["unchecked"] == 2
    assert payload["summary"]["excluded_by_config"] == {"vendor portal, checked by hand": 1, "--exclude-url": 1}
    assert "/b" not in site.log and "/c" not in site.log and "/a" in site.log, site.log
    assert "excluded by config (vendor portal, checked by hand; //b$/): " in result.stderr
    assert "excluded by config (--exclude-url; //c$/): " in result.stderr
    text = _cli("audit", str(tmp / "memo.md"), "--config", str(tmp / "cfg.yaml"), "--format", "text")
    assert "; 1 excluded by config (vendor portal, checked by hand)" in text.stdout
    html = _cli("audit", str(tmp / "memo.md"), "--config", str(tmp / "cfg.yaml"), "--format", "html")
    assert "excluded by config (exclude-urls / --exclude-url)" in html.stdout


def test_a_bad_exclude_pattern_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "memo.md").write_text("# Memo\n")
    result = _cli("audit", "--offline", str(tmp_path / "memo.md"), "--exclude-url", "(")
    assert result.exit_code == 2 and "not a regex" in result.output and "Traceback" not in result.output
    (tmp_path / "cfg.yaml").write_text("exclude-urls: ['[']\n")
    result = _cli("audit", "--offline", str(tmp_path / "memo.md"), "--config", str(tmp_path / "cfg.yaml"))
    assert result.exit_code == 2 and "cfg.yaml:1: exclude-urls pattern '[' is not a regex" in result.output


def test_quiet_prints_the_findings_only(tmp_path: Path) -> None:
    (tmp_path / "bad.md").write_text("# Memo\n\nSee [x](https://example.com/report).\n")
    (tmp_path / "ok.md").write_text("# Memo\n\nNothing cited.\n")
    loud = _cli("audit", "--offline", "--format", "text", str(tmp_path / "bad.md"))
    quiet = _cli("audit", "--offline", "--format", "text", "--quiet", str(tmp_path / "bad.md"))
    assert loud.exit_code == quiet.exit_code == 1
    assert "finding(s)" in loud.stdout and "finding(s)" not in quiet.output and "U001" in quiet.stdout
    clean = _cli("audit", "--offline", "--format", "text", "-q", str(tmp_path / "ok.md"))
    assert clean.exit_code == 0 and clean.output == ""


def test_links_lists_every_link_with_position_kind_and_fate(tmp_path: Path) -> None:
    (tmp_path / "memo.md").write_text("# Memo\n\nSee [report](https://www.oecd.org/a) and <https://data.gov/b>.\n\n"
                                      "```\ncurl https://api.example.org/c\n```\n\n![chart](https://cdn.oecd.org/d.png)\n")
    text = _cli("links", str(tmp_path / "memo.md"), "--exclude-url", "cdn\\.")
    assert text.exit_code == 0, text.output
    rows = [line.split("\t") for line in text.stdout.splitlines()]
    assert [(r[0].rsplit(":", 2)[-2:], r[1], r[2], r[3]) for r in rows] == [
        (["3", "14"], "inline", "fetch", "https://www.oecd.org/a"),
        (["3", "43"], "autolink", "fetch", "https://data.gov/b"),
        (["6", "6"], "bare", "code", "https://api.example.org/c"),
        (["9", "10"], "image", "excluded: --exclude-url", "https://cdn.oecd.org/d.png")]
    payload = json.loads(_cli("links", str(tmp_path / "memo.md"), "--format", "json").stdout)
    assert payload["version"] == 1 and [x["kind"] for x in payload["links"]] == ["inline", "autolink", "bare", "image"]
    corpus = _cli("links", str(ROOT / "fixtures" / "memos" / "corpus.json"))
    assert all("\tcorpus\tcorpus\t" in line for line in corpus.stdout.splitlines()) and corpus.stdout


def test_write_to_stdout_with_dash(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "draft.md").write_text("# Memo\n\nFreight grew 3.1% in 2024 [src-001].\n")
    result = _cli("write", "draft.md", "--corpus", str(ROOT / "fixtures" / "memos" / "corpus.json"), "-o", "-",
                  "--format", "json")
    assert not (tmp_path / "-").exists()
    assert result.stdout.startswith("# Memo\n") and "[^1]" in result.stdout
    assert json.loads(result.stderr)["summary"]["output"] == "-"


def test_accepted_statuses_are_reported_as_accepted_never_verified(tmp_path: Path) -> None:
    forbidden = Page(403, "<html><head><title>Forbidden</title></head><body>Forbidden</body></html>")
    with threaded_site({"/a": ARTICLE, "/members": forbidden}) as site:
        (tmp_path / "memo.md").write_text(f"# Memo\n\nFreight volumes rose by rail and road in the quarter "
                                          f"([a](http://{site.host}/a)).\n\nMembers ([m](http://{site.host}/members)).\n")
        (tmp_path / "cfg.yaml").write_text("fetch: {allow: [127.0.0.1], no-cache: true, robots: false}\n")
        args = ["audit", str(tmp_path / "memo.md"), "--config", str(tmp_path / "cfg.yaml"), "--format", "json"]
        plain = _cli(*args)
        accepted = _cli(*args, "--accept", "403,429")
        text = _cli(*args[:-2], "--format", "text", "--accept", "403")
        html = _cli(*args[:-2], "--format", "html", "--accept", "403")
    assert [f["url"].rsplit("/", 1)[-1] for f in json.loads(plain.stdout)["findings"]] == ["members"], plain.output
    payload = json.loads(accepted.stdout)
    assert accepted.exit_code == 0 and payload["findings"] == [], accepted.output
    assert payload["summary"]["verdicts"] == {"accepted": 1, "ok": 1} and payload["summary"]["accepted"] == {"403": 1}
    assert "1 accepted, not verified (HTTP 403: 1)" in text.stdout
    assert "accepted (HTTP 403, --accept): not verified" in html.stdout
    bad = _cli(*args, "--accept", "40x")
    assert bad.exit_code == 2 and "not an HTTP status or range" in bad.output
