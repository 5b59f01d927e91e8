"""Turn paths into subjects: memos (Markdown, HTML, text) become Documents, corpora become Corpora."""
from __future__ import annotations

import codecs
import json
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from citecheck.errors import InputError
from citecheck.extract.corpus import load_corpus_text
from citecheck.extract.markdown import extract_markdown
from citecheck.extract.text import extract_text
from citecheck.extract.walk import DEFAULT_EXCLUDE, InputFiles, Problem, gather, problem_from
from citecheck.models import Bibliography, Corpus, Document

MARKDOWN_EXT = {".md", ".markdown", ".mdown", ".mkd", ".mdx", ".qmd", ".rmd"}
HTML_EXT = {".html", ".htm", ".xhtml"}
TEXT_EXT = {".txt", ".text", ".rst"}
JSON_EXT = {".json"}
BIB_EXT = {".bib", ".bibtex", ".biblatex"}
DEFAULT_INCLUDE = ("*.md", "*.markdown", "*.mdx", "*.qmd", "*.html", "*.htm", "*.txt", "*sourced_corpus*.json",
                   "*corpus*.json", "*.bib")
DEFAULT_MAX_BYTES = 20 * 1024 * 1024


@dataclass
class Inputs:
    documents: list[Document] = field(default_factory=list)
    corpora: list[Corpus] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)  # walked entries that could not be audited
    bibliographies: list[Bibliography] = field(default_factory=list)  # .bib / CSL-JSON files given as inputs


def collect(paths: Iterable[str], include: Iterable[str] = DEFAULT_INCLUDE, exclude: Iterable[str] = (),
            max_bytes: int = DEFAULT_MAX_BYTES, respect_ignore: bool = True) -> Inputs:
    """Read every path (files, directories recursively, `-` for stdin) into subjects."""
    read = read_inputs(paths, include, exclude, max_bytes, respect_ignore)
    return build_inputs(read.files, read.problems, alone=read.alone)


def read_inputs(paths: Iterable[str], include: Iterable[str] = DEFAULT_INCLUDE, exclude: Iterable[str] = (),
                max_bytes: int = DEFAULT_MAX_BYTES, respect_ignore: bool = True) -> InputFiles:
    """(path, text) of every input file, in order, before any extraction, and the walked entries
    that could not be read (see `citecheck.extract.walk`)."""
    return gather(paths, tuple(include), tuple(exclude), max_bytes, read_text,
                  lambda data: _decode("<stdin>", data, max_bytes), respect_ignore)


def build_inputs(files: Iterable[tuple[str, str]], problems: Iterable[Problem] = (), *, alone: bool = False) -> Inputs:
    """Extract the subjects of files read by `read_inputs`. A file that cannot be extracted (its
    front matter or corpus JSON is malformed) is an `E003` problem for that file, and the others
    are extracted; `alone` (one file named, `InputFiles.alone`) raises the usual one-line error."""
    inputs = Inputs(problems=list(problems))
    for path, text in files:
        try:
            _add(inputs, path, text)
        except InputError as err:
            if alone:
                raise
            inputs.problems.append(problem_from(path, err))
        except Exception as err:  # noqa: BLE001 - a parser bug on one file must not end the run
            crash = InputError(f"{path}: could not be parsed (a citecheck bug, please report it: "
                               f"{type(err).__name__}: {err})"[:400])
            if alone:
                raise crash from None
            inputs.problems.append(problem_from(path, crash))
    return inputs


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


_BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"), (codecs.BOM_UTF16_LE, "utf-16"),
         (codecs.BOM_UTF16_BE, "utf-16"))  # UTF-32 first: its LE mark starts with UTF-16's


def _decode(path: str, data: bytes, max_bytes: int) -> str:
    if len(data) > max_bytes:
        raise InputError(f"{path}: input is above the {max_bytes}-byte cap (see max-file-size)")
    bom = next((encoding for mark, encoding in _BOMS if data.startswith(mark)), None)
    if bom:  # a byte-order mark declares the encoding: UTF-16/32 text is full of NULs, yet no binary
        try:
            return data.decode(bom).replace("\r\n", "\n").replace("\r", "\n")  # the codec drops the mark
        except UnicodeDecodeError as err:
            raise InputError(f"{path}: invalid {bom.upper()} after its byte-order mark (offset {err.start})") from None
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
    elif kind in ("bibtex", "csl-json"):
        from citecheck.extract.bibliography import parse_bibliography

        inputs.bibliographies.append(parse_bibliography(path, text))
    else:
        inputs.documents.append(extract_document(path, text, kind))


def sniff(path: str, text: str) -> str:
    """markdown | html | text | corpus | bibtex | csl-json, by extension and then by content."""
    ext = Path(path).suffix.lower()
    if ext in BIB_EXT:
        return "bibtex"
    if ext in JSON_EXT:
        return "csl-json" if _looks_csl(text) else "corpus"
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


# a CSL-JSON bibliography: an array whose items carry a CSL "type" and no corpus "url" (CSL says "URL")
_CSL_TYPE = re.compile(r'"type"\s*:\s*"(?:article(?:-journal|-magazine|-newspaper)?|book|chapter|paper-conference|'
                       r'report|thesis|webpage|post(?:-weblog)?|dataset|manuscript|entry(?:-dictionary|-encyclopedia)?|'
                       r'patent|software|speech|standard|legal_case|legislation|document|review(?:-book)?|pamphlet|'
                       r'personal_communication|interview|broadcast|map|graphic|figure|collection|event|periodical)"')


def _looks_csl(text: str) -> bool:
    head = text[:4000]
    return head.lstrip().startswith("[") and bool(_CSL_TYPE.search(head)) and '"url"' not in head


def extract_document(path: str, text: str, kind: str = "markdown") -> Document:
    """Extract a memo given as text; line ends are normalised first (the parsers count LF only)."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if kind == "html":
        from citecheck.extract.html import extract_html  # lxml: only for HTML memos

        return extract_html(path, text)
    return extract_text(path, text) if kind == "text" else extract_markdown(path, text)


def load_corpus(path: str, max_bytes: int = DEFAULT_MAX_BYTES) -> Corpus:
    """Load a corpus file given with `--corpus`, with the retired list of its ID registry."""
    from dataclasses import replace

    from citecheck.extract.corpus import read_retired

    corpus = load_corpus_text(path, read_text(path, max_bytes))
    retired = read_retired(path)
    return replace(corpus, retired=retired) if retired else corpus


__all__ = ["DEFAULT_EXCLUDE", "InputFiles", "Inputs", "Problem", "build_inputs", "collect", "extract_document", "json", "load_corpus", "read_inputs", "read_text"]
