"""The scholarly registries (DOI system, Crossref, DataCite, arXiv, PubMed) asked over the network,
under the run's fetch policy, at each registry's documented pace, through the fact cache."""
from __future__ import annotations

from citecheck.registries.lookup import Lookups, Registries, store

__all__ = ["Lookups", "Registries", "store"]
