"""The cache touches only what it created (citecheck.fetch.cachefile): another application's SQLite
file, a directory and a file that is not SQLite are refused with one line and left byte for byte
as they were; a read-only cache is used read-only; an unusable location means no cache and one
warning; several processes creating one fresh cache at once all succeed."""
from __future__ import annotations

import multiprocessing
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from citecheck.cli import main
from citecheck.errors import CacheError
from citecheck.fetch import cachefile
from citecheck.fetch.cache import Cache
from citecheck.models import Outcome, Page

OK = Page(url="https://example.org/a", outcome=Outcome.OK, status=200, title="A")


def _memo(tmp_path: Path) -> Path:
    memo = tmp_path / "memo.md"
    memo.write_text("# Memo\n\nSee [the report](http://127.0.0.1:9/report).\n")
    return memo


def _foreign_db(path: Path) -> bytes:
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("CREATE TABLE pages (id INTEGER PRIMARY KEY, body TEXT)")
        conn.execute("INSERT INTO pages (body) VALUES ('the user''s own data')")
    conn.close()
    return path.read_bytes()


@pytest.mark.parametrize("kind", ["foreign-sqlite", "marked-by-another-app", "text", "directory"])
def test_what_citecheck_did_not_create_is_refused_and_untouched(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "app.db"
    if kind == "foreign-sqlite":
        before = _foreign_db(path)
    elif kind == "marked-by-another-app":
        conn = sqlite3.connect(path)
        conn.execute("PRAGMA application_id=1234")
        conn.execute("CREATE TABLE t (x)")
        conn.close()
        before = path.read_bytes()
    elif kind == "text":
        path.write_text("meeting notes\n" * 100)
        before = path.read_bytes()
    else:
        path.mkdir()
        (path / "keep.txt").write_text("mine")
        before = b"mine"
    with pytest.raises(CacheError):
        Cache(path)
    result = CliRunner().invoke(main, ["audit", str(_memo(tmp_path)), "--cache", str(path), "--allow", "127.0.0.1:9"])
    assert result.exit_code == 2 and len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.output
    assert "citecheck cache" in result.stderr or "citecheck did not create" in result.stderr
    stats = CliRunner().invoke(main, ["cache", "stats", "--cache", str(path)])
    assert stats.exit_code == 2 and len(stats.stderr.strip().splitlines()) == 1
    after = (path / "keep.txt").read_bytes() if kind == "directory" else path.read_bytes()
    assert after == before and sorted(p.name for p in tmp_path.iterdir()) == ["app.db", "memo.md"]


def test_its_own_cache_is_marked(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    Cache(path).close()
    assert cachefile.header_mark(path) == ("sqlite", cachefile.APPLICATION_ID, cachefile.SCHEMA)


def test_an_unmarked_cache_of_the_previous_schema_is_taken_over(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE pages (key TEXT PRIMARY KEY, url TEXT, fetched REAL, outcome TEXT, facts TEXT, "
                 "text TEXT, html TEXT, sibling TEXT)")
    conn.execute("CREATE TABLE extras (kind TEXT, key TEXT, stored REAL, data TEXT, PRIMARY KEY (kind, key))")
    conn.execute("PRAGMA user_version=2")
    conn.close()
    with Cache(path) as cache:
        cache.put(OK)
        assert cache.stats()["by_kind"] == {"answer": 1}
    assert cachefile.header_mark(path)[1] == cachefile.APPLICATION_ID


def test_a_read_only_cache_is_used_read_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "c.sqlite"
    with Cache(path) as cache:
        cache.put(OK)
    before = path.read_bytes()
    # the tests run as root, whom file modes do not stop: the access check is what is simulated
    monkeypatch.setattr(cachefile, "_may_write", lambda path: False)
    with Cache(path) as cache:
        assert not cache.writable and cache.get(OK.url, 30) is not None
        assert cache.put_many([replace(OK, url="https://example.org/b")]) == 0
        cache.put_extra("k", "v", {"x": 1})
        assert cache.stats()["pages"] == 1 and cache.stats()["extras"] == 0
    assert path.read_bytes() == before
    result = CliRunner().invoke(main, ["cache", "clear", "--cache", str(path)])
    assert result.exit_code == 2 and "read-only" in result.stderr


def test_an_unusable_location_means_no_cache_and_one_warning(tmp_path: Path) -> None:
    blocker = tmp_path / "file.txt"
    blocker.write_text("a file where a folder should be")
    memo = tmp_path / "memo.md"
    memo.write_text("# Memo\n\nSee [the report](http://127.0.0.1:9/report).\n")
    result = CliRunner().invoke(main, ["audit", str(memo), "--cache", str(blocker / "cache.sqlite"),
                                       "--allow", "127.0.0.1:9", "--format", "json", "--timeout", "2"])
    warnings = [line for line in result.stderr.splitlines() if "cache" in line]
    # the refused connection is an unverifiable warning (U004 is silent: --allow allows the address)
    assert result.exit_code == 0 and len(warnings) == 1 and "without a cache" in warnings[0], result.stderr
    assert blocker.read_text() == "a file where a folder should be"


def _create_and_write(path: str, name: str) -> int:
    cache = Cache(path)
    stored = cache.put_many([replace(OK, url=f"https://example.org/{name}/{n}") for n in range(20)])
    cache.close()
    return stored


@pytest.mark.slow
def test_concurrent_fresh_creation(tmp_path: Path) -> None:
    path = str(tmp_path / "fresh.sqlite")
    with multiprocessing.get_context("spawn").Pool(6) as pool:
        stored = pool.starmap(_create_and_write, [(path, f"p{n}") for n in range(6)])
    assert stored == [20] * 6
    with Cache(path) as cache:
        assert cache.stats()["pages"] == 120
        assert cache.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert not Path(f"{path}.corrupt").exists()


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_a_fifo_or_a_device_is_refused_at_once(tmp_path: Path, kind: str) -> None:
    """Issue 26 item 12: `--cache` on a FIFO hung (reading its header waits for a writer forever)."""
    import os
    import threading

    if kind == "fifo":
        path = tmp_path / "cache.fifo"
        os.mkfifo(path)
    else:
        path = Path("/dev/null")
    outcome: dict[str, object] = {}

    def run() -> None:
        outcome["audit"] = CliRunner().invoke(main, ["audit", str(_memo(tmp_path)), "--cache", str(path),
                                                     "--allow", "127.0.0.1:9"])
        outcome["stats"] = CliRunner().invoke(main, ["cache", "stats", "--cache", str(path)])

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(60)
    if worker.is_alive():  # unblock the reader so the test process can end, then fail
        with open(path, "wb"):
            pass
        pytest.fail(f"--cache {path} hung")
    for name in ("audit", "stats"):
        result = outcome[name]
        assert result.exit_code == 2, (name, result.output)  # type: ignore[attr-defined]
        assert "not a citecheck cache file" in result.stderr  # type: ignore[attr-defined]
        assert len(result.stderr.strip().splitlines()) == 1  # type: ignore[attr-defined]
    said = {"fifo": "is a FIFO", "device": "is a character device"}[kind]
    assert said in outcome["audit"].stderr  # type: ignore[attr-defined]
