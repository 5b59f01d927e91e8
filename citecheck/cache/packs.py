"""Parsed rule packs kept by content, so that a CLI run reads its packs without PyYAML.

A pre-commit hook runs `citecheck audit --offline` on every commit; parsing the shipped packs cost
each run ~10 ms and importing PyYAML ~20 ms more (together about a ninth of a small audit). A pack's
parse is a function of its text alone, so the CLI keeps the parsed documents in one JSON file
(`$XDG_CACHE_HOME/citecheck/packs.json`), each under the file's whole text, with the parser's
identity (PyYAML's files and citecheck's YAML limits) for the whole file:

- the key is the text itself, not a digest of it: the cache never answers for other bytes (and
  needs no hashlib, whose OpenSSL start costs more than the JSON it saves reading);
- another PyYAML or other limits empty the cache;
- a pack that fails to parse is never stored, so its one-line error comes on every run;
- only documents JSON keeps exactly are stored (strings, numbers, booleans, null, lists and
  string-keyed mappings: a date or an integer key is parsed anew each time);
- a missing, unreadable or corrupt cache file is a miss, and one that cannot be written is skipped.

The file keeps the documents of the last `KEEP` distinct packs read, most recent first.
"""
from __future__ import annotations

import json
import os
from collections.abc import Callable
from importlib.util import find_spec
from pathlib import Path
from typing import Any

FORMAT = 2
KEEP = 64  # the shipped packs and a few projects' own


class PackCache:
    """`parse(text, parse_text)`: the document a pack file's text holds, from the cache when it has
    it, else from `parse_text(text)`; `save()` writes what this run used back."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.parser = _parser_identity()
        self.docs = _read(path, self.parser)
        self.used: dict[str, Any] = {}

    @classmethod
    def default(cls) -> PackCache | None:
        """The CLI's cache file; None when there is no home directory to keep it in (a container
        user without a passwd entry and no $HOME): then every run parses its packs."""
        try:
            base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
        except (RuntimeError, KeyError):
            return None
        return cls(Path(base) / "citecheck" / "packs.json")

    def parse(self, text: str, parse_text: Callable[[str], Any]) -> Any:
        """The document a pack file's `text` holds: the cache's, else `parse_text(text)`'s."""
        if text in self.docs:
            doc = self.docs[text]
        else:
            doc = parse_text(text)
            if not _json_exact(doc):
                return doc
        self.used[text] = doc
        return doc

    def save(self) -> None:
        """Write the cache when this run parsed something it did not have (atomically; an
        unwritable cache directory is not an error: the next run parses again)."""
        if all(key in self.docs for key in self.used):
            return
        kept = {**self.used, **{k: v for k, v in self.docs.items() if k not in self.used}}
        docs = dict(list(kept.items())[:KEEP])
        payload = {"format": FORMAT, "parser": self.parser, "docs": docs}
        from citecheck._util.atomic import atomic_write

        try:
            atomic_write(self.path, json.dumps(payload, separators=(",", ":")))
        except OSError:
            pass
        self.docs = docs


def _read(path: Path, parser: str) -> dict[str, Any]:
    try:
        payload = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return {}
    if not isinstance(payload, dict) or payload.get("format") != FORMAT or payload.get("parser") != parser:
        return {}
    docs = payload.get("docs")
    return docs if isinstance(docs, dict) else {}


def _parser_identity() -> str:
    """What else a parse depends on: the installed PyYAML (its package files, found without importing
    it) and the limits `citecheck._util.safeload` applies."""
    from citecheck._util import safeload

    spec = find_spec("yaml")
    stamp = ""
    if spec is not None and spec.origin:
        folder = Path(spec.origin).parent
        stamp = ";".join(f"{f.name}:{f.stat().st_size}:{f.stat().st_mtime_ns}" for f in sorted(folder.iterdir())
                         if f.is_file())
    return f"{stamp};{safeload.MAX_YAML_NODES};{safeload.MAX_DEPTH}"


def _json_exact(doc: Any) -> bool:
    """Whether JSON gives `doc` back unchanged (same types, same values)."""
    if doc is None or isinstance(doc, (str, bool, int)):
        return True
    if isinstance(doc, float):
        return doc == doc and doc not in (float("inf"), float("-inf"))
    if isinstance(doc, list):
        return all(_json_exact(item) for item in doc)
    if isinstance(doc, dict):
        return all(isinstance(key, str) and _json_exact(value) for key, value in doc.items())
    return False
