"""Re-harvest re-checks the corpus (issue 25 item 2): sources already in the corpus are verified
over the network on every harvest, with conditional requests from their stored ETag/Last-Modified
(a 304 refreshes the facts), while new candidates may still come from the cache within --max-age.
The issue's case: one source became a 404 and another's server stopped, and the merge said
"4 kept, fetched 0 (8 from the cache)"."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from harvestkit import cli, pages
from harvestsite import Page, Restartable

from citecheck.fetch.cache import Cache

pytestmark = pytest.mark.slow  # restartable servers, whole harvests: the full suite, not the inner loop


def listing(tmp_path: Path, *entries: tuple[Restartable, str]) -> Path:
    file = tmp_path / "Sources.md"
    lines = []
    for server, path in entries:
        title = server.site.pages[path].html.split("<title>")[1].split("</title>")[0]
        lines.append(f"- [{title}]({server.site.url(path)})\n")
    file.write_text("".join(lines))
    return file


def test_a_dead_page_and_a_stopped_server_are_seen_without_max_age_0(tmp_path: Path) -> None:
    validated = pages()
    validated["/a"].headers.update({"ETag": '"a-1"'})
    validated["/c"].headers.update({"Last-Modified": "Wed, 01 Jan 2025 00:00:00 GMT"})
    with Restartable(validated) as one, Restartable(pages()) as two:
        listed = listing(tmp_path, (one, "/a"), (one, "/b"), (one, "/c"), (two, "/d"))
        cache = tmp_path / "cache.sqlite"
        args = ["--urls", str(listed), "-o", str(tmp_path / "corpus.json"), "--allow", one.site.host,
                "--allow", two.site.host, "--cache", str(cache), "--timeout", "2"]
        first = cli(*args)
        assert first.exit_code == 0 and "4 added" in first.stderr, first.stderr
        with Cache(cache) as facts:
            before = facts.fetched_at([one.site.url("/a"), one.site.url("/c")])
        one.site.pages["/b"] = Page(404, "<html><head><title>Not Found</title></head><body>gone</body></html>")
        two.stop()
        one.site.log.clear()
        again = cli(*args)  # the default --max-age: 30 days, every fact above is fresh
        assert again.exit_code == 0, again.stderr
        assert sorted(one.site.not_modified) == ["/a", "/c"]  # If-None-Match, If-Modified-Since: 304
        assert one.requests("/b") == 1
    assert "2 kept" in again.stderr and "1 stale" in again.stderr and "1 retired" in again.stderr, again.stderr
    corpus = {e["url"].rsplit("/", 1)[1]: e for e in json.loads((tmp_path / "corpus.json").read_text())}
    assert sorted(corpus) == ["a", "c", "d"] and corpus["d"]["stale"] is True and "stale" not in corpus["a"]
    retired = json.loads((tmp_path / "corpus.json.ids").read_text())["retired"]
    assert [r["url"].rsplit("/", 1)[1] for r in retired] == ["b"] and "404" in retired[0]["reason"]
    with Cache(cache) as facts:  # a 304 refreshes the stored facts
        after = facts.fetched_at([one.site.url("/a"), one.site.url("/c")])
    assert all(after[url] > before[url] for url in before)


def test_new_candidates_still_come_from_the_cache(tmp_path: Path) -> None:
    with Restartable(pages()) as server:
        first_list = listing(tmp_path, (server, "/a"))
        args = ["-o", str(tmp_path / "corpus.json"), "--allow", server.site.host, "--cache", str(tmp_path / "c.sqlite")]
        assert cli("--urls", str(first_list), *args).exit_code == 0
        other = tmp_path / "other.json"  # /b fetched once into another corpus: its facts are in the cache
        assert cli("--urls", str(listing(tmp_path, (server, "/b"))), "-o", str(other), "--allow", server.site.host,
                   "--cache", str(tmp_path / "c.sqlite")).exit_code == 0
        server.site.log.clear()
        both = listing(tmp_path, (server, "/a"), (server, "/b"))
        result = cli("--urls", str(both), *args)
        assert result.exit_code == 0, result.stderr
        assert server.requests("/a") == 1 and server.requests("/b") == 0  # the source re-checked, the candidate cached
    assert "1 kept" in result.stderr and "1 added" in result.stderr
