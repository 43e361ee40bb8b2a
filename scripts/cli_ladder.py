"""`balance ladder GAME --players N`: the skill ladder of a game. Its arguments, parsed and
handed to the library (`sim.api.ladder`, sim/api/ladders.py: the plan, the result folder, the
levels and the verdict runs; analysis/ladder.py measures, reports/ladder.py writes the table,
the plot and the report), and what it returns printed. Registered into scripts/cli.py by
`add_commands`; imports no other scripts module but the shared --assign option
(scripts/cli_designer.py).
"""
from __future__ import annotations

import os


def add_commands(sub, _int) -> dict:
    from sim.api.ladders import (DEFAULT_BUDGETS, DEFAULT_CARD_STATES,   # the library's
                                 DEFAULT_GAMES)                          # defaults
    s = sub.add_parser("ladder", help="skill ladder: random, greedy, planner and mcts at rising "
                                      "budgets against a reference, seats rotated")
    s.add_argument("game")
    s.add_argument("--players", type=_int("players"), default=None,
                   help="player count (default: 4, within the game's range)")
    s.add_argument("-n", "--games", type=_int("games"), default=DEFAULT_GAMES,
                   help=f"games per level (rounded up to whole seat rotations; default "
                        f"{DEFAULT_GAMES})")
    s.add_argument("--budgets", default=DEFAULT_BUDGETS,
                   help="mcts iterations per decision, comma-separated, each a level of the "
                        "game's mcts as shipped with that budget (default: the shipped "
                        "iterations, so the one mcts level is `mcts` itself; `balance "
                        "strategies GAME` shows it)")
    s.add_argument("--rollout", default=None,
                   help="rollout policy of the mcts levels: a built-in of the game (default: "
                        "the shipped mcts's)")
    s.add_argument("--reference", default=None,
                   help="the opponent of every level (default: planner if the game has one, else "
                        "its default strategy)")
    s.add_argument("--verdict-games", type=_int("verdict games"), default=None,
                   help="games of the two verdict runs (default: --games; 0 skips them)")
    s.add_argument("--card-states", type=_int("card states"), default=DEFAULT_CARD_STATES,
                   help=f"card verdicts: at most this many sampled decisions per card, each "
                        f"card's advantage by counterfactual play with the default strategy "
                        f"and with the strongest built-in level, on --verdict-games games "
                        f"(default {DEFAULT_CARD_STATES}; 0 skips them)")
    s.add_argument("--seed", type=_int("seed"), default=1, help="seed shared by every level")
    s.add_argument("--workers", type=_int("workers"), default=None, help="worker processes")
    s.add_argument("--out", default=None, help="output folder (sub-runs and report/)")
    s.add_argument("--components", default=None, help="component file (default: the game's own)")
    s.add_argument("--set", action="append", default=[], dest="overrides", metavar="PATH=VALUE",
                   help="override a component field for every level (repeatable)")
    s.add_argument("--overwrite", action="store_true",
                   help="replace a previous result of this toolkit in --out (only the files the "
                        "toolkit wrote there are removed)")
    s.add_argument("--no-progress", action="store_true", help="no progress bars")
    from scripts.cli_designer import add_assign_option
    add_assign_option(s)
    return {"ladder": cmd_ladder}


def cmd_ladder(args, out) -> int:
    from sim.api import ladder
    from sim.api.common import default_out
    from sim.registry import get_game

    root = os.path.abspath(args.out or default_out(get_game(args.game), "ladder"))
    r = ladder(args.game, players=args.players, games=args.games, seed=args.seed,
               set=list(args.overrides), out=root, budgets=args.budgets, rollout=args.rollout,
               reference=args.reference, verdict_games=args.verdict_games,
               components=args.components, workers=args.workers, overwrite=args.overwrite,
               progress=not args.no_progress, echo=out, assign=list(args.assign),
               card_states=args.card_states)
    files = r.report()
    print("", file=out)
    print(r.table_text(), file=out)
    print("", file=out)
    for line in r.verdicts + r.notes + ([r.card_note.capitalize() + "."] if r.card_note
                                        else []):
        print(line, file=out)
    print(f"\nreport: {files.get('html')}  (Markdown: {files.get('md')}; plot: "
          f"{files.get('png')})", file=out)
    return 0
