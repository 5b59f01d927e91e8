"""`curate --sqlite FILE`: the master list across runs as a SQLite database a team can query.

Each `curate` run appends to the same file, built with sqlite-utils (imported only here):

    runs      id, checked_at (UTC, ISO 8601), source ("runs" | "cache"), inputs (JSON list),
              distinct_urls, verdicts (JSON counts), citecheck_version
    sources   key (the canonical dedupe key), url, final_url, title, excerpt (the page's visible
              text sample), first_seen, last_seen, last_verdict, last_status
    verdicts  id, run_id → runs.id, source_key → sources.key, checked_at, verdict, status,
              outcome, fetched_at (when the facts were fetched), occurrences, files (JSON list),
              evidence (JSON list of {rule, severity, message, evidence})

with full-text search (FTS5, kept in step by triggers) over `sources.title` and `sources.excerpt`,
so `sqlite-utils query`, `sqlite-utils search` or Datasette can answer "what died since last
month" (docs in README). The file is written as a whole: a copy beside it takes the run, then
replaces it (a crash leaves the old database), and a file that is not a SQLite database written by
this command is refused with one line (exit 2), left as it was.
"""
from __future__ import annotations

import json
import os
import shutil
from collections import Counter
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from citecheck.errors import InputError

APPLICATION_ID = 0x43434431  # "CCD1": a curation database (the fetch cache is "CCK1")
_SQLITE_MAGIC = b"SQLite format 3\x00"


def write_sqlite(path: str, entries: Iterable[Any], source: str, inputs: list[str],
                 now: datetime | None = None) -> int:
    """Append one run (its `curate.Entry`s) to the database at `path`; returns the run's ID."""
    try:
        import sqlite_utils
    except ImportError:
        raise InputError("--sqlite needs sqlite-utils: pip install 'citecheck[sqlite]'") from None
    final = Path(os.path.realpath(path))
    _refuse_foreign(final)
    tmp = final.with_name(f".{final.name}.{os.getpid()}.tmp")
    try:
        if final.exists():
            shutil.copyfile(final, tmp)
        db = sqlite_utils.Database(str(tmp))
        try:
            run_id = _append(db, list(entries), source, inputs, (now or datetime.now(UTC)).replace(microsecond=0))
        finally:
            db.close()
        os.replace(tmp, final)
    except OSError as err:
        raise InputError(f"{path}: cannot write the database: {err.strerror or err}") from None
    finally:
        tmp.unlink(missing_ok=True)
    return run_id


def _refuse_foreign(path: Path) -> None:
    """A file that is not SQLite, or another application's database, is never touched."""
    if not path.exists():
        return
    try:
        with open(path, "rb") as fh:
            head = fh.read(100)
    except OSError as err:
        raise InputError(f"{path}: cannot read: {err.strerror or err}") from None
    if not head:
        return
    if not head.startswith(_SQLITE_MAGIC) or int.from_bytes(head[68:72], "big") != APPLICATION_ID:
        raise InputError(f"{path}: not a citecheck curation database (curate --sqlite writes its own); left alone")


def _append(db: Any, entries: list[Any], source: str, inputs: list[str], now: datetime) -> int:
    checked_at = now.isoformat().replace("+00:00", "Z")
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    verdicts = Counter(e.verdict for e in entries)
    from citecheck import __version__

    runs = db["runs"].insert({"checked_at": checked_at, "source": source, "inputs": json.dumps(inputs),
                              "distinct_urls": len(entries), "verdicts": json.dumps(dict(sorted(verdicts.items()))),
                              "citecheck_version": __version__}, pk="id")
    run_id = int(runs.last_pk)
    sources = db["sources"]
    for e in entries:
        page = e.page
        sources.insert({"key": e.key, "url": e.url, "first_seen": checked_at}, pk="key", ignore=True)
        row = {"key": e.key, "url": e.url, "final_url": page.final_url if page else "",
               "title": page.title if page else "", "excerpt": page.text_sample if page else "",
               "last_seen": checked_at, "last_verdict": e.verdict, "last_status": page.status if page else None}
        if page is None:  # an offline run knows nothing new about the page: keep what was stored
            row = {k: v for k, v in row.items() if k not in ("final_url", "title", "excerpt", "last_status")}
        sources.upsert(row, pk="key", alter=True)
    db["verdicts"].insert_all(
        ({"run_id": run_id, "source_key": e.key, "checked_at": checked_at, "verdict": e.verdict,
          "status": e.page.status if e.page else None, "outcome": e.page.outcome.value if e.page else "not-fetched",
          "fetched_at": e.page.fetched_at if e.page else "", "occurrences": e.occurrences,
          "files": json.dumps(sorted(e.files)),
          "evidence": json.dumps([{"rule": f.rule, "severity": f.severity.value, "message": f.message,
                                   "evidence": f.evidence} for f in e.findings], ensure_ascii=False)}
         for e in entries),
        pk="id", foreign_keys=[("run_id", "runs", "id"), ("source_key", "sources", "key")], alter=True)
    _index(db)
    return run_id


def _index(db: Any) -> None:
    """Indexes and full-text search, made once (a first run with no URL still makes the tables)."""
    if "sources" not in db.table_names():
        db["sources"].create({"key": str, "url": str, "final_url": str, "title": str, "excerpt": str,
                              "first_seen": str, "last_seen": str, "last_verdict": str, "last_status": int}, pk="key")
    for column in ("final_url", "title", "excerpt", "last_status"):
        if column not in db["sources"].columns_dict:
            db["sources"].add_column(column, int if column == "last_status" else str)
    if "verdicts" in db.table_names():
        db["verdicts"].create_index(["source_key", "checked_at"], if_not_exists=True)
        db["verdicts"].create_index(["verdict", "checked_at"], if_not_exists=True)
    if db["sources"].detect_fts() is None:
        db["sources"].enable_fts(["title", "excerpt"], create_triggers=True)
