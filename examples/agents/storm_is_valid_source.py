"""STORM: only corpus sources may pass a retriever's `is_valid_source`.

    python examples/agents/storm_is_valid_source.py [--workdir DIR]

STORM's retrievers (`knowledge_storm.rm`: `BingSearch`, `YouRM`, …) take `is_valid_source=callable`
and drop every search result whose URL it refuses. Here the corpus is harvested first (through the
gate: the dead link and the soft-404 never earn an ID), then `CorpusFilter` is that callable. The
filtering below is what the retriever does with it; with STORM installed you pass the same object:
`BingSearch(bing_search_api_key=..., k=3, is_valid_source=is_valid_source)`.
"""
from __future__ import annotations

import sys

from _web import DEAD, REPORTS, SOFT_404, start

from citecheck.agents import CorpusFilter, source_urls


def main() -> int:
    work, base, config, stop = start(__doc__.splitlines()[0])
    try:
        corpus = work / "sourced_corpus.json"
        kept = source_urls(urls=[base + p for p in (*REPORTS, DEAD, SOFT_404)], corpus=corpus, config=config)
        print(f"harvested {len(kept)} sources into {corpus}")
        is_valid_source = CorpusFilter(corpus)
        results = [base + REPORTS[0], base + REPORTS[1] + "?utm_source=newsletter#top",  # the same source
                   base + DEAD, base + SOFT_404, "https://www.fabricated-institute.org/freight-outlook-2030"]
        for url in results:
            print(f"  {'keep' if is_valid_source(url) else 'drop'}  {url}")
        passed = [url for url in results if is_valid_source(url)]
        return 0 if passed == results[:2] else 1
    finally:
        stop()


if __name__ == "__main__":
    sys.exit(main())
