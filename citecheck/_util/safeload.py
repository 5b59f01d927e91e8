"""YAML and JSON from untrusted files, in bounded time and memory, failing with one line.

Every YAML document citecheck reads (config, front matter, rule packs, outlines) goes through
`load_yaml`: the safe loader (libyaml's when present), with the document's node graph measured
*before* it is constructed. Aliases are allowed, but the tree they expand to is counted (each
node once per path that reaches it, memoised, so counting is linear in the distinct nodes) and a
document that would expand past `MAX_YAML_NODES` or nest deeper than `MAX_DEPTH` is refused: a
few hundred bytes of `&a [*b, *b, …]` aliases (a "billion laughs") cannot make a caller walk
billions of nodes. JSON goes through `load_json`: integers of at most `MAX_INT_DIGITS` digits,
nesting at most `MAX_DEPTH` deep, and no lone surrogate in a string (it could never be written
back as UTF-8). Each refusal is a `LimitError` message; callers wrap it in their own one-line
error naming the file (`docs/reliability.md` lists the limits).
"""
from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import yaml

MAX_YAML_NODES = 100_000  # nodes after alias expansion; the largest shipped pack has ~6,000
MAX_DEPTH = 500  # nesting of mappings and sequences, in YAML and JSON
MAX_INT_DIGITS = 100  # digits of a JSON integer; a corpus holds status codes and counts
_LONE_SURROGATE_HINT = re.compile(r"\\u[dD][89abAB]")
_SURROGATE = re.compile("[\ud800-\udfff]")


class LimitError(ValueError):
    """A document over one of this module's limits (the message says which)."""


def safe_loader() -> Any:
    """PyYAML's safe loader, libyaml's when present (~15x faster); PyYAML is imported here, when a
    document is read, not at start: an offline audit with no config file reads none (~20 ms)."""
    import yaml

    return getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load_yaml(text: str, loader: Any = None) -> Any:
    """The YAML document in `text` (None when empty), its expanded size and depth bounded.

    Raises `yaml.YAMLError` for a syntax error (with `problem_mark`, as PyYAML does) and
    `LimitError` for a document over a limit or a value Python cannot hold.
    """
    return load_yaml_node(text, loader)[0]


def load_yaml_node(text: str, loader: Any = None) -> tuple[Any, yaml.Node | None]:
    """(data, node tree) of the YAML document in `text`: `load_yaml` keeping the nodes' marks."""
    loader = loader or safe_loader()
    if _depth_bound(text) > MAX_DEPTH:
        _check_depth(text, loader)  # before composing: libyaml's composer recurses in C, past the stack
    instance = loader(text)
    try:
        node = instance.get_single_node()
        if node is None:
            return None, None
        _measure(node)
        try:
            return instance.construct_document(node), node
        except RecursionError:
            raise LimitError(f"YAML nested too deep (limit {MAX_DEPTH})") from None
        except ValueError as err:  # int("1" * 5000): over Python's integer string limit
            raise LimitError(f"YAML value cannot be read: {err}") from None
    finally:
        instance.dispose()


def _depth_bound(text: str) -> int:
    """A cheap upper bound of the nesting depth: every level needs an open bracket, or more
    indentation, or an indicator (`-`, `?`, `:`) on its line."""
    flow = text.count("[") + text.count("{")
    block = max((2 * (len(line) - len(line.lstrip())) + line.count("-") + line.count("?") + line.count(":")
                 for line in text.split("\n")), default=0)
    return flow + block + 2


def _check_depth(text: str, loader: Any) -> None:
    """The exact nesting depth, from the parser's events (a flat stream: no recursion)."""
    import yaml

    depth = 0
    for event in yaml.parse(text, Loader=loader):
        if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            depth += 1
            if depth > MAX_DEPTH:
                raise LimitError(f"YAML nested deeper than {MAX_DEPTH} levels (line {_line(event.start_mark)})")
        elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
            depth -= 1


def _measure(root: yaml.Node) -> None:
    """Refuse a node graph whose expanded tree is too big or too deep (iterative: no recursion)."""
    sizes: dict[int, int] = {}
    open_nodes: set[int] = set()  # on the current path: meeting one again is a recursive alias
    stack: list[tuple[yaml.Node, int, bool]] = [(root, 1, False)]
    while stack:
        node, depth, done = stack.pop()
        if depth > MAX_DEPTH:
            raise LimitError(f"YAML nested deeper than {MAX_DEPTH} levels (line {_line(node.start_mark)})")
        children = _children(node)
        if done:
            size = 1 + sum(sizes[id(child)] for child in children)
            if size > MAX_YAML_NODES:
                raise LimitError(f"YAML aliases expand past {MAX_YAML_NODES} nodes "
                                 f"(line {_line(node.start_mark)}); refused")
            sizes[id(node)] = size
            open_nodes.discard(id(node))
        elif id(node) in open_nodes:
            raise LimitError(f"recursive YAML alias (line {_line(node.start_mark)}); refused")
        elif id(node) not in sizes:
            open_nodes.add(id(node))
            stack.append((node, depth, True))
            stack.extend((child, depth + 1, False) for child in children if id(child) not in sizes)


def _line(mark: Any) -> int:
    return int(mark.line) + 1 if mark is not None else 1


def _children(node: yaml.Node) -> list[yaml.Node]:
    import yaml

    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


def load_json(text: str, *, decode: Callable[[str], Any] | None = None) -> Any:
    """`json.loads(text)` with bounded integers and nesting and no lone surrogate.

    Raises `json.JSONDecodeError` for a syntax error and `LimitError` for a document over a limit.
    """
    try:
        data = (decode or _decoder().decode)(text)
    except RecursionError:
        raise LimitError(f"JSON nested too deep (limit {MAX_DEPTH})") from None
    check_json_value(data, text)
    return data


def _decoder() -> json.JSONDecoder:
    return json.JSONDecoder(parse_int=bounded_int)


def bounded_int(digits: str) -> int:
    """`parse_int` for `json`: refuse integers longer than `MAX_INT_DIGITS` digits."""
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        raise LimitError(f"JSON integer of {len(digits.lstrip('-'))} digits (limit {MAX_INT_DIGITS})")
    return int(digits)


def check_json_value(data: Any, text: str) -> None:
    """Refuse a decoded value nested deeper than `MAX_DEPTH` or holding a lone surrogate."""
    scan_strings = bool(_LONE_SURROGATE_HINT.search(text))
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            items: list[Any] = [*value.keys(), *value.values()]
        elif isinstance(value, list):
            items = value
        else:
            if scan_strings and isinstance(value, str) and _SURROGATE.search(value):
                raise LimitError("JSON string holds a lone surrogate (not Unicode text)")
            continue
        if depth >= MAX_DEPTH:
            raise LimitError(f"JSON nested deeper than {MAX_DEPTH} levels")
        stack.extend((item, depth + 1) for item in items)


def raw_decode(decoder: json.JSONDecoder, text: str, pos: int) -> tuple[Any, int]:
    """`decoder.raw_decode` with the limits of `load_json` (for streaming array readers)."""
    try:
        obj, end = decoder.raw_decode(text, pos)
    except RecursionError:
        raise LimitError(f"JSON nested too deep (limit {MAX_DEPTH})") from None
    check_json_value(obj, text[pos:end])
    return obj, end


def json_decoder() -> json.JSONDecoder:
    """A decoder whose integers are bounded (see `bounded_int`)."""
    return _decoder()
