"""What to search: sections (from an outline, a URL file's headings, or one `--query`) and the
providers each uses; then the search itself, provider failures recorded rather than fatal."""
from __future__ import annotations

import asyncio
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from citecheck.errors import ProviderError, UsageError
from citecheck.harvest.outline import Outline, Query, Section
from citecheck.harvest.providers import Candidate, Listed
from citecheck.models import Location


@dataclass(frozen=True)
class Found:
    """A candidate, the section it was found for, and where its query (or listing) was written."""

    candidate: Candidate
    section: str
    location: Location


@dataclass(frozen=True)
class SectionPlan:
    section: Section
    providers: tuple[str, ...]
    origin: str  # the file (or <query>) the section's queries come from
    listed: tuple[Found, ...] = ()  # URLs given outright (outline `urls:`, --urls FILE)


@dataclass
class Searched:
    found: list[Found] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    per_section: dict[str, int] = field(default_factory=dict)


def outline_plans(outline: Outline, override: Sequence[str] = ()) -> list[SectionPlan]:
    plans = []
    for section in outline.sections:
        names = tuple(override) or section.providers or outline.providers
        listed = tuple(_listed(u, i, section.id, outline.path) for i, u in enumerate(section.urls, 1))
        if not names and not listed:
            raise UsageError(f"{outline.path}:{section.line}: section {section.id!r} has no provider: name one with "
                             "`providers:` (outline or section) or --provider")
        plans.append(SectionPlan(section, names if section.queries else (), outline.path, listed))
    return plans


def query_plan(query: str, providers: Sequence[str]) -> SectionPlan:
    if not providers:
        raise UsageError("--query needs a provider: add --provider NAME")
    return SectionPlan(Section("query", query, queries=(Query(query, 1),)), tuple(providers), "<query>")


def urls_plans(path: str, listed: Sequence[Listed]) -> list[SectionPlan]:
    """One section per heading of a URL file (or one `urls` section when it has none)."""
    by_heading: dict[str, list[Listed]] = {}
    for item in listed:
        by_heading.setdefault(item.link.section, []).append(item)
    plans = []
    for heading, items in by_heading.items():
        sid = slug(heading) or "urls"
        found = tuple(Found(i.candidate, sid, i.link.location) for i in items)
        plans.append(SectionPlan(Section(sid, heading or path), (), path, found))
    return plans


def _listed(query: Query, rank: int, section: str, path: str) -> Found:
    return Found(Candidate(query.text, "", "", f"listed in {path}", "urls", rank), section, Location(path, query.line, 1))


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:64]


async def search(plans: Sequence[SectionPlan], providers: Mapping[str, Any], limit: int) -> Searched:
    """Run every query of every section on its providers concurrently; failures become messages."""
    out = Searched()
    jobs: list[tuple[SectionPlan, Query, Any]] = []
    for plan in plans:
        for name in plan.providers:
            provider = providers[name]
            if hasattr(provider, "scoped"):
                provider = provider.scoped(plan.section.preferred_sources)
            jobs.extend((plan, query, provider) for query in plan.section.queries)
    results = await asyncio.gather(*(_one(prov, q, limit) for _, q, prov in jobs))
    by_section: dict[str, list[tuple[Query, tuple[list[Candidate], str]]]] = {}
    for (plan, query, _), result in zip(jobs, results):
        by_section.setdefault(plan.section.id, []).append((query, result))
    for plan in plans:  # outline order: the first section to find a URL owns it
        out.found.extend(plan.listed)
        out.per_section[plan.section.id] = len(plan.listed)
        for query, (found, error) in by_section.get(plan.section.id, []):
            if error:
                out.errors.append(f"section {plan.section.id}: {error}")
            out.found.extend(Found(c, plan.section.id, Location(plan.origin, query.line, 1)) for c in found)
            out.per_section[plan.section.id] += len(found)
    return out


async def _one(provider: Any, query: Query, limit: int) -> tuple[list[Candidate], str]:
    try:
        return await provider.search(query.text, limit), ""
    except ProviderError as err:
        return [], str(err)
