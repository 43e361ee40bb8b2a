"""How long the designer waits: listings, cold compiles, warm start, a user file's second run.

    python scripts/bench_startup.py [--game sunset --game ...] [--checkout PATH] [--skip-cold]
                                    [--user-file docs/examples/waterfall_lover.py:waterfall_lover]

Prints one table, each figure measured in a child process (as a user's command would be):

* `balance --help`, `games`, `strategies sunset`, `components sunset`: wall time and peak
  memory (the child's maximum resident set, from the OS).
* cold compile per game: `balance run GAME --games 200 --workers 1` in a fresh, empty numba
  cache folder (a temporary folder, removed afterwards), with where numba's time went: LLVM's
  optimisation passes (summed over every compiled function), the number of functions
  compiled, and how many function bodies LLVM optimised and emitted in all (a callee is
  linked, optimised and emitted again into every kernel that calls it: the ratio of the two
  is that duplication).
* warm start: the same command again with that cache folder.
* the second run of a user strategy file (`--user-file`, Sunset's worked example by
  default): the first run compiles its play loop, the second loads it from the cache.

`--checkout PATH` measures another checkout of the toolkit (e.g. `git worktree add /tmp/before
COMMIT`) with the same commands, for a before/after table in the same conditions. The load
average of the machine is printed with the table: on a loaded machine every figure is slower.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GAMES = ("sunset", "sagrada", "surfers", "lowlands")
USER_FILE = "docs/examples/waterfall_lover.py:waterfall_lover"

COMPILE_CHILD = r"""
import gc, json, sys, time
t0 = time.perf_counter()
c0 = time.process_time()
from scripts.cli import main
code = main(sys.argv[1:])
wall = time.perf_counter() - t0
cpu = time.process_time() - c0
from numba.core.registry import CPUDispatcher
llvm = 0.0
compiled = 0
bodies = 0
names = set()
for obj in gc.get_objects():
    if isinstance(obj, CPUDispatcher):
        for cres in obj.overloads.values():
            compiled += 1
            timings = cres.metadata.get("llvm_pass_timings") if cres.metadata else None
            if timings is not None:
                llvm += timings.get_total_time() or 0.0
            mod = getattr(cres.library, "_final_module", None)
            if mod is not None:
                defined = [f.name for f in mod.functions if not f.is_declaration]
                bodies += len(defined)
                names.update(defined)
print("RESULT " + json.dumps({"code": code, "wall": wall, "cpu": cpu, "llvm": llvm,
                              "compiled": compiled, "bodies": bodies, "unique": len(names)}))
"""


def _child(args: list, cwd: str, env: dict) -> tuple:
    """(wall seconds, peak resident memory in MB, stdout) of a child process."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(args, cwd=cwd, env=env, stdout=out, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        if proc.returncode != 0:
            raise RuntimeError(f"{' '.join(args)} failed:\n{err.read().decode()[-2000:]}")
        return wall, usage.ru_maxrss / 1024, out.read().decode()


def _env(cache: str | None) -> dict:
    env = {k: v for k, v in os.environ.items()
           if k not in ("NUMBA_CACHE_DIR", "NUMBA_CACHE_LOCATOR_CLASSES")}
    if cache:
        env["NUMBA_CACHE_DIR"] = cache
    return env


def listings(checkout: str) -> list:
    rows = []
    balance = [sys.executable, "-m", "scripts.cli"]
    for args in (["--help"], ["games"], ["strategies", "sunset"], ["components", "sunset"]):
        wall, peak, _ = _child(balance + args, checkout, _env(None))
        rows.append((f"balance {' '.join(args)}", f"{wall:.2f} s", f"{peak:.0f} MB"))
    return rows


def cold_and_warm(checkout: str, game: str, tmp: str) -> list:
    cache = os.path.join(tmp, f"cache-{game}")
    out = os.path.join(tmp, f"run-{game}")
    cmd = [sys.executable, "-c", COMPILE_CHILD, "run", game, "--games", "200", "--workers",
           "1", "--out", out, "--overwrite", "--no-progress"]
    rows = []
    for label in ("cold compile", "warm start"):
        env = _env(cache)
        env["NUMBA_LLVM_PASS_TIMINGS"] = "1"   # numba records LLVM's pass times only then
        wall, peak, stdout = _child(cmd, checkout, env)
        r = json.loads(stdout.split("RESULT ", 1)[1])
        print(f"  {label} {game}: {wall:.1f} s {json.dumps(r)}", file=sys.stderr, flush=True)
        detail = ""
        if label == "cold compile":
            detail = (f"LLVM passes {r['llvm']:.0f} s, {r['compiled']} functions compiled, "
                      f"{r['bodies']} bodies optimised and emitted ({r['unique']} distinct)")
        rows.append((f"{label}: run {game} --games 200", f"{wall:.1f} s", f"{peak:.0f} MB",
                     detail))
    return rows


def user_file(checkout: str, spec: str, tmp: str) -> list:
    cache = os.path.join(tmp, "cache-user")
    path, fn = spec.rsplit(":", 1)
    path = os.path.join(ROOT, path) if not os.path.isabs(path) else path
    cmd = [sys.executable, "-m", "scripts.cli", "run", "sunset", "--players", "4", "--games",
           "200", "--workers", "1", "--strategies", f"{path}:{fn},greedy,greedy,greedy",
           "--out", os.path.join(tmp, "run-user"), "--overwrite", "--no-progress"]
    rows = []
    for label in ("user file, first run", "user file, second run"):
        wall, peak, _ = _child(cmd, checkout, _env(cache))
        rows.append((f"{label}: {os.path.basename(path)}", f"{wall:.1f} s", f"{peak:.0f} MB"))
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", action="append", dest="games", default=None)
    ap.add_argument("--checkout", default=ROOT, help="the toolkit checkout to measure")
    ap.add_argument("--skip-cold", action="store_true", help="listings and user file only")
    ap.add_argument("--user-file", default=USER_FILE)
    args = ap.parse_args(argv)
    checkout = os.path.abspath(args.checkout)
    load = os.getloadavg()
    started = datetime.datetime.now(datetime.timezone.utc)
    tmp = tempfile.mkdtemp(prefix="bench-startup-")
    rows = []
    try:
        rows += listings(checkout)
        if not args.skip_cold:
            for game in args.games or GAMES:
                rows += cold_and_warm(checkout, game, tmp)
        if args.user_file:
            rows += user_file(checkout, args.user_file, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)   # the temporary folder this script made
    end_load = os.getloadavg()
    print(f"bench_startup {started:%Y-%m-%d %H:%M} UTC, {checkout}, {os.cpu_count()} cores, "
          f"load average {load[0]:.1f} at the start, {end_load[0]:.1f} at the end")
    print("| what | wall | peak memory | where the time went |")
    print("|---|---|---|---|")
    for row in rows:
        row = tuple(row) + ("",) * (4 - len(row))
        print("| " + " | ".join(row) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
