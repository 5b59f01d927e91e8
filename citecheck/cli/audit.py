"""`citecheck audit PATH...`: lint memos and corpora; exit 0 clean, 1 findings, 2 bad input or no network.

A thin client of `citecheck.audit()` (`citecheck._api`): options → configuration and caches → the
library → a reporter → the exit code."""
from __future__ import annotations

import sys
from typing import Any

import click

from citecheck._api import Caches, audit
from citecheck._audit import Report
from citecheck._util.atomic import atomic_write, refuse_same_file
from citecheck.cli.options import build_config, config_options, fetch_options
from citecheck.config import Config
from citecheck.config.urlpolicy import UrlExclusion, compile_exclusion, parse_statuses
from citecheck.errors import InputError
from citecheck.models import EXCLUDED_BY_CONFIG
from citecheck.report import CHOICES, FORMATS, ReportContext, available, pick, render
from citecheck.report.gate import exit_code


@click.command(context_settings={"max_content_width": 100})
@click.argument("paths", nargs=-1, required=True)
@click.option("--offline", is_flag=True, help="Only the offline rules: never open a socket.")
@click.option("--format", "fmt", default="auto", show_default=True, type=click.Choice(CHOICES),
              help="Report format; auto = github under GITHUB_ACTIONS, else text.")
@click.option("--fail-on", type=click.Choice(["error", "warning", "info"]), help="Lowest severity that fails the run (default error).")
@click.option("--corpus", "corpus_path", type=click.Path(dir_okay=False), help="sourced_corpus.json the memo must cite from (enables M006/M007).")
@click.option("--bibliography", "bibliographies", multiple=True, type=click.Path(dir_okay=False),
              help="BibTeX / CSL-JSON / CSL-YAML file the memos' [@key] citations must name, for memos whose front "
                   "matter names none (repeatable; enables M012/M013).")
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Write the report here (atomically) instead of stdout.")
@click.option("--include", multiple=True, help="Glob of files to take from directories (repeatable).")
@click.option("--exclude", multiple=True, help="Glob of files or folders to skip (repeatable).")
@click.option("--no-ignore", is_flag=True, help="Also audit files that .gitignore (and git's other exclude files) ignore.")
@click.option("--archive-check", is_flag=True, help="Ask the Wayback Machine about dead URLs (M010 likely-fabricated, M011 rotted).")
@click.option("--baseline", "baseline_path", type=click.Path(dir_okay=False), help="Report only findings not in this baseline (see `citecheck baseline`).")
@click.option("--min-score", type=click.FloatRange(0, 10), help="Fail (exit 1) when the citation-truth score is below this (0-10).")
@click.option("--report-suppressions", is_flag=True, help="Also list findings silenced by inline directives.")
@click.option("--no-inline-config", "no_inline_config", is_flag=True,
              help="Read no <!-- citecheck: … --> directive in the memos: nothing is suppressed (config "
                   "inline-directives: false). For CI on model-written memos.")
@click.option("--deadline", type=click.FloatRange(0, 86_400), metavar="SECONDS",
              help="Time for the whole fetch stage (default 900; config fetch.deadline): links not fetched "
                   "by then are reported unverifiable (H002 'deadline'), never dead and never cached.")
@click.option("--exclude-url", "exclude_url", multiple=True, metavar="REGEX",
              help="Never fetch URLs matching this regex (repeatable; config: exclude-urls, with reasons). "
                   "They stay unchecked and are counted in the summary.")
@click.option("--accept", "accept", multiple=True, metavar="CODES",
              help="HTTP statuses the team accepts (e.g. 403,429 or 500-503; repeatable; config fetch.accept): such "
                   "links are reported as accepted, never as verified, and the page rules do not judge them.")
@click.option("--verbose", "-v", is_flag=True, help="Per-host fetch statistics and every excluded URL on stderr.")
@click.option("--quiet", "-q", is_flag=True, help="Print the findings only: no summary line, no progress, no notes.")
@config_options
@fetch_options
def command(paths: tuple[str, ...], offline: bool, fmt: str, fail_on: str | None, corpus_path: str | None,
            bibliographies: tuple[str, ...], output: str | None, include: tuple[str, ...], exclude: tuple[str, ...], no_ignore: bool, archive_check: bool,
            baseline_path: str | None,
            min_score: float | None, report_suppressions: bool, no_inline_config: bool, deadline: float | None,
            exclude_url: tuple[str, ...], accept: tuple[str, ...], verbose: bool, quiet: bool,
            config_path: str | None, select: tuple[str, ...], ignore: tuple[str, ...],
            rule_dirs: tuple[str, ...], **fetch: Any) -> None:
    """Audit memos (Markdown, HTML, text), corpora (JSON) and bibliographies (.bib, CSL-JSON); `-` reads stdin.

    \b
    Examples:
      citecheck audit memo.md --offline
      citecheck audit memos/ --format sarif -o citecheck.sarif
      citecheck audit memo.md --corpus sourced_corpus.json --select U,M
      citecheck audit memo.qmd --offline   # [@key] citations against its front-matter bibliography
    """
    config = _config(build_config(config_path, select, ignore, rule_dirs, **fetch), deadline, fail_on, include,
                     exclude, no_inline_config, bibliographies, exclude_url, accept)
    verbose, fmt = verbose and not quiet, pick(fmt, sys.stdout.isatty())
    if fmt not in available():
        raise click.UsageError(f"format {fmt!r} is not available in this build")
    caches = Caches.default(config, results=not offline and FORMATS[fmt].replayable)
    report = audit(paths, config, online=not offline, corpus=corpus_path, caches=caches, archive_check=archive_check,
                   baseline=baseline_path, respect_ignore=not no_ignore, progress=fmt in ("text", "html") and not quiet)
    refuse_same_file([("-o", output)], [*report.files, corpus_path, baseline_path, config_path, *bibliographies])
    if verbose:
        _say_fetch(report)
    payload = render(fmt, report.findings, report.summary, ReportContext(
        report, report.registry, report.corpus, report.suppressed if report_suppressions else None,
        color=output is None and sys.stdout.isatty(), quiet=quiet))
    _emit(payload, output)
    _say_after(report, config, verbose, quiet)
    if report.outage is not None:  # DESIGN.md "Verdicts and evidence": no verdicts, no score, nothing stored
        sys.exit(2)
    sys.exit(_score_gate(exit_code(report.findings, config.fail_on, report.crashed), report.summary, min_score))


def _config(config: Config, deadline: float | None, fail_on: str | None, include: tuple[str, ...],
            exclude: tuple[str, ...], no_inline_config: bool, bibliographies: tuple[str, ...],
            exclude_url: tuple[str, ...], accept: tuple[str, ...]) -> Config:
    """The configuration with the command line's overrides."""
    config = config.with_fetch(deadline=deadline).with_overrides(
        fail_on=fail_on, include=include or None, exclude=config.exclude + exclude if exclude else None,
        inline_directives=False if no_inline_config else None, bibliography=bibliographies or None)
    if exclude_url:
        def bad(why: str) -> click.BadParameter:
            return click.BadParameter(why, param_hint="--exclude-url")

        config = config.with_overrides(exclude_urls=config.exclude_urls + tuple(
            UrlExclusion(compile_exclusion(pattern, bad), "--exclude-url") for pattern in exclude_url))
    if accept:
        codes = tuple(c.strip() for item in accept for c in item.split(",") if c.strip())
        parse_statuses(codes, lambda why: click.BadParameter(why, param_hint="--accept"))
        config = config.with_fetch(accept=config.fetch.accept + codes)
    return config


def _emit(payload: str, output: str | None) -> None:
    """The report on stdout, or written atomically to `output`."""
    if not output:
        click.echo(payload, nl=False)
        return
    try:
        atomic_write(output, payload)
    except OSError as err:
        raise InputError(f"{output}: cannot write the report: {err.strerror or err}") from None


def _say_fetch(report: Report) -> None:
    """--verbose: where the pages came from (a stored audit, or per-host statistics)."""
    if report.replayed is not None:
        click.echo(f"citecheck: inputs, configuration and the {report.summary.get('fetched', 0)} cited pages are "
                   "unchanged since a stored audit: its results are reused (--no-cache audits afresh)", err=True)
    elif report.online:
        from citecheck.fetch.progress import stats_lines

        for line in stats_lines(report.host_stats, report.from_cache):
            click.echo(line, err=True)


def _say_after(report: Report, config: Config, verbose: bool, quiet: bool) -> None:
    """The lines on stderr after the report: excluded URLs (--verbose), the archive's silence, the outage."""
    if verbose:
        for url, page in report.pages.items():
            rule = config.excluded(url) if page.error == EXCLUDED_BY_CONFIG else None
            if rule is not None:
                click.echo(f"citecheck: not fetched, excluded by config ({rule.reason}; /{rule.pattern}/): {url}",
                           err=True)
    if report.archive_line and not quiet:
        click.echo(report.archive_line, err=True)
    if report.outage is not None:
        click.echo(report.outage.line(), err=True)


def _score_gate(code: int, summary: dict[str, Any], min_score: float | None) -> int:
    """Exit 1 when --min-score is set and the score is below it, or there is nothing to score."""
    if min_score is None or code != 0:
        return code
    score = summary.get("citation_truth_score")
    if score is None:
        click.echo(f"citecheck: no citations to score (--min-score {min_score} needs at least one)", err=True)
        return 1
    if score < min_score:
        click.echo(f"citecheck: citation-truth score {score} is below --min-score {min_score}", err=True)
        return 1
    return code
