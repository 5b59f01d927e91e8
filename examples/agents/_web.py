"""Shared by the agent examples: the pipeline example's local web of institutional sources on
127.0.0.1 (three real reports, a dead link, a soft-404) and a work folder with a config, loaded
explicitly, that lets citecheck fetch it (and names the curated directory for the `directory` provider)."""
from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "pipeline"))

from run import serve, write_inputs  # noqa: E402 - the pipeline example's site and inputs

from citecheck.config import Config, load_config  # noqa: E402

REPORTS = ("/stats/road-freight-2024", "/stats/haulage-enterprises-2023", "/regulation/mobility-package-i")
DEAD, SOFT_404 = "/stats/road-freight-2019", "/stats/freight-outlook-2025"


def start(description: str) -> tuple[Path, str, Config, Callable[[], None]]:
    """Parse --workdir, start the web, write the inputs; returns (work folder, base URL, config, stop)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--workdir", help="where the corpus goes (default: a new temporary folder)")
    work = Path(parser.parse_args().workdir or tempfile.mkdtemp(prefix="citecheck-agents-"))
    work.mkdir(parents=True, exist_ok=True)
    for old in ("sourced_corpus.json", "sourced_corpus.json.ids"):
        (work / old).unlink(missing_ok=True)
    base, stop = serve()
    write_inputs(work, base)
    # given explicitly (as --config would be), this file may widen the network policy to the loopback web
    (work / "agents.yaml").write_text("ignore: [U004, C005]\nfetch:\n  allow: [127.0.0.1]\n  no-cache: true\n"
                                      "providers:\n  directory: {path: directory.yaml}\n")
    return work, base, load_config(str(work / "agents.yaml")), stop
