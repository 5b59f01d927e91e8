"""harvest --deadline (issue 26 item 12, the harvest half): what is not judged when the run's time is
up is reported as unverifiable and never gets an ID; the rest is kept; the next harvest resumes from
the cache and judges it. Loopback servers only."""
from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from aiohttp import web
from harvestkit import cli, pages
from harvestsite import Restartable, Site

from citecheck.fetch.cache import Cache

pytestmark = pytest.mark.slow  # CLI harvests against a server that stalls for seconds


class SlowSite(Site):
    """A site whose paths in `slow` answer only after that many seconds."""

    def __init__(self, *args: object) -> None:
        super().__init__(*args)  # type: ignore[arg-type]
        self.slow: dict[str, float] = {}

    async def handle(self, request: web.Request) -> web.Response:
        waited = 0.0
        while waited < self.slow.get(request.path, 0.0):  # ends early once the path is fast again
            await asyncio.sleep(0.1)
            waited += 0.1
        return await super().handle(request)


def test_what_the_deadline_cuts_off_never_gets_an_id_and_the_next_harvest_resumes(tmp_path: Path) -> None:
    server = Restartable(pages())
    server.site = slow = SlowSite(server.site.pages)
    with server:
        try:
            run(tmp_path, server)
        finally:
            slow.slow.clear()  # let the stalled request end, so the server stops at once


def run(tmp_path: Path, server: Restartable) -> None:
    if True:
        titles = {p: server.site.pages[p].html.split("<title>")[1].split("</title>")[0] for p in ("/a", "/b", "/c")}
        listed = tmp_path / "Sources.md"
        listed.write_text("".join(f"- [{titles[p]}]({server.site.url(p)})\n" for p in titles))
        server.site.slow["/c"] = 120.0  # well past the run's deadline, well within its --timeout
        cache = tmp_path / "cache.sqlite"
        args = ["--urls", str(listed), "-o", str(tmp_path / "corpus.json"), "--rejects", str(tmp_path / "rejects.json"),
                "--allow", server.site.host, "--cache", str(cache), "--timeout", "60", "--ignore-robots"]
        first = cli(*args, "--deadline", "15")
        assert first.exit_code == 0, first.stderr
        assert "2 added" in first.stderr and "1 not judged before --deadline" in first.stderr, first.stderr
        corpus = json.loads((tmp_path / "corpus.json").read_text())
        assert sorted(e["url"].rsplit("/", 1)[1] for e in corpus) == ["a", "b"]
        rejects = json.loads((tmp_path / "rejects.json").read_text())["rejects"]
        assert [r["url"].rsplit("/", 1)[1] for r in rejects] == ["c"]
        assert "deadline" in json.dumps(rejects[0]) and "unverifiable" in json.dumps(rejects[0])
        with Cache(cache) as facts:  # the judged pages' facts are stored, the cut-off one's are not
            stored = [url for (url,) in facts.conn.execute("SELECT url FROM pages")]
        assert sorted(url.rsplit("/", 1)[1] for url in stored if "citecheck-probe" not in url) == ["a", "b"]
        server.site.slow.clear()
        again = cli(*args)  # the default deadline: /c is judged and gets the next ID; a and b keep theirs
        assert again.exit_code == 0, again.stderr
        assert "1 added" in again.stderr and "2 kept" in again.stderr and "--deadline" not in again.stderr
        ids = {e["url"].rsplit("/", 1)[1]: e["id"] for e in json.loads((tmp_path / "corpus.json").read_text())}
        assert ids == {e["url"].rsplit("/", 1)[1]: e["id"] for e in corpus} | {"c": "src-003"}

