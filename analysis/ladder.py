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
and start position from a run with the game's default strategy in every seat, against the same
run with the strongest level in every seat (the same deals); and every card verdict by its one
estimand, the card's advantage by counterfactual play (analysis/card_worth.py), measured with
the default strategy and with the strongest built-in level (counterfactual play needs built-in
players). A verdict changes only when the difference of its effect between the levels excludes
0; a flag lost with the same effect is a change of power, not of the game.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from analysis.metadata import component_name
from analysis.ratings import RATING_PRIOR, expand_ties, fit_plackett_luce
from sim.stats import wilson_interval, z_value

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
# A verdict is compared by its effect, not by its flag: a flag that appears or disappears may
# be only a change of power (fewer games, more noise at one level). For each verdict: the
# effect at each level with its interval, their difference with its interval, and "changed"
# when that interval excludes 0. The two runs play the same deals; their difference is taken
# as between independent samples (conservative: common deals only make it narrower).
VERDICT_COLUMNS = ["verdict", "level_base", "verdict_base", "level_top", "verdict_top", "unit",
                   "effect_base", "effect_base_low", "effect_base_high",
                   "effect_top", "effect_top_low", "effect_top_high", "difference",
                   "difference_low", "difference_high"]


def _share_effects(label, base_row, top_row, fair, confidence):
    """A seat's or start position's effect (win share minus the fair share) at both levels
    and the difference of the shares (Newcombe's interval)."""
    from sim.stats import newcombe_difference
    d, lo, hi = newcombe_difference(top_row["wins"], top_row["rows"], base_row["wins"],
                                    base_row["rows"], confidence)
    return {"verdict": label, "unit": "pp",
            "effect_base": base_row["share"] - fair, "effect_base_low": base_row["low"] - fair,
            "effect_base_high": base_row["high"] - fair,
            "effect_top": top_row["share"] - fair, "effect_top_low": top_row["low"] - fair,
            "effect_top_high": top_row["high"] - fair,
            "difference": d, "difference_low": lo, "difference_high": hi}


def _positions(a) -> dict:
    """{verdict label: {verdict, wins, rows, share, low, high}} of the seats and the start
    positions of a balance analysis (empty for a solo run)."""
    if getattr(a, "seats", None) is None or a.solo:
        return {}
    out = {}
    for row in a.seats.itertuples():
        out[f"{row.label} fairness"] = {
            "verdict": str(row.verdict), "wins": getattr(row, "wins", np.nan),
            "rows": getattr(row, "games", np.nan), "share": getattr(row, "win_share", np.nan),
            "low": getattr(row, "win_low", np.nan), "high": getattr(row, "win_high", np.nan)}
    for b in getattr(a, "breakdowns", None) or []:
        if getattr(b, "start", False) and "verdict" in b.table:
            for r in b.table.itertuples():
                out[f"Start position {r.value} fairness"] = {
                    "verdict": str(r.verdict), "wins": r.wins, "rows": r.rows,
                    "share": r.win_share, "low": r.win_low, "high": r.win_high}
    return out


# a card verdict worth comparing across levels: the card helps or hurts at either level
CARD_SIDES = ("helps", "hurts", "not-chosen-helps", "not-chosen-hurts")


def card_verdict_word(code: str) -> str:
    """A counterfactual verdict code (analysis/card_worth.py) as a table word."""
    return code.replace("not-chosen-", "not chosen, ").replace("-", " ")


def _worth_effects(rows: list) -> dict:
    """{card subject: {verdict, effect, low, high}} of card-worth rows (analysis/card_worth.py
    worth_table): the card's advantage in win share over the seat's best alternative, by
    counterfactual play (the one estimand of a card verdict, docs/card-worth.md)."""
    out = {}
    for r in rows:
        m, lo, hi = r["win"]
        out[component_name(r["name"], r["type"])] = {
            "verdict": r["verdict"], "effect": m, "low": lo, "high": hi}
    return out


def compare_verdicts(base, top, base_name: str, top_name: str, worth=None,
                     confidence: float = 0.95) -> pd.DataFrame:
    """The seat and start-position verdicts of two balance analyses
    (analysis.balance.BalanceAnalysis) of the same deals, `base_name` then `top_name` in every
    seat, and the card verdicts of `worth` = (card-worth rows at the first level, at the
    second level, first level's name, second level's name): the card's advantage by
    counterfactual play (analysis/card_worth.py; it plays built-in players only, so its levels
    may differ from the seats'). One row per verdict: the levels compared (level_base,
    level_top), the verdict word at each, the effect at each with its interval, the
    difference of the effects (top minus base) with its interval, `changed` (that interval
    excludes 0), `measured` and `holds` (not changed). A card listed helps or hurts at one
    level at least. reports/ladder.py `verdict_change_lines` says it in words."""
    z = z_value(confidence)
    rows = []
    pb, pt = _positions(base), _positions(top)
    fair = 1.0 / max(int(getattr(base, "players", 0) or len(pb) or 1), 1)
    if getattr(base, "seats", None) is not None and not base.solo:
        fair = 1.0 / len(base.seats)
    for k, rb in pb.items():
        rt = pt.get(k)
        row = {"verdict": k, "level_base": base_name, "verdict_base": rb["verdict"],
               "level_top": top_name, "verdict_top": rt["verdict"] if rt else "n/a"}
        if rt is not None:
            row.update(_share_effects(k, rb, rt, fair, confidence))
        rows.append(row)
    if worth is not None:
        rows_b, rows_t, cb_name, ct_name = worth
        cb, ct = _worth_effects(rows_b), _worth_effects(rows_t)
        for k in [k for k in cb if cb[k]["verdict"] in CARD_SIDES] + \
                 [k for k in ct if ct[k]["verdict"] in CARD_SIDES and
                  cb.get(k, {}).get("verdict") not in CARD_SIDES]:
            b = cb.get(k, {"verdict": "not-an-option"})
            t = ct.get(k, {"verdict": "not-an-option"})
            row = {"verdict": k, "level_base": cb_name,
                   "verdict_base": card_verdict_word(b["verdict"]), "level_top": ct_name,
                   "verdict_top": card_verdict_word(t["verdict"]), "unit": "pp"}
            if all(math.isfinite(x.get(f, math.nan)) for x in (b, t)
                   for f in ("effect", "low", "high")):
                se = [(x["high"] - x["low"]) / (2 * z) for x in (b, t)]
                d = t["effect"] - b["effect"]
                # independent samples: each level's states come from its own games
                half = z * math.sqrt(se[0] ** 2 + se[1] ** 2)
                row.update({"effect_base": b["effect"], "effect_base_low": b["low"],
                            "effect_base_high": b["high"], "effect_top": t["effect"],
                            "effect_top_low": t["low"], "effect_top_high": t["high"],
                            "difference": d, "difference_low": d - half,
                            "difference_high": d + half})
            rows.append(row)
    table = pd.DataFrame(rows, columns=VERDICT_COLUMNS)
    lo = pd.to_numeric(table["difference_low"], errors="coerce")
    hi = pd.to_numeric(table["difference_high"], errors="coerce")
    measured = lo.notna() & hi.notna()
    # without effects (a verdict missing at one level) the flags are all there is to compare
    table["changed"] = np.where(measured, (lo > 0) | (hi < 0),
                                table["verdict_base"] != table["verdict_top"])
    table["changed"] = table["changed"].astype(bool)
    table["measured"] = measured.to_numpy()
    table["holds"] = ~table["changed"]
    return table
