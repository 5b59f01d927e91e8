"""`citecheck rules [ID]`: list every rule, or explain one."""
from __future__ import annotations

import json

import click

from citecheck.cache.packs import PackCache
from citecheck.engine.registry import build_registry
from citecheck.errors import UsageError


@click.command()
@click.argument("rule", required=False)
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]), default="text", show_default=True)
@click.option("--rules", "rule_dirs", multiple=True, type=click.Path(file_okay=False), help="Extra YAML rule pack directory.")
def command(rule: str | None, fmt: str, rule_dirs: tuple[str, ...]) -> None:
    """List every rule (ID, slug, stage, default severity) or explain RULE (ID or slug)."""
    registry = build_registry(rule_dirs, PackCache.default())
    if rule:
        spec = registry.get(rule)
        if spec is None:
            raise UsageError(f"no rule {rule!r} (see `citecheck rules`)")
        if fmt == "json":
            click.echo(json.dumps(_as_dict(spec), indent=2))
            return
        click.echo(f"{spec.id} {spec.name}  [stage: {spec.stage}, default severity: {spec.severity.value}, "
                   f"verdict: {spec.verdict.value if spec.verdict else '-'}, gate: {spec.gate.value}{_roles(spec)}]\n")
        click.echo(spec.doc.strip())
        if spec.defaults:
            click.echo("\nOptions (set under rules.<ID>.options in .citecheck.yaml):")
            for key, value in spec.defaults.items():
                click.echo(f"  {key}: {json.dumps(value)}  {spec.options_doc.get(key, '')}".rstrip())
        if spec.pack:
            click.echo(f"\nData pack: {spec.pack} (rules/*.yaml; extend with --rules DIR)")
            for key, value in (registry.packs.data.get(spec.pack) or {}).items():
                if isinstance(value, dict):  # named entries (firm profiles): what a config may name
                    click.echo(f"  {key}: {', '.join(map(str, value))}")
        return
    if fmt == "json":
        click.echo(json.dumps([_as_dict(s) for s in registry.rules], indent=2))
    elif fmt == "markdown":
        click.echo(rule_table(registry))
    else:
        for spec in registry.rules:
            click.echo(f"{spec.id}  {spec.name:<28} {spec.stage:<7} {spec.severity.value:<8} {spec.summary}")


def rule_table(registry) -> str:  # type: ignore[no-untyped-def]
    """The README's rule table, generated from the registry."""
    rows = ["| ID | name | stage | severity | what it catches |", "| --- | --- | --- | --- | --- |"]
    for s in registry.rules:
        rows.append(f"| {s.id} | `{s.name}` | {s.stage} | {s.severity.value} | {s.summary.replace('|', '/')} |")
    return "\n".join(rows)


def _roles(spec) -> str:  # type: ignore[no-untyped-def]
    """The declarations other parts of citecheck read (see `citecheck.engine.rule.RuleSpec`), when set."""
    roles = ["unreached"] * spec.unreached + [f"write: {spec.write_role.value}"] * (spec.write_role.value != "runs")
    roles += ["blocks append"] * spec.blocks_append + [f"fault: {spec.fault.value}"] * (spec.fault.value != "none")
    return "".join(f", {role}" for role in roles)


def _as_dict(spec) -> dict:  # type: ignore[no-untyped-def]
    return {"id": spec.id, "name": spec.name, "stage": spec.stage, "severity": spec.severity.value,
            "summary": spec.summary, "doc": spec.doc, "options": dict(spec.defaults), "pack": spec.pack,
            "origin": spec.origin, "verdict": spec.verdict.value if spec.verdict else None, "gate": spec.gate.value,
            "unreached": spec.unreached, "write": spec.write_role.value, "blocks_append": spec.blocks_append,
            "evidence_label": spec.evidence_label, "fault": spec.fault.value}
