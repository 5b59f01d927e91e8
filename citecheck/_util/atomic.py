"""File output that is never half-written, never replaces what it should write into, and never
follows a link someone else planted.

A regular file (or a new path) is written like ruff and lychee write theirs: a temp file beside
the target, fsync, rename. The temp file is created with mode 0666 so the kernel applies the
umask (a new report is 0644 under umask 022); an existing file keeps its mode and its owner (when
the owner cannot be given back, as a user writing a file another user owns, it is written in
place instead, which keeps both). Anything that is not a regular file — a character device such as
`/dev/null`, a FIFO, a socket, `/dev/stdout` — is written *through* (opened and written in place):
renaming over it would replace the device node with a file.

Symlinks are resolved here, one component at a time, under the kernel's `fs.protected_symlinks`
rule: a link in a sticky world-writable directory (`/tmp`) is followed only when its owner is the
user or the directory's owner. The kernel enforces that rule on `open`, but a rename never opens
the target: without this check, root writing `-o /tmp/report.json` would replace whatever file a
link planted there by another user names. A link's target is replaced, the link stays. No
directory is ever created for a link's target: a dangling link into a missing directory is refused.
"""
from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from pathlib import Path

from citecheck.errors import InputError

_THROUGH_PREFIXES = ("/dev/", "/proc/")
_MAX_LINKS = 40  # as the kernel's MAXSYMLINKS


def atomic_write(path: str | Path, data: str | bytes) -> None:
    """Write `data` to `path`: atomically over a regular file, through anything else."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    target = Path(path)
    if os.path.abspath(target).startswith(_THROUGH_PREFIXES):
        _write_through(target, raw)  # /dev/stdout can name a file the shell holds open: never rename over it
        return
    final, followed = resolve_output(target)
    if str(final).startswith(_THROUGH_PREFIXES):  # a link to /dev/stdout, /dev/null: open it (the kernel checks)
        _write_through(target, raw)
        return
    try:
        st: os.stat_result | None = os.lstat(final)
    except FileNotFoundError:
        st = None
    if st is not None and not stat.S_ISREG(st.st_mode):
        _write_through(final, raw)
        return
    if not final.parent.is_dir():
        if followed:
            raise InputError(f"{target}: the symlink leads to {final}, whose directory does not exist "
                             "(no directory is created for a link's target)")
        final.parent.mkdir(parents=True, exist_ok=True)
    _replace(final, raw, st)


def resolve_output(path: str | Path) -> tuple[Path, bool]:
    """The file `path` names, following symlinks as `fs.protected_symlinks` allows (else
    InputError), and whether a link was followed. A path whose rest does not exist yet is
    returned with that rest appended."""
    start = os.fspath(path)
    pending = _parts(start if os.path.isabs(start) else os.path.join(os.getcwd(), start))
    current, followed, hops = "/", False, 0
    while pending:
        part = pending.pop(0)
        if part in ("", "."):
            continue
        if part == "..":
            current = os.path.dirname(current)
            continue
        candidate = os.path.join(current, part)
        try:
            st = os.lstat(candidate)
        except (FileNotFoundError, NotADirectoryError):
            return Path(os.path.join(candidate, *pending)), followed
        if not stat.S_ISLNK(st.st_mode):
            current = candidate
            continue
        hops += 1
        if hops > _MAX_LINKS:
            raise InputError(f"{start}: too many levels of symbolic links")
        _check_protected(start, candidate, current, st)
        link = os.readlink(candidate)
        pending = _parts(link) + pending
        current = "/" if os.path.isabs(link) else current
        followed = True
    return Path(current), followed


def refuse_same_file(outputs: Iterable[tuple[str, str | Path | None]], inputs: Iterable[str | Path | None]) -> None:
    """InputError when an output path names the same file as an input, or as another output:
    `write -o corpus.json`, `audit memo.md -o memo.md` would destroy what the run reads."""
    seen: dict[tuple[object, ...], str] = {}
    for path in inputs:
        key = _identity(path)
        if key is not None:
            seen.setdefault(key, f"the input {path}")
    for option, path in outputs:
        key = _identity(path)
        if key is None:
            continue
        if key in seen:
            raise InputError(f"{path}: {option} names {seen[key]}; refusing to overwrite it")
        seen[key] = f"the {option} output"


def _identity(path: str | Path | None) -> tuple[object, ...] | None:
    """What makes two paths one regular file: device and inode when it exists, else the resolved
    path; None for no path, stdin (`-`) and anything that is not a regular file (/dev/stdout)."""
    if path is None or os.fspath(path) in ("", "-"):
        return None
    try:
        st = os.stat(path)
    except OSError:
        return ("path", os.path.realpath(path))
    return ("inode", st.st_dev, st.st_ino) if stat.S_ISREG(st.st_mode) else None


def _parts(path: str) -> list[str]:
    return path.split("/")


def _check_protected(start: str, link: str, directory: str, link_st: os.stat_result) -> None:
    """The kernel's protected_symlinks rule for a link we are about to follow."""
    folder = os.stat(directory)
    sticky_world = folder.st_mode & stat.S_ISVTX and folder.st_mode & stat.S_IWOTH
    if sticky_world and link_st.st_uid not in (os.geteuid(), folder.st_uid):
        raise InputError(f"{start}: refusing to follow the symlink {link}: it is owned by uid {link_st.st_uid} in "
                         f"the sticky world-writable directory {directory} (the kernel's protected_symlinks rule)")


def _replace(final: Path, raw: bytes, st: os.stat_result | None) -> None:
    """Temp file beside `final` (owner and mode of the file it replaces), fsync, rename."""
    tmp, fd = _temp_beside(final)
    try:
        with os.fdopen(fd, "wb") as fh:
            if st is not None:
                if not _give_back(fh.fileno(), st):
                    os.unlink(tmp)
                    _write_in_place(final, raw)
                    return
                os.fchmod(fh.fileno(), stat.S_IMODE(st.st_mode))
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


def _give_back(fd: int, st: os.stat_result) -> bool:
    """Give the temp file the replaced file's owner and group; False when that is not allowed."""
    if (st.st_uid, st.st_gid) == (os.geteuid(), os.getegid()):
        return True
    try:
        os.fchown(fd, st.st_uid, st.st_gid)
    except PermissionError:
        return False
    return True


def _write_in_place(final: Path, raw: bytes) -> None:
    """Truncate and write the existing file itself (its inode keeps owner and mode); never through
    a link swapped in since it was resolved."""
    fd = os.open(final, os.O_WRONLY | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))
    with os.fdopen(fd, "wb") as fh:
        fh.write(raw)
        fh.flush()
        os.fsync(fh.fileno())


def _write_through(target: Path, raw: bytes) -> None:
    with open(target, "wb") as fh:
        fh.write(raw)


def _temp_beside(final: Path) -> tuple[Path, int]:
    """A new file next to `final`, opened for writing with mode 0666 & ~umask."""
    while True:
        tmp = final.with_name(f".{final.name}.{os.urandom(4).hex()}.tmp")  # not `secrets`: 5-20 ms of imports
        try:
            return tmp, os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o666)
        except FileExistsError:
            continue
