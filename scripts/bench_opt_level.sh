#!/bin/bash
# Cold compile and play speed of Sunset Over Water at two LLVM optimisation levels (NUMBA_OPT),
# side by side: each level compiles into its own empty cache folder (numba's cache index does
# not record the level), then 4,000 four-player greedy games are timed on the CPU clock,
# levels alternated for two rounds. Usage: scripts/bench_opt_level.sh [LEVEL_A LEVEL_B]
# (default 3 1); run from the toolkit's root with its venv. README, "Compiles".
set -euo pipefail
A=${1:-3}; B=${2:-1}
PY=${PYTHON:-.venv/bin/python}
TMP=$(mktemp -d)
for opt in $A $B; do
  echo "== NUMBA_OPT=$opt cold compile, load $(cut -d' ' -f1-3 /proc/loadavg)"
  NUMBA_OPT=$opt NUMBA_CACHE_DIR=$TMP/cache-$opt /usr/bin/time -f "wall %e s, CPU %U s user + %S s sys" \
    $PY -m scripts.cli run sunset --games 200 --workers 1 --no-progress --out $TMP/run-$opt \
    2>&1 | tail -1
done
for round in 1 2; do
  for opt in $A $B; do
    printf "NUMBA_OPT=%s round %s: " $opt $round
    NUMBA_OPT=$opt NUMBA_CACHE_DIR=$TMP/cache-$opt $PY - <<'PY'
import time
from sim.registry import get_game
spec = get_game("sunset")
p = spec.prepare(spec.load_components(), 4, ["greedy"], 1)
spec.play_chunk(p, 0, 200)            # load the kernels
t = time.process_time()
spec.play_chunk(p, 0, 4000)
print(f"4-player greedy: {4000 / (time.process_time() - t):,.0f} games per CPU second")
PY
  done
done
echo "(folders in $TMP: remove them when done)"
