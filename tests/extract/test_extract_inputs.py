"""Turning paths into subjects: directories and globs, stdin, encodings, the size cap."""
from __future__ import annotations

import io
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from citecheck.errors import InputError
from citecheck.extract import DEFAULT_MAX_BYTES, collect, read_text, sniff

ROOT = Path(__file__).resolve().parents[2]


def _tree(root: Path) -> None:
    for rel, text in {
        "a.md": "[a](https://a.com)", "notes.txt": "https://t.com", "page.html": "<a href='https://h.com'>h</a>",
        "drafts/wip.md": "https://wip.com", "sub/deep/b.markdown": "https://b.com", "sub/ignored.py": "x = 1",
        ".git/c.md": "https://git.com", "node_modules/d.md": "https://nm.com",
        "sourced_corpus.json": '[{"id": "src-001", "url": "https://c.com"}]',
    }.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def _names(root: Path, **kw: tuple[str, ...]) -> list[str]:
    inputs = collect([str(root)], **kw)  # type: ignore[arg-type]
    paths = [d.path for d in inputs.documents] + [c.path for c in inputs.corpora]
    return sorted(str(Path(p).relative_to(root)) for p in paths)


def test_directories_are_walked_with_default_globs(tmp_path: Path) -> None:
    _tree(tmp_path)
    assert _names(tmp_path) == ["a.md", "drafts/wip.md", "notes.txt", "page.html", "sourced_corpus.json",
                                "sub/deep/b.markdown"]


def test_include_and_exclude_globs_match_names_and_relative_paths(tmp_path: Path) -> None:
    _tree(tmp_path)
    assert _names(tmp_path, include=("*.md", "*.markdown"), exclude=("drafts/*",)) == ["a.md", "sub/deep/b.markdown"]
    assert _names(tmp_path, include=("*.md",), exclude=("drafts",)) == ["a.md"]
    assert _names(tmp_path, include=("sub/*",)) == ["sub/deep/b.markdown", "sub/ignored.py"]


def test_explicit_file_ignores_include_and_sniffs_content(tmp_path: Path) -> None:
    memo = tmp_path / "memo.unknown"
    memo.write_text("<!doctype html><a href='https://x.com'>x</a>", encoding="utf-8")
    document = collect([str(memo)], include=("*.md",)).documents[0]
    assert (document.format, [link.url for link in document.links]) == ("html", ["https://x.com"])


def test_empty_directory_and_missing_path_are_one_line_errors(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no memos or corpora found"):
        collect([str(tmp_path)])
    with pytest.raises(InputError, match="no such file"):
        collect([str(tmp_path / "nope.md")])


def test_stdin_dash(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"# Memo\r\nSee https://stdin.com/x\r\n")))
    document = collect(["-"]).documents[0]
    assert (document.path, document.format) == ("<stdin>", "markdown")
    assert [(link.url, link.location.line) for link in document.links] == [("https://stdin.com/x", 2)]


def test_stdin_above_the_cap_is_refused_after_a_bounded_read(monkeypatch: pytest.MonkeyPatch) -> None:
    reads: list[int] = []

    class Capped(io.BytesIO):
        def read(self, size: int | None = -1) -> bytes:
            reads.append(-1 if size is None else size)
            return super().read(size)

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(Capped(b"x" * 5000)))
    with pytest.raises(InputError, match="max-file-size"):
        collect(["-"], max_bytes=1000)
    assert reads == [1001]


def test_a_50_mb_memo_is_refused_without_being_read(tmp_path: Path) -> None:
    big = tmp_path / "huge.md"
    with open(big, "wb") as fh:  # sparse: 50 MB on paper, nothing on disk
        fh.truncate(50 * 1024 * 1024)
    started = time.perf_counter()
    with pytest.raises(InputError, match=r"above the 20971520-byte cap \(see max-file-size\)"):
        read_text(str(big), DEFAULT_MAX_BYTES)
    assert time.perf_counter() - started < 1.0


def test_the_cap_is_configurable(tmp_path: Path) -> None:
    memo = tmp_path / "memo.md"
    memo.write_text("https://x.com\n" * 100, encoding="utf-8")
    with pytest.raises(InputError, match="max-file-size"):
        collect([str(memo)], max_bytes=1000)
    assert len(collect([str(memo)], max_bytes=2000).documents[0].links) == 100


def test_binary_and_bad_utf8_are_refused_with_a_line(tmp_path: Path) -> None:
    binary, latin = tmp_path / "b.md", tmp_path / "l.md"
    binary.write_bytes(b"PK\x03\x04\x00\x00")
    latin.write_bytes(b"ok\nstill ok\nbad \xfc here\n")
    with pytest.raises(InputError, match="binary"):
        read_text(str(binary))
    with pytest.raises(InputError, match=r"l\.md:3: invalid UTF-8 \(byte 0xfc"):
        read_text(str(latin))


def test_bom_and_crlf_are_normalised(tmp_path: Path) -> None:
    memo = tmp_path / "m.md"
    memo.write_bytes(b"\xef\xbb\xbf# T\r\n\r\nSee https://x.com\r\n")
    document = collect([str(memo)]).documents[0]
    assert document.text.startswith("# T\n") and document.links[0].location.line == 3


def test_sniffing() -> None:
    assert sniff("x.qmd", "") == sniff("x.Rmd", "") == sniff("x.mdx", "") == "markdown"
    assert sniff("<stdin>", "  <!DOCTYPE html><p>") == "html"
    assert sniff("<stdin>", '[ {"id": "src-001"} ]') == "corpus"
    assert sniff("notes.txt", "# not markdown") == "text"


def test_cli_refuses_an_oversized_memo_with_one_line(tmp_path: Path) -> None:
    big = tmp_path / "huge.md"
    with open(big, "wb") as fh:
        fh.truncate(50 * 1024 * 1024)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.run([sys.executable, "-m", "citecheck", "audit", "--offline", str(big)],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path, check=False, env=env)
    assert proc.returncode == 2
    assert proc.stderr.strip().count("\n") == 0 and "max-file-size" in proc.stderr
