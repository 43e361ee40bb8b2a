"""Several runs in one report, side by side (2, 3 and 4 players; before and after a change).

    several_document(analyses, links) -> Document
    several_figures(analyses, labels) -> [Figure]     one panel per run, axes shared

What was played and the verdicts go in one table each, with a column per run; the figures put
the runs' panels side by side on shared axes, so a difference between runs reads as a
difference in position. Each run's own full report is linked (written beside it,
reports/build.py write_several_reports).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim import formatting as F
from reports.document import Document, Section, Table
from reports.figures import BLUE, GREY, Figure, _new, _png, short_names
from reports.first_screen import VERDICT_COLORS, _fairness_rows


@dataclass
class Link:
    text: str
    href: str            # relative path inside the report folder


def run_labels(analyses) -> list:
    """A short name per run: what tells them apart (the player count, else the run's place
    in the list with its run id)."""
    players = [a.players for a in analyses]
    games = [str(a.manifest.get("game")) for a in analyses]
    if len(set(players)) == len(players):
        base = [f"{p} players" for p in players]
    else:
        base = [f"run {k + 1}" for k in range(len(analyses))]
    if len(set(games)) > 1:
        base = [f"{g}, {b}" for g, b in zip(games, base)]
    return base


def _played_rows(analyses, labels) -> list:
    from reports.document import change_text, played_changes
    from analysis.played import player_groups
    rows = {"game": [], "players": [], "games": [], "seed": [], "seats": [],
            "strategies": [], "components changed": [], "run folder": []}
    for a in analyses:
        m = a.manifest
        rows["game"].append(str(m.get("title") or m.get("game")))
        rows["players"].append(str(a.players))
        rows["games"].append(f"{a.n_games:,}")
        rows["seed"].append(str(m.get("seed", "?")))
        rows["seats"].append("rotated" if (m.get("config") or {}).get("rotation") else "fixed")
        rows["strategies"].append("; ".join(
            f"{r.strategy} x{r.count}" + (f" ({r.parameters})" if r.parameters else "")
            for r in player_groups(m).itertuples()))
        ch = played_changes(a)
        rows["components changed"].append(
            "not compared" if ch is None else "none" if not len(ch) else
            "; ".join(change_text(r) for r in ch.itertuples()))
        rows["run folder"].append(str(a.run_dir))
    return [[k] + v for k, v in rows.items()]


def _cell(f) -> str:
    if f.statistic == "mean_length":
        return f"mean {F.num(f.value, 1)} {f.get('unit') or ''}".strip()
    if f.kind == "ties":
        return F.share(f.value)
    if f.value == f.value and f.low == f.low:
        cell = F.share_interval(f.value, f.low, f.high, F.digits_for(f.low, f.high))
    elif f.value == f.value:
        cell = F.share(f.value)
    else:
        cell = ""
    return f"{cell} {f.verdict}".strip() or "-"


SHOWN_KINDS = ("headline", "seat", "strategy", "dominance", "ties", "shape", "card",
               "association", "outcome", "illegal")


def verdict_rows(analyses) -> list:
    """One row per verdict subject (in the first run's reading order, then the others'), a
    cell per run: the value with its interval and the verdict word ("-": not in that run)."""
    order, cells = [], {}
    for k, a in enumerate(analyses):
        shown = list(a.findings) + [f for f in a.flags if f not in a.findings]
        for f in shown:
            if f.kind not in SHOWN_KINDS:
                continue
            key = (f.kind, f.subject)
            if key not in cells:
                order.append(key)
                cells[key] = ["-"] * len(analyses)
            cells[key][k] = _cell(f)
    named = {"shape": "game length", "ties": "shared wins"}
    return [[named.get(kind, subject)] + cells[(kind, subject)] for kind, subject in order]


def _panels(analyses, labels, height: float):
    fig = _new(min(3.6 * len(analyses), 12.0), height)
    axes = fig.subplots(1, len(analyses), sharex=True, squeeze=False)[0]
    for ax, lab in zip(axes, labels):
        ax.set_title(lab, fontsize=9)
        ax.grid(axis="x", alpha=0.3)
        ax.tick_params(labelsize=7)
    return fig, axes


def _bars(ax, labels, share, lo, hi, fair, colors):
    y = np.arange(len(labels))[::-1]
    share, lo, hi = (np.asarray(v, dtype=float) * 100 for v in (share, lo, hi))
    ax.barh(y, share, color=colors, alpha=0.85, height=0.6)
    ax.errorbar(share, y, xerr=np.nan_to_num(np.maximum([share - lo, hi - share], 0.0)),
                fmt="none", ecolor="black", capsize=2.5, lw=1)
    if fair is not None:
        ax.axvline(fair * 100, color=GREY, ls="--", lw=1)
    ax.set_yticks(y)
    ax.set_yticklabels(labels, fontsize=7)


def fairness_panels(analyses, labels):
    usable = [a for a in analyses if not a.solo and a.all_tied_rate != 1.0]
    if len(usable) != len(analyses):
        return None
    rows = [_fairness_rows(a) for a in analyses]
    n = max(len(r[1]) for r in rows)
    fig, axes = _panels(analyses, labels, 0.9 + 0.32 * n)
    for ax, a, (heading, names, share, lo, hi, verdicts) in zip(axes, analyses, rows):
        _bars(ax, names, share, lo, hi, 1.0 / a.players,
              [VERDICT_COLORS.get(v, GREY) for v in verdicts])
        ax.set_xlabel("win share, %", fontsize=7)
    axes[0].set_xlim(0, None)
    what = "start position" if rows[0][0].endswith("start position") else "seat"
    return Figure("several-fairness", f"Fairness by {what}, run by run",
                  "Win share (ties split) with its Wilson interval; dashed: each run's fair "
                  "share 1/players. Red: favoured, blue: disadvantaged (Holm-adjusted), grey: "
                  "within the noise. The panels share their win-share axis.", _png(fig))


def strategy_panels(analyses, labels):
    if any(a.solo or a.single_strategy for a in analyses):
        return None
    n = max(len(a.strategy_table) for a in analyses)
    fig, axes = _panels(analyses, labels, 0.9 + 0.32 * n)
    for ax, a in zip(axes, analyses):
        t = a.strategy_table
        sn, _ = short_names(a.strategies)
        _bars(ax, [sn.get(str(x), str(x)) for x in t.strategy], t.win_share, t.win_low,
              t.win_high, 1.0 / a.players, [BLUE] * len(t))
        ax.set_xlabel("win share, %", fontsize=7)
    axes[0].set_xlim(0, None)
    return Figure("several-strategies", "Strategies, run by run",
                  "A strategy's win share over the seats it played, with its Wilson interval; "
                  "dashed: the fair share. Shared win-share axis.", _png(fig))


def score_panels(analyses, labels):
    fig = _new(7.5, 3.2)
    ax = fig.add_subplot(1, 1, 1)
    drawn = False
    for a, lab in zip(analyses, labels):
        vals, counts = a.score_hist_seat
        if counts.size == 0 or counts.sum() == 0:
            continue
        c = counts.sum(axis=0).astype(float)
        ax.step(vals, c / c.sum() * 100, where="mid", lw=1.4, label=lab)
        drawn = True
    if not drawn:
        return None
    ax.set_xlabel("final score")
    ax.set_ylabel("% of seat-games")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    return Figure("several-scores", "Final scores, run by run",
                  "The distribution of every seat's final score, one line per run, on one axis.",
                  _png(fig))


def length_panels(analyses, labels):
    if not all(a.length for a in analyses):
        return None
    units = {a.length["unit"] or a.length["column"] for a in analyses}
    fig = _new(7.5, 3.0)
    ax = fig.add_subplot(1, 1, 1)
    for a, lab in zip(analyses, labels):
        L = a.length
        c = L["counts"].astype(float)
        ax.step(L["values"], c / max(c.sum(), 1) * 100, where="mid", lw=1.4, label=lab)
    ax.set_xlabel(f"game length ({', '.join(sorted(units))})")
    ax.set_ylabel("% of games")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    return Figure("several-length", "Game length, run by run",
                  "The distribution of game length, one line per run, on one axis.", _png(fig))


def several_figures(analyses, labels) -> list:
    out = []
    for fn in (fairness_panels, strategy_panels, score_panels, length_panels):
        f = fn(analyses, labels)
        if f is not None:
            out.append(f)
    return out


def several_document(analyses, links: list | None = None) -> Document:
    labels = run_labels(analyses)
    figs = several_figures(analyses, labels)
    games = sorted({str(a.manifest.get("title") or a.manifest.get("game")) for a in analyses})
    title = f"Balance report: {', '.join(games)}, {len(analyses)} runs side by side"
    subtitle = " | ".join(f"{lab}: {a.n_games:,} games, run {a.manifest.get('run_id', '?')}"
                          for lab, a in zip(labels, analyses))
    played = Section("What was played", "played", [Table(["", *labels],
                                                          _played_rows(analyses, labels),
                                                          sortable=False)])
    verdicts = Section("Verdicts, run by run", "verdicts", [
        Table(["verdict on", *labels], verdict_rows(analyses),
              "Each cell: the value with its 95% interval and the verdict word, as each run's "
              "own report says it ('-': not a verdict of that run); for a card, its takers' "
              "win share. Sort by a column or filter the rows (HTML).")])
    figures = Section("Figures", "figures", list(figs))
    sections = [played, verdicts, figures]
    if links:
        sections.append(Section("Each run's own report", "runs",
                                [Link(f"{lab}: the full report", href)
                                 for lab, href in zip(labels, links)]))
    return Document(title, subtitle, sections)

