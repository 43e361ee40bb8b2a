"""The `balance cards --takers` report: the sensitivity table (analysis/cards.py,
sim/cards.py) as a document (lines, the table, a figure of the per-card slopes with their
intervals). Who takes a card describes the players, not the card: every line is labelled a
description of play and no value is suggested from it (a card's worth and its parity value
are its counterfactual advantage: reports/card_worth.py, docs/card-worth.md)."""
from __future__ import annotations

import math

from analysis.cards import BASELINE, baseline_name
from analysis.metadata import component_name, value_text
from reports.document import Document, Section, Table
from reports.figures import BLUE, GREY, RED, Figure, _new, _png


def _pp(x: float, digits: int = 1) -> str:
    return "n/a" if x is None or not math.isfinite(x) else f"{100 * x:+.{digits}f}"


def _pp_ci(t: tuple, digits: int = 1) -> str:
    m, lo, hi = t
    if not math.isfinite(m):
        return "n/a"
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return f"{_pp(m, digits)} pp"
    return f"{_pp(m, digits)} pp ({_pp(lo, digits)} to {_pp(hi, digits)})"


def _name(s: dict) -> str:
    """The card as every report names it: "Hidden Gem (card, 6 points)"."""
    return component_name(s["name"], s["type"], value_text(s.get("unit", "points"), s["value"]))


def parity_text(s: dict) -> str:
    d = s.get("to_parity")
    if d is None:
        return ""
    target = s["value"] + d
    return f"{d:+.1f} (to about {target:.1f})"


HEADERS = ["card", "value", "taken in (games)", "takers' gap to " + BASELINE + " (95%)",
           "take rate per point (95%)", "takers' win share per point (95%)",
           "gap per point (95%)", "players", "takers' gap closes at (play)"]


def table_rows(steps: list) -> list:
    rows = []
    for s in steps:
        one_sided = "" if (s["high"] - s["low"]) == 2 else f" (steps {s['low']}->{s['high']})"
        rows.append([component_name(s["name"], s["type"]), f"{s['value']}{one_sided}",
                     f"{100 * s['take_rate']:.1f}%", _pp_ci(s["gap"]), _pp_ci(s["take"]),
                     _pp_ci(s["share_slope"]), _pp_ci(s["gap_slope"]),
                     s["response"].replace("players ", ""), parity_text(s)])
    return rows


def verdicts(steps: list) -> list:
    out = []
    ignored = [s for s in steps if s["response"] == "players do not respond"]
    move = [s for s in steps if s.get("to_parity") is not None]
    move.sort(key=lambda s: -abs(s["to_parity"]))
    out.append("A description of play, not of the cards: who takes a card, and how that "
               "moves with its value, says how these players choose; a card's worth is its "
               "advantage when taken (`balance cards` without --takers), and no value is "
               "suggested from this table.")
    for s in move:
        out.append(f"{_name(s)}: its takers win "
                   f"{_pp(s['gap'][0])} pp against {baseline_name(s['label'])}; each point "
                   f"moves that gap by {_pp(s['gap_slope'][0], 2)} pp (it would close at "
                   f"about {s['value'] + s['to_parity']:.1f}, {s['to_parity']:+.1f} points, "
                   f"as these players choose).")
    for s in ignored:
        out.append(f"{_name(s)}: the players do not "
                   f"respond to its value (take rate {_pp_ci(s['take'])} per point).")
    if not move:
        out.append(f"No card's takers' gap to {BASELINE} moves with its value towards 0 beyond "
                   f"the intervals.")
    return out


def slopes_figure(steps: list) -> Figure:
    n = len(steps)
    fig = _new(9.0, 1.2 + 0.22 * n)
    names = [_name(s) for s in steps]
    y = list(range(n))[::-1]
    for k, (key, title, colour) in enumerate((("take", "take rate per point", BLUE),
                                              ("gap_slope", "takers' gap per point", RED))):
        ax = fig.add_subplot(1, 2, k + 1)
        for yi, s in zip(y, steps):
            m, lo, hi = s[key]
            if not math.isfinite(m):
                continue
            err = ([[m - lo], [hi - m]] if math.isfinite(lo) and math.isfinite(hi) else None)
            ax.errorbar([100 * m], [yi], xerr=None if err is None else [[100 * e[0]] for e in err],
                        fmt="o", ms=3, color=colour, capsize=2)
        ax.axvline(0, color=GREY, lw=0.8)
        ax.set_yticks(y, names if k == 0 else [""] * n, fontsize=6)
        ax.set_xlabel(f"{title} (pp, 95%)", fontsize=8)
    return Figure("cards-slopes", "Per-card change per point of value",
                  "Left: how often the card is taken; right: its takers' win share against "
                  f"{BASELINE}. Paired games (same seeds) one point below and above the value.",
                  _png(fig))


def cards_document(steps: list, manifest: dict, header: dict) -> Document:
    players = int(manifest.get("players", 1))
    ev = Section("Evidence", "evidence", [slopes_figure(steps)] if steps else [])
    ev.blocks.append(Table(HEADERS, table_rows(steps),
                           f"Every card one point below and above its value on the same "
                           f"{header.get('games', 0):,} games per value (common random "
                           f"numbers). Baseline: {BASELINE}."))
    what = Section("What was run", "run", [[
        f"game: {manifest.get('title', manifest.get('game'))}, {players} players, strategies "
        f"{', '.join(manifest.get('strategy_names', []))}",
        f"{len(steps)} cards, {header.get('configs', 0)} configurations x "
        f"{header.get('games', 0):,} games, the same seeds in each",
        f"seed {manifest.get('seed')}, component file {manifest.get('components', {}).get('path')}",
        *header.get("notes", []),
    ]])
    method = Section("Method", "method", [
        f"Baseline of every card verdict: {BASELINE} (pooled seat-games). The take rate is the "
        "share of games in which some seat took the card. A step changes one card's value by "
        "one point down and one up (one-sided where the component file refuses the lower "
        "value) and plays the same games; the change per point and its 95% interval come from "
        "the game-by-game differences (delta method for the win shares). 'do not respond': "
        "the take rate's change per point lies within +/-0.5 pp, interval included. Where the "
        "takers' gap would close extrapolates the gap linearly (given only when the gap and "
        "its slope are both beyond their intervals); it describes these players' choices and "
        "is not a suggested value: a card's parity value is where its counterfactual "
        "advantage is 0 (`balance cards`, docs/card-worth.md)."])
    return Document(f"Cards, takers' sensitivity: {manifest.get('title', manifest.get('game'))}",
                    f"{players} players: how one point of each card's value changes who takes "
                    f"it and how its takers do (a description of play)",
                    [Section("Verdicts", "verdicts", [verdicts(steps)]), ev, what, method])
