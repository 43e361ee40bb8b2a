"""The report's "game over time" section (definitions in docs/report.md): curves
with bands by strategy and by start position, the lead-change histogram, the branching
factor, and the game-shape measures as a table. The numbers come from analysis/game_shape.py."""
from __future__ import annotations

import numpy as np

from sim import formatting as F
from analysis import game_shape as gs
from reports.figures import BLUE, GREY, Figure, _new, _png

MEASURE_LABELS = {
    "lead_changes": "lead changes per game",
    "lead_for_good": "share of the game before the winner leads for good",
    "decisiveness": "share of the game before the winner can be called",
    "rounds": "periods played",
    "branching_factor": "legal options per decision",
}


SHOWN_SHARE = 0.1    # a round is drawn when at least this share of the games reached it


def reached(curves):
    """The rows of a curves frame for rounds that at least SHOWN_SHARE of the games reached
    (the last rounds of long games alone would draw noise)."""
    most = curves.groupby("round")["n"].transform("sum").max()
    return curves[curves.groupby("round")["n"].transform("sum") >= SHOWN_SHARE * most]


def _curves(ax, curves, by, label_of=str):
    curves = reached(curves)
    for key, part in curves.groupby(by, sort=True):
        line, = ax.plot(part["round"], part["mean"], marker="o", ms=3, label=label_of(key))
        ax.fill_between(part["round"], part["low"], part["high"], color=line.get_color(),
                        alpha=0.2, linewidth=0)


def curves_figure(rounds, meta, quantity: str = "score", by: str = "strategy") -> Figure:
    """Mean `quantity` by round per strategy (or start position), 95% band."""
    label = {r[0]: r[1] for r in meta["rows"]}.get(quantity, quantity)
    period = meta["period"]
    fig = _new(7.5, 3.2)
    ax = fig.add_subplot(1, 1, 1)
    curves = gs.mean_curves(rounds, quantity, by)
    word = "start position" if by == "position" else by
    _curves(ax, curves, by, (lambda k: f"position {k}") if by == "position" else str)
    ax.set_xlabel(f"{period}s played (0 = after the set-up)")
    ax.set_ylabel(label)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    return Figure(f"over-time-{quantity}-{by}", f"{label} by {period}, by {word}",
                  f"Mean over the snapshot games, with its 95% band (normal interval of the "
                  f"mean over seat-games); {word} as in the logs; rounds that at least "
                  f"{SHOWN_SHARE:.0%} of the games reached.", _png(fig))


def quantities_figure(rounds, meta) -> Figure | None:
    """Every declared quantity but the score, by round per strategy: small multiples."""
    rows = [r for r in meta["rows"] if r[0] != "score"]
    if not rows:
        return None
    cols = min(3, len(rows))
    lines = -(-len(rows) // cols)
    fig = _new(7.5, 2.4 * lines)
    for k, (name, label, scope, unit) in enumerate(rows):
        ax = fig.add_subplot(lines, cols, k + 1)
        part = gs.per_game_rows(rounds) if scope == "game" else rounds
        if scope == "game":
            c = reached(gs.mean_curves(part, name, None))
            ax.plot(c["round"], c["mean"], color=BLUE, marker="o", ms=2)
            ax.fill_between(c["round"], c["low"], c["high"], color=BLUE, alpha=0.2, linewidth=0)
        else:
            _curves(ax, gs.mean_curves(part, name, "strategy"), "strategy")
        ax.set_title(label, fontsize=8)
        ax.tick_params(labelsize=7)
        ax.grid(alpha=0.3)
        if k == 0 and scope != "game":
            ax.legend(fontsize=6, frameon=False)
    return Figure("over-time-quantities", f"The game's own quantities by {meta['period']}",
                  "Mean per seat-game by strategy (per game for the quantities of the whole "
                  "board), 95% bands.", _png(fig))


def lead_changes_figure(games) -> Figure:
    fig = _new(5.0, 2.8)
    ax = fig.add_subplot(1, 1, 1)
    counts = games["lead_changes"].value_counts().sort_index()
    ax.bar(counts.index, counts.to_numpy() / max(len(games), 1) * 100, color=BLUE, width=0.8)
    ax.set_xlabel("lead changes in a game")
    ax.set_ylabel("% of games")
    ax.grid(axis="y", alpha=0.3)
    return Figure("over-time-lead-changes", "Lead changes per game",
                  f"Over {len(games):,} snapshot games; the leader is the seat with the highest "
                  f"score, a tie keeps the previous leader.", _png(fig))


def branching_figure(decisions, meta) -> Figure:
    b = reached(gs.branching(decisions))
    fig = _new(5.0, 2.8)
    ax = fig.add_subplot(1, 1, 1)
    ax.plot(b["round"], b["mean"], color=BLUE, marker="o", ms=3)
    ax.fill_between(b["round"], b["low"], b["high"], color=BLUE, alpha=0.2, linewidth=0)
    ax.set_xlabel(f"{meta['period']} (1 = the first)")
    ax.set_ylabel("legal options per decision")
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3, color=GREY)
    return Figure("over-time-branching", "Branching factor over the game",
                  "Mean number of legal options at each decision taken in that period, 95% band.",
                  _png(fig))


def measures_rows(summary) -> list:
    rows = []
    for r in summary.itertuples():
        digits = 0 if r.measure == "rounds" else 2
        rows.append([MEASURE_LABELS.get(r.measure, r.measure), F.num(r.mean, digits),
                     F.interval(r.low, r.high, scale=1.0, digits=2), F.count(r.n)])
    return rows


def section_blocks(run_dir: str, table_type) -> list | None:
    """The section's blocks (figures, the measures' table, the command), or None when the run
    has no snapshots."""
    from sim.snapshots import read_snapshots
    got = read_snapshots(run_dir)
    if got is None:
        return None
    rounds, decisions, meta = got
    games = gs.per_game(rounds)
    summary = gs.summary(rounds, decisions)
    threshold = summary.attrs["decisiveness_threshold"]
    blocks = [f"Snapshots of the first {games['game'].nunique():,} games of the run (replayed "
              f"exactly from the seed: balance run --snapshots N), one per {meta['period']}. "
              f"Definitions and references: docs/report.md, \"The game over time\"."]
    blocks.append(curves_figure(rounds, meta, "score", "strategy"))
    if rounds["position"].nunique() > 1:
        blocks.append(curves_figure(rounds, meta, "score", "position"))
    extra = quantities_figure(rounds, meta)
    if extra is not None:
        blocks.append(extra)
    blocks.append(lead_changes_figure(games))
    blocks.append(branching_figure(decisions, meta))
    call = ("no lead was that safe: the winner is called at the end" if not np.isfinite(threshold)
            else f"a lead of {threshold:g} points or more")
    blocks.append(table_type(["measure", "mean", "95% interval", "n"], measures_rows(summary),
                             f"Game-shape measures (decisiveness threshold: {call}, the "
                             f"smallest lead its holder went on to win with in "
                             f"{gs.DECISIVE_SHARE:.0%} of the periods it held it)."))
    return blocks
