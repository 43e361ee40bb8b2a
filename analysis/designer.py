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

from analysis.cards import baseline_name, card_sums, gap_from_sums, taker_gap
from analysis.metadata import component_name
from analysis.cards import per_game as per_game_taken
from sim.stats import holm, mean_interval, wilson_interval, z_test_p, z_value
from analysis.tables import aggregate_frame

Z = z_value(0.95)


def mean_ci(values: np.ndarray) -> tuple[float, float, float]:
    """(mean, low, high) of per-game values (sim.stats.mean_interval)."""
    return mean_interval(values, 0.95)


def _share_rows(df: pd.DataFrame, key: str) -> pd.DataFrame:
    """Win share per seat or strategy of a logs DataFrame, from the one aggregation and the
    one win-share definition (analysis/tables.py); columns win_share, win_low, win_high, rows,
    mean_score (the names of the run summary's seat and strategy tables)."""
    return share_rows(aggregate_frame(df), key)


def share_rows(agg, key: str) -> pd.DataFrame:
    from analysis.tables import seat_table, strategy_table
    t = seat_table(agg) if key == "seat" else strategy_table(agg)
    return pd.DataFrame({"win_share": t["win_share"], "win_low": t["win_low"],
                         "win_high": t["win_high"], "rows": t["rows"],
                         "mean_score": t["score_mean"]}, index=t.index)


# ---------------------------------------------------------------------------------------
# compare
# ---------------------------------------------------------------------------------------
@dataclass
class Comparison:
    strategies: list
    players: int
    games_per_seating: int
    n_seatings: int
    shares: pd.DataFrame          # per strategy: win_share, win_low, win_high, rows, mean_score
    seats: pd.DataFrame           # per seat (all seatings pooled)
    h2h: pd.DataFrame             # P(row strategy finishes ahead of column strategy), ties 1/2
    h2h_lo: pd.DataFrame
    h2h_hi: pd.DataFrame
    h2h_games: pd.DataFrame
    ratings: pd.DataFrame         # theta, se, low, high (Plackett-Luce, centred)
    verdicts: list = field(default_factory=list)   # plain-language lines
    status: dict = field(default_factory=dict)     # strategy -> dominant/dominated/...
    h2h_pairs: pd.DataFrame | None = None          # seat pairs where the two met
    # the start position (analysis.breakdowns.start_breakdown; None when the game has none)
    # and whether it is the game's fairness question (then it leads the verdicts)
    start: object = None
    start_info: dict = field(default_factory=dict)


def analyse_compare(logs, strategies: list, games_per_seating: int,
                    n_seatings: int) -> Comparison:
    """`logs`: the aggregation of every seating's logs (analysis.tables.aggregate_run) or a
    logs DataFrame (aggregated here). Win shares, head-to-head (pooled) and ratings are the
    definitions of the run report (analysis/tables.py)."""
    from analysis.tables import matchup_status, strategy_comparison
    agg = logs if hasattr(logs, "strat") else aggregate_frame(logs)
    from analysis.tables import fair_share_table
    shares = share_rows(agg, "strategy").reindex(strategies)
    seats = share_rows(agg, "seat")
    if agg.players > 1:   # every seating pooled: each strategy in each seat equally often
        tested = fair_share_table(agg.seat.n, agg.seat.win, agg.players)
        for c in ("p", "p_holm", "verdict"):
            seats[c] = tested[c].to_numpy()
    comp = strategy_comparison(agg, 0.95, order=strategies)
    pairs = None
    if comp:
        h2h, lo, hi, games = comp["share"], comp["low"], comp["high"], comp["games"]
        pairs = comp["pairs"]
        if comp["ratings"] is not None:
            ratings = comp["ratings"].set_index("strategy").reindex(strategies)
            ratings.attrs["not_estimable"] = None
        else:
            ratings = pd.DataFrame({"theta": np.nan, "se": np.nan, "low": np.nan,
                                    "high": np.nan}, index=strategies)
            ratings.attrs["not_estimable"] = comp["rating_note"]
        ratings.attrs["note"] = comp["rating_note"]
    else:
        h2h = lo = hi = pd.DataFrame(np.nan, index=strategies, columns=strategies)
        games = pd.DataFrame(0, index=strategies, columns=strategies)
        ratings = pd.DataFrame()
    status = matchup_status(strategies, lo, hi)
    # the sentences are made by reports/designer.py (compare_verdicts)
    return Comparison(strategies, int(agg.players), games_per_seating, n_seatings, shares, seats,
                      h2h, lo, hi, games, ratings, [], status, pairs)


# ---------------------------------------------------------------------------------------
# sweep
# ---------------------------------------------------------------------------------------
@dataclass
class SweepResult:
    points: list                   # list of override lists
    labels: list                   # short text per point
    seat: pd.DataFrame             # point, seat, win_share, win_low, win_high, rows, mean_score
    strategy: pd.DataFrame         # point, strategy, win_share, win_low, win_high, ...
    components: pd.DataFrame       # point, component, mean, low, high
    card: pd.DataFrame | None      # point, take_rate(_low/_high), win_taken(_low/_high),
    #                                win_base(_low/_high) (the takers of the other cards of its
    #                                type), gap(_low/_high), rows_taken
    paired: pd.DataFrame           # from -> to: quantity, unit, diff, low, high, p, p_holm
    card_label: str = ""
    games: int = 0
    axes: list = field(default_factory=list)   # [(path, values)]: the grid's shape
    card_baseline: str = ""        # the card verdicts' baseline, in words (analysis/cards.py)
    # the start position (the game's "start" declaration): point, position, label, rows,
    # wins, win_share, win_low, win_high, fair, p, p_holm, verdict (Holm across the positions
    # of each point; analysis.tables.fair_share_table); None when the game has none
    start: pd.DataFrame | None = None
    start_info: dict = field(default_factory=dict)    # analysis.metadata.start_declaration
    # every other mean that can move (mean score, score components, the game's declared
    # outcomes): point, quantity, unit, mean, low, high
    outcomes: pd.DataFrame | None = None
    # do the players respond to the varied card's value? The paired step of its take rate
    # per point, first to last value (analysis.cards.paired_step), or None; in words:
    # reports/designer.py
    card_response: dict | None = None


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


def grid_steps(axes: list, n_points: int) -> list:
    """The steps between grid points that change ONE field to its next value, the others
    fixed: [(from point, to point, 'path: a -> b', 'other=value, ...')]. Points are in
    itertools.product order of the axes [(path, values)] (sim.designer.grid)."""
    import itertools
    from sim.designer import format_value
    sizes = [len(v) for _, v in axes]
    if math.prod(sizes) != n_points:   # not a full grid: consecutive points
        return [(i, i + 1, "", "") for i in range(n_points - 1)]
    index = {idx: k for k, idx in enumerate(itertools.product(*[range(n) for n in sizes]))}
    out = []
    for idx, k in index.items():
        for a, (path, values) in enumerate(axes):
            if idx[a] + 1 >= sizes[a]:
                continue
            nxt = idx[:a] + (idx[a] + 1,) + idx[a + 1:]
            at = ", ".join(f"{p}={format_value(v[idx[b]])}" for b, (p, v) in enumerate(axes)
                           if b != a)
            out.append((k, index[nxt], f"{path}: {format_value(values[idx[a]])} -> "
                                       f"{format_value(values[idx[a] + 1])}", at))
    return out


def per_game_quantities(logs: pd.DataFrame, meta: dict | None, players: int) -> list:
    """Everything a change of the rules or of a card can move, as per-game values on the same
    game order (sorted by game index), so that two configurations played on the same seeds
    give paired differences: [(quantity, unit, values)], unit "pp" for a win share (seat,
    start position, strategy), else the unit of a mean (points, or the declared outcome's).
    Seats, start positions and strategies are win shares; the mean score, each score
    component and each declared breakdown column (analysis/breakdowns.py, the start excepted)
    a mean per seat, or per game for a game-level outcome."""
    from analysis.breakdowns import declared, value_shown
    from analysis.metadata import start_declaration
    from analysis.tables import wins_by_position
    f = logs.sort_values(["game", "seat"])
    grid = lambda col: f[col].to_numpy(float).reshape(-1, players)  # noqa: E731
    win = grid("win")
    out = [(f"win share seat {s + 1}", "pp", win[:, s]) for s in range(players)]
    start = start_declaration(meta, list(f.columns), players)
    if start["column"] is not None:
        pos = wins_by_position(f, start["column"], players)
        out += [(f"win share start position {k + 1}", "pp", pos[:, k]) for k in range(players)]
    if "strategy" in f and f["strategy"].nunique() > 1:
        strat = f["strategy"].astype(str).to_numpy().reshape(-1, players)
        for name in sorted(set(strat.ravel())):
            mine = strat == name
            with np.errstate(invalid="ignore", divide="ignore"):
                share = (win * mine).sum(axis=1) / mine.sum(axis=1)
            if np.all(mine.sum(axis=1) > 0):
                out.append((f"win share {name}", "pp", share))
    if "score" in f:
        out.append(("mean score", "points", grid("score").mean(axis=1)))
    for c in (meta or {}).get("score_components", []):
        if c in f:
            out.append((f"mean {c}", "points", grid(c).mean(axis=1)))
    by_value, _, _ = declared(meta, list(f.columns), players)
    for b in by_value:
        if b.get("start"):
            continue
        v = grid(b["column"])
        if b["grouping"] == "game":
            v = v[:, :1]   # the same for every seat: one value per game
        where = "games" if b["grouping"] == "game" else "seats"
        cats = _categories(v, b["unit"])
        if cats is None:
            out.append((f"mean {b['label'].lower()}" + (" per game" if where == "games" else ""),
                        b["unit"], v.mean(axis=1)))
            continue
        for c in cats:   # a few values (a route, a window difficulty): the share of each
            shown = value_shown(b, c)   # a declared name: "seats with route: sheep"
            out.append((f"{where} with {b['label'].lower()}"
                        + (f": {shown}" if isinstance(shown, str) else f" {c:g}"), "pp",
                        (v == c).mean(axis=1)))
    return out


MAX_CATEGORIES = 6


def _categories(values: np.ndarray, unit: str):
    """The values of a declared outcome to give as shares (a route, a difficulty, a yes/no:
    a few whole values; for a 0/1 column only 1), or None for a mean (a count, a measure)."""
    if unit == "count":
        return None
    u = np.unique(values)
    if len(u) > MAX_CATEGORIES or not np.all(u == np.round(u)):
        return None
    if set(u.tolist()) <= {0.0, 1.0}:
        return [1.0]
    return [float(x) for x in u]


def paired_quantity_steps(a: pd.DataFrame, b: pd.DataFrame, meta: dict | None,
                          base: dict) -> list:
    """Paired differences b - a of every quantity of per_game_quantities on the same games
    (rows: base + quantity, unit, diff, low, high); [] when the games differ."""
    a = a.sort_values(["game", "seat"])
    b = b.sort_values(["game", "seat"])
    if not np.array_equal(a["game"].to_numpy(), b["game"].to_numpy()):
        return []
    players = int(a["seat"].max()) + 1
    qa = per_game_quantities(a, meta, players)
    qb = {name: (unit, v) for name, unit, v in per_game_quantities(b, meta, players)}
    rows = []
    for name, unit, va in qa:
        if name not in qb:
            continue
        m, lo, hi = mean_ci(qb[name][1] - va)
        rows.append({**base, "quantity": name, "unit": unit, "diff": m, "low": lo, "high": hi})
    return rows


def holm_steps(paired: pd.DataFrame) -> pd.DataFrame:
    """Holm's correction across every step and quantity of a table of paired differences
    (columns diff, low, high): adds p, p_holm and moves (p_holm < 0.05)."""
    if paired.empty:
        return paired
    se = (paired["high"] - paired["low"]) / (2 * Z)
    p = z_test_p(paired["diff"].to_numpy(float), se.to_numpy(float))
    # the same change in every game (a rule that takes points off every score): certain
    p = np.where((se.to_numpy(float) == 0) & (paired["diff"].to_numpy(float) != 0), 0.0, p)
    paired["p"] = p
    paired["p_holm"] = holm(paired["p"].to_numpy(float))
    paired["moves"] = paired["p_holm"] < 0.05
    return paired


def _card_words(card_info) -> tuple[str, str]:
    """(the varied card's name, the verdicts' baseline in words), "" each without a card."""
    if not card_info:
        return "", ""
    card, cid = card_info
    names = card.get("names", [])
    return (component_name(names[cid] if cid < len(names) else cid, card["type"]),
            baseline_name(card.get("label", card["type"])))


def _card_row(i: int, logs: pd.DataFrame, card_info) -> dict:
    """The varied card at point i: its take rate (share of games where some seat took it,
    analysis/cards.py: the definition of the run report and `balance cards`) and its takers'
    win share against the takers of the other cards of its type (the one baseline, shared
    with the run report and tune)."""
    card, cid = card_info
    taken = _card_taken(logs, card, cid)
    per_game = per_game_taken(logs, card)["any"][:, cid]
    rate_lo, rate_hi = wilson_interval(per_game.sum(), per_game.size)
    gap = taker_gap(*card_sums(logs, card))
    return {"point": i, "take_rate": per_game.mean(),
            "take_rate_low": float(rate_lo),
            "take_rate_high": float(rate_hi),
            "win_taken": float(gap["share"][cid]),
            "win_taken_low": float(gap["share_low"][cid]),
            "win_taken_high": float(gap["share_high"][cid]),
            "win_base": float(gap["base"][cid]),
            "win_base_low": float(gap["base_low"][cid]),
            "win_base_high": float(gap["base_high"][cid]),
            "gap": float(gap["gap"][cid]),
            "gap_low": float(gap["gap_low"][cid]),
            "gap_high": float(gap["gap_high"][cid]),
            "rows_taken": int(taken.sum())}


def _outcome_rows(i: int, logs: pd.DataFrame, meta: dict | None, players: int) -> list:
    """The means at point i of every per-game quantity but the win shares (those are the
    seat, start and strategy tables): mean score, score components, declared outcomes."""
    rows = []
    for name, unit, v in per_game_quantities(logs, meta, players):
        if not name.startswith("win share"):
            m, lo, hi = mean_ci(v)
            rows.append({"point": i, "quantity": name, "unit": unit, "mean": m,
                         "low": lo, "high": hi})
    return rows


def _paired_rows(per_point_logs: list, labels: list, meta: dict | None, axes: list,
                 card_info) -> list:
    """Paired differences between neighbouring points on the same game indices: one field
    changes by one step, the others stay (a grid's diagonal is never a step). Everything that
    can move (seats, start positions, strategies, scores, outcomes) and the varied card's
    take rate."""
    rows = []
    for i, j, step, at in grid_steps(axes, len(per_point_logs)):
        a, b = per_point_logs[i], per_point_logs[j]
        a = a.sort_values(["game", "seat"])
        b = b.sort_values(["game", "seat"])
        if not np.array_equal(a["game"].to_numpy(), b["game"].to_numpy()):
            continue  # not the same games (should not happen: same seed, same count)
        players = int(a["seat"].max()) + 1
        base = {"from": labels[i], "to": labels[j], "step": step or f"{labels[i]} -> {labels[j]}",
                "at": at}
        rows += paired_quantity_steps(a, b, meta, base)
        if card_info:
            card, cid = card_info
            ta = _card_taken(a, card, cid).reshape(-1, players).any(axis=1).astype(float)
            tb = _card_taken(b, card, cid).reshape(-1, players).any(axis=1).astype(float)
            m, lo, hi = mean_ci(tb - ta)
            rows.append({**base, "quantity": "take rate", "unit": "pp", "diff": m,
                         "low": lo, "high": hi})
    return rows


def analyse_sweep(per_point_logs: list, points: list, labels: list, meta: dict | None,
                  varied_paths: list, axes: list | None = None) -> SweepResult:
    """The statistics of a sweep: per point the seat, strategy and start-position win shares,
    the score components, the other outcomes and the varied card (when one card's field is
    varied); between neighbouring points the paired steps, Holm-corrected together.
    axes: the sweep's [(path, values)] (the grid's shape); without it the points are
    taken as one field's values in order."""
    from analysis.metadata import start_declaration
    from analysis.tables import start_table
    seat_rows, strat_rows, comp_rows, card_rows = [], [], [], []
    start_rows, outcome_rows = [], []
    players0 = int(per_point_logs[0]["seat"].max()) + 1
    start = start_declaration(meta, list(per_point_logs[0].columns), players0)
    comps = [c for c in (meta or {}).get("score_components", []) if c in per_point_logs[0].columns]
    card_info = card_of_path(varied_paths[0], meta) if len(varied_paths) == 1 else None
    card_label, card_baseline = _card_words(card_info)
    for i, logs in enumerate(per_point_logs):
        for key, rows in (("seat", seat_rows), ("strategy", strat_rows)):
            t = _share_rows(logs, key).reset_index()
            t.insert(0, "point", i)
            rows.append(t)
        for c in comps:
            m, lo, hi = mean_ci(logs[c].to_numpy(float))
            comp_rows.append({"point": i, "component": c, "mean": m, "low": lo, "high": hi})
        if start["column"] is not None:
            t = start_table(logs, start["column"], players0).reset_index()
            t.insert(0, "point", i)
            start_rows.append(t)
        outcome_rows += _outcome_rows(i, logs, meta, players0)
        if card_info:
            card_rows.append(_card_row(i, logs, card_info))
    # Holm across every step and quantity of the sweep: which moves survive the number
    # of comparisons (a sweep of 15 steps x 4 seats is 60 chances of a false move)
    paired = holm_steps(pd.DataFrame(_paired_rows(per_point_logs, labels, meta,
                                                  list(axes or []), card_info)))
    card_response = None
    if card_info and len(per_point_logs) > 1:
        card_response = _sweep_response(per_point_logs, points, card_info)
    return SweepResult(points, labels, pd.concat(seat_rows, ignore_index=True),
                       pd.concat(strat_rows, ignore_index=True), pd.DataFrame(comp_rows),
                       pd.DataFrame(card_rows) if card_rows else None, paired,
                       card_label, int(per_point_logs[0]["game"].nunique()), axes=list(axes or []),
                       card_baseline=card_baseline, card_response=card_response,
                       start=pd.concat(start_rows, ignore_index=True) if start_rows else None,
                       start_info=start,
                       outcomes=pd.DataFrame(outcome_rows) if outcome_rows else None)


def _sweep_response(per_point_logs: list, points: list, card_info) -> dict | None:
    """Whether the players respond to the varied card's value: the paired change in its take
    rate per point from the first to the last value (the same games: common random numbers),
    as analysis.cards.paired_step gives it (None when not measurable), with its `word`
    (analysis.cards.response_word, the words of the run report and `balance cards`)."""
    from analysis.cards import paired_step, per_game, response_word
    card, cid = card_info
    try:
        v0, v1 = (float(p[0].split("=", 1)[1]) for p in (points[0], points[-1]))
    except (ValueError, IndexError):
        return None
    if v1 == v0:
        return None
    try:
        step = paired_step(per_game(per_point_logs[0], card), per_game(per_point_logs[-1], card),
                           cid, v1 - v0)
    except ValueError:
        return None
    return {**step, "word": response_word(step["take"][1], step["take"][2])}


# ---------------------------------------------------------------------------------------
# tune objectives (smaller is better)
#
# Every objective is a function of per-game sums averaged over games (a seat's wins, a
# strategy's wins and seats, a card's takers' wins and takers), so one machinery serves all
# three: the value is f(mean of the per-game rows); its uncertainty, and the paired
# difference between two configurations played on the same games, come from a bootstrap over
# games (Poisson weights, seeded: the same logs give the same interval).
# ---------------------------------------------------------------------------------------
OBJECTIVE_HELP = {
    "seat-fairness": "does a seat win more or less than its share? the largest gap between a "
                     "seat's win share and 1/players (play the same strategy in every seat)",
    "start-fairness": "does a start position win more or less than its share? the largest gap "
                      "between a start position's win share and 1/players (games whose start "
                      "player is drawn at random or passed on: Lowlands, Sagrada)",
    "strategy-parity": "are the strategies equally strong? the gap between the best and the "
                       "worst strategy's win share (give two or more strategies)",
    "card-parity": "is this card worth what it costs? its counterfactual advantage (taking it "
                   "against the seat's best alternative, played on from the same sampled "
                   "decision states: docs/card-worth.md) at every value tried; the value where "
                   "it is 0 (vary one card's value)",
    "takers-parity": "do the players who take this card win more than the takers of the other "
                     "cards of its kind? the largest gap, over the varied cards, pooled: a "
                     "description of play (who takes the card), not the card's worth, which "
                     "card-parity measures (vary cards' values; several at once)",
}
BOOTSTRAP = 1000


@dataclass
class Objective:
    kind: str
    rows: np.ndarray          # per game (sorted by game index): the sums the value is made of
    games: np.ndarray         # the game indices, in the order of `rows`
    f: object                 # (k x columns) means -> k values


def _per_game(logs: pd.DataFrame, values: np.ndarray, players: int) -> np.ndarray:
    return np.asarray(values, dtype=float).reshape(-1, players).sum(axis=1)


def objective_rows(logs: pd.DataFrame, kind: str, strategies=None, card_infos=None,
                   start_column: str | None = None) -> Objective:
    """The objective `kind` of one configuration's logs as per-game rows and a function of
    their means (vectorised over bootstrap replicates). `start_column`: the log column of the
    start position (start-fairness)."""
    from analysis.tables import wins_by_position
    logs = logs.sort_values(["game", "seat"])
    players = int(logs["seat"].max()) + 1
    win = logs["win"].to_numpy(float)
    games = logs["game"].to_numpy()[::players]
    if kind in ("seat-fairness", "start-fairness"):
        if kind == "start-fairness" and not start_column:
            raise ValueError("start-fairness needs the game's start position column")
        # per game the win of each seat, or of the seat at each start position
        rows = (win.reshape(-1, players) if kind == "seat-fairness"
                else wins_by_position(logs, start_column, players))

        def f(m):
            return np.abs(m - 1.0 / players).max(axis=1)
        return Objective(kind, rows, games, f)
    if kind == "strategy-parity":
        names = list(strategies or sorted(logs["strategy"].unique()))
        strat = logs["strategy"].to_numpy()
        cols = []
        for s in names:
            mine = (strat == s).astype(float)
            cols += [_per_game(logs, win * mine, players), _per_game(logs, mine, players)]
        rows = np.column_stack(cols)
        k = len(names)

        def f(m):
            w, c = m[:, 0::2], m[:, 1::2]
            with np.errstate(invalid="ignore", divide="ignore"):
                share = np.where(c > 0, w / np.where(c > 0, c, 1), np.nan)
            if k < 2:
                return np.zeros(m.shape[0])
            return np.nanmax(share, axis=1) - np.nanmin(share, axis=1)
        return Objective(kind, rows, games, f)
    if kind in ("takers-parity", "card-parity"):
        if not card_infos:
            raise ValueError(f"{kind} needs --vary on cards' fields (e.g. commissions[12].points)")
        # one block of columns per card kind: (takers' wins, takers) per card of that kind
        blocks, targets = {}, []
        for card, cid in card_infos:
            col = card["mask_column"]
            if col not in blocks:
                n_cards = len(card.get("names", [])) or 63
                mask = logs[col].to_numpy(np.int64)
                cols = []
                for c in range(n_cards):
                    t = ((mask >> np.int64(c)) & 1).astype(float)
                    cols += [_per_game(logs, win * t, players), _per_game(logs, t, players)]
                blocks[col] = (len(blocks), n_cards, cols)
            targets.append((col, cid))
        offsets, start, all_cols = {}, 0, []
        for col, (_, n_cards, cols) in blocks.items():
            offsets[col] = (start, n_cards)
            all_cols += cols
            start += 2 * n_cards
        rows = np.column_stack(all_cols)

        def f(m):
            worst = np.zeros(m.shape[0])
            for col, cid in targets:
                o, n = offsets[col]
                # the card's takers against the takers of the other cards of its type: the
                # definition of the run report and the sweep (analysis/cards.py)
                gap = gap_from_sums(m[:, o:o + 2 * n:2], m[:, o + 1:o + 2 * n:2], cid)
                # never taken (or no other card taken): as far from parity as can be said
                worst = np.maximum(worst, np.where(np.isfinite(gap), np.abs(gap), 1.0))
            return worst
        return Objective(kind, rows, games, f)
    raise ValueError(f"unknown objective '{kind}' (seat-fairness, start-fairness, "
                     f"strategy-parity, card-parity, takers-parity)")


def edge_of_range(varies: list, values: list) -> list:
    """The varied fields whose chosen value (`values`, one per field of `varies` [(path,
    values)]) is the lowest or the highest of three or more numbers tried: the balance point
    may lie beyond the range. [(path, value, "lower" / "upper", low, high, step)]."""
    out = []
    for (path, tried), v in zip(varies, values):
        nums = [x for x in tried if isinstance(x, (int, float)) and not isinstance(x, bool)]
        if len(nums) < 3 or len(nums) != len(tried) or isinstance(v, bool):
            continue
        try:
            v = float(v)
        except (TypeError, ValueError):
            continue
        lo, hi = min(nums), max(nums)
        steps = sorted({abs(b - a) for a, b in zip(sorted(nums), sorted(nums)[1:]) if b != a})
        step = steps[0] if steps else 1
        if v == lo or v == hi:
            out.append((path, v, "lower" if v == lo else "upper", lo, hi, step))
    return out


def _poisson_weights(rng, n: int, reps: int):
    """Bootstrap replicates as Poisson(1) weights per game, in batches (memory stays small)."""
    batch = max(1, min(reps, 2_000_000 // max(n, 1)))
    done = 0
    while done < reps:
        k = min(batch, reps - done)
        w = rng.poisson(1.0, size=(k, n)).astype(float)
        w[w.sum(axis=1) == 0, 0] = 1.0   # an empty replicate (tiny n) counts one game
        done += k
        yield w


def _means(w, rows):
    return (w @ rows) / w.sum(axis=1, keepdims=True)


def objective_value(obj: Objective, seed: int = 0, reps: int = BOOTSTRAP) -> tuple:
    """(value, standard error) of one configuration's objective."""
    value = float(obj.f(obj.rows.mean(axis=0, keepdims=True))[0])
    if obj.rows.shape[0] < 2:
        return value, math.inf
    rng = np.random.default_rng([int(seed), 1])
    boot = np.concatenate([obj.f(_means(w, obj.rows)) for w in
                           _poisson_weights(rng, obj.rows.shape[0], reps)])
    return value, float(np.std(boot, ddof=1))


def paired_difference(new: Objective, old: Objective, seed: int = 0,
                      reps: int = BOOTSTRAP) -> dict:
    """objective(new) - objective(old) on the same games (common random numbers), with its
    95% percentile interval from a paired bootstrap: each replicate reweights the same games
    in both configurations. Negative = `new` is better."""
    if not np.array_equal(new.games, old.games):
        raise ValueError("a paired comparison needs the same games in both configurations")
    a = float(new.f(new.rows.mean(axis=0, keepdims=True))[0])
    b = float(old.f(old.rows.mean(axis=0, keepdims=True))[0])
    n = new.rows.shape[0]
    if n < 2:
        return {"new": a, "old": b, "diff": a - b, "low": -math.inf, "high": math.inf,
                "games": n}
    rng = np.random.default_rng([int(seed), 2])
    diffs = []
    for w in _poisson_weights(rng, n, reps):
        diffs.append(new.f(_means(w, new.rows)) - old.f(_means(w, old.rows)))
    d = np.concatenate(diffs)
    lo, hi = np.quantile(d, [0.025, 0.975])
    return {"new": a, "old": b, "diff": a - b, "low": float(lo), "high": float(hi), "games": n}


# ---------------------------------------------------------------------------------------
# head-to-head and ratings of a logs DataFrame, for a caller without an aggregation: thin
# wrappers of the one definition (analysis/tables.py)
# ---------------------------------------------------------------------------------------
def head_to_head(logs: pd.DataFrame, strategies: list):
    """(share, low, high, games) DataFrames of a logs DataFrame: analysis.tables.head_to_head,
    the share of seat pairs over all games where the row strategy finished ahead (ties 1/2)."""
    from analysis.tables import head_to_head as h2h
    agg = aggregate_frame(logs)
    idx = [agg.strategies.index(str(s)) for s in strategies]
    share, lo, hi, _, games = h2h(agg, idx, [str(s) for s in strategies])
    return share, lo, hi, games


def pl_ratings(logs: pd.DataFrame, strategies: list) -> pd.DataFrame:
    """Plackett-Luce ratings of a logs DataFrame (theta, se, low, high by strategy), with the one
    prior RATING_PRIOR (analysis.tables.ratings); attrs['not_estimable'] says why when not (a
    Note; reports.notes.note_text writes it), None when estimable."""
    from analysis.tables import ratings
    agg = aggregate_frame(logs)
    idx = [agg.strategies.index(str(s)) for s in strategies]
    table, note = ratings(agg, idx, [str(s) for s in strategies])
    if table is None:
        out = pd.DataFrame({"theta": np.nan, "se": np.nan, "low": np.nan, "high": np.nan},
                           index=list(strategies))
        out.attrs["not_estimable"] = note
        return out
    out = table.set_index("strategy")
    out = out[["theta", "se", "low", "high"]].reindex([str(s) for s in strategies])
    out.attrs["not_estimable"] = None
    return out
