"""Offline audit speed: one big memo, and many files in a directory (does it scale linearly?).

Generates memos into a temporary directory (nothing is fetched: `--offline`), then times

  * `citecheck audit --offline --format json` as a subprocess (what a user or CI waits for,
    interpreter start-up and imports included),
  * `citecheck.audit(..., online=False)` in-process (the library call an agent makes),
  * extraction alone (`citecheck.extract.collect`),

and prints the median of `--repeat` runs as a Markdown table for docs/extraction.md. The memo mix
follows ../shared/bench/make_memo.py (inline 40 %, reference 25 %, footnote 15 %, bare 20 %) with
sections, [src-NNN] markers, a table and code blocks added, so every extractor path is exercised.

    python bench/offline_bench.py [--links 5000] [--files 50,100,200] [--repeat 5]
"""
from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent  # time this checkout, whatever is installed
sys.path.insert(0, str(ROOT))

WORDS = ("revenue", "margin", "growth", "filing", "quarter", "guidance", "analyst", "report", "market", "share",
         "segment", "outlook", "board", "disclosure", "audit", "risk", "supply", "demand", "pricing", "customer",
         "churn", "capital")
HOSTS = ("www.reuters.com", "www.sec.gov", "www.bloomberg.com", "www.ft.com", "investor.acme-corp.com",
         "www.wsj.com", "arxiv.org", "en.wikipedia.org", "www.gartner.com", "news.ycombinator.com")
STYLES = (("inline", 40), ("reference", 25), ("footnote", 15), ("bare", 20))


def _words(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n))


def _url(rng: random.Random, i: int) -> str:
    return f"https://{rng.choice(HOSTS)}/{_words(rng, 2).replace(' ', '/')}/{i}?ref={i % 97}"


def _link(rng: random.Random, i: int, refs: list[str], notes: list[str]) -> str:
    style = rng.choices([s for s, _ in STYLES], [w for _, w in STYLES])[0]
    url, before = _url(rng, i), _words(rng, rng.randint(6, 14)).capitalize()
    if style == "inline":
        return f"{before} [{_words(rng, 3)}]({url}) [src-{i % 900 + 1:03d}]."
    if style == "reference":
        refs.append(f'[r{i}]: {url} "{_words(rng, 4).title()}"')
        return f"{before} [{_words(rng, 3)}][r{i}]."
    if style == "footnote":
        notes.append(f"[^n{i}]: {_words(rng, 2).title()}, *{_words(rng, 4)}*, {url}")
        return f"{before} {_words(rng, 4)}[^n{i}]."
    return f"{before} see {url} for {_words(rng, 4)}."


def make_memo(links: int, seed: int = 1) -> str:
    """A Markdown memo with exactly `links` URLs (plus one table and code block per section)."""
    rng = random.Random(seed)
    out, notes = [f"# Research memo ({links} links)\n"], []  # type: list[str], list[str]
    for start in range(0, links, 20):
        refs: list[str] = []
        out.append(f"\n## Section {start // 20 + 1}: {_words(rng, 3).title()}\n")
        batch = [_link(rng, i, refs, notes) for i in range(start, min(start + 20, links))]
        out.extend("\n" + " ".join(batch[j:j + 4]) + "\n" for j in range(0, len(batch), 4))
        out.append(f"\n| metric | value |\n|---|---|\n| {_words(rng, 1)} | {rng.randint(1, 99)} % |\n")
        out.append(f"\n```text\n{_words(rng, 6)}\n```\n")
        if refs:
            out.append("\n" + "\n".join(refs) + "\n")
    out.append("\n## Notes\n\n" + "\n".join(notes) + "\n")
    return "".join(out)


def _median(fn: Callable[[], object], repeat: int) -> tuple[float, float]:
    """Median wall time and median CPU time (this process and its children) of `repeat` runs."""
    walls, cpus = [], []
    for _ in range(repeat):
        cpu, wall = _cpu(), time.perf_counter()
        fn()
        walls.append(time.perf_counter() - wall)
        cpus.append(_cpu() - cpu)
    return statistics.median(walls), statistics.median(cpus)


def _cpu() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _cli(paths: list[Path]) -> None:
    cmd = [sys.executable, "-m", "citecheck", "audit", "--offline", "--format", "json", *map(str, paths)]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False, env=env)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"citecheck failed ({proc.returncode}): {proc.stderr.strip()}")


def _in_process(paths: list[Path]) -> None:
    from citecheck import audit

    audit([str(p) for p in paths], online=False)


def _extract(paths: list[Path]) -> None:
    from citecheck.extract import collect

    collect([str(p) for p in paths])


def _row(label: str, paths: list[Path], repeat: int) -> str:
    _in_process(paths)  # warm-up: in-process figures are for a long-lived caller, imports done
    figures = [_median(partial(run, paths), repeat) for run in (_cli, _in_process, _extract)]
    return f"| {label} | " + " | ".join(f"{wall:.2f} ({cpu:.2f})" for wall, cpu in figures) + " |"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--links", type=int, default=5000)
    parser.add_argument("--files", default="50,100,200", help="directory sizes (25 links per file)")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="citecheck-bench-") as tmp:
        root = Path(tmp)
        memo = root / f"memo-{args.links}.md"
        memo.write_text(make_memo(args.links), encoding="utf-8")
        print(f"median of {args.repeat} runs: wall seconds (CPU seconds); {memo.stat().st_size // 1024} KiB memo, "
              f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs\n")
        print("| input | CLI (subprocess) | audit() in-process | extraction only |")
        print("|---|---|---|---|")
        print(_row(f"1 memo, {args.links} links", [memo], args.repeat))
        for count in (int(n) for n in args.files.split(",") if n):
            folder = root / f"dir-{count}"
            folder.mkdir()
            for i in range(count):
                (folder / f"memo-{i:03d}.md").write_text(make_memo(25, seed=i), encoding="utf-8")
            print(_row(f"{count} files x 25 links (directory)", [folder], args.repeat))


if __name__ == "__main__":
    main()
