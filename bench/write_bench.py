"""Write benchmark: gate a generated draft with 2,000 citations against a 400-source corpus.

The draft has sections of prose; most sentences cite one or two corpus IDs (`[src-NNN]`,
`[src-NNN, src-MMM]`, `[src-NNN][src-MMM]`), 2% cite an unknown ID and 2% carry a URL in one
of the syntaxes the gate removes (inline link, bare, www, schemeless, defanged, HTML anchor).
Timed separately: `transform` (the text pipeline: scrub, footnotes, citation list) and the
full `write` (plus the engine's memo rules over the draft, M008's claim support included),
then `write` on its own output (the idempotent re-run). Target: well under a second.

    python bench/write_bench.py [--citations 2000] [--sources 400] [--seed 1] [--repeat 3]
"""
from __future__ import annotations

import argparse
import random
import statistics
import time

from citecheck.config import Config
from citecheck.engine.registry import build_registry
from citecheck.extract.corpus import build_corpus
from citecheck.models import Corpus
from citecheck.urltext.corpusindex import CorpusIndex
from citecheck.write import transform, write

WORDS = (
    "market", "policy", "freight", "river", "climate", "budget", "harbour", "senate", "tariff", "ledger",
    "census", "pension", "canal", "treaty", "battery", "subsidy", "migration", "voltage", "estuary", "harvest",
    "forecast", "municipal", "regulator", "haulage", "revenue", "margin", "fleet", "growth", "share", "lanes",
    "carriers", "pricing", "demand", "capacity",
)
URL_FORMS = ("[the report](https://www.{h}.com/r/{n})", "https://{h}.com/p/{n}", "www.{h}.net/{n}",
             "{h}.io/docs/{n}", "hxxps://{h}[.]org/{n}", '<a href="https://{h}.de/{n}">here</a>')


def make_corpus(sources: int, rng: random.Random) -> Corpus:
    records = [{"id": f"src-{i:03d}", "url": f"https://www.source{i}.example.org/article/{i}",
                "title": " ".join(rng.choices(WORDS, k=6)).capitalize(), "fetched_at": "2026-11-20T10:00:00Z",
                "summary": " ".join(rng.choices(WORDS, k=30)), "body_excerpt": " ".join(rng.choices(WORDS, k=120))}
               for i in range(1, sources + 1)]
    return build_corpus("bench_corpus.json", records, [1] * len(records))


def make_draft(citations: int, sources: int, rng: random.Random) -> str:
    lines, made, n = ["# Benchmark memo", ""], 0, 0
    while made < citations:
        if n % 12 == 0:
            lines += ["", f"## Section {n // 12 + 1}", ""]
        sentence = " ".join(rng.choices(WORDS, k=rng.randint(8, 20))).capitalize()
        roll = rng.random()
        if roll < 0.02:
            cite = f"[src-{sources + rng.randint(1, 500):03d}]"
        elif roll < 0.04:
            cite = rng.choice(URL_FORMS).format(h=rng.choice(WORDS), n=n)
        elif roll < 0.25:
            cite = f"[src-{rng.randint(1, sources):03d}, src-{rng.randint(1, sources):03d}]"
        elif roll < 0.35:
            cite = f"[src-{rng.randint(1, sources):03d}][src-{rng.randint(1, sources):03d}]"
        else:
            cite = f"[src-{rng.randint(1, sources):03d}]"
        lines.append(f"{sentence} {cite}.")
        made, n = made + 1, n + 1
    return "\n".join(lines) + "\n"


def timed(func: object, repeat: int) -> tuple[float, float, object]:
    """Median wall-clock and CPU seconds (CPU time is steadier on a shared machine)."""
    walls, cpus, result = [], [], None
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        result = func()  # type: ignore[operator]
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls), statistics.median(cpus), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--citations", type=int, default=2000)
    parser.add_argument("--sources", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    corpus = make_corpus(args.sources, rng)
    draft = make_draft(args.citations, args.sources, rng)
    index, config, registry = CorpusIndex(corpus), Config(), build_registry()
    gate_only = Config(select=("M006", "M009"))
    *t_transform, out = timed(lambda: transform(draft, index), args.repeat)
    *t_write, result = timed(lambda: write(draft, corpus, config=config, registry=registry), args.repeat)
    memo = result.text  # type: ignore[attr-defined]
    *t_rerun, again = timed(lambda: write(memo, corpus, config=config, registry=registry), args.repeat)
    *t_gate, _ = timed(lambda: write(draft, corpus, config=gate_only, registry=registry), args.repeat)
    print(f"draft: {len(draft):,} chars, {args.citations:,} citations, corpus {args.sources} sources")
    print(f"{'':34}{'wall':>9}{'cpu':>9}")
    print(f"{'transform (text pipeline)':34}{_ms(t_transform)}")
    print(f"{'write, contract rules M006+M009':34}{_ms(t_gate)}")
    findings, footnotes = len(result.findings), len(result.citations)  # type: ignore[attr-defined]
    print(f"{'write, all memo rules':34}{_ms(t_write)}  ({findings} findings, {footnotes} footnotes)")
    unchanged = again.text == memo  # type: ignore[attr-defined]
    print(f"{'write on its own output':34}{_ms(t_rerun)}  (unchanged: {unchanged})")
    assert out.text == memo  # type: ignore[attr-defined]


def _ms(pair: list[float]) -> str:
    return f"{pair[0] * 1000:7.0f}ms{pair[1] * 1000:7.0f}ms"


if __name__ == "__main__":
    main()
