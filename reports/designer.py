"""Reports of the designer's commands (compare, sweep, tune): figures and documents, rendered
to HTML and Markdown by reports/html.py and reports/markdown.py like the balance report."""
from __future__ import annotations

import math

import numpy as np

from sim import formatting as F
from analysis.cards import BASELINE as CARD_BASELINE
from analysis.designer import Comparison, SweepResult
from sim.stats import z_value
from reports.document import Document, Section, Table
from reports.figures import BLUE, GREY, RED, Figure, _new, _png, short_names
from reports.output import ReportFolder, render_into
from reports.notes import note_text

Z95 = z_value(0.95)
PALETTE = ["#3b6fb6", "#c44e52", "#55a868", "#8172b2", "#ccb974", "#64b5cd", "#8c8c8c"]


# the one formatting module (sim/formatting.py): the same form as the run report
_pct = F.share
_pci = F.share_interval



def sweep_response_text(step: dict) -> str:
    """Whether the players respond to the varied card's value, in words (from
    analysis.designer's paired step: `take` = (change per point, low, high), `word`)."""
    m, lo, hi = step["take"]
    rate = f"take rate {100 * m:+.2f} pp per point ({100 * lo:+.2f} to {100 * hi:+.2f})"
    if step["word"] == "players do not respond":
        return f"the players do not respond to its value ({rate})"
    if step["word"] == "players respond":
        return f"the players respond to its value ({rate})"
    return f"whether the players respond to its value is unclear ({rate})"


def _position_line(subject: str, share, lo, hi, fair, verdict, p_holm) -> str:
    tail = (" (no significant difference)" if verdict == "fair"
            else f" (Holm-adjusted p = {_p(p_holm)})")
    return f"{subject} wins {_pci(share, lo, hi)} against a fair {_pct(fair)}: {verdict}{tail}."


def fairness_lines(c: Comparison) -> list:
    """The start positions and the seats of a comparison (every seating pooled, so each
    strategy sat in each seat equally often), tested against the fair share with Holm across
    the positions and across the seats; the game's fairness question first."""
    if c.players < 2 or "verdict" not in c.seats:
        return []
    fair = 1.0 / c.players
    seats = [_position_line(f"Seat {int(k) + 1}", r.win_share, r.win_low, r.win_high, fair,
                            r.verdict, r.p_holm) for k, r in c.seats.iterrows()]
    start = []
    if c.start is not None:
        start = [_position_line(f"Start position {r.value}" + (" (start player)"
                                                                if r.value == 1 else ""),
                                r.win_share, r.win_low, r.win_high, fair, r.verdict,
                                r.p_holm)
                 for r in c.start.table.itertuples()]
    if c.start_info.get("leads"):
        return start + [f"Seat numbers come second: {c.start_info.get('note')}."] + seats
    note = c.start_info.get("note")
    return seats + start + ([f"Start position: {note}."] if note and not start else [])


def compare_verdicts(c: Comparison) -> list:
    """The plain-language lines of a comparison: each strategy's win share and standing, then
    every pair's head-to-head (pooled share of their meetings, interval over games)."""
    out = fairness_lines(c)
    for a in c.strategies:
        s = c.shares.loc[a]
        out.append(f"{a}: wins {F.share_interval(s.win_share, s.win_low, s.win_high)} of its "
                   f"seats; "
                   f"{c.status[a]}.")
    for i, a in enumerate(c.strategies):
        for b in c.strategies[i + 1:]:
            p, l_, h_ = c.h2h.loc[a, b], c.h2h_lo.loc[a, b], c.h2h_hi.loc[a, b]
            if l_ > 0.5:
                word = f"{a} finishes ahead of {b}"
            elif h_ < 0.5:
                word = f"{b} finishes ahead of {a}"
            else:
                word = f"{a} and {b} are indistinguishable"
            out.append(f"{word}: {a} ahead in {F.share_interval(p, l_, h_)} of their meetings "
                       f"over {int(c.h2h_games.loc[a, b]):,} games.")
    return out


def write_document(doc: Document, out_dir: str, formats=("html", "md")) -> dict:
    """Write a designer report into `out_dir` (reports/output.py: never over a user's files)."""
    return render_into(ReportFolder(out_dir), doc, formats)


# ---------------------------------------------------------------------------------------
# compare
# ---------------------------------------------------------------------------------------
def compare_figures(c: Comparison) -> list:
    figs = []
    k = len(c.strategies)
    sn, legend = short_names(c.strategies)   # long names (file paths) shortened, legend below
    short = lambda names: [sn.get(str(n), str(n)) for n in names]  # noqa: E731
    legend = f" {legend}" if legend else ""
    if k > 1:
        fig = _new(1.6 + 1.1 * k, 1.2 + 0.9 * k)
        ax = fig.add_subplot(1, 1, 1)
        m = c.h2h.to_numpy(float)
        im = ax.imshow(np.where(np.isnan(m), 0.5, m), cmap="RdBu", vmin=0.2, vmax=0.8)
        for i in range(k):
            for j in range(k):
                if i != j and not math.isnan(m[i, j]):
                    ax.text(j, i, f"{F.share(m[i, j])}\n({F.interval(c.h2h_lo.iat[i, j], c.h2h_hi.iat[i, j])})", ha="center", va="center",
                            fontsize=8, color="white" if abs(m[i, j] - 0.5) > 0.22 else "black")
        ax.set_xticks(range(k), short(c.strategies), rotation=30, ha="right")
        ax.set_yticks(range(k), short(c.strategies))
        ax.set_xlabel("opponent")
        ax.set_ylabel("strategy")
        fig.colorbar(im, ax=ax, fraction=0.046, pad=0.04)
        figs.append(Figure("matchups", "Head-to-head",
                           "Share of meetings in which the row strategy finished ahead of the "
                           "column strategy (ties count half), with 95% intervals." + legend,
                           _png(fig)))
        r = c.ratings
    if k > 1 and not c.ratings.attrs.get("not_estimable"):
        fig = _new(7.0, 0.9 + 0.45 * k)
        ax = fig.add_subplot(1, 1, 1)
        order = list(r.sort_values("theta").index)
        y = np.arange(len(order))
        ax.errorbar(r.loc[order, "theta"], y, xerr=[r.loc[order, "theta"] - r.loc[order, "low"],
                                                    r.loc[order, "high"] - r.loc[order, "theta"]],
                    fmt="o", color=BLUE, capsize=4)
        ax.axvline(0, color=GREY, lw=1, ls="--")
        ax.set_yticks(y, short(order))
        ax.set_xlabel("Plackett-Luce log-strength (centred), 95% interval")
        figs.append(Figure("ratings", "Ratings",
                           "Plackett-Luce strengths from every game's finishing order." + legend,
                           _png(fig)))
    s = c.shares
    fig = _new(7.0, 0.9 + 0.45 * k)
    ax = fig.add_subplot(1, 1, 1)
    y = np.arange(k)
    ax.barh(y, s["win_share"], color=[PALETTE[i % len(PALETTE)] for i in range(k)], alpha=.8)
    ax.errorbar(s["win_share"], y, xerr=[s["win_share"] - s["win_low"],
                                         s["win_high"] - s["win_share"]],
                fmt="none", color="black", capsize=4)
    ax.axvline(1.0 / c.players, color=RED, ls="--", lw=1, label=f"fair share 1/{c.players}")
    ax.set_yticks(y, short(s.index))
    ax.set_xlabel("win share of the strategy's seats, 95% interval")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    figs.append(Figure("shares", "Win share by strategy",
                       "Every strategy sat in every seat equally often." + legend, _png(fig)))
    return figs


def compare_document(c: Comparison, manifest: dict, header: dict) -> Document:
    figs = {f.key: f for f in compare_figures(c)}
    verdict = Section("Verdicts", "verdicts", [list(c.verdicts or compare_verdicts(c))])
    ev = Section("Evidence", "evidence", [])
    for key in ("matchups", "ratings", "shares"):
        if key in figs:
            ev.blocks.append(figs[key])
    ev.blocks.append(Table(["strategy", "win share (95%)", "mean score", "rows", "verdict"],
                           [[n, _pci(r.win_share, r.win_low, r.win_high), F.num(r.mean_score),
                             F.count(r.rows),
                             c.status.get(n, "")] for n, r in c.shares.iterrows()],
                           "Win share of each strategy over all its seats."))
    why = note_text(c.ratings.attrs.get("not_estimable")) if not c.ratings.empty else ""
    if why:   # never a table of s.e. 0.000 and zero-width intervals
        ev.blocks.append(f"Plackett-Luce ratings not estimable: {why}, so no finite strength "
                         f"fits these games.")
    elif not c.ratings.empty:
        ev.blocks.append(Table(["strategy", "log-strength", "s.e.", "95% interval"],
                               [[n, F.theta(r.theta), F.num(r.se, 3),
                                 F.theta_interval(r.low, r.high)]
                                for n, r in c.ratings.iterrows()], "Plackett-Luce ratings."))
    tested = "verdict" in c.seats
    ev.blocks.append(Table(["seat", "win share (95%)", "mean score"]
                           + (["p (Holm)", "verdict"] if tested else []),
                           [[f"seat {int(i) + 1}", _pci(r.win_share, r.win_low, r.win_high),
                             f"{r.mean_score:.2f}"] + ([_p(r.p_holm), r.verdict] if tested else [])
                            for i, r in c.seats.iterrows()],
                           "Seats, all seatings pooled (Holm across the seats)."))
    if c.start is not None:
        ev.blocks.append(Table(["start position", "win share (95%)", "mean score", "p (Holm)",
                                "verdict"],
                               [[str(r.value), _pci(r.win_share, r.win_low, r.win_high),
                                 f"{r.mean_score:.2f}", _p(r.p_holm), r.verdict]
                                for r in c.start.table.itertuples()],
                               "Start positions (1 = the start player), all seatings pooled, "
                               "against the fair share; Holm across the positions."))
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


def _band_plot(ax, x, rows, label, color, joined=True,
               columns=("win_share", "win_low", "win_high")):
    """A quantity against the swept value with its 95% band (`columns`: the estimate and its
    bounds); points that are not in an order (grid cells of three or more fields) are drawn
    apart, never joined by a line."""
    value, low, high = columns
    if joined:
        ax.plot(x, rows[value], "-o", color=color, label=label, ms=4)
        ax.fill_between(x, rows[low], rows[high], color=color, alpha=.18)
    else:
        y = rows[value].to_numpy(float)
        ax.errorbar(x, y, yerr=[y - rows[low].to_numpy(float), rows[high].to_numpy(float) - y],
                    fmt="o", color=color, label=label, ms=4, capsize=2)


def _positions(values):
    """x positions of one field's values: the numbers themselves, else their order."""
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        return [float(v) for v in values], True
    return list(range(len(values))), False


def _grid_figures(r: SweepResult, players: int) -> list:
    """A two-field sweep drawn as a grid: the first field along x, one line per value of the
    second field, one panel per seat (per strategy, per score component)."""
    from sim.designer import format_value
    (p1, v1), (p2, v2) = r.axes
    x, numeric = _positions(v1)
    n2 = len(v2)

    def panels(key, table, groups, title_of, value, lo, hi, ylabel, title, caption, fair=None,
               fig_key=None):
        cols = min(len(groups), 3)
        nrows = int(math.ceil(len(groups) / cols))
        fig = _new(4.0 * cols + 0.5, 3.0 * nrows + 0.4)
        t = table.set_index("point")
        for gi, g in enumerate(groups):
            ax = fig.add_subplot(nrows, cols, gi + 1)
            sub = t if g is None else t[t[key] == g]
            for k in range(n2):
                pts = [i * n2 + k for i in range(len(v1))]   # itertools.product order
                rows = sub.loc[pts]
                color = PALETTE[k % len(PALETTE)]
                ax.plot(x, rows[value], "-o", color=color, ms=3,
                        label=f"{p2}={format_value(v2[k])}")
                ax.fill_between(x, rows[lo], rows[hi], color=color, alpha=.15)
            if fair is not None:
                ax.axhline(fair, color=GREY, ls="--", lw=1)
            ax.set_title(title_of(g), fontsize=9)
            ax.set_xlabel(p1, fontsize=8)
            ax.set_ylabel(ylabel, fontsize=8)
            if not numeric:
                ax.set_xticks(x, [format_value(v) for v in v1], rotation=30, ha="right", fontsize=7)
            if gi == 0:
                ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
        return Figure(fig_key or f"sweep-{key}", title, caption, _png(fig))

    figs = []
    grid_note = (f"The grid: {p1} along x, one line per value of {p2}; every point plays the "
                 f"same games (same seeds).")
    if r.start is not None:   # the game's start player is not always seat 1: its question first
        st = r.start
        positions = sorted(st["position"].unique())
        figs.append(panels("position", st, positions, lambda g: f"start position {int(g) + 1}"
                           + (" (start player)" if int(g) == 0 else ""), "win_share",
                           "win_low", "win_high", "win share (95% band)",
                           "Win share by start position",
                           grid_note + " Position 1 is the start player.",
                           1.0 / players if players > 1 else None, fig_key="sweep-start"))
    seats = sorted(r.seat["seat"].unique())
    figs.append(panels("seat", r.seat, seats, lambda g: f"seat {int(g) + 1}", "win_share",
                       "win_low", "win_high", "win share (95% band)", "Win share by seat",
                       grid_note,
                       1.0 / players if players > 1 else None))
    strategies = sorted(r.strategy["strategy"].unique(), key=str)
    if len(strategies) > 1:
        figs.append(panels("strategy", r.strategy, strategies, str, "win_share", "win_low",
                           "win_high",
                           "win share (95% band)", "Win share by strategy", grid_note,
                           1.0 / players if players > 1 else None))
    if not r.components.empty:
        comps = [c for c in sorted(r.components["component"].unique())
                 if float(r.components[r.components["component"] == c]["mean"].abs().max()) > 0]
        if comps:
            figs.append(panels("component", r.components, comps, str, "mean", "low", "high",
                               "mean points per seat", "Score components", grid_note,
                               fig_key="sweep-components"))
    return figs


def sweep_figures(r: SweepResult, varied: str, players: int) -> list:
    if len(r.axes) == 2 and len(r.labels) == len(r.axes[0][1]) * len(r.axes[1][1]):
        return _grid_figures(r, players)
    x, numeric = _numeric_axis(r.labels)
    joined = len(r.axes) <= 1   # one field: its values are in order; more: unordered cells
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
                       PALETTE[i % len(PALETTE)], joined)
        if players > 1:
            ax.axhline(1.0 / players, color=GREY, ls="--", lw=1)
        ax.set_xlabel(varied)
        ax.set_ylabel("win share (95% band)")
        if not numeric:
            ax.set_xticks(x, r.labels, rotation=30, ha="right", fontsize=7)
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
        figs.append(Figure(f"sweep-{key}", title, f"Against {varied}; every point plays the same "
                           "games (same seeds).", _png(fig)))
    if r.start is not None:   # the start positions (the game's "start" declaration)
        fig = _new(7.5, 3.8)
        ax = fig.add_subplot(1, 1, 1)
        for k in sorted(r.start["position"].unique()):
            rows = r.start[r.start["position"] == k].sort_values("point")
            _band_plot(ax, x, rows, rows["label"].iloc[0].replace("Start position", "position"),
                       PALETTE[int(k) % len(PALETTE)], joined)
        ax.axhline(1.0 / players, color=GREY, ls="--", lw=1)
        ax.set_xlabel(varied)
        ax.set_ylabel("win share (95% band)")
        if not numeric:
            ax.set_xticks(x, r.labels, rotation=30, ha="right", fontsize=7)
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
        figs.insert(0, Figure("sweep-start", "Win share by start position",
                              f"Against {varied}; every point plays the same games (same "
                              "seeds); position 1 is the start player.", _png(fig)))
    if r.card is not None:
        fig = _new(7.5, 3.8)
        ax = fig.add_subplot(1, 1, 1)
        c = r.card.sort_values("point")
        ax.plot(x, c["take_rate"], "-o", color=BLUE, label="games where it is taken", ms=4)
        ax.fill_between(x, c["take_rate_low"], c["take_rate_high"], color=BLUE, alpha=.18)
        ax.plot(x, c["win_taken"], "-s", color=RED, label="win share of seats taking it", ms=4)
        ax.fill_between(x, c["win_taken_low"], c["win_taken_high"], color=RED, alpha=.18)
        ax.plot(x, c["win_base"], "-^", color=GREY, ms=4,
                label="win share of " + (r.card_baseline or CARD_BASELINE))
        ax.set_xlabel(varied)
        ax.set_ylabel("share (95% band)")
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
        figs.append(Figure("sweep-card", f"The varied card ({r.card_label})",
                           "How often it is taken and what taking it is worth.", _png(fig)))
    if not r.components.empty:
        fig = _new(7.5, 3.8)
        ax = fig.add_subplot(1, 1, 1)
        for i, comp in enumerate(sorted(r.components["component"].unique())):
            rows = r.components[r.components["component"] == comp].sort_values("point")
            if float(rows["mean"].abs().max()) == 0.0:
                continue
            _band_plot(ax, x, rows, comp, PALETTE[i % len(PALETTE)], joined,
                       columns=("mean", "low", "high"))
        ax.set_xlabel(varied)
        ax.set_ylabel("mean points per seat")
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
        figs.append(Figure("sweep-components", "Score components", "Mean points per seat.",
                           _png(fig)))
    return figs


def _p(p):
    if p is None or (isinstance(p, float) and math.isnan(p)):
        return "n/a"
    return "<0.0001" if p < 1e-4 else f"{p:.4f}"


MAX_STEPS_NAMED = 12


def diff_text(t: dict) -> str:
    """A paired difference with its interval in its unit: percentage points of win share,
    else the unit of the mean (points, a count ...)."""
    unit = t.get("unit", "pp")
    if unit == "pp" or unit is None or (isinstance(unit, float) and math.isnan(unit)):
        return (f"{100 * t['diff']:+.2f} pp ({100 * t['low']:+.2f} to "
                f"{100 * t['high']:+.2f})")
    u = f" {unit}" if unit else ""
    return f"{t['diff']:+.3f}{u} ({t['low']:+.3f} to {t['high']:+.3f})"


def no_start_position(title: str, start: dict, players: int) -> str:
    """Why a game has no start position to balance (tune --objective start-fairness)."""
    if players < 2:
        return "start-fairness needs 2 or more players"
    if start.get("how") == "seat 1":
        return (f"start-fairness: in {title} seat 1 always starts ({start.get('note')}): the "
                f"start position is the seat number, balance it with --objective seat-fairness")
    if start.get("how") == "chosen":
        return (f"start-fairness: {title} has no start position ({start.get('note')}); "
                f"--objective seat-fairness balances the seat numbers")
    return (f"start-fairness: {title} logs no start position at {players} players; "
            f"--objective seat-fairness balances the seat numbers")


def objective_note(objective: str, start: dict, title: str) -> list:
    """What a fairness objective measured, when the game's start player is not seat 1."""
    if objective == "seat-fairness" and start.get("column"):
        return [f"Note: seat-fairness balanced the seat numbers, but in {title} {start.get('note')}"
                f"; the start position is the game's fairness question: "
                f"--objective start-fairness balances it (the table of what moves below "
                f"gives the start positions at every trial)."]
    if objective == "start-fairness":
        return [f"start-fairness: the win share of each start position (1 = the start player) "
                f"against 1/players, not the seat numbers ({start.get('note')})."]
    if objective == "seat-fairness" and start.get("how") == "seat 1":
        return [f"seat-fairness: in {title} {start.get('note')}: the seat shares balanced here "
                f"are the start positions."]
    return []


def edge_lines(edges: list, top: dict) -> list:
    """A search whose best value lies on the edge of its range says so and suggests wider
    values (analysis.designer.edge_of_range)."""
    from sim.designer import format_value
    out = []
    for path, v, side, lo, hi, step in edges:
        span = hi - lo
        wider = (f"{format_value(_num(v - span))}..{format_value(_num(v))}" if side == "lower"
                 else f"{format_value(_num(v))}..{format_value(_num(v + span))}")
        out.append(f"The best value of the search for {path}, {format_value(_num(v))} "
                   f"({top['label']}), is the {side} end of the range tried "
                   f"({format_value(_num(lo))} to {format_value(_num(hi))}): the balance point "
                   f"may lie beyond it. Widen the range, e.g. --vary '{path}={wider}'"
                   + (" (check the values are legal)." if side == "lower" else "."))
    return out


def _num(v):
    return int(v) if float(v).is_integer() else float(v)


def step_verdicts(paired, what: str = "") -> list:
    """The paired steps that move a quantity, named, after Holm's correction for every
    comparison of the sweep (or of the tune: `what` says what a step is)."""
    if paired is None or paired.empty:
        return []
    m = len(paired)
    n_steps = paired["step"].nunique()
    moved = paired[paired["moves"]].sort_values("p_holm")
    what = what or "paired steps (one field to its next value, the others fixed, on the same games)"
    head = (f"{n_steps} {what}, {m} comparisons with their quantities, Holm-corrected at 5%")
    if moved.empty:
        return [f"{head}: no step moves a quantity beyond chance."]
    lines = [f"{head}: {len(moved)} move{'s' if len(moved) == 1 else ''}:"]
    for t in moved.head(MAX_STEPS_NAMED).to_dict("records"):
        lines.append(f"  {t['step']}" + (f" (at {t['at']})" if t.get("at") else "") +
                     f": {t['quantity']} {diff_text(t)}, Holm p = {_p(t['p_holm'])}")
    if len(moved) > MAX_STEPS_NAMED:
        lines.append(f"  ... and {len(moved) - MAX_STEPS_NAMED} more (the table of paired steps)")
    return lines


def _start_words(r: SweepResult, point: int, players: int) -> str:
    """The start positions of one sweep point in words ("" when the game has none)."""
    if r.start is None:
        return ""
    t = r.start[r.start["point"] == point]
    off = t[t["verdict"].isin(["favoured", "disadvantaged"])]
    if off.empty:
        return (f"start positions fair (Holm across positions; start player "
                f"{_pci(t.iloc[0].win_share, t.iloc[0].win_low, t.iloc[0].win_high)})")
    return "; ".join(f"{x.label.lower()} {_pci(x.win_share, x.win_low, x.win_high)} "
                     f"{x.verdict} (Holm p = {_p(x.p_holm)})" for x in off.itertuples()) + \
        f" against a fair {_pct(1 / players)}"


def _seat_verdicts(r: SweepResult, players: int) -> list:
    """One line per point: the seats outside the fair share by their intervals and the start
    positions, the game's fairness question first (the start position when it leads)."""
    if players <= 1:
        return []
    lines = []
    for i, label in enumerate(r.labels):
        rows = r.seat[r.seat["point"] == i]
        out = rows[(rows["win_low"] > 1 / players) | (rows["win_high"] < 1 / players)]
        word = ("seats fair within their intervals" if out.empty else
                "; ".join(f"seat {int(s.seat) + 1} "
                          f"{_pci(s.win_share, s.win_low, s.win_high)}"
                          for s in out.itertuples()) + f" against a fair {_pct(1 / players)}")
        start = _start_words(r, i, players)
        both = [start, word] if r.start_info.get("leads") else [word, start]
        lines.append(f"{label}: " + "; ".join(x for x in both if x) + ".")
    return lines


def _card_verdict(r: SweepResult) -> list:
    """The varied card from the first point to the last: how often it is taken, how its
    takers fare against the baseline, and whether the players respond to its value."""
    if r.card is None:
        return []
    c = r.card
    return [f"{r.card_label}: taken in {_pct(c['take_rate'].iloc[0])} of games at "
            f"{r.labels[0]}, {_pct(c['take_rate'].iloc[-1])} at {r.labels[-1]}; its "
            f"takers win {c['gap'].iloc[0] * 100:+.1f} pp against {r.card_baseline} at "
            f"{r.labels[0]}, {c['gap'].iloc[-1] * 100:+.1f} pp at {r.labels[-1]}"
            + (f"; {sweep_response_text(r.card_response)}." if r.card_response else ".")]


def _seat_table(r: SweepResult) -> Table:
    """Win share and mean score by seat at every point."""
    return Table(["point", "seat", "win share (95%)", "mean score"],
                 [[r.labels[int(t.point)], f"seat {int(t.seat) + 1}",
                   _pci(t.win_share, t.win_low, t.win_high), f"{t.mean_score:.2f}"]
                  for t in r.seat.itertuples()], "Win share by seat at every point.")


def _strategy_table(r: SweepResult) -> Table:
    """Win share and mean score by strategy at every point."""
    return Table(["point", "strategy", "win share (95%)", "mean score"],
                 [[r.labels[int(t.point)], t.strategy,
                   _pci(t.win_share, t.win_low, t.win_high),
                   f"{t.mean_score:.2f}"] for t in r.strategy.itertuples()],
                 "Win share by strategy at every point.")


def _card_table(r: SweepResult) -> Table:
    """The varied card at every point: take rate, its takers' win share, the baseline's, and
    the gap between the two."""
    return Table(["point", "taken in (games)", "win share when taken",
                  "win share of " + (r.card_baseline or CARD_BASELINE), "gap (95%)"],
                 [[r.labels[int(t.point)],
                   _pci(t.take_rate, t.take_rate_low, t.take_rate_high),
                   _pci(t.win_taken, t.win_taken_low, t.win_taken_high),
                   _pci(t.win_base, t.win_base_low, t.win_base_high),
                   f"{100 * t.gap:+.1f} pp ({100 * t.gap_low:+.1f} to "
                   f"{100 * t.gap_high:+.1f})"]
                  for t in r.card.itertuples()], f"The varied card: {r.card_label}.")


def _start_table(r: SweepResult, players: int) -> Table:
    """Win share by start position at every point, tested against the fair share."""
    return Table(["point", "start position", "win share (95%)", "p (Holm)", "verdict"],
                 [[r.labels[int(t.point)], t.label,
                   _pci(t.win_share, t.win_low, t.win_high), _p(t.p_holm),
                   t.verdict] for t in r.start.itertuples()],
                 "Win share by start position at every point, against the fair "
                 f"share {_pct(1 / players)}; Holm across the positions of each "
                 "point.")


def _outcome_table(r: SweepResult) -> Table:
    """The other means at every point: mean score, score components, declared outcomes (a
    share in pp, anything else in its unit)."""
    return Table(["point", "quantity", "mean (95%)"],
                 [[r.labels[int(t.point)], t.quantity,
                   _pci(t.mean, t.low, t.high) if t.unit == "pp" else
                   f"{t.mean:.3f} ({t.low:.3f} to {t.high:.3f})"
                   + (f" {t.unit}" if t.unit else "")]
                  for t in r.outcomes.itertuples()],
                 "The mean score, the score components and the game's declared "
                 "outcomes at every point (per seat; a game-level outcome per "
                 "game).")


def _paired_table(r: SweepResult) -> Table:
    """Every paired step with its difference, Holm-corrected p and whether it moves."""
    return Table(["step", "at", "quantity", "paired difference (95%)", "p (Holm)", "moves"],
                 [[t["step"], t["at"] or "-", t["quantity"], diff_text(t),
                   _p(t["p_holm"]), "yes" if t["moves"] else ""]
                  for t in r.paired.to_dict("records")],
                 f"Steps of one field to its next value, the other fields fixed, on "
                 f"the same games; p-values corrected by Holm's method for the "
                 f"{len(r.paired)} comparisons of the table.")


def _sweep_evidence(r: SweepResult, figs: list, players: int) -> Section:
    """The figures, then a table for each part of the sweep the result holds."""
    ev = Section("Evidence", "evidence", list(figs))
    ev.blocks.append(_seat_table(r))
    if r.strategy["strategy"].nunique() > 1:
        ev.blocks.append(_strategy_table(r))
    if r.card is not None:
        ev.blocks.append(_card_table(r))
    if r.start is not None:
        ev.blocks.append(_start_table(r, players))
    if r.outcomes is not None and not r.outcomes.empty:
        ev.blocks.append(_outcome_table(r))
    if not r.paired.empty:
        ev.blocks.append(_paired_table(r))
    return ev


def sweep_document(r: SweepResult, varied: str, manifest: dict, header: dict) -> Document:
    """The sweep's report: verdicts (seats and start positions per point, the varied card,
    the paired steps that move), the evidence, and what was run."""
    players = int(manifest.get("players", 1))
    figs = sweep_figures(r, varied, players)
    verdicts = _seat_verdicts(r, players) + _card_verdict(r) + step_verdicts(r.paired)
    ev = _sweep_evidence(r, figs, players)
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
def tune_document(trials: list, varies: list, current: list, base: dict, best: dict,
                  confirmation: dict | None, decision: str, objective: str, method: str,
                  manifest: dict, header: dict, moves=None) -> Document:
    """trials: every configuration played in the search (dicts: trial, label, value, se,
    games, baseline); confirmation: the paired check on fresh games, or None."""
    fig = _new(7.5, 3.8)
    ax = fig.add_subplot(1, 1, 1)
    one = len(varies) == 1 and all(isinstance(v, (int, float)) and not isinstance(v, bool)
                                   for v in list(varies[0][1]) + [current[0]])
    if one:   # the objective against the value; the current value drawn where it lies
        xs = [float(t["label"].split("=", 1)[1]) for t in trials]
        ax.set_xlabel(varies[0][0])
    else:     # several fields (or values that are not numbers): trial by trial
        xs = [t["trial"] for t in trials]
        ax.set_xlabel("trial (0 = the current values)")
    ys = [t["value"] for t in trials]
    err = [Z95 * t["se"] if math.isfinite(t["se"]) else 0.0 for t in trials]
    ax.errorbar(xs, ys, yerr=err, fmt="o", capsize=3, color=BLUE, label="search (95% interval)")
    bx = xs[[t["label"] for t in trials].index(base["label"])]
    ax.plot([bx], [base["value"]], "s", color=GREY, ms=9, label=f"current: {base['label']}")
    if best["label"] != base["label"]:
        kx = xs[[t["label"] for t in trials].index(best["label"])]
        ax.plot([kx], [best["value"]], "*", color=RED, ms=12, label=f"best: {best['label']}")
    ax.set_ylabel(f"{objective} (smaller is better)")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    unit = trials[0].get("unit", "games")   # card-parity: sampled decision states
    figs = [Figure("tune", "Search", f"{method}; every configuration played the same "
                   f"{trials[0]['games']:,} {unit} (same seeds).", _png(fig))]
    verdicts = [decision]
    blocks = list(figs)
    if confirmation is not None:
        c = confirmation
        blocks.append(Table(
            ["", "values", objective, "games"],
            [["before", c["current"], f"{c['old']:.4f}", f"{c['games']:,}"],
             ["after", c["candidate"], f"{c['new']:.4f}", f"{c['games']:,}"],
             ["after - before", "", f"{c['diff']:+.4f} ({c['low']:+.4f} to {c['high']:+.4f})",
              ""]],
            f"The check: the current values and the best candidate on the same {c['games']:,} "
            f"fresh games (seed {c['seed']}), not the search's; the interval of the paired "
            f"difference is a 95% bootstrap over games."))
    if moves is not None and not moves.empty:
        check = moves[moves["games"] == "check"]
        verdicts += step_verdicts(check if not check.empty else moves,
                                  "paired changes from the current values (on the check's "
                                  "fresh games)" if not check.empty else
                                  "paired changes from the current values to a trial (on the "
                                  "search's games)")
        blocks.append(Table(["games", "from -> to", "quantity", "paired difference (95%)",
                             "p (Holm)", "moves"],
                            [[t["games"], t["step"], t["quantity"], diff_text(t),
                              _p(t["p_holm"]), "yes" if t["moves"] else ""]
                             for t in moves.to_dict("records")],
                            "Everything that moves from the current values: to every trial on "
                            "the search's games, and to the candidate on the check's fresh games "
                            "(seats, start positions, strategies, scores, the game's declared "
                            f"outcomes); Holm across the {len(moves)} rows."))
    blocks.append(Table(["trial", "values", f"{objective} (95% half-width)", unit],
                        [[t["trial"], t["label"] + ("  (current)" if t["baseline"] else ""),
                          f"{t['value']:.4f} +/- {Z95 * t['se']:.4f}", f"{t['games']:,}"]
                         for t in trials], "Every configuration of the search."))
    what = Section("What was run", "run", [[
        f"game: {manifest.get('title', manifest.get('game'))}, {manifest.get('players')} players, "
        f"strategies {', '.join(manifest.get('strategy_names', []))}",
        f"objective: {objective}; search: {method}",
        "varied: " + "; ".join(f"{p} in {', '.join(map(_value_text, v))}" for p, v in varies),
        f"current values: {base['label']}",
        *header.get("notes", []),
    ]])
    return Document(f"Tune: {objective}", f"{manifest.get('title', manifest.get('game'))}",
                    [Section("Verdicts", "verdicts", [verdicts]),
                     Section("Evidence", "evidence", blocks), what])


def _value_text(v):
    from sim.designer import format_value
    return format_value(v)
