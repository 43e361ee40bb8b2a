"""The report's figures (matplotlib, Agg, no global pyplot state), each as PNG bytes.

    make_figures(analysis) -> [Figure(key, title, caption, png)]

A figure whose data is missing (solo run, one strategy, no cards...) is simply not made; the
report's text says why.
"""
from __future__ import annotations

import io
import math
import os
import warnings
from dataclasses import dataclass

import numpy as np

from analysis.balance import BalanceAnalysis

DPI = 100
BLUE, RED, GREY, GREEN = "#3b6fb6", "#c44e52", "#8c8c8c", "#55a868"


@dataclass
class Figure:
    key: str
    title: str
    caption: str
    png: bytes


SHORT_NAME = 22   # longer strategy names (a full file path) are shortened in figures


def short_names(names) -> tuple[dict, str]:
    """({name: its label in a figure}, legend): a name longer than SHORT_NAME characters (a
    user strategy named by its file path, "/home/me/bots/my_player.py:careful") is shown as
    its function or file name ("careful") when that is short and unique, else as "S1", "S2"
    ...; the legend ("careful = /home/me/bots/my_player.py:careful; ...") goes into the
    figure's caption. Short names are kept as they are."""
    names = [str(n) for n in names]
    out, taken = {}, set(n for n in names if len(n) <= SHORT_NAME)
    k = 0
    for n in names:
        if n in out:
            continue
        if len(n) <= SHORT_NAME:
            out[n] = n
            continue
        tail = n.rsplit(":", 1)[-1] if ":" in n else os.path.basename(n.rstrip("/\\"))
        if not tail or len(tail) > SHORT_NAME or tail in taken:
            k += 1
            tail = f"S{k}"
            while tail in taken:
                k += 1
                tail = f"S{k}"
        out[n] = tail
        taken.add(tail)
    legend = "; ".join(f"{v} = {n}" for n, v in out.items() if v != n)
    return out, (f"Names shortened in the figure: {legend}." if legend else "")


def _short(a, names) -> list:
    sn, _ = short_names(a.strategies)
    return [sn.get(str(n), str(n)) for n in names]


def _new(width=7.5, height=3.6):
    from matplotlib.figure import Figure as MplFigure
    fig = MplFigure(figsize=(width, height), dpi=DPI)
    return fig


def _png(fig) -> bytes:
    """The figure as PNG bytes. A library's warning while laying it out (matplotlib: "Tight
    layout not applied" when labels are too long for the figure) never reaches the terminal:
    the figure is drawn as it is and the report stays quiet (long names are shortened first,
    short_names)."""
    buf = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fig.tight_layout()
        # a legend placed outside the axes (never over the data) is kept in the picture
        fig.savefig(buf, format="png", dpi=DPI, bbox_inches="tight", pad_inches=0.08)
    return buf.getvalue()


def _share_bars(labels, share, lo, hi, fair, colors, xlabel):
    fig = _new(7.5, 0.5 + 0.45 * len(labels) + 0.8)
    ax = fig.add_subplot(1, 1, 1)
    y = np.arange(len(labels))[::-1]
    share, lo, hi = (np.asarray(v, dtype=float) * 100 for v in (share, lo, hi))
    ax.barh(y, share, color=colors, alpha=0.85, height=0.6)
    err = np.nan_to_num(np.maximum([share - lo, hi - share], 0.0))
    ax.errorbar(share, y, xerr=err, fmt="none", ecolor="black", capsize=4, lw=1.2)
    for yi, v, h in zip(y, share, hi):
        ax.text(h, yi, f"  {v:.1f}%", va="center", fontsize=8)
    if fair is not None:
        ax.axvline(fair * 100, color=GREY, ls="--", lw=1)
        ax.text(fair * 100, y.max() + 0.55, f" fair {fair * 100:.3g}%", color=GREY, va="bottom", fontsize=8)
    ax.set_yticks(y)
    ax.set_yticklabels(labels)
    ax.set_xlabel(xlabel)
    ax.set_xlim(0, max(100 * (fair or 0) * 1.5, float(np.nanmax(hi)) * 1.2 if len(hi) else 1, 1))
    ax.set_ylim(y.min() - 0.6, y.max() + 1.0)
    ax.grid(axis="x", alpha=0.3)
    return fig


def seat_figure(a: BalanceAnalysis):
    if a.solo or a.all_tied_rate == 1.0:
        return None
    t = a.seats
    colors = [RED if v == "favoured" else (BLUE if v == "disadvantaged" else GREY) for v in t.verdict]
    sn, _ = short_names(a.strategies)
    labels = [f"{r.label} ({'rotated' if a.seats_rotated else ', '.join(sn.get(x, x) for x in r.strategies.split(', '))})"
              for r in t.itertuples()]
    fig = _share_bars(labels, t.win_share, t.win_low, t.win_high, 1.0 / a.players, colors,
                      f"win share, % ({int(round(a.confidence * 100))}% Wilson interval)")
    return Figure("seats", "Win share by seat",
                  "Bars: win share (ties split); whiskers: Wilson interval; dashed: the fair share. "
                  + ("Grey: no seat verdict, since each seat's strategy is part of its share."
                     if a.seat_confounded else
                     "Red: favoured, blue: disadvantaged (Holm-adjusted test), grey: not "
                     "significant."),
                  _png(fig))


def strategy_figure(a: BalanceAnalysis):
    if a.solo or a.single_strategy:
        return None
    t = a.strategy_table
    fig = _share_bars(_short(a, t.strategy), t.win_share, t.win_low, t.win_high, 1.0 / a.players,
                      [BLUE] * len(t), "win share of the strategy's seats, %")
    return Figure("strategies", "Win share by strategy",
                  "A strategy's wins over all the seats it played; whiskers: Wilson interval.",
                  _png(fig))


def matchup_figure(a: BalanceAnalysis):
    if a.h2h is None:
        return None
    m = a.h2h.to_numpy(dtype=float) * 100
    k = m.shape[0]
    fig = _new(1.6 + 1.0 * k, 1.2 + 0.8 * k)
    ax = fig.add_subplot(1, 1, 1)
    im = ax.imshow(np.where(np.isnan(m), 50, m), cmap="RdBu_r", vmin=0, vmax=100)
    for i in range(k):
        for j in range(k):
            txt = "-" if np.isnan(m[i, j]) else f"{m[i, j]:.1f}%"
            ax.text(j, i, txt, ha="center", va="center", fontsize=9,
                    color="white" if not np.isnan(m[i, j]) and abs(m[i, j] - 50) > 30 else "black")
    ax.set_xticks(range(k))
    ax.set_xticklabels(_short(a, a.h2h.columns), rotation=30, ha="right")
    ax.set_yticks(range(k))
    ax.set_yticklabels(_short(a, a.h2h.index))
    ax.set_xlabel("opponent")
    ax.set_ylabel("strategy")
    fig.colorbar(im, ax=ax, fraction=0.046, pad=0.04, label="% finishing ahead")
    return Figure("matchups", "Head-to-head",
                  "Share of (row strategy, column strategy) seat pairs in the same game where the "
                  "row finished ahead (ties count half). Diagonal: two seats of the same strategy.",
                  _png(fig))


def ratings_figure(a: BalanceAnalysis):
    if a.ratings is None:
        return None
    t = a.ratings
    fig = _new(7.5, 0.8 + 0.45 * len(t) + 0.6)
    ax = fig.add_subplot(1, 1, 1)
    y = np.arange(len(t))[::-1]
    ax.errorbar(t.theta, y, xerr=np.maximum([t.theta - t.low, t.high - t.theta], 0.0), fmt="o", color=BLUE, capsize=4)
    ax.axvline(0, color=GREY, ls="--", lw=1)
    ax.set_yticks(y)
    ax.set_yticklabels(_short(a, t.strategy))
    ax.set_xlabel("Plackett-Luce log strength (centred)")
    ax.grid(axis="x", alpha=0.3)
    return Figure("ratings", "Strategy ratings",
                  "Plackett-Luce log strengths with their intervals: a difference of d means "
                  "finishing ahead with probability 1/(1+exp(-d)) in a two-seat comparison.",
                  _png(fig))


def _hist_lines(ax, values, counts, labels):
    for lab, c in zip(labels, counts):
        tot = c.sum()
        if tot == 0:
            continue
        ax.step(values, c / tot * 100, where="mid", label=lab, lw=1.4)
    ax.set_ylabel("% of rows")
    ax.grid(alpha=0.3)
    if len(labels) > 1:   # under the axes: never over the curves
        ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.22),
                  ncol=min(len(labels), 3), frameon=False)


def scores_figure(a: BalanceAnalysis):
    vals, counts = a.score_hist_strategy
    if counts.size == 0 or counts.sum() == 0:
        return None
    svals, scounts = a.score_hist_seat
    fig = _new(9, 3.4)
    ax1 = fig.add_subplot(1, 2, 1)
    _hist_lines(ax1, vals, counts, _short(a, a.strategies))
    ax1.set_xlabel("final score")
    ax1.set_title("by strategy", fontsize=10)
    ax2 = fig.add_subplot(1, 2, 2)
    _hist_lines(ax2, svals, scounts, [f"Seat {i + 1}" for i in range(a.players)])
    ax2.set_xlabel("final score")
    ax2.set_title("by seat", fontsize=10)
    return Figure("scores", "Score distributions", "Distribution of final scores.", _png(fig))


def component_label(column: str) -> str:
    """A score component's log column as a reader's label ("pts_dike" -> "dike")."""
    name = str(column)
    for prefix in ("pts_", "points_", "score_"):
        if name.startswith(prefix) and len(name) > len(prefix):
            name = name[len(prefix):]
    return name.replace("_", " ")


def components_figure(a: BalanceAnalysis):
    if a.components is None or a.components.shape[1] == 0:
        return None
    t = a.components
    fig = _new(7.5, 0.8 + 0.5 * len(t) + 0.8)
    ax = fig.add_subplot(1, 1, 1)
    y = np.arange(len(t))[::-1]
    left = np.zeros(len(t))
    for c in t.columns:
        v = t[c].to_numpy(dtype=float)
        ax.barh(y, v, left=left, height=0.6, label=component_label(c))
        left = left + v
    ax.set_yticks(y)
    ax.set_yticklabels(_short(a, t.index))
    ax.set_xlabel("mean points per game")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0),   # beside the bars
              frameon=False)
    ax.grid(axis="x", alpha=0.3)
    return Figure("components", "Score components by strategy",
                  "Mean points per game from each scoring source.", _png(fig))


def margin_figure(a: BalanceAnalysis):
    if a.solo or not a.margin or a.margin.get("n", 0) == 0:
        return None
    fig = _new(7.5, 3.0)
    ax = fig.add_subplot(1, 1, 1)
    v, c = a.margin["values"], a.margin["counts"]
    ax.bar(v, c / c.sum() * 100, width=0.9, color=BLUE)
    ax.set_xlabel("winner's score minus the runner-up's (0 = tie on score)")
    ax.set_ylabel("% of games")
    ax.grid(axis="y", alpha=0.3)
    return Figure("margin", "Margin of victory",
                  f"Median {a.margin['median']:g}, mean {a.margin['mean']:.2f}; "
                  f"{(a.tie_rate or 0) * 100:.1f}% of games end in a shared win.", _png(fig))


def length_figure(a: BalanceAnalysis):
    if not a.length:
        return None
    L = a.length
    fig = _new(7.5, 3.0)
    ax = fig.add_subplot(1, 1, 1)
    bottom = np.zeros(len(L["values"]))
    total = max(int(L["counts"].sum()), 1)
    for name, st in L["by_reason"].items():
        c = st["counts"] / total * 100
        ax.bar(L["values"], c, bottom=bottom, width=0.9, label=name)
        bottom = bottom + c
    ax.set_xlabel(f"game length ({L['unit'] or L['column']})")
    ax.set_ylabel("% of games")
    if len(L["by_reason"]) > 1:
        ax.legend(fontsize=8, title="ended by", title_fontsize=8, loc="upper left",
                  bbox_to_anchor=(1.01, 1.0), frameon=False)   # beside the bars
    ax.grid(axis="y", alpha=0.3)
    return Figure("length", "Game length and how games end",
                  f"Mean {L['mean']:.1f}, median {L['median']:g}; colours: how the game ended.", _png(fig))


def card_forest_figure(a: BalanceAnalysis, k: int):
    sec = a.cards[k]
    t = sec.table
    solo = a.solo
    e = "score_vs_peers" if solo else "vs_peers"
    shown = t[t.taken > 0].sort_values(e)
    if len(shown) == 0:
        return None
    scale = 1.0 if solo else 100.0
    fig = _new(8, 1.0 + 0.28 * len(shown) + 0.6)
    ax = fig.add_subplot(1, 1, 1)
    y = np.arange(len(shown))
    eff = shown[e].to_numpy(dtype=float) * scale
    lo = shown[e + "_low"].to_numpy(dtype=float) * scale
    hi = shown[e + "_high"].to_numpy(dtype=float) * scale
    colors = [RED if f == "over-performs" else BLUE if f == "under-performs" else GREY for f in shown.flag]
    lo = np.where(np.isnan(lo), eff, lo)
    hi = np.where(np.isnan(hi), eff, hi)
    ax.hlines(y, lo, hi, colors=colors, lw=2)
    ax.scatter(eff, y, color=colors, zorder=3, s=18)
    ax.axvline(0, color=GREY, ls="--", lw=1)
    from analysis.metadata import component_name, value_text
    vt = [value_text(sec.unit if sec.kind == "card" else "", v) for v in shown.value]
    labels = [component_name(n, sec.type, t) for n, t in zip(shown.name, vt)]
    ax.set_yticks(y)
    ax.set_yticklabels(labels, fontsize=8)
    ax.set_xlabel(("mean score when taken minus the other cards' takers" if solo else
                   "win share when taken minus the other cards' takers (points of %)"))
    ax.grid(axis="x", alpha=0.3)
    never = sec.never_taken
    title = sec.label
    outcome = sec.kind == "outcome"
    if never:
        title += f" ({len(never)} {'never happened' if outcome else 'never taken'}: not shown)"
    ax.set_title(title, fontsize=10)
    if outcome:
        ax.set_xlabel("mean score when it happened minus the other outcomes" if solo else
                      "win share when it happened minus the other outcomes (points of %)")
        return Figure(f"cards-{sec.type}", f"{sec.label}: effect of each outcome",
                      "Each outcome against the other outcomes of its kind (Newcombe interval "
                      "for a difference of proportions" + (", Welch for scores" if solo else "")
                      + "). Red: above, blue: below, grey: within the noise or below the "
                      "practical threshold.", _png(fig))
    return Figure(f"cards-{sec.type}", f"{sec.label}: effect of taking each card",
                  "Each card against the other cards of its type (Newcombe interval for a "
                  "difference of proportions" + (", Welch for scores" if solo else "") +
                  "). Red: over-performs, blue: under-performs, grey: within the noise "
                  "or below the practical threshold.", _png(fig))


def card_timing_figure(a: BalanceAnalysis, k: int):
    sec = a.cards[k]
    if sec.days is None:
        return None
    d = sec.days[:, 1:].astype(float)
    last = int(np.max(np.nonzero(d.sum(axis=0))[0]) + 1) if d.sum() > 0 else 0
    if last == 0:
        return None
    d = d[:, :last]
    rows = d.sum(axis=1, keepdims=True)
    share = np.divide(d, rows, out=np.zeros_like(d), where=rows > 0) * 100
    n = len(sec.table)
    fig = _new(1.8 + 0.8 * last + 2.5, 1.0 + 0.25 * n)
    ax = fig.add_subplot(1, 1, 1)
    im = ax.imshow(share, aspect="auto", cmap="Blues", vmin=0, vmax=max(float(share.max()), 1.0))
    ax.set_xticks(range(last))
    ax.set_xticklabels([f"{sec.time_unit} {i + 1}" for i in range(last)], fontsize=8)
    ax.set_yticks(range(n))
    ax.set_yticklabels([f"{nm}" + (" (never)" if rows[i, 0] == 0 else "")
                        for i, nm in enumerate(sec.table.name)], fontsize=7)
    fig.colorbar(im, ax=ax, fraction=0.046, pad=0.04, label=f"% of takes in that {sec.time_unit}")
    return Figure(f"timing-{sec.type}", f"{sec.label}: when they are taken",
                  f"For each card, the share of its takes in each {sec.time_unit}.", _png(fig))


NAMED = ("seats", "strategies", "matchups", "ratings", "scores", "components")  # show strategies


def make_figures(a: BalanceAnalysis) -> list[Figure]:
    out = []
    _, legend = short_names(a.strategies)
    for fn in (seat_figure, strategy_figure, matchup_figure, ratings_figure, scores_figure,
               components_figure, margin_figure, length_figure):
        f = fn(a)
        if f is not None:
            if legend and f.key in NAMED:
                f.caption = f"{f.caption} {legend}"
            out.append(f)
    for k in range(len(a.cards)):
        for fn in (card_forest_figure, card_timing_figure):
            f = fn(a, k)
            if f is not None:
                out.append(f)
    return out


def breakdown_figures(a: BalanceAnalysis) -> list:
    """Win share by the value of each declared breakdown column (analysis/breakdowns.py)."""
    figs = []
    fair = None if a.solo else 1.0 / a.players
    for b in a.breakdowns:
        if b.kind != "breakdown" or b.table.empty:
            continue
        t = b.table
        if b.grouping == "game" and "game_share" in t:   # the same for every seat: games
            fig = _share_bars([f"{b.label} {v}" for v in t["value"]], t["game_share"],
                              t["game_low"], t["game_high"], None, [BLUE] * len(t),
                              "games (%), 95% interval")
            figs.append(Figure(f"breakdown-{b.column}", f"Games by {b.label.lower()}",
                               b.question or f"Games grouped by {b.column}.", _png(fig)))
            continue
        fig = _share_bars([f"{b.label} {v}" for v in t["value"]], t["win_share"], t["win_low"], t["win_high"],
                          fair, [BLUE] * len(t), "win share (%), 95% interval")
        figs.append(Figure(f"breakdown-{b.column}", f"Win share by {b.label.lower()}",
                           b.question or f"Seats grouped by {b.column}.", _png(fig)))
    return figs


# --- the first screen's small charts (reports/first_screen.py) ------------------------------
MINI_WIDTH = 3.9     # inches at DPI: about 390 px, three side by side on a 1280 px screen


def mini_share_chart(key: str, title: str, labels, share, lo, hi, fair, colors) -> Figure:
    """A small win-share chart: bars, whiskers (interval) and the fair share dashed."""
    n = len(labels)
    fig = _new(MINI_WIDTH, 0.55 + 0.3 * n)
    ax = fig.add_subplot(1, 1, 1)
    y = np.arange(n)[::-1]
    share, lo, hi = (np.asarray(v, dtype=float) * 100 for v in (share, lo, hi))
    ax.barh(y, share, color=colors, alpha=0.85, height=0.6)
    err = np.nan_to_num(np.maximum([share - lo, hi - share], 0.0))
    ax.errorbar(share, y, xerr=err, fmt="none", ecolor="black", capsize=2.5, lw=1)
    if fair is not None:
        ax.axvline(fair * 100, color=GREY, ls="--", lw=1)
    ax.set_yticks(y)
    ax.set_yticklabels(labels, fontsize=7)
    ax.tick_params(axis="x", labelsize=7)
    top = max(100 * (fair or 0) * 1.5, float(np.nanmax(hi)) * 1.1 if n else 1.0, 1.0)
    ax.set_xlim(0, min(top, 100.0))
    ax.set_xlabel("win share, %", fontsize=7)
    ax.grid(axis="x", alpha=0.3)
    return Figure(key, title, "", _png(fig))


def mini_effect_chart(key: str, title: str, effect: float, low: float, high: float,
                      span: float, color: str, unit: str) -> Figure:
    """One effect with its interval on an axis centred on zero (+/- span): the cards of the
    first screen share one span, so their charts read side by side."""
    fig = _new(MINI_WIDTH, 0.62)
    ax = fig.add_subplot(1, 1, 1)
    ax.hlines(0, low, high, colors=color, lw=2.5)
    ax.scatter([effect], [0], color=color, zorder=3, s=22)
    ax.axvline(0, color=GREY, ls="--", lw=1)
    ax.set_xlim(-span, span)
    ax.set_ylim(-0.5, 0.5)
    ax.set_yticks([])
    ax.tick_params(axis="x", labelsize=7, length=2, pad=1)
    ax.set_xlabel(unit, fontsize=7, labelpad=1)
    for side in ("left", "right", "top"):
        ax.spines[side].set_visible(False)
    return Figure(key, title, "", _png(fig))
