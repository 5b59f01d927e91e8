"""Framework hooks: the corpus contract where an agent framework takes a plain Python callable.

    is_valid_source = CorpusFilter("sourced_corpus.json")     # STORM retrievers: is_valid_source=
    urls = source_urls("EU road freight", corpus="sourced_corpus.json", providers=["tavily"])
                                                              # GPT Researcher: source_urls=, complement_source_urls=False
    gate = OutputGate("sourced_corpus.json"); gate(answer).text   # an after-model / output hook

Runnable, offline examples: `examples/agents/`.
"""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from citecheck._util import aio
from citecheck.agents.results import GateResult
from citecheck.agents.session import CorpusSession
from citecheck.config import Config, load_config
from citecheck.extract import load_corpus
from citecheck.urltext.corpusindex import CorpusIndex


class CorpusFilter:
    """`url -> bool`: True only for a URL that is a source of the corpus (its url, canonical or final
    URL, compared by `citecheck.urls.dedupe_key`). The file is read again whenever it changes, so a
    harvester running beside the agent widens what passes."""

    def __init__(self, corpus: str | Path) -> None:
        self.path = Path(corpus)
        self._stamp: tuple[int, int] | None = None
        self._index = CorpusIndex(None)

    def __call__(self, url: str) -> bool:
        return bool(self.source_id(url))

    def source_id(self, url: str) -> str:
        """The corpus ID of `url`, or ''."""
        self._refresh()
        return self._index.lookup(url) if isinstance(url, str) else ""

    def _refresh(self) -> None:
        try:
            stat = self.path.stat()
        except FileNotFoundError:  # no corpus yet: nothing is a valid source
            self._stamp, self._index = None, CorpusIndex(None)
            return
        stamp = (stat.st_mtime_ns, stat.st_size)
        if stamp != self._stamp:
            self._index = CorpusIndex(load_corpus(str(self.path)))
            self._stamp = stamp


def source_urls(query: str | None = None, *, corpus: str | Path, urls: Sequence[str] = (),
                providers: Sequence[str] = (), section: str | None = None, config: Config | None = None,
                gate: str = "default", max_results: int = 10) -> list[str]:
    """Harvest into `corpus` (a query on `providers`, and/or `urls` you hold) and return the URLs of
    the validated sources, for GPT Researcher's `source_urls=` (with `complement_source_urls=False`,
    it then reads nothing else). Stale sources (unverifiable on this run) are left out."""
    session = CorpusSession(Path(corpus), config or load_config(), gate_name=gate)
    session.open()
    found: list[str] = []
    if query:
        searched = aio.run(session.search(query, section, providers, max_results))
        found += [s.url for s in searched.sources if not s.stale]
    if urls:
        added = aio.run(session.add(urls, section))
        found += [o.source.url for o in added.results if o.source is not None and not o.source.stale]
    return list(dict.fromkeys(found))


class OutputGate:
    """`text -> GateResult`: `citecheck write` on a model's final answer (footnotes from the corpus,
    unknown IDs marked `<needs-source/>`, every other URL removed). Wire it as an after-model hook."""

    def __init__(self, corpus: str | Path, config: Config | None = None, *, hybrid: bool = False) -> None:
        self.session = CorpusSession(Path(corpus), config or load_config())
        self.hybrid = hybrid

    def __call__(self, text: str) -> GateResult:
        return self.session.gate(text, hybrid=self.hybrid)
