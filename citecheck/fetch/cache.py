"""The fetch cache: facts of past fetches in SQLite (sqlite-utils), keyed by canonical URL.

Stores facts, never verdicts; transient failures and unverifiable results are never stored.
WAL mode and a busy timeout let two processes audit at once. A corrupt file is reported on stderr,
moved aside and rebuilt: the cache can make a run faster, never make it fail.
"""
from __future__ import annotations

import json
import os
import sqlite3
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self, TypeVar

from citecheck.config import default_cache_path
from citecheck.errors import InputError
from citecheck.models import Hop, Outcome, Page
from citecheck.urls import dedupe_key

SCHEMA = 2
_SAMPLES = {"text": "text_sample", "html": "html_sample", "sibling": "sibling_text"}
DAY = 86400.0
_FIELDS = {f.name for f in fields(Page)}
T = TypeVar("T")

if TYPE_CHECKING:
    import sqlite_utils


def _sqlite_utils() -> Any:
    """sqlite-utils, imported without numpy and pandas unless the process has them loaded already.

    sqlite_utils.db imports both when installed, only to convert their scalar types on insert; the
    cache inserts plain str/float/int, and numpy alone is ~0.2 s of every online run's start. The
    modules are hidden only for the duration of this import (a later `import numpy` works)."""
    if "sqlite_utils" in sys.modules:
        return sys.modules["sqlite_utils"]
    hidden = [name for name in ("numpy", "pandas") if name not in sys.modules]
    for name in hidden:
        sys.modules[name] = None  # type: ignore[assignment]  # makes `import numpy` raise ImportError
    try:
        import sqlite_utils
    finally:
        for name in hidden:
            if sys.modules.get(name, False) is None:
                del sys.modules[name]
    return sqlite_utils


def default_path() -> Path:
    return default_cache_path()


def cacheable(page: Page) -> bool:
    """Only settled facts: a page that answered, or one that is dead for a lasting reason."""
    if page.from_cache:
        return False
    if page.outcome is Outcome.OK:
        return True
    return page.outcome is Outcome.DEAD and page.error != "server-error"


def encode(page: Page) -> dict[str, Any]:
    """A row: small facts as JSON, the bulky samples as plain text columns (fast to read back)."""
    facts = page.to_dict()
    samples = {column: facts.pop(name) for column, name in _SAMPLES.items()}
    return {"key": dedupe_key(page.url), "url": page.url, "fetched": time.time(), "outcome": page.outcome.value,
            "facts": json.dumps(facts, separators=(",", ":")), **samples}


def decode(facts: str, text: str | None, html: str | None, sibling: str | None) -> Page:
    data = json.loads(facts)
    data["outcome"] = Outcome(data["outcome"])
    data["chain"] = tuple(Hop(**hop) for hop in data.get("chain", ()))
    data.update(text_sample=text or "", html_sample=html or "", sibling_text=sibling, from_cache=True)
    return Page(**{k: v for k, v in data.items() if k in _FIELDS})


class Cache:
    """`Cache(path)`: get/put pages, get_extra/put_extra side records, stats, prune, clear."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path else default_path()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise InputError(f"{self.path}: cannot create the cache folder: {err.strerror}") from None
        self.db = self._open()

    def _open(self) -> sqlite_utils.Database:
        try:
            return self._connect()
        except sqlite3.DatabaseError as err:
            if _locked(err):
                raise InputError(f"{self.path}: cache is locked: {err}") from None
            self._rebuild(err)
            return self._connect()

    def _connect(self) -> sqlite_utils.Database:
        conn = sqlite3.connect(str(self.path), timeout=30.0, check_same_thread=False)
        try:
            conn.execute("PRAGMA busy_timeout=30000")
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            db = _sqlite_utils().Database(conn)
            if conn.execute("PRAGMA user_version").fetchone()[0] != SCHEMA:
                with conn:  # a cache from another schema is dropped, not migrated
                    conn.execute("DROP TABLE IF EXISTS pages")
                    conn.execute("CREATE TABLE pages (key TEXT PRIMARY KEY, url TEXT, fetched REAL, outcome TEXT, "
                                 "facts TEXT, text TEXT, html TEXT, sibling TEXT)")
                    conn.execute("CREATE INDEX IF NOT EXISTS pages_url ON pages (url)")
                    conn.execute("CREATE TABLE IF NOT EXISTS extras (kind TEXT, key TEXT, stored REAL, data TEXT, "
                                 "PRIMARY KEY (kind, key))")
                    conn.execute(f"PRAGMA user_version={SCHEMA}")
            conn.execute("SELECT 1 FROM pages LIMIT 1").fetchall()
            return db
        except sqlite3.DatabaseError:
            conn.close()
            raise

    def _rebuild(self, err: BaseException) -> None:
        print(f"citecheck: warning: cache {self.path} is unreadable ({err}); moved it aside and started a new one",
              file=sys.stderr)
        try:
            os.replace(self.path, f"{self.path}.corrupt")
        except OSError:
            pass
        for suffix in ("-wal", "-shm"):
            Path(f"{self.path}{suffix}").unlink(missing_ok=True)

    def _guard(self, action: Callable[[], T], fallback: T) -> T:
        """Run a cache operation; a locked or corrupt cache costs a warning, never the run."""
        try:
            return action()
        except sqlite3.DatabaseError as err:
            if _locked(err):
                print(f"citecheck: warning: cache {self.path} is busy ({err}); skipped", file=sys.stderr)
                return fallback
            self.db.conn.close()
            self._rebuild(err)
            self.db = self._connect()
            return fallback

    def get(self, url: str, max_age_days: float) -> Page | None:
        return self.get_many([url], max_age_days).get(url)

    def get_many(self, urls: Iterable[str], max_age_days: float) -> dict[str, Page]:
        """Fresh cached pages for the given URLs, keyed by the URL asked for."""
        return self._guard(lambda: self._select(list(dict.fromkeys(urls)), time.time() - max_age_days * DAY), {})

    def _select(self, urls: list[str], oldest: float) -> dict[str, Page]:
        # Exact URLs first (one indexed lookup, no canonicalisation), then the canonical key for the rest.
        found = dict(self._rows("url", urls, oldest))
        rest: dict[str, list[str]] = {}
        for url in urls:
            if url not in found:
                rest.setdefault(dedupe_key(url), []).append(url)
        for key, page in self._rows("key", list(rest), oldest):
            for url in rest[key]:
                found[url] = page
        return {url: page if page.url == url else replace(page, url=url) for url, page in found.items()}

    def _rows(self, column: str, values: list[str], oldest: float) -> Iterator[tuple[str, Page]]:
        for start in range(0, len(values), 500):
            chunk = values[start:start + 500]
            marks = ",".join("?" * len(chunk))
            rows = self.db.conn.execute(f"SELECT {column}, facts, text, html, sibling FROM pages "
                                        f"WHERE fetched >= ? AND {column} IN ({marks})", [oldest, *chunk])
            for value, *row in rows:
                yield value, decode(*row)

    def put(self, page: Page) -> None:
        self.put_many([page])

    def put_many(self, pages: Iterable[Page]) -> int:
        """Store the cacheable pages; returns how many were stored."""
        rows = [encode(p) for p in pages if cacheable(p)]
        if rows:
            self._guard(lambda: self.db.table("pages").insert_all(rows, pk="key", replace=True), None)
        return len(rows)

    def get_extra(self, kind: str, key: str) -> dict[str, Any] | None:
        def read() -> dict[str, Any] | None:
            row = self.db.conn.execute("SELECT data FROM extras WHERE kind = ? AND key = ?", [kind, key]).fetchone()
            return json.loads(row[0]) if row else None
        return self._guard(read, None)

    def put_extra(self, kind: str, key: str, value: dict[str, Any]) -> None:
        row = {"kind": kind, "key": key, "stored": time.time(), "data": json.dumps(value)}
        self._guard(lambda: self.db.table("extras").insert(row, pk=("kind", "key"), replace=True), None)

    def fetched_at(self, urls: list[str]) -> dict[str, float]:
        """When each URL's stored facts were fetched (URLs as stored; absent when not cached)."""
        def read() -> dict[str, float]:
            out: dict[str, float] = {}
            for start in range(0, len(urls), 500):
                chunk = urls[start:start + 500]
                marks = ",".join("?" * len(chunk))
                out.update(self.db.conn.execute(f"SELECT url, fetched FROM pages WHERE url IN ({marks})", chunk))
            return out
        return self._guard(read, {}) if urls else {}

    def get_extras(self, kind: str, keys: list[str]) -> dict[str, dict[str, Any]]:
        """Several side-table records in one query (key → data)."""
        def read() -> dict[str, dict[str, Any]]:
            out: dict[str, dict[str, Any]] = {}
            for start in range(0, len(keys), 500):  # under SQLite's bound-parameter limit
                chunk = keys[start:start + 500]
                marks = ",".join("?" * len(chunk))
                for key, data in self.db.conn.execute(
                        f"SELECT key, data FROM extras WHERE kind = ? AND key IN ({marks})", [kind, *chunk]):
                    out[key] = json.loads(data)
            return out
        return self._guard(read, {}) if keys else {}

    def put_extras(self, kind: str, items: dict[str, dict[str, Any]]) -> None:
        """Several side-table records in one transaction."""
        now = time.time()
        rows = [{"kind": kind, "key": key, "stored": now, "data": json.dumps(value)} for key, value in items.items()]
        if rows:
            self._guard(lambda: self.db.table("extras").insert_all(rows, pk=("kind", "key"), replace=True), None)

    def stats(self) -> dict[str, Any]:
        conn = self.db.conn
        by_outcome = dict(conn.execute("SELECT outcome, COUNT(*) FROM pages GROUP BY outcome ORDER BY outcome"))
        oldest, newest = conn.execute("SELECT MIN(fetched), MAX(fetched) FROM pages").fetchone()
        size = sum(Path(f"{self.path}{s}").stat().st_size for s in ("", "-wal") if Path(f"{self.path}{s}").exists())
        return {"path": str(self.path), "pages": sum(by_outcome.values()), "by_outcome": by_outcome,
                "extras": conn.execute("SELECT COUNT(*) FROM extras").fetchone()[0], "bytes": size,
                "oldest": oldest, "newest": newest}

    def prune(self, max_age_days: float) -> int:
        """Drop pages and extras older than `max_age_days`; returns how many rows went."""
        oldest = time.time() - max_age_days * DAY
        with self.db.conn:
            gone = self.db.conn.execute("DELETE FROM pages WHERE fetched < ?", [oldest]).rowcount
            gone += self.db.conn.execute("DELETE FROM extras WHERE stored < ?", [oldest]).rowcount
        return gone

    def clear(self) -> int:
        with self.db.conn:
            gone = self.db.conn.execute("DELETE FROM pages").rowcount
            gone += self.db.conn.execute("DELETE FROM extras").rowcount
        return gone

    def close(self) -> None:
        self.db.conn.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _locked(err: BaseException) -> bool:
    return isinstance(err, sqlite3.OperationalError) and ("locked" in str(err) or "busy" in str(err))
