"""A scholarly identifier whose registry could not answer: the reference is unverifiable for now.

Rate limits (429), server errors (5xx), timeouts, refused connections and answers that are not the
registry's documented format say nothing about the work: the reference is neither confirmed nor
refuted, so this is a warning, never R001 reference-not-found, and nothing is cached. A DOI that
exists but whose metadata no source could give is reported here too when the memo claims a title,
authors or a year that could not be compared. When no registry and no other outside host answers
at all, the audit says "network unavailable" and exits 2 instead.

Failing example (Crossref and the DOI system answer 503 after the retries):

    Residual networks ([He et al., 2016](https://doi.org/10.1109/CVPR.2016.90)).

Passing example (the registry answered):

    Residual networks ([He et al., 2016](https://doi.org/10.1109/CVPR.2016.90)).
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from citecheck.models import Hit
from citecheck.scholarly.records import Status

if TYPE_CHECKING:
    from citecheck.engine.run import Cited

ID = "R003"
NAME = "reference-unverifiable"
STAGE = "reference"
SEVERITY = "warning"
VERDICT = "unverifiable"
UNREACHED = True  # no registry answer: under a network outage the run's one line speaks for it
DEFAULTS: dict[str, Any] = {"without_metadata": True}
OPTIONS = {"without_metadata": "also report a registered DOI with no metadata when the memo claims fields"}


def check(cited: Cited, options: Mapping[str, Any]) -> Iterator[Hit]:
    ref, lookup = cited.reference, cited.lookup
    if lookup.status is Status.UNVERIFIABLE:
        yield Hit(f"{ref.identifier.label} could not be checked: {lookup.reason}", ref.location,
                  ref.url or ref.identifier.url, evidence=lookup.reason)
    elif (lookup.status is Status.FOUND and lookup.record is None and not ref.claim.empty
          and options.get("without_metadata", True)):
        yield Hit(f"{ref.identifier.label} is registered, but no registry gave metadata to compare the claimed "
                  "title, authors or year with", ref.location, ref.url or ref.identifier.url, evidence=lookup.reason)
