"""Page rules (H001-H010) on the 56 labelled real pages of ../shared/realworld/pages.

Every page is turned into `Page` facts the way the fetcher would see it: its recorded status and
headers (`_responses/*.json`, when the capture came from an HTTP-recording suite), its redirect
chain, its body parsed by `citecheck.fetch.parse.parse_body`, and a sibling probe of a random
non-existent path on the same host (answered with that host's hard-404 page when the set has one,
else a generic 404). Then the H rules run through the real engine and each label is scored.

    python bench/realworld_pages.py            # in-process facts, writes realworld_pages.json
    python bench/realworld_pages.py --serve    # serve every page from 127.0.0.1 and fetch it

`--serve` starts one aiohttp site per original host on 127.0.0.1 (recorded status, headers,
redirect hops, per-host 404 for unknown paths), fetches every cited URL through
`citecheck.fetch.fetch_all` when that is available (else a small loopback client here), and maps
the loopback URLs back to the original hosts before the rules run. No traffic leaves 127.0.0.1.
"""
from __future__ import annotations

import argparse
import csv
import hashlib
import json
import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

from citecheck.config import FetchConfig, build
from citecheck.engine.registry import build_registry
from citecheck.engine.run import Engine
from citecheck.engine.select import resolve
from citecheck.fetch.parse import parse_body
from citecheck.fetch.probe import probe_url
from citecheck.fetch.verdict import decide, is_challenge
from citecheck.models import Finding, Hop, Link, LinkKind, Location, Outcome, Page
from citecheck.support.shape import page_shape

ROOT = Path(__file__).resolve().parent.parent
PAGES = ROOT.parent / "shared" / "realworld" / "pages"
EXPECTED = {"soft404": "H003", "hard404-body": "H001", "server-error": "H002", "paywall": "H004",
            "login-wall": "H005", "consent-wall": "H005", "bot-challenge": "H006"}
# Findings that are also right on a label (a soft 404 often has a mismatched title and a redirect).
ALSO_RIGHT = {"soft404": {"H007", "H008"}, "hard404-body": {"H007", "H008"}, "login-wall": {"H008"},
              "consent-wall": {"H008"}, "bot-challenge": {"H008", "H002"}}
CLEAN = ("article", "js-shell")
VERDICT_RULES = ("H001", "H002", "H003", "H004", "H005", "H006", "H009")
_GARBAGE = re.compile(r"\s+HTTP/\S+\s+\d{3}.*$")
PROBE_TOKEN = "qzjxkvwpqzjxkvwp"  # the sibling probe's random letters, fixed here so runs compare
GENERIC_404 = b"<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>"


@dataclass(frozen=True)
class Capture:
    """One labelled page and how its server answered."""

    path: str
    label: str
    url: str  # the URL a memo would cite
    status: int
    headers: dict[str, str]
    hops: tuple[str, ...]  # every URL requested, the cited one first and the final one last
    body: bytes = field(repr=False, default=b"")

    @property
    def final_url(self) -> str:
        return self.hops[-1]

    @property
    def host(self) -> str:
        return urlsplit(self.final_url).hostname or ""


def _rows(pages: Path) -> list[dict[str, str]]:
    with (pages / "MANIFEST.tsv").open(encoding="utf-8") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


def _status(text: str) -> int:
    """The recorded status; 'unknown(typically 503/403)' → 503, 'unknown(200 assumed)' → 200, bare 'unknown' → 200."""
    found = re.search(r"\b([1-5]\d\d|999)\b", text)
    return int(found.group(1)) if found else 200


def _last(values: Any) -> str:
    value = values[-1] if isinstance(values, list) and values else values
    return _GARBAGE.sub("", str(value or "")).strip()


def _headers(recorded: dict[str, Any]) -> dict[str, str]:
    """The final response's headers: lower-case names, last recorded value, transport headers dropped."""
    drop = {"content-length", "content-encoding", "transfer-encoding", "location", "content-location", "set-cookie",
            "connection"}
    return {k.lower(): _last(v) for k, v in recorded.items() if k.lower() not in drop}


def _hops(cited: str, recorded: dict[str, Any]) -> tuple[str, ...]:
    hops = [cited]
    for raw in recorded["headers"].get("location", []):
        target = urljoin(hops[-1], _GARBAGE.sub("", raw).strip())
        if target != hops[-1]:
            hops.append(target)
    final = recorded["request_url"]
    return tuple(hops if hops[-1] == final else [*hops, final])


def _fallback_url(row: dict[str, str], body: bytes) -> str:
    facts = parse_body(body)
    for candidate in (facts.canonical, facts.meta.get("og:url", "")):
        if candidate.startswith("http"):
            return candidate
    return f"https://unknown.invalid/{hashlib.sha1(row['path'].encode()).hexdigest()[:10]}"


def load_captures(pages: Path = PAGES) -> list[Capture]:
    """Every labelled page with the URL it was cited as, its status, headers and redirect hops."""
    rows = _rows(pages)
    first_request: dict[str, str] = {}
    for row in rows:  # captures of one cache key share the cited URL: the earliest capture's request
        if row["label"] == "response-metadata":
            first_request.setdefault(row["origin_path"], json.loads((pages / row["path"]).read_text())["request_url"])
    out = []
    for row in rows:
        if row["label"] == "response-metadata":
            continue
        body = (pages / row["path"]).read_bytes()
        record = pages / "_responses" / (Path(row["path"]).stem + ".json")
        if record.is_file():
            recorded = json.loads(record.read_text(encoding="utf-8"))
            cited = first_request.get(row["origin_path"], recorded["request_url"])
            out.append(Capture(row["path"], row["label"], cited, int(recorded["status"]),
                               _headers(recorded["headers"]), _hops(cited, recorded), body))
        else:
            url = row["url"] or _fallback_url(row, body)
            out.append(Capture(row["path"], row["label"], url, _status(row["http_status"]),
                               {"content-type": "text/html; charset=utf-8"}, (url,), body))
    return out


def outcome_of(cap: Capture) -> tuple[Outcome, str]:
    """The fetcher's own verdict on the recorded answer (`citecheck.fetch.verdict`): 2xx ok; a
    challenge, 401/403/407/429/451/999 and a 5xx after retries unverifiable; other 4xx dead."""
    return decide(cap.status, "", is_challenge(cap.status, cap.headers, cap.body))


def sibling_answers(captures: Iterable[Capture]) -> dict[str, tuple[int, bytes]]:
    """Per host, what a random non-existent path answers: the host's hard-404 page, else a generic 404."""
    answers: dict[str, tuple[int, bytes]] = {}
    for cap in captures:
        if cap.label == "hard404-body":
            answers.setdefault(cap.host, (cap.status, cap.body))
    return answers


def page_of(cap: Capture, sibling: tuple[int, bytes]) -> Page:
    """Page facts of one capture, as the fetcher builds them."""
    ctype = cap.headers.get("content-type", "")
    cap_bytes = FetchConfig().max_body  # the fetcher reads no further: a longer body is cut, and says so
    facts = parse_body(cap.body[:cap_bytes], ctype)
    outcome, error = outcome_of(cap)
    if len(cap.body) > cap_bytes and not error:
        error = "body-too-large"
    chain = (*(Hop(u, 302, cap.hops[i + 1]) for i, u in enumerate(cap.hops[:-1])), Hop(cap.final_url, cap.status))
    sib_status, sib_body = sibling
    probe = probe_url(cap.final_url, PROBE_TOKEN)
    sib = parse_body(sib_body)
    return Page(url=cap.url, outcome=outcome, status=cap.status, final_url=cap.final_url, chain=chain,
                headers=cap.headers, content_type=ctype, title=facts.title, canonical=facts.canonical,
                text_sample=facts.text_sample, html_sample=facts.html_sample, content_hash=facts.content_hash,
                content_length=len(cap.body), error=error, meta=facts.meta,
                sibling_text=sib.text_sample, sibling_status=sib_status,
                sibling_shape=page_shape(sib.html_sample, sib.text_sample, probe))


def any_path_answer(cap: Capture) -> tuple[int, bytes]:
    """What a site that answers the same page for any path sends for the sibling probe: this very
    page, with its own path echoed as the probe's (as a client-rendered shell's router state does)."""
    own = urlsplit(cap.final_url).path.encode()
    probe = urlsplit(probe_url(cap.final_url, PROBE_TOKEN)).path.encode()
    return 200, cap.body.replace(own, probe) if len(own) > 1 else cap.body


def build_pages(captures: list[Capture], any_path: bool = False) -> dict[str, Page]:
    """In-process Page facts for every capture, keyed by capture path; with `any_path`, every host
    answers the sibling probe with the cited page itself (a what-if: the site serves one page for
    any path)."""
    if any_path:
        return {c.path: page_of(c, any_path_answer(c)) for c in captures}
    siblings = sibling_answers(captures)
    return {c.path: page_of(c, siblings.get(c.host, (404, GENERIC_404))) for c in captures}


def run_rules(captures: list[Capture], pages: dict[str, Page]) -> dict[str, list[Finding]]:
    """Every H rule on every page through the real engine; findings keyed by capture path."""
    registry = build_registry()
    engine = Engine(resolve(registry, build({"select": ["H"]})))
    out = {}
    for cap in captures:
        link = Link(cap.url, Location(cap.path, 1, 1), LinkKind.BARE)
        out[cap.path] = engine.check_pages([link], {cap.url: pages[cap.path]}, cap.path)
    return out


def score(captures: list[Capture], findings: dict[str, list[Finding]]) -> dict[str, Any]:
    """Recall per labelled rule, precision per rule, clean rate of article and js-shell."""
    by_label: dict[str, list[Capture]] = defaultdict(list)
    for cap in captures:
        by_label[cap.label].append(cap)
    fired = {path: {f.rule for f in found} for path, found in findings.items()}
    labels: dict[str, Any] = {}
    for label, caps in sorted(by_label.items()):
        rule = EXPECTED.get(label)
        hits = sum(1 for c in caps if (rule in fired[c.path] if rule else not fired[c.path]))
        labels[label] = {"pages": len(caps), "expected": rule or "no finding", "matched": hits,
                         "recall" if rule else "clean_rate": round(hits / len(caps), 3)}
    rules: dict[str, Any] = {}
    for rule in sorted(set(EXPECTED.values()) | {r for f in fired.values() for r in f}):
        fired_on = [c for c in captures if rule in fired[c.path]]
        good = [c for c in fired_on if rule in {EXPECTED.get(c.label), *ALSO_RIGHT.get(c.label, ())}
                or (rule == "H011" and len(c.body) > FetchConfig().max_body)]  # a fact: the body was cut
        rules[rule] = {"fired": len(fired_on), "right": len(good),
                       "precision": round(len(good) / len(fired_on), 3) if fired_on else None,
                       "other_labels": dict(Counter(c.label for c in fired_on if c not in good))}
    return {"labels": labels, "rules": rules}


def evaluate(pages_dir: Path = PAGES, any_path: bool = False) -> dict[str, Any]:
    """The whole in-process evaluation: captures → pages → findings → scores."""
    captures = load_captures(pages_dir)
    pages = build_pages(captures, any_path)
    return report(captures, run_rules(captures, pages), "in-process, any path" if any_path else "in-process")


def report(captures: list[Capture], findings: dict[str, list[Finding]], mode: str) -> dict[str, Any]:
    per_page = [{"path": c.path, "label": c.label, "url": c.url, "status": c.status, "final_url": c.final_url,
                 "expected": EXPECTED.get(c.label, "no finding"),
                 "findings": [{"rule": f.rule, "severity": f.severity.value, "message": f.message,
                               "evidence": f.evidence} for f in findings[c.path]]} for c in captures]
    return {"mode": mode, "pages": len(captures), **score(captures, findings), "per_page": per_page}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--serve", action="store_true", help="serve the pages on 127.0.0.1 and fetch them")
    parser.add_argument("--any-path", action="store_true",
                        help="what-if: every host answers the sibling probe with the cited page itself")
    parser.add_argument("--pages", type=Path, default=PAGES)
    parser.add_argument("--out", type=Path, default=Path(__file__).with_suffix(".json"))
    args = parser.parse_args(argv)
    if args.serve:
        import asyncio

        from realworld_serve import evaluate_served

        result = asyncio.run(evaluate_served(args.pages))
    else:
        result = evaluate(args.pages, args.any_path)
    args.out.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(markdown_table(result))
    return 0


def markdown_table(result: dict[str, Any]) -> str:
    lines = ["| label | pages | expected | matched | recall / clean rate |", "| --- | --- | --- | --- | --- |"]
    for label, row in result["labels"].items():
        rate = row.get("recall", row.get("clean_rate"))
        lines.append(f"| {label} | {row['pages']} | {row['expected']} | {row['matched']} | {rate:.2f} |")
    lines += ["", "| rule | fired | right | precision | wrong on |", "| --- | --- | --- | --- | --- |"]
    for rule, row in result["rules"].items():
        prec = "n/a" if row["precision"] is None else f"{row['precision']:.2f}"
        others = ", ".join(f"{k} {v}" for k, v in sorted(row["other_labels"].items())) or "-"
        lines.append(f"| {rule} | {row['fired']} | {row['right']} | {prec} | {others} |")
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
