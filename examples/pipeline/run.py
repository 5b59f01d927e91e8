"""The retrieval/generation split, end to end, on shipped data and a local web.

    python examples/pipeline/run.py [--workdir DIR] [--llm]

1. starts a small web of institutional sources on 127.0.0.1 (three real reports, one dead link,
   one soft-404);
2. `citecheck harvest` fills `sourced_corpus.json` from the `directory` provider, through the gate;
3. `citecheck prompt` renders the writer's prompt for the market section;
4. a draft arrives — the canned `draft.md`, written as an LLM would (valid IDs, one invented ID, one
   fabricated URL, one bare domain), or with `--llm` a real one from an OpenAI-compatible endpoint
   (`CITECHECK_LLM_BASE_URL`, `CITECHECK_LLM_MODEL`, `OPENAI_API_KEY`);
5. `citecheck write` gates it: IDs become footnotes, the rest becomes `<needs-source/>`;
6. `citecheck audit` checks the final memo against the corpus and the live pages.
Every step is the real CLI; the output shows the corpus, the gate's findings and the final memo.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

from aiohttp import web

HERE = Path(__file__).resolve().parent
PAGES = {
    "/stats/road-freight-2024": ("road-freight-2024.html", 200),
    "/stats/haulage-enterprises-2023": ("haulage-enterprises.html", 200),
    "/regulation/mobility-package-i": ("mobility-package.html", 200),
    "/stats/road-freight-2019": ("not-found.html", 404),        # dead: the gate rejects it
    "/stats/freight-outlook-2025": ("not-found.html", 200),     # soft-404: the gate rejects it
}


def serve() -> tuple[str, callable]:  # type: ignore[valid-type]
    """The local web, on its own thread and event loop; returns (base URL, stop)."""
    async def page(request: web.Request) -> web.Response:
        name, status = PAGES.get(request.path, ("not-found.html", 404))
        return web.Response(status=status, body=(HERE / "site" / name).read_bytes(), content_type="text/html")

    loop = asyncio.new_event_loop()
    app = web.Application()
    app.router.add_get("/{tail:.*}", page)
    runner = web.AppRunner(app, access_log=None)
    loop.run_until_complete(runner.setup())
    site = web.TCPSite(runner, "127.0.0.1", 0)
    loop.run_until_complete(site.start())
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()

    def stop() -> None:
        asyncio.run_coroutine_threadsafe(runner.cleanup(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
    return f"http://127.0.0.1:{port}", stop


def write_inputs(work: Path, base: str) -> None:
    (work / "directory.yaml").write_text(f"""sources:
  - name: Freight Statistics Office
    domain: 127.0.0.1
    reports:
      - {{url: "{base}/stats/road-freight-2024", title: Road freight statistics 2024, topics: [road freight, tonne-kilometres]}}
      - {{url: "{base}/stats/haulage-enterprises-2023", title: Road haulage enterprises 2023, topics: [haulage industry structure, enterprises]}}
      - {{url: "{base}/stats/road-freight-2019", title: Road freight statistics 2019, topics: [road freight, tonne-kilometres]}}
      - {{url: "{base}/stats/freight-outlook-2025", title: Road freight outlook 2025, topics: [road freight outlook]}}
  - name: Transport Directorate
    domain: 127.0.0.1
    reports:
      - {{url: "{base}/regulation/mobility-package-i", title: Mobility Package I, topics: [cabotage, driver rest]}}
""")
    shutil.copy(HERE / "outline.yaml", work / "outline.yaml")
    # The example web lives on loopback: silence the private-address rule that would (rightly) refuse
    # a loopback URL in a real memo. Fetching it is allowed by `--allow` on the command lines below: a
    # config found in the working tree may narrow the network policy, never widen it.
    (work / ".citecheck.yaml").write_text("ignore: [U004, C005]\nfetch:\n  no-cache: true\n")


def citecheck(work: Path, *args: str, ok: tuple[int, ...] = (0,)) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_COLOR": "1"}
    proc = subprocess.run([sys.executable, "-m", "citecheck", *args], cwd=work, env=env, capture_output=True,
                          text=True, timeout=300)
    print(f"\n$ citecheck {' '.join(args)}   (exit {proc.returncode})")
    print((proc.stdout + proc.stderr).rstrip())
    if proc.returncode not in ok:
        raise SystemExit(f"pipeline: `citecheck {args[0]}` exited {proc.returncode}")
    return proc


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workdir", help="where outputs go (default: a new temporary folder)")
    parser.add_argument("--llm", action="store_true", help="generate the draft with an OpenAI-compatible endpoint")
    args = parser.parse_args()
    work = Path(args.workdir or tempfile.mkdtemp(prefix="citecheck-pipeline-"))
    work.mkdir(parents=True, exist_ok=True)
    for old in ("sourced_corpus.json", "sourced_corpus.json.ids", "rejects.json", "memo.md", "prompt.txt"):
        (work / old).unlink(missing_ok=True)  # a rerun starts a new corpus (IDs are never reused within one)
    base, stop = serve()
    try:
        write_inputs(work, base)
        citecheck(work, "harvest", "outline.yaml", "-o", "sourced_corpus.json", "--rejects", "rejects.json",
                  "--allow", "127.0.0.1")
        corpus = json.loads((work / "sourced_corpus.json").read_text())
        print("\ncorpus:", *(f"  {s['id']}  {s['title']}  <{s['url']}>" for s in corpus), sep="\n")
        prompt = citecheck(work, "prompt", "outline.yaml", "--section", "market", "--corpus", "sourced_corpus.json")
        (work / "prompt.txt").write_text(prompt.stdout)
        if args.llm:
            citecheck(work, "write", "--llm", "--outline", "outline.yaml", "--section", "market", "--corpus",
                      "sourced_corpus.json", "-o", "memo.md", ok=(0, 1))
        else:
            shutil.copy(HERE / "draft.md", work / "draft.md")
            citecheck(work, "write", "draft.md", "--corpus", "sourced_corpus.json", "-o", "memo.md", ok=(0, 1))
        print("\nfinal memo:\n" + (work / "memo.md").read_text())
        audit = citecheck(work, "audit", "memo.md", "--corpus", "sourced_corpus.json", "--format", "text",
                          "--allow", "127.0.0.1", ok=(0, 1))
        print(f"\noutputs in {work}")
        return audit.returncode
    finally:
        stop()


if __name__ == "__main__":
    sys.exit(main())
