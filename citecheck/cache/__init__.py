"""Caches of derived results, each keyed on everything it depends on: the stored audit result
(`citecheck.cache.results`) and the parsed rule packs (`citecheck.cache.packs`).

The fact cache (what hosts answered) lives with the fetcher (`citecheck.fetch.cache`, `cache_pg`):
the run's URL policy (`citecheck.fetch.guard`) is applied before it answers, and the two import each
other, so it stays in the fetch layer."""
