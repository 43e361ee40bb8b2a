"""A run's summary tables (per seat, per strategy), for the terminal and the API.

Built from the one aggregation of a run's logs (analysis/aggregate.py via analysis/tables.py),
the same sums the report reads, so the summary and the report cannot disagree. The input is
either a logs DataFrame (`summarize`) or a run folder streamed chunk by chunk (`summarize_run`,
flat memory for any number of games).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from sim.stats import z_value


@dataclass
class Summary:
    n_games: int
    n_players: int
    solo: bool
    confidence: float
    seats: pd.DataFrame
    strategies: pd.DataFrame
    end_reasons: pd.DataFrame | None = None
    tie_rate: float | None = None
    extra: dict = field(default_factory=dict)
    # head-to-head and ratings (analysis.tables.strategy_comparison; {} for one strategy)
    comparison: dict = field(default_factory=dict)

    @property
    def head_to_head(self) -> pd.DataFrame | None:
        return self.comparison.get("rows")

    @property
    def ratings(self) -> pd.DataFrame | None:
        return self.comparison.get("ratings")


def _end_table(agg, n_games: int, end_reason_names) -> pd.DataFrame | None:
    if "end_reason" not in agg.columns or not agg.end_reason_counts:
        return None
    keys = sorted(agg.end_reason_counts)
    names = [str(end_reason_names[int(k)]).replace("_", " ") if end_reason_names is not None
             and 0 <= int(k) < len(end_reason_names) else str(k) for k in keys]
    counts = np.array([agg.end_reason_counts[k] for k in keys])
    return pd.DataFrame({"reason": names, "games": counts, "share": counts / n_games})


def summary_of(agg, confidence: float = 0.95, end_reason_names=None) -> Summary:
    """The summary tables of an aggregation (analysis/tables.py definitions)."""
    from analysis.tables import seat_table, strategy_table

    if agg.n_games == 0:
        raise ValueError("no rows in the logs")
    P = agg.players
    seats = seat_table(agg, confidence)
    strategies = strategy_table(agg, confidence) if "strategy" in agg.columns else None
    for t in (seats, strategies):
        if t is not None and "score" not in agg.columns:
            t.drop(columns=[c for c in t.columns if c.startswith("score_")], inplace=True)
        if t is not None and "rank" not in agg.columns:
            t.drop(columns=["rank_mean"], inplace=True)
    illegal = None
    if agg.illegal is not None and agg.illegal.any():
        illegal = pd.DataFrame(
            [(agg.strategies[s], int(agg.illegal[s]), int(agg.illegal_rows[s]), int(agg.strat.n[s]))
             for s in sorted(range(len(agg.illegal)), key=lambda k: agg.strategies[k])
             if agg.illegal[s] > 0],
            columns=["strategy", "decisions", "seat_games", "of_seat_games"])
    choices = None
    if agg.choices is not None:
        choices = {agg.strategies[s]: float(agg.choices[s]) / float(agg.strat.n[s])
                   for s in range(len(agg.choices)) if agg.strat.n[s]} or None
    from analysis.tables import strategy_comparison
    return Summary(n_games=int(agg.n_games), n_players=P, solo=P == 1, confidence=confidence,
                   seats=seats, strategies=strategies,
                   end_reasons=_end_table(agg, agg.n_games, end_reason_names),
                   tie_rate=(agg.tie_games / agg.n_games) if P > 1 else None,
                   extra={"z": z_value(confidence), "illegal": illegal, "choices": choices},
                   comparison=strategy_comparison(agg, confidence) if "rank" in agg.columns
                   or "score" in agg.columns else {})


def summarize(logs: pd.DataFrame, confidence: float = 0.95,
              end_reason_names: list | tuple | None = None) -> Summary:
    """Per-seat and per-strategy tables of a logs DataFrame."""
    from analysis.tables import aggregate_frame

    if len(logs) == 0:
        raise ValueError("no rows in the logs")
    return summary_of(aggregate_frame(logs), confidence, end_reason_names)


def summarize_run(folder, confidence: float = 0.95,
                  end_reason_names: list | tuple | None = None) -> Summary:
    """The same tables as `summarize`, over a checked run folder (sim.run_folder.RunFolder,
    opened by the caller) streamed chunk by chunk, so that memory stays flat however many
    games the run holds."""
    from analysis.tables import aggregate_run

    return summary_of(aggregate_run(folder), confidence, end_reason_names)
