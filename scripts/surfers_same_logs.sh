#!/bin/sh
# Fixed runs of Grand Surfers for the "no rule changed" check: for 2-4 players,
# every built-in strategy (300 games each, seed 7, 1 worker), one mixed 4-player run, and two
# runs under the boost rule options (boost chains, standing boosts: rare under the defaults).
# Run it once on the engine before a change (OUT=/tmp/surfers-before) and once after
# (OUT=/tmp/surfers-after), then compare the folders' Parquet logs column by column
# (scripts/compare_logs.py). Not a test: it plays ~5,000 games.
#   usage: OUT=/tmp/surfers-before sh scripts/surfers_same_logs.sh
set -e
OUT=${OUT:?set OUT to the output folder}
PY=${PY:-/work/main/.venv/bin/python}
mkdir -p "$OUT"
for n in 2 3 4; do
  for s in random racer blocker builder rider; do
    $PY -m scripts.cli run surfers --players $n --strategies $s --games 300 --seed 7 \
        --workers 1 --no-progress --overwrite --out "$OUT/p${n}-${s}" > /dev/null
  done
done
$PY -m scripts.cli run surfers --players 4 --strategies rider,racer,blocker,builder \
    --games 300 --seed 7 --workers 1 --no-progress --overwrite --out "$OUT/p4-mixed" > /dev/null
$PY -m scripts.cli run surfers --players 4 --strategies random,racer,blocker,builder \
    --games 300 --seed 7 --workers 1 --no-progress --overwrite --out "$OUT/p4-guard-standing" \
    --set rules.boost_loop=guard_push --set rules.boost_moves=standing > /dev/null
$PY -m scripts.cli run surfers --players 3 --strategies random,builder,rider \
    --games 300 --seed 7 --workers 1 --no-progress --overwrite --out "$OUT/p3-guard-tideout" \
    --set rules.boost_loop=guard_push --set rules.tide_on_move=out \
    --set 'flick.spread=[0.2,1.0,2.0]' > /dev/null
# the replays (trace events) of a few games, compared as text
mkdir -p "$OUT/replays"
for run in p4-mixed p4-guard-standing p2-random; do
  for g in 0 1 2; do
    $PY -m scripts.cli replay --game $g "$OUT/$run" > "$OUT/replays/$run-$g.txt"
  done
done
echo "wrote $OUT"
