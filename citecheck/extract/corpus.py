"""Load `sourced_corpus.json` keeping the line each entry starts on (for C-rule findings)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from citecheck._util.safeload import LimitError, json_decoder, load_json, raw_decode
from citecheck.errors import CorpusError
from citecheck.models import Corpus, Source

_FIELDS = {f for f in Source.__dataclass_fields__ if f not in ("line", "extra")}
_WS = " \t\r\n"


def sidecar(corpus_path: str | Path) -> Path:
    """The ID registry beside a corpus (`citecheck.harvest.ids` owns its format)."""
    return Path(f"{corpus_path}.ids")


def read_retired(corpus_path: str | Path) -> dict[str, dict[str, Any]]:
    """The registry's retired list (ID → record): sources retired dead on evidence, their IDs
    reserved. No registry, no retired IDs; an unreadable one is a one-line CorpusError."""
    path = sidecar(corpus_path)
    if not path.is_file():
        return {}
    try:
        data = load_json(path.read_text(encoding="utf-8"))
        return {str(r["id"]): dict(r) for r in data.get("retired") or []}
    except (OSError, ValueError, KeyError, TypeError, AttributeError, LimitError) as err:
        raise CorpusError(f"{path}: unreadable ID registry ({err}); restore it (deleting it lets a dropped or "
                          "retired source's URL get a new ID)") from None


def load_corpus_text(path: str, text: str) -> Corpus:
    """Parse a corpus (a JSON array of objects); malformed input is a one-line CorpusError."""
    decoder = json_decoder()
    pos = _skip(text, 0)
    if pos >= len(text) or text[pos] != "[":
        if pos < len(text) and text[pos] == "{":
            return _from_wrapped(path, text)
        raise CorpusError(f"{path}:1: corpus must be a JSON array of sources")
    pos = _skip(text, pos + 1)
    records: list[dict[str, Any]] = []
    lines: list[int] = []
    line, counted = 1, 0  # newlines counted incrementally: counting from 0 each time was quadratic
    while pos < len(text) and text[pos] != "]":
        line += text.count("\n", counted, pos)
        try:
            obj, end = raw_decode(decoder, text, pos)
        except json.JSONDecodeError as err:
            raise CorpusError(f"{path}:{err.lineno}: invalid JSON: {err.msg}") from None
        except LimitError as err:  # a 5,000-digit integer, 100k levels of nesting, a lone surrogate
            raise CorpusError(f"{path}:{line}: corpus entry refused: {err}") from None
        counted = pos
        if not isinstance(obj, dict):
            raise CorpusError(f"{path}:{line}: corpus entry must be an object, got {type(obj).__name__}")
        records.append(obj)
        lines.append(line)
        pos = _skip(text, end)
        if pos < len(text) and text[pos] == ",":
            pos = _skip(text, pos + 1)
        elif pos < len(text) and text[pos] != "]":
            raise CorpusError(f"{path}:{text.count(chr(10), 0, pos) + 1}: invalid JSON: expected ',' or ']'")
    if pos >= len(text):
        raise CorpusError(f"{path}:{text.count(chr(10)) + 1}: invalid JSON: unterminated array")
    if _skip(text, pos + 1) < len(text):
        raise CorpusError(f"{path}:{text.count(chr(10), 0, pos) + 1}: invalid JSON: extra data after the array")
    return build_corpus(path, records, lines)


def _from_wrapped(path: str, text: str) -> Corpus:
    try:
        data = load_json(text)
    except json.JSONDecodeError as err:
        raise CorpusError(f"{path}:{err.lineno}: invalid JSON: {err.msg}") from None
    except LimitError as err:
        raise CorpusError(f"{path}: corpus refused: {err}") from None
    sources = data.get("sources") if isinstance(data, dict) else None
    if not isinstance(sources, list) or not all(isinstance(s, dict) for s in sources):
        raise CorpusError(f"{path}:1: corpus must be a JSON array of sources (or an object with a 'sources' array)")
    return build_corpus(path, sources, [1] * len(sources))


def build_corpus(path: str, records: list[dict[str, Any]], lines: list[int]) -> Corpus:
    """Turn raw records into Sources, tolerating missing fields (C001 reports them)."""
    sources = tuple(source_from_record(rec, line) for rec, line in zip(records, lines))
    return Corpus(path, sources, tuple(records), tuple(lines))


def source_from_record(rec: dict[str, Any], line: int = 1) -> Source:
    known = {k: rec[k] for k in _FIELDS if k in rec}
    for key in list(known):
        if key != "status" and not isinstance(known[key], str):
            known[key] = "" if known[key] is None else str(known[key])
    status = known.get("status")
    if status is not None and not isinstance(status, int):
        try:
            known["status"] = int(status)
        except (TypeError, ValueError, OverflowError):
            known["status"] = None
    extra = {k: v for k, v in rec.items() if k not in _FIELDS}
    return Source(**{"id": "", "url": "", **known}, line=line, extra=extra)


def _skip(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in _WS:
        pos += 1
    return pos
