"""CPU of YAML data rules (`kind: rules`) on the 56 real pages and the realworld memos, or their findings.

    python bench/data_rules_bench.py time [ROUNDS]   # CPU seconds: the data rules alone, page/memo apart, and
                                                     # with the built-in page rules (which share the page folds)
    python bench/data_rules_bench.py dump            # the data rules' findings as JSON (to compare trees)

Run it in two checkouts in interleaved pairs (see README.md). The pack is below: one rule of each text
check type. No network: the pages are `realworld_pages.py`'s in-process facts.
"""
from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from realworld_pages import build_pages, load_captures  # noqa: E402

from citecheck.config import build  # noqa: E402
from citecheck.engine.registry import build_registry  # noqa: E402
from citecheck.engine.run import Engine, Memo  # noqa: E402
from citecheck.engine.select import resolve  # noqa: E402
from citecheck.extract.markdown import extract_markdown  # noqa: E402
from citecheck.models import Finding, Link, LinkKind, Location  # noqa: E402

PACK = r"""pack: bench-yaml
kind: rules
rules:
  - {id: H901, name: coming-soon, type: phrase-list, message: 'placeholder {}', phrases: [coming soon, under construction, lorem ipsum, this page is no longer available, page not found, "404", access denied, sign in to continue, subscribe to read, domain is for sale, "don't have permission", cookies, javascript]}
  - {id: H902, name: error-title, type: title-pattern, message: 'error title {}', patterns: ['not found', '^error', 'access denied', '\b40[34]\b', 'page (is )?unavailable', 'just a moment', 'sign in', 'github']}
  - {id: M901, name: no-hype, type: existence, message: 'hype {}', tokens: [revolutionary, 'game-chang\w+', best-in-class, world-class, cutting-edge, 'state[- ]of[- ]the[- ]art', simple, fast, 'e\.g\.', "don't"]}
  - {id: M902, name: prefer, type: substitution, message: 'use {} not {}', swap: {utilize: use, "in order to": to, leverage: use, "a number of": some, "e.g.": "for example"}}
  - {id: M903, name: too-many-the, type: occurrence, message: '{} times the', tokens: [the], max: 3}
"""


def main(argv: list[str]) -> int:
    captures = load_captures()
    pages = build_pages(captures)
    memos = [extract_markdown(str(p), p.read_text(encoding="utf-8"))
             for p in sorted((ROOT.parent / "shared" / "realworld" / "markdown").glob("*.md"))]
    with tempfile.TemporaryDirectory() as packs:
        (Path(packs) / "bench.yaml").write_text(PACK, encoding="utf-8")
        registry = build_registry([packs])

    def run(select: list[str], rounds: int) -> tuple[float, list[Finding]]:
        engine = Engine(resolve(registry, build({"select": select})))
        found: list[Finding] = []
        started = time.process_time()
        for _ in range(rounds):
            found = []
            for cap in captures:
                link = Link(cap.url, Location(cap.path, 1, 1), LinkKind.INLINE, "x")
                found += engine.check_pages([link], {cap.url: pages[cap.path]}, cap.path)
            for doc in memos:
                found += engine.check_memo(Memo(doc))
        return time.process_time() - started, found

    if argv[:1] == ["dump"]:
        print(json.dumps([f.to_dict() for f in sorted(run(["H9", "M9"], 1)[1])], indent=1))
        return 0
    rounds = int(argv[1]) if len(argv) > 1 else 20
    out: dict[str, Any] = {"rounds": rounds}
    for key, select in (("data_rules", ["H9", "M9"]), ("data_page", ["H9"]), ("data_memo", ["M9"]),
                        ("page_rules_and_data", ["H", "M9"])):
        out[key] = round(run(select, rounds)[0], 3)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
