"""`citecheck baseline PATH... -o FILE`: record today's findings so audits report only new ones."""
from __future__ import annotations

import sys
from typing import Any

import click

from citecheck._audit import audit_inputs
from citecheck._util import aio
from citecheck._util.atomic import refuse_same_file
from citecheck.cache.packs import PackCache
from citecheck.cli.options import build_config, config_options, fetch_options
from citecheck.engine.registry import build_registry
from citecheck.extract import DEFAULT_INCLUDE, collect, load_corpus
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
    registry = build_registry(config.packs, PackCache.default())
    corpus = load_corpus(corpus_path, config.max_file_size) if corpus_path else None
    inputs = collect(paths, config.include or DEFAULT_INCLUDE, config.exclude, config.max_file_size)
    refuse_unreadable(inputs.problems)
    refuse_same_file([("-o", output)], [*(d.path for d in inputs.documents), *(c.path for c in inputs.corpora),
                                        corpus_path, config_path])
    report = aio.run(audit_inputs(inputs, config, registry, online=not offline, corpus=corpus))
    if report.outage is not None:  # DESIGN.md "Verdicts and evidence": no verdicts, nothing written
        click.echo(report.outage.line(), err=True)
        sys.exit(2)
    count = write_baseline(output, report.findings, {d.path: d.text for d in inputs.documents})
    click.echo(f"wrote {count} finding(s) to {output}", err=True)
