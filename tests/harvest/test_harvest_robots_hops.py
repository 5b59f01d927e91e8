"""Policy before cache in harvest (issue 26, item 6's leftovers): robots.txt is asked for every hop
of a stored walk before the cache answers for a candidate. Loopback server only."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from harvestkit import cli, pages
from harvestsite import Page, Restartable

pytestmark = pytest.mark.slow  # CLI harvests against a server


def test_a_stored_walk_through_a_hop_robots_txt_disallows_is_not_served(tmp_path: Path) -> None:
    """Policy before cache in harvest: a candidate whose stored walk (fetched under --ignore-robots)
    redirects to a path robots.txt disallows is fetched again by a run that honours robots.txt, its
    walk stops at that hop, and it gets no ID (issue 26, item 6's leftovers)."""
    site_pages = pages()
    site_pages["/moved"] = Page(301, "", {"Location": "/private/a"})
    site_pages["/private/a"] = site_pages["/a"]
    site_pages["/robots.txt"] = Page(200, "User-agent: *\nDisallow: /private/\n")
    server = Restartable(site_pages)
    with server:
        title = site_pages["/a"].html.split("<title>")[1].split("</title>")[0]
        listed = tmp_path / "Sources.md"
        listed.write_text(f"- [{title}]({server.site.url('/moved')})\n")
        args = ["--urls", str(listed), "--rejects", str(tmp_path / "rejects.json"), "--allow", server.site.host,
                "--cache", str(tmp_path / "cache.sqlite")]
        first = cli(*args, "-o", str(tmp_path / "first.json"), "--ignore-robots")
        assert first.exit_code == 0 and "1 added" in first.stderr, first.stderr
        requests = server.requests("/private/a")
        second = cli(*args, "-o", str(tmp_path / "second.json"))
        assert server.requests("/private/a") == requests  # the disallowed hop is never requested
    assert "0 added" in second.stderr and "1 rejected" in second.stderr, second.stderr
    rejects = json.loads((tmp_path / "rejects.json").read_text())["rejects"]
    assert len(rejects) == 1 and "robots-disallowed" in json.dumps(rejects[0])
