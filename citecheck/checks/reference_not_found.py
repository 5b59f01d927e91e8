"""A DOI, arXiv ID or PubMed ID that its registry says does not exist: a fabricated reference.

LLMs invent identifiers that look right (`10.1109/CVPR.2023.01234`, `arXiv:2403.12345`). The
registry is the authority, and only its authoritative "no" counts: the DOI system's handle API
answering `responseCode` 100 (Handle Not Found) with HTTP 404, the arXiv API returning no entry
for a well-formed ID (or an ID no arXiv month could have), PubMed's esummary returning no record.
A Crossref 404 alone is not enough (the DOI may be DataCite's or another agency's), and a registry
that did not answer (429, 5xx, timeout) is R003 reference-unverifiable, never this rule. Needs the
network (`citecheck audit` without `--offline`); see docs/scholarly.md.

Failing example (the handle API answers 404 with responseCode 100):

    Scaling laws are universal (Smith, 2023, https://doi.org/10.9999/fabricated.2023.001).

Passing example (the DOI is registered):

    Residual networks (He et al., 2016, https://doi.org/10.1109/CVPR.2016.90).
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from citecheck.models import Hit
from citecheck.scholarly.records import Status

if TYPE_CHECKING:
    from citecheck.engine.run import Cited

ID = "R001"
NAME = "reference-not-found"
STAGE = "reference"
SEVERITY = "error"
VERDICT = "fabricated"
GATE = "gone"
DEFAULTS: dict[str, Any] = {"kinds": ["doi", "arxiv", "pmid"]}
OPTIONS = {"kinds": "identifier kinds to judge (doi, arxiv, pmid)"}


def check(cited: Cited, options: Mapping[str, Any]) -> Iterator[Hit]:
    ref, lookup = cited.reference, cited.lookup
    if lookup.status is not Status.ABSENT or ref.identifier.kind not in options.get("kinds", ()):
        return
    yield Hit(f"{ref.identifier.label} does not exist: {lookup.reason}", ref.location, ref.url or ref.identifier.url,
              evidence=f"{lookup.registry}: {lookup.reason}")
