"""A harvest into a corpus is one transaction: lock, read, merge, write both files, unlock.

Two harvests into one corpus at once would both issue the next ID to different URLs, and the one
that writes last would silently drop the other's source. `corpus_lock` takes an exclusive lock on
`<corpus>.lock` (beside the corpus, never removed: deleting a lock file races with its next taker)
for the whole read–merge–write; a second process gets one line and exit 2 instead of waiting on a
run that may take minutes.

The corpus and its `.ids` registry are two files, and a crash between two renames would lose what
the second held (a retirement record, with its evidence). `commit` first writes both into one
journal (`<corpus>.journal`, atomically), then the corpus, then the registry, then removes the
journal; `recover` finishes a commit that a crash interrupted, and a harvest refuses to read a
corpus whose journal is still there (`pending`).
"""
from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from citecheck._util.atomic import atomic_write
from citecheck._util.safeload import load_json
from citecheck.errors import CorpusError, InputError
from citecheck.harvest.ids import sidecar

JOURNAL_VERSION = 1


class CorpusBusyError(InputError):
    """Another process holds the corpus's lock."""


def lock_path(corpus_path: str | Path) -> Path:
    return Path(f"{corpus_path}.lock")


def journal_path(corpus_path: str | Path) -> Path:
    return Path(f"{corpus_path}.journal")


@contextmanager
def corpus_lock(corpus_path: str | Path) -> Iterator[None]:
    """Hold `<corpus>.lock` exclusively, or raise CorpusBusyError at once."""
    from filelock import FileLock, Timeout  # fcntl.flock on POSIX; opens with O_NOFOLLOW

    where = lock_path(corpus_path)
    lock = FileLock(str(where), timeout=0)
    try:
        lock.acquire()
    except Timeout:
        raise CorpusBusyError(f"{corpus_path}: another citecheck process is harvesting into this corpus ({where} is "
                              "locked); run again when it has finished") from None
    except OSError as err:
        raise InputError(f"{where}: cannot lock the corpus ({err.strerror or err})") from None
    try:
        yield
    finally:
        lock.release()


def commit(corpus_path: str | Path, corpus_text: str, registry_text: str) -> None:
    """Write the corpus and its registry so that a crash at any point loses neither."""
    journal = journal_path(corpus_path)
    atomic_write(journal, json.dumps({"version": JOURNAL_VERSION, "corpus": corpus_text, "registry": registry_text},
                                     ensure_ascii=False))
    _apply(corpus_path, corpus_text, registry_text)
    journal.unlink()


def recover(corpus_path: str | Path) -> bool:
    """Finish a commit a crash interrupted (the journal holds both files); True when there was one."""
    journal = journal_path(corpus_path)
    if not journal.exists():
        return False
    try:
        data = load_json(journal.read_text(encoding="utf-8"))
        if data.get("version") != JOURNAL_VERSION:
            raise ValueError(f"unknown version {data.get('version')!r}")
        corpus_text, registry_text = data["corpus"], data["registry"]
        if not isinstance(corpus_text, str) or not isinstance(registry_text, str):
            raise TypeError("corpus and registry must be text")
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as err:
        raise CorpusError(f"{journal}: unreadable harvest journal ({err}); {corpus_path} and its .ids may be from "
                          "before or after the interrupted run: check them, then delete the journal") from None
    _apply(corpus_path, corpus_text, registry_text)
    journal.unlink()
    return True


def pending(corpus_path: str | Path) -> None:
    """Refuse to read a corpus whose last commit was interrupted (CorpusError)."""
    if journal_path(corpus_path).exists():
        raise CorpusError(f"{journal_path(corpus_path)}: a harvest into {corpus_path} was interrupted while writing; "
                          "run `citecheck harvest` on it again to finish that write (or "
                          "citecheck.harvest.recover(path))")


def _apply(corpus_path: str | Path, corpus_text: str, registry_text: str) -> None:
    atomic_write(sidecar(corpus_path), registry_text)  # the registry first: it only ever grows
    atomic_write(corpus_path, corpus_text)
    _sync_dir(Path(corpus_path).parent)


def _sync_dir(directory: Path) -> None:
    """Make the renames durable before the journal goes."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
