"""`citecheck write DRAFT --corpus CORPUS -o MEMO`: gate a draft; exit 1 when it broke the contract."""
from __future__ import annotations

import os
import sys
import time

import click

from citecheck._util.atomic import refuse_same_file
from citecheck.cache.packs import PackCache
from citecheck.cli.options import build_config, config_options
from citecheck.cli.prompt import build_prompt, prompt_options, save
from citecheck.engine.registry import build_registry
from citecheck.errors import InputError
from citecheck.extract import load_corpus, read_text
from citecheck.extract.bibliography import load_bibliographies
from citecheck.models import Corpus
from citecheck.report import CHOICES, ReportContext, available, pick, render
from citecheck.report.gate import exit_code
from citecheck.write.gate import NO_CORPUS, write
from citecheck.write.llm import generate, llm_settings


@click.command(context_settings={"max_content_width": 100})
@click.argument("draft", required=False)
@click.option("--corpus", "corpus_path", type=click.Path(dir_okay=False),
              help="sourced_corpus.json: the only source of URLs in the memo.")
@click.option("--bibliography", "bibliographies", multiple=True, type=click.Path(dir_okay=False),
              help="For a Pandoc draft: the .bib / CSL file its [@key] citations must name (repeatable; the "
                   "draft's own front matter is not trusted for this).")
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False, allow_dash=True),
              help="The memo (written atomically); `-` prints it on stdout and the report on stderr.")
@click.option("--hybrid", is_flag=True, help="Keep URLs that are corpus entries, as that entry's footnote.")
@click.option("--strict/--no-strict", default=True, show_default=True,
              help="--no-strict reports URLs but leaves them in the memo (inspection only).")
@click.option("--format", "fmt", default="auto", show_default=True,
              type=click.Choice(CHOICES), help="Report format.")
@click.option("--fail-on", type=click.Choice(["error", "warning", "info"]),
              help="Lowest failing severity (default error).")
@click.option("--report", "report_path", type=click.Path(dir_okay=False), help="Write the report here, not stdout.")
@click.option("--llm", is_flag=True, help="Generate the draft with an OpenAI-compatible endpoint (needs --outline).")
@click.option("--outline", "outline_path", type=click.Path(dir_okay=False), help="Outline for --llm.")
@prompt_options
@click.option("--llm-base-url", help="Chat-completions base URL (env CITECHECK_LLM_BASE_URL).")
@click.option("--llm-model", help="Model name (env CITECHECK_LLM_MODEL).")
@click.option("--llm-timeout", type=click.FloatRange(1, 3600), default=180.0, show_default=True, help="Seconds.")
@click.option("--save-draft", type=click.Path(dir_okay=False), help="With --llm: also keep the raw draft here.")
@config_options
def command(draft: str | None, corpus_path: str | None, bibliographies: tuple[str, ...], output: str, hybrid: bool, strict: bool, fmt: str,
            fail_on: str | None, report_path: str | None, llm: bool, outline_path: str | None, section: str | None,
            excerpts: bool, previous: str | None, token_budget: int | None, all_sources: bool,
            llm_base_url: str | None, llm_model: str | None, llm_timeout: float, save_draft: str | None,
            config_path: str | None, select: tuple[str, ...], ignore: tuple[str, ...],
            rule_dirs: tuple[str, ...]) -> None:
    """Gate DRAFT (Markdown; `-` for stdin) against the corpus: [src-NNN] become numbered footnotes
    with a citation list, unknown IDs become <needs-source claim="…"/>, and every URL that is not a
    corpus entry is removed. A Pandoc draft's [@key] citations are checked against --bibliography
    (never against the draft's own front matter): unknown keys become <needs-source/> too.
    Exit 0 clean, 1 when the draft broke the contract, 2 on bad input.

    \b
    Examples:
      citecheck write draft.md --corpus sourced_corpus.json -o memo.md
      citecheck write draft.md --corpus c.json -o memo.md --hybrid --format json
      citecheck write --llm --outline outline.yaml --section market --corpus c.json -o market.md
      citecheck write draft.qmd --bibliography refs.bib -o memo.qmd
    """
    started = time.perf_counter()
    config = build_config(config_path, select, ignore, rule_dirs).with_overrides(fail_on=fail_on)
    fmt = pick(fmt, sys.stdout.isatty() and not report_path)
    if fmt not in available():
        raise click.UsageError(f"format {fmt!r} is not available in this build")
    if llm == bool(draft):
        raise click.UsageError("give a DRAFT file, or --llm to generate one (not both)")
    refuse_same_file([("-o", output), ("--report", report_path), ("--save-draft", save_draft)],
                     [draft, corpus_path, outline_path, previous, config_path, *bibliographies])
    if llm and not corpus_path:
        raise click.UsageError("--llm needs --corpus")
    corpus = load_corpus(corpus_path, config.max_file_size) if corpus_path else Corpus(NO_CORPUS)
    if llm:
        assert corpus_path is not None
        draft_path, text = _generate(outline_path, section, corpus_path, excerpts, previous, token_budget,
                                     all_sources, llm_base_url, llm_model, llm_timeout, save_draft)
    else:
        assert draft is not None
        draft_path = "<stdin>" if draft == "-" else draft
        text = _stdin(config.max_file_size) if draft == "-" else read_text(draft, config.max_file_size)
    # the user names the bibliography, as the corpus: a draft's own `bibliography:` or `references:`
    # is the model's content and could vouch for keys it invented (configuration outranks content)
    named = bibliographies or config.bibliography
    bibs = load_bibliographies(named, config.max_file_size) if named else None
    if not corpus_path and bibs is None:
        raise click.UsageError("give --corpus, or --bibliography for a Pandoc draft's [@key] citations")
    registry = build_registry(config.packs, PackCache.default())
    result = write(text, corpus, strict=strict, hybrid=hybrid, path=draft_path, config=config, registry=registry,
                   bibliographies=bibs)
    to_stdout = output == "-"  # the memo is the payload on stdout; the report goes to stderr
    if to_stdout:
        click.echo(result.text, nl=False)
    else:
        save(output, result.text)
    report = result.report(output, time.perf_counter() - started)
    payload = render(fmt, report.findings, report.summary, ReportContext(
        report, registry, color=report_path is None and (sys.stderr if to_stdout else sys.stdout).isatty()))
    if report_path:
        save(report_path, payload)
    else:
        click.echo(payload, nl=False, err=to_stdout)
    sys.exit(exit_code(result.findings, config.fail_on, result.crashed))


def _generate(outline_path: str | None, section: str | None, corpus_path: str, excerpts: bool, previous: str | None,
              token_budget: int | None, all_sources: bool, base_url: str | None, model: str | None, timeout: float,
              save_draft: str | None) -> tuple[str, str]:
    if not outline_path or not section:
        raise click.UsageError("--llm needs --outline and --section")
    settings = llm_settings(os.environ, base_url, model, timeout)
    prompt = build_prompt(outline_path, section, corpus_path, excerpts, previous, token_budget, all_sources)
    completion = generate(prompt.messages(), settings)
    if save_draft:
        save(save_draft, completion.text)
    return save_draft or f"<llm:{settings.model}>", completion.text


def _stdin(max_bytes: int) -> str:
    data = sys.stdin.buffer.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise InputError(f"<stdin>: input is above the {max_bytes}-byte cap (see max-file-size)")
    try:
        return data.decode("utf-8-sig").replace("\r\n", "\n")
    except UnicodeDecodeError as err:
        raise InputError(f"<stdin>: invalid UTF-8 (byte 0x{data[err.start]:02x} at offset {err.start})") from None
