"""The ID registry: `src-NNN` is a permanent function of a source's URL within a corpus.

The registry lives beside the corpus (`<corpus>.ids`, schema `citecheck/schemas/ids.schema.json`):
every ID ever issued, the URL it was issued for and its identity key (`citecheck.urls.dedupe_key`:
tracking parameters, fragment, scheme, `www.` and a trailing slash do not make another URL); the
retired list; and the high-water mark. A key, once it names an ID, names that ID forever: a URL
that returns gets its old ID back, and a new URL always gets a number above the mark, so no ID is
ever given to another URL. Only the URL's own key is registered, never where it redirects or
what it declares canonical: redirects change, and an ID must not follow them to another page. The mark is
never below the largest ID in the corpus either, so a crash between writing the corpus and the
registry cannot cause reuse. A version 1 sidecar (only the mark) is read and upgraded.
"""
from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from citecheck._util.atomic import atomic_write
from citecheck._util.safeload import load_json
from citecheck.errors import CorpusError
from citecheck.extract.corpus import sidecar as corpus_sidecar
from citecheck.models import Corpus
from citecheck.urls import dedupe_key

ID_RE = re.compile(r"^src-(\d{3}|[1-9]\d{3,})$")
VERSION = 2
KNOWN_VERSIONS = (1, 2)


def format_id(number: int) -> str:
    """`src-007`, `src-999`, `src-1000`: zero-padded to three digits, widened past 999."""
    return f"src-{number:03d}"


def id_number(source_id: str) -> int | None:
    match = ID_RE.match(source_id)
    return int(match.group(1)) if match else None


sidecar = corpus_sidecar  # one convention for where the registry lives (`citecheck.extract.corpus`)


def identity_keys(*urls: str) -> list[str]:
    return list(dict.fromkeys(dedupe_key(u) for u in urls if u))


@dataclass
class IdBook:
    """Identity keys -> IDs, each ID's URL, the retired list and the high-water mark."""

    by_key: dict[str, str] = field(default_factory=dict)
    owners: dict[str, str] = field(default_factory=dict)  # ID -> the URL it was issued for
    retired: dict[str, dict[str, Any]] = field(default_factory=dict)  # ID -> why and when
    high_water: int = 0
    issued: list[str] = field(default_factory=list)  # new this run

    @classmethod
    def from_corpus(cls, corpus: Corpus | None, corpus_path: str | Path | None) -> IdBook:
        """The registry beside `corpus_path` (if any), completed with the corpus's own entries."""
        book = read_registry(corpus_path) if corpus_path is not None else cls()
        if corpus is None:
            return book
        registered = dict(book.by_key)
        for source in corpus.sources:
            where = f"{corpus.path}:{source.line}"
            number = id_number(source.id)
            if number is None:
                raise CorpusError(f"{where}: id {source.id!r} is not src-NNN; refusing to append (fix the corpus "
                                  "or write to a new file)")
            owner = registered.get(dedupe_key(source.url)) if source.url else None
            if owner is not None and owner != source.id:
                raise CorpusError(f"{where}: {source.id}'s URL {source.url} is {owner} in "
                                  f"{sidecar(corpus_path or corpus.path)}: an ID names one URL forever; restore "
                                  "the corpus or its registry")
            book.high_water = max(book.high_water, number)
            book.owners.setdefault(source.id, source.url)
            book.retired.pop(source.id, None)  # back in the corpus by hand: citable again
            book.claim(source.id, [source.url])
        return book

    def lookup(self, urls: Iterable[str]) -> str | None:
        """The ID of the first of these URLs that has one."""
        return next((self.by_key[k] for k in identity_keys(*urls) if k in self.by_key), None)

    def id_of(self, url: str) -> str | None:
        """The ID this URL was given, if any."""
        return self.by_key.get(dedupe_key(url)) if url else None

    def claim(self, source_id: str, urls: Iterable[str]) -> None:
        """Let every still unclaimed key of `urls` name `source_id` (a key never changes owner)."""
        for key in identity_keys(*urls):
            self.by_key.setdefault(key, source_id)

    def assign(self, url: str) -> str:
        """The ID of this URL: the one it was given, or a new one above the high-water mark."""
        source_id = self.id_of(url)
        if source_id is None:
            self.high_water += 1
            source_id = format_id(self.high_water)
            self.issued.append(source_id)
            self.owners[source_id] = url
            self.claim(source_id, [url])
        return source_id

    def retire(self, source_id: str, record: Mapping[str, Any]) -> None:
        self.retired[source_id] = {"id": source_id, **record}

    def restore(self, source_id: str) -> bool:
        """Take an ID off the retired list (its URL is citable again); True when it was there."""
        return self.retired.pop(source_id, None) is not None

    def payload(self) -> dict[str, Any]:
        keys: dict[str, list[str]] = {}
        for key, source_id in self.by_key.items():
            keys.setdefault(source_id, []).append(key)
        order = sorted(set(self.owners) | set(keys), key=lambda i: id_number(i) or 0)
        return {"version": VERSION, "high_water": self.high_water, "next": format_id(self.high_water + 1),
                "note": "citecheck harvest: each ID names one URL forever; IDs up to high_water were issued and "
                        "none is ever given to another URL",
                "ids": {i: {"url": self.owners.get(i, ""), "keys": sorted(keys.get(i, []))} for i in order},
                "retired": [self.retired[i] for i in sorted(self.retired, key=lambda i: id_number(i) or 0)]}


def read_registry(corpus_path: str | Path) -> IdBook:
    """The registry beside a corpus; an empty one when there is none; a broken one is an error.

    Validated before any of it is trusted: a known version, an integer high-water mark, every ID
    `src-NNN` at or below the mark, each key naming one ID, each retired record naming a valid ID.
    A registry that fails is one line and exit 2: a corrupted one would hand a URL another's ID."""
    path = sidecar(corpus_path)
    if not path.exists():
        return IdBook()
    try:
        data = load_json(path.read_text(encoding="utf-8"))  # bounded: a hostile sidecar is one line, exit 2
        return _parse_registry(data)
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as err:
        raise CorpusError(f"{path}: unreadable ID registry ({err}); restore it (deleting it lets a dropped or "
                          "retired source's URL get a new ID)") from None


def _parse_registry(data: Any) -> IdBook:
    if not isinstance(data, dict):
        raise ValueError(f"a JSON object expected, got {type(data).__name__}")
    version = data.get("version", 1)
    if type(version) is not int or version not in KNOWN_VERSIONS:
        raise ValueError(f"version {version!r} is not one this citecheck reads ({', '.join(map(str, KNOWN_VERSIONS))})")
    mark = data["high_water"]
    if type(mark) is not int or mark < 0:
        raise ValueError(f"high_water must be a whole number, got {mark!r}")
    book = IdBook(high_water=mark)
    ids = data.get("ids") or {}
    if not isinstance(ids, dict):
        raise ValueError("ids must be an object")
    for source_id, entry in ids.items():
        _valid_id(source_id, mark)
        if not isinstance(entry, dict) or not isinstance(entry.get("url", ""), str):
            raise ValueError(f"{source_id}: an object with a url expected")
        book.owners[source_id] = entry.get("url", "")
        keys = entry.get("keys", [])
        if not isinstance(keys, list) or not all(isinstance(k, str) for k in keys):
            raise ValueError(f"{source_id}: keys must be a list of strings")
        for key in keys:
            if book.by_key.setdefault(key, source_id) != source_id:
                raise ValueError(f"key {key!r} names two IDs")
    retired = data.get("retired") or []
    if not isinstance(retired, list):
        raise ValueError("retired must be a list")
    for record in retired:
        _valid_id(record["id"], mark)
        book.retired[record["id"]] = dict(record)
    return book


def _valid_id(source_id: Any, mark: int) -> None:
    number = id_number(source_id) if isinstance(source_id, str) else None
    if number is None:
        raise ValueError(f"{source_id!r} is not an ID of the form src-NNN")
    if number > mark:
        raise ValueError(f"{source_id} is above the high-water mark {mark}")


def read_high_water(corpus_path: str | Path) -> int:
    return read_registry(corpus_path).high_water


def registry_text(book: IdBook) -> str:
    return json.dumps(book.payload(), indent=2, ensure_ascii=False) + "\n"


def write_registry(corpus_path: str | Path, book: IdBook) -> None:
    atomic_write(sidecar(corpus_path), registry_text(book))
