"""`citecheck audit PATH...`: lint memos and corpora; exit 0 clean, 1 findings, 2 bad input or no network."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from citecheck._util.atomic import atomic_write, refuse_same_file
from citecheck.audit import audit_inputs, judge
from citecheck.cache.packs import PackCache
from citecheck.cli.options import build_config, config_options, fetch_options
from citecheck.config.urlpolicy import UrlExclusion, compile_exclusion, parse_statuses
from citecheck.engine.registry import build_registry
from citecheck.errors import InputError
from citecheck.extract import DEFAULT_INCLUDE, build_inputs, load_corpus, read_inputs, sniff
from citecheck.report import CHOICES, available, pick, render
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
    config = build_config(config_path, select, ignore, rule_dirs, **fetch).with_fetch(deadline=deadline)
    config = config.with_overrides(fail_on=fail_on, include=include or None,
                                   exclude=config.exclude + exclude if exclude else None,
                                   inline_directives=False if no_inline_config else None,
                                   bibliography=bibliographies or None)
    if exclude_url:
        def bad(why: str) -> click.BadParameter:
            return click.BadParameter(why, param_hint="--exclude-url")

        config = config.with_overrides(exclude_urls=config.exclude_urls + tuple(
            UrlExclusion(compile_exclusion(pattern, bad), "--exclude-url") for pattern in exclude_url))
    if accept:
        codes = tuple(c.strip() for item in accept for c in item.split(",") if c.strip())
        parse_statuses(codes, lambda why: click.BadParameter(why, param_hint="--accept"))
        config = config.with_fetch(accept=config.fetch.accept + codes)
    verbose = verbose and not quiet
    fmt = pick(fmt, sys.stdout.isatty())
    if fmt not in available():
        raise click.UsageError(f"format {fmt!r} is not available in this build")
    registry = build_registry(config.packs, PackCache.default())
    corpus = load_corpus(corpus_path, config.max_file_size) if corpus_path else None
    read = read_inputs(paths, config.include or DEFAULT_INCLUDE, config.exclude, config.max_file_size,
                       respect_ignore=not no_ignore)
    files = read.files
    refuse_same_file([("-o", output)], [path for path, _ in files] + [corpus_path, baseline_path, config_path,
                                                                      *bibliographies])
    uncached = offline or archive_check or bool(read.problems)
    results = None if uncached else _result_cache(config, registry, fmt, files, corpus_path)
    report: Any = results.lookup() if results is not None else None
    if report is not None and verbose:
        click.echo(f"citecheck: inputs, configuration and the {report.summary.get('fetched', 0)} cited pages are "
                   "unchanged since a stored audit: its results are reused (--no-cache audits afresh)", err=True)
    if report is None:
        inputs = build_inputs(files, read.problems, alone=read.alone)
        if offline:
            report = judge(inputs, config, registry, corpus=corpus)
        else:
            from citecheck._util import aio

            report = aio.run(audit_inputs(inputs, config, registry, online=True, corpus=corpus,
                                          archive_check=archive_check,
                                          fetcher=_fetcher(fmt in ("text", "html") and not quiet, verbose)))
            # registry facts have lifetimes of their own (docs/scholarly.md): such a run is never memoised whole
            if results is not None and report.outage is None and report.lookups is None:
                results.store(report, report.pages)
    if baseline_path:
        from citecheck.report.baseline import filter_new, load_baseline

        texts = dict(files)
        report.findings, hidden = filter_new(report.findings, texts, load_baseline(baseline_path))
        report.extra_summary["baselined"] = hidden
    payload = render(fmt, report.findings, report.summary, registry=registry, report=report, corpus=corpus,
                     color=output is None and sys.stdout.isatty(), quiet=quiet,
                     suppressed=report.suppressed if report_suppressions else None)
    if output:
        try:
            atomic_write(output, payload)
        except OSError as err:
            raise InputError(f"{output}: cannot write the report: {err.strerror or err}") from None
    else:
        click.echo(payload, nl=False)
    if verbose:
        _say_excluded(report, config)
    if getattr(report, "archive_line", "") and not quiet:
        click.echo(report.archive_line, err=True)
    outage = getattr(report, "outage", None)
    if outage is not None:  # DESIGN.md "Verdicts and evidence": no verdicts, no score, nothing stored
        click.echo(outage.line(), err=True)
        sys.exit(2)
    code = exit_code(report.findings, config.fail_on, report.crashed)
    sys.exit(_score_gate(code, report.summary, min_score))


def _say_excluded(report: Any, config: Any) -> None:
    """--verbose: each URL `exclude-urls` / `--exclude-url` kept from the fetch, with its reason."""
    from citecheck.audit import EXCLUDED_BY_CONFIG

    for url, page in report.pages.items():
        rule = config.excluded(url) if page.error == EXCLUDED_BY_CONFIG else None
        if rule is not None:
            click.echo(f"citecheck: not fetched, excluded by config ({rule.reason}; /{rule.pattern}/): {url}", err=True)


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


def _result_cache(config: Any, registry: Any, fmt: str, files: list[tuple[str, str]], corpus_path: str | None) -> Any:
    """The stored-results cache for this run (see citecheck.cache.results), when it can apply: an online
    audit of memos (no corpus files among the inputs) with the fetch cache on, in a format made of
    findings and summary only."""
    from citecheck.cache.results import ResultCache, run_key
    from citecheck.config import default_cache_path
    from citecheck.fetch.cache import is_team_cache, policy_key
    from citecheck.report import FORMATS

    if is_team_cache(config.fetch.cache):
        return None  # the whole-audit result memo lives in a SQLite cache only (docs/team-cache.md)
    if not (fmt in FORMATS and FORMATS[fmt].replayable) or not config.fetch.use_cache or any(
            sniff(p, t) not in ("markdown", "html", "text") for p, t in files):
        return None
    if config.bibliography or any(_names_bibliography(t) for _, t in files):
        return None  # the findings depend on bibliography files the key does not cover
    try:
        corpus_bytes = Path(corpus_path).read_bytes() if corpus_path else None
    except OSError:
        return None  # load_corpus reported it already
    from citecheck.engine.select import resolve

    path = Path(config.fetch.cache) if config.fetch.cache else default_cache_path()
    # the key needs each rule's ID, severity and options, not what its prepare makes of them
    key = run_key(files, config, corpus_bytes, resolve(registry, config, defer=("url", "page", "memo", "corpus", "engine")))
    return ResultCache(path, key, config.fetch.max_age_days,
                       policy_key(config.fetch.allow, config.fetch.allow_private))


def _names_bibliography(text: str) -> bool:
    """Whether a memo's front matter may name a bibliography (a cheap test: the run is not cached)."""
    head = text[:20000]
    return head.startswith("---") and ("bibliography:" in head or "references:" in head)


def _fetcher(progress: bool, verbose: bool) -> Any:
    """fetch_all with a progress bar (people's formats, TTY stderr only) and `--verbose` host stats."""
    from citecheck.fetch import fetch_all
    from citecheck.fetch.progress import stats_lines

    async def run(urls: list[str], fetch_config: Any, on_page: Any = None, defer_parse: bool = False,
                  cache: Any = None) -> Any:
        pages = await fetch_all(urls, fetch_config, progress=progress, on_page=on_page, defer_parse=defer_parse,
                                cache=cache)
        if verbose:
            for line in stats_lines(pages.stats, pages.cached):
                click.echo(line, err=True)
        return pages

    run.streams_pages = True  # type: ignore[attr-defined]  # audit_inputs may pass on_page, defer_parse and cache
    return run
