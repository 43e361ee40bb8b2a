"""Outcome logs -> balance tables (per seat, per strategy).

Input: a logs DataFrame with at least `game`, `seat`, `strategy`, `score`, `win` (a win share:
1 for a sole winner, 1/k for a k-way tie, 0 otherwise), optionally `rank`, `end_reason`.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from analysis.stats import wilson_interval, z_value


def _group_table(df: pd.DataFrame, key: str, confidence: float) -> pd.DataFrame:
    g = df.groupby(key, observed=True, sort=True)
    out = pd.DataFrame({
        "rows": g.size(),
        "games": g["game"].nunique(),
    })
    if "win" in df.columns:
        wins = g["win"].sum()
        out["wins"] = wins
        out["win_share"] = wins / out["rows"]
        lo, hi = wilson_interval(wins.to_numpy(), out["rows"].to_numpy(), confidence)
        out["win_low"] = lo
        out["win_high"] = hi
    if "score" in df.columns:
        out["score_mean"] = g["score"].mean()
        out["score_sd"] = g["score"].std(ddof=1)
        out["score_se"] = out["score_sd"] / np.sqrt(out["rows"])
        out["score_min"] = g["score"].min()
        out["score_max"] = g["score"].max()
    if "rank" in df.columns:
        out["rank_mean"] = g["rank"].mean()
    out.index.name = key
    return out


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


def summarize(logs: pd.DataFrame, confidence: float = 0.95,
              end_reason_names: list | tuple | None = None) -> Summary:
    """Per-seat and per-strategy tables of a run's logs."""
    if len(logs) == 0:
        raise ValueError("no rows in the logs")
    n_games = int(logs["game"].nunique())
    n_players = int(logs["seat"].nunique())
    seats = _group_table(logs, "seat", confidence)
    strategies = _group_table(logs, "strategy", confidence) if "strategy" in logs.columns else None
    end = None
    if "end_reason" in logs.columns:
        per_game = logs.drop_duplicates("game")["end_reason"]
        counts = per_game.value_counts().sort_index()
        names = []
        for k in counts.index:
            if (end_reason_names is not None and isinstance(k, (int, np.integer))
                    and 0 <= int(k) < len(end_reason_names)):
                names.append(str(end_reason_names[int(k)]))
            else:
                names.append(str(k))
        end = pd.DataFrame({"reason": names, "games": counts.to_numpy(),
                            "share": counts.to_numpy() / n_games})
    tie_rate = None
    if "win" in logs.columns and n_players > 1:
        max_share = logs.groupby("game")["win"].max()
        tie_rate = float((max_share < 1.0 - 1e-9).mean())
    return Summary(n_games=n_games, n_players=n_players, solo=n_players == 1,
                   confidence=confidence, seats=seats, strategies=strategies,
                   end_reasons=end, tie_rate=tie_rate, extra={"z": z_value(confidence)})
