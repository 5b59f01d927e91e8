"""CSL bibliographies as a `Bibliography`: CSL-JSON files (Pandoc's `.json` bibliographies, Zotero's
export), CSL-YAML files, and the `references:` list of a memo's front matter. Each item's location
is the line of its `id`."""
from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from typing import Any

from citecheck._util.safeload import LimitError, load_json, load_yaml
from citecheck.errors import InputError
from citecheck.extract.bibfields import entry_from_fields
from citecheck.models import BibEntry, Bibliography, Location

_NAME_FIELDS = ("author", "editor")


def load_csl_json(path: str, text: str) -> Bibliography:
    """A CSL-JSON array of items (or `{"items": [...]}`); malformed JSON is a one-line InputError."""
    try:
        data = load_json(text)
    except json.JSONDecodeError as err:
        raise InputError(f"{path}:{err.lineno}: invalid CSL JSON: {err.msg}") from None
    except LimitError as err:
        raise InputError(f"{path}: CSL JSON refused: {err}") from None
    if isinstance(data, dict) and isinstance(data.get("items"), list):
        data = data["items"]
    if not isinstance(data, list):
        raise InputError(f"{path}:1: a CSL JSON bibliography must be an array of items")
    return Bibliography(path, "csl-json", tuple(csl_entries(path, data, text, json_style=True)))


def load_csl_yaml(path: str, text: str) -> Bibliography:
    """A CSL-YAML file: a list of items, or a mapping with `references:`."""
    import yaml

    try:
        data = load_yaml(text)
    except (yaml.YAMLError, LimitError) as err:
        raise InputError(f"{path}: invalid CSL YAML: {err}") from None
    if isinstance(data, dict):
        data = data.get("references")
    if not isinstance(data, list):
        raise InputError(f"{path}:1: a CSL YAML bibliography must be a list of items or have `references:`")
    return Bibliography(path, "csl-yaml", tuple(csl_entries(path, data, text, json_style=False)))


def looks_like_csl(data: Any) -> bool:
    """Whether parsed JSON is a CSL item list rather than a citecheck corpus (items have `type` and
    `id`, and no corpus `url` field)."""
    items = [d for d in data[:20] if isinstance(d, dict)] if isinstance(data, list) else []
    return bool(items) and all("id" in d and "type" in d and "url" not in d for d in items)


def csl_entries(path: str, items: Iterable[Any], text: str, json_style: bool) -> list[BibEntry]:
    """Entries of CSL items; each located at its `id` in `text` (searched in order)."""
    out: list[BibEntry] = []
    cursor = 0
    for item in items:
        if not isinstance(item, Mapping) or "id" not in item:
            continue
        key = str(item["id"])
        cursor, location = _locate(path, text, key, cursor, json_style)
        out.append(entry_from_csl(key, item, location))
    return out


def entry_from_csl(key: str, item: Mapping[str, Any], location: Location) -> BibEntry:
    fields = {str(k).lower(): _flat(v) for k, v in item.items() if k not in _NAME_FIELDS and k != "id"}
    fields["year"] = _issued_year(item.get("issued"))
    names = item.get("author") or item.get("editor") or []
    authors = tuple(n for n in (_csl_name(a) for a in (names if isinstance(names, list) else [])) if n)
    return entry_from_fields(key, str(item.get("type", "")), location, fields, authors)


def _csl_name(name: Any) -> str:
    if isinstance(name, str):
        return name
    if not isinstance(name, Mapping):
        return ""
    if name.get("literal"):
        return str(name["literal"])
    family = " ".join(str(name.get(p, "")) for p in ("non-dropping-particle", "family") if name.get(p))
    given = str(name.get("given", ""))
    return f"{family}, {given}" if family and given else family or given


def _issued_year(issued: Any) -> str:
    if isinstance(issued, Mapping):
        parts = issued.get("date-parts")
        if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
            return str(parts[0][0])
        return str(issued.get("raw") or issued.get("literal") or issued.get("year") or "")
    if isinstance(issued, list) and issued and isinstance(issued[0], Mapping):  # CSL YAML: [{year: 2021}]
        return str(issued[0].get("year", ""))
    return "" if issued is None else str(issued)


def _flat(value: Any) -> str:
    if isinstance(value, list):
        return "; ".join(_flat(v) for v in value)
    return "" if value is None else str(value)


def _locate(path: str, text: str, key: str, cursor: int, json_style: bool) -> tuple[int, Location]:
    if json_style:
        pattern = rf'"id"\s*:\s*{re.escape(json.dumps(key))}'
    else:
        pattern = rf"\bid\s*:\s*['\"]?{re.escape(key)}['\"]?\s*$"
    found = re.compile(pattern, re.MULTILINE).search(text, cursor)
    if found is None:
        return cursor, Location(path, text.count("\n", 0, cursor) + 1, 1)
    line_start = text.rfind("\n", 0, found.start()) + 1
    return found.end(), Location(path, text.count("\n", 0, found.start()) + 1, found.start() - line_start + 1)
