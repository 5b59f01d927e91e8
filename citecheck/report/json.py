"""`--format json`: the versioned machine contract `{"version": 1, "findings": [...], "summary": {...}}`."""
from __future__ import annotations

import json
from typing import Any

from citecheck.models import Finding
from citecheck.report.base import Reporter

SCHEMA_VERSION = 1


class JsonReporter(Reporter):
    name = "json"

    def start(self) -> None:
        self.items: list[dict[str, Any]] = []
        self.summ: dict[str, Any] = {}

    def finding(self, finding: Finding) -> None:
        self.items.append(finding.to_dict())

    def summary(self, summary: dict[str, Any]) -> None:
        self.summ = summary

    def close(self) -> None:
        payload = {"version": SCHEMA_VERSION, "findings": self.items, "summary": self.summ}
        suppressed = self.context.get("suppressed")
        if suppressed is not None:
            payload["suppressed"] = [f.to_dict() for f in suppressed]
        json.dump(payload, self.out, indent=2, ensure_ascii=False)
        self.out.write("\n")
