"""Wayback availability checks: API shape from a cassette, failures from a local server."""
from __future__ import annotations

from pathlib import Path

import pytest
import vcr
from aiohttp import web

from citecheck.fetch.archive import check_archives, parse_availability
from citecheck.models import Outcome, Page

CASSETTES = Path(__file__).parents[1] / "cassettes"
DEAD = "https://aws.amazon.com/blogs/machine-learning/fabricated-slug/"
ROTTED = "https://news.site.org/2019/story"


def _pages() -> dict[str, Page]:
    return {
        DEAD: Page(DEAD, Outcome.DEAD, 404),
        ROTTED: Page(ROTTED, Outcome.DEAD, 404),
        "https://live.org/a": Page("https://live.org/a", Outcome.OK, 200),
    }


async def test_cassette_marks_archived_and_never_archived() -> None:
    with vcr.use_cassette(str(CASSETTES / "wayback_available.yaml"), record_mode="none",
                          match_on=["method", "host", "port", "path", "query"]):
        pages = await check_archives(_pages(), "http://127.0.0.1:9/wayback/available")
    assert pages[DEAD].archived is False and pages[DEAD].snapshot_url == ""
    assert pages[ROTTED].archived is True
    assert pages[ROTTED].snapshot_url.startswith("http://web.archive.org/web/2019")
    assert pages["https://live.org/a"].archived is None  # live pages are never asked


@pytest.mark.parametrize("status,body", [(500, "oops"), (200, "not json"), (200, '{"nope": 1}'), (429, "{}")])
async def test_api_failure_leaves_verdict_unknown(aiohttp_server, status: int, body: str) -> None:
    async def handler(request: web.Request) -> web.Response:
        return web.Response(status=status, text=body, content_type="application/json")

    app = web.Application()
    app.router.add_get("/wayback/available", handler)
    server = await aiohttp_server(app)
    pages = await check_archives(_pages(), str(server.make_url("/wayback/available")))
    assert pages[DEAD].archived is None  # unknown never turns into "likely fabricated"


def test_parse_availability_shapes() -> None:
    assert parse_availability({"archived_snapshots": {}}) == (False, "")
    assert parse_availability({"archived_snapshots": {"closest": {"available": True, "url": "u"}}}) == (True, "u")
    with pytest.raises(ValueError):
        parse_availability([])


def test_the_cli_says_when_the_archive_could_not_answer(tmp_path: Path) -> None:
    """--archive-check with an archive that answers 404: one stderr line and the JSON summary say so,
    and no dead link becomes "likely fabricated" on that silence (issue 25 item 5)."""
    import json

    from click.testing import CliRunner
    from harvestsite import threaded_site

    from citecheck.cli import main

    with threaded_site({}) as site:  # every path is a 404, the archive's API included
        (tmp_path / "memo.md").write_text(f"# Memo\n\nGone ([report](http://{site.host}/reports/gone)).\n")
        (tmp_path / "cfg.yaml").write_text("fetch: {allow: [127.0.0.1], no-cache: true, robots: false, "
                                           f"archive-url: 'http://{site.host}/wayback/available'}}\n")
        result = CliRunner().invoke(main, ["audit", str(tmp_path / "memo.md"), "--archive-check", "--format", "json",
                                           "--config", str(tmp_path / "cfg.yaml")])
    assert result.exit_code == 1, result.output
    assert "the Wayback Machine could not answer for 1 of 1 dead URL(s) (HTTP 404)" in result.stderr
    payload = json.loads(result.stdout)
    assert payload["summary"]["archive"] == {"asked": 1, "unanswered": 1}
    assert [f["rule"] for f in payload["findings"]] == ["H001"]  # dead, never "likely fabricated"
