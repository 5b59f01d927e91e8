"""Load `fixtures/rules/<ID>.yml` case files and run one case through the real engine.

A case file:

    rule: U001
    cases:
      - name: bad_example_com          # bad_* must produce findings, ok_* must not
        input: "See [r](https://example.com/x)."
        format: markdown               # markdown | html | text | corpus | bibtex | csl-json
        expect: [[1, 17]]              # (line, column) of every finding of this rule
        options: {}                    # rule options (as in .citecheck.yaml rules.<ID>.options)
        config: {}                     # extra top-level config (firm, company, ...)
        corpus: [...]                  # optional corpus records (memo rules)
        pages: {URL: {status: 404, title: ..., text_sample: ...}}   # page-stage facts
        records: {"doi:10.1109/cvpr.2016.90": {status: found, record: {registry: crossref, title: …,
                  authors: [{family: He, given: Kaiming}], year: 2016}}}   # what the registries answered
"""
from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import yaml

from citecheck._audit import audit_inputs
from citecheck.config import build
from citecheck.engine.registry import build_registry
from citecheck.extract import Inputs, extract_document
from citecheck.extract.bibliography import parse_bibliography
from citecheck.extract.corpus import build_corpus, load_corpus_text
from citecheck.fetch import Pages
from citecheck.models import Finding, Hop, Outcome, Page

CASES_DIR = Path(__file__).resolve().parent.parent / "fixtures" / "rules"
_REGISTRY = None


def registry():  # type: ignore[no-untyped-def]
    global _REGISTRY
    if _REGISTRY is None:
        _REGISTRY = build_registry()
    return _REGISTRY


def load_cases() -> list[tuple[str, dict[str, Any]]]:
    out = []
    for file in sorted(CASES_DIR.glob("*.yml")):
        data = yaml.safe_load(file.read_text(encoding="utf-8"))
        for case in data["cases"]:
            case = {**case, "rule": data["rule"]}
            out.append((f"{data['rule']}-{case['name']}", case))
    return out


def make_page(url: str, facts: dict[str, Any]) -> Page:
    facts = dict(facts)
    facts.setdefault("outcome", "ok" if int(facts.get("status") or 0) < 400 else "dead")
    facts["outcome"] = Outcome(facts["outcome"])
    facts["chain"] = tuple(Hop(**h) for h in facts.get("chain", ()))
    facts.setdefault("final_url", url)
    return Page(url=url, **facts)


def run_case(case: dict[str, Any]) -> list[Finding]:
    rule = case["rule"]
    raw_config: dict[str, Any] = dict(case.get("config") or {})
    raw_config.setdefault("rules", {})
    if case.get("options"):
        raw_config["rules"][rule] = {"options": case["options"]}
    raw_config["select"] = [rule, "E"]
    config = build(raw_config)
    fmt = case.get("format", "markdown")
    path = f"case.{ {'markdown': 'md', 'html': 'html', 'text': 'txt', 'corpus': 'json', 'bibtex': 'bib', 'csl-json': 'json'}[fmt] }"
    inputs = Inputs()
    if fmt == "corpus":
        inputs.corpora.append(load_corpus_text(path, case["input"]))
    elif fmt in ("bibtex", "csl-json"):
        inputs.bibliographies.append(parse_bibliography(path, case["input"]))
    else:
        inputs.documents.append(extract_document(path, case["input"], fmt))
    corpus = build_corpus("corpus.json", case["corpus"], [1] * len(case["corpus"])) if case.get("corpus") else None
    pages = {url: make_page(url, facts) for url, facts in (case.get("pages") or {}).items()}

    async def fetcher(urls: list[str], _cfg: Any, /, **_: Any) -> Pages:
        return Pages({u: pages[u] for u in urls if u in pages})

    records = case.get("records") or {}

    async def registries(identifiers: list[Any], _cfg: Any, _cache: Any) -> Any:
        from citecheck.registries import Lookups
        from citecheck.scholarly.records import Lookup

        return Lookups(found={i.key: Lookup.from_dict({"reason": "fixture", "registry": "fixture", **records[i.key]})
                              for i in identifiers if i.key in records})

    report = asyncio.run(audit_inputs(inputs, config, registry(), online=bool(pages or records), corpus=corpus,
                                      fetcher=fetcher, registries=registries))
    return [f for f in report.findings if f.rule == rule]
