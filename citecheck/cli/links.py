"""`citecheck links PATH...`: every link the extraction finds, with its position and kind, and
whether an online audit would fetch it (lychee's `--dump`). Reads the files; opens no socket."""
from __future__ import annotations

import json

import click

from citecheck._audit import CITEABLE_SCHEMES
from citecheck.cli.options import build_config, config_options
from citecheck.config import Config
from citecheck.config.urlpolicy import UrlExclusion, compile_exclusion
from citecheck.extract import DEFAULT_INCLUDE, collect
from citecheck.models import Link, LinkKind, Location


@click.command(context_settings={"max_content_width": 100})
@click.argument("paths", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--include", multiple=True, help="Glob of files to take from directories (repeatable).")
@click.option("--exclude", multiple=True, help="Glob of files or folders to skip (repeatable).")
@click.option("--exclude-url", "exclude_url", multiple=True, metavar="REGEX",
              help="Mark URLs matching this regex as excluded, as `audit --exclude-url` would (repeatable).")
@config_options
def command(paths: tuple[str, ...], fmt: str, include: tuple[str, ...], exclude: tuple[str, ...],
            exclude_url: tuple[str, ...], config_path: str | None, select: tuple[str, ...],
            ignore: tuple[str, ...], rule_dirs: tuple[str, ...]) -> None:
    """List every link in memos (Markdown, HTML, text) and corpora: position, kind, URL, and
    whether `citecheck audit` would fetch it (`fetch`, or why not: `code`, `scheme`, `corpus`,
    or `excluded: REASON`). Exit 0, or 2 when a file could not be read (E003, on stderr).

    \b
    Examples:
      citecheck links memo.md
      citecheck links memos/ --format json > links.json
    """
    config = build_config(config_path, select, ignore, rule_dirs)
    config = config.with_overrides(include=include or None, exclude=config.exclude + exclude if exclude else None)
    if exclude_url:
        def bad(why: str) -> click.BadParameter:
            return click.BadParameter(why, param_hint="--exclude-url")

        config = config.with_overrides(exclude_urls=config.exclude_urls + tuple(
            UrlExclusion(compile_exclusion(p, bad), "--exclude-url") for p in exclude_url))
    inputs = collect(paths, config.include or DEFAULT_INCLUDE, config.exclude, config.max_file_size)
    links = [link for doc in inputs.documents for link in doc.links]
    links += [Link(s.url, Location(c.path, s.line, 1), LinkKind.CORPUS, s.title) for c in inputs.corpora
              for s in c.sources if s.url]
    rows = [{**link.to_dict(), "fetch": fate(link, config)} for link in links]
    if fmt == "json":
        problems = [{"path": p.path, "rule": p.rule, "line": p.line, "message": p.message} for p in inputs.problems]
        click.echo(json.dumps({"version": 1, "links": rows, "problems": problems}, indent=2, ensure_ascii=False))
    else:
        for row in rows:
            click.echo(f"{row['path']}:{row['line']}:{row['column']}\t{row['kind']}\t{row['fetch']}\t{row['url']}")
        for problem in inputs.problems:
            click.echo(f"citecheck: {problem.path}:{problem.line}: {problem.rule} {problem.message}", err=True)
    if any(not p.skipped for p in inputs.problems):
        raise SystemExit(2)


def fate(link: Link, config: Config) -> str:
    """What an online audit does with the link: 'fetch', or why it does not."""
    if link.kind is LinkKind.CORPUS:
        return "corpus"  # judged by the corpus rules (C…), not fetched by an audit
    if not link.url.lower().startswith(CITEABLE_SCHEMES):
        return "scheme"
    if link.in_code:
        return "code"
    rule = config.excluded(link.url)
    return f"excluded: {rule.reason}" if rule is not None else "fetch"
