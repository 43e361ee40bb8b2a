"""Reports of the designer's commands (compare, sweep, tune): figures and documents, rendered
to HTML and Markdown by reports/html.py and reports/markdown.py like the balance report."""
from __future__ import annotations

import math

import numpy as np

from analysis.cards import BASELINE as CARD_BASELINE
from analysis.designer import Comparison, SweepResult
from reports.document import Document, Section, Table
from reports.figures import BLUE, GREY, RED, Figure, _new, _png
from reports.output import ReportFolder, render_into

PALETTE = ["#3b6fb6", "#c44e52", "#55a868", "#8172b2", "#ccb974", "#64b5cd", "#8c8c8c"]


def _pct(x):
    return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:.1f}%"


def _pci(p, lo, hi):
    return f"{_pct(p)} ({_pct(lo)}-{_pct(hi)})"


def write_document(doc: Document, out_dir: str, formats=("html", "md")) -> dict:
    """Write a designer report into `out_dir` (reports/output.py: never over a user's files)."""
    return render_into(ReportFolder(out_dir), doc, formats)


# ---------------------------------------------------------------------------------------
# compare
# ---------------------------------------------------------------------------------------
def compare_figures(c: Comparison) -> list:
    figs = []
    k = len(c.strategies)
    if k > 1:
        fig = _new(1.6 + 1.1 * k, 1.2 + 0.9 * k)
        ax = fig.add_subplot(1, 1, 1)
        m = c.h2h.to_numpy(float)
        im = ax.imshow(np.where(np.isnan(m), 0.5, m), cmap="RdBu", vmin=0.2, vmax=0.8)
        for i in range(k):
            for j in range(k):
                if i != j and not math.isnan(m[i, j]):
                    ax.text(j, i, f"{100 * m[i, j]:.1f}%\n({100 * c.h2h_lo.iat[i, j]:.1f}-"
                                  f"{100 * c.h2h_hi.iat[i, j]:.1f})", ha="center", va="center",
                            fontsize=8, color="white" if abs(m[i, j] - 0.5) > 0.22 else "black")
        ax.set_xticks(range(k), c.strategies, rotation=30, ha="right")
        ax.set_yticks(range(k), c.strategies)
        ax.set_xlabel("opponent")
        ax.set_ylabel("strategy")
        fig.colorbar(im, ax=ax, fraction=0.046, pad=0.04)
        figs.append(Figure("matchups", "Head-to-head",
                           "Share of meetings in which the row strategy finished ahead of the "
                           "column strategy (ties count half), with 95% intervals.", _png(fig)))
        r = c.ratings
        fig = _new(7.0, 0.9 + 0.45 * k)
        ax = fig.add_subplot(1, 1, 1)
        order = list(r.sort_values("theta").index)
        y = np.arange(len(order))
        ax.errorbar(r.loc[order, "theta"], y, xerr=[r.loc[order, "theta"] - r.loc[order, "lo"],
                                                    r.loc[order, "hi"] - r.loc[order, "theta"]],
                    fmt="o", color=BLUE, capsize=4)
        ax.axvline(0, color=GREY, lw=1, ls="--")
        ax.set_yticks(y, order)
        ax.set_xlabel("Plackett-Luce log-strength (centred), 95% interval")
        figs.append(Figure("ratings", "Ratings",
                           "Plackett-Luce strengths from every game's finishing order.", _png(fig)))
    s = c.shares
    fig = _new(7.0, 0.9 + 0.45 * k)
    ax = fig.add_subplot(1, 1, 1)
    y = np.arange(k)
    ax.barh(y, s["win_share"], color=[PALETTE[i % len(PALETTE)] for i in range(k)], alpha=.8)
    ax.errorbar(s["win_share"], y, xerr=[s["win_share"] - s["lo"], s["hi"] - s["win_share"]],
                fmt="none", color="black", capsize=4)
    ax.axvline(1.0 / c.players, color=RED, ls="--", lw=1, label=f"fair share 1/{c.players}")
    ax.set_yticks(y, list(s.index))
    ax.set_xlabel("win share of the strategy's seats, 95% interval")
    ax.legend(loc="lower right", fontsize=8)
    figs.append(Figure("shares", "Win share by strategy",
                       "Every strategy sat in every seat equally often.", _png(fig)))
    return figs


def compare_document(c: Comparison, manifest: dict, header: dict) -> Document:
    figs = {f.key: f for f in compare_figures(c)}
    verdict = Section("Verdicts", "verdicts", [list(c.verdicts)])
    ev = Section("Evidence", "evidence", [])
    for key in ("matchups", "ratings", "shares"):
        if key in figs:
            ev.blocks.append(figs[key])
    ev.blocks.append(Table(["strategy", "win share (95%)", "mean score", "rows", "verdict"],
                           [[n, _pci(r.win_share, r.lo, r.hi), f"{r.mean_score:.2f}", int(r.rows),
                             c.status.get(n, "")] for n, r in c.shares.iterrows()],
                           "Win share of each strategy over all its seats."))
    if not c.ratings.empty:
        ev.blocks.append(Table(["strategy", "log-strength", "s.e.", "95% interval"],
                               [[n, f"{r.theta:+.3f}", f"{r.se:.3f}", f"{r.lo:+.3f} to {r.hi:+.3f}"]
                                for n, r in c.ratings.iterrows()], "Plackett-Luce ratings."))
    ev.blocks.append(Table(["seat", "win share (95%)", "mean score"],
                           [[f"seat {int(i) + 1}", _pci(r.win_share, r.lo, r.hi), f"{r.mean_score:.2f}"]
                            for i, r in c.seats.iterrows()], "Seats, all seatings pooled."))
    what = Section("What was run", "run", [[
        f"game: {manifest.get('title', manifest.get('game'))}, {c.players} players, variant "
        f"{manifest.get('variant')}",
        f"strategies: {', '.join(c.strategies)}; {c.n_seatings} seatings x "
        f"{c.games_per_seating:,} games (the same game seeds in every seating)",
        f"seed {manifest.get('seed')}, component file {manifest.get('components', {}).get('path')} "
        f"(sha256 {str(manifest.get('components', {}).get('sha256'))[:12]}), overrides "
        f"{manifest.get('components', {}).get('overrides') or 'none'}",
        *header.get("notes", []),
    ]])
    return Document(f"Strategy comparison: {manifest.get('title', manifest.get('game'))}",
                    f"{', '.join(c.strategies)} at {c.players} players", [verdict, ev, what])


# ---------------------------------------------------------------------------------------
# sweep
# ---------------------------------------------------------------------------------------
def _numeric_axis(labels):
    try:
        return [float(str(l).split("=", 1)[1]) for l in labels], True
    except (ValueError, IndexError):
        return list(range(len(labels))), False


def _band_plot(ax, x, rows, label, color):
    ax.plot(x, rows["win_share"], "-o", color=color, label=label, ms=4)
    ax.fill_between(x, rows["lo"], rows["hi"], color=color, alpha=.18)


def sweep_figures(r: SweepResult, varied: str, players: int) -> list:
    x, numeric = _numeric_axis(r.labels)
    figs = []
    for key, col, title in (("seat", "seat", "Win share by seat"),
                            ("strategy", "strategy", "Win share by strategy")):
        t = getattr(r, key)
        groups = sorted(t[col].unique(), key=str)
        if key == "strategy" and len(groups) < 2:
            continue
        fig = _new(7.5, 3.8)
        ax = fig.add_subplot(1, 1, 1)
        for i, g in enumerate(groups):
            rows = t[t[col] == g].sort_values("point")
            _band_plot(ax, x, rows, f"seat {int(g) + 1}" if key == "seat" else str(g),
                       PALETTE[i % len(PALETTE)])
        if players > 1:
            ax.axhline(1.0 / players, color=GREY, ls="--", lw=1)
        ax.set_xlabel(varied)
        ax.set_ylabel("win share (95% band)")
        if not numeric:
            ax.set_xticks(x, r.labels, rotation=30, ha="right", fontsize=7)
        ax.legend(fontsize=8)
        figs.append(Figure(f"sweep-{key}", title, f"Against {varied}; every point plays the same "
                           "games (same seeds).", _png(fig)))
    if r.card is not None:
        fig = _new(7.5, 3.8)
        ax = fig.add_subplot(1, 1, 1)
        c = r.card.sort_values("point")
        ax.plot(x, c["take_rate"], "-o", color=BLUE, label="games where it is taken", ms=4)
        ax.fill_between(x, c["lo"], c["hi"], color=BLUE, alpha=.18)
        ax.plot(x, c["win_taken"], "-s", color=RED, label="win share of seats taking it", ms=4)
        ax.fill_between(x, c["win_taken_lo"], c["win_taken_hi"], color=RED, alpha=.18)
        ax.plot(x, c["win_base"], "-^", color=GREY, ms=4,
                label="win share of " + (r.card_baseline or CARD_BASELINE))
        ax.set_xlabel(varied)
        ax.set_ylabel("share (95% band)")
        ax.legend(fontsize=8)
        figs.append(Figure("sweep-card", f"The varied card ({r.card_label})",
                           "How often it is taken and what taking it is worth.", _png(fig)))
    if not r.components.empty:
        fig = _new(7.5, 3.8)
        ax = fig.add_subplot(1, 1, 1)
        for i, comp in enumerate(sorted(r.components["component"].unique())):
            rows = r.components[r.components["component"] == comp].sort_values("point")
            if float(rows["mean"].abs().max()) == 0.0:
                continue
            ax.plot(x, rows["mean"], "-o", color=PALETTE[i % len(PALETTE)], label=comp, ms=4)
            ax.fill_between(x, rows["lo"], rows["hi"], color=PALETTE[i % len(PALETTE)], alpha=.18)
        ax.set_xlabel(varied)
        ax.set_ylabel("mean points per seat")
        ax.legend(fontsize=8)
        figs.append(Figure("sweep-components", "Score components", "Mean points per seat.",
                           _png(fig)))
    return figs


def sweep_document(r: SweepResult, varied: str, manifest: dict, header: dict) -> Document:
    players = int(manifest.get("players", 1))
    figs = sweep_figures(r, varied, players)
    verdicts = []
    seat = r.seat
    for i, label in enumerate(r.labels):
        rows = seat[seat["point"] == i]
        if players > 1:
            out = rows[(rows["lo"] > 1 / players) | (rows["hi"] < 1 / players)]
            word = ("seats fair within their intervals" if out.empty else
                    "; ".join(f"seat {int(s.seat) + 1} {_pci(s.win_share, s.lo, s.hi)}"
                              for s in out.itertuples()) + f" against a fair {_pct(1 / players)}")
            verdicts.append(f"{label}: {word}.")
    if r.card is not None:
        c = r.card
        verdicts.append(f"{r.card_label}: taken in {_pct(c['take_rate'].iloc[0])} of games at "
                        f"{r.labels[0]}, {_pct(c['take_rate'].iloc[-1])} at {r.labels[-1]}; its "
                        f"takers win {c['gap'].iloc[0] * 100:+.1f} pp against {r.card_baseline} at "
                        f"{r.labels[0]}, {c['gap'].iloc[-1] * 100:+.1f} pp at {r.labels[-1]}"
                        + (f"; {r.card_response}." if r.card_response else "."))
    sig = r.paired[(r.paired["lo"] > 0) | (r.paired["hi"] < 0)] if not r.paired.empty else r.paired
    if not r.paired.empty:
        verdicts.append(f"{len(sig)} of {len(r.paired)} paired steps between neighbouring values move "
                        f"a quantity beyond its 95% interval.")
    ev = Section("Evidence", "evidence", list(figs))
    ev.blocks.append(Table(["point", "seat", "win share (95%)", "mean score"],
                           [[r.labels[int(t.point)], f"seat {int(t.seat) + 1}",
                             _pci(t.win_share, t.lo, t.hi), f"{t.mean_score:.2f}"]
                            for t in seat.itertuples()], "Win share by seat at every point."))
    if r.strategy["strategy"].nunique() > 1:
        ev.blocks.append(Table(["point", "strategy", "win share (95%)", "mean score"],
                               [[r.labels[int(t.point)], t.strategy, _pci(t.win_share, t.lo, t.hi),
                                 f"{t.mean_score:.2f}"] for t in r.strategy.itertuples()],
                               "Win share by strategy at every point."))
    if r.card is not None:
        ev.blocks.append(Table(["point", "taken in (games)", "win share when taken",
                                "win share of " + (r.card_baseline or CARD_BASELINE), "gap (95%)"],
                               [[r.labels[int(t.point)], _pci(t.take_rate, t.lo, t.hi),
                                 _pci(t.win_taken, t.win_taken_lo, t.win_taken_hi),
                                 _pci(t.win_base, t.win_base_lo, t.win_base_hi),
                                 f"{100 * t.gap:+.1f} pp ({100 * t.gap_lo:+.1f} to "
                                 f"{100 * t.gap_hi:+.1f})"]
                                for t in r.card.itertuples()], f"The varied card: {r.card_label}."))
    if not r.paired.empty:
        ev.blocks.append(Table(["from", "to", "quantity", "paired difference (95%)"],
                               [[t["from"], t["to"], t["quantity"],
                                 f"{100 * t['diff']:+.2f} pp ({100 * t['lo']:+.2f} to {100 * t['hi']:+.2f})"]
                                for t in r.paired.to_dict("records")],
                               "Differences between neighbouring values on the same games."))
    what = Section("What was run", "run", [[
        f"game: {manifest.get('title', manifest.get('game'))}, {players} players, strategies "
        f"{', '.join(manifest.get('strategy_names', []))}",
        f"varied: {varied}; {len(r.labels)} points x {r.games:,} games, the same seeds at every point",
        f"seed {manifest.get('seed')}, component file {manifest.get('components', {}).get('path')}",
        *header.get("notes", []),
    ]])
    return Document(f"Sweep: {varied}", f"{manifest.get('title', manifest.get('game'))}, "
                    f"{players} players", [Section("Verdicts", "verdicts", [verdicts]), ev, what])


# ---------------------------------------------------------------------------------------
# tune
# ---------------------------------------------------------------------------------------
def tune_document(history: list, labels: list, best: int, baseline: int | None, objective: str,
                  before: SweepResult | None, manifest: dict, suggested_file: str,
                  header: dict) -> Document:
    x, numeric = _numeric_axis(labels)
    fig = _new(7.5, 3.8)
    ax = fig.add_subplot(1, 1, 1)
    for rnd, h in enumerate(history):
        pts = [p for p in h["points"]]
        xs = [x[p["point"]] for p in pts]
        ax.errorbar(xs, [p["value"] for p in pts], yerr=[1.96 * p["se"] for p in pts], fmt="o",
                    capsize=3, color=PALETTE[rnd % len(PALETTE)],
                    label=f"round {rnd + 1}: {h['games']:,} games")
    ax.axvline(x[best], color=RED, ls="--", lw=1, label=f"chosen: {labels[best]}")
    ax.set_xlabel(labels[0].split("=")[0] if numeric else "point")
    ax.set_ylabel(f"{objective} (smaller is better)")
    if not numeric:
        ax.set_xticks(x, labels, rotation=30, ha="right", fontsize=7)
    ax.legend(fontsize=8)
    figs = [Figure("tune", "Search", "Successive halving: every round keeps the better half of the "
                   "values and plays more games on the same seeds.", _png(fig))]
    last = history[-1]["points"]
    best_row = next(p for p in last if p["point"] == best)
    verdicts = [f"Suggested: {labels[best]} ({objective} {best_row['value']:.4f} +/- "
                f"{1.96 * best_row['se']:.4f}), written to {suggested_file}."]
    table_rows = []
    if baseline is not None:
        base_row = None
        for h in history:
            for p in h["points"]:
                if p["point"] == baseline:
                    base_row = p
        if base_row:
            verdicts.append(f"Before ({labels[baseline]}): {objective} {base_row['value']:.4f} +/- "
                            f"{1.96 * base_row['se']:.4f}; after: {best_row['value']:.4f} +/- "
                            f"{1.96 * best_row['se']:.4f}.")
            table_rows.append([labels[baseline], "before", f"{base_row['value']:.4f}",
                               f"{1.96 * base_row['se']:.4f}", base_row["games"]])
    table_rows.append([labels[best], "after", f"{best_row['value']:.4f}",
                       f"{1.96 * best_row['se']:.4f}", best_row["games"]])
    blocks = list(figs) + [Table(["value", "", objective, "95% half-width", "games"], table_rows,
                                 "Before and after, on the same seeds.")]
    if before is not None:
        blocks += sweep_figures(before, labels[0].split("=")[0], int(manifest.get("players", 1)))
    what = Section("What was run", "run", [[
        f"game: {manifest.get('title', manifest.get('game'))}, {manifest.get('players')} players, "
        f"strategies {', '.join(manifest.get('strategy_names', []))}",
        f"objective: {objective}; values: {', '.join(labels)}",
        *header.get("notes", []),
    ]])
    return Document(f"Tune: {objective}", f"{manifest.get('title', manifest.get('game'))}",
                    [Section("Verdicts", "verdicts", [verdicts]),
                     Section("Evidence", "evidence", blocks), what])
