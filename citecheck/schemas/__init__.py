"""JSON Schemas shipped with citecheck (package data): the versioned contracts of its machine outputs."""
from __future__ import annotations

import json
from importlib import resources
from typing import Any

REPORT_V1 = "report-v1.schema.json"


def load_schema(name: str = REPORT_V1) -> dict[str, Any]:
    """A shipped schema as a dict, e.g. `load_schema("report-v1.schema.json")`."""
    data: dict[str, Any] = json.loads(resources.files(__name__).joinpath(name).read_text(encoding="utf-8"))
    return data
