"""`citecheck curate RUN... -o master.json`: merge, dedupe and validate the URLs of many runs;
`citecheck curate --from-cache -o master.json`: the same list drawn from the fact cache."""
from __future__ import annotations

import json
import os
import sys
from typing import Any

import click

from citecheck._util import aio
from citecheck._util.atomic import atomic_write, refuse_same_file
from citecheck.cache.packs import PackCache
from citecheck.cli.options import build_config, config_options, fetch_options
from citecheck.curate.master import (
    cache_markdown_report,
    csv_report,
    from_cache,
    gather,
    judge,
    markdown_report,
    ranked,
)
from citecheck.engine.registry import build_registry
from citecheck.engine.run import Engine
from citecheck.engine.select import resolve
from citecheck.errors import InputError, UsageError
from citecheck.extract import DEFAULT_INCLUDE, load_corpus


@click.command()
@click.argument("runs", nargs=-1)
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False), help="Master list (JSON).")
@click.option("--report", "report_path", type=click.Path(dir_okay=False), help="Also write a Markdown report.")
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False), help="Also write a CSV report.")
@click.option("--sqlite", "sqlite_path", type=click.Path(dir_okay=False),
              help="Also append this run to a SQLite database of sources, verdicts (with evidence and dates) and "
                   "runs, with full-text search over titles and excerpts (needs the sqlite extra).")
@click.option("--offline", is_flag=True, help="Only the offline rules: do not fetch.")
@click.option("--from-cache", "from_cache_", is_flag=True,
              help="List every URL the fetch cache holds facts for (a team cache: every source every runner "
                   "fetched), judged from those facts, instead of gathering RUNS. Fetches nothing.")
@click.option("--corpus-out", type=click.Path(dir_okay=False),
              help="Also write the URLs that passed as a corpus (stable src-NNN IDs; an existing corpus is extended, "
                   "as harvest -o does: one writer at a time under <corpus>.lock).")
@config_options
@fetch_options
def command(runs: tuple[str, ...], output: str, report_path: str | None, csv_path: str | None,
            sqlite_path: str | None, offline: bool,
            from_cache_: bool, corpus_out: str | None, config_path: str | None, select: tuple[str, ...], ignore: tuple[str, ...], rule_dirs: tuple[str, ...],
            **fetch: Any) -> None:
    """Merge the URLs of many runs (memos, corpora, research files; directories recursively),
    dedupe on the canonical key, validate each once (through the cache) and rank by recurrence.

    \b
    Examples:
      citecheck curate runs/2026-11-* -o master.json --report master.md --csv master.csv
      citecheck curate runs/2026-12-* -o master.json --sqlite sources.db
      citecheck curate --from-cache --cache postgresql://citecheck@db/citecheck -o sources.json
    """
    if bool(runs) == from_cache_:
        raise UsageError("curate takes RUN paths or --from-cache, not both" if runs else
                         "curate needs RUN paths, or --from-cache to list the cache's sources")
    # --corpus-out is extended on purpose; no other output may name a run, the config or another output
    refuse_same_file([("-o", output), ("--report", report_path), ("--csv", csv_path), ("--corpus-out", corpus_out),
                      ("--corpus-out's ID registry", f"{corpus_out}.ids" if corpus_out else None)],
                     [*runs, config_path])
    config = build_config(config_path, select, ignore, rule_dirs, **fetch)
    if from_cache_:
        _from_cache(config, output, report_path, csv_path, corpus_out, sqlite_path)
        return
    if corpus_out and os.path.exists(corpus_out):  # a corpus that cannot be extended fails before any output
        load_corpus(corpus_out, config.max_file_size)
    registry = build_registry(config.packs, PackCache.default())
    engine = Engine(resolve(registry, config))
    entries = gather(runs, config.include or DEFAULT_INCLUDE, config.exclude, config.max_file_size)
    pages: dict[str, Any] = {}
    if not offline and entries:
        from citecheck.fetch import fetch_all

        pages = aio.run(fetch_all([e.url for e in entries.values()], config.fetch, progress=sys.stderr.isatty()))
    judge(entries, engine, pages)
    ordered = ranked(entries)
    verdicts: dict[str, int] = {}
    for e in ordered:
        verdicts[e.verdict] = verdicts.get(e.verdict, 0) + 1
    payload = {"version": 1, "runs": list(runs), "urls": [e.to_dict() for e in ordered],
               "summary": {"distinct_urls": len(ordered), "occurrences": sum(e.occurrences for e in ordered),
                           "fetched": len(pages), "verdicts": dict(sorted(verdicts.items()))}}
    _write(output, payload, ordered, config, (report_path, markdown_report(ordered)) if report_path else None,
           csv_path, corpus_out, (sqlite_path, "runs", list(runs)) if sqlite_path else None)
    click.echo(f"{len(ordered)} distinct URL(s) from {len(runs)} run(s): "
               + ", ".join(f"{v} {k}" for k, v in sorted(verdicts.items())), err=True)


def _from_cache(config: Any, output: str, report_path: str | None, csv_path: str | None,
                corpus_out: str | None, sqlite_path: str | None) -> None:
    from citecheck.fetch.cache import default_path, is_team_cache, open_store
    from citecheck.fetch.guard import Guard

    location = config.fetch.cache or None
    if not config.fetch.use_cache:
        raise UsageError("--from-cache reads the cache: drop --no-cache")
    if not is_team_cache(location) and not os.path.isfile(location or default_path()):
        raise InputError(f"{location or default_path()}: no cache there")  # reading one never creates one
    with open_store(location, guard=Guard(config.fetch.allow, config.fetch.allow_private, headers=config.fetch.headers)) as cache:
        where = str(cache.path)
        facts = list(cache.every_fact())
        hidden = int(cache.stats().get("pages", 0)) - len(facts)
        entries, pages = from_cache(facts)
    engine = Engine(resolve(build_registry(config.packs, PackCache.default()), config))
    judge(entries, engine, pages)
    ordered = ranked(entries)
    verdicts: dict[str, int] = {}
    for e in ordered:
        verdicts[e.verdict] = verdicts.get(e.verdict, 0) + 1
    payload = {"version": 1, "cache": where, "urls": [e.to_dict() for e in ordered],
               "summary": {"distinct_urls": len(ordered), "verdicts": dict(sorted(verdicts.items()))}}
    _write(output, payload, ordered, config,
           (report_path, cache_markdown_report(ordered, where)) if report_path else None, csv_path, corpus_out,
           (sqlite_path, "cache", [where]) if sqlite_path else None)
    click.echo(f"{len(ordered)} URL(s) with facts in {where}: "
               + (", ".join(f"{v} {k}" for k, v in sorted(verdicts.items())) or "none"), err=True)
    if hidden > 0:  # rows exist, but this run's URL policy may not see them: say so, never a bare 0
        click.echo(f"citecheck: {hidden} more stored fact(s) not listed: fetched under another URL policy "
                   "(--allow / --allow-private, fetch.allow) or for URLs this run's policy refuses; run with "
                   "that policy to list them", err=True)


def _write(output: str, payload: dict[str, Any], ordered: list[Any], config: Any,
           report: tuple[str, str] | None, csv_path: str | None, corpus_out: str | None,
           sqlite: tuple[str, str, list[str]] | None = None) -> None:
    """The JSON list, then the Markdown report (path, text), the CSV, the SQLite database (path,
    source, inputs) and the corpus when asked for."""
    atomic_write(output, json.dumps(payload, indent=2, ensure_ascii=False) + "\n")
    if sqlite is not None:
        from citecheck.curate.sqlite import write_sqlite

        write_sqlite(sqlite[0], ordered, sqlite[1], sqlite[2])
    if report is not None:
        atomic_write(*report)
    if csv_path:
        atomic_write(csv_path, csv_report(ordered))
    if corpus_out:
        write_corpus_out(corpus_out, [e.url for e in ordered if e.verdict == "ok"], config)


def write_corpus_out(path: str, urls: list[str], config: Any) -> None:
    """The surviving URLs through the harvest gate into a corpus: same IDs, excerpts, schema, and the
    same transaction as `citecheck harvest -o` (lock, journal, corpus and `.ids` as one commit)."""
    import tempfile
    from pathlib import Path

    from citecheck.harvest import harvest_into

    with tempfile.TemporaryDirectory() as tmp:
        listing = Path(tmp) / "curated.txt"
        listing.write_text("\n".join(urls) + "\n", encoding="utf-8")
        harvest_into(path, None, config=config, urls=str(listing), gate="default")
