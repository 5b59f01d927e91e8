"""The harvest outline: a YAML file of sections, each with questions, queries and preferred sources.

Validated strictly against `citecheck/schemas/outline.schema.json` (unknown keys, wrong types,
unknown providers), plus what a schema cannot say (duplicate keys, duplicate section ids). Every
error is one OutlineError naming the file and line.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from citecheck.errors import OutlineError
from citecheck.harvest.yamlfile import key_line, line_of, node_at, parse_yaml, read_yaml, relative_to
from citecheck.schemas import load_schema

OUTLINE_SCHEMA = "outline.schema.json"
DEFAULT_LIMIT = 10
_SITE = re.compile(r"(?<!\S)@((?:[a-z0-9-]+\.)+[a-z]{2,63})(?=\s|$)", re.IGNORECASE)


@dataclass(frozen=True)
class Query:
    """One search query (or listed URL) and the outline line it was written on."""

    text: str
    line: int = 1


@dataclass(frozen=True)
class Section:
    id: str
    title: str
    questions: tuple[str, ...] = ()
    queries: tuple[Query, ...] = ()
    preferred_sources: tuple[str, ...] = ()
    providers: tuple[str, ...] = ()
    urls: tuple[Query, ...] = ()
    line: int = 1


@dataclass(frozen=True)
class Outline:
    title: str
    sections: tuple[Section, ...]
    company: Mapping[str, Any] = field(default_factory=dict)
    firm: Mapping[str, Any] = field(default_factory=dict)
    providers: tuple[str, ...] = ()
    limit: int = DEFAULT_LIMIT
    directory: str = ""
    path: str = "<outline>"


def split_sites(query: str) -> tuple[str, tuple[str, ...]]:
    """`"widget sales @census.gov"` -> `("widget sales", ("census.gov",))`."""
    sites = tuple(m.group(1).lower() for m in _SITE.finditer(query))
    return " ".join(_SITE.sub(" ", query).split()), sites


_MEMO_SUFFIXES = {".md", ".markdown", ".mdx", ".qmd", ".html", ".htm", ".txt"}


def load_outline(path: str | Path) -> Outline:
    """Read and validate an outline file; a memo given in its place says what is needed."""
    if Path(path).suffix.lower() in _MEMO_SUFFIXES:
        raise OutlineError(f"{path}: a memo, not an outline: this command needs the outline YAML (a mapping with "
                           "title, company and sections, see docs/harvest.md); a draft goes to `citecheck write`")
    data, node, where = read_yaml(path, OutlineError, "outline")
    return _build(data, node, where)


def parse_outline(text: str, path: str = "<outline>") -> Outline:
    """Validate outline YAML text; errors name `path:line`."""
    data, node = parse_yaml(text, path, OutlineError)
    return _build(data, node, path)


def _build(data: Any, node: yaml.Node | None, path: str) -> Outline:
    if node is None or not isinstance(data, dict):
        raise OutlineError(f"{path}:1: not an outline: an outline is a mapping with title, company and sections "
                           "(YAML, see docs/harvest.md)" + ("; a JSON array is a corpus (--corpus)" if isinstance(data, list)
                                                     else ""))
    _validate(data, node, path)
    sections = tuple(_section(s, node_at(node, ["sections", i])) for i, s in enumerate(data["sections"]))
    seen: dict[str, int] = {}
    for section in sections:
        if section.id in seen:
            raise OutlineError(f"{path}:{section.line}: duplicate section id {section.id!r} "
                               f"(first used on line {seen[section.id]})")
        seen[section.id] = section.line
    return Outline(title=data["title"], sections=sections, company=data["company"], firm=data.get("firm") or {},
                   providers=tuple(data.get("providers") or ()), limit=int(data.get("limit", DEFAULT_LIMIT)),
                   directory=relative_to(path, data.get("directory", "")), path=path)


def _section(raw: Mapping[str, Any], node: yaml.Node) -> Section:
    def lines(key: str) -> tuple[Query, ...]:
        return tuple(Query(str(v), line_of(node_at(node, [key, i]))) for i, v in enumerate(raw.get(key) or ()))

    return Section(id=raw["id"], title=raw["title"], questions=tuple(raw.get("questions") or ()),
                   queries=lines("queries"), preferred_sources=tuple(raw.get("preferred_sources") or ()),
                   providers=tuple(raw.get("providers") or ()), urls=lines("urls"), line=line_of(node))


def _validate(data: Mapping[str, Any], node: yaml.Node, path: str) -> None:
    import jsonschema

    validator = jsonschema.Draft202012Validator(load_schema(OUTLINE_SCHEMA))
    errors = sorted(validator.iter_errors(data), key=lambda e: line_of(node_at(node, list(e.absolute_path))))
    if not errors:
        return
    err = errors[0]
    at = list(err.absolute_path)
    where = ".".join(str(p) for p in at) or "top level"
    line = line_of(node_at(node, at))
    if err.validator == "additionalProperties":
        known = sorted(err.schema.get("properties", {}))
        unknown = min(set(err.instance) - set(known))
        raise OutlineError(f"{path}:{key_line(node_at(node, at), unknown, line)}: {where}: unknown key {unknown!r} "
                           f"(known keys: {', '.join(known)})")
    raise OutlineError(f"{path}:{line}: {where}: {_message(err)}")


def _message(err: Any) -> str:
    if err.validator == "enum":
        return f"unknown provider {err.instance!r} (known: {', '.join(map(str, err.validator_value))})"
    if err.validator == "pattern" and str(err.validator_value).startswith("^http"):
        return f"{err.instance!r} is not an http(s) URL"
    if err.validator == "pattern":
        return f"{err.instance!r} must be lowercase letters, digits, '-' or '_'"
    return str(err.message)
