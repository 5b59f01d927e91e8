"""The fetch cache: facts of past fetches in SQLite (the standard library's sqlite3), keyed by the URL fetched.

Stores facts, never verdicts, each with a lifetime by kind (DESIGN.md "The cache"):

- `answer`: a response the origin sent (2xx, or a 4xx that makes a page dead), its redirect chain
  and body facts: fresh for `--max-age` days (30);
- `nxdomain`: a "no such name" the run corroborated (`citecheck.fetch.dns`): at most one day;
- everything else — timeouts, resets, refused connections, uncorroborated resolver failures, 5xx,
  429, challenges, incomplete bodies, guard refusals — is never stored.

The run's URL policy speaks before the cache does: `Cache(path, guard)` answers only for URLs the
guard would fetch now (scheme, credentials, address spellings, `--allow`, `--allow-private`), and
only with rows fetched under the strict default policy or under this very policy (`Guard.key`), so
a page fetched with `--allow 127.0.0.1:P` is never served to a run without it.

A fact answers only for the URL fetched (`urls.fact_key`), never for another spelling of the same
source (`www.`, a trailing slash, a query value): the dedupe key merges citations and IDs, not verdicts.

WAL mode and a busy timeout let two processes audit at once. Which files it opens, refuses or
rebuilds: `citecheck.fetch.cachefile`. A corrupt cache of its own is reported on stderr, moved aside
and rebuilt: the cache can make a run faster, never make it fail.
"""
from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import sys
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self, TypeVar

from citecheck.config import default_cache_path
from citecheck.errors import CacheError, InputError
from citecheck.fetch.cachefile import APPLICATION_ID, SCHEMA, header_mark, locked, open_cache
from citecheck.fetch.pgdsn import is_dsn as is_team_cache  # a URL or a libpq key=value string
from citecheck.models import Hop, Outcome, Page
from citecheck.urls import fact_key

__all__ = ["NXDOMAIN_DAYS", "SCHEMA", "Cache", "FactCache", "cacheable", "default_path", "fact_kind", "is_team_cache",
           "open_store", "policy_key"]
_SAMPLES = {"text": "text_sample", "html": "html_sample", "sibling": "sibling_text"}
DAY = 86400.0
NXDOMAIN_DAYS = 1.0
_FIELDS = {f.name for f in fields(Page)}
T = TypeVar("T")

if TYPE_CHECKING:
    from citecheck.fetch.guard import Guard


def default_path() -> Path:
    return default_cache_path()


def fact_kind(page: Page) -> str | None:
    """The kind of fact a fresh page is ('answer' or 'nxdomain'), or None when it must not be stored."""
    if page.from_cache:
        return None
    if page.outcome is Outcome.OK:
        return "answer"
    if page.outcome is Outcome.DEAD:
        if page.error == "nxdomain":
            return "nxdomain"
        if page.status is not None and 400 <= page.status < 500:
            return "answer"
    return None


def cacheable(page: Page) -> bool:
    """Only settled facts: a page that answered, or one that is dead on evidence."""
    return fact_kind(page) is not None


def policy_key(allow: Iterable[str] = (), allow_private: bool = False, headers: Mapping[str, Any] | None = None) -> str:
    """'' for the strict default policy, else a digest of what the policy lets through and of the
    per-host request headers it sends (an answer to a token is not an answer to a run without it)."""
    sent = {str(h).lower(): {str(k).lower(): str(v) for k, v in vs.items()} for h, vs in (headers or {}).items() if vs}
    key: list[Any] = [sorted({entry.strip() for entry in allow}), allow_private] + ([sent] if sent else [])
    return "" if key == [[], False] else hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:16]


def encode(page: Page, kind: str, policy: str) -> dict[str, Any]:
    """A row: small facts as JSON, the bulky samples as plain text columns (fast to read back)."""
    facts = page.to_dict()
    samples = {column: facts.pop(name) for column, name in _SAMPLES.items()}
    return {"key": fact_key(page.url), "url": page.url, "fetched": time.time(), "kind": kind, "policy": policy,
            "outcome": page.outcome.value, "facts": json.dumps(facts, separators=(",", ":")), **samples}


def decode(facts: str, text: str | None, html: str | None, sibling: str | None) -> Page:
    data = json.loads(facts)
    data["outcome"] = Outcome(data["outcome"])
    data["chain"] = tuple(Hop(**hop) for hop in data.get("chain", ()))
    data.update(text_sample=text or "", html_sample=html or "", sibling_text=sibling, from_cache=True)
    return Page(**{k: v for k, v in data.items() if k in _FIELDS})


def open_store(location: str | Path | None = None, guard: Guard | None = None) -> FactCache:
    """The cache `location` names: a PostgreSQL URL → the team cache (`citecheck.fetch.cache_pg`,
    imported only then), anything else → the SQLite file (default: the XDG cache dir)."""
    if is_team_cache(location):
        from citecheck.fetch.cache_pg import PgCache

        return PgCache(str(location), guard)
    return Cache(location, guard)


class FactCache(ABC):
    """The backend interface: get/put pages under the run's URL policy, get_extras/put_extras side
    records, stats, prune, clear, close. Subclasses store rows (`_rows`, `_write`); the policy
    check, the lifetimes by kind and the choice of what is stored live here, once for every backend.

    `guard` is the current run's URL policy (`fetch.guard.Guard`); None means the strictest one."""

    shared = False  # True for a backend several runners use at once (single-flight fetching)
    writable = True
    path: Path | str  # where it is, for messages (a team cache's URL with its password masked)

    def __init__(self, guard: Guard | None = None) -> None:
        self._guard_policy = guard
        self.policy = guard.key if guard is not None else ""
        # rows it reads: the strict policy's and its own, only its own when it sends headers of its own
        self.policies = (self.policy, self.policy) if guard is not None and guard.sends_headers else ("", self.policy)

    @abstractmethod
    def _rows(self, column: str, values: list[str], oldest: tuple[float, float]) -> Iterator[tuple[str, Page]]:
        """Stored (key, page) rows whose `column` is one of `values` and that are newer than `oldest`."""

    @abstractmethod
    def _write(self, rows: list[dict[str, Any]], pages: list[Page]) -> int:
        """Store encoded rows (upsert by key); `pages` are every page handed in. Returns how many stored."""

    @abstractmethod
    def get_extras(self, kind: str, keys: list[str]) -> dict[str, dict[str, Any]]:
        """Side records of `kind` by key (robots.txt rules, harvest memos)."""

    @abstractmethod
    def put_extras(self, kind: str, items: dict[str, dict[str, Any]]) -> None:
        """Store side records of `kind` (upsert by key)."""

    @abstractmethod
    def _every_row(self) -> Iterator[tuple[float, str, Page]]:
        """Every stored (fetched, kind, page) whose policy is '' or this run's, in URL order."""

    @abstractmethod
    def fetched_at(self, urls: list[str]) -> dict[str, float]:
        """When each URL's stored fact was fetched (epoch seconds), for the URLs that have one."""

    @abstractmethod
    def stats(self) -> dict[str, Any]:
        """Row counts by kind, size and location, for `citecheck cache stats`."""

    @abstractmethod
    def prune(self, max_age_days: float) -> int:
        """Delete facts older than their lifetime (or `max_age_days`); returns how many."""

    @abstractmethod
    def clear(self) -> int:
        """Delete every row citecheck stored; returns how many."""

    @abstractmethod
    def close(self) -> None:
        """Release the connection(s)."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _guard(self, action: Callable[[], T], fallback: T) -> T:
        """Run a storage operation (a backend may turn some failures into a warning and `fallback`)."""
        return action()

    def _policy(self) -> Guard:
        if self._guard_policy is None:
            from citecheck.fetch.guard import Guard

            self._guard_policy = Guard()
        return self._guard_policy

    def admits(self, url: str) -> bool:
        """Whether the current policy would fetch `url` at all (checked before any lookup)."""
        from citecheck.fetch.guard import Refused

        try:
            self._policy().vet_url(url)
        except Refused:
            return False
        return True

    def get(self, url: str, max_age_days: float) -> Page | None:
        return self.get_many([url], max_age_days).get(url)

    def get_many(self, urls: Iterable[str], max_age_days: float, vetted: bool = False) -> dict[str, Page]:
        """Fresh cached pages for the URLs this run's policy may fetch, keyed by the URL asked for
        (`vetted`: the caller has had each URL through `admits` already)."""
        admitted = [url for url in dict.fromkeys(urls) if vetted or self.admits(url)]
        return self._guard(lambda: self._select(admitted, self._oldest(max_age_days)), {})

    @staticmethod
    def _oldest(max_age_days: float) -> tuple[float, float]:
        """The oldest fetch time still fresh, for answers and for NXDOMAIN facts."""
        now = time.time()
        return now - max_age_days * DAY, now - min(max_age_days, NXDOMAIN_DAYS) * DAY

    def _select(self, urls: list[str], oldest: tuple[float, float]) -> dict[str, Page]:
        """Facts stored for exactly these URLs (by `fact_key`, one indexed lookup per 500)."""
        asked: dict[str, list[str]] = {}
        for url in urls:
            asked.setdefault(fact_key(url), []).append(url)
        found: dict[str, Page] = {}
        for key, page in self._rows("key", list(asked), oldest):
            if not self._policy().holds(page):
                continue  # not what this run would find: a walk it would not make, a body its caps read otherwise
            for url in asked[key]:
                found[url] = page if page.url == url else replace(page, url=url)
        return found

    def put(self, page: Page) -> None:
        self.put_many([page])

    def every_fact(self) -> Iterator[tuple[float, str, Page]]:
        """Every stored fact this run's policy may see, whatever its age, in URL order, as
        (fetched epoch seconds, kind, page): the master list of every source the cache's runs
        have fetched (`citecheck curate --from-cache`)."""
        none: list[tuple[float, str, Page]] = []
        for fetched, kind, page in self._guard(lambda: list(self._every_row()), none):
            if self.admits(page.url):
                yield fetched, kind, page

    def put_many(self, pages: Iterable[Page]) -> int:
        """Store the facts worth storing (see `fact_kind`); returns how many were stored. On a shared
        backend this also ends this runner's claim on every page handed in (`fetch.flight`)."""
        pages = list(pages)
        rows = []
        for page in pages:
            kind = fact_kind(page)
            if kind is not None:
                rows.append(encode(page, kind, self.policy))
        return self._write(rows, pages)

    def get_extra(self, kind: str, key: str) -> dict[str, Any] | None:
        return self.get_extras(kind, [key]).get(key)

    def put_extra(self, kind: str, key: str, value: dict[str, Any]) -> None:
        self.put_extras(kind, {key: value})


class Cache(FactCache):
    """`Cache(path, guard)`: the SQLite backend (one file per machine; the default)."""

    path: Path

    def __init__(self, path: str | Path | None = None, guard: Guard | None = None) -> None:
        super().__init__(guard)
        self.path = Path(path) if path else default_path()
        self.conn, self.writable = self._open()

    def _open(self) -> tuple[sqlite3.Connection, bool]:
        try:
            opened = open_cache(self.path)
        except sqlite3.DatabaseError as err:
            if locked(err):
                raise InputError(f"{self.path}: cache is locked: {err}") from None
            if header_mark(self.path)[1] != APPLICATION_ID:
                raise CacheError(f"{self.path}: an unreadable SQLite file citecheck did not create; left alone") from None
            self._rebuild(err)
            opened = open_cache(self.path)
        except OSError as err:
            raise InputError(f"{self.path}: cannot open the cache: {err.strerror or err}") from None
        return opened.conn, opened.writable

    def _rebuild(self, err: BaseException) -> None:
        """Only ever called for a file marked as citecheck's own."""
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
            if locked(err) or not self.writable:
                print(f"citecheck: warning: cache {self.path} is busy or read-only ({err}); skipped", file=sys.stderr)
                return fallback
            self.conn.close()
            self._rebuild(err)
            self.conn, self.writable = self._open()
            return fallback

    def _rows(self, column: str, values: list[str], oldest: tuple[float, float]) -> Iterator[tuple[str, Page]]:
        for start in range(0, len(values), 500):
            chunk = values[start:start + 500]
            marks = ",".join("?" * len(chunk))
            rows = self.conn.execute(
                f"SELECT {column}, facts, text, html, sibling FROM pages WHERE {column} IN ({marks}) "
                "AND policy IN (?, ?) AND ((kind = 'answer' AND fetched >= ?) OR (kind = 'nxdomain' AND fetched >= ?))",
                [*chunk, *self.policies, *oldest])
            for value, *row in rows:
                yield value, decode(*row)

    def _every_row(self) -> Iterator[tuple[float, str, Page]]:
        for fetched, kind, *row in self.conn.execute(
                "SELECT fetched, kind, facts, text, html, sibling FROM pages WHERE policy IN (?, ?) ORDER BY url",
                [*self.policies]):
            yield fetched, kind, decode(*row)

    def _write(self, rows: list[dict[str, Any]], pages: list[Page]) -> int:
        if rows and self.writable:
            self._guard(lambda: self._upsert("pages", rows), None)
        return len(rows) if self.writable else 0

    def _upsert(self, table: str, rows: list[dict[str, Any]]) -> None:
        """Insert `rows` (dicts with the same keys) into `table`, replacing rows with the same key,
        in one transaction."""
        columns = list(rows[0])
        with self.conn:
            self.conn.executemany(f"INSERT OR REPLACE INTO {table} ({', '.join(columns)}) "
                                  f"VALUES ({', '.join('?' * len(columns))})", [[row[c] for c in columns] for row in rows])

    def fetched_at(self, urls: list[str]) -> dict[str, float]:
        """When each URL's stored facts were fetched (URLs as stored; absent when not cached)."""
        def read() -> dict[str, float]:
            out: dict[str, float] = {}
            for start in range(0, len(urls), 500):
                chunk = urls[start:start + 500]
                marks = ",".join("?" * len(chunk))
                out.update(self.conn.execute(f"SELECT url, fetched FROM pages WHERE url IN ({marks}) "
                                                "AND policy IN (?, ?)", [*chunk, *self.policies]))
            return out
        return self._guard(read, {}) if urls else {}

    def get_extras(self, kind: str, keys: list[str]) -> dict[str, dict[str, Any]]:
        """Several side-table records in one query (key → data)."""
        def read() -> dict[str, dict[str, Any]]:
            out: dict[str, dict[str, Any]] = {}
            for start in range(0, len(keys), 500):  # under SQLite's bound-parameter limit
                chunk = keys[start:start + 500]
                marks = ",".join("?" * len(chunk))
                for key, data in self.conn.execute(
                        f"SELECT key, data FROM extras WHERE kind = ? AND key IN ({marks})", [kind, *chunk]):
                    out[key] = json.loads(data)
            return out
        return self._guard(read, {}) if keys else {}

    def put_extras(self, kind: str, items: dict[str, dict[str, Any]]) -> None:
        """Several side-table records in one transaction (nothing when the cache is read-only)."""
        now = time.time()
        rows = [{"kind": kind, "key": key, "stored": now, "data": json.dumps(value)} for key, value in items.items()]
        if rows and self.writable:
            self._guard(lambda: self._upsert("extras", rows), None)

    def stats(self) -> dict[str, Any]:
        conn = self.conn
        by_outcome = dict(conn.execute("SELECT outcome, COUNT(*) FROM pages GROUP BY outcome ORDER BY outcome"))
        by_kind = dict(conn.execute("SELECT kind, COUNT(*) FROM pages GROUP BY kind ORDER BY kind"))
        oldest, newest = conn.execute("SELECT MIN(fetched), MAX(fetched) FROM pages").fetchone()
        size = sum(Path(f"{self.path}{s}").stat().st_size for s in ("", "-wal") if Path(f"{self.path}{s}").exists())
        return {"path": str(self.path), "pages": sum(by_outcome.values()), "by_kind": by_kind,
                "by_outcome": by_outcome, "extras": conn.execute("SELECT COUNT(*) FROM extras").fetchone()[0],
                "bytes": size, "oldest": oldest, "newest": newest, "writable": self.writable}

    def prune(self, max_age_days: float) -> int:
        """Drop facts past their lifetime (answers after `max_age_days`, NXDOMAIN after at most a day)
        and extras older than `max_age_days`; returns how many rows went."""
        answers, nxdomains = self._oldest(max_age_days)
        self._writable_or_fail()
        with self.conn:
            gone = self.conn.execute("DELETE FROM pages WHERE (kind = 'nxdomain' AND fetched < ?) OR fetched < ?",
                                        [nxdomains, answers]).rowcount
            gone += self.conn.execute("DELETE FROM extras WHERE stored < ?", [answers]).rowcount
        return gone

    def clear(self) -> int:
        self._writable_or_fail()
        with self.conn:
            gone = self.conn.execute("DELETE FROM pages").rowcount
            gone += self.conn.execute("DELETE FROM extras").rowcount
        return gone

    def _writable_or_fail(self) -> None:
        if not self.writable:
            raise InputError(f"{self.path}: the cache is read-only here")

    def close(self) -> None:
        self.conn.close()
