"""Reference search and citation keys, measured: `.bib` files and Markdown reference lists in several
styles, real and perturbed, audited against loopback stand-ins of Crossref's and arXiv's documented
search APIs (tests/searchfakes.py) that hold the real works of bench/bib_works.py and nothing else.

Kinds (every real work in each, cycling through the styles; correct ones in every style):
  correct        the work as published                     -> no finding (else a false alarm)
  wrong_authors  another work's authors                    -> R002 reference-mismatch
  placeholder    "Doe, J." as the author                   -> R002
  wrong_year     the year three off                        -> R002
  near_title     one content word of the title changed     -> R002 (flagged at all: R002 or R005)
  invented       a plausible work nobody published         -> R005 reference-unindexed, never an error
  invented_key   a Pandoc [@key] the bibliography lacks    -> M012 unknown-citation-key

    python bench/bib_bench.py            # prints the table bench/README.md quotes
    python bench/bib_bench.py semanticscholar   # the same works known to that registry only, searched there
    python bench/bib_bench.py openalex          # (its loopback stand-in, tests/keyedfakes.py, with a test key)
    python bench/bib_bench.py harvest           # harvest --bib of one .bib holding every kind: kept or rejected
"""
from __future__ import annotations

import os
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests")]

from bib_works import INVENTED, WORKS, W  # noqa: E402
from hostile_net import ServerThread  # noqa: E402
from keyedfakes import OPENALEX_KEY, S2_KEY, KeyedRegistries  # noqa: E402
from registryfakes import Work  # noqa: E402
from searchfakes import SearchingRegistries  # noqa: E402

from citecheck import audit  # noqa: E402
from citecheck.config import build  # noqa: E402

STYLES = ("apa", "ieee", "chicago", "harvard", "footnote", "bib", "vancouver", "ama", "nature", "lncs", "acm", "mla")
KINDS = ("correct", "wrong_authors", "placeholder", "wrong_year", "near_title", "invented")
EXPECT = {"correct": set(), "wrong_authors": {"R002"}, "placeholder": {"R002"}, "wrong_year": {"R002"},
          "near_title": {"R002"}, "invented": {"R005"}}
SWAP = {"Learning": "Training", "Networks": "Models", "Deep": "Shallow", "Analysis": "Study", "Theory": "Model",
        "Data": "Signals", "Language": "Speech", "Neural": "Spiking", "Image": "Video", "Models": "Systems"}


def perturb(kind: str, work: W, other: W) -> W:
    if kind == "wrong_authors":
        return work._replace(authors=other.authors)
    if kind == "placeholder":
        return work._replace(authors=[("John", "Doe"), *work.authors[1:]])
    if kind == "wrong_year":
        return work._replace(year=work.year - 3)
    if kind == "near_title":
        words = work.title.split()
        content = [i for i, w in enumerate(words) if len(w) > 3 and w.lower() not in ("with", "from", "into", "using")]
        at = next((i for i, w in enumerate(words) if w in SWAP), content[len(content) // 2] if content else 0)
        words[at] = SWAP.get(words[at], "Robust")
        return work._replace(title=" ".join(words))
    return work


def initials(given: str) -> str:
    return " ".join(f"{p[0]}." for p in given.replace("-", " ").split() if p)


def apa_names(work: W) -> str:
    names = [f"{f}, {initials(g)}".rstrip(", ") for g, f in work.authors]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + ", & " + names[-1]


def render(style: str, work: W, n: int) -> str:
    if style in ("ieee", "chicago"):  # a quoted title quotes its own quotes with single ones
        work = work._replace(title=work.title.replace('"', "'"))
    if style == "apa":
        return f"- {apa_names(work)} ({work.year}). {work.title}. *{work.venue}*."
    if style == "ieee":
        names = [f"{initials(g)} {f}".strip() for g, f in work.authors]
        who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + ", and " + names[-1]
        return f'[{n}] {who}, "{work.title}," *{work.venue}*, {work.year}.'
    if style == "chicago":
        first = f"{work.authors[0][1]}, {work.authors[0][0]}".rstrip(", ")
        rest = [f"{g} {f}".strip() for g, f in work.authors[1:]]
        who = first if not rest else first + ", " + ", ".join(rest[:-1]) + (", " if rest[:-1] else "") + "and " + rest[-1]
        return f'{who.rstrip(".")}. {work.year}. "{work.title}." *{work.venue}*.'
    if style == "harvard":
        names = [f"{f}, {initials(g)}".rstrip(", ") for g, f in work.authors]
        who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        return f"{who} ({work.year}) {work.title}. *{work.venue}*."
    if style == "footnote":
        return f"[^r{n}]: {apa_names(work)} ({work.year}). {work.title}. {work.venue}."
    if style in ("vancouver", "ama"):  # NLM/ICMJE and AMA: `Doe J, Roe RA. Title. J Abbrev. 2020;12(3):45-67.`
        names = [f"{f} {''.join(p[0] for p in g.replace('-', ' ').replace('.', ' ').split())}".strip()
                 for g, f in work.authors]
        who = ", ".join(names[:6 if style == "vancouver" else 3]) + ", et al" if len(names) > 6 else ", ".join(names)
        venue = f"*{work.venue}*" if style == "ama" else work.venue
        return f"{n}. {who}. {work.title}. {venue}. {work.year};{n % 40 + 1}({n % 12 + 1}):{n * 7}-{n * 7 + 9}."
    if style == "nature":  # `Doe, J., Roe, R. A. & Lee, K. Title. Journal 575, 1–5 (2019).`
        names = [f"{f}, {initials(g)}".rstrip(", ") for g, f in work.authors]
        who = f"{names[0]} et al." if len(names) > 5 else names[0] if len(names) == 1 else ", ".join(names[:-1]) + " & " + names[-1]
        return f"{n}. {who if who.endswith('.') else who + '.'} {work.title}. *{work.venue}* **{n % 40 + 1}**, {n * 7}–{n * 7 + 9} ({work.year})."
    if style == "lncs":  # Springer LNCS: `Doe, J., Roe, R.A.: Title. In: Venue, pp. 1–5 (2019)`
        names = [f"{f}, {initials(g).replace(' ', '')}".rstrip(", ") for g, f in work.authors]
        who = f"{names[0]}, et al." if len(names) > 3 else ", ".join(names)
        return f"{n}. {who}: {work.title}. In: {work.venue}, pp. {n * 7}–{n * 7 + 9} ({work.year})"
    if style == "acm":  # `Jane Doe and John Roe. 2019. Title. In Venue. 1–5.`
        names = [f"{g} {f}".strip() for g, f in work.authors]
        who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + (", and " if len(names) > 2 else " and ") + names[-1]
        return f"[{n}] {who}. {work.year}. {work.title}. In *{work.venue}*. {n * 7}–{n * 7 + 9}."
    if style == "mla":  # `Doe, Jane, and John Roe. "Title." Venue, vol. 5, 2019, pp. 1–5.`
        first = f"{work.authors[0][1]}, {work.authors[0][0]}".rstrip(", ")
        who = first if len(work.authors) == 1 else f"{first}, and {' '.join(work.authors[1]).strip()}" \
            if len(work.authors) == 2 else f"{first}, et al"
        return f'{n}. {who}. "{work.title.replace(chr(34), chr(39))}." *{work.venue}*, vol. {n % 40 + 1}, {work.year}, pp. {n * 7}–{n * 7 + 9}.'
    raise ValueError(style)


def bib_entry(key: str, work: W, with_id: bool) -> str:
    authors = " and ".join(f"{f}, {g}".rstrip(", ") if g else f"{{{f}}}" for g, f in work.authors)
    ident = f",\n  doi = {{{work.doi}}}" if with_id and work.doi else ""
    title = work.title.replace('"', "''")
    return f"@article{{{key},\n  title = {{{title}}},\n  author = {{{authors}}},\n  journal = {{{work.venue}}},\n  year = {{{work.year}}}{ident}\n}}\n"


def cases() -> list[tuple[str, str, W, W]]:
    """(kind, style, the work as published, the work as cited)."""
    out = []
    for k, kind in enumerate(KINDS):
        pool = INVENTED if kind == "invented" else WORKS
        for i, work in enumerate(pool):
            styles = STYLES if kind == "correct" else (STYLES[(i + k) % len(STYLES)],)  # false alarms: every style
            for style in styles:
                out.append((kind, style, work, perturb(kind, work, WORKS[(i + 7) % len(WORKS)])))
    return out


def build_inputs(root: Path) -> tuple[list[str], dict[tuple[str, int], tuple[str, str]]]:
    """The memos and .bib file, and (path, line) -> (kind, style) of every cited reference."""
    where: dict[tuple[str, int], tuple[str, str]] = {}
    by_style: dict[str, list[tuple[str, W]]] = defaultdict(list)
    for kind, style, _work, cited in cases():
        by_style[style].append((kind, cited))
    paths = []
    for style, items in by_style.items():
        path = root / (f"refs_{style}.bib" if style == "bib" else f"memo_{style}.md")
        lines = [] if style == "bib" else ["# Memo", "", "Findings cite the works below.", "", "## References", ""]
        for n, (kind, cited) in enumerate(items, 1):
            if style == "bib":
                where[(str(path), len(lines) + 1)] = (kind, style)
                lines += bib_entry(f"ref{n}", cited, with_id=n % 3 == 0).splitlines()
            else:
                if style == "footnote" and n == 1:
                    lines = ["# Memo", "", " ".join(f"Claim {m}.[^r{m}]" for m in range(1, len(items) + 1)), ""]
                where[(str(path), len(lines) + 1)] = (kind, style)
                lines.append(render(style, cited, n))
                if style not in ("apa",):
                    lines.append("")
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths.append(str(path))
    keys = root / "keys.qmd"
    keys.write_text("---\nbibliography: refs_bib.bib\n---\n\n" + "\n".join(
        f"Claim {n} [@ref{n}] and [see @ghost{n}2021, p. {n}]; as @invented{n}:2020 shows." for n in range(1, 21)) + "\n",
        encoding="utf-8")
    paths.append(str(keys))
    return paths, where


KEYED = {"semanticscholar": ("s2", "SEMANTIC_SCHOLAR_API_KEY", S2_KEY), "openalex": ("openalex", "OPENALEX_API_KEY",
                                                                                   OPENALEX_KEY)}


def fake_works(only: str = "") -> list[Work]:
    """The real works; with `only` (a keyed registry), every work is known to that registry alone (and
    arXiv, for the arXiv IDs of the .bib entries that give one)."""
    return [Work(w.title, [(g, f) for g, f in w.authors], w.year, doi=w.doi, arxiv=w.arxiv, venue=w.venue,
                 agency=KEYED[only][0] if only else "crossref" if w.doi else "arxiv-only") for w in WORKS]


def harvest_main() -> None:
    """`harvest --bib` of one .bib with every work in every kind (every third entry with its DOI): a
    correct entry must pass the gate (become a source, or merge into the one its DOI already made),
    every other must be a reject, with the reason it was caught by."""
    import asyncio

    from citecheck.harvest import harvest_async

    registries = SearchingRegistries(fake_works())
    with ServerThread(registries.app()) as thread, tempfile.TemporaryDirectory() as tmp:
        registries.base = f"http://127.0.0.1:{thread.port}"
        root = Path(tmp)
        kinds: dict[str, str] = {}
        entries = []
        for k, kind in enumerate(KINDS):
            pool = INVENTED if kind == "invented" else WORKS
            for i, work in enumerate(pool):
                key = f"{kind.replace('_', '')}{i}"
                kinds[f"@{key}"] = kind
                entries.append(bib_entry(key, perturb(kind, work, WORKS[(i + 7) % len(WORKS)]), with_id=(i + k) % 3 == 0))
        (root / "refs.bib").write_text("".join(entries), encoding="utf-8")
        pace = {name: [0.0, 2] for name in ("doi", "crossref", "crossref-polite", "datacite", "arxiv", "pubmed",
                                            "crossref-search", "crossref-search-polite")}
        config = build({"fetch": {"allow": [f"127.0.0.1:{thread.port}"], "cache": str(root / "c.sqlite"), "retries": 0},
                        "scholarly": {"endpoints": registries.endpoints(), "pace": pace}})
        result = asyncio.run(harvest_async(None, bibliographies=[str(root / "refs.bib")], config=config,
                                           extract_workers=0, min_excerpt=0))
    rejected = {r.found.candidate.query: r.reasons[0].rule or r.reasons[0].name for r in result.rejects}
    print(f"{'kind':14} {'n':>4} {'kept':>5} {'rejected':>9}  by reason")
    for kind in KINDS:
        keys = [key for key, k in kinds.items() if k == kind]
        reasons = Counter(rejected[key] for key in keys if key in rejected)
        print(f"{kind:14} {len(keys):4} {len(keys) - sum(reasons.values()):5} {sum(reasons.values()):9}  {dict(reasons)}")
    print(f"sources: {len(result.corpus)}; requests: {Counter(entry[0] for entry in registries.log)}")


def main() -> None:
    only = sys.argv[1] if len(sys.argv) > 1 else ""
    if only == "harvest":
        harvest_main()
        return
    if only and only not in KEYED:
        sys.exit(f"usage: bib_bench.py [{'|'.join(KEYED)}]")
    registries = KeyedRegistries(fake_works(only)) if only else SearchingRegistries(fake_works())
    if only:
        os.environ[KEYED[only][1]] = KEYED[only][2]
    with ServerThread(registries.app()) as thread, tempfile.TemporaryDirectory() as tmp:
        registries.base = f"http://127.0.0.1:{thread.port}"
        root = Path(tmp)
        paths, where = build_inputs(root)
        pace = {name: [0.0, 2] for name in ("doi", "crossref", "crossref-polite", "datacite", "arxiv", "pubmed",
                                            "crossref-search", "crossref-search-polite", "semanticscholar", "openalex")}
        search = {"search": [only]} if only else {}
        config = build({"fetch": {"allow": [f"127.0.0.1:{thread.port}"], "cache": str(root / "c.sqlite"), "retries": 0},
                        "scholarly": {"endpoints": registries.endpoints(), "pace": pace, **search}})
        report = audit(paths, config, online=True)
        score(report.findings, where, root)
        print(f"requests: {Counter(entry[0] for entry in registries.log)}")


def score(findings: list, where: dict[tuple[str, int], tuple[str, str]], root: Path) -> None:  # type: ignore[type-arg]
    at: dict[tuple[str, int], set[str]] = defaultdict(set)
    errors_on_invented = 0
    for f in findings:
        at[(f.path, f.line)].add(f.rule)
    totals: dict[str, Counter[str]] = defaultdict(Counter)
    for (path, line), (kind, style) in where.items():
        rules = at.get((path, line), set()) & {"R001", "R002", "R003", "R005"}
        row = totals[kind]
        row["n"] += 1
        row["expected"] += bool(rules & EXPECT[kind]) if EXPECT[kind] else not rules
        row["flagged"] += bool(rules)
        row["R003"] += "R003" in rules
        if kind == "invented" and rules & {"R001", "R002"}:
            errors_on_invented += 1
        if (kind == "correct" and rules) or (kind != "correct" and not rules & EXPECT[kind]):
            print(f"  {kind:13} {style:8} {Path(path).name}:{line} {sorted(rules)}")
    print(f"{'kind':14} {'n':>4} {'as expected':>12} {'flagged':>8} {'R003':>5}")
    for kind in KINDS:
        row = totals[kind]
        print(f"{kind:14} {row['n']:4} {row['expected']:5} ({100 * row['expected'] / max(row['n'], 1):5.1f}%) "
              f"{row['flagged']:8} {row['R003']:5}")
    keys = [f for f in findings if f.rule == "M012"]
    wanted = 40  # ghostN2021 and inventedN:2020 in 20 lines
    print(f"invented keys: {len(keys)}/{wanted} caught (M012); errors on invented works: {errors_on_invented}")


if __name__ == "__main__":
    main()
