"""The skill ladder of a game (`balance ladder`, `sim.api.ladder`: sim/api/ladders.py): how
much stronger each player level is than a fixed reference, and how many steps of strength the
game tells apart.

Levels: the game's built-ins random / greedy / planner (whichever exist, and the game's
default strategy) and `mcts` at rising budgets (iterations per decision). Each level L other
than the reference plays its own sub-run: L in one seat against the reference in every
other seat, seats rotated (sim/rotation.py), the same deals for every level (common random
numbers). So every level meets the same opponent on the same games, seat and strategy are not
confounded, and the levels are comparable through the reference.

Measures per level:
  * win share of L's seat with a Wilson 95% interval (fair share 1/players);
  * a rating: the Plackett-Luce log-strength (analysis/ratings.py, Hunter's MM, with the
    toolkit's one prior RATING_PRIOR: one virtual game each way per pair of levels, as in the
    report and compare) fitted to every finishing order of every sub-run, reported relative
    to the reference (theta_L - theta_ref, 0 for the reference) with a 95% interval from the
    Fisher information (the variance of the difference, so the reference's own uncertainty is
    included). With two players this is Bradley-Terry. Elo = 400 / ln 10 * rating. The prior
    links every pair of levels, also two that never met (each meets only the reference): it
    pulls the ratings slightly together, a few per cent at a few hundred games per level.
    When a level never finishes ahead of the reference (random against a planner) or never
    behind it, no maximum-likelihood rating exists; the rating and its interval are then the
    prior-regularised fit's (analysis/ratings.py `cov_prior`: the level's one virtual win or
    loss per pair holds it finite). Such a level is marked `prior_held`: its rating is pulled
    towards the others, the real gap is this large or larger, and the note says so.
  * skill depth: the levels sorted by rating, walked from the weakest: a level is a new
    step when the 95% interval of its rating minus the last step's rating lies above 0.
    The depth is the number of steps (1 = no level is distinguishably stronger than the
    weakest). This is a lower bound: more games tell more levels apart (and a prior-held
    level's gap to the next is shrunk by the prior, so it stays a lower bound).

Verdicts at the strongest level (`compare_verdicts`): the seat-fairness verdict of every seat
and the card verdicts of the balance report (analysis/balance.py, analysis/cards.py) from a
run with the game's default strategy in every seat, against the same run with the strongest
level in every seat (the same deals): each verdict holds, or changes (named both ways).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from analysis.ratings import RATING_PRIOR, expand_ties, fit_plackett_luce
from analysis.stats import wilson_interval, z_value

ELO = 400.0 / math.log(10.0)
MCTS_PREFIX = "mcts-"


def mcts_level(budget: int) -> str:
    """The name of the mcts level at `budget` iterations per decision."""
    return f"{MCTS_PREFIX}{int(budget)}"


def budget_of(level: str) -> int | None:
    return int(level[len(MCTS_PREFIX):]) if level.startswith(MCTS_PREFIX) else None


@dataclass
class LadderResult:
    game: str
    players: int
    reference: str
    levels: list                      # in the order played
    table: pd.DataFrame               # one row per level, sorted by rating
    depth: int
    steps: list                       # the levels that form the distinguishable steps
    fit: dict                         # the rating fit: iterations, converged, games, prior,
    #                                   confidence, estimable, why (a code), why_names, held
    #                                   (reports/ladder.py rating_note says it in words)
    verdicts: list = field(default_factory=list)       # lines (reports/ladder.py writes them)
    verdict_table: pd.DataFrame | None = None          # the report's verdicts, both levels
    strongest: str = ""
    notes: list = field(default_factory=list)


def level_orders(logs: pd.DataFrame, index: dict) -> dict:
    """{order of level indices: weight} of every game in `logs` (columns game, seat,
    strategy, rank), ties expanded (analysis.ratings.expand_ties)."""
    out: dict = {}
    logs = logs.sort_values(["game", "seat"])
    games = logs["game"].to_numpy()
    strat = logs["strategy"].map(index).to_numpy()
    rank = logs["rank"].to_numpy()
    bounds = np.flatnonzero(np.diff(games)) + 1
    for s, r in zip(np.split(strat, bounds), np.split(rank, bounds)):
        for o, w in expand_ties(list(s), list(r)):
            out[o] = out.get(o, 0.0) + w
    return out


def skill_depth(theta: np.ndarray, cov: np.ndarray, names: list, confidence: float = 0.95):
    """(depth, the step levels) of the module docstring."""
    z = z_value(confidence)
    order = list(np.argsort(theta, kind="stable"))
    steps = [order[0]]
    for j in order[1:]:
        a = steps[-1]
        d = theta[j] - theta[a]
        se = math.sqrt(max(cov[j, j] + cov[a, a] - 2 * cov[j, a], 0.0))
        if d - z * se > 0:
            steps.append(j)
    return len(steps), [names[i] for i in steps]


def analyse_ladder(game: str, players: int, reference: str, levels: list, logs_by_level: dict,
                   confidence: float = 0.95) -> LadderResult:
    """`logs_by_level`: {level: logs of its sub-run (game, seat, strategy, rank, win)} for
    every level but the reference."""
    index = {name: k for k, name in enumerate(levels)}
    orders: dict = {}
    rows = []
    for name in levels:
        if name == reference:
            continue
        logs = logs_by_level[name]
        for o, w in level_orders(logs, index).items():
            orders[o] = orders.get(o, 0.0) + w
        mine = logs[logs["strategy"] == name]
        n = int(mine["game"].nunique())
        wins = float(mine["win"].sum())
        lo, hi = wilson_interval(wins, n, confidence)
        rows.append({"level": name, "budget": budget_of(name), "games": n,
                     "win_share": wins / max(n, 1), "win_low": float(lo), "win_high": float(hi)})
    ref_row = {"level": reference, "budget": budget_of(reference), "games": 0,
               "win_share": np.nan, "win_low": np.nan, "win_high": np.nan}
    table = pd.DataFrame([ref_row] + rows)
    fit = fit_plackett_luce(list(orders.items()), len(levels), prior=RATING_PRIOR)
    # the prior-regularised covariance: = the maximum-likelihood one when the fit is
    # estimable, finite (held by the prior) when a level never won or never lost
    cov = fit.cov_prior
    r = index[reference]
    z = z_value(confidence)
    held = prior_held_levels(orders, len(levels))
    rating, se = [], []
    for name in table["level"]:
        i = index[name]
        rating.append(fit.theta[i] - fit.theta[r])
        se.append(math.sqrt(max(cov[i, i] + cov[r, r] - 2 * cov[i, r], 0.0)))
    table["rating"] = rating
    table["rating_se"] = se
    table["rating_low"] = table["rating"] - z * table["rating_se"]
    table["rating_high"] = table["rating"] + z * table["rating_se"]
    table["elo"] = ELO * table["rating"]
    table["prior_held"] = [index[name] in held for name in table["level"]]
    table = table.sort_values("rating", kind="stable").reset_index(drop=True)
    n_games = int(sum(orders.values()))
    depth, steps = skill_depth(fit.theta, cov, levels, confidence)
    info = {"iterations": fit.iterations, "converged": fit.converged, "games": n_games,
            "prior": RATING_PRIOR, "confidence": confidence, "estimable": fit.estimable,
            "why": fit.why, "why_names": [levels[k] for k in fit.why_items],
            "held": [levels[k] for k in sorted(held)]}
    return LadderResult(game=game, players=players, reference=reference, levels=list(levels),
                        table=table, depth=depth, steps=steps, fit=info)


def prior_held_levels(orders: dict, n_levels: int) -> set:
    """The levels that never finished ahead of another level or never behind one in the
    real games: only the prior holds their rating finite (analysis/ratings.py)."""
    ahead = np.zeros(n_levels, dtype=bool)
    behind = np.zeros(n_levels, dtype=bool)
    for o, w in orders.items():
        if w <= 0:
            continue
        o = [int(x) for x in o]
        for k in range(len(o) - 1):
            for m in range(k + 1, len(o)):
                if o[k] != o[m]:
                    ahead[o[k]] = True
                    behind[o[m]] = True
    played = ahead | behind
    return {i for i in range(n_levels) if played[i] and not (ahead[i] and behind[i])}


# --- the report's verdicts at the strongest level --------------------------------------------
def _seat_verdicts(a) -> dict:
    if a.seats is None or a.solo:
        return {}
    return {f"{row.label} fairness": str(row.verdict) for row in a.seats.itertuples()}


def _card_verdicts(a) -> dict:
    out = {}
    for f in a.flags:
        if f.kind == "card":
            word = "flagged strong" if (f.effect or 0.0) > 0 else "flagged weak"
            out[f"{f.subject}"] = word
    return out


def compare_verdicts(base, top, base_name: str, top_name: str) -> pd.DataFrame:
    """The seat and card verdicts of two balance analyses (analysis.balance.BalanceAnalysis)
    of the same deals, side by side: one row per verdict, a column per level and `holds`
    (reports/ladder.py `verdict_change_lines` says it in words). A card flagged in neither
    run is not listed; a card flagged in one is 'not flagged' in the other."""
    rows = []
    sb, st = _seat_verdicts(base), _seat_verdicts(top)
    for k in sb:
        rows.append({"verdict": k, base_name: sb[k], top_name: st.get(k, "n/a")})
    cb, ct = _card_verdicts(base), _card_verdicts(top)
    for k in list(cb) + [k for k in ct if k not in cb]:
        rows.append({"verdict": k, base_name: cb.get(k, "not flagged"),
                     top_name: ct.get(k, "not flagged")})
    table = pd.DataFrame(rows, columns=["verdict", base_name, top_name])
    table["holds"] = (table[base_name] == table[top_name]) if len(table) else pd.Series(
        dtype=bool)
    return table
