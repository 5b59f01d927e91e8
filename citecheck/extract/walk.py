"""Turn command-line paths into input files, walking directories as ruff and lychee do.

A directory walk takes the files that match an include glob and no exclude glob, skips what git
ignores (`.gitignore`, `.git/info/exclude`, the global excludes file: asked of `git check-ignore`
when the directory is in a git work tree; `respect_ignore=False` is `--no-ignore`), and skips the
reports citecheck wrote itself (they carry `GENERATED_MARK`). A bad entry never ends the walk: an
unreadable, binary or undecodable file or a dangling symlink is an `E003` problem for that entry,
a FIFO, device or socket is skipped with an `E004` warning (opening a FIFO would block the run),
and every other file is still audited. A path named twice (`f.md ./f.md`) is read once.

A path named on the command line is read as asked (a FIFO such as `<(cmd)` included). When it is
the only path, a file that cannot be read is the usual one-line error; among several (pre-commit
passes the staged files) it is an `E003` problem like a walked one, and the others are audited.
"""
from __future__ import annotations

import fnmatch
import os
import stat
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from citecheck.errors import InputError

DEFAULT_EXCLUDE = (".git", "node_modules", ".venv", "venv", "__pycache__", ".tox", "site-packages")
# Every file citecheck writes for people to open carries this in its first lines (the HTML reports
# as <meta name="generator">, Markdown ones in a comment), so a walk never lints its own output.
GENERATED_MARK = 'name="generator" content="citecheck'
_KINDS = ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISSOCK, "a socket"))


@dataclass(frozen=True)
class Problem:
    """A walked entry that could not be audited (`E003`: an error, exit 2), or a special file skipped
    on purpose (`skipped`: `E004`, a warning)."""
    path: str
    message: str
    line: int = 1
    skipped: bool = False

    @property
    def rule(self) -> str:
        """The engine rule (`citecheck.engine.meta`) whose finding reports it."""
        return "E004" if self.skipped else "E003"


AUDITED_OTHERS = "; the other files were audited"


def problem_from(path: str, err: InputError) -> Problem:
    """The `E003` problem for a file whose reading or extraction raised `err` ("path:LINE: what")."""
    message, line = str(err).removeprefix(f"{path}:"), 1
    head, sep, rest = message.partition(": ")
    if sep and head.isdigit():
        message, line = rest, int(head)
    return Problem(path, message.strip() + AUDITED_OTHERS, line)


@dataclass
class InputFiles:
    """What `read_inputs` found: (path, text) of each readable input in order, and the problems."""
    files: list[tuple[str, str]] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    skipped_generated: list[str] = field(default_factory=list)
    alone: bool = False  # one path named, not a directory: its failures are the usual one-line error


Reader = Callable[[str, int], str]


def refuse_unreadable(problems: Iterable[Problem]) -> None:
    """For commands that cannot report per-file problems (baseline, curate): the first unreadable
    entry is the usual one-line error."""
    for problem in problems:
        if not problem.skipped:
            where = f"{problem.path}:{problem.line}" if problem.line > 1 else problem.path
            raise InputError(f"{where}: {problem.message.removesuffix(AUDITED_OTHERS)}")


def gather(paths: Iterable[str], include: tuple[str, ...], exclude: tuple[str, ...], max_bytes: int,
           read: Reader, decode_stdin: Callable[[bytes], str], respect_ignore: bool = True) -> InputFiles:
    """Read every path (files, directories recursively, `-` for stdin) into an `InputFiles`."""
    paths = list(paths)
    out = InputFiles(alone=len(paths) == 1 and not Path(paths[0]).is_dir())
    seen: set[str] = set()
    exclude = exclude + DEFAULT_EXCLUDE
    for raw in paths:
        if raw == "-":
            _read_named("<stdin>", lambda: decode_stdin(sys.stdin.buffer.read(max_bytes + 1)), out)
            continue
        path = Path(raw)
        if path.is_dir():
            found = walk(path, include, exclude, respect_ignore)
            if not found:
                raise InputError(f"{raw}: no memos or corpora found (include: {', '.join(include)})")
            for file in found:
                if _first_time(str(file), seen):
                    _read_walked(str(file), max_bytes, read, out)
        elif path.exists() or path.is_fifo():
            if _first_time(raw, seen):
                _read_named(raw, partial(read, raw, max_bytes), out)
        else:
            raise InputError(f"{raw}: no such file or directory")
    return out


def _first_time(path: str, seen: set[str]) -> bool:
    key = os.path.realpath(path)
    if key in seen:
        return False
    seen.add(key)
    return True


def _read_named(path: str, read: Callable[[], str], out: InputFiles) -> None:
    try:
        out.files.append((path, read()))
    except InputError as err:
        if out.alone:
            raise
        out.problems.append(problem_from(path, err))


def _read_walked(path: str, max_bytes: int, read: Reader, out: InputFiles) -> None:
    try:
        st = os.stat(path)
    except OSError as err:
        what = "dangling symlink" if os.path.islink(path) else "cannot read"
        out.problems.append(Problem(path, f"{what}: {err.strerror or err}{AUDITED_OTHERS}"))
        return
    if not stat.S_ISREG(st.st_mode):
        kind = next((name for test, name in _KINDS if test(st.st_mode)), "not a regular file")
        out.problems.append(Problem(path, f"skipped: {kind}, not a regular file", skipped=True))
        return
    try:
        text = read(path, max_bytes)
    except InputError as err:
        out.problems.append(problem_from(path, err))
        return
    if GENERATED_MARK in text[:2048]:
        out.skipped_generated.append(path)
        return
    out.files.append((path, text))


def walk(root: Path, include: tuple[str, ...], exclude: tuple[str, ...], respect_ignore: bool = True) -> list[Path]:
    """Files under `root` matching an include glob and no exclude glob, minus what git ignores
    (symlinked folders are not followed). A glob matches a file's name, its path relative to
    `root`, or its path as given."""
    found = sorted(_candidates(root, include, exclude))
    if respect_ignore and found:
        ignored = git_ignored(root, found)
        found = [p for p in found if p not in ignored]
    return found


def _candidates(root: Path, include: tuple[str, ...], exclude: tuple[str, ...]) -> Iterator[Path]:
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not _matches(root, os.path.join(dirpath, d), exclude))
        for name in sorted(filenames):
            full = os.path.join(dirpath, name)
            if not _matches(root, full, exclude) and _matches(root, full, include):
                yield Path(full)


def _matches(root: Path, full: str, patterns: tuple[str, ...]) -> bool:
    name, relative = os.path.basename(full), os.path.relpath(full, root).replace(os.sep, "/")
    return any(fnmatch.fnmatch(name, pat) or fnmatch.fnmatch(relative, pat) or fnmatch.fnmatch(full, pat)
               for pat in patterns)


def git_ignored(root: Path, files: list[Path]) -> set[Path]:
    """The files git would ignore, asked of `git check-ignore` in `root` (tracked files are never
    ignored, as in git). Outside a work tree, or without git, nothing is ignored. A directory you
    name is walked even when git ignores the directory itself."""
    import shutil
    import subprocess

    git = shutil.which("git")
    if git is None:
        return set()
    relative = [os.path.relpath(p, root) for p in files]
    try:
        proc = subprocess.run([git, "-C", str(root), "check-ignore", "-z", "--stdin"], capture_output=True, check=False,
                              input="\0".join([".", *relative]).encode("utf-8", "surrogateescape"), timeout=120,
                              env={**os.environ, "GIT_OPTIONAL_LOCKS": "0"})
    except (OSError, subprocess.SubprocessError):
        return set()
    if proc.returncode not in (0, 1):
        return set()  # not a work tree (128), or git could not answer
    names = set(proc.stdout.decode("utf-8", "surrogateescape").split("\0")) - {""}
    if "." in names:
        return set()
    return {p for p, rel in zip(files, relative, strict=True) if rel in names}
