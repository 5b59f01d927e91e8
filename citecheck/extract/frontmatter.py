"""YAML front matter: parsed safely (bounded aliases and nesting), errors named with file and line."""
from __future__ import annotations

from typing import Any

from citecheck._util.safeload import LimitError, load_yaml
from citecheck.errors import InputError


def parse_front_matter(path: str, content: str, first_line: int) -> dict[str, Any]:
    """Parse front matter that starts at `first_line`; a syntax error names file:line."""
    import yaml  # only for a memo with front matter: not at every start

    try:
        data = load_yaml(content) if content.strip() else {}
    except LimitError as err:  # an alias bomb or a nesting too deep in untrusted input
        raise InputError(f"{path}:{first_line}: front matter refused: {err}") from None
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        line = first_line + (mark.line if mark else 0)
        problem = getattr(err, "problem", None) or "invalid YAML"
        raise InputError(f"{path}:{line}: malformed front matter: {problem}") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise InputError(f"{path}:{first_line}: front matter must be a mapping, got {type(data).__name__}")
    return data
