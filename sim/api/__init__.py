"""The toolkit's Python API: everything the `balance` command line does, as library calls
that return DataFrames and write the same reports (docs/api.md).

    from sim import run, open_run, compare, sweep, tune, ladder, game
from sim.api import cards      # sim.cards is the engine's module of that name

    r = run("sunset", players=4, strategies=["planner", "greedy"], games=2000, seed=1,
            set={"commissions[12].points": 5})         # out=None: a temporary folder
    r.logs; r.manifest; r.summary().seats; r.report("report-folder")
    c = compare("sunset", players=2, strategies="greedy,planner", games=2000)
    c.head_to_head; c.ratings; c.report("compare-report")
    s = sweep("sunset", vary={"commissions[12].points": [3, 5, 7]}, games=1000)
    t = tune("sunset", vary="commissions[12].points=3..8", objective="card-parity")
    l = ladder("surfers", players=2, games=60, budgets=[25, 100], reference="rider")
    l.table; l.depth; l.report("ladder-report")
    cov = coverage("lowlands", players=2, games=500)   # each built-in's share of every card type
    cov.table; print(cov.text())
    g = game("sagrada"); comp = g.load_components(set={"rules.x": 1})
    w = card_worth("sunset", players=4, scan_games=3000)   # docs/card-worth.md
    w.table; w.verdicts; w.report("worth-report")

Keyword names are the CLI's options (`--rotate-seats` -> rotate_seats, `--set` -> set, ...);
the CLI calls these functions and prints what they return (tests/test_api_cli.py checks that
every command gives the numbers of its call).

Layering (docs/architecture.md): this package is the facade: it imports sim, strategies,
analysis and reports; only scripts/ (and `sim/__init__`'s lazy attribute access) import it.
"""
from __future__ import annotations

from sim.api.designer import (CardsResult, CompareResult, SweepResult, TuneResult, cards,
                              compare, sweep, tune)
from sim.api.coverage import CoverageResult, coverage
from sim.api.games import Game, game
from sim.api.ladders import LadderResult, ladder
from sim.api.runs import Run, open_run, run
from sim.api.worth import WorthResult, card_worth

__all__ = ["run", "open_run", "Run", "compare", "sweep", "tune", "cards", "ladder", "game",
           "Game", "CompareResult", "SweepResult", "TuneResult", "CardsResult", "LadderResult",
           "card_worth", "WorthResult", "coverage", "CoverageResult"]
