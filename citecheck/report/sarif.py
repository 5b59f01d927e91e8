"""`--format sarif`: SARIF 2.1.0, the format code-scanning dashboards (GitHub, Azure DevOps, VS Code) read.

One run; `tool.driver.rules` describes every rule that has a result, each result points at its rule by
`ruleId`/`ruleIndex`, and `run.properties` carries the audit summary.
"""
from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Iterable
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from citecheck import __version__
from citecheck.models import Finding
from citecheck.report.base import Reporter

if TYPE_CHECKING:
    from citecheck.engine.registry import Registry

SARIF_VERSION = "2.1.0"
SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
# Used until the package metadata names a home page (setup.cfg `url =` or `project_urls =`).
INFORMATION_URI = "https://pypi.org/project/citecheck/"
LEVELS = {"error": "error", "warning": "warning", "info": "note"}
FINGERPRINT_KEY = "citecheck/v1"


class SarifReporter(Reporter):
    name = "sarif"

    def start(self) -> None:
        self.results: list[tuple[Finding, bool]] = []
        self.summ: dict[str, Any] = {}

    def finding(self, finding: Finding) -> None:
        self.results.append((finding, False))

    def summary(self, summary: dict[str, Any]) -> None:
        self.summ = summary

    def close(self) -> None:
        suppressed = self.context.suppressed or []
        entries = self.results + [(f, True) for f in suppressed]
        rule_ids = sorted({f.rule for f, _ in entries})
        run: dict[str, Any] = {
            "tool": {"driver": driver(rule_ids, [f for f, _ in entries], self.context.registry,
                                      self.context.version or __version__)},
            "columnKind": "unicodeCodePoints",
            "results": results(entries, rule_ids),
            "properties": dict(self.summ),
        }
        report = self.context.report
        if report is not None:
            run["invocations"] = [{"executionSuccessful": not report.crashed}]
        payload = {"$schema": SARIF_SCHEMA, "version": SARIF_VERSION, "runs": [run]}
        json.dump(payload, self.out, indent=2, ensure_ascii=False)
        self.out.write("\n")


def driver(rule_ids: list[str], findings: list[Finding], registry: Registry | None, version: str) -> dict[str, Any]:
    """The `tool.driver` object with a descriptor for each rule that produced a result."""
    names = {f.rule: f.name for f in findings}
    return {"name": "citecheck", "version": version, "informationUri": information_uri(),
            "rules": [descriptor(rule_id, names.get(rule_id, rule_id), registry) for rule_id in rule_ids]}


def information_uri() -> str:
    """The project's home page from the installed package metadata, else INFORMATION_URI."""
    try:
        meta = metadata.metadata("citecheck")
    except metadata.PackageNotFoundError:
        return INFORMATION_URI
    for entry in meta.get_all("Project-URL") or []:
        label, _, url = entry.partition(",")
        if label.strip().lower() in ("homepage", "home", "documentation", "source") and url.strip():
            return url.strip()
    home = (meta.get_all("Home-page") or [""])[0]
    return home if home.startswith(("https://", "http://")) else INFORMATION_URI


def descriptor(rule_id: str, name: str, registry: Registry | None) -> dict[str, Any]:
    """A `reportingDescriptor` from the registry's RuleSpec (or a bare one if the rule is unknown)."""
    spec = registry.get(rule_id) if registry is not None else None
    if spec is None:
        return {"id": rule_id, "name": name, "shortDescription": {"text": name}}
    doc = spec.doc.strip() or spec.name
    return {
        "id": spec.id,
        "name": spec.name,
        "shortDescription": {"text": spec.summary or spec.name},
        "fullDescription": {"text": doc},
        "help": {"text": doc, "markdown": doc},
        "defaultConfiguration": {"level": LEVELS[spec.severity.value]},
        "properties": {"stage": spec.stage, "tags": [spec.stage]},
    }


def results(entries: Iterable[tuple[Finding, bool]], rule_ids: list[str]) -> list[dict[str, Any]]:
    index = {rule_id: i for i, rule_id in enumerate(rule_ids)}
    seen: Counter[str] = Counter()
    out = []
    for finding, suppressed in entries:
        key = fingerprint(finding)
        seen[key] += 1
        out.append(result(finding, index[finding.rule], f"{key}:{seen[key]}", suppressed))
    return out


def result(f: Finding, rule_index: int, print_: str, suppressed: bool) -> dict[str, Any]:
    item: dict[str, Any] = {
        "ruleId": f.rule,
        "ruleIndex": rule_index,
        "level": LEVELS[f.severity.value],
        "message": {"text": f.message or f.name},
        "locations": [{"physicalLocation": {
            "artifactLocation": {"uri": artifact_uri(f.path)},
            "region": {"startLine": max(f.line, 1), "startColumn": max(f.column, 1)},
        }}],
        "partialFingerprints": {FINGERPRINT_KEY: print_},
        "properties": {"name": f.name, "severity": f.severity.value, "url": f.url, "evidence": f.evidence,
                       "section": f.section, "fix": f.fix},
    }
    if suppressed:
        item["suppressions"] = [{"kind": "inSource"}]
    return item


def fingerprint(f: Finding) -> str:
    """Stable across runs and line shifts: what was found and where (file), not on which line."""
    basis = "\x1f".join((f.rule, f.path, f.url, f.evidence or f.message))
    return hashlib.sha256(basis.encode("utf-8")).hexdigest()[:32]


def artifact_uri(path: str) -> str:
    """Relative paths stay relative (as given, `/`-separated, percent-encoded); absolute ones become file URIs."""
    if Path(path).is_absolute():
        return Path(path).as_uri()
    return quote(path.replace("\\", "/"), safe="/!$&'()*+,;=:@-._~")
