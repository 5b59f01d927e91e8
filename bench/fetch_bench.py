"""Fetch-layer benchmark on the shared loopback web (../shared/bench): fetch_all alone, a cold
`citecheck audit`, a warm-cache re-audit, and a re-audit after an edit to the memo, each in its own
process, each against a fresh server.

    python bench/fetch_bench.py --n 5000 --latency-ms 50
    python bench/fetch_bench.py --phases cold,edit,edit,edit --work /tmp/fb   # then --phases edit,edit ...

`warm` re-runs the unchanged memo, which the whole-audit result cache answers; `edit` first appends
an HTML comment with a new nonce to the memo (no finding changes), so the result cache misses and
every verdict is recomputed from the cached facts: the "warm re-audit" of issue #16's guard.

Uses the shared harness's server.py and make_memo.py in place (never copied); ports 18180-18187 so
a run_peers.py run on 18080 is not disturbed. Reports wall, CPU and peak RSS per phase, and scores
against the memo's ground truth: hard 404s found, soft-404 pages caught (H003, audit phases only),
false alarms on rate-limited pages.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FETCH_ONLY = """
import asyncio, json, sys, time
from citecheck.config import FetchConfig
from citecheck.fetch import fetch_all
urls = json.load(open(sys.argv[1]))
config = FetchConfig(allow_private=True, use_cache=False, concurrency=128, host_concurrency=128)
pages = asyncio.run(fetch_all(urls, config))
json.dump({u: [p.outcome.value, p.status, p.title] for u, p in pages.items()}, open(sys.argv[2], "w"))
"""


def start_server(harness: Path, port: int, latency: float, log: Path) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen([sys.executable, str(harness / "server.py"), "--base-port", str(port),
                             "--latency-ms", str(latency)], stdout=log.open("wb"), stderr=subprocess.STDOUT)
    for _ in range(100):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/__health", timeout=1).read()
            return proc
        except OSError:
            time.sleep(0.1)
    proc.terminate()
    raise SystemExit(f"server.py did not come up; see {log}")


def measure(cmd: list[str], stdout: Path) -> dict[str, float]:
    """Run `cmd`; wall seconds, CPU seconds and peak RSS (MB) of that process alone."""
    started = time.perf_counter()
    with stdout.open("wb") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
    return {"wall": time.perf_counter() - started, "cpu": usage.ru_utime + usage.ru_stime,
            "rss": usage.ru_maxrss / 1024, "exit": os.waitstatus_to_exitcode(status)}


def score_fetch(truth: dict[str, Any], result: dict[str, list[Any]]) -> dict[str, int]:
    links = truth["links"]
    return {"hard404": sum(1 for x in links if x["broken"] and result[x["url"]][0] == "dead"),
            "false_alarm": sum(1 for x in links if not x["broken"] and result[x["url"]][0] != "ok"),
            "ratelimited_alarm": sum(1 for x in links if x["kind"] == "ratelimited" and result[x["url"]][0] != "ok")}


def score_audit(truth: dict[str, Any], payload: dict[str, Any]) -> dict[str, int]:
    rules: dict[str, set[str]] = {}
    for finding in payload["findings"]:
        rules.setdefault(finding["url"], set()).add(finding["rule"])
    links = truth["links"]
    dead = {u for u, r in rules.items() if r & {"H001", "H002"}}
    return {"hard404": sum(1 for x in links if x["broken"] and x["url"] in dead),
            "soft404": sum(1 for x in links if x["kind"] == "soft404" and "H003" in rules.get(x["url"], ())),
            "false_alarm": sum(1 for x in links if not x["broken"] and x["url"] in dead),
            "ratelimited_alarm": sum(1 for x in links if x["kind"] == "ratelimited" and x["url"] in rules
                                     and rules[x["url"]] & {"H001", "H002", "H003"})}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--harness", default=str(ROOT.parent / "shared" / "bench"), help="the shared bench folder")
    p.add_argument("--n", type=int, default=5000)
    p.add_argument("--latency-ms", type=float, default=50)
    p.add_argument("--port", type=int, default=18180)
    p.add_argument("--work", default=tempfile.mkdtemp(prefix="fetch-bench-"))
    p.add_argument("--phases", default="fetch,cold,warm,edit",
                   help="fetch, cold, warm, edit in the order given, comma-separated (repeats allowed)")
    args = p.parse_args()
    harness, work = Path(args.harness), Path(args.work)
    memo = work / f"memo-{args.n}"
    subprocess.run([sys.executable, str(harness / "make_memo.py"), "--n", str(args.n), "--seed", "1",
                    "--base-port", str(args.port), "--out", str(memo)], check=True, stdout=subprocess.DEVNULL)
    truth = json.loads(Path(f"{memo}.truth.json").read_text())
    (work / "urls.json").write_text(json.dumps([x["url"] for x in truth["links"]]))
    audit = ["citecheck", "audit", f"{memo}.md", "--format", "json", "--allow-private", "--concurrency", "128",
             "--host-concurrency", "128", "--cache", str(work / "cache.sqlite")]
    phases = [("fetch", "fetch_all only", [sys.executable, "-c", FETCH_ONLY, str(work / "urls.json"),
                                           str(work / "fetch.json")]),
              ("cold", "audit, cold cache", audit), ("warm", "audit, warm cache", audit),
              ("edit", "audit after an edit, warm cache", audit)]
    print(f"| phase (N={args.n}, {args.latency_ms:g} ms) | wall s | CPU s | peak RSS MB | hard 404 found "
          f"| soft-404 (H003) | false alarms | 429 false alarms |\n|---|---|---|---|---|---|---|---|")
    by_key = {key: (name, cmd) for key, name, cmd in phases}
    for index, key in enumerate(args.phases.split(",")):
        if key not in by_key:
            raise SystemExit(f"unknown phase {key!r}: fetch, cold, warm or edit")
        name, cmd = by_key[key]
        if key == "edit":  # a memo text the result cache has never seen: verdicts are recomputed
            with open(f"{memo}.md", "a", encoding="utf-8") as text:
                text.write(f"\n<!-- edit {time.time_ns()} -->\n")
        server = start_server(harness, args.port, args.latency_ms, work / "server.log")
        try:
            out = work / f"{index}-{key}.out"
            m = measure(cmd, out)
        finally:
            server.terminate()
            server.wait()
        if key == "fetch":
            s = score_fetch(truth, json.loads((work / "fetch.json").read_text()))
            soft = "-"
        else:
            s = score_audit(truth, json.loads(out.read_text()))
            soft = f"{s['soft404']}/{truth['mix'].get('soft404', 0) and sum(x['kind'] == 'soft404' for x in truth['links'])}"
        print(f"| {name} | {m['wall']:.2f} | {m['cpu']:.1f} | {m['rss']:.0f} | {s['hard404']}/{truth['broken']} "
              f"| {soft} | {s['false_alarm']} | {s['ratelimited_alarm']} |")


if __name__ == "__main__":
    main()
