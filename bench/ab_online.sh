#!/usr/bin/env bash
# Interleaved A/B of the online audit from two citecheck source trees, against a fresh loopback
# server for every run (the benchmark memo of ../shared/bench at 50 ms): one line per run with
# the tree, wall seconds, user and system CPU seconds (the process tree: page workers included),
# the largest process's peak RSS in KB, the number of findings and a digest of them (equal
# digests: identical findings).
#
#   bash bench/ab_online.sh 8 /tmp/old-tree /work/main [MEMO]
#
# A tree is a directory holding the `citecheck` package (e.g. `git worktree add /tmp/old COMMIT`).
# The machine's speed drifts from run to run: compare medians of interleaved pairs, not single runs.
# Runs start in a scratch directory with PYTHONSAFEPATH=1: `python -m` puts the working directory
# first on sys.path, so started from a checkout it would run that checkout's code for both trees
# (which this script did until session 5, whenever it was started from /work/main).
set -euo pipefail
N=$1; A=$2; B=$3
HERE="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=bench/loopback_server.sh
source "$HERE/loopback_server.sh"
SHARED="${SHARED:-$HERE/../../shared/bench}"
PY="${PY:-/tmp/bench-peers/venv/bin/python}"
WORK="$(mktemp -d)"
MEMO="${4:-$WORK/memo-5000.md}"
PORT="${PORT:-18280}"
[ -f "$MEMO" ] || "$PY" "$SHARED/make_memo.py" --n 5000 --seed 1 --base-port "$PORT" --out "${MEMO%.md}" > /dev/null
cd "$WORK"
origin() { PYTHONSAFEPATH=1 PYTHONPATH="$1" "$PY" -c "import citecheck, os; print(os.path.dirname(citecheck.__file__))"; }
for tree in "$A" "$B"; do
  [ "$(origin "$tree")" = "$(cd "$tree" && pwd)/citecheck" ] || { echo "ab_online: $tree does not import its own citecheck ($(origin "$tree"))" >&2; exit 2; }
done
for _ in $(seq "$N"); do
  for tree in "$A" "$B"; do
    start_server
    PYTHONSAFEPATH=1 PYTHONPATH="$tree" /usr/bin/time -f "%e %U %S %M" -o "$WORK/time" "$PY" -m citecheck audit "$MEMO" --format json \
      --allow-private --no-cache --concurrency 128 --host-concurrency 128 > "$WORK/out.json" 2> /dev/null || true
    stop_server
    echo "$tree $(tail -1 "$WORK/time") $("$PY" -c "import hashlib,json,sys; f=json.load(open(sys.argv[1]))['findings']; print(len(f), hashlib.sha256(json.dumps(f, sort_keys=True).encode()).hexdigest()[:12])" "$WORK/out.json")"
  done
done
rm -rf "$WORK"
