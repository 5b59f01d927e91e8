"""The evidence panel of one cite, and the rendering of a single finding (shared with line panels).

A panel answers the reviewer's questions in order: what is the verdict and why, what URL and
page is this (status chain, title, archive copy, corpus entry), which findings, and what to do.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

from citecheck.models import Finding, Page, Verdict
from citecheck.report.html_cites import Cite
from citecheck.report.html_markup import esc, icon, link_or_text, web_url
from citecheck.report.html_verdicts import BY_KEY, VERDICTS
from citecheck.urls import host_of

if TYPE_CHECKING:
    from citecheck.engine.registry import Registry

_SOURCE_ID = re.compile(r"src-\d{3,}", re.IGNORECASE)


def badge(verdict: str) -> str:
    v = BY_KEY[verdict]
    return f'<span class="badge v-{v.key}">{icon(v.key)}<span class="lbl">{esc(v.label)}</span></span>'


def chips(counts: Mapping[str, int]) -> str:
    """Verdict counts as a list of badges with numbers, worst verdict first, zero counts left out."""
    items = "".join(f'<li>{badge(v.key)} <b data-verdict="{v.key}">{counts[v.key]}</b></li>'
                    for v in VERDICTS if counts.get(v.key))
    return f'<ul class="chips">{items}</ul>' if items else ""


def severity(sev: str) -> str:
    return f'<span class="sev sev-{esc(sev)}">{icon(sev)}<span class="lbl">{esc(sev)}</span></span>'


def rule_code(f: Finding, registry: Registry | None = None) -> str:
    spec = registry.get(f.rule) if registry is not None else None
    hint = f' title="{esc(spec.summary)}"' if spec is not None and spec.summary else ""
    return f'<code class="rule"{hint}>{esc(f.rule)}</code> <span class="slug">{esc(f.name)}</span>'


def finding_item(f: Finding, registry: Registry | None = None) -> str:
    """One finding as a list item: severity, rule, message, evidence (labelled as its rule's `EVIDENCE`
    says), suggested fix."""
    spec = registry.get(f.rule) if registry is not None else None
    label = (spec.evidence_label if spec is not None else "") or "Evidence"
    evidence = _compared(f) if f.compared else _evidence(f, label)
    return (f'<li class="finding">{severity(f.severity.value)} {rule_code(f, registry)}'
            f'<p class="msg">{esc(f.message)}</p>{evidence}{_fix(f.fix)}</li>')


def _compared(f: Finding) -> str:
    """A cited work's claimed fields beside the registry's record: one row per claimed field, the
    fields that disagree marked (and why). The report's own table style: no CSS of its own, so a
    report without such a finding is unchanged."""
    rows = "".join(
        f'<tr class="{"agree" if agrees else "disagree"}"><th scope="row">{esc(name)}</th>'
        f'<td>{esc(claimed)}</td><td>{esc(record)}</td>'
        f'<td>{"matches" if agrees else "<strong>differs</strong>" + (": " + esc(why) if why else "")}</td></tr>'
        for name, claimed, record, agrees, why in f.compared)
    return ('<table class="compared"><caption>Cited vs the registry\'s record</caption><thead><tr><th scope="col">'
            'Field</th><th scope="col">Cited</th><th scope="col">Record</th><th scope="col"></th></tr></thead>'
            f'<tbody>{rows}</tbody></table>')


def _evidence(f: Finding, label: str) -> str:
    if not f.evidence:
        return ""
    if f.verdict is Verdict.UNSUPPORTED:  # the evidence of an unsupported claim is a passage of its source
        return f'<figure class="passage"><figcaption>{label}</figcaption><blockquote>{esc(f.evidence)}</blockquote></figure>'
    return f'<p class="evd"><span class="k">{label}:</span> <q>{esc(f.evidence)}</q></p>'


def _fix(fix: str) -> str:
    if not fix:
        return ""
    if web_url(fix):
        archived = host_of(fix).endswith("archive.org")
        shown = f'{"Wayback snapshot" if archived else "Replace with"}: {link_or_text(fix)}'
    elif _SOURCE_ID.fullmatch(fix.strip()):
        shown = f'cite the corpus entry <code>{esc(fix.strip())}</code>'
    else:
        shown = esc(fix)
    return f'<p class="fix"><span class="k">Suggested fix:</span> {shown}</p>'


def panel(cite: Cite, registry: Registry | None = None) -> str:
    """The body of a cite's <details>: verdict, facts, findings."""
    v = BY_KEY[cite.verdict]
    why = f' ({esc(", ".join(cite.reasons))})' if cite.reasons else ""
    rows = "".join(f"<dt>{k}</dt><dd>{val}</dd>" for k, val in _facts(cite))
    what = "citation" if cite.kind == "source-id" else "link"
    items = "".join(finding_item(f, registry) for f in cite.findings)
    listing = (f'<h4>Findings on this {what} ({len(cite.findings)})</h4><ul class="findings">{items}</ul>'
               if items else f'<p class="none">No findings on this {what}.</p>')
    return (f'<div class="panel"><p class="why">{badge(v.key)} {esc(v.blurb)}{why}</p>'
            f'<dl class="facts">{rows}</dl>{listing}</div>')


def _facts(cite: Cite) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    if cite.url:
        out.append(("URL", link_or_text(cite.url)))
        if cite.text != cite.url:
            out.append(("As written", f"<code>{esc(cite.text)}</code>"))
    else:
        out.append(("Citation", f"<code>{esc(cite.text)}</code>"))
    if cite.link is not None and cite.link.text:
        out.append(("Link text", esc(cite.link.text)))
    where = f"line {cite.line}, column {cite.column} · {esc(cite.kind)}" + (" · in code" if cite.in_code else "")
    out.append(("Where", where + (f" · section “{esc(cite.section)}”" if cite.section else "")))
    if cite.page is not None:
        out += _page_facts(cite.page)
    if cite.source is not None:
        s = cite.source
        out.append(("Corpus entry", f"<code>{esc(s.id)}</code> {esc(s.title)} — {link_or_text(s.url)}"))
    return out


def _page_facts(page: Page) -> list[tuple[str, str]]:
    fetch = esc(page.outcome.value) + (f" · HTTP {page.status}" if page.status is not None else "")
    fetch += (f" · {esc(page.error)}" if page.error and page.error != f"HTTP {page.status}" else "") + (" · from cache" if page.from_cache else "")
    out = [("Fetch", fetch)]
    hops = [(h.status, h.url) for h in page.chain]
    if page.final_url and (not hops or hops[-1][1] != page.final_url):
        hops.append((page.status or 0, page.final_url))
    if hops:
        items = "".join(f'<li><span class="st">{st or "—"}</span> {link_or_text(url)}</li>' for st, url in hops)
        out.append(("Status chain", f'<ol class="chain">{items}</ol>'))
    if page.title:
        out.append(("Page title", f"<q>{esc(page.title)}</q>"))
    if page.content_type:
        out.append(("Content type", esc(page.content_type)))
    if page.snapshot_url:
        snapshot = page.snapshot_url
        out.append(("Archived copy", link_or_text(snapshot, "Wayback snapshot") + f" <code>{esc(snapshot)}</code>"))
    elif page.archived is False:
        out.append(("Archived copy", "none: the Wayback Machine has no snapshot"))
    if page.fetched_at:
        out.append(("Fetched at", esc(page.fetched_at)))
    return out
