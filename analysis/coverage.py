"""Card coverage: the share of each card type's cards that a player ever chooses.

A game declares its card types in `report_metadata()` (analysis/metadata.py): each type's
cards and the log column holding, per seat and game, the bitmask of the cards the seat took
(chose, built, used: what the type's label says). The coverage of strategy S for card type T
is

    coverage = (cards of T taken at least once by a seat playing S) / (cards of T)

over the games read. It says how much of a game's content a player ever touches: a card no
player of the run ever takes gets no verdict worth the name in the balance report, and a
heuristic that never takes a third of the cards measures the game without them. It is a
count over the games read, so it can only grow with more games (a card taken once in
100,000 games counts as covered): the table gives the seat-games read beside it, and the
cards never taken by name. Only card types (`kind` "card"), not outcomes (a seat's skill
against the table, a surfer lost: facts, not choices).

The counts come from the one aggregation (analysis/aggregate.py `CardSums.taken_by_strategy`:
seat-games per strategy that took each card).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

COLUMNS = ["strategy", "type", "label", "cards", "taken", "coverage", "seat_games", "never"]
NEVER_SEPARATOR = "; "   # the names in the `never` cell: text, so that the table stays tidy


def coverage_table(agg) -> pd.DataFrame:
    """One row per (strategy, card type) of a RunAggregates: the cards of the type, how many
    of them the strategy's seats took at least once, their share (the coverage), the
    strategy's seat-games read and the names of the cards it never took (one text cell,
    joined by NEVER_SEPARATOR: never a list in a cell, docs/api.md)."""
    rows = []
    seat_games = (np.asarray(agg.strat.n) if agg.strat is not None
                  else np.zeros(len(agg.strategies)))
    for card, sums in zip(agg.meta["cards"], agg.cards):
        if card.get("kind", "card") != "card":
            continue
        taken_by = np.asarray(sums.taken_by_strategy)
        for k, name in enumerate(agg.strategies):
            n_rows = int(seat_games[k]) if k < len(seat_games) else 0
            if n_rows == 0:
                continue
            taken = taken_by[k] > 0 if k < len(taken_by) else np.zeros(sums.n, bool)
            rows.append({"strategy": name, "type": card["type"], "label": card["label"],
                         "cards": int(sums.n), "taken": int(taken.sum()),
                         "coverage": float(taken.sum()) / sums.n if sums.n else float("nan"),
                         "seat_games": n_rows,
                         "never": NEVER_SEPARATOR.join(str(card["names"][c])
                                                       for c in np.flatnonzero(~taken))})
    return pd.DataFrame(rows, columns=COLUMNS)


def run_coverage(folders) -> pd.DataFrame:
    """coverage_table of one or more checked run folders (sim.run_folder.RunFolder, opened by
    the caller) of one game and player count; their own component copies name the cards."""
    from analysis.aggregate import aggregate_logs
    from analysis.metadata import game_metadata, normalise

    folders = list(folders) if isinstance(folders, (list, tuple)) else [folders]
    first = folders[0]
    logs = folders[0].logs
    for f in folders[1:]:
        logs = logs + f.logs
    meta, _ = normalise(game_metadata(first.spec, first.components), logs.columns)
    names = [str(s) for f in folders for s in f.manifest.get("strategy_names") or []]
    agg = aggregate_logs(logs, int(first.manifest["players"]), meta,
                         manifest_strategies=names or None)
    return coverage_table(agg)
