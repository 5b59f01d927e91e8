"""Pack files checked against the JSON Schema of their pack (`citecheck/schemas/pack-*.schema.json`).

A pack that loads but says the wrong thing disables a rule in silence: `titles: 'page not found'`
(a string, not a list) replaced H003's title patterns with one string, and a misspelt key
(`phrasez:`) was accepted and never read. Every pack file is validated when it is loaded; the first
problem in the file becomes one line naming the file, the line and the key.
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from citecheck.errors import PackError


@cache
def schema_for(name: str) -> dict[str, Any] | None:
    """The schema of data pack `name` (or of a `kind: rules` pack for 'rules'); None when no
    built-in rule reads a pack of that name (a third-party rule's pack: see `Registry`)."""
    file = resources.files("citecheck.schemas").joinpath(f"pack-{name}.schema.json")
    if not file.is_file():
        return None
    data: dict[str, Any] = json.loads(file.read_text(encoding="utf-8"))
    return data


def validate_pack(file: Path, text: str, doc: Mapping[str, Any], loader: Any) -> None:
    """Raise PackError for the first (by line) way `doc` breaks its pack's schema."""
    kind = doc.get("kind", "data")
    schema = schema_for("rules" if kind == "rules" else str(doc.get("pack")))
    if schema is None:
        return
    from jsonschema import Draft202012Validator, FormatChecker  # only when a pack is loaded

    validator = Draft202012Validator(schema, format_checker=FormatChecker(formats=["regex"]))
    errors = list(validator.iter_errors(doc))
    if not errors:
        return
    root = yaml.compose(text, Loader=loader)
    # an unknown key first: a misspelt key is also the reason a required one is missing
    ranked = sorted(errors, key=lambda error: error.validator != "additionalProperties")
    found = sorted((_describe(error, root) for error in ranked if error.validator == ranked[0].validator),
                   key=lambda item: item[0])
    line, message = found[0]
    raise PackError(f"{file}:{line}: {message}")


def _describe(error: Any, root: Any) -> tuple[int, str]:
    path = list(error.absolute_path)
    where = _dotted(path) or "the pack"
    if error.validator == "additionalProperties":
        known = sorted(error.schema.get("properties", {}))
        extra = sorted(set(error.instance) - set(known))
        key = extra[0] if extra else ""
        return _line(root, path, key), f"{where}: unknown key {key!r} (known: {', '.join(known)})"
    if error.validator == "required":
        missing = [key for key in error.validator_value if key not in error.instance]
        return _line(root, path), f"{where}: missing key {missing[0]!r}"
    if error.validator == "format":
        reason = f": {error.cause}" if error.cause else ""
        return _line(root, path), f"{where}: {error.instance!r} is not a valid regular expression{reason}"
    if error.validator == "type":
        wanted = error.validator_value
        wanted = " or ".join(wanted) if isinstance(wanted, list) else wanted
        return _line(root, path), f"{where}: expected {_article(str(wanted))}, got {_shown(error.instance)}"
    return _line(root, path), f"{where}: {error.message}"


_KINDS = {"array": "a list", "object": "a mapping", "string": "a string", "integer": "an integer",
          "boolean": "true or false", "number": "a number", "null": "nothing"}


def _article(json_type: str) -> str:
    return " or ".join(_KINDS.get(t, t) for t in json_type.split(" or "))


def _shown(value: Any) -> str:
    kind = {str: "a string", list: "a list", dict: "a mapping", bool: "true/false", int: "a number",
            float: "a number", type(None): "nothing"}.get(type(value), type(value).__name__)
    text = repr(value)
    return f"{kind} {text[:60]}{'…' if len(text) > 60 else ''}" if value is not None else kind


def _dotted(path: Iterable[Any]) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _line(root: Any, path: list[Any], key: str = "") -> int:
    """The 1-based line of the YAML node at `path`, or of the mapping key `key` below it."""
    node = root
    for part in path:
        child = _child(node, part)
        if child is None:
            break
        node = child[1]
    if key and (found := _child(node, key)) is not None:
        node = found[0]
    mark = getattr(node, "start_mark", None)
    return mark.line + 1 if mark is not None else 1


def _child(node: Any, part: Any) -> tuple[Any, Any] | None:
    """(key node, value node) of `part` in a mapping node, (item, item) in a sequence node."""
    if isinstance(node, yaml.MappingNode):
        return next(((k, v) for k, v in node.value if k.value == str(part)), None)
    if isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value):
        return node.value[part], node.value[part]
    return None
