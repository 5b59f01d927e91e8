"""Scholarly references: identifiers (DOI, arXiv, PubMed) found in a document (`references`), what
the memo claims about each work (`claims`), the registry's record (`records`), and how the two
compare (`compare`). Pure: no network, no disk (the registries are asked by `citecheck.registries`).
The modules are imported where they are used, so an offline audit loads none of them."""
