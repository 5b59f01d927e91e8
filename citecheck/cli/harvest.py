"""`citecheck harvest`: build or merge into sourced_corpus.json through the gate; exit 0 every
section has sources, 1 a section ended empty (or, under --gate strict, anything was rejected),
2 bad input or the network was unavailable (nothing written)."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from citecheck._util.atomic import refuse_same_file
from citecheck.cli.options import _split, build_config, config_options, fetch_options
from citecheck.harvest import GATES, harvest_into, rejects_table
from citecheck.harvest.merge import write_table
from citecheck.harvest.output import summary_lines, write_review
from citecheck.harvest.providers import NAMES


@click.command(context_settings={"max_content_width": 100})
@click.argument("outline", required=False, type=click.Path(dir_okay=False))
@click.option("--urls", "urls_file", type=click.Path(dir_okay=False),
              help="URLs to gate: a plain list, Markdown or a Sources.md-style list (one section per heading).")
@click.option("--query", help="A one-off query (section 'query'); needs --provider.")
@click.option("--bib", "bibs", multiple=True, type=click.Path(dir_okay=False), metavar="FILE",
              help="A .bib / CSL-JSON / CSL-YAML bibliography (repeatable, one section each): every entry the "
                   "scholarly registries verify becomes a source; the others are rejects with their reason.")
@click.option("--provider", "providers", multiple=True, metavar="NAME",
              help=f"Provider for every section, replacing the outline's (repeatable): {', '.join(NAMES)}.")
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False),
              help="Corpus to write; an existing one is merged into (every known URL keeps its ID).")
@click.option("--rejects", "rejects_path", type=click.Path(dir_okay=False),
              help="Write the rejected candidates and the findings that failed them here (JSON).")
@click.option("--per-section", "per_section", type=click.Path(file_okay=False),
              help="Also write one corpus per section into this folder (<section>.json).")
@click.option("--gate", type=click.Choice(GATES), default="default", show_default=True,
              help="strict: warnings and errors reject; default: errors; lenient: only dead, placeholder "
                   "and private-address errors.")
@click.option("--report", "report_path", type=click.Path(dir_okay=False),
              help="Also write a self-contained HTML review page: kept and rejected candidates per section.")
@click.option("--min-excerpt", type=click.IntRange(0, 100_000), metavar="CHARS",
              help="Main text a page needs to earn an ID (default 200; config harvest.min_excerpt).")
@click.option("--dry-run", is_flag=True, help="Print the merge table and the rejects; write nothing.")
@click.option("--quiet", "-q", is_flag=True, help="No progress lines on stderr.")
@click.option("--deadline", type=click.FloatRange(0, 86_400), metavar="SECONDS",
              help="Time for the registry lookups and judging of the candidates (default 900; config fetch.deadline): "
                   "those not looked up or judged by then "
                   "are rejected as unverifiable ('deadline'; a corpus source stays, stale), never get an ID and are "
                   "never cached; what was fetched before is, so the next harvest resumes from the cache.")
@config_options
@fetch_options
def command(outline: str | None, urls_file: str | None, query: str | None, bibs: tuple[str, ...],
            providers: tuple[str, ...], output: str,
            rejects_path: str | None, per_section: str | None, gate: str, report_path: str | None,
            min_excerpt: int | None, dry_run: bool, quiet: bool, deadline: float | None, config_path: str | None,
            select: tuple[str, ...], ignore: tuple[str, ...], rule_dirs: tuple[str, ...], **fetch: Any) -> None:
    """Search providers for sources, fetch and validate every result with the audit engine, and
    write only the ones that pass, each with a stable src-NNN ID.

    \b
    OUTLINE is a YAML file: title, company {name, geographies}, providers, sections, each
    section with an id, a title, queries (`@domain` restricts one to a site), preferred_sources
    and urls. --urls takes a plain list, Markdown or a Sources.md (one section per heading).
    --bib takes a .bib / CSL bibliography (one section per file): each entry is verified by its
    DOI or arXiv ID, else by registry search (docs/scholarly.md); a verified entry becomes a
    source made from the registry's record, the others are rejects with their reason.
    Providers: directory (a curated source list), tavily, serpapi, brave, perplexity
    (URLs from its search results only, never its prose), firecrawl. API keys come from
    environment variables only: TAVILY_API_KEY, SERPAPI_API_KEY, BRAVE_API_KEY,
    PERPLEXITY_API_KEY, FIRECRAWL_API_KEY.

    \b
    What earns an ID: the page passes the preflight, fetch and page rules under --gate, its
    title matches the search result, it has at least --min-excerpt characters of main text,
    and no login, consent or hard paywall stands in front of it (a metered or registration
    wall with the text present is kept, marked access: metered). robots.txt is honoured
    (--ignore-robots to override, logged).

    \b
    An existing -o corpus is merged into, never rebuilt; the merge table on stderr says:
      kept / refreshed  passed again (same / changed content), same ID
      added             new URL with a new ID, or a URL that came back with its old ID
      stale             unverifiable now (timeout, 5xx, challenge, wall): kept with its
                        last good facts, marked stale with last_verified
      retired           dead on evidence (404/410, soft-404, gone): moved to the retired
                        list in <corpus>.ids with the evidence; its ID is never reused
    <corpus>.ids is the ID registry: keep it with the corpus. When no outside host answers
    (the network is down) nothing is written and the exit code is 2. One harvest at a time
    writes a corpus: a second one exits 2 while <corpus>.lock is held; a run interrupted while
    writing is finished from <corpus>.journal by the next harvest.

    \b
    Private and loopback addresses: --allow HOST_OR_IP[:PORT] or --allow-private lets the
    fetcher reach them and the private-address rules (U004, C005) accept them.

    \b
    Examples:
      citecheck harvest outline.yaml -o sourced_corpus.json --rejects rejects.json
      citecheck harvest --urls Sources.md -o sourced_corpus.json --gate strict
      citecheck harvest --urls Sources.md -o sourced_corpus.json --dry-run
      citecheck harvest --urls local.md -o corpus.json --allow 127.0.0.1:8080
      citecheck harvest --query "EU road freight 2023 @ec.europa.eu" --provider tavily -o corpus.json
      citecheck harvest --bib refs.bib -o corpus.json --rejects rejects.json
    """
    # the corpus (-o) is read and merged into on purpose; nothing else may name an input or another output
    refuse_same_file([("-o", output), ("--rejects", rejects_path), ("--report", report_path),
                      ("-o's ID registry", f"{output}.ids")], [outline, urls_file, config_path, *bibs])
    config = build_config(config_path, select, ignore, rule_dirs, **fetch).with_fetch(deadline=deadline)
    result = harvest_into(output, outline, providers=_split(providers), config=config, urls=urls_file, query=query,
                          gate=gate, progress=not quiet, min_excerpt=min_excerpt, bibliographies=bibs,
                          rejects_path=rejects_path, per_section_dir=per_section, dry_run=dry_run,
                          recovered=_recovered)
    if not dry_run and report_path:
        write_review(result, report_path, output)
    rejects_table(result, sys.stderr)
    write_table(result.merge, sys.stderr, output)
    for line in summary_lines(result):
        click.echo(f"citecheck harvest: {line}", err=True)
    if dry_run:
        click.echo("citecheck harvest: --dry-run: nothing written", err=True)
    sys.exit(result.exit_code)


def _recovered(corpus: str | Path) -> None:
    click.echo(f"citecheck harvest: finished writing {corpus} and its .ids from an interrupted run's journal", err=True)
