"""The report of `balance ladder` (analysis/ladder.py): the terminal table, the plot of rating
against mcts budget, and a document rendered to HTML and Markdown like the other reports."""
from __future__ import annotations

import math

import numpy as np

from sim import formatting as fmt
from analysis.ladder import LadderResult
from reports.document import Document, Section, Table
from reports.figures import BLUE, GREY, RED, Figure, _new, _png
from reports.output import ReportFolder, render_into
from reports.notes import why_text


def _rating(r) -> str:
    # * = held finite by the prior alone (the level never won or never lost; the note says so)
    mark = "*" if getattr(r, "prior_held", False) else ""
    if math.isnan(r.rating_se):
        return f"{r.rating:+.2f}{mark}"
    return f"{r.rating:+.2f}{mark} ({r.rating_low:+.2f} to {r.rating_high:+.2f})"


def table_rows(res: LadderResult) -> list:
    rows = []
    for r in res.table.itertuples():
        ref = r.level == res.reference
        rows.append([r.level, "" if r.budget is None or (isinstance(r.budget, float) and
                                                          math.isnan(r.budget)) else str(int(r.budget)),
                     "reference" if ref else fmt.share_interval(r.win_share, r.win_low, r.win_high),
                     "0 (reference)" if ref else _rating(r),
                     f"{r.elo:+.0f}", "" if ref else f"{int(r.games):,}",
                     "step" if r.level in res.steps else ""])
    return rows


HEADERS = ["level", "mcts budget", "win share vs reference (95%)",
           "rating vs reference (95%)", "Elo", "games", "skill step"]


def ladder_table_text(res: LadderResult) -> str:
    """A fixed-width table for the terminal, weakest level first."""
    rows = [HEADERS] + table_rows(res)
    widths = [max(len(str(row[k])) for row in rows) for k in range(len(HEADERS))]
    lines = []
    for i, row in enumerate(rows):
        lines.append("  ".join(str(v).ljust(widths[k]) for k, v in enumerate(row)).rstrip())
        if i == 0:
            lines.append("  ".join("-" * w for w in widths))
    t = res.table
    held = [str(x) for x in t.loc[t["prior_held"].astype(bool), "level"]] if "prior_held" in t else []
    if held:   # the mark * of _rating, explained where it is printed
        lines.append(f"* {', '.join(held)}: never won or never lost, so only the prior (one "
                     f"virtual game each way) holds the rating finite; the real gap is this "
                     f"large or larger (the report's note says more)")
    return "\n".join(lines)


def rating_note(res: LadderResult) -> str:
    """How the ratings were fitted (the table's caption), and, when a level never won or
    never lost, that its rating is held finite by the prior."""
    f = res.fit
    note = (f"Plackett-Luce (Hunter's MM, {f['iterations']} iterations"
            f"{'' if f['converged'] else ', NOT converged'}) on {f['games']:,} games, "
            f"{f['prior']:g} virtual game each way per pair of levels as a prior; rating = "
            f"log-strength minus the reference's ({res.reference}), "
            f"{int(round(100 * f['confidence']))}% intervals from the Fisher information")
    if not f["estimable"]:
        names = ", ".join(f["held"]) or "some levels"
        why = why_text(f["why"], f["why_names"], "level")
        note += (f" of the prior-regularised fit: {why}, so no maximum-likelihood rating "
                 f"exists; the prior's virtual games hold {names} "
                 f"at a finite rating (marked *), pulled towards the other levels (the real "
                 f"gap is this large or larger); the skill depth stays a lower bound")
    return note


def ladder_verdict_lines(res: LadderResult) -> list:
    """Each level against the reference and the skill depth, in words."""
    fair = 1.0 / res.players
    out = []
    for row in res.table.itertuples():
        if row.level == res.reference:
            continue
        if row.win_low > fair:
            word = "stronger than"
        elif row.win_high < fair:
            word = "weaker than"
        else:
            word = "not distinguishable from"
        # the one number format of every report (sim/formatting.py)
        out.append(f"{row.level} wins {fmt.share_interval(row.win_share, row.win_low, row.win_high)}"
                   f" against {res.players - 1} x {res.reference} "
                   f"(fair {fmt.fair_share(fair)}): {word} {res.reference}.")
    if res.depth:
        out.append(f"Skill depth: {res.depth} distinguishable step"
                   f"{'s' if res.depth != 1 else ''} of strength ({' < '.join(res.steps)}), at "
                   f"95% confidence on these games (a lower bound: more games can separate more "
                   f"levels).")
    return out


def _pp(x) -> str:
    return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:+.2f}"


def effect_text(row, which: str) -> str:
    """An effect (percentage points beyond the reference) with its interval: `which` is
    "effect_base", "effect_top" or "difference"."""
    v = row.get(which)
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "n/a"
    return f"{_pp(v)} pp ({_pp(row.get(which + '_low'))} to {_pp(row.get(which + '_high'))})"


def strongest_line(res: LadderResult, shipped_level: str | None, title: str) -> str:
    """The strongest level named (the highest rating), and whether it is mcts as shipped."""
    shipped = (f", the game's mcts as shipped (`mcts`: the defaults {title} declares)"
               if res.strongest == shipped_level else "")
    return f"Strongest level (highest rating): {res.strongest}{shipped}."


def _levels_text(table) -> str:
    """Which levels the verdict rows compare: the seats' and, when they differ, the cards'."""
    pairs = list(dict.fromkeys(zip(table["level_base"], table["level_top"])))
    kinds = ["seats and start positions", "cards (counterfactual play)"]
    if len(pairs) == 1:
        return f"{pairs[0][0]} against {pairs[0][1]} in every seat"
    return "; ".join(f"{kind}: {a} against {b} in every seat"
                     for kind, (a, b) in zip(kinds, pairs))


def verdict_change_lines(table) -> list:
    """The verdict comparison of analysis.ladder.compare_verdicts in words: how many effects
    hold, each that changes (the difference of its effect between the levels excludes 0),
    and each verdict word that differs while the effect does not (a change of power, not of
    the game)."""
    if table.empty:
        return ["No seat, start-position or card verdict to compare between the levels."]
    lines = [f"{int(table['holds'].sum())} of {len(table)} seat, start-position and card "
             f"verdicts hold between the levels ({_levels_text(table)}): the difference of the "
             f"effect, with its 95% interval, includes 0."]
    for _, row in table.iterrows():
        both = (f"{row['verdict']}: {row['verdict_base']} with {row['level_base']}, "
                f"{row['verdict_top']} with {row['level_top']}")
        effects = (f"effect {effect_text(row, 'effect_base')} against "
                   f"{effect_text(row, 'effect_top')}, difference "
                   f"{effect_text(row, 'difference')}")
        if row["changed"] and row.get("measured", False):
            lines.append(f"{both}; {effects}: changed.")
        elif row["changed"]:
            lines.append(f"{both}; its effect is not measured at both levels.")
        elif row["verdict_base"] != row["verdict_top"]:
            lines.append(f"{both}; {effects}: the same effect within its interval (the verdict "
                         f"differs by power, not by the game).")
    return lines


def ladder_figure(res: LadderResult) -> Figure:
    """Rating against mcts budget (log axis), 95% intervals; the built-ins as horizontal
    lines with their bands."""
    fig = _new(7.5, 4.2)
    ax = fig.add_subplot(1, 1, 1)
    t = res.table
    mc = t[t["budget"].notna()].sort_values("budget")
    if len(mc):
        x = mc["budget"].to_numpy(float)
        y = mc["rating"].to_numpy(float)
        lo = mc["rating_low"].to_numpy(float)
        hi = mc["rating_high"].to_numpy(float)
        ax.errorbar(x, y, yerr=[np.nan_to_num(y - lo), np.nan_to_num(hi - y)], fmt="o-",
                    color=BLUE, capsize=4, label="mcts")
        ax.set_xscale("log")
        ax.set_xticks(x, [str(int(v)) for v in x])
        from matplotlib.ticker import NullFormatter
        ax.xaxis.set_minor_formatter(NullFormatter())
    colors = [GREY, RED, "#55a868", "#8172b2", "#ccb974"]
    for k, r in enumerate(t[t["budget"].isna()].itertuples()):
        c = colors[k % len(colors)]
        ax.axhline(r.rating, color=c, ls="--", lw=1, label=r.level)
        if not math.isnan(r.rating_se) and r.level != res.reference:
            ax.axhspan(r.rating_low, r.rating_high, color=c, alpha=0.12)
    ax.set_xlabel("mcts iterations per decision")
    ax.set_ylabel(f"rating vs {res.reference} (log-strength)")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    return Figure("ladder", "Rating against budget",
                  f"Plackett-Luce rating of each level relative to {res.reference} (0), with 95% "
                  f"intervals; each level played one seat against {res.players - 1} x "
                  f"{res.reference}, seats rotated.", _png(fig))


def ladder_document(res: LadderResult, manifest: dict, header: dict) -> Document:
    fig = ladder_figure(res)
    verdict = Section("Verdicts", "verdicts", [list(res.verdicts) + list(res.notes)])
    ev = Section("Evidence", "evidence", [fig, Table(HEADERS, table_rows(res), rating_note(res))])
    if res.verdict_table is not None and not res.verdict_table.empty:
        vt = res.verdict_table
        ev.blocks.append(Table(["verdict", "levels compared", "verdict at the first",
                                "verdict at the second", "effect at the first (95%)",
                                "effect at the second (95%)", "difference (95%)", "changed"],
                               [[r["verdict"], f"{r['level_base']} -> {r['level_top']}",
                                 r["verdict_base"], r["verdict_top"],
                                 effect_text(r, "effect_base"), effect_text(r, "effect_top"),
                                 effect_text(r, "difference"), "YES" if r["changed"] else "no"]
                                for _, r in vt.iterrows()],
                               "Seats and start positions: the balance report's verdicts with "
                               "the game's default strategy in every seat and with the "
                               "strongest level in every seat, on the same deals; effect: win "
                               "share minus the fair share. Cards: the card's advantage in win "
                               "share over the seat's best alternative, by counterfactual play "
                               "(docs/card-worth.md) with the default strategy and with the "
                               "strongest built-in level in every seat (counterfactual play "
                               "needs built-in players); a card is listed when it helps or "
                               "hurts at one level at least. Percentage points; changed: the "
                               "interval of the difference excludes 0."))
    what = Section("What was run", "run", [[
        f"game: {manifest.get('title', res.game)}, {res.players} players, variant "
        f"{manifest.get('variant')}",
        f"levels: {', '.join(res.levels)}; reference {res.reference}; each level "
        f"{header.get('games', 0):,} games in {header.get('seatings')} seatings (the same deals "
        f"for every level); mcts rollouts: {header.get('rollout')}",
        f"verdict runs: {header.get('verdict_games', 0):,} games each",
        *([header["card_worth"]] if header.get("card_worth") else []),
        f"seed {manifest.get('seed')}, component file "
        f"{manifest.get('components', {}).get('path')} (sha256 "
        f"{str(manifest.get('components', {}).get('sha256'))[:12]}), overrides "
        f"{manifest.get('components', {}).get('overrides') or 'none'}",
    ]])
    return Document(f"Skill ladder: {manifest.get('title', res.game)}",
                    f"{res.players} players, skill depth {res.depth}", [verdict, ev, what])


def write_ladder(doc: Document, out_dir: str, formats=("html", "md")) -> dict:
    """report.html and/or report.md (with its figure files) and ladder.png into `out_dir`
    (reports/output.py: never over a user's files); {'html': file, 'md': file, 'png': file}
    of what was written."""
    out = ReportFolder(out_dir)
    png = None
    for block in doc.sections[1].blocks:
        if isinstance(block, Figure) and block.key == "ladder":
            png = out.add("ladder.png", block.png)
    files = render_into(out, doc, formats)
    return {**files, "png": png} if png else files
