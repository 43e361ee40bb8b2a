#!/bin/sh
# Fixed Lowlands runs for the "identical games" check of the engine speed-up (issue 13):
# not a test, a record. Usage: scripts/lowlands_fixed_runs.sh OUTDIR [BEFOREDIR]
#   e.g. /tmp/llspeed-before with the old engine, then /tmp/llspeed-after /tmp/llspeed-before
# 300 games each, seed 7, 1 worker: 2, 3 and 4 players x every built-in strategy, and one
# mixed 4-player run with rotated seats. With BEFOREDIR, each run is compared with the same
# run there by scripts/compare_logs.py (exit 1 on a difference).
set -e
OUT=${1:?output folder}
BEFORE=$2
PY=${PYTHON:-python}
GAMES=${GAMES:-300}
mkdir -p "$OUT"
run() { name=$1; shift; $PY -m scripts.cli run lowlands --games "$GAMES" --seed 7 --workers 1 \
          --no-progress --out "$OUT/$name" --overwrite "$@" >/dev/null; }
for n in 2 3 4; do
  for s in random greedy planner dike shepherd; do
    run "p${n}-${s}" --players $n --strategies $s
  done
done
run p4-mixed --players 4 --strategies planner,dike,shepherd,greedy --rotate-seats
if [ -n "$BEFORE" ]; then
  status=0
  for d in "$OUT"/p*; do
    name=$(basename "$d")
    echo "== $name"
    $PY scripts/compare_logs.py "$BEFORE/$name" "$d" || status=1
  done
  exit $status
fi
