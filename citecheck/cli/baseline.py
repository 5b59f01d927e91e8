"""`citecheck baseline PATH... -o FILE`: record today's findings so audits report only new ones.

A thin client of `citecheck.audit()`, with the command's pack cache (no result cache: a baseline
is written from a run's own findings and the texts they were found in)."""
from __future__ import annotations

import sys
from typing import Any

import click

from citecheck._api import Caches, audit
from citecheck._util.atomic import refuse_same_file
from citecheck.cli.options import build_config, config_options, fetch_options
from citecheck.extract.walk import refuse_unreadable
from citecheck.report.baseline import write_baseline


@click.command()
@click.argument("paths", nargs=-1, required=True)
@click.option("-o", "--output", default=".citecheck-baseline.json", show_default=True, type=click.Path(dir_okay=False))
@click.option("--offline", is_flag=True, help="Baseline only the offline rules.")
@click.option("--corpus", "corpus_path", type=click.Path(dir_okay=False), help="Corpus for M006/M007/M008.")
@config_options
@fetch_options
def command(paths: tuple[str, ...], output: str, offline: bool, corpus_path: str | None, config_path: str | None,
            select: tuple[str, ...], ignore: tuple[str, ...], rule_dirs: tuple[str, ...], **fetch: Any) -> None:
    """Write a baseline of the current findings (then: citecheck audit --baseline FILE)."""
    config = build_config(config_path, select, ignore, rule_dirs, **fetch)
    report = audit(paths, config, online=not offline, corpus=corpus_path, caches=Caches.default(config, results=False))
    refuse_unreadable(report.inputs.problems)  # a baseline cannot hold a per-file problem
    refuse_same_file([("-o", output)], [*report.files, corpus_path, config_path])
    if report.outage is not None:  # DESIGN.md "Verdicts and evidence": no verdicts, nothing written
        click.echo(report.outage.line(), err=True)
        sys.exit(2)
    count = write_baseline(output, report.findings, {d.path: d.text for d in report.inputs.documents})
    click.echo(f"wrote {count} finding(s) to {output}", err=True)
