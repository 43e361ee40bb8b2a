"""The report's first screen: the answers a designer asks for first, each a short line with
its interval and a small chart (it fits one 1280 x 900 screen, docs/report.md).

    key_points(analysis) -> [KeyPoint]    the fairness question, the strategies, the three
                                          cards that stand out most

The fairness question is the one the game declares (report_metadata()["start"], "leads"): the
start position when it leads, else the seat number. Numbers come from the analysis
(analysis/balance.py); the words are made here.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from sim import formatting as F
from analysis.metadata import component_name, value_text
from reports.figures import (BLUE, GREY, RED, Figure, mini_effect_chart, mini_share_chart,
                             short_names)

TOP_CARDS = 3
VERDICT_COLORS = {"favoured": RED, "disadvantaged": BLUE}


@dataclass
class KeyPoint:
    heading: str
    line: str
    figure: Figure | None = None
    alert: bool = False          # a verdict beyond its uncertainty (styled to stand out)


def _fair(a) -> float:
    return 1.0 / a.players


def _share_text(share, low, high) -> str:
    return F.share_interval(share, low, high, F.digits_for(low, high))


def _fairness_rows(a):
    """(heading, labels, share, low, high, verdicts) of the game's fairness question."""
    start = next((b for b in a.breakdowns if b.fairness and b.kind == "breakdown"
                  and not b.table.empty and "win_share" in b.table), None)
    if start is not None:
        t = start.table
        labels = [f"{start.label} {v}" + (" (start player)" if start.start and str(v) == "1"
                                            else "") for v in t["value"]]
        return ("Fairness: start position", labels, t["win_share"], t["win_low"], t["win_high"],
                list(t["verdict"]))
    t = a.seats
    labels = list(t["label"])
    verdicts = ["" if a.seat_confounded else v for v in t["verdict"]]
    return "Fairness: seats", labels, t["win_share"], t["win_low"], t["win_high"], verdicts


def fairness_point(a) -> KeyPoint:
    if a.solo:
        return KeyPoint("Fairness", "One seat: no opponent, so no fairness question.")
    if a.all_tied_rate == 1.0:
        return KeyPoint("Fairness", f"Every game ended with all {a.players} seats tied: the win "
                                    f"shares say nothing about balance.", alert=True)
    heading, labels, share, low, high, verdicts = _fairness_rows(a)
    share, low, high = (list(map(float, v)) for v in (share, low, high))
    fair = _fair(a)
    colors = [VERDICT_COLORS.get(v, GREY) for v in verdicts]
    fig = mini_share_chart("first-fairness", heading, labels, share, low, high, fair, colors)
    if heading.endswith("seats") and a.seat_confounded:
        return KeyPoint(heading, "No seat verdict: each seat kept its strategy, so its share "
                                 "mixes seat and strategy (play with --rotate-seats).", fig)
    off = [k for k, v in enumerate(verdicts) if v in VERDICT_COLORS]
    k = max(off or range(len(share)), key=lambda i: abs(share[i] - fair))
    if off:
        line = (f"{labels[k]} wins {_share_text(share[k], low[k], high[k])} against a fair "
                f"{F.fair_share(fair)}: {verdicts[k]}")
        rest = len(off) - 1
        line += f" ({rest} more beyond the noise)." if rest else "."
        return KeyPoint(heading, line, fig, alert=True)
    return KeyPoint(heading, f"Fair: every {heading.split(': ')[1].rstrip('s')} wins its fair "
                             f"{F.fair_share(fair)} within the noise (furthest: {labels[k]}, "
                             f"{_share_text(share[k], low[k], high[k])}).", fig)


def strategy_point(a) -> KeyPoint:
    if a.solo:
        t = a.strategy_table
        return KeyPoint("Strategies", f"Solo: mean score {F.num(float(t.score_mean.iloc[0]))} "
                                      f"(s.e. {F.num(float(t.score_se.iloc[0]))}).")
    if a.single_strategy:
        return KeyPoint("Strategies", f"Every seat plays {a.strategies[0]}: no strategy "
                                      f"comparison.")
    t = a.strategy_table.sort_values("win_share", ascending=False)
    sn, _ = short_names(a.strategies)
    names = [sn.get(str(n), str(n)) for n in t.strategy]
    fig = mini_share_chart("first-strategies", "Strategies", names, t.win_share, t.win_low,
                           t.win_high, _fair(a), [BLUE] * len(t))
    if a.all_tied_rate == 1.0:
        return KeyPoint("Strategies", f"Every game ended with all seats tied: each strategy "
                                      f"wins exactly its fair {F.fair_share(_fair(a))}.", fig)
    best, worst = t.iloc[0], t.iloc[-1]
    line = (f"{names[0]} wins {_share_text(best.win_share, best.win_low, best.win_high)} of "
            f"its seat-games, {names[-1]} "
            f"{_share_text(worst.win_share, worst.win_low, worst.win_high)}, against a fair "
            f"{F.fair_share(_fair(a))}")
    if any(f.kind == "dominance" for f in a.findings):
        line += f"; {names[0]} dominates"
    if a.seat_confounded:
        line += " (seats not rotated: their advantage is part of this)"
    separated = best.win_low > worst.win_high
    return KeyPoint("Strategies", line + ".", fig, alert=separated)


def _card_candidates(a) -> list:
    """(section, row) of every card taken at least once, the flagged first, then by the size
    of the effect against the other cards' takers."""
    col = "score_vs_peers" if a.solo else "vs_peers"
    out = []
    for sec in a.cards:
        if sec.kind != "card":
            continue
        for r in sec.table.itertuples():
            eff = getattr(r, col)
            if r.taken > 0 and not math.isnan(eff):
                flagged = r.flag in ("over-performs", "under-performs")
                out.append((not flagged, -abs(eff), sec, r))
    out.sort(key=lambda x: (x[0], x[1]))
    return [(sec, r) for _, _, sec, r in out]


def card_points(a) -> list:
    if not a.solo and a.all_tied_rate == 1.0:
        return [KeyPoint("Cards", "Every game ended with all seats tied: a card's takers win "
                                  "exactly as often as the others, so no card stands out.")]
    picked = _card_candidates(a)[:TOP_CARDS]
    if not picked:
        return [KeyPoint("Cards", "No card was taken (or the game declares none).")]
    col = "score_vs_peers" if a.solo else "vs_peers"
    scale = 1.0 if a.solo else 100.0
    unit = "score vs other cards' takers" if a.solo else "win share vs other cards' takers, pp"
    span = max(max(abs(getattr(r, col + "_low")), abs(getattr(r, col + "_high")))
               for _, r in picked) * scale * 1.15 or 1.0
    out = []
    for i, (sec, r) in enumerate(picked):
        raw = [float(getattr(r, c)) for c in (col, col + "_low", col + "_high")]
        eff, lo, hi = (v * scale for v in raw)
        flagged = r.flag in ("over-performs", "under-performs")
        name = component_name(r.name, sec.type,
                              value_text(sec.unit if sec.kind == "card" else "", r.value))
        what = "mean score" if a.solo else "its takers' win share"
        txt = [F.signed(v, scale, 1 if a.solo else 2) for v in raw]
        line = (f"{name}: {what} {txt[0]}{'' if a.solo else ' pp'} ({txt[1]} to {txt[2]}) "
                f"against the takers of the other {sec.label.lower()}: "
                + (r.flag if flagged else "within the noise") + ".")
        color = RED if r.flag == "over-performs" else BLUE if flagged else GREY
        fig = mini_effect_chart(f"first-card-{i + 1}", name, eff, lo, hi, span, color, unit)
        out.append(KeyPoint("Card that stands out" if flagged else "Card (nothing stands out)",
                            line, fig, alert=flagged))
    return out


def key_points(a) -> list:
    """The first screen, in reading order."""
    return [fairness_point(a), strategy_point(a)] + card_points(a)
