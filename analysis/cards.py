"""Card statistics, one definition each, used by the run report (analysis/balance.py), the
sweep and tune (analysis/designer.py) and the sensitivity table (`balance cards`,
analysis/cards.py + sim/cards.py).

The baseline of every card verdict is THE TAKERS OF THE OTHER CARDS OF ITS TYPE (pooled: a
seat-game counts once for every other card of the type it took). Against the seats that did
not take the card, a card looks good whenever taking cards at all goes with winning (a seat
that completes many commissions is ahead anyway); against its peers, a card is judged by
whether taking IT is worth more than taking another card of its kind, which is what a
designer changes when changing its value.

    taker_gap(win_taken, taken)      takers' win share, the baseline's, their gap (+ interval)
    card_sums(logs, card)            per card: seat-games that took it, wins among them
    per_game(logs, card)             the same, per game (for paired differences)
    paired_step(lo, hi, card, c)     paired change between two values of card c, per point
    response_word(lo, hi)            do the players respond to the value?

"Do the players respond to a card's value" is a causal question: it is answered by playing
the same games (same seed, same game indices) with the card's value one point lower and one
point higher and comparing how often the card is taken, game by game.
"""
from __future__ import annotations

import math

import numpy as np

from sim.stats import newcombe_difference, wilson_interval, z_value

# the take rate moves by less than half a percentage point per point of value, interval
# included: the players do not respond to the value (a card taken in 75% of games whose take
# rate moves 0.2 pp per point is taken for other reasons than its value)
RESPONSE_TOLERANCE = 0.005

BASELINE = "the takers of the other cards of its type"


def baseline_name(label: str) -> str:
    """The baseline, in the words every verdict uses."""
    return f"the takers of the other {label.lower()}"


def gap_from_sums(win_taken, taken, c: int) -> np.ndarray:
    """The gap of card c (its takers' win share minus the pooled win share of the takers of
    the other cards of its type) from per-card sums on the last axis; vectorised over any
    leading axes (e.g. bootstrap replicates x cards, as tune's objective needs). nan where
    card c or every other card was never taken."""
    w = np.asarray(win_taken, dtype=float)
    n = np.asarray(taken, dtype=float)
    wc, nc = w[..., c], n[..., c]
    wp, npr = w.sum(axis=-1) - wc, n.sum(axis=-1) - nc
    with np.errstate(invalid="ignore", divide="ignore"):
        return (np.where(nc > 0, wc / np.where(nc > 0, nc, 1), np.nan)
                - np.where(npr > 0, wp / np.where(npr > 0, npr, 1), np.nan))


def taker_gap(win_taken, taken, confidence: float = 0.95) -> dict:
    """Win share of each card's takers against its baseline (the takers of the other cards of
    its type, pooled), from per-card sums over seat-games: wins among the seat-games that took
    card c and their count. Intervals: Wilson per share, Newcombe's for the gap (seat-games
    treated as independent). Arrays over the cards."""
    w = np.asarray(win_taken, dtype=float)
    n = np.asarray(taken, dtype=float)
    peer_w, peer_n = w.sum() - w, n.sum() - n
    with np.errstate(invalid="ignore", divide="ignore"):
        share = w / np.where(n > 0, n, np.nan)
        peer = peer_w / np.where(peer_n > 0, peer_n, np.nan)
    s_lo, s_hi = wilson_interval(w, n, confidence)
    p_lo, p_hi = wilson_interval(peer_w, peer_n, confidence)
    gap, g_lo, g_hi = newcombe_difference(w, n, peer_w, peer_n, confidence)
    return {"share": share, "share_low": np.asarray(s_lo, float),
            "share_high": np.asarray(s_hi, float),
            "base": peer, "base_low": np.asarray(p_lo, float), "base_high": np.asarray(p_hi, float),
            "base_wins": peer_w, "base_n": peer_n,
            "gap": np.asarray(gap, float), "gap_low": np.asarray(g_lo, float),
            "gap_high": np.asarray(g_hi, float)}


def n_cards(card: dict) -> int:
    return len(card.get("names", [])) or 63


def taken_matrix(logs, card) -> np.ndarray:
    """rows x cards booleans: did this seat-game take card c (from the card's mask column)."""
    col = logs[card["mask_column"]].to_numpy(np.int64)
    bits = np.arange(n_cards(card), dtype=np.int64)
    return ((col[:, None] >> bits[None, :]) & 1).astype(bool)


def card_sums(logs, card) -> tuple[np.ndarray, np.ndarray]:
    """(wins among the seat-games that took each card, their count), over all rows."""
    t = taken_matrix(logs, card)
    win = logs["win"].to_numpy(float)
    return (t * win[:, None]).sum(axis=0), t.sum(axis=0).astype(float)


def per_game(logs, card) -> dict:
    """Per game (rows sorted by game, seat): wins of the takers of each card, their count,
    and whether any seat took it. Arrays games x cards."""
    logs = logs.sort_values(["game", "seat"])
    players = int(logs["seat"].max()) + 1
    t = taken_matrix(logs, card)
    win = logs["win"].to_numpy(float)
    g = t.shape[0] // players
    tw = (t * win[:, None]).reshape(g, players, -1).sum(axis=1)
    tn = t.reshape(g, players, -1).sum(axis=1).astype(float)
    return {"games": logs["game"].to_numpy()[::players], "wins": tw, "n": tn,
            "any": tn > 0}


def _ratio_influence(w: np.ndarray, n: np.ndarray):
    """A ratio sum(w)/sum(n) over games and each game's linearised contribution to it
    (delta method: its standard error is sqrt(sum(contribution^2)))."""
    tot = n.sum()
    if tot <= 0:
        return math.nan, np.full(w.shape, math.nan)
    r = w.sum() / tot
    return r, (w - r * n) / tot


def _gap_influence(pg: dict, c: int):
    w, n = pg["wins"], pg["n"]
    st, it = _ratio_influence(w[:, c], n[:, c])
    sb, ib = _ratio_influence(w.sum(axis=1) - w[:, c], n.sum(axis=1) - n[:, c])
    return st, it, st - sb, it - ib


def _ci(diff: float, infl: np.ndarray, z: float):
    if not math.isfinite(diff) or infl.size < 2:
        return diff, math.nan, math.nan
    se = math.sqrt(float(np.sum((infl - infl.mean()) ** 2)) * infl.size / (infl.size - 1))
    return diff, diff - z * se, diff + z * se


def paired_step(pg_lo: dict, pg_hi: dict, c: int, points: float,
                confidence: float = 0.95) -> dict:
    """Change between two configurations that differ only in card c's value (`points` apart),
    played on the same games (common random numbers), per point of value, with intervals
    from the game-by-game differences: the take rate (share of games where some seat took
    it), its takers' win share and their gap to the baseline."""
    if not np.array_equal(pg_lo["games"], pg_hi["games"]):
        raise ValueError("paired_step needs the same games in both configurations")
    z = z_value(confidence)
    out = {}
    a, b = pg_lo["any"][:, c].astype(float), pg_hi["any"][:, c].astype(float)
    out["take"] = _ci(float((b - a).mean()) / points, (b - a - (b - a).mean()) / b.size / points, z)
    sa, ia, ga, iga = _gap_influence(pg_lo, c)
    sb, ib, gb, igb = _gap_influence(pg_hi, c)
    out["share"] = _ci((sb - sa) / points, (ib - ia) / points, z)
    out["gap"] = _ci((gb - ga) / points, (igb - iga) / points, z)
    return out


def response_word(low: float, high: float) -> str:
    """Do the players respond to the card's value? From the interval of the change in take
    rate per point."""
    if not (math.isfinite(low) and math.isfinite(high)):
        return "not measured"
    if -RESPONSE_TOLERANCE <= low and high <= RESPONSE_TOLERANCE:
        return "players do not respond"   # even where the interval excludes 0: negligible
    if low > 0 or high < 0:
        return "players respond"
    return "unclear"


def points_to_parity(gap: tuple, slope: tuple) -> float | None:
    """Change of value that brings the gap to the baseline to zero, on the measured slope;
    None when the card is at parity within its interval or its value does not move the gap."""
    g, g_lo, g_hi = gap
    s, s_lo, s_hi = slope
    if not all(math.isfinite(x) for x in (g, g_lo, g_hi, s, s_lo, s_hi)):
        return None
    if g_lo <= 0 <= g_hi or s_lo <= 0 <= s_hi:
        return None
    return -g / s
