"""The one definition of each table of a run's balance, computed from the one aggregation of
its logs (analysis/aggregate.py, RunAggregates). The summary, the report, compare, sweep, the
API and the CLI all build their win shares, head-to-head shares and ratings here.

    win_table(sums, labels, confidence)      rows, wins, win_share, win_low, win_high (Wilson),
                                             score_mean/sd/se/min/max, rank_mean, games
    head_to_head(agg, idx, names, conf)      P(a finishes ahead of b): the POOLED ratio over
                                             every seat pair where a and b met (ties 1/2), with
                                             an interval over games (sim.stats.ratio_interval)
    ratings(agg, idx, names, conf)           Plackett-Luce (analysis/ratings.py, RATING_PRIOR)
    aggregate_run(folders) / aggregate_frame(df)  the aggregation of opened run folders or of a DataFrame
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from analysis.aggregate import RunAggregates, aggregate_logs, new_aggregates
from analysis.findings import Note
from analysis.ratings import RATING_PRIOR, expand_ties, fit_plackett_luce
from sim.stats import ratio_interval, wilson_interval, z_value

GENERIC_META = {"cards": [], "score_components": [], "length_column": None, "length_unit": "",
                "end_reason_names": []}


# --- the aggregation ------------------------------------------------------------------------
def aggregate_run(folders, meta: dict | None = None, progress: bool = False) -> RunAggregates:
    """One RunAggregates over the logs of one or more checked run folders (sim.run_folder
    RunFolder, opened by the caller) of the same game and player count: a compare's seatings,
    a sweep point. Reads only the needed columns."""
    folders = list(folders) if isinstance(folders, (list, tuple)) else [folders]
    logs = folders[0].logs
    for f in folders[1:]:
        logs = logs + f.logs
    players = int(folders[0].manifest["players"])
    names = []
    for f in folders:
        names += [str(s) for s in f.manifest.get("strategy_names") or []]
    return aggregate_logs(logs, players, meta or GENERIC_META, progress=progress,
                          manifest_strategies=names or None)


def aggregate_frame(logs: pd.DataFrame, meta: dict | None = None) -> RunAggregates:
    """The same aggregation of a logs DataFrame (every seat of each game present)."""
    import pyarrow as pa

    from analysis.metadata import needed_columns

    meta = meta or GENERIC_META
    players = int(logs["seat"].max()) + 1
    cols = needed_columns(meta, list(logs.columns))
    agg = new_aggregates(players, meta, cols)
    frame = logs[list(dict.fromkeys(["game", "seat", *cols]))].copy()
    if "strategy" in frame.columns:
        frame["strategy"] = frame["strategy"].astype(str)
    if "config" in logs.columns and logs["config"].nunique() > 1:
        for _, part in frame.groupby(logs["config"], sort=True):
            agg.add_table(pa.Table.from_pandas(part, preserve_index=False))
    else:
        agg.add_table(pa.Table.from_pandas(frame, preserve_index=False))
    return agg


# --- win shares -----------------------------------------------------------------------------
def win_table(sums, labels, confidence: float = 0.95, index_name: str = "") -> pd.DataFrame:
    """Per group (a GroupSums of seats or strategies): the win share with ties split, its
    Wilson interval, and the score and rank statistics. The one definition of a win share."""
    n = sums.n.astype(float)
    safe = np.maximum(n, 1)
    lo, hi = wilson_interval(sums.win, n, confidence)
    mean = sums.score / safe
    with np.errstate(invalid="ignore", divide="ignore"):
        var = np.where(n > 1, np.maximum(sums.score_sq - n * mean * mean, 0) / (n - 1), np.nan)
    out = pd.DataFrame({
        "rows": sums.n.astype(np.int64), "games": (sums.games if sums.games is not None
                                                   else sums.n).astype(np.int64),
        "wins": sums.win, "win_share": sums.win / safe, "win_low": lo, "win_high": hi,
        "score_mean": mean, "score_sd": np.sqrt(var), "score_se": np.sqrt(var / safe),
        "score_min": sums.score_min, "score_max": sums.score_max,
        "rank_mean": sums.rank / safe,
    }, index=pd.Index(list(labels), name=index_name or None))
    return out


def seat_table(agg: RunAggregates, confidence: float = 0.95) -> pd.DataFrame:
    return win_table(agg.seat, range(agg.players), confidence, "seat")


def strategy_table(agg: RunAggregates, confidence: float = 0.95, order=None) -> pd.DataFrame:
    """Strategies that played, by name (in `order` when given, else sorted)."""
    t = win_table(agg.strat, agg.strategies, confidence, "strategy")
    t = t[t["rows"] > 0]
    return t.reindex(order) if order is not None else t.sort_index()


# --- head-to-head ---------------------------------------------------------------------------
def head_to_head(agg: RunAggregates, idx: list, names: list, confidence: float = 0.95):
    """(share, low, high, pairs, games) DataFrames, rows = a, columns = b: the share of seat
    pairs (a at one seat, b at another, over every game where they met) in which a finished
    ahead of b, ties counting 1/2 -- the pooled ratio. Its interval is the ratio estimator's
    over games (seat pairs of one game are not independent), clipped to [0, 1]."""
    ix = np.ix_(idx, idx)
    share, lo, hi = ratio_interval(agg.h2h_ahead[ix], agg.h2h_pairs[ix], agg.h2h_aa[ix],
                                   agg.h2h_bb[ix], agg.h2h_ab[ix], agg.h2h_games[ix], confidence)
    eye = np.eye(len(idx), dtype=bool)
    mk = lambda m, dtype=float: pd.DataFrame(np.where(eye, np.nan, m) if dtype is float else m,  # noqa: E731
                                             index=list(names), columns=list(names))
    return (mk(share), mk(lo), mk(hi), mk(agg.h2h_pairs[ix].astype(np.int64), int),
            mk(agg.h2h_games[ix].astype(np.int64), int))


def dominant(share: pd.DataFrame, lo: pd.DataFrame, hi: pd.DataFrame):
    """The strategy whose every head-to-head share is above 1/2 beyond its interval:
    (name, closest share, its low, its high), or None."""
    names = list(share.index)
    for a in names:
        others = [b for b in names if b != a]
        if others and all(lo.loc[a, b] > 0.5 for b in others):
            b = min(others, key=lambda x: share.loc[a, x])
            return a, float(share.loc[a, b]), float(lo.loc[a, b]), float(hi.loc[a, b])
    return None


def matchup_status(names: list, lo: pd.DataFrame, hi: pd.DataFrame) -> dict:
    """strategy -> dominant / dominated / dominated by X / beats X / not separated / alone."""
    status = {}
    for a in names:
        others = [b for b in names if b != a]
        if not others:
            status[a] = "alone"
            continue
        beats = [b for b in others if lo.loc[a, b] > 0.5]
        loses = [b for b in others if hi.loc[a, b] < 0.5]
        if len(beats) == len(others):
            status[a] = "dominant"
        elif len(loses) == len(others):
            status[a] = "dominated"
        elif loses:
            status[a] = "dominated by " + ", ".join(loses)
        else:
            status[a] = "not separated" if not beats else "beats " + ", ".join(beats)
    return status


# --- ratings --------------------------------------------------------------------------------
def ratings(agg: RunAggregates, idx: list, names: list, confidence: float = 0.95):
    """(table, note): Plackett-Luce log strengths of the strategies `idx` (named `names`) on
    the aggregated finishing orders, with RATING_PRIOR; table None when not estimable. The
    note (analysis.findings.Note: how the fit was made, or why there is none) is data;
    reports/notes.py writes its sentence."""
    remap = {s: k for k, s in enumerate(idx)}
    orders = {}
    for key, count in agg.orders.items():
        if any(s not in remap for s, _ in key):
            continue
        strat = [remap[s] for s, _ in key]
        ranks = [r for _, r in key]
        for o, w in expand_ties(strat, ranks, float(count)):
            orders[o] = orders.get(o, 0.0) + w
    if not orders:
        return None, Note("ratings-no-orders")
    fit = fit_plackett_luce(list(orders.items()), len(idx), prior=RATING_PRIOR)
    if not fit.estimable:   # never shown as certain (s.e. 0.000, zero-width intervals)
        return None, Note("ratings-not-estimable", {
            "why": fit.why, "names": [str(names[k]) for k in fit.why_items],
            "games": int(sum(agg.orders.values()))})
    z = z_value(confidence)
    best = int(np.argmax(fit.theta))
    second = int(np.argsort(-fit.theta)[1])
    logistic = lambda x: 1.0 / (1.0 + math.exp(-x))  # noqa: E731
    p_top, p_lo, p_hi, versus = [], [], [], []
    for i in range(len(idx)):
        j = second if i == best else best
        d = fit.theta[i] - fit.theta[j]
        se = math.sqrt(max(fit.cov[i, i] + fit.cov[j, j] - 2 * fit.cov[i, j], 0.0))
        p_top.append(logistic(d))
        p_lo.append(logistic(d - z * se))
        p_hi.append(logistic(d + z * se))
        versus.append(names[j])
    table = pd.DataFrame({
        "strategy": list(names), "theta": fit.theta, "se": fit.se,
        "low": fit.theta - z * fit.se, "high": fit.theta + z * fit.se,
        "versus": versus, "p_ahead": p_top, "p_ahead_low": p_lo, "p_ahead_high": p_hi,
    }).sort_values("theta", ascending=False).reset_index(drop=True)
    note = Note("ratings-fit", {"iterations": int(fit.iterations), "converged": bool(fit.converged),
                                "orders": len(orders), "games": int(sum(agg.orders.values())),
                                "prior": RATING_PRIOR, "confidence": confidence})
    return table, note


def head_to_head_rows(share: pd.DataFrame, lo: pd.DataFrame, hi: pd.DataFrame,
                      pairs: pd.DataFrame, games: pd.DataFrame | None = None) -> pd.DataFrame:
    """The head-to-head matrices as one row per pair of strategies (a before b in the given
    order; b's share is 1 - a's): strategy, versus, ahead, low, high, pairs, games. The
    terminal, the report and the API show this table."""
    names = list(share.index)
    rows = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            rows.append({"strategy": a, "versus": b, "ahead": float(share.loc[a, b]),
                         "low": float(lo.loc[a, b]), "high": float(hi.loc[a, b]),
                         "pairs": int(pairs.loc[a, b]),
                         "games": int(games.loc[a, b]) if games is not None else None})
    return pd.DataFrame(rows, columns=["strategy", "versus", "ahead", "low", "high", "pairs",
                                       "games"])


def strategy_comparison(agg: RunAggregates, confidence: float = 0.95, order=None) -> dict:
    """Head-to-head (matrices and rows) and ratings of the strategies that played, or {} when
    fewer than two strategies played or the run is solo."""
    used = [s for s in range(len(agg.strategies)) if agg.strat.n[s] > 0]
    if order is not None:
        pos = {str(n): k for k, n in enumerate(order)}
        used.sort(key=lambda s: pos.get(agg.strategies[s], len(pos)))
    names = [agg.strategies[s] for s in used]
    if agg.players < 2 or len(used) < 2:
        return {}
    share, lo, hi, pairs, games = head_to_head(agg, used, names, confidence)
    table, note = ratings(agg, used, names, confidence)
    return {"names": names, "share": share, "low": lo, "high": hi, "pairs": pairs,
            "games": games, "rows": head_to_head_rows(share, lo, hi, pairs, games),
            "ratings": table, "rating_note": note}


# --- win share against the fair share: seats and start positions ----------------------------
# How a group of seats is formed decides what its share can say (docs/report.md):
#   "before": fixed before play (a seat number, a start position): tested against the fair
#             share, "favoured" / "disadvantaged" / "fair";
#   "after":  grouped after the game by what happened in it (the route that scored more, the
#             window a seat chose): tested, but only an association ("more wins" / "fewer
#             wins" / "no association"), never an effect;
#   "game":   a game-level outcome, the same for every seat of a game (high tides that broke
#             the dike): every value wins exactly 1/players, so nothing to test; its
#             distribution over games is the answer.
GROUPINGS = ("before", "after", "game")
VERDICT_WORDS = {"before": ("favoured", "disadvantaged", "fair"),
                 "after": ("more wins", "fewer wins", "no association")}


def fair_share_table(rows, wins, players: int, confidence: float = 0.95, alpha: float = 0.05,
                     grouping: str = "before") -> pd.DataFrame:
    """One family of groups (the seats, the start positions, the values of a breakdown): per
    group rows, wins, win_share with its Wilson interval, the score test against the fair
    share 1/players (sim.stats.proportion_test), Holm's correction across the groups of
    this family, and the verdict of its grouping (GROUPINGS). The one definition of the start
    position table and of every fair-share test of the toolkit."""
    from sim.stats import holm, proportion_test
    n = np.asarray(rows, dtype=float)
    w = np.asarray(wins, dtype=float)
    fair = 1.0 / players if players > 0 else float("nan")
    lo, hi = wilson_interval(w, n, confidence)
    with np.errstate(invalid="ignore", divide="ignore"):
        share = np.where(n > 0, w / np.where(n > 0, n, 1), np.nan)
    out = pd.DataFrame({"rows": n.astype(np.int64), "wins": w, "win_share": share,
                        "win_low": np.atleast_1d(lo), "win_high": np.atleast_1d(hi),
                        "fair": fair})
    if players < 2 or grouping == "game":
        out["p"] = out["p_holm"] = np.nan
        out["verdict"] = "" if grouping == "game" else "solo"
        return out
    _, p = proportion_test(w, n, fair)
    p = np.where(n > 0, p, np.nan)
    out["p"] = p
    out["p_holm"] = holm(p)
    up, down, none = VERDICT_WORDS.get(grouping, VERDICT_WORDS["before"])
    out["verdict"] = [(up if s > fair else down) if not math.isnan(q) and q < alpha else none
                      for s, q in zip(out["win_share"], out["p_holm"])]
    return out


def position_label(position: int) -> str:
    """A start position shown from 1 (log value 0 = the start player)."""
    return f"Start position {int(position) + 1}" + (" (start player)" if int(position) == 0
                                                     else "")


def start_table(frame: pd.DataFrame, column: str, players: int, confidence: float = 0.95,
                alpha: float = 0.05) -> pd.DataFrame:
    """The start-position table of a logs DataFrame (columns `column` and win): one row per
    position 0 .. players-1 (fair_share_table; index `position`)."""
    pos = frame[column].to_numpy(np.int64)
    win = frame["win"].to_numpy(float)
    ok = (pos >= 0) & (pos < players)
    n = np.bincount(pos[ok], minlength=players)[:players]
    w = np.bincount(pos[ok], weights=win[ok], minlength=players)[:players]
    t = fair_share_table(n, w, players, confidence, alpha)
    t.index = pd.Index(range(players), name="position")
    t.insert(0, "label", [position_label(k) for k in range(players)])
    return t


def wins_by_position(frame: pd.DataFrame, column: str, players: int) -> np.ndarray:
    """(games x positions) wins: per game, the win of the seat at each start position (each
    game has one seat per position), in game order. Paired steps of a sweep and the
    start-fairness objective of tune are means of these rows."""
    f = frame.sort_values(["game", "seat"])
    pos = f[column].to_numpy(np.int64).reshape(-1, players)
    win = f["win"].to_numpy(float).reshape(-1, players)
    out = np.zeros_like(win)
    rows = np.arange(win.shape[0])[:, None]
    ok = (pos >= 0) & (pos < players)
    np.add.at(out, (np.broadcast_to(rows, pos.shape)[ok], pos[ok]), win[ok])
    return out


# --- tidy tables ------------------------------------------------------------------------------
def tidy(frame: pd.DataFrame) -> pd.DataFrame:
    """The table with one column per quantity: a column whose cells hold (estimate, low,
    high) triples becomes three, `X`, `X_low`, `X_high`, in its place (None or a missing
    cell: NaN in all three). Every table the API returns goes through here or is built tidy."""
    out = {}
    for col in frame.columns:
        cells = list(frame[col])
        if cells and any(isinstance(c, (tuple, list)) for c in cells):
            parts = [tuple(c) if isinstance(c, (tuple, list)) else (math.nan,) * 3
                     for c in cells]
            if any(len(p) != 3 for p in parts):
                raise ValueError(f"column {col!r}: cells are not (estimate, low, high)")
            for k, suffix in enumerate(("", "_low", "_high")):
                out[f"{col}{suffix}"] = [float(p[k]) if p[k] is not None else math.nan
                                         for p in parts]
        else:
            out[col] = frame[col]
    return pd.DataFrame(out, index=frame.index)
