"""GPT Researcher: research only URLs that earned an ID.

    python examples/agents/gpt_researcher_source_urls.py [--workdir DIR]

`source_urls` runs the harvester (here the `directory` provider over the example's curated list;
`providers=["tavily"]` with TAVILY_API_KEY set works the same way) into the corpus and returns the
URLs of the sources that passed the gate. GPT Researcher then reads those and nothing else:
`GPTResearcher(query=..., source_urls=urls, complement_source_urls=False)`.
"""
from __future__ import annotations

import sys

from _web import DEAD, REPORTS, SOFT_404, start

from citecheck.agents import source_urls


def main() -> int:
    work, base, config, stop = start(__doc__.splitlines()[0])
    try:
        query = "EU road freight tonne-kilometres"
        urls = source_urls(query, corpus=work / "sourced_corpus.json", providers=["directory"], section="market",
                           config=config)
        print(f"GPTResearcher(query={query!r}, report_type='research_report',\n"
              f"              source_urls={urls!r},\n              complement_source_urls=False)")
        return 0 if urls == [base + REPORTS[0]] and base + DEAD not in urls and base + SOFT_404 not in urls else 1
    finally:
        stop()


if __name__ == "__main__":
    sys.exit(main())
