"""`citecheck prompt OUTLINE --section ID --corpus CORPUS`: render the Section Writer's prompt."""
from __future__ import annotations

import json

import click

from citecheck._util.atomic import atomic_write, refuse_same_file
from citecheck.errors import CitecheckError
from citecheck.extract import load_corpus, read_text
from citecheck.harvest.outline import load_outline
from citecheck.write.prompt import Prompt, render_prompt


def prompt_options(func):  # type: ignore[no-untyped-def]
    """Options shared by `prompt` and `write --llm` (how the writer's prompt is built)."""
    for deco in reversed([
        click.option("--section", help="Outline section id to write."),
        click.option("--excerpts", is_flag=True, help="Include body excerpts for every source, not only summaries."),
        click.option("--previous", type=click.Path(dir_okay=False),
                     help="A previous draft: its <needs-deeper-grounding ids=…/> requests get excerpts."),
        click.option("--token-budget", type=click.IntRange(1, None),
                     help="Trim excerpts so the prompt fits N tokens (estimated as characters / 4)."),
        click.option("--all-sources", is_flag=True, help="Show every corpus source, not only the section's."),
    ]):
        func = deco(func)
    return func


def build_prompt(outline_path: str, section: str | None, corpus_path: str, excerpts: bool, previous: str | None,
                 token_budget: int | None, all_sources: bool) -> Prompt:
    if not section:
        raise click.UsageError("--section is required")
    outline = load_outline(outline_path)
    corpus = load_corpus(corpus_path)
    previous_text = read_text(previous) if previous else None
    prompt = render_prompt(outline, section, corpus, excerpts=excerpts, previous=previous_text,
                           token_budget=token_budget, all_sources=all_sources)
    if prompt.over_budget:
        click.echo(f"citecheck: warning: the prompt is about {prompt.tokens} tokens even without excerpts, "
                   f"above --token-budget {token_budget}", err=True)
    return prompt


def save(path: str, text: str) -> None:
    """Write atomically; an unwritable path is a one-line error, not a traceback."""
    try:
        atomic_write(path, text)
    except OSError as err:
        raise CitecheckError(f"{path}: cannot write: {err.strerror or err}") from None


@click.command(context_settings={"max_content_width": 100})
@click.argument("outline", type=click.Path(dir_okay=False))
@click.option("--corpus", "corpus_path", required=True, type=click.Path(dir_okay=False),
              help="sourced_corpus.json the writer cites from.")
@prompt_options
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="json = OpenAI-style chat messages [{role, content}, …].")
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Write the prompt here (atomically).")
def command(outline: str, corpus_path: str, section: str | None, excerpts: bool, previous: str | None,
            token_budget: int | None, all_sources: bool, fmt: str, output: str | None) -> None:
    """Render the writer's prompt for one outline section: role, citation rules, guiding questions
    and the section's corpus (summaries; excerpts on request), with no URL in it.

    \b
    Examples:
      citecheck prompt outline.yaml --section market --corpus sourced_corpus.json
      citecheck prompt outline.yaml --section market --corpus c.json --previous draft.md --token-budget 6000
      citecheck prompt outline.yaml --section market --corpus c.json --format json -o messages.json
    """
    refuse_same_file([("-o", output)], [outline, corpus_path, previous])
    prompt = build_prompt(outline, section, corpus_path, excerpts, previous, token_budget, all_sources)
    payload = prompt.as_text() + "\n" if fmt == "text" else json.dumps(prompt.messages(), indent=2,
                                                                         ensure_ascii=False) + "\n"
    if output:
        save(output, payload)
    else:
        click.echo(payload, nl=False)
