"""The cache's file: citecheck opens, creates and rebuilds only a database it made itself.

A citecheck cache carries its mark in the SQLite header: `application_id` = `APPLICATION_ID` and
`user_version` = `SCHEMA`. Before anything is opened for writing, the first 100 bytes are read:

- a directory, a FIFO, a device or a socket (refused before it is opened: reading a FIFO waits
  for a writer forever), a file that is not SQLite, or an SQLite database of another application (another
  application_id, or tables that are not the cache's) is refused with one line (`CacheError`, exit
  2): citecheck never drops, renames or rewrites what it did not create;
- an empty or missing file is initialised, under `BEGIN IMMEDIATE` so several processes creating
  the same fresh cache at once agree (the first one creates the tables, the others find them);
- a citecheck cache of an older schema (marked, or the unmarked schema-2 layout) is emptied and
  re-created: it holds only facts that can be fetched again;
- a cache the process may not write (a read-only file or folder) is opened read-only and used
  read-only (`Opened.writable` is False): lookups work, nothing is stored;
- a location where no cache can be created (a folder that cannot be made or written) raises
  `InputError`: the caller runs without a cache after one warning.
"""
from __future__ import annotations

import os
import sqlite3
import stat
import time
from dataclasses import dataclass
from pathlib import Path

from citecheck.errors import CacheError, InputError

APPLICATION_ID = 0x43434B31  # "CCK1"
SCHEMA = 4  # 4: rows keyed by `urls.fact_key` (the URL fetched), no longer by the canonical dedupe key
_HEADER = b"SQLite format 3\x00"
_TABLES = frozenset({"pages", "extras"})
_CREATE = (("CREATE TABLE pages (key TEXT PRIMARY KEY, url TEXT, fetched REAL, kind TEXT, policy TEXT, "
            "outcome TEXT, facts TEXT, text TEXT, html TEXT, sibling TEXT)"),
           "CREATE INDEX pages_url ON pages (url)",
           "CREATE TABLE extras (kind TEXT, key TEXT, stored REAL, data TEXT, PRIMARY KEY (kind, key))")


@dataclass
class Opened:
    conn: sqlite3.Connection
    writable: bool


def header_mark(path: Path) -> tuple[str, int, int]:
    """('missing' | 'empty' | 'sqlite' | 'other', application_id, user_version) from the file's header."""
    try:
        with path.open("rb") as handle:
            head = handle.read(100)
    except FileNotFoundError:
        return "missing", 0, 0
    if not head:
        return "empty", 0, 0
    if len(head) < 100 or not head.startswith(_HEADER):
        return "other", 0, 0
    return "sqlite", int.from_bytes(head[68:72], "big"), int.from_bytes(head[60:64], "big", signed=True)


def open_cache(path: Path) -> Opened:
    """A connection to the cache at `path` (see the module docstring for what is refused)."""
    if path.is_dir():
        raise CacheError(f"{path}: is a directory, not a citecheck cache file (pass a file path to --cache)")
    special = _special_kind(path)
    if special:
        raise CacheError(f"{path}: is {special}, not a citecheck cache file; citecheck leaves it alone (pass a "
                         "regular file path to --cache)")
    kind, app_id, _version = header_mark(path)
    if kind == "other" or (kind == "sqlite" and app_id not in (0, APPLICATION_ID)):
        raise CacheError(f"{path}: is not a citecheck cache; citecheck leaves it alone (choose another --cache path)")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise InputError(f"{path}: cannot create the cache folder: {err.strerror}") from None
    if not _may_write(path):
        return Opened(_read_only(path), writable=False)
    conn = sqlite3.connect(str(path), timeout=30.0, check_same_thread=False, isolation_level=None)
    try:
        conn.execute("PRAGMA busy_timeout=30000")
        _initialise(conn, path)
        _retry_locked(lambda: conn.execute("PRAGMA journal_mode=WAL"))
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.isolation_level = "DEFERRED"  # back to implicit transactions: one per batch of rows, not one per row
    except BaseException:
        conn.close()
        raise
    return Opened(conn, writable=True)


def _special_kind(path: Path) -> str:
    """'a FIFO', 'a character device', … for a path that exists and is not a regular file, else ''.
    Checked before the header is read: opening a FIFO for reading waits for a writer forever."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return ""
    kinds = ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
             (stat.S_ISSOCK, "a socket"))
    return next((name for test, name in kinds if test(mode)), "" if stat.S_ISREG(mode) else "not a regular file")


def _may_write(path: Path) -> bool:
    if path.exists():
        return os.access(path, os.W_OK) and os.access(path.parent, os.W_OK | os.X_OK)
    return os.access(path.parent, os.W_OK | os.X_OK)


def _read_only(path: Path) -> sqlite3.Connection:
    if not path.exists():
        raise InputError(f"{path}: cannot create the cache here (the folder is not writable)")
    uri = path.resolve().as_uri()
    for flags in ("mode=ro", "mode=ro&immutable=1"):  # immutable: a WAL file whose -shm cannot be made
        conn = sqlite3.connect(f"{uri}?{flags}", uri=True, timeout=5.0, check_same_thread=False)
        try:
            if _mark(conn) != (APPLICATION_ID, SCHEMA):
                conn.close()
                raise InputError(f"{path}: a read-only cache of another citecheck version; running without it")
            conn.execute("SELECT 1 FROM pages LIMIT 1").fetchall()
            return conn
        except sqlite3.OperationalError:
            conn.close()
    raise InputError(f"{path}: the read-only cache cannot be opened")


def _initialise(conn: sqlite3.Connection, path: Path) -> None:
    """Create (or re-create, for an older citecheck schema) the tables, marked, in one transaction."""
    if _mark(conn) == (APPLICATION_ID, SCHEMA):
        return  # the common case: no write lock taken
    _retry_locked(lambda: conn.execute("BEGIN IMMEDIATE"))
    try:
        app_id, version = _mark(conn)
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if (app_id, version) != (APPLICATION_ID, SCHEMA):
            if app_id != APPLICATION_ID and tables and not (tables <= _TABLES and version in (1, 2)):
                raise CacheError(f"{path}: is an SQLite database of another application, not a citecheck cache; "
                                 "citecheck leaves it alone (choose another --cache path)")
            for table in _TABLES & tables:
                conn.execute(f"DROP TABLE {table}")
            for statement in _CREATE:
                conn.execute(statement)
            conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
            conn.execute(f"PRAGMA user_version={SCHEMA}")
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def _mark(conn: sqlite3.Connection) -> tuple[int, int]:
    return conn.execute("PRAGMA application_id").fetchone()[0], conn.execute("PRAGMA user_version").fetchone()[0]


def _retry_locked(action: object) -> None:
    """Run `action` (a callable), waiting out the short locks a concurrent creator holds."""
    for attempt in range(100):
        try:
            action()  # type: ignore[operator]
            return
        except sqlite3.OperationalError as err:
            if not locked(err) or attempt == 99:
                raise
            time.sleep(0.05)


def locked(err: BaseException) -> bool:
    return isinstance(err, sqlite3.OperationalError) and ("locked" in str(err) or "busy" in str(err))
