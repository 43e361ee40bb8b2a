"""A card's worth by counterfactual play: the paired statistics (the
estimand: docs/card-worth.md; the play: sim/counterfactual.py).

    select_states(scan, per_card, seed)   at most `per_card` sampled states per card, at most
                                          one per game and card (states independent)
    worth_table(scan, states, outcomes, valid, cards, configs)
                                          one row per card: how often the players chose it
                                          when it was an option (a description of play), its
                                          advantage in win share and in score (paired over
                                          the sampled states, normal intervals), its parity
                                          value, the verdict code and the suggested value
    suggested_value(row)                  the one rule for a value to suggest

The advantage of card c: over sampled decision states where c is among the seat's options,
the mean of (outcome after taking c) - (outcome after the seat's best alternative), both
played on from the same state with the same players and the same chance. Each state's
difference is the mean over its play-ons; the interval is over states (independent: one per
game and card). Verdict codes (reports/card_worth.py words them):

    <side>              chosen in at least NOT_CHOSEN of the decisions where it was an option
    not-chosen-<side>   chosen less often: "not chosen by these players"
    not-an-option       never among the options of a sampled decision: not measured
    too-few-states      fewer than MIN_STATES sampled states: no verdict
    <side>: helps (interval above 0), hurts (below 0), no-advantage (interval holds 0)
"""
from __future__ import annotations

import math

import numpy as np

from sim.stats import z_value

# "not chosen by these players": chosen in fewer than 5% of the decisions where it was an
# option (a card the players take now and then is still a choice they make)
NOT_CHOSEN = 0.05
PARITY_BOOTSTRAP = 400     # resamples of the states for the parity value's interval
# below this many sampled states a card gets no verdict: the normal interval of a mean of
# differences that are mostly 0 and sometimes +-1 is not to be trusted on fewer
MIN_STATES = 30


def select_states(scan: np.ndarray, per_card: int, seed: int) -> np.ndarray:
    """Rows of `scan` (sim.counterfactual.SCAN_COLUMNS): for every (type, card), at most one
    row per game (drawn at random) and at most `per_card` rows (the games drawn at random),
    reproducible from `seed`. Sorted by type, card, game."""
    if len(scan) == 0:
        return scan
    rng = np.random.default_rng([int(seed), 19])
    keys = scan[:, 3] * 64 + scan[:, 4]
    # one row per (card, game): a random row of each group
    jitter = rng.random(len(scan))
    order = np.lexsort((jitter, scan[:, 0], keys))
    s, k = scan[order], keys[order]
    first = np.ones(len(s), bool)
    first[1:] = (k[1:] != k[:-1]) | (s[1:, 0] != s[:-1, 0])
    s, k = s[first], k[first]
    picked = []
    for key in np.unique(k):
        rows = np.flatnonzero(k == key)
        if len(rows) > per_card:
            rows = np.sort(rng.choice(rows, per_card, replace=False))
        picked.append(rows)
    return s[np.concatenate(picked)]


def playons_for(counts: dict, per_card: int, playons: int, most: int) -> dict:
    """Play-ons per state for each card, {key: k}: `playons` for a card with `per_card`
    states, more for a card with fewer (its play-on budget states x play-ons kept about the
    same, at most `most` per state). A state's variance is mostly the chance after it (on
    Sunset Over Water 80-90% of it), which play-ons average away: a card that is an option in
    few games still gets a narrow interval."""
    return {key: int(min(most, playons * math.ceil(per_card / max(n, 1))))
            for key, n in counts.items()}


def _mean_ci(x: np.ndarray, z: float) -> tuple:
    n = x.size
    if n == 0:
        return (math.nan, math.nan, math.nan)
    m = float(x.mean())
    if n < 2:
        return (m, math.nan, math.nan)
    half = z * float(x.std(ddof=1)) / math.sqrt(n)
    return (m, m - half, m + half)


def side_of(interval: tuple) -> str:
    m, lo, hi = interval
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return "no-advantage" if m == 0 else "unclear"
    if lo > 0:
        return "helps"
    if hi < 0:
        return "hurts"
    return "no-advantage"


def verdict_code(options: int, chosen_rate: float, states: int, win: tuple) -> str:
    if options == 0 or states == 0:
        return "not-an-option"
    if states < MIN_STATES:
        return "too-few-states"
    side = side_of(win)
    return ("not-chosen-" if chosen_rate < NOT_CHOSEN else "") + side


def _root(values: np.ndarray, adv: np.ndarray) -> float:
    """Where the least-squares line through (values, adv) crosses 0 (nan: flat line)."""
    x = values - values.mean()
    sxx = float((x * x).sum())
    if sxx <= 0:
        return math.nan
    slope = float((x * (adv - adv.mean())).sum()) / sxx
    if slope == 0:
        return math.nan
    return float(values.mean() - adv.mean() / slope)


def parity(values: np.ndarray, diffs: np.ndarray, seed: int, confidence: float) -> dict:
    """Parity value from per-state win differences diffs[state, config] at card values
    `values` (the same states in every config): the value where the fitted advantage line is
    0, its bootstrap interval (states resampled), the slope per point (and interval)."""
    out = {"parity": math.nan, "parity_low": math.nan, "parity_high": math.nan,
           "slope": (math.nan, math.nan, math.nan)}
    if len(values) < 2 or diffs.shape[0] < 2 or np.ptp(values) == 0:
        return out
    z = z_value(confidence)
    x = values - values.mean()
    per_state_slope = (diffs - diffs.mean(axis=1, keepdims=True)) @ x / float((x * x).sum())
    out["slope"] = _mean_ci(per_state_slope, z)
    out["parity"] = _root(values, diffs.mean(axis=0))
    rng = np.random.default_rng([int(seed), 23])
    n = diffs.shape[0]
    roots = np.array([_root(values, diffs[rng.integers(0, n, n)].mean(axis=0))
                      for _ in range(PARITY_BOOTSTRAP)])
    roots = roots[np.isfinite(roots)]
    if roots.size >= PARITY_BOOTSTRAP // 2:
        a = (1 - confidence) / 2
        out["parity_low"], out["parity_high"] = (float(np.quantile(roots, a)),
                                                 float(np.quantile(roots, 1 - a)))
    return out


def suggested_value(row: dict) -> float | None:
    """The value to suggest for a card: its parity value, only where its advantage is beyond
    its interval and the parity value lies on the side that reduces it. A card that already
    helps is never suggested a higher value (nor one that hurts a lower value), whatever the
    fitted line says."""
    side = side_of(row["win"])
    if row.get("states", MIN_STATES) < MIN_STATES:
        return None
    p = row.get("parity")
    if side not in ("helps", "hurts") or p is None or not math.isfinite(p):
        return None
    if side == "helps" and p >= row["value"]:
        return None
    if side == "hurts" and p <= row["value"]:
        return None
    return float(p)


def worth_table(scan: np.ndarray, states: np.ndarray, outcomes: np.ndarray,
                valid: np.ndarray, cards: list, card_values: dict,
                confidence: float = 0.95, seed: int = 1) -> list:
    """One dict per card of `cards` (report_metadata() card entries, in order; type index t
    is the position in that list). `outcomes[r, w, k]` = (card win, alternative win, card
    score, alternative score) of state r under its value configuration w and play-on k (nan
    beyond the state's play-ons);
    w = 0 is the current values, and card_values[(t, c)] lists the card's value under each w
    played for its states (one entry: no parity)."""
    z = z_value(confidence)
    rows = []
    for t, card in enumerate(cards):
        for c, name in enumerate(card["names"]):
            at = (scan[:, 3] == t) & (scan[:, 4] == c) if len(scan) else np.zeros(0, bool)
            sel = ((states[:, 3] == t) & (states[:, 4] == c) & (valid == 1)) if len(states) \
                else np.zeros(0, bool)
            o = outcomes[sel]                         # states x configs x playons x 4
            # a state's difference: the mean over its play-ons (nan beyond its count)
            d_win = np.nanmean(o[:, 0, :, 0] - o[:, 0, :, 1], axis=1) if o.size else np.zeros(0)
            d_score = np.nanmean(o[:, 0, :, 2] - o[:, 0, :, 3], axis=1) if o.size else \
                np.zeros(0)
            value = float(card["values"][c]) if c < len(card.get("values", [])) else math.nan
            row = {"type": card["type"], "label": card["label"], "card": c, "name": name,
                   "value": value, "unit": card.get("unit", "points"),
                   "options": int(at.sum()),
                   "option_games": int(len(np.unique(scan[at, 0]))) if at.any() else 0,
                   "chosen_rate": float(scan[at, 5].mean()) if at.any() else math.nan,
                   "states": int(sel.sum()),
                   "win": _mean_ci(d_win, z), "score": _mean_ci(d_score, z),
                   "take_win": float(np.nanmean(o[:, 0, :, 0])) if o.size else math.nan,
                   "alt_win": float(np.nanmean(o[:, 0, :, 1])) if o.size else math.nan,
                   "playons": int(np.isfinite(o[0, 0, :, 0]).sum()) if o.size else 0,
                   "values_played": [float(v) for v in card_values.get((t, c), [value])]}
            par = {"parity": math.nan, "parity_low": math.nan, "parity_high": math.nan,
                   "slope": (math.nan, math.nan, math.nan)}
            w = len(row["values_played"])
            if w > 1 and o.size:
                diffs = np.nanmean(o[:, :w, :, 0] - o[:, :w, :, 1], axis=2)
                par = parity(np.array(row["values_played"]), diffs,
                             seed * 1000 + t * 64 + c, confidence)
            row.update(par)
            row["verdict"] = verdict_code(row["options"], row["chosen_rate"], row["states"],
                                          row["win"])
            row["suggested"] = suggested_value(row)
            rows.append(row)
    return rows


def advantage_by_value(d_win: np.ndarray, d_score: np.ndarray, values: list,
                       confidence: float = 0.95, seed: int = 1) -> tuple[list, dict]:
    """`tune --objective card-parity`: a card's advantage at each of its values, all on the
    same sampled states. d_win[state, w], d_score[state, w]: the per-state differences (card
    branch - alternative, mean over play-ons) under value w. Returns (one dict per value:
    value, win (mean, low, high), its standard error, score (mean, low, high)), and the parity
    value of the line through them (analysis.card_worth.parity; nan when the values are not
    numbers)."""
    z = z_value(confidence)
    rows = []
    for w, v in enumerate(values):
        x = d_win[:, w]
        x = x[np.isfinite(x)]
        se = float(x.std(ddof=1)) / math.sqrt(x.size) if x.size > 1 else math.inf
        rows.append({"value": v, "win": _mean_ci(x, z), "se": se,
                     "score": _mean_ci(d_score[:, w][np.isfinite(d_score[:, w])], z),
                     "states": int(x.size)})
    numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)
    par = {"parity": math.nan, "parity_low": math.nan, "parity_high": math.nan,
           "slope": (math.nan, math.nan, math.nan)}
    if numeric and len(values) > 1:
        ok = np.isfinite(d_win).all(axis=1)
        par = parity(np.asarray(values, float), d_win[ok], seed, confidence)
    return rows, par
