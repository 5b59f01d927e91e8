"""A reference without an identifier that no registry asked knows: unverifiable, not fabricated.

A reference-list item, footnote or bibliography entry without a DOI or arXiv ID is searched in
Crossref (`query.bibliographic`), then DataCite (`/dois?query=`) and arXiv (`search_query`) for what
Crossref lacks, and the results are validated field
by field: the title must match, or nearly match with the same first author and year. When every
registry asked answered and none holds the work, the reference may be invented (the commonest
fabrication has a plausible title and authors and no identifier), or real and unindexed (reports,
books, theses, working papers, new preprints): absence alone proves nothing, so this is a warning
with the closest record as evidence, never "does not exist". Check it by hand, or add its DOI.
A registry that could not answer gives R003 reference-unverifiable instead; a record that is the
work but contradicts the claimed authors, year or title gives R002 reference-mismatch.

Failing example (no Crossref, DataCite or arXiv record has this title):

    ## References
    - Smith, J., & Doe, A. (2021). Quantum blockchain synergies for ocean heat forecasting. Journal of Everything.

Passing example (Crossref has the work):

    ## References
    - He, K., Zhang, X., Ren, S., & Sun, J. (2016). Deep residual learning for image recognition. CVPR.
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from citecheck.models import Hit
from citecheck.scholarly.records import Status

if TYPE_CHECKING:
    from citecheck.engine.run import Cited

ID = "R005"
NAME = "reference-unindexed"
STAGE = "reference"
SEVERITY = "warning"
VERDICT = "unverifiable"
DEFAULTS: dict[str, Any] = {}
OPTIONS: dict[str, str] = {}


def check(cited: Cited, options: Mapping[str, Any]) -> Iterator[Hit]:
    ref, lookup = cited.reference, cited.lookup
    if lookup.status is Status.UNINDEXED:
        yield Hit(f"{ref.identifier.label}: no registry asked knows this work; unverifiable, not proven fabricated "
                  f"({lookup.reason})", ref.location, evidence=lookup.reason)
