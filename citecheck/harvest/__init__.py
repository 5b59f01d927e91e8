"""`citecheck harvest`: build `sourced_corpus.json` from search providers through the gate.

    from citecheck.harvest import harvest
    result = harvest("outline.yaml", providers=["directory"], into="sourced_corpus.json")
    result.corpus, result.rejects, result.stats

    result = harvest_into("sourced_corpus.json", "outline.yaml", providers=["directory"])

The library computes; `write_outputs` persists (corpus, `.ids` high-water mark, rejects, per-section).
`harvest_into` (`citecheck.harvest.into`) is the whole transaction on a corpus file, as `citecheck
harvest -o`, `resolve` and the MCP server run it: `corpus_lock`, `recover`, `harvest`, `write_outputs`.
"""
from __future__ import annotations

from citecheck.harvest.gate import GATES, Policy, Reason
from citecheck.harvest.into import harvest_into, harvest_into_async
from citecheck.harvest.outline import Outline, Section, load_outline, parse_outline
from citecheck.harvest.output import rejects_table, write_outputs
from citecheck.harvest.pipeline import harvest, harvest_async
from citecheck.harvest.providers import Candidate, build_provider
from citecheck.harvest.result import HarvestResult, Reject
from citecheck.harvest.transaction import CorpusBusyError, corpus_lock, recover

__all__ = ["GATES", "Candidate", "CorpusBusyError", "HarvestResult", "Outline", "Policy", "Reason", "Reject", "Section", "build_provider",
           "corpus_lock", "harvest", "harvest_async", "harvest_into",
           "harvest_into_async", "load_outline", "parse_outline", "recover", "rejects_table", "write_outputs"]
