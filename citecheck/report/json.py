"""`--format json`: the versioned machine contract `{"version": 1, "findings": [...], "summary": {...}}`."""
from __future__ import annotations

import json
from typing import Any

from citecheck.report.base import Reporter

SCHEMA_VERSION = 1
_ROW = json.JSONEncoder(ensure_ascii=False)  # one encoder for every finding: `json.dumps` builds one per call


class JsonReporter(Reporter):
    name = "json"

    def close(self) -> None:
        payload = {"version": SCHEMA_VERSION, "findings": [f.to_dict() for f in self.items], "summary": self.summ}
        suppressed = self.context.suppressed
        if suppressed is not None:
            payload["suppressed"] = [f.to_dict() for f in suppressed]
        self.out.write(dumps(payload) + "\n")


def dumps(payload: dict[str, Any]) -> str:
    """Indented like `json.dumps(indent=2)` at the top, one finding per line below: readable, and fast
    (the C encoder does each finding; `indent=` would force the pure-Python one on 5,000 findings)."""
    parts = []
    for key, value in payload.items():
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            rows = ",\n".join("    " + _ROW.encode(v) for v in value)
            parts.append(f"  {json.dumps(key)}: [\n{rows}\n  ]")
        else:
            text = json.dumps(value, indent=2, ensure_ascii=False).replace("\n", "\n  ")
            parts.append(f"  {json.dumps(key)}: {text}")
    return "{\n" + ",\n".join(parts) + "\n}"
