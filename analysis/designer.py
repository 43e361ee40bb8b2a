"""Statistics of compare and sweep folders (see sim/designer.py), paired by game index.

All intervals are 95%. Per-game quantities (who finished ahead, a seat's win share, whether a
card was taken) are averaged over games; games are the independent units, so standard errors
come from the spread of per-game values, and paired differences between two configurations
come from per-game differences on the same game indices (common random numbers).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from analysis.cards import baseline_name, card_sums, taker_gap
from analysis.cards import per_game as per_game_taken
from analysis.stats import wilson_interval, z_value

Z = z_value(0.95)


def mean_ci(values: np.ndarray) -> tuple[float, float, float]:
    v = np.asarray(values, dtype=float)
    if v.size == 0:
        return math.nan, math.nan, math.nan
    m = float(v.mean())
    se = float(v.std(ddof=1) / math.sqrt(v.size)) if v.size > 1 else math.inf
    return m, m - Z * se, m + Z * se


def _share_rows(df: pd.DataFrame, key: str) -> pd.DataFrame:
    g = df.groupby(key)["win"].agg(["sum", "count"])
    lo, hi = wilson_interval(g["sum"].to_numpy(float), g["count"].to_numpy(float))
    out = pd.DataFrame({"win_share": g["sum"] / g["count"], "lo": lo, "hi": hi,
                        "rows": g["count"]})
    out["mean_score"] = df.groupby(key)["score"].mean()
    return out


# ---------------------------------------------------------------------------------------
# compare
# ---------------------------------------------------------------------------------------
@dataclass
class Comparison:
    strategies: list
    players: int
    games_per_seating: int
    n_seatings: int
    shares: pd.DataFrame          # per strategy: win_share, lo, hi, rows, mean_score
    seats: pd.DataFrame           # per seat (all seatings pooled)
    h2h: pd.DataFrame             # P(row strategy finishes ahead of column strategy), ties 1/2
    h2h_lo: pd.DataFrame
    h2h_hi: pd.DataFrame
    h2h_games: pd.DataFrame
    ratings: pd.DataFrame         # theta, se, lo, hi (Plackett-Luce, centred)
    verdicts: list = field(default_factory=list)   # plain-language lines
    status: dict = field(default_factory=dict)     # strategy -> dominant/dominated/...


def head_to_head(logs: pd.DataFrame, strategies: list):
    """Per game, the share of seat pairs (strategy A at one seat, B at another) where A
    finished ahead (ties count 1/2); averaged over the games where A and B both sat."""
    k = len(strategies)
    idx = {s: i for i, s in enumerate(strategies)}
    logs = logs.sort_values(["config", "game", "seat"])
    players = int(logs["seat"].max()) + 1
    strat = logs["strategy"].map(idx).to_numpy().reshape(-1, players)
    rank = logs["rank"].to_numpy().reshape(-1, players)
    n_games = strat.shape[0]
    sums = np.zeros((k, k, n_games))
    cnt = np.zeros((k, k, n_games))
    for i in range(players):
        for j in range(players):
            if i == j:
                continue
            a, b = strat[:, i], strat[:, j]
            diff = a != b
            score = np.where(rank[:, i] < rank[:, j], 1.0, np.where(rank[:, i] == rank[:, j], 0.5, 0.0))
            rows = np.nonzero(diff)[0]
            np.add.at(sums, (a[rows], b[rows], rows), score[rows])
            np.add.at(cnt, (a[rows], b[rows], rows), 1.0)
    share = np.full((k, k), np.nan)
    lo = np.full((k, k), np.nan)
    hi = np.full((k, k), np.nan)
    games = np.zeros((k, k), dtype=int)
    for a in range(k):
        for b in range(k):
            if a == b:
                continue
            have = cnt[a, b] > 0
            per_game = sums[a, b, have] / cnt[a, b, have]
            games[a, b] = int(have.sum())
            if games[a, b]:
                share[a, b], lo[a, b], hi[a, b] = mean_ci(per_game)
                lo[a, b], hi[a, b] = max(0.0, lo[a, b]), min(1.0, hi[a, b])  # a share
    mk = lambda m: pd.DataFrame(m, index=strategies, columns=strategies)  # noqa: E731
    return mk(share), mk(lo), mk(hi), mk(games)


def pl_ratings(logs: pd.DataFrame, strategies: list) -> pd.DataFrame:
    from analysis.ratings import expand_ties, fit_plackett_luce
    idx = {s: i for i, s in enumerate(strategies)}
    players = int(logs["seat"].max()) + 1
    logs = logs.sort_values(["config", "game", "seat"])
    strat = logs["strategy"].map(idx).to_numpy().reshape(-1, players)
    rank = logs["rank"].to_numpy().reshape(-1, players)
    keys, counts = np.unique(np.concatenate([strat, rank], axis=1), axis=0, return_counts=True)
    orders = []
    for row, c in zip(keys, counts):
        orders += expand_ties(row[:players].tolist(), row[players:].tolist(), float(c))
    fit = fit_plackett_luce(orders, len(strategies))
    return pd.DataFrame({"theta": fit.theta, "se": fit.se, "lo": fit.theta - Z * fit.se,
                         "hi": fit.theta + Z * fit.se}, index=strategies)


def analyse_compare(logs: pd.DataFrame, strategies: list, games_per_seating: int,
                    n_seatings: int) -> Comparison:
    players = int(logs["seat"].max()) + 1
    shares = _share_rows(logs, "strategy").reindex(strategies)
    seats = _share_rows(logs, "seat")
    h2h, lo, hi, games = head_to_head(logs, strategies)
    ratings = pl_ratings(logs, strategies) if len(strategies) > 1 else pd.DataFrame()
    status = {}
    verdicts = []
    for a in strategies:
        others = [b for b in strategies if b != a]
        if not others:
            status[a] = "alone"
            continue
        beats = [b for b in others if lo.loc[a, b] > 0.5]
        loses = [b for b in others if hi.loc[a, b] < 0.5]
        if len(beats) == len(others):
            status[a] = "dominant"
        elif loses and not beats and len(loses) == len(others):
            status[a] = "dominated"
        elif loses:
            status[a] = "dominated by " + ", ".join(loses)
        else:
            status[a] = "not separated" if not beats else "beats " + ", ".join(beats)
    for a in strategies:
        s = shares.loc[a]
        verdicts.append(f"{a}: wins {s.win_share:.1%} ({s.lo:.1%}-{s.hi:.1%}) of its seats; "
                        f"{status[a]}.")
    for i, a in enumerate(strategies):
        for b in strategies[i + 1:]:
            p, l_, h_ = h2h.loc[a, b], lo.loc[a, b], hi.loc[a, b]
            if l_ > 0.5:
                word = f"{a} finishes ahead of {b}"
            elif h_ < 0.5:
                word = f"{b} finishes ahead of {a}"
            else:
                word = f"{a} and {b} are indistinguishable"
            verdicts.append(f"{word}: {a} ahead in {p:.1%} ({l_:.1%}-{h_:.1%}) of their meetings "
                            f"over {int(games.loc[a, b]):,} games.")
    return Comparison(strategies, players, games_per_seating, n_seatings, shares, seats, h2h, lo,
                      hi, games, ratings, verdicts, status)


# ---------------------------------------------------------------------------------------
# sweep
# ---------------------------------------------------------------------------------------
@dataclass
class SweepResult:
    points: list                   # list of override lists
    labels: list                   # short text per point
    seat: pd.DataFrame             # point, seat, win_share, lo, hi, mean_score
    strategy: pd.DataFrame         # point, strategy, win_share, lo, hi, mean_score
    components: pd.DataFrame       # point, component, mean, lo, hi
    card: pd.DataFrame | None      # point, take_rate, lo, hi, win_taken(_lo/_hi), win_base(_lo/_hi)
    #                                (the takers of the other cards of its type), gap(_lo/_hi)
    paired: pd.DataFrame           # from -> to: quantity, diff, lo, hi
    card_label: str = ""
    games: int = 0
    card_baseline: str = ""        # the card verdicts' baseline, in words (analysis/cards.py)
    card_response: str = ""        # do the players respond to the varied card's value?


def card_of_path(path: str, meta: dict | None):
    """If the varied path names one card of a declared card type ('commissions[12].points'),
    return (card entry, card id)."""
    if not meta:
        return None
    import re
    m = re.match(r"\s*([A-Za-z_]+)\[(\d+)\]", path)
    if not m:
        return None
    plural, cid = m.group(1), int(m.group(2))
    for card in meta.get("cards", []):
        t = card["type"]
        if plural in (t, t + "s", card.get("label", "").lower().replace(" ", "_")):
            return card, cid
    return None


def _card_taken(logs: pd.DataFrame, card: dict, cid: int) -> np.ndarray:
    col = logs[card["mask_column"]].to_numpy(np.int64)
    return ((col >> np.int64(cid)) & 1).astype(bool)


def analyse_sweep(per_point_logs: list, points: list, labels: list, meta: dict | None,
                  varied_paths: list) -> SweepResult:
    seat_rows, strat_rows, comp_rows, card_rows, paired_rows = [], [], [], [], []
    comps = [c for c in (meta or {}).get("score_components", []) if c in per_point_logs[0].columns]
    card_info = card_of_path(varied_paths[0], meta) if len(varied_paths) == 1 else None
    card_label = card_baseline = ""
    if card_info:
        card, cid = card_info
        names = card.get("names", [])
        card_label = f"{card.get('label', card['type'])}: {names[cid] if cid < len(names) else cid}"
        card_baseline = baseline_name(card.get("label", card["type"]))
    for i, logs in enumerate(per_point_logs):
        for key, rows in (("seat", seat_rows), ("strategy", strat_rows)):
            t = _share_rows(logs, key).reset_index()
            t.insert(0, "point", i)
            rows.append(t)
        for c in comps:
            m, lo, hi = mean_ci(logs[c].to_numpy(float))
            comp_rows.append({"point": i, "component": c, "mean": m, "lo": lo, "hi": hi})
        if card_info:
            card, cid = card_info
            taken = _card_taken(logs, card, cid)
            # take rate: share of games where some seat took it (analysis/cards.py, the
            # definition of the run report and `balance cards`)
            per_game = per_game_taken(logs, card)["any"][:, cid]
            rate_lo, rate_hi = wilson_interval(per_game.sum(), per_game.size)
            # the verdicts' baseline: the takers of the other cards of its type (one
            # definition, analysis/cards.py, shared with the run report and tune)
            gap = taker_gap(*card_sums(logs, card))
            card_rows.append({"point": i, "take_rate": per_game.mean(), "lo": float(rate_lo),
                              "hi": float(rate_hi),
                              "win_taken": float(gap["share"][cid]),
                              "win_taken_lo": float(gap["share_low"][cid]),
                              "win_taken_hi": float(gap["share_high"][cid]),
                              "win_base": float(gap["base"][cid]),
                              "win_base_lo": float(gap["base_low"][cid]),
                              "win_base_hi": float(gap["base_high"][cid]),
                              "gap": float(gap["gap"][cid]), "gap_lo": float(gap["gap_low"][cid]),
                              "gap_hi": float(gap["gap_high"][cid]),
                              "rows_taken": int(taken.sum())})
    # paired differences between neighbouring points, on the same game indices
    for i in range(len(per_point_logs) - 1):
        a, b = per_point_logs[i], per_point_logs[i + 1]
        a = a.sort_values(["game", "seat"])
        b = b.sort_values(["game", "seat"])
        if not np.array_equal(a["game"].to_numpy(), b["game"].to_numpy()):
            continue  # not the same games (should not happen: same seed, same count)
        players = int(a["seat"].max()) + 1
        wa = a["win"].to_numpy(float).reshape(-1, players)
        wb = b["win"].to_numpy(float).reshape(-1, players)
        for s in range(players):
            m, lo, hi = mean_ci(wb[:, s] - wa[:, s])
            paired_rows.append({"from": labels[i], "to": labels[i + 1], "quantity": f"win share seat {s + 1}",
                                "diff": m, "lo": lo, "hi": hi})
        if card_info:
            card, cid = card_info
            ta = _card_taken(a, card, cid).reshape(-1, players).any(axis=1).astype(float)
            tb = _card_taken(b, card, cid).reshape(-1, players).any(axis=1).astype(float)
            m, lo, hi = mean_ci(tb - ta)
            paired_rows.append({"from": labels[i], "to": labels[i + 1], "quantity": "take rate",
                                "diff": m, "lo": lo, "hi": hi})
    card_response = ""
    if card_info and len(per_point_logs) > 1:
        card_response = _sweep_response(per_point_logs, points, card_info)
    return SweepResult(points, labels, pd.concat(seat_rows, ignore_index=True),
                       pd.concat(strat_rows, ignore_index=True), pd.DataFrame(comp_rows),
                       pd.DataFrame(card_rows) if card_rows else None, pd.DataFrame(paired_rows),
                       card_label, int(per_point_logs[0]["game"].nunique()), card_baseline,
                       card_response)


def _sweep_response(per_point_logs: list, points: list, card_info) -> str:
    """Whether the players respond to the varied card's value: the paired change in its take
    rate per point from the first to the last value (the same games: common random numbers),
    in the words of the run report and `balance cards` (analysis/cards.py)."""
    from analysis.cards import paired_step, per_game, response_word
    card, cid = card_info
    try:
        v0, v1 = (float(p[0].split("=", 1)[1]) for p in (points[0], points[-1]))
    except (ValueError, IndexError):
        return ""
    if v1 == v0:
        return ""
    try:
        step = paired_step(per_game(per_point_logs[0], card), per_game(per_point_logs[-1], card),
                           cid, v1 - v0)
    except ValueError:
        return ""
    m, lo, hi = step["take"]
    word = response_word(lo, hi)
    rate = f"take rate {100 * m:+.2f} pp per point ({100 * lo:+.2f} to {100 * hi:+.2f})"
    if word == "players do not respond":
        return f"the players do not respond to its value ({rate})"
    if word == "players respond":
        return f"the players respond to its value ({rate})"
    return f"whether the players respond to its value is unclear ({rate})"


# ---------------------------------------------------------------------------------------
# tune objectives (smaller is better); each returns (value, standard error)
# ---------------------------------------------------------------------------------------
def objective(logs: pd.DataFrame, kind: str, meta: dict | None = None, card_info=None):
    players = int(logs["seat"].max()) + 1
    win = logs.sort_values(["game", "seat"])["win"].to_numpy(float)
    if kind == "seat-fairness":
        w = win.reshape(-1, players)
        dev = w.mean(axis=0) - 1.0 / players
        se = w.std(axis=0, ddof=1) / math.sqrt(w.shape[0])
        k = int(np.argmax(np.abs(dev)))
        return float(abs(dev[k])), float(se[k])
    if kind == "strategy-parity":
        g = logs.groupby("strategy")["win"]
        m, n = g.mean(), g.count()
        if len(m) < 2:
            return 0.0, 0.0
        hi, lo = m.idxmax(), m.idxmin()
        se = math.sqrt(m[hi] * (1 - m[hi]) / n[hi] + m[lo] * (1 - m[lo]) / n[lo])
        return float(m[hi] - m[lo]), se
    if kind == "card-parity":
        if card_info is None:
            raise ValueError("card-parity needs --vary on one card (e.g. commissions[12].points)")
        # the gap between the card's takers and the takers of the other cards of its type:
        # the same definition as the run report's and the sweep's (analysis/cards.py)
        card, cid = card_info
        gap = taker_gap(*card_sums(logs, card))
        g, lo, hi = gap["gap"][cid], gap["gap_low"][cid], gap["gap_high"][cid]
        if not math.isfinite(g):
            return 1.0, 0.0   # never taken: as far from parity as can be said
        return float(abs(g)), float((hi - lo) / (2 * Z))
    raise ValueError(f"unknown objective '{kind}' (seat-fairness, strategy-parity, card-parity)")
