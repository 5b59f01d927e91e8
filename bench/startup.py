#!/usr/bin/env python3
"""Start-up of citecheck against yamllint: median wall time of interleaved runs.

    python bench/startup.py [--runs 21]

Each round runs, in turn, `yamllint` on a small YAML file, `citecheck --help`, and
`citecheck audit --offline` on a small memo (3 links), each as its own process from the
interpreter this script runs under; the order within a round rotates so that no command always
follows the same one. Prints each command's median wall time (and quartiles) and median CPU time
(user + system) with their ratios to yamllint's: on a machine shared with other work the CPU time
is the steadier figure. yamllint is only needed for the comparison (`pip install yamllint`).
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

MEMO = """# Acme Robotics

## Market

The market grew 12 % last year ([BLS](https://www.bls.gov/cpi/)), see also
<https://www.sec.gov/cgi-bin/browse-edgar> and https://www.census.gov/data.html.
"""
YAML = "key: value\nlist:\n  - one\n  - two\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21)
    args = parser.parse_args()
    bindir = Path(sys.executable).parent
    with tempfile.TemporaryDirectory() as tmp:
        memo, doc = Path(tmp) / "memo.md", Path(tmp) / "small.yaml"
        memo.write_text(MEMO)
        doc.write_text(YAML)
        commands = {
            "yamllint small.yaml": [str(bindir / "yamllint"), str(doc)],
            "citecheck --help": [str(bindir / "citecheck"), "--help"],
            "citecheck audit --offline memo.md": [str(bindir / "citecheck"), "audit", "--offline", str(memo)],
        }
        # as on a user's machine: bytecode is cached (PYTHONDONTWRITEBYTECODE would make every run
        # compile every module from source: markdown-it alone costs ~0.1 s then)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        times: dict[str, list[float]] = {name: [] for name in commands}
        cpu: dict[str, list[float]] = {name: [] for name in commands}
        names = list(commands)
        for _ in range(2):  # warm the page cache
            for argv in commands.values():
                subprocess.run(argv, cwd=tmp, env=env, capture_output=True, check=False)
        for i in range(args.runs):
            for name in names[i % 3:] + names[:i % 3]:
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                started = time.perf_counter()
                proc = subprocess.run(commands[name], cwd=tmp, env=env, capture_output=True, check=False)
                times[name].append(time.perf_counter() - started)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu[name].append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
                if proc.returncode not in (0, 1):
                    sys.exit(f"{name} exited {proc.returncode}: {proc.stderr.decode()[-500:]}")
    print(f"{args.runs} interleaved rounds, load average {os.getloadavg()[0]:.1f} at the end")
    base, base_cpu = statistics.median(times[names[0]]), statistics.median(cpu[names[0]])
    for name in names:
        q1, median, q3 = statistics.quantiles(times[name], n=4)
        cpu_median = statistics.median(cpu[name])
        print(f"{name:<34} wall median {median * 1000:6.1f} ms (quartiles {q1 * 1000:.1f}-{q3 * 1000:.1f}) "
              f"{median / base:.2f}x yamllint | CPU median {cpu_median * 1000:6.1f} ms {cpu_median / base_cpu:.2f}x")


if __name__ == "__main__":
    main()
