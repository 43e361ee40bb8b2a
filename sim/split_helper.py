"""The helper process of a cold compile on two cores (sim/split_compile.py):
`python -m sim.split_helper GAME [players|search]` compiles the built-in players of GAME (a
name the registry or the game path knows), or its mcts player, into the game's cache folder,
then exits. A module of its own, as it names the registry, which sim/split_compile.py
(imported by the games' specs) must not."""
from __future__ import annotations

import os
import sys

from sim import split_compile
from sim.registry import get_game


def main(game: str, part: str = "players") -> None:
    if part == "search":
        split_compile.compile_search_player(get_game(game))
    else:
        split_compile.compile_players(get_game(game))


if __name__ == "__main__":
    from sim.numba_frontend import young_collections_only
    young_collections_only()   # a short process: no full pass of the collector
    main(*sys.argv[1:3])
    # done: the compiles are on disk; the exit skips the interpreter's teardown (freeing
    # every object of numba one by one, ~0.5 s) that the process compiling the play loop
    # would wait for (sim/split_compile.py waits for this process to end)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)
