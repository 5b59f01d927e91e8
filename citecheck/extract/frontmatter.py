"""YAML front matter: parsed safely, errors named with file and line."""
from __future__ import annotations

from typing import Any

import yaml

from citecheck.errors import InputError


def parse_front_matter(path: str, content: str, first_line: int) -> dict[str, Any]:
    """Parse front matter that starts at `first_line`; a syntax error names file:line."""
    try:
        data = yaml.safe_load(content) if content.strip() else {}
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
