"""`balance warm [GAME...]`: compile the games' kernels ahead of a run, one process per game,
as many at once as there are cores (numba compiles on one core per process); a game with
two cores to itself compiles its players and its rules at once (sim/split_compile.py).

Each game's kernels are compiled (or found in the cache) by playing one game with them in a
child process, `python -m sim.warm GAME KIND...`, which writes numba's disk cache
(sim/compile_cache.py, a folder per game): the run that follows loads them in seconds. KIND:

    play     the play loop of `balance run` (the default)
    checked  the loop with the state checks after every move (the tests)
    trace    one game with its trace (`balance replay`, the report's example games)
    search   the loop with the search players (mcts, flatmc: `balance ladder`)
    counterfactual  the scan and branch kernels of a card's worth (`balance cards`, the
             report's card check), for a game with cards to choose
    snapshot the replay that records the game over time (`balance run --snapshots`), for a
             game that declares a snapshot
"""
from __future__ import annotations

import os
import subprocess
import sys
import time

from sim import split_compile

KINDS = ("play", "checked", "trace", "search", "counterfactual", "snapshot")


def _warm_one(game: str, kinds) -> None:
    """In the child: compile game's kernels of `kinds` by using them once."""
    import numpy as np

    from sim.registry import get_game
    spec = get_game(game)
    n = spec.min_players
    prepared = spec.prepare(spec.load_components(), n, [spec.default_strategy_name()], 1)
    if "play" in kinds:
        if hasattr(spec, "compile_on_two_cores"):   # when cold and a core is free for it
            spec.compile_on_two_cores(prepared)
        spec.play_chunk(prepared, 0, 1)
    if "trace" in kinds:
        spec.replay(prepared, 0)
    k = spec.kernels()
    args = (spec.pack_tables(prepared.components), spec.new_state(), n, np.uint64(1), 0, 1,
            np.asarray(prepared.strategy_ids, np.int64),
            np.ascontiguousarray(prepared.strategy_params, np.float64),
            spec.model().RECORD.empty(n))
    if "checked" in kinds:
        k.checked_chunk(*args)
    if "search" in kinds and spec.search_choose() is not None:
        spec.kernels(search=True).play_chunk(*args)   # built-in seats: compiles, plays fast
    if "counterfactual" in kinds:
        _warm_counterfactual(spec, prepared)
    if "snapshot" in kinds and spec.pieces().offers("snapshot"):
        from sim.snapshots import record_games
        record_games(spec, prepared, range(1))


def _warm_counterfactual(spec, prepared) -> None:
    """Scan one game and branch at its first choice of a card: both kernels compiled."""
    import numpy as np

    from sim import counterfactual as cf
    masks = [c["mask_column"] for c in spec.report_metadata(prepared.components).get("cards", ())
             if c.get("mask_column")]
    if not masks:                        # no card the players choose: no counterfactual
        return
    states = cf.scan_chunk(spec, prepared, masks, 0, 1)[:1]
    if len(states):
        cf.branches_chunk(spec, prepared, [prepared.components], states,
                          np.zeros((1, 1), np.int64), masks, np.ones(1, np.int64))


def _line(done: dict, running: list, failed: list, total: int, start: float) -> str:
    finished = ", ".join(f"{g} {s:.0f} s" for g, s in done.items())
    parts = [f"warm: {len(done) + len(failed)}/{total} games ({time.monotonic() - start:.0f} s)"]
    if finished:
        parts.append(f"done {finished}")
    if running:
        parts.append(f"compiling {', '.join(running)}")
    if failed:
        parts.append(f"failed {', '.join(failed)}")
    return "; ".join(parts)


def warm(games: list, kinds=("play",), jobs: int | None = None, err=sys.stderr) -> dict:
    """Compile `games` (names) in parallel child processes, at most `jobs` at once (default:
    the cores); a progress line on `err`. Returns {game: seconds} of those that succeeded;
    raises RuntimeError naming the games whose compile failed (their message on `err`)."""
    jobs = max(1, int(jobs or os.cpu_count() or 1))
    env = dict(os.environ)
    if 2 * len(games) > jobs:   # no core to spare: each game's compile in its one process
        env[split_compile.SWITCH] = "off"
    pending = list(games)
    running: dict = {}
    done: dict = {}
    failed: list = []
    start = time.monotonic()
    live = getattr(err, "isatty", lambda: False)()
    shown, reported = "", 0
    while pending or running:
        while pending and len(running) < jobs:
            game = pending.pop(0)
            proc = subprocess.Popen([sys.executable, "-m", "sim.warm", game, *kinds],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                    text=True, env=env)
            running[game] = (proc, time.monotonic())
        for game, (proc, began) in list(running.items()):
            if proc.poll() is None:
                continue
            message = proc.stderr.read()
            proc.stderr.close()
            del running[game]
            if proc.returncode == 0:
                done[game] = time.monotonic() - began
            else:
                failed.append(game)
                err.write(f"\nbalance: warm {game} failed:\n{message}")
        line = _line(done, list(running), failed, len(games), start)
        if live and line != shown:      # one line, rewritten in place
            err.write("\r\033[K" + line)
            err.flush()
        elif not live and running and len(done) + len(failed) != reported:
            err.write(line + "\n")      # a log: a line when a game is done
            err.flush()
            reported = len(done) + len(failed)
        shown = line
        time.sleep(0.2)
    err.write(("\r\033[K" if live else "") + _line(done, [], failed, len(games), start) + "\n")
    if failed:
        raise RuntimeError(f"the kernels of {', '.join(failed)} did not compile")
    return done


if __name__ == "__main__":
    _warm_one(sys.argv[1], tuple(sys.argv[2:]) or ("play",))
