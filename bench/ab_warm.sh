#!/usr/bin/env bash
# Interleaved A/B of the warm re-audit after an edit (issue #16's guard: facts cached, verdicts
# recomputed) from two citecheck source trees, on one fact cache both share. Before each run an
# HTML comment with a new nonce is appended to a copy of the memo: the whole-audit result cache
# misses, no finding changes, and every fact comes from the cache (no server, no request). One line
# per run: tree, wall s, user s, sys s (the process tree: page workers included), peak RSS KB of the
# largest process, findings, and a
# digest of the findings (equal digests: identical findings).
#
#   python bench/fetch_bench.py --n 5000 --phases cold --work /tmp/fb    # once: the warm cache
#   bash bench/ab_warm.sh 8 /tmp/old-tree /work/main /tmp/fb/memo-5000.md /tmp/fb/cache.sqlite
#
# A tree is a directory holding the `citecheck` package (e.g. `git worktree add /tmp/old COMMIT`);
# runs start in a scratch directory with PYTHONSAFEPATH=1 (see ab_online.sh). Compare medians of
# interleaved pairs, not single runs.
set -euo pipefail
N=$1; A=$2; B=$3; MEMO=$4; CACHE=$5
PY="${PY:-python}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"
origin() { PYTHONSAFEPATH=1 PYTHONPATH="$1" "$PY" -c "import citecheck, os; print(os.path.dirname(citecheck.__file__))"; }
for tree in "$A" "$B"; do
  [ "$(origin "$tree")" = "$(cd "$tree" && pwd)/citecheck" ] || { echo "ab_warm: $tree does not import its own citecheck ($(origin "$tree"))" >&2; exit 2; }
done
cp "$MEMO" "$WORK/memo.md"  # the same path for both trees: findings compare as they are
for _ in $(seq "$N"); do
  for tree in "$A" "$B"; do
    printf '\n<!-- edit %s -->\n' "$(date +%s%N)" >> "$WORK/memo.md"
    PYTHONSAFEPATH=1 PYTHONPATH="$tree" /usr/bin/time -f "%e %U %S %M" -o "$WORK/time" "$PY" -m citecheck audit "$WORK/memo.md" \
      --format json --allow-private --cache "$CACHE" -o "$WORK/out.json" 2> /dev/null || true
    echo "$tree $(tail -1 "$WORK/time") $("$PY" -c "import hashlib,json,sys; f=json.load(open(sys.argv[1]))['findings']; print(len(f), hashlib.sha256(json.dumps(f, sort_keys=True).encode()).hexdigest()[:12])" "$WORK/out.json")"
  done
done
