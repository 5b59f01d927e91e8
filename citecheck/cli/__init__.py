"""The `citecheck` command: one click group; each subcommand lives in its own module."""
from __future__ import annotations

import gc
import importlib
import importlib.util
import os
import sys
from typing import Any

import click

from citecheck import __version__
from citecheck.errors import CitecheckError

# name → the one line `citecheck --help` shows: written here so that the help imports no subcommand
# (each pulls in its own stack: harvest alone costs ~0.4 s of imports)
SUBCOMMANDS = {
    "audit": "Lint memos and corpora: offline rules, then fetched pages.",
    "harvest": "Build sourced_corpus.json through the validation gate.",
    "prompt": "Render the writer's prompt (cite by [src-NNN] only).",
    "write": "Gate a draft: IDs to footnotes, URLs not in the corpus removed.",
    "resolve": "Find validated sources for <needs-source/> markers.",
    "curate": "Merge and validate the URLs of many runs into one list.",
    "baseline": "Record today's findings; audits then report only new ones.",
    "links": "List every extracted link with its position and kind (lychee's --dump).",
    "rules": "List the rules or explain one.",
    "cache": "Inspect, prune, clear or migrate the fetch cache (SQLite or a PostgreSQL team cache).",
    "mcp": "Serve a corpus to agents over the Model Context Protocol (stdio).",
}


class _Group(click.Group):
    """Subcommands load lazily (click's documented pattern): `audit --offline` never imports
    aiohttp's client stack, trafilatura or the harvest providers, and `--help` imports none."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [*SUBCOMMANDS, *sorted(set(super().list_commands(ctx)) - set(SUBCOMMANDS))]

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in self.commands and name in SUBCOMMANDS and _exists(name):
            self.add_command(importlib.import_module(f"citecheck.cli.{name}").command, name)
        return super().get_command(ctx, name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, SUBCOMMANDS[name]) for name in SUBCOMMANDS if _exists(name)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except CitecheckError as err:
            click.echo(f"citecheck: error: {err}", err=True)
            ctx.exit(err.exit_code)
        except KeyboardInterrupt:
            click.echo("citecheck: interrupted; outputs were not written (rerun resumes from the cache)", err=True)
            ctx.exit(130)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, "--version", prog_name="citecheck")
def main() -> None:
    """citecheck: no fabricated URL gets into a research memo.

    `citecheck COMMAND --help` explains a command.
    """


def _exists(name: str) -> bool:
    return importlib.util.find_spec(f"citecheck.cli.{name}") is not None


def run() -> None:
    """Console-script entry point.

    A CLI run builds many small objects (markdown-it tokens, links, findings) and lives for
    seconds: the cyclic collector's default thresholds made it spend ~12 % of an offline audit of a
    5,000-link memo re-scanning them. Like mypy, raise the thresholds for the command (memory is
    still reclaimed by reference counting; cycles are collected, just less often), and freeze what
    the imports built so full collections do not walk it again.
    """
    gc.freeze()
    gc.set_threshold(200_000, 30, 30)
    try:
        main(standalone_mode=True)
    finally:
        try:
            sys.stdout.flush()
        except (BrokenPipeError, OSError):  # the reader left (`| head`): no traceback at shutdown
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
