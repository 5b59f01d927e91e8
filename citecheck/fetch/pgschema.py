"""The team cache's schema in PostgreSQL: its tables, its version, and `migrate` (the one way it changes).

Runners never create or alter tables: `citecheck cache migrate --cache postgresql://…` does, under
a transaction-scoped advisory lock so two migrations at once are one migration. A runner checks
the version (`check_version`) and refuses, in one line, a database without the schema, of an older
version (run migrate) or of a newer one (upgrade citecheck). Privileges: migrate needs CREATE on the
schema in the search path; runners need SELECT, INSERT, UPDATE, DELETE on the `citecheck_*` tables.

Versions: 1 (facts, side records, single-flight leases), 2 (the shared per-host budget:
`citecheck_host_slots`, `citecheck_hosts`). A migration only adds: the facts of version 1 stay.
"""
from __future__ import annotations

from typing import Any

from citecheck.errors import CacheError

__all__ = ["SCHEMA_VERSION", "check_version", "migrate"]
_LOCK = 0x43434B31  # "CCK1": the advisory lock id migrations take
_STEPS: tuple[tuple[str, ...], ...] = (
    # version 1: the SQLite cache's two tables, the lease table of single-flight fetching, the version.
    ("CREATE TABLE citecheck_meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)",
     "CREATE TABLE citecheck_pages (key TEXT PRIMARY KEY, url TEXT NOT NULL, fetched DOUBLE PRECISION NOT NULL, "
     "kind TEXT NOT NULL, policy TEXT NOT NULL, outcome TEXT NOT NULL, facts TEXT NOT NULL, text TEXT, html TEXT, "
     "sibling TEXT)",
     "CREATE INDEX citecheck_pages_url ON citecheck_pages (url)",
     "CREATE TABLE citecheck_extras (kind TEXT, key TEXT, stored DOUBLE PRECISION NOT NULL, data TEXT NOT NULL, "
     "PRIMARY KEY (kind, key))",
     "CREATE TABLE citecheck_leases (key TEXT PRIMARY KEY, owner TEXT NOT NULL, expires DOUBLE PRECISION NOT NULL)"),
    # version 2: the per-host budget every runner shares (`citecheck.fetch.hosts`): a host's request
    # slots (one row per slot in use, each expiring like a lease) and the next start its interval
    # allows. Unlogged: it is state of the runs going on now, not facts worth a crash-safe write.
    ("CREATE UNLOGGED TABLE citecheck_host_slots (host TEXT NOT NULL, slot INTEGER NOT NULL, owner TEXT NOT NULL, "
     "expires DOUBLE PRECISION NOT NULL, PRIMARY KEY (host, slot))",
     "CREATE UNLOGGED TABLE citecheck_hosts (host TEXT PRIMARY KEY, next_at DOUBLE PRECISION NOT NULL)"),
)
SCHEMA_VERSION = len(_STEPS)


def current_version(conn: Any) -> int:
    """The schema version the database holds (0: no citecheck schema)."""
    row = conn.execute("SELECT to_regclass('citecheck_meta') IS NOT NULL").fetchone()
    if not row[0]:
        return 0
    found = conn.execute("SELECT value FROM citecheck_meta WHERE name = 'schema_version'").fetchone()
    return int(found[0]) if found else 0


def check_version(conn: Any, where: str) -> None:
    """Refuse a database whose schema this citecheck does not speak (`where`: the masked URL)."""
    version = current_version(conn)
    if version == SCHEMA_VERSION:
        return
    if version == 0:
        raise CacheError(f"team cache {where}: no citecheck schema; run `citecheck cache migrate --cache URL` once")
    if version < SCHEMA_VERSION:
        raise CacheError(f"team cache {where}: schema version {version} is older than this citecheck's "
                         f"{SCHEMA_VERSION}; run `citecheck cache migrate --cache URL`")
    raise CacheError(f"team cache {where}: schema version {version} is newer than this citecheck's "
                     f"{SCHEMA_VERSION}; upgrade citecheck")


def migrate(conn: Any, target: int = SCHEMA_VERSION) -> tuple[int, int]:
    """Bring the schema to `target` (SCHEMA_VERSION; an older one only to test upgrades) in one
    transaction; returns (version before, version after)."""
    if not 0 < target <= SCHEMA_VERSION:
        raise ValueError(f"no schema version {target}")
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", [_LOCK])
        before = current_version(conn)
        if before > SCHEMA_VERSION:
            raise CacheError(f"schema version {before} is newer than this citecheck's {SCHEMA_VERSION}; "
                             "upgrade citecheck")
        after = max(before, target)
        for step in _STEPS[before:after]:
            for statement in step:
                conn.execute(statement)
        conn.execute("INSERT INTO citecheck_meta (name, value) VALUES ('schema_version', %s) "
                     "ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value", [str(after)])
    return before, after
