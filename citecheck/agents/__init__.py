"""Agents get their sources only through citecheck: the corpus session behind `citecheck mcp`, and
hooks for frameworks that take a Python callable.

    CorpusSession(path, config)   search / add / check (harvester side), get / gate / prompt (writer side)
    CorpusFilter(path)            url -> bool, for STORM's `is_valid_source`
    source_urls(query, corpus=)   validated URLs, for GPT Researcher's `source_urls`
    OutputGate(path)              text -> GateResult, `citecheck write` on a final answer

The MCP binding (`citecheck.agents.server`) needs the `mcp` extra; nothing here does.
"""
from __future__ import annotations

from citecheck.agents.hooks import CorpusFilter, OutputGate, source_urls
from citecheck.agents.results import (
    AddResult,
    CheckResult,
    GateResult,
    PromptResult,
    SearchResult,
    SourceCard,
    SourceEntry,
    UrlOutcome,
    UrlVerdict,
)
from citecheck.agents.session import LIMITS, CorpusSession, Limits

__all__ = ["LIMITS", "AddResult", "CheckResult", "CorpusFilter", "CorpusSession", "GateResult", "Limits",
           "OutputGate", "PromptResult", "SearchResult", "SourceCard", "SourceEntry", "UrlOutcome", "UrlVerdict",
           "source_urls"]
