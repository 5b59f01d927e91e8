"""`citecheck resolve MEMO --corpus CORPUS`: find sources for `<needs-source claim="…"/>` markers."""
from __future__ import annotations

import json
import sys
from typing import Any

import click

from citecheck._util import aio
from citecheck._util.atomic import atomic_write, refuse_same_file
from citecheck.cli.options import build_config, config_options, fetch_options
from citecheck.curate.resolve import resolve_async
from citecheck.extract import read_text
from citecheck.harvest.providers import NAMES


@click.command()
@click.argument("memo", type=click.Path(dir_okay=False))
@click.option("--corpus", "corpus_path", required=True, type=click.Path(dir_okay=False),
              help="sourced_corpus.json: new sources are appended with new IDs (known IDs never change).")
@click.option("--provider", "providers", multiple=True, type=click.Choice(NAMES), required=True,
              help="Search provider to ask with each claim (repeatable).")
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Resolved memo (default: stdout).")
@click.option("--min-support", type=click.FloatRange(0, 1), default=0.5, show_default=True,
              help="Lowest support score for a new source to replace a marker.")
@click.option("--gate", type=click.Choice(["strict", "default", "lenient"]), default="default", show_default=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="The per-claim report on stderr (text) or stdout with -o (json).")
@config_options
@fetch_options
def command(memo: str, corpus_path: str, providers: tuple[str, ...], output: str | None, min_support: float,
            gate: str, fmt: str, config_path: str | None, select: tuple[str, ...], ignore: tuple[str, ...],
            rule_dirs: tuple[str, ...], **fetch: Any) -> None:
    """Ask the providers for sources for every `<needs-source claim="…"/>` in MEMO. A marker becomes
    `[src-NNN]` only when a new, validated source's excerpt supports the claim; otherwise it stays
    for human review. Run `citecheck write` afterwards to turn the IDs into footnotes.

    Exit 0 when every marker was resolved, 1 when some remain, 2 on bad input.
    """
    refuse_same_file([("-o", output), ("--corpus's ID registry", f"{corpus_path}.ids")],
                     [memo, corpus_path, config_path])
    config = build_config(config_path, select, ignore, rule_dirs, **fetch)
    text = read_text(memo, config.max_file_size)
    result = aio.run(resolve_async(memo, text, corpus_path, providers=providers, config=config,
                                   min_support=min_support, gate=gate))  # writes the corpus as harvest -o does
    if output:
        atomic_write(output, result.text)
    report = {"claims": [dict(r.__dict__, resolved=r.resolved) for r in result.resolutions],
              "sections": result.by_section}
    if fmt == "json":
        payload = json.dumps(report, indent=2, ensure_ascii=False) + "\n"
        click.echo(payload, nl=False, err=not output)
    else:
        for r in result.resolutions:
            state = f"resolved → [{r.source_id}]" if r.resolved else f"unresolved: {r.reason}"
            click.echo(f"{memo}:{r.line}:{r.column}: {state}: {r.claim[:80]}", err=True)
        for section, counts in result.by_section.items():
            click.echo(f"  {section}: {counts['resolved']}/{counts['raised']} resolved", err=True)
    if not output:
        click.echo(result.text, nl=False)
    sys.exit(0 if all(r.resolved for r in result.resolutions) else 1)
