"""The game over time (docs/report.md, "The game over time"): one definition of
each game-shape statistic, as pure functions of the snapshot frames (sim/snapshots.py).

Frames: `rounds` has one row per (game, round, seat) with `score`, the game's own
quantities, `strategy`, `win` (the seat's logged win share) and `position` (start position,
1 = first; the seat number for a game without a start player); round r is the state after r
periods (0 = after the set-up), each game's last round its final state. `decisions` has one
row per decision with `round` (the period it was taken in, 1-based) and `options` (the number
of legal options offered).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from sim.stats import z_value

DECISIVE_SHARE = 0.95     # the leader "can be called" when leads this large won this often


def mean_curves(rounds: pd.DataFrame, quantity: str = "score", by: str | None = "strategy",
                confidence: float = 0.95) -> pd.DataFrame:
    """Mean of `quantity` at every round, per value of `by` (a column: strategy, position;
    None: every seat row), with the normal interval of the mean over the rows (one row per
    seat and game): columns by, round, mean, low, high, n. Games that ended earlier do not
    count at later rounds (n says how many rows each mean has)."""
    keys = ["round"] if by is None else [by, "round"]
    g = rounds.groupby(keys, sort=True)[quantity]
    out = g.agg(mean="mean", sd="std", n="count").reset_index()
    half = z_value(confidence) * out["sd"].fillna(0.0) / np.sqrt(out["n"])
    out["low"] = out["mean"] - half
    out["high"] = out["mean"] + half
    return out.drop(columns="sd")[keys + ["mean", "low", "high", "n"]]


def score_grid(one_game: pd.DataFrame) -> tuple:
    """(rounds int[k], scores float[k, seats], win float[seats]) of one game's rows."""
    wide = one_game.pivot(index="round", columns="seat", values="score").sort_index()
    win = one_game.drop_duplicates("seat").set_index("seat")["win"].reindex(wide.columns)
    return wide.index.to_numpy(), wide.to_numpy(np.float64), win.to_numpy(np.float64)


def leaders(scores: np.ndarray) -> np.ndarray:
    """The leader after each round: the seat with the highest score if it is unique; a tie
    at the top keeps the previous leader (-1 before any seat has led)."""
    out = np.full(len(scores), -1, np.int64)
    current = -1
    for r, row in enumerate(scores):
        top = np.flatnonzero(row == row.max())
        if len(top) == 1:
            current = int(top[0])
        out[r] = current
    return out


def lead_changes(scores: np.ndarray) -> int:
    """Rounds whose leader differs from the previous round's leader, the first leader not
    counted (Browne 2008's lead change; Ludii's LeadChange counts the same events)."""
    lead = leaders(scores)
    held = lead[lead >= 0]
    return int(np.count_nonzero(held[1:] != held[:-1]))


def winner_of(win: np.ndarray) -> int:
    """The seat that won alone (win share 1), or -1 for a shared win."""
    alone = np.flatnonzero(win >= 1.0)
    return int(alone[0]) if len(alone) == 1 else -1


def lead_for_good(scores: np.ndarray, winner: int) -> float:
    """The share of the game's rounds played before the eventual winner took the lead for
    good: the first round from which it is the unique leader in every later round, over the
    last round (0: led from the set-up on; 1: only at the end). NaN for a shared win or a
    winner that does not lead the final scores (won on a tie-break)."""
    if winner < 0:
        return float("nan")
    last = len(scores) - 1
    alone = np.array([np.count_nonzero(row == row.max()) == 1 and row[winner] == row.max()
                      for row in scores])
    if not alone[-1]:
        return float("nan")
    not_leading = np.flatnonzero(~alone)
    first = 0 if len(not_leading) == 0 else int(not_leading[-1]) + 1
    return first / last if last > 0 else 0.0


def margins(scores: np.ndarray) -> tuple:
    """(leader, lead) at each round: the unique top seat (-1 on a tie) and its lead over the
    runner-up (0 on a tie)."""
    order = np.sort(scores, axis=1)
    lead = order[:, -1] - order[:, -2] if scores.shape[1] > 1 else order[:, -1]
    top = np.where(lead > 0, np.argmax(scores, axis=1), -1)
    return top.astype(np.int64), lead


def decisiveness_threshold(games: list, share: float = DECISIVE_SHARE) -> float:
    """Browne's decisiveness threshold over a run's games (a list of (scores, winner)): the
    smallest lead T such that, over every round before the end where a unique leader held a
    lead of at least T, that leader went on to win alone in at least `share` of them. inf when
    no lead is that safe."""
    leads, called = [], []
    for scores, winner in games:
        top, lead = margins(scores)
        keep = top >= 0
        keep[-1] = False            # the final scores call the winner by definition
        leads.append(lead[keep])
        called.append(top[keep] == winner)
    if not leads:
        return float("inf")
    lead = np.concatenate(leads)
    right = np.concatenate(called)
    for t in np.unique(lead):
        if right[lead >= t].mean() >= share:
            return float(t)
    return float("inf")


def decisiveness(scores: np.ndarray, threshold: float) -> float:
    """How early the winner can be called: the first round at which a unique leader's lead
    reaches the run's threshold, as a share of the game's rounds (1: only at the end)."""
    top, lead = margins(scores)
    hit = np.flatnonzero((top >= 0) & (lead >= threshold))
    last = len(scores) - 1
    if last <= 0:
        return 0.0
    return float(hit[0]) / last if len(hit) else 1.0


def per_game(rounds: pd.DataFrame, share: float = DECISIVE_SHARE) -> pd.DataFrame:
    """One row per game: game, rounds (periods played), lead_changes, lead_for_good,
    decisiveness, winner_strategy, winner_position; with the run's decisiveness threshold in
    the frame's attrs["decisiveness_threshold"]."""
    grids = []
    for game, rows in rounds.groupby("game", sort=True):
        r, scores, win = score_grid(rows)
        seat_info = rows.drop_duplicates("seat").set_index("seat")
        grids.append((int(game), r, scores, winner_of(win), seat_info))
    threshold = decisiveness_threshold([(s, w) for _, _, s, w, _ in grids], share)
    out = []
    for game, r, scores, winner, info in grids:
        out.append({
            "game": game, "rounds": int(r[-1]), "lead_changes": lead_changes(scores),
            "lead_for_good": lead_for_good(scores, winner),
            "decisiveness": decisiveness(scores, threshold),
            "winner_strategy": str(info["strategy"].iloc[winner]) if winner >= 0 else None,
            "winner_position": int(info["position"].iloc[winner]) if winner >= 0 else None})
    frame = pd.DataFrame(out, columns=["game", "rounds", "lead_changes", "lead_for_good",
                                       "decisiveness", "winner_strategy", "winner_position"])
    frame["winner_position"] = frame["winner_position"].astype("Int64")
    frame.attrs["decisiveness_threshold"] = threshold
    return frame


def branching(decisions: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """Branching factor over the game: the mean number of legal options per decision in each
    round (the decisions taken during it), with the normal interval of the mean: columns
    round, mean, low, high, n (decisions)."""
    frame = decisions.rename(columns={"options": "value"})
    return mean_curves(frame, "value", by=None, confidence=confidence)


def summary(rounds: pd.DataFrame, decisions: pd.DataFrame, confidence: float = 0.95
            ) -> pd.DataFrame:
    """The game-shape measures of a run, tidy: one row per measure with its mean over games
    (decisions for the branching factor), low and high (normal interval of the mean) and n."""
    games = per_game(rounds)
    z = z_value(confidence)
    rows = []
    options = decisions["options"].to_numpy(np.float64)
    for name, values in (("lead_changes", games["lead_changes"]),
                         ("lead_for_good", games["lead_for_good"]),
                         ("decisiveness", games["decisiveness"]),
                         ("rounds", games["rounds"]),
                         ("branching_factor", pd.Series(options))):
        v = pd.to_numeric(values, errors="coerce").dropna().to_numpy(np.float64)
        n = len(v)
        mean = float(v.mean()) if n else float("nan")
        half = z * float(v.std(ddof=1)) / np.sqrt(n) if n > 1 else 0.0
        rows.append({"measure": name, "mean": mean, "low": mean - half, "high": mean + half,
                     "n": n})
    out = pd.DataFrame(rows)
    out.attrs["decisiveness_threshold"] = games.attrs["decisiveness_threshold"]
    return out


def per_game_rows(rounds: pd.DataFrame) -> pd.DataFrame:
    """The rows of a per-game quantity (scope "game"): one per (game, round), seat 0's."""
    return rounds[rounds["seat"] == rounds["seat"].min()]
