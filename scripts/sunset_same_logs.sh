#!/bin/sh
# Fixed runs of Sunset Over Water for the "no rule changed" check: for 1-4 players, every
# built-in strategy (300 games each, seed 7, 1 worker), one mixed 4-player run, and the
# replays (trace events as text) of a few games.
# Run it once on the engine before a change (OUT=/tmp/sunset-before) and once after
# (OUT=/tmp/sunset-after), then compare the folders' Parquet logs column by column
# (scripts/compare_logs.py) and the replays with diff. Not a test: it plays ~4,000 games.
#   usage: OUT=/tmp/sunset-before sh scripts/sunset_same_logs.sh
set -e
OUT=${OUT:?set OUT to the output folder}
PY=${PY:-/work/main/.venv/bin/python}
mkdir -p "$OUT"
for n in 1 2 3 4; do
  for s in random greedy planner; do
    $PY -m scripts.cli run sunset --players $n --strategies $s --games 300 --seed 7 \
        --workers 1 --no-progress --overwrite --out "$OUT/p${n}-${s}" > /dev/null
  done
done
$PY -m scripts.cli run sunset --players 4 --strategies random,greedy,planner,greedy \
    --games 300 --seed 7 --workers 1 --no-progress --overwrite --out "$OUT/p4-mixed" > /dev/null
# the replays (trace events) of a few games, compared as text
mkdir -p "$OUT/replays"
for run in p4-mixed p1-planner p2-random; do
  for g in 0 1 2; do
    $PY -m scripts.cli replay --game $g "$OUT/$run" > "$OUT/replays/$run-$g.txt"
  done
done
echo "wrote $OUT"
