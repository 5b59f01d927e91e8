"""`--format github`: GitHub Actions workflow commands, one annotation line per finding.

    ::error file=memo.md,line=3,col=5,title=U001 placeholder-domain::placeholder domain 'example.com' …

Escaping follows the runner's rules: in the message `%`, CR and LF are percent-encoded; in property
values `:` and `,` are as well, so hostile text can neither end a property nor start a new command.
"""
from __future__ import annotations

from typing import Any

from citecheck.models import Finding
from citecheck.report.base import Reporter

COMMANDS = {"error": "error", "warning": "warning", "info": "notice"}


def escape_data(text: str) -> str:
    """Escape a command's message part."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """Escape a property value (file=, title=)."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(f: Finding) -> str:
    """One workflow command line for a finding (without the newline)."""
    props = []
    if f.path and not f.path.startswith("<"):  # `<stdin>` is not a file GitHub can point at
        props.append(f"file={escape_property(f.path)}")
    props += [f"line={max(f.line, 1)}", f"col={max(f.column, 1)}", f"title={escape_property(f'{f.rule} {f.name}')}"]
    message = f.message or f.name
    if f.url and f.url not in message:
        message = f"{message} ({f.url})"
    return f"::{COMMANDS[f.severity.value]} {','.join(props)}::{escape_data(message)}"


class GithubReporter(Reporter):
    name = "github"

    def finding(self, finding: Finding) -> None:
        self.out.write(annotation(finding) + "\n")

    def summary(self, summary: dict[str, Any]) -> None:
        unchecked = (summary.get("verdicts") or {}).get("unchecked")
        if unchecked:  # a clean offline run must not read as "every link is fine"
            self.out.write(f"::notice title=citecheck::{unchecked} link(s) and citation(s) unchecked: "
                           "not fetched (offline run, excluded URL, or no corpus to look IDs up in)\n")
        for use in summary.get("suppressions") or []:  # every silence the memo asked for is visible
            props = [f"file={escape_property(str(use['path']))}"] if not str(use["path"]).startswith("<") else []
            props += [f"line={max(int(use['line']), 1)}", "title=citecheck suppression"]
            self.out.write(f"::notice {','.join(props)}::{escape_data(_suppression(use))}\n")
        ignored = sum((summary.get("directives_ignored") or {}).values())
        if ignored:
            self.out.write(f"::notice title=citecheck::{ignored} inline directive(s) not read (--no-inline-config)\n")


def _suppression(use: dict[str, Any]) -> str:
    return f"{use['directive']} suppressed {use['suppressed']} finding(s); reason: {use.get('reason', '')}"
