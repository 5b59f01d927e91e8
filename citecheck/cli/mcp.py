"""`citecheck mcp --corpus FILE`: serve the corpus to agents over the Model Context Protocol (stdio)."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from citecheck._util.atomic import refuse_same_file
from citecheck.cli.options import _split, build_config, config_options, fetch_options
from citecheck.errors import UsageError
from citecheck.harvest import GATES
from citecheck.harvest.providers import NAMES


@click.command(context_settings={"max_content_width": 100})
@click.option("--corpus", "corpus_path", required=True, type=click.Path(dir_okay=False),
              help="sourced_corpus.json to serve and extend (created empty if absent).")
@click.option("--outline", "outline_path", type=click.Path(dir_okay=False, exists=True),
              help="Harvest outline: the prompt's sections and questions, the directory provider's source list.")
@click.option("--provider", "providers", multiple=True, metavar="NAME",
              help=f"Default search provider of search_sources (repeatable): {', '.join(NAMES)}.")
@click.option("--gate", type=click.Choice(GATES), default="default", show_default=True,
              help="Which findings reject a source (as in `citecheck harvest`).")
@click.option("--rejects", "rejects_path", type=click.Path(dir_okay=False),
              help="Write the last harvest's rejects report here (JSON), as `harvest --rejects` does.")
@click.option("--min-excerpt", type=click.IntRange(0, 100_000), metavar="CHARS",
              help="Main text a page needs to earn an ID (default 200; config harvest.min_excerpt).")
@click.option("--bibliography", "bibliographies", multiple=True, type=click.Path(dir_okay=False), metavar="FILE",
              help="gate_draft: the .bib / CSL file a Pandoc draft's [@key] citations must name (repeatable; the "
                   "config's bibliography: otherwise), as `citecheck write --bibliography`.")
@config_options
@fetch_options
def command(corpus_path: str, outline_path: str | None, providers: tuple[str, ...], gate: str,
            rejects_path: str | None, min_excerpt: int | None, bibliographies: tuple[str, ...],
            config_path: str | None, select: tuple[str, ...],
            ignore: tuple[str, ...], rule_dirs: tuple[str, ...], **fetch: Any) -> None:
    """Serve one corpus to agents as a Model Context Protocol server on stdio (needs the `mcp`
    extra: pip install 'citecheck[mcp]').

    \b
    Tools, harvester side (only validated sources with IDs ever come back):
      search_sources(query, section?, providers?, max_results?)   search, gate, add with IDs
      add_sources(urls, section?)                                 gate URLs you already hold
      check_urls(urls)                                            the gate's verdict, nothing added
    Writer side:
      prompt(section?, excerpts?, token_budget?)   the writer's prompt: the corpus by ID, no URL
      get_source(id, max_chars?)                   one source's main text
      gate_draft(markdown, hybrid?)                citecheck write: footnotes, URLs not in the corpus removed,
                                                   [@key] checked against --bibliography
    Either side:
      verify_reference(reference)   a reference's DOIs, arXiv and PubMed IDs judged by their registries

    \b
    The policy is the harvest's: --config, --allow, --allow-private, --cache, robots.txt, the
    gate. API keys come from environment variables only. The server writes the corpus, its .ids
    registry and lock, --rejects and the fetch cache, nothing else. Stdout is the protocol; logs go to
    stderr; an error is a one-line tool error and the server keeps serving.

    \b
    Examples:
      citecheck mcp --corpus sourced_corpus.json --provider tavily
      citecheck mcp --corpus corpus.json --outline outline.yaml --provider directory
    """
    # the corpus is read and extended on purpose; --rejects may not name it, its .ids or an input
    refuse_same_file([("--corpus", corpus_path), ("--corpus's ID registry", f"{corpus_path}.ids"),
                      ("--rejects", rejects_path)], [outline_path, config_path, *bibliographies])
    config = build_config(config_path, select, ignore, rule_dirs, **fetch)
    try:
        from citecheck.agents.server import serve
    except ImportError as err:
        raise UsageError(f"citecheck mcp needs the MCP SDK: pip install 'citecheck[mcp]' ({err})") from None
    from citecheck.agents import CorpusSession
    from citecheck.extract.bibliography import load_bibliographies
    from citecheck.harvest.outline import load_outline

    named = bibliographies or config.bibliography
    session = CorpusSession(Path(corpus_path), config, load_outline(outline_path) if outline_path else None,
                            _split(providers), gate, Path(rejects_path) if rejects_path else None, min_excerpt,
                            bibliographies=load_bibliographies(named, config.max_file_size) if named else None)
    corpus = session.open()
    click.echo(f"citecheck mcp: serving {corpus_path} ({len(corpus.sources)} sources) on stdio", err=True)
    serve(session)
    sys.exit(0)
