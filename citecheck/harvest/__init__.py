"""`citecheck harvest`: build `sourced_corpus.json` from search providers through the gate.

    from citecheck.harvest import harvest
    result = harvest("outline.yaml", providers=["directory"], into="sourced_corpus.json")
    result.corpus, result.rejects, result.stats

The library computes; `write_outputs` persists (corpus, `.ids` high-water mark, rejects, per-section).
A caller that merges into an existing corpus holds `corpus_lock(path)` from `harvest` to
`write_outputs` and calls `recover(path)` first, as the CLI does (`citecheck.harvest.transaction`).
"""
from __future__ import annotations

from citecheck.harvest.gate import GATES, Policy, Reason
from citecheck.harvest.outline import Outline, Section, load_outline, parse_outline
from citecheck.harvest.output import rejects_table, write_outputs
from citecheck.harvest.pipeline import harvest, harvest_async
from citecheck.harvest.providers import Candidate, build_provider
from citecheck.harvest.result import HarvestResult, Reject
from citecheck.harvest.transaction import CorpusBusyError, corpus_lock, recover

__all__ = ["GATES", "Candidate", "CorpusBusyError", "HarvestResult", "Outline", "Policy", "Reason", "Reject", "Section", "build_provider",
           "corpus_lock", "harvest", "harvest_async", "load_outline", "parse_outline", "recover", "rejects_table", "write_outputs"]
