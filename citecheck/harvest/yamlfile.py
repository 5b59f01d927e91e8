"""YAML input files with line numbers: the outline and the source directory share these helpers."""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml

from citecheck._util.safeload import LimitError, load_yaml_node
from citecheck.errors import InputError


def read_yaml(path: str | Path, error: type[InputError], what: str) -> tuple[Any, yaml.Node | None, str]:
    """Parse a YAML file into (data, node tree, path); malformed YAML is `error` naming file:line."""
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise error(f"{file}: cannot read {what}: {getattr(err, 'strerror', None) or err}") from None
    data, node = parse_yaml(text, str(file), error)
    return data, node, str(file)


def parse_yaml(text: str, path: str, error: type[InputError]) -> tuple[Any, yaml.Node | None]:
    try:
        data, node = load_yaml_node(text)
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        raise error(f"{path}:{mark.line + 1 if mark else 1}: malformed YAML: "
                    f"{getattr(err, 'problem', None) or err}") from None
    except LimitError as err:
        raise error(f"{path}: {err}") from None
    if node is not None:
        no_duplicate_keys(node, path, error)
    return data, node


def no_duplicate_keys(node: yaml.Node, path: str, error: type[InputError]) -> None:
    """PyYAML keeps the last of two equal keys silently; an input file with one is an error."""
    if isinstance(node, yaml.MappingNode):
        seen: set[Any] = set()
        for key, value in node.value:
            if key.value in seen:
                raise error(f"{path}:{line_of(key)}: duplicate key {key.value!r}")
            seen.add(key.value)
            no_duplicate_keys(value, path, error)
    elif isinstance(node, yaml.SequenceNode):
        for item in node.value:
            no_duplicate_keys(item, path, error)


def node_at(node: yaml.Node, keys: Sequence[Any]) -> yaml.Node:
    """The deepest node along a JSON path (mapping keys and sequence indexes)."""
    for key in keys:
        if isinstance(node, yaml.MappingNode):
            match = next((v for k, v in node.value if k.value == key), None)
        elif isinstance(node, yaml.SequenceNode) and isinstance(key, int) and key < len(node.value):
            match = node.value[key]
        else:
            match = None
        if match is None:
            return node
        node = match
    return node


def key_line(node: yaml.Node, key: str, default: int) -> int:
    """The line of `key` inside a mapping node."""
    if isinstance(node, yaml.MappingNode):
        return next((line_of(k) for k, _ in node.value if k.value == key), default)
    return default


def line_of(node: yaml.Node) -> int:
    return node.start_mark.line + 1


def relative_to(base_file: str, value: str) -> str:
    """`value` resolved against the folder of `base_file` (unless absolute or base is not a file)."""
    if not value or Path(value).is_absolute() or base_file.startswith("<"):
        return value
    return str(Path(base_file).parent / value)
