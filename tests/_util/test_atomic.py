"""`-o` files: atomic over regular files, honouring the umask; written through devices, FIFOs and
/dev/stdout; a symlink's target replaced, not the link."""
from __future__ import annotations

import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from citecheck._util.atomic import atomic_write


@pytest.fixture
def umask_022() -> object:
    old = os.umask(0o022)
    yield
    os.umask(old)


def test_new_file_honours_the_umask(tmp_path: Path, umask_022: object) -> None:
    atomic_write(tmp_path / "report.html", "<p>hi</p>")
    assert stat.S_IMODE(os.stat(tmp_path / "report.html").st_mode) == 0o644
    old = os.umask(0o077)
    try:
        atomic_write(tmp_path / "private.json", "{}")
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(tmp_path / "private.json").st_mode) == 0o600


def test_existing_file_keeps_its_mode_and_is_replaced_atomically(tmp_path: Path) -> None:
    target = tmp_path / "out.sarif"
    target.write_text("old")
    os.chmod(target, 0o640)
    before = os.stat(target).st_ino
    atomic_write(target, "new")
    assert target.read_text() == "new"
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o640
    assert os.stat(target).st_ino != before  # renamed over, never truncated in place
    assert sorted(os.listdir(tmp_path)) == ["out.sarif"]


def test_symlink_target_is_replaced_not_the_link(tmp_path: Path) -> None:
    real = tmp_path / "reports" / "real.json"
    real.parent.mkdir()
    real.write_text("old")
    link = tmp_path / "latest.json"
    link.symlink_to(real)
    atomic_write(link, "new")
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_text() == "new"


def test_dangling_symlink_creates_its_target(tmp_path: Path) -> None:
    link = tmp_path / "latest.json"
    link.symlink_to(tmp_path / "made.json")
    atomic_write(link, "x")
    assert link.is_symlink() and (tmp_path / "made.json").read_text() == "x"


def _refuse_rename(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object) -> None:
        raise AssertionError("renamed over a non-regular file")
    monkeypatch.setattr("citecheck._util.atomic.os.replace", refuse)
    monkeypatch.setattr("citecheck._util.atomic.os.rename", refuse)


def test_dev_null_stays_a_character_device(monkeypatch: pytest.MonkeyPatch) -> None:
    _refuse_rename(monkeypatch)
    atomic_write("/dev/null", "report")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_a_private_device_node_is_written_through(tmp_path: Path) -> None:
    node = tmp_path / "null"
    try:
        os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except PermissionError:
        pytest.skip("mknod needs CAP_MKNOD (the /dev/null test above covers the same path)")
    atomic_write(node, "report")
    assert stat.S_ISCHR(os.lstat(node).st_mode)
    assert sorted(os.listdir(tmp_path)) == ["null"]


def test_fifo_is_written_through(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _refuse_rename(monkeypatch)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    atomic_write(fifo, "through the pipe")
    reader.join(10)
    assert got == [b"through the pipe"] and stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_dev_stdout_into_a_regular_file_keeps_the_shell_file(tmp_path: Path) -> None:
    """`citecheck ... -o /dev/stdout > out.txt`: the report lands in the file the shell opened."""
    out = tmp_path / "out.txt"
    code = ("import sys; from citecheck._util.atomic import atomic_write; "
            "print('before', flush=True); atomic_write('/dev/stdout', 'REPORT\\n')")
    with open(out, "wb") as fh:
        subprocess.run([sys.executable, "-c", code], stdout=fh, check=True)
    assert out.read_text().endswith("REPORT\n")
    assert os.path.isfile(out)


def test_dev_stdout_into_a_pipe() -> None:
    code = "from citecheck._util.atomic import atomic_write; atomic_write('/dev/stdout', 'REPORT\\n')"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert proc.stdout == "REPORT\n"


@pytest.mark.slow
def test_cli_report_is_0644_under_umask_022(tmp_path: Path, umask_022: object) -> None:
    memo = tmp_path / "memo.md"
    memo.write_text("# M\n\nSee [x](https://example.com/a).\n")
    for fmt, name in (("html", "r.html"), ("sarif", "r.sarif"), ("json", "r.json")):
        proc = subprocess.run([sys.executable, "-m", "citecheck", "audit", "--offline", str(memo), "--format", fmt,
                               "-o", str(tmp_path / name)], capture_output=True, text=True, check=False)
        assert proc.returncode == 1, proc.stderr
        assert stat.S_IMODE(os.stat(tmp_path / name).st_mode) == 0o644
    proc = subprocess.run([sys.executable, "-m", "citecheck", "audit", "--offline", str(memo), "--format", "json",
                           "-o", "/dev/null"], capture_output=True, text=True, check=False)
    assert proc.returncode == 1 and stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_a_link_to_dev_stdout_or_dev_null_is_written_through(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "null").symlink_to("/dev/null")
    _refuse_rename(monkeypatch)
    atomic_write(tmp_path / "null", "report")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode) and (tmp_path / "null").is_symlink()
    code = ("import os, sys; from citecheck._util.atomic import atomic_write; os.symlink('/dev/stdout', sys.argv[1]); "
            "atomic_write(sys.argv[1], 'REPORT\\n')")
    proc = subprocess.run([sys.executable, "-c", code, str(tmp_path / "out")], capture_output=True, text=True,
                          check=True)
    assert proc.stdout == "REPORT\n"
