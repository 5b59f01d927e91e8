"""Turn paths into subjects: memos (Markdown, HTML, text) become Documents, corpora become Corpora."""
from __future__ import annotations

import fnmatch
import json
import os
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from citecheck.errors import InputError
from citecheck.extract.corpus import load_corpus_text
from citecheck.extract.markdown import extract_markdown
from citecheck.extract.text import extract_text
from citecheck.models import Corpus, Document

MARKDOWN_EXT = {".md", ".markdown", ".mdown", ".mkd", ".mdx", ".qmd", ".rmd"}
HTML_EXT = {".html", ".htm", ".xhtml"}
TEXT_EXT = {".txt", ".text", ".rst"}
JSON_EXT = {".json"}
DEFAULT_INCLUDE = ("*.md", "*.markdown", "*.mdx", "*.qmd", "*.html", "*.htm", "*.txt", "*sourced_corpus*.json",
                   "*corpus*.json")
DEFAULT_EXCLUDE = (".git", "node_modules", ".venv", "venv", "__pycache__", ".tox", "site-packages")
DEFAULT_MAX_BYTES = 20 * 1024 * 1024


@dataclass
class Inputs:
    documents: list[Document] = field(default_factory=list)
    corpora: list[Corpus] = field(default_factory=list)


def collect(paths: Iterable[str], include: Iterable[str] = DEFAULT_INCLUDE, exclude: Iterable[str] = (),
            max_bytes: int = DEFAULT_MAX_BYTES) -> Inputs:
    """Read every path (files, directories recursively, `-` for stdin) into subjects."""
    return build_inputs(read_inputs(paths, include, exclude, max_bytes))


def read_inputs(paths: Iterable[str], include: Iterable[str] = DEFAULT_INCLUDE, exclude: Iterable[str] = (),
                max_bytes: int = DEFAULT_MAX_BYTES) -> list[tuple[str, str]]:
    """(path, text) of every input file, in order, before any extraction."""
    files: list[tuple[str, str]] = []
    include, exclude = tuple(include), tuple(exclude) + DEFAULT_EXCLUDE
    for raw in paths:
        if raw == "-":
            files.append(("<stdin>", _decode("<stdin>", sys.stdin.buffer.read(max_bytes + 1), max_bytes)))
            continue
        path = Path(raw)
        if path.is_dir():
            found = sorted(_walk(path, include, exclude))
            if not found:
                raise InputError(f"{raw}: no memos or corpora found (include: {', '.join(include)})")
            files += [(str(file), read_text(str(file), max_bytes)) for file in found]
        elif path.exists():
            files.append((raw, read_text(raw, max_bytes)))
        else:
            raise InputError(f"{raw}: no such file or directory")
    return files


def build_inputs(files: Iterable[tuple[str, str]]) -> Inputs:
    """Extract the subjects of files read by `read_inputs`."""
    inputs = Inputs()
    for path, text in files:
        _add(inputs, path, text)
    return inputs


def _walk(root: Path, include: tuple[str, ...], exclude: tuple[str, ...]) -> Iterable[Path]:
    """Files under `root` matching an include glob and no exclude glob (symlinked folders not followed).

    A glob matches a file's name, its path relative to `root`, or its path as given.
    """
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


def read_text(path: str, max_bytes: int = DEFAULT_MAX_BYTES) -> str:
    """Read a file as UTF-8, refusing binaries and files above the size cap with one-line errors."""
    try:
        size = os.path.getsize(path)
        if size > max_bytes:
            raise InputError(f"{path}: file is {size} bytes, above the {max_bytes}-byte cap (see max-file-size)")
        with open(path, "rb") as fh:
            data = fh.read(max_bytes + 1)
    except OSError as err:
        raise InputError(f"{path}: cannot read: {err.strerror or err}") from None
    return _decode(path, data, max_bytes)


def _decode(path: str, data: bytes, max_bytes: int) -> str:
    if len(data) > max_bytes:
        raise InputError(f"{path}: input is above the {max_bytes}-byte cap (see max-file-size)")
    if b"\x00" in data[:8192]:
        raise InputError(f"{path}: looks like a binary file, not a memo")
    try:
        text: str | None = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        text = _declared_html(data)
        if text is None:
            line = data[: err.start].count(b"\n") + 1
            raise InputError(f"{path}:{line}: invalid UTF-8 (byte 0x{data[err.start]:02x} at offset {err.start})") from None
    assert text is not None
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _declared_html(data: bytes) -> str | None:
    """An HTML page that is not UTF-8 but declares its charset (`<meta charset>`) is read in it."""
    from w3lib.encoding import html_body_declared_encoding

    encoding = html_body_declared_encoding(data[:4096])
    if not encoding or encoding.replace("-", "").lower() in ("utf8", "utf8sig"):
        return None
    try:
        return data.decode(encoding)
    except (LookupError, UnicodeDecodeError):
        return None


def _add(inputs: Inputs, path: str, text: str) -> None:
    kind = sniff(path, text)
    if kind == "corpus":
        inputs.corpora.append(load_corpus_text(path, text))
    else:
        inputs.documents.append(extract_document(path, text, kind))


def sniff(path: str, text: str) -> str:
    """markdown | html | text | corpus, by extension and then by content."""
    ext = Path(path).suffix.lower()
    if ext in JSON_EXT:
        return "corpus"
    if ext in HTML_EXT:
        return "html"
    if ext in MARKDOWN_EXT:
        return "markdown"
    if ext in TEXT_EXT:
        return "text"
    head = text.lstrip()[:200].lower()
    if head.startswith("[") and head[1:].lstrip().startswith("{"):
        return "corpus"
    if head.startswith(("<!doctype html", "<html")):
        return "html"
    return "markdown"


def extract_document(path: str, text: str, kind: str = "markdown") -> Document:
    """Extract a memo given as text; line ends are normalised first (the parsers count LF only)."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if kind == "html":
        from citecheck.extract.html import extract_html  # lxml: only for HTML memos

        return extract_html(path, text)
    return extract_text(path, text) if kind == "text" else extract_markdown(path, text)


def load_corpus(path: str, max_bytes: int = DEFAULT_MAX_BYTES) -> Corpus:
    """Load a corpus file given with `--corpus`."""
    return load_corpus_text(path, read_text(path, max_bytes))


__all__ = ["Inputs", "build_inputs", "collect", "extract_document", "json", "load_corpus", "read_inputs", "read_text"]
