"""The game over time of a run for a docs page: its figures as PNG files and its measures as
a Markdown table (the same figures and numbers as the report's section).

    python -m scripts.over_time_figures RUN_DIR docs/img/lowlands-over-time

writes PREFIX-score.png (score by strategy), PREFIX-position.png (by start position, when
the run has more than one), PREFIX-quantities.png, PREFIX-lead-changes.png and
PREFIX-branching.png, and prints the measures table. The run must hold snapshots
(`balance run ... --snapshots N`).
"""
from __future__ import annotations

import argparse
import sys


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run_dir")
    ap.add_argument("prefix", help="path prefix of the PNG files")
    args = ap.parse_args(argv)
    from analysis import game_shape as gs
    from reports import over_time as ot
    got = gs.load(args.run_dir)
    if got is None:
        print(f"balance: error: {args.run_dir} holds no snapshots (balance run --snapshots N)",
              file=sys.stderr)
        return 2
    rounds, decisions, meta = got
    games = gs.per_game(rounds)
    figures = {"score": ot.curves_figure(rounds, meta, "score", "strategy"),
               "quantities": ot.quantities_figure(rounds, meta),
               "lead-changes": ot.lead_changes_figure(games),
               "branching": ot.branching_figure(decisions, meta)}
    if rounds["position"].nunique() > 1:
        figures["position"] = ot.curves_figure(rounds, meta, "score", "position")
    for name, fig in figures.items():
        if fig is not None:
            with open(f"{args.prefix}-{name}.png", "wb") as fh:
                fh.write(fig.png)
    summary = gs.summary(rounds, decisions)
    threshold = summary.attrs["decisiveness_threshold"]
    called = (f"a lead of {threshold:g} points" if threshold != float("inf")
              else "none (no lead was that safe: the winner is called at the end)")
    print(f"{games['game'].nunique():,} snapshot games; decisiveness threshold: {called}\n")
    print("| measure | mean | 95% interval | n |\n| --- | ---: | ---: | ---: |")
    for row in ot.measures_rows(summary):
        print("| " + " | ".join(row) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
