"""Game-specific breakdowns the report shows without game code: a game declares, in
`report_metadata()`,

    "breakdowns": [   # win share and mean score by the value of a per-seat log column
        {"column": "difficulty", "label": "Window difficulty",
         "question": "Do the favor tokens of a hard window make up for its difficulty?"},
    ],
    "per_strategy": [   # the mean of a per-seat log column for each strategy
        {"column": "empty_cells", "label": "Open spaces left"},
    ],

A breakdown column should take few distinct values (a difficulty, a start position, a skill
band): values beyond the 40 most frequent are pooled into "other". Streamed chunk file by
chunk file like the rest of the report, so memory stays flat.

Optional keys of an entry (both kinds):
    "players": [1]     # only in runs with these player counts (e.g. solo-only columns)
    "bin": 5           # breakdowns: group a numeric column into bins of this width (a
                       #   distribution: the rows per bin), labelled "40 to 44"
    "summary": True    # also printed by the terminal summary (`balance run` / `summary`)
    "unit": "tokens"   # what a value of the column is (tokens, count, position ...): shown
                       #   beside the label in the table heading; never "points" unless points

Headline questions (breakdowns only, runs of 2+ players):
    "headline": True   # a question the game asks of its balance: each value gets a verdict
                       #   line, as its grouping allows (analysis.tables.fair_share_table):
    "grouping": "after"  # how the seats are grouped: "before" play (tested against the fair
                       #   share 1/players, "favoured"/"disadvantaged"), "after" the game by
                       #   what happened in it (the default: tested, worded as an association),
                       #   or "game" (a game-level outcome, the same for every seat: no test,
                       #   its distribution over games); Holm's correction across the values
                       #   of one breakdown

The start position is not declared here but in the game's "start" declaration
(analysis/metadata.py start_declaration): `declared` turns it into the first breakdown
(grouping "before", values shown from 1 = the start player, in the terminal summary too), and
when it "leads" its verdicts open the report, the seat verdicts second after its note.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from analysis.findings import Note
from sim.stats import wilson_interval, z_value
from analysis.tables import GROUPINGS, fair_share_table

MAX_VALUES = 40


@dataclass
class Breakdown:
    column: str
    label: str
    question: str
    # "breakdown": value, rows, wins, win_share, win_low, win_high, mean_score, score_low,
    # score_high; "per_strategy": value, rows, mean, low, high
    table: pd.DataFrame
    kind: str                # "breakdown" or "per_strategy"
    note: Note | None = None         # values pooled as "other" (reports/notes.py words it)
    summary: bool = False    # also printed by the terminal summary
    unit: str = ""           # what a value is (tokens, count, ...)
    headline: bool = False   # tested: columns p, p_holm, verdict in the table
    fairness: bool = False   # the game's fairness question: its verdicts come first
    seat_note: str = ""
    grouping: str = "after"  # before / after / game (analysis.tables.GROUPINGS)
    start: bool = False      # the start position (the game's "start" declaration)


def declared(meta_raw: dict | None, available: list,
             players: int | None = None) -> tuple[list, list, list]:
    """(breakdowns, per-strategy columns, notes) restricted to the columns present and, for
    entries naming "players", to runs with one of those player counts."""
    from analysis.metadata import start_declaration
    have = set(available)
    notes = []
    out = {"breakdowns": [], "per_strategy": []}
    start = start_declaration(meta_raw, available, players)
    if start["column"] is not None:
        out["breakdowns"].append({
            "column": start["column"], "label": start["label"], "question": start["question"],
            "bin": 0, "summary": True, "unit": "", "headline": True,
            "fairness": start["leads"], "seat_note": start["note"], "grouping": "before",
            "shift": 1, "start": True})
    for key in out:
        for item in (meta_raw or {}).get(key) or []:
            col = item.get("column")
            only = item.get("players")
            if only is not None and players is not None and int(players) not in {int(x) for x in only}:
                continue
            if col == start["column"] and key == "breakdowns":
                continue   # the start position: declared once, above
            if col in have:
                grouping = str(item.get("grouping")
                               or ("before" if item.get("fairness") else "after"))
                out[key].append({"column": col, "label": str(item.get("label") or col),
                                 "grouping": grouping if grouping in GROUPINGS else "after",
                                 "question": str(item.get("question") or ""),
                                 "bin": int(item.get("bin") or 0),
                                 "summary": bool(item.get("summary", False)),
                                 "unit": str(item.get("unit") or ""),
                                 "headline": key == "breakdowns" and bool(item.get("headline")),
                                 "fairness": key == "breakdowns" and bool(item.get("fairness")),
                                 "seat_note": str(item.get("seat_note") or ""),
                                 "value_names": value_names(item)})
            else:
                notes.append(Note("breakdown-missing-column", {"label": item.get("label") or col,
                                                           "column": col}))
    return out["breakdowns"], out["per_strategy"], notes


def value_names(item: dict) -> dict:
    """{code: name} of a breakdown whose values are codes ("value_names": {0: "dike", ...});
    the keys read as whole numbers (a JSON copy of the declaration makes them text)."""
    return {int(k): str(v) for k, v in (item.get("value_names") or {}).items()}


def value_shown(b: dict, value):
    """A breakdown's value as a reader sees it: its declared name, else the value itself."""
    names = b.get("value_names") or {}
    try:
        return names.get(int(value), value) if names else value
    except (TypeError, ValueError):
        return value


def compute(logs, breakdowns: list, per_strategy: list, confidence: float = 0.95) -> list:
    """One pass over the logs (sim.run_folder.Logs, handed in: a table per chunk); returns
    Breakdown objects: a table per value of each breakdown column, then a table per strategy
    of each per-strategy column."""
    if not breakdowns and not per_strategy:
        return []
    cols = sorted({b["column"] for b in breakdowns} | {p["column"] for p in per_strategy})
    sums: dict = {b["column"]: {} for b in breakdowns}
    strat: dict = {p["column"]: {} for p in per_strategy}
    for table in logs.tables(["strategy", "win", "score"] + cols):
        _add_chunk(table.to_pandas(), breakdowns, per_strategy, sums, strat)
    z = z_value(confidence)
    return ([_value_breakdown(b, sums[b["column"]], z, confidence) for b in breakdowns] +
            [_strategy_breakdown(p, strat[p["column"]], z) for p in per_strategy])


def _add_chunk(df, breakdowns: list, per_strategy: list, sums: dict, strat: dict) -> None:
    """Add one chunk's rows to the running sums: per value (rows, wins, score, score^2) and
    per strategy (rows, x, x^2)."""
    if "win" not in df:
        df["win"] = np.nan
    if "score" not in df:
        df["score"] = np.nan
    df["score2"] = df["score"].astype(float) ** 2
    for b in breakdowns:
        key = b["column"]
        if b.get("bin"):
            width = b["bin"]
            key = (df[b["column"]] // width) * width   # a bin is named by its lower bound
        g = df.groupby(key, observed=True)
        part = pd.DataFrame({"rows": g.size(), "wins": g["win"].sum(),
                             "s1": g["score"].sum(), "s2": g["score2"].sum()})
        acc = sums[b["column"]]
        for value, row in part.iterrows():
            cur = acc.setdefault(value, np.zeros(4))
            cur += row.to_numpy(dtype=float)
    for p in per_strategy:
        c = p["column"]
        d = df[["strategy", c]].copy()
        d["x2"] = d[c].astype(float) ** 2
        g = d.groupby("strategy", observed=True)
        part = pd.DataFrame({"rows": g.size(), "x1": g[c].sum(), "x2": g["x2"].sum()})
        acc = strat[c]
        for value, row in part.iterrows():
            cur = acc.setdefault(str(value), np.zeros(3))
            cur += row.to_numpy(dtype=float)


def _value_breakdown(b: dict, acc: dict, z: float, confidence: float) -> Breakdown:
    """A breakdown's table from its sums: a row per value (at most MAX_VALUES, the rest
    pooled as "other"), its win share with a Wilson interval and its mean score with a normal
    interval, in the value's order (bins by their lower bounds)."""
    items = sorted(acc.items(), key=lambda kv: -kv[1][0])
    note = None
    if len(items) > MAX_VALUES:
        other = np.sum([v for _, v in items[MAX_VALUES:]], axis=0)
        note = Note("values-pooled", {"values": len(items) - MAX_VALUES})
        items = items[:MAX_VALUES] + [("other", other)]
    rows = []
    order = []   # binned: the numeric lower bound of each row ("other" last)
    width = b.get("bin") or 0
    for value, (n, w, s1, s2) in items:
        lo, hi = wilson_interval(w, n, confidence) if n else (math.nan, math.nan)
        if n:  # rounding can put a bound a hair past the share itself (0 or 1)
            lo, hi = min(float(lo), w / n), max(float(hi), w / n)
        mean = s1 / n if n else math.nan
        var = (s2 - n * mean * mean) / (n - 1) if n > 1 else math.nan
        half = z * math.sqrt(max(var, 0.0) / n) if n > 1 else math.nan
        if width:
            order.append(math.inf if value == "other" else float(value))
        if width and value != "other":
            value = f"{int(value)} to {int(value) + width - 1}" if width > 1 else int(value)
        elif b.get("shift") and value != "other":
            value = int(value) + int(b["shift"])   # start positions shown from 1
        rows.append({"value": value, "rows": int(n), "wins": float(w),
                     "win_share": w / n if n else math.nan,
                     "win_low": float(lo), "win_high": float(hi), "mean_score": mean,
                     "score_low": mean - half, "score_high": mean + half})
    t = pd.DataFrame(rows)
    if width:   # bins in numeric order of their lower bounds, "other" last
        t = t.iloc[np.argsort(order, kind="stable")] if rows else t
    else:
        try:
            t = t.sort_values("value", key=lambda s: pd.to_numeric(s, errors="raise"))
        except (ValueError, TypeError):
            pass
    if b.get("value_names") and rows:   # codes named by the game: the name, in code order
        t["value"] = [value_shown(b, v) for v in t["value"]]
    return Breakdown(b["column"], b["label"], b["question"], t.reset_index(drop=True),
                     "breakdown", note, bool(b.get("summary")), b.get("unit", ""),
                     bool(b.get("headline")) or bool(b.get("fairness")),
                     bool(b.get("fairness")), b.get("seat_note", ""),
                     b.get("grouping", "after"), bool(b.get("start")))


def _strategy_breakdown(p: dict, acc: dict, z: float) -> Breakdown:
    """A per-strategy column's table from its sums: each strategy's mean with a normal
    interval."""
    rows = []
    for name, (n, x1, x2) in sorted(acc.items()):
        mean = x1 / n if n else math.nan
        var = (x2 - n * mean * mean) / (n - 1) if n > 1 else math.nan
        half = z * math.sqrt(max(var, 0.0) / n) if n > 1 else math.nan
        rows.append({"value": name, "rows": int(n), "mean": mean, "low": mean - half,
                     "high": mean + half})
    return Breakdown(p["column"], p["label"], p["question"], pd.DataFrame(rows),
                     "per_strategy", "", bool(p.get("summary")), p.get("unit", ""))


def headline_tests(breakdowns: list, players: int, alpha: float = 0.05) -> list:
    """Every headline breakdown as its grouping allows (analysis.tables.fair_share_table):
    "before" and "after" values are tested against the fair share 1/players with Holm's
    correction across the values of that breakdown (the family of one question: the start
    positions, the routes); "game" outcomes get no test (each value wins 1/players by
    construction) but their share of games, with its interval (columns games, game_share,
    game_low, game_high). Adds columns p, p_holm and verdict to each table in place and returns
    the headline breakdowns. Nothing is tested with one player."""
    heads = [b for b in breakdowns if b.kind == "breakdown" and b.headline and not b.table.empty]
    if players < 2 or not heads:
        for b in heads:
            b.headline = False
        return []
    for b in heads:
        t = b.table
        tested = fair_share_table(t["rows"], t["wins"], players, alpha=alpha,
                                  grouping=b.grouping)
        t["p"] = tested["p"].to_numpy()
        t["p_holm"] = tested["p_holm"].to_numpy()
        t["verdict"] = tested["verdict"].to_numpy()
        if b.grouping == "game":
            games = t["rows"].to_numpy(float) / players
            lo, hi = wilson_interval(games, games.sum())
            t["games"] = games
            t["game_share"] = games / games.sum()
            t["game_low"], t["game_high"] = lo, hi
    return heads


def for_summary(spec, folder, players: int, confidence: float = 0.95) -> list:
    """The breakdowns a game marks "summary": True, computed over a checked run folder
    (sim.run_folder.RunFolder, opened by the caller with its components: the run's own
    effective component file, as the report reads it) for the terminal summary
    (reports/terminal.py prints them)."""
    from analysis.metadata import game_metadata

    meta = game_metadata(spec, folder.components) if spec is not None else {}
    by_value, per_strategy, _ = declared(meta, folder.logs.columns, players)
    by_value = [b for b in by_value if b["summary"]]
    per_strategy = [p for p in per_strategy if p["summary"]]
    out = compute(folder.logs, by_value, per_strategy, confidence)
    # the start position is tested here as in the report (Holm across the positions)
    headline_tests([b for b in out if b.start], players)
    return out


def start_breakdown(logs, meta_raw: dict | None, available: list, players: int,
                    confidence: float = 0.95) -> Breakdown | None:
    """The start-position table of a set of logs (a run, every seating of a compare):
    the game's start declaration as a breakdown, tested (Holm across the positions); None
    when the game has no start position at this player count."""
    by_value, _, _ = declared({"start": (meta_raw or {}).get("start")}, available, players)
    if not by_value:
        return None
    out = compute(logs, by_value, [], confidence)
    headline_tests(out, players)
    return out[0]
