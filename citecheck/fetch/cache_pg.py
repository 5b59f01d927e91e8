"""The team cache: the same facts as the SQLite cache, in one PostgreSQL database every runner shares.

Chosen by a `postgresql://` URL or a libpq `key=value` string (`citecheck.fetch.pgdsn`) in `--cache`,
`CITECHECK_CACHE_URL` or `fetch.cache`. It holds the
same rows with the same lifetimes by kind and answers under the same policy rule as
`citecheck.fetch.cache.Cache` (the shared logic lives in `FactCache`); what differs:

- the schema is citecheck's (tables `citecheck_*`, version in `citecheck_meta`), created and
  upgraded only by `citecheck cache migrate` (`citecheck.fetch.pgschema`); a runner refuses a
  database without it, or of another version, in one line;
- writes are upserts where the newest fact wins (`fetched`), so concurrent runners lose nothing;
- single-flight: `claim(url)` takes a lease row (`citecheck_leases`, expiry on the server's clock)
  so one runner fetches a URL while the others wait for its facts; `put_many` ends the claim on
  every page handed in, `close` ends all of the runner's claims, and a killed runner's lease simply
  expires after `CITECHECK_CACHE_LEASE` seconds (default 60);
- a per-host budget every runner shares (`take_host_slot`, `reserve_start`; the waiting is
  `citecheck.fetch.hosts.Slots`'s): `host-concurrency` counts the requests of all runners in flight
  to a host, `host-interval` spaces all runners' requests to it;
- connections come from a bounded pool (psycopg_pool, at most `_POOL_MAX` per process);
- the database being unreachable, the credentials wrong, or an error mid-run is `CacheError`: one
  line, exit 2, never a silent run without the cache. Every password is masked in every message
  (`pgdsn.mask`, `pgdsn.scrub`), and a URL whose userinfo would split differently is refused unsent.

psycopg and psycopg_pool (the `postgres` extra) are imported only when a team cache is used.
"""
from __future__ import annotations

import json
import os
import re
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

from citecheck.errors import CacheError
from citecheck.fetch.cache import FactCache, decode
from citecheck.fetch.pgdsn import mask, scrub, unparseable
from citecheck.urls import fact_key

if TYPE_CHECKING:
    from citecheck.fetch.guard import Guard
    from citecheck.models import Page

__all__ = ["PgCache", "lease_seconds", "mask", "storable"]
T = TypeVar("T")
_POOL_MAX = 2
_COLUMNS = ("key", "url", "fetched", "kind", "policy", "outcome", "facts", "text", "html", "sibling")
_UPSERT = (f"INSERT INTO citecheck_pages ({', '.join(_COLUMNS)}) VALUES ({', '.join(['%s'] * len(_COLUMNS))}) "
           "ON CONFLICT (key) DO UPDATE SET " + ", ".join(f"{c} = EXCLUDED.{c}" for c in _COLUMNS[1:])
           + " WHERE citecheck_pages.fetched <= EXCLUDED.fetched")
_NOW = "extract(epoch from clock_timestamp())"
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def storable(value: Any) -> Any:
    """A text value PostgreSQL's `text` takes: NUL and lone surrogates (a page may hold both; the
    driver refuses the first, UTF-8 cannot encode the second) become U+FFFD. Only the text samples
    can hold them (the facts column is JSON, which escapes both); a title keeps its NUL there."""
    if not isinstance(value, str) or (value.isascii() and "\x00" not in value):
        return value
    return _UNSTORABLE.sub("\ufffd", value)


def lease_seconds() -> float:
    """How long a claim holds before another runner may take the URL over (CITECHECK_CACHE_LEASE)."""
    raw = os.environ.get("CITECHECK_CACHE_LEASE", "")
    try:
        value = float(raw) if raw else 60.0
    except ValueError:
        raise CacheError(f"CITECHECK_CACHE_LEASE={raw!r} is not a number of seconds") from None
    if not 0 < value <= 3600:
        raise CacheError(f"CITECHECK_CACHE_LEASE={raw!r} must be between 0 and 3600 seconds")
    return value


def _drivers() -> tuple[Any, Any]:
    try:
        import psycopg
        import psycopg_pool
    except ImportError:
        raise CacheError("a PostgreSQL cache needs psycopg 3 and psycopg-pool: pip install 'citecheck[postgres]'") \
            from None
    return psycopg, psycopg_pool


def failure(url: str, err: BaseException) -> CacheError:
    """One line naming the masked URL and the first line of the driver's reason, secrets scrubbed."""
    reason = (str(err).strip().splitlines() or [type(err).__name__])[0]
    return CacheError(f"team cache {mask(url)}: {scrub(reason, url)}")


def refuse_unparseable(url: str) -> None:
    """CacheError before the driver sees a URL it would split elsewhere than urllib (and echo)."""
    why = unparseable(url)
    if why:
        raise CacheError(f"team cache {mask(url)}: {why}")


def connect(url: str) -> Any:
    """One autocommit connection (for `cache migrate` and the check before a pool is made)."""
    refuse_unparseable(url)
    psycopg, _ = _drivers()
    try:
        return psycopg.connect(url, autocommit=True, connect_timeout=10)
    except psycopg.Error as err:
        raise failure(url, err) from None


class PgCache(FactCache):
    """`PgCache(url, guard)`: the PostgreSQL backend (see the module docstring)."""

    shared = True

    def __init__(self, url: str, guard: Guard | None = None) -> None:
        from citecheck.fetch.pgschema import check_version

        super().__init__(guard)
        refuse_unparseable(url)
        self.url, self.path = url, mask(url)
        self.owner = uuid.uuid4().hex
        self.lease = lease_seconds()
        psycopg, psycopg_pool = _drivers()
        self._error = psycopg.Error
        with connect(url) as conn:  # a clear error (credentials, host, schema) before any pool exists
            check_version(conn, self.path)
        self.pool = psycopg_pool.ConnectionPool(url, min_size=1, max_size=_POOL_MAX, open=False,
                                                kwargs={"autocommit": True}, timeout=30)
        self._run(lambda: self.pool.open(wait=True, timeout=30))

    def _run(self, action: Callable[[], T]) -> T:
        try:
            return action()
        except self._error as err:
            raise failure(self.url, err) from None
        except Exception as err:  # psycopg_pool's PoolTimeout and friends are not psycopg.Error
            if type(err).__module__.startswith("psycopg"):
                raise failure(self.url, err) from None
            raise

    def _query(self, sql: str, params: Any = None) -> list[tuple[Any, ...]]:
        def run() -> list[tuple[Any, ...]]:
            with self.pool.connection() as conn, conn.cursor() as cur:
                cur.execute(sql, params)
                return cur.fetchall() if cur.description else []
        return self._run(run)

    def _rows(self, column: str, values: list[str], oldest: tuple[float, float]) -> Iterator[tuple[str, Page]]:
        if not values:
            return
        for value, *row in self._query(
                f"SELECT {column}, facts, text, html, sibling FROM citecheck_pages WHERE {column} = ANY(%s) "
                "AND policy IN (%s, %s) AND ((kind = 'answer' AND fetched >= %s) OR (kind = 'nxdomain' AND fetched >= %s))",
                [values, *self.policies, *oldest]):
            yield value, decode(*row)

    def _every_row(self) -> Iterator[tuple[float, str, Page]]:
        for fetched, kind, *row in self._query(
                "SELECT fetched, kind, facts, text, html, sibling FROM citecheck_pages WHERE policy IN (%s, %s) "
                "ORDER BY url", [*self.policies]):
            yield fetched, kind, decode(*row)

    def _write(self, rows: list[dict[str, Any]], pages: list[Page]) -> int:
        """Upsert the rows and end the leases. A failure costs a warning, never the run's findings:
        the facts were judged already, and the next runner fetches them again."""
        keys = list({fact_key(page.url) for page in pages})
        values = [[storable(row[c]) for c in _COLUMNS] for row in sorted(rows, key=lambda r: r["key"])]

        def write() -> None:
            with self.pool.connection() as conn, conn.transaction(), conn.cursor() as cur:
                if values:
                    cur.executemany(_UPSERT, values)
                if keys:
                    cur.execute("DELETE FROM citecheck_leases WHERE key = ANY(%s)", [keys])
        if not rows and not keys:
            return 0
        if self._store(write, f"{len(rows)} fact(s)"):
            return len(rows)
        try:
            self.release_keys(keys)
        except CacheError:
            pass  # the leases expire by themselves
        return 0

    def _store(self, write: Callable[[], None], what: str) -> bool:
        """Run a write; a failure is a warning (the findings are made already), never the run's end."""
        try:
            self._run(write)
        except CacheError as err:
            print(f"citecheck: warning: {err}; {what} not stored, the run goes on", file=sys.stderr)
            return False
        return True

    def claim(self, url: str) -> bool:
        """Take the lease on `url` (True) unless another runner holds an unexpired one (False)."""
        return bool(self.claim_keys([fact_key(url)], 1))

    def claim_keys(self, keys: list[str], limit: int) -> list[str]:
        """Take the leases of at most `limit` of the fact `keys` (`urls.fact_key`), first ones first, that no
        runner holds now; returns the keys claimed."""
        if not keys or limit < 1:
            return []
        rows = self._query(
            "WITH wanted AS (SELECT k, n FROM unnest(%s::text[]) WITH ORDINALITY AS t(k, n)), "
            "free AS (SELECT w.k FROM wanted w LEFT JOIN citecheck_leases l ON l.key = w.k "
            f"  WHERE l.key IS NULL OR l.expires < {_NOW} ORDER BY w.n LIMIT %s) "
            f"INSERT INTO citecheck_leases (key, owner, expires) SELECT k, %s, {_NOW} + %s FROM free "
            "ON CONFLICT (key) DO UPDATE SET owner = EXCLUDED.owner, expires = EXCLUDED.expires "
            f"WHERE citecheck_leases.expires < {_NOW} RETURNING key", [keys, limit, self.owner, self.lease])
        return [key for key, in rows]

    def renew_leases(self) -> None:
        """Move the expiry of every lease this runner holds a full lease ahead (it is alive and on them)."""
        self._query(f"UPDATE citecheck_leases SET expires = {_NOW} + %s WHERE owner = %s", [self.lease, self.owner])

    def release_keys(self, keys: list[str]) -> None:
        """End this runner's claims on the fact `keys`."""
        if keys:
            self._query("DELETE FROM citecheck_leases WHERE key = ANY(%s) AND owner = %s", [keys, self.owner])

    def take_host_slot(self, host: str, limit: int, hold: float) -> int | None:
        """One of the `limit` request slots of `host` (a host:port) all runners share, held for at
        most `hold` seconds unless freed sooner; None while every one is held."""
        rows = self._query(
            "WITH free AS (SELECT s FROM generate_series(0, %(limit)s - 1) AS s WHERE NOT EXISTS ("
            "    SELECT 1 FROM citecheck_host_slots h WHERE h.host = %(host)s AND h.slot = s "
            f"   AND h.expires >= {_NOW}) ORDER BY random() LIMIT 1) "
            "INSERT INTO citecheck_host_slots (host, slot, owner, expires) "
            f"SELECT %(host)s, s, %(owner)s, {_NOW} + %(hold)s FROM free "
            "ON CONFLICT (host, slot) DO UPDATE SET owner = EXCLUDED.owner, expires = EXCLUDED.expires "
            f"WHERE citecheck_host_slots.expires < {_NOW} RETURNING slot",
            {"host": host, "limit": limit, "owner": self.owner, "hold": hold})
        return int(rows[0][0]) if rows else None

    def free_host_slot(self, host: str, slot: int) -> None:
        """End this runner's hold on a slot `take_host_slot` gave it."""
        self._query("DELETE FROM citecheck_host_slots WHERE host = %s AND slot = %s AND owner = %s",
                    [host, slot, self.owner])

    def reserve_start(self, host: str, interval: float) -> float:
        """Reserve the next start `interval` seconds after the last one any runner reserved for
        `host`; returns how many seconds from now it is (0: at once)."""
        now = "extract(epoch from statement_timestamp())"
        (wait,), = self._query(
            f"INSERT INTO citecheck_hosts AS h (host, next_at) VALUES (%(host)s, {now} + %(gap)s) "
            f"ON CONFLICT (host) DO UPDATE SET next_at = greatest(h.next_at, {now}) + %(gap)s "
            f"RETURNING h.next_at - %(gap)s - {now}", {"host": host, "gap": interval})
        return max(0.0, float(wait))

    def fetched_at(self, urls: list[str]) -> dict[str, float]:
        if not urls:
            return {}
        return dict(self._query("SELECT url, fetched FROM citecheck_pages WHERE url = ANY(%s) AND policy IN (%s, %s)",
                                [urls, *self.policies]))  # type: ignore[arg-type]

    def get_extras(self, kind: str, keys: list[str]) -> dict[str, dict[str, Any]]:
        if not keys:
            return {}
        return {key: json.loads(data) for key, data in self._query(
            "SELECT key, data FROM citecheck_extras WHERE kind = %s AND key = ANY(%s)", [kind, keys])}

    def put_extras(self, kind: str, items: dict[str, dict[str, Any]]) -> None:
        if not items:
            return
        now = time.time()

        def write() -> None:
            with self.pool.connection() as conn, conn.cursor() as cur:
                cur.executemany(
                    "INSERT INTO citecheck_extras (kind, key, stored, data) VALUES (%s, %s, %s, %s) "
                    "ON CONFLICT (kind, key) DO UPDATE SET stored = EXCLUDED.stored, data = EXCLUDED.data",
                    [[kind, key, now, json.dumps(value)] for key, value in sorted(items.items())])
        self._store(write, f"{len(items)} {kind} record(s)")

    def stats(self) -> dict[str, Any]:
        by_outcome = dict(self._query("SELECT outcome, COUNT(*) FROM citecheck_pages GROUP BY outcome ORDER BY outcome"))
        by_kind = dict(self._query("SELECT kind, COUNT(*) FROM citecheck_pages GROUP BY kind ORDER BY kind"))
        (oldest, newest), = self._query("SELECT MIN(fetched), MAX(fetched) FROM citecheck_pages")
        (extras,), = self._query("SELECT COUNT(*) FROM citecheck_extras")
        (leases,), = self._query(f"SELECT COUNT(*) FROM citecheck_leases WHERE expires >= {_NOW}")
        (slots,), = self._query(f"SELECT COUNT(*) FROM citecheck_host_slots WHERE expires >= {_NOW}")
        (size,), = self._query("SELECT COALESCE(SUM(pg_total_relation_size(c.oid)), 0) FROM pg_class c "
                               "WHERE c.relname IN ('citecheck_pages', 'citecheck_extras', 'citecheck_leases', "
                               "'citecheck_host_slots', 'citecheck_hosts') "
                               "AND pg_table_is_visible(c.oid)")
        return {"path": self.path, "backend": "postgresql", "pages": sum(by_outcome.values()), "by_kind": by_kind,
                "by_outcome": by_outcome, "extras": extras, "bytes": int(size), "oldest": oldest, "newest": newest,
                "writable": True, "leases": leases, "host_slots": slots}

    def prune(self, max_age_days: float) -> int:
        answers, nxdomains = self._oldest(max_age_days)
        gone = self._count("DELETE FROM citecheck_pages WHERE (kind = 'nxdomain' AND fetched < %s) OR fetched < %s",
                           [nxdomains, answers])
        gone += self._count("DELETE FROM citecheck_extras WHERE stored < %s", [answers])
        for table in ("citecheck_leases", "citecheck_host_slots"):
            self._count(f"DELETE FROM {table} WHERE expires < {_NOW}")
        self._count(f"DELETE FROM citecheck_hosts WHERE next_at < {_NOW}")
        return gone

    def clear(self) -> int:
        gone = self._count("DELETE FROM citecheck_pages")
        gone += self._count("DELETE FROM citecheck_extras")
        for table in ("citecheck_leases", "citecheck_host_slots", "citecheck_hosts"):
            self._count(f"DELETE FROM {table}")
        return gone

    def _count(self, sql: str, params: Any = None) -> int:
        def run() -> int:
            with self.pool.connection() as conn, conn.cursor() as cur:
                cur.execute(sql, params)
                return max(cur.rowcount, 0)
        return self._run(run)

    def close(self) -> None:
        try:
            self.release_all()
        finally:
            self.pool.close()

    def release_all(self) -> None:
        try:
            self._query("DELETE FROM citecheck_leases WHERE owner = %s", [self.owner])
            self._query("DELETE FROM citecheck_host_slots WHERE owner = %s", [self.owner])
        except CacheError:
            pass  # the database went away: the leases expire by themselves
