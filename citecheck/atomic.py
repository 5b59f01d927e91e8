"""File output that is never half-written and never replaces what it should write into.

A regular file (or a new path) is written like ruff and lychee write theirs: a temp file beside
the target, fsync, rename. The temp file is created with mode 0666 so the kernel applies the
umask (a new report is 0644 under umask 022); an existing file keeps its mode. A symlink is
followed: its target is replaced, the link stays. Anything that is not a regular file — a
character device such as `/dev/null`, a FIFO, a socket, `/dev/stdout` — is written *through*
(opened and written in place): renaming over it would replace the device node with a file.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path

_THROUGH_PREFIXES = ("/dev/", "/proc/")


def atomic_write(path: str | Path, data: str | bytes) -> None:
    """Write `data` to `path`: atomically over a regular file, through anything else."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    target = Path(path)
    if _write_through(target):
        with open(target, "wb") as fh:
            fh.write(raw)
        return
    final = Path(os.path.realpath(target))  # a symlink's target is replaced, not the link
    final.parent.mkdir(parents=True, exist_ok=True)
    try:
        mode: int | None = stat.S_IMODE(os.stat(final).st_mode)
    except FileNotFoundError:
        mode = None
    tmp, fd = _temp_beside(final)
    try:
        with os.fdopen(fd, "wb") as fh:
            if mode is not None:
                os.fchmod(fh.fileno(), mode)
            fh.write(raw)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, final)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _write_through(target: Path) -> bool:
    """True when the path exists and is not a regular file, or lives in /dev or /proc (where
    /dev/stdout can resolve to a regular file the shell holds open: renaming over it would cut
    the shell's own output off)."""
    try:
        st = os.stat(target)
    except FileNotFoundError:
        return False
    if not stat.S_ISREG(st.st_mode):
        return True
    where = os.path.realpath(target) + "/"
    return os.path.abspath(target).startswith(_THROUGH_PREFIXES) or where.startswith(_THROUGH_PREFIXES)


def _temp_beside(final: Path) -> tuple[Path, int]:
    """A new file next to `final`, opened for writing with mode 0666 & ~umask."""
    while True:
        tmp = final.with_name(f".{final.name}.{os.urandom(4).hex()}.tmp")  # not `secrets`: 5-20 ms of imports
        try:
            return tmp, os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o666)
        except FileExistsError:
            continue
