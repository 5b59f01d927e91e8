#!/usr/bin/env bash
# lychee-fast, the aiohttp floor (bench/aiohttp_floor.py: GET and read every URL, nothing else) and
# citecheck, side by side on the loopback benchmark (the 5,000-link memo of ../shared/bench at
# 50 ms), each against a fresh server, N rounds interleaved: one line per run with the checker,
# wall seconds, user and system CPU seconds.
#
#   bash bench/floor_online.sh 5
#
# The floor is what aiohttp and asyncio cost before any of citecheck's own work; when it is not
# faster than lychee, no aiohttp checker that reads bodies can be (see bench/README.md).
set -euo pipefail
N=$1
HERE="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=bench/loopback_server.sh
source "$HERE/loopback_server.sh"
SHARED="${SHARED:-$HERE/../../shared/bench}"
PEERS="${BENCH_PEERS:-/tmp/bench-peers}"
PY="${PY:-$PEERS/venv/bin/python}"
LYCHEE="${LYCHEE:-$(command -v lychee || echo "$PEERS/venv/bin/lychee")}"
WORK="$(mktemp -d)"
MEMO="$WORK/memo-5000.md"
PORT=18380
"$PY" "$SHARED/make_memo.py" --n 5000 --seed 1 --base-port "$PORT" --out "${MEMO%.md}" > /dev/null
declare -A CMD=(
  [lychee-fast]="$LYCHEE --no-progress --max-concurrency 128 --host-concurrency 128 --host-request-interval 0ms --format json $MEMO"
  [aiohttp-floor]="$PY $HERE/aiohttp_floor.py $MEMO"
  [citecheck]="$PY -m citecheck audit $MEMO --format json --allow-private --no-cache --concurrency 128 --host-concurrency 128"
)
for _ in $(seq "$N"); do
  for name in lychee-fast aiohttp-floor citecheck; do
    start_server
    # shellcheck disable=SC2086 # the command lines are word-split on purpose
    /usr/bin/time -f "%e %U %S" -o "$WORK/time" ${CMD[$name]} > /dev/null 2>&1 || true
    stop_server
    echo "$name $(tail -1 "$WORK/time")"
  done
done
rm -rf "$WORK"
