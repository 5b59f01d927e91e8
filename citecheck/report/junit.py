"""`--format junit`: JUnit XML for CI test dashboards.

One `<testsuite>` per audited file; one `<testcase>` per finding (a `<failure>`, or an `<error>` for an
internal E000 crash) and one passing `<testcase>` for a file without findings. Suppressed findings,
when asked for, are `<skipped>` test cases. Built with lxml, so markup in messages is escaped; characters
XML 1.0 cannot carry at all (control characters, lone surrogates) are written as visible `\\xNN` escapes.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from lxml import etree

from citecheck.models import Fault, Finding
from citecheck.report.base import Reporter

if TYPE_CHECKING:
    from citecheck._audit import Report

_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
CLEAN_CASE = "no findings"


def xml_text(text: str) -> str:
    """`text` with every character XML 1.0 forbids replaced by a visible escape."""
    return _NOT_XML.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


class JunitReporter(Reporter):
    name = "junit"

    def close(self) -> None:
        suppressed = list(self.context.suppressed or [])
        root = etree.Element("testsuites", name="citecheck")
        for path in audited_paths(self.context.report, [*self.items, *suppressed]):
            root.append(suite(path, [f for f in self.items if f.path == path],
                              [f for f in suppressed if f.path == path]))
        for attr in ("tests", "failures", "errors", "skipped"):
            root.set(attr, str(sum(int(s.get(attr, "0")) for s in root)))
        root.set("time", str(self.summ.get("duration_s", 0)))
        for node in root:
            _directive_properties(node, self.summ)
        xml = etree.tostring(root, pretty_print=True, xml_declaration=True, encoding="UTF-8")
        self.out.write(xml.decode("utf-8"))


def _directive_properties(suite: etree._Element, summary: dict[str, Any]) -> None:
    """Which inline directives of the suite's file suppressed how many findings (and how many
    were not read), as the suite's `<properties>`: JUnit's place for facts about a run."""
    path = xml_text(str(suite.get("name")))
    uses = [u for u in summary.get("suppressions") or [] if xml_text(str(u.get("path"))) == path]
    ignored = (summary.get("directives_ignored") or {}).get(suite.get("name"), 0)
    entries = [(f"citecheck suppression at line {u['line']}", f"{u['directive']} reason={u.get('reason', '')!r}: "
                f"{u['suppressed']} finding(s) suppressed") for u in uses]
    if ignored:
        entries.append(("citecheck directives not read (--no-inline-config)", str(ignored)))
    if not entries:
        return
    props = etree.Element("properties")
    for name, value in entries:
        etree.SubElement(props, "property", name=xml_text(name), value=xml_text(value))
    suite.insert(0, props)


def audited_paths(report: Report | None, findings: Iterable[Finding]) -> list[str]:
    """Every input file in audit order (clean ones too), then any other path a finding names."""
    paths: dict[str, None] = {}
    if report is not None:
        for path in [*(d.path for d in report.inputs.documents), *(c.path for c in report.inputs.corpora)]:
            paths.setdefault(path, None)
    for f in findings:
        paths.setdefault(f.path, None)
    return list(paths)


def suite(path: str, findings: list[Finding], suppressed: list[Finding]) -> etree._Element:
    node = etree.Element("testsuite", name=xml_text(path))
    for f in findings:
        node.append(case(f, "error" if f.fault is Fault.CRASH else "failure"))
    for f in suppressed:
        node.append(case(f, "skipped"))
    if not findings:
        node.append(etree.Element("testcase", classname=xml_text(path), name=CLEAN_CASE, file=xml_text(path)))
    counts = {kind: len(node.findall(f"testcase/{kind}")) for kind in ("failure", "error", "skipped")}
    node.set("tests", str(len(node)))
    node.set("failures", str(counts["failure"]))
    node.set("errors", str(counts["error"]))
    node.set("skipped", str(counts["skipped"]))
    node.set("time", "0")
    return node


def case(f: Finding, kind: str) -> etree._Element:
    node = etree.Element("testcase", classname=xml_text(f.path),
                         name=xml_text(f"{f.rule} {f.name} at {f.line}:{f.column}"), file=xml_text(f.path),
                         line=str(f.line))
    outcome = etree.SubElement(node, kind, message=xml_text(f.message or f.name),
                               type="suppressed" if kind == "skipped" else f.severity.value)
    outcome.text = xml_text(details(f))
    return node


def details(f: Finding) -> str:
    lines = [f"{f.path}:{f.line}:{f.column}: {f.severity.value} {f.rule} {f.name}: {f.message}"]
    lines += [f"{label}: {value}" for label, value in
              (("url", f.url), ("evidence", f.evidence), ("section", f.section), ("fix", f.fix)) if value]
    return "\n".join(lines)
