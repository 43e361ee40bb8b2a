#!/bin/sh
# Fixed Sagrada runs: the "no rule changed" check of a change to the engine (not a test: a
# record). Usage: scripts/sagrada_fixed_runs.sh OUTDIR [BEFOREDIR]
#   e.g. /tmp/sagrada-before with the code before the change (a copy of that commit, run from
#   its own folder), then /tmp/sagrada-after /tmp/sagrada-before with the code after
# 200 games each, seed 7, 1 worker: players 1..4 x every built-in strategy, one mixed 4-player
# run, solo at difficulties 1 (hardest) and 5 (easiest) with the planner. With BEFOREDIR, each
# run is compared with the same run there by scripts/compare_logs.py (exit 1 on a difference).
# Column `broken` is ignored: only the logs of the first, hand-written engine have it (always
# 0 outside checked test runs).
set -e
OUT=${1:?output folder}
BEFORE=$2
PY=${PYTHON:-python}
mkdir -p "$OUT"
run() { name=$1; shift; $PY -m scripts.cli run sagrada --games 200 --seed 7 --workers 1 \
          --no-progress --out "$OUT/$name" --overwrite "$@" >/dev/null; }
for n in 1 2 3 4; do
  for s in random greedy planner; do
    run "p${n}-${s}" --players $n --strategies $s
  done
done
run p4-mixed --players 4 --strategies random,greedy,planner,greedy
run p1-planner-solo1 --players 1 --strategies planner --set rules.solo_tools=1
run p1-planner-solo5 --players 1 --strategies planner --set rules.solo_tools=5
if [ -n "$BEFORE" ]; then
  status=0
  for d in "$OUT"/p*; do
    name=$(basename "$d")
    echo "== $name"
    $PY scripts/compare_logs.py "$BEFORE/$name" "$d" --ignore broken || status=1
  done
  exit $status
fi
