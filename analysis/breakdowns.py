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
    "headline": True   # a question the game asks of its balance: every value's win share is
                       #   tested against the fair share 1/players (the seat test of
                       #   analysis/stats.py), Holm's correction across the values of every
                       #   headline breakdown of the run, and each value gets a verdict line
    "fairness": True   # the game's fairness question itself (e.g. start position when the
                       #   start player is not seat 1): its verdicts open the verdicts, the
                       #   seat verdicts come second, after "seat_note" saying why
    "seat_note": "..." # why seat numbers are not the fairness question
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from analysis.findings import Note
from analysis.stats import wilson_interval, z_value

MAX_VALUES = 40


@dataclass
class Breakdown:
    column: str
    label: str
    question: str
    table: pd.DataFrame      # value, rows, win_share, lo, hi, mean_score, score_lo, score_hi
    kind: str                # "breakdown" or "per_strategy"
    note: Note | None = None         # values pooled as "other" (reports/notes.py words it)
    summary: bool = False    # also printed by the terminal summary
    unit: str = ""           # what a value is (tokens, count, ...)
    headline: bool = False   # tested: columns p, p_holm, verdict in the table
    fairness: bool = False   # the game's fairness question: its verdicts come first
    seat_note: str = ""


def declared(meta_raw: dict | None, available: list,
             players: int | None = None) -> tuple[list, list, list]:
    """(breakdowns, per-strategy columns, notes) restricted to the columns present and, for
    entries naming "players", to runs with one of those player counts."""
    have = set(available)
    notes = []
    out = {"breakdowns": [], "per_strategy": []}
    for key in out:
        for item in (meta_raw or {}).get(key) or []:
            col = item.get("column")
            only = item.get("players")
            if only is not None and players is not None and int(players) not in {int(x) for x in only}:
                continue
            if col in have:
                out[key].append({"column": col, "label": str(item.get("label") or col),
                                 "question": str(item.get("question") or ""),
                                 "bin": int(item.get("bin") or 0),
                                 "summary": bool(item.get("summary", False)),
                                 "unit": str(item.get("unit") or ""),
                                 "headline": key == "breakdowns" and bool(item.get("headline")),
                                 "fairness": key == "breakdowns" and bool(item.get("fairness")),
                                 "seat_note": str(item.get("seat_note") or "")})
            else:
                notes.append(Note("breakdown-missing-column", {"label": item.get("label") or col,
                                                           "column": col}))
    return out["breakdowns"], out["per_strategy"], notes


def compute(files: list, breakdowns: list, per_strategy: list, confidence: float = 0.95) -> list:
    """One pass over the chunk files; returns Breakdown objects."""
    import pyarrow.parquet as pq
    if not breakdowns and not per_strategy:
        return []
    cols = sorted({b["column"] for b in breakdowns} | {p["column"] for p in per_strategy})
    sums: dict = {b["column"]: {} for b in breakdowns}
    strat: dict = {p["column"]: {} for p in per_strategy}
    for path in files:
        pf = pq.ParquetFile(path)
        names = set(pf.schema_arrow.names)
        need = [c for c in ["strategy", "win", "score"] + cols if c in names]
        df = pf.read(columns=need).to_pandas()
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
    z = z_value(confidence)
    out = []
    for b in breakdowns:
        acc = sums[b["column"]]
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
            rows.append({"value": value, "rows": int(n), "wins": float(w),
                         "win_share": w / n if n else math.nan,
                         "lo": float(lo), "hi": float(hi), "mean_score": mean,
                         "score_lo": mean - half, "score_hi": mean + half})
        t = pd.DataFrame(rows)
        if width:   # bins in numeric order of their lower bounds, "other" last
            t = t.iloc[np.argsort(order, kind="stable")] if rows else t
        else:
            try:
                t = t.sort_values("value", key=lambda s: pd.to_numeric(s, errors="raise"))
            except (ValueError, TypeError):
                pass
        out.append(Breakdown(b["column"], b["label"], b["question"], t.reset_index(drop=True),
                             "breakdown", note, bool(b.get("summary")), b.get("unit", ""),
                             bool(b.get("headline")) or bool(b.get("fairness")),
                             bool(b.get("fairness")), b.get("seat_note", "")))
    for p in per_strategy:
        rows = []
        for name, (n, x1, x2) in sorted(strat[p["column"]].items()):
            mean = x1 / n if n else math.nan
            var = (x2 - n * mean * mean) / (n - 1) if n > 1 else math.nan
            half = z * math.sqrt(max(var, 0.0) / n) if n > 1 else math.nan
            rows.append({"value": name, "rows": int(n), "mean": mean, "lo": mean - half,
                         "hi": mean + half})
        out.append(Breakdown(p["column"], p["label"], p["question"], pd.DataFrame(rows),
                             "per_strategy", "", bool(p.get("summary")), p.get("unit", "")))
    return out


def headline_tests(breakdowns: list, players: int, alpha: float = 0.05) -> list:
    """Test every value of every headline breakdown against the fair share 1/players (the
    seat test: analysis.stats.proportion_test) with Holm's correction across all of them; adds
    columns p, p_holm and verdict ("favoured" / "disadvantaged" / "fair") to each headline
    table in place and returns the headline breakdowns. Nothing is tested with one player."""
    from analysis.stats import holm, proportion_test
    heads = [b for b in breakdowns if b.kind == "breakdown" and b.headline and not b.table.empty]
    if players < 2 or not heads:
        for b in heads:
            b.headline = False
        return []
    fair = 1.0 / players
    ps = []
    for b in heads:
        t = b.table
        n = t["rows"].to_numpy(float)
        _, p = proportion_test(t["wins"].to_numpy(float), n, fair)
        p = np.where(n > 0, p, np.nan)
        t["p"] = p
        ps.append(p)
    adjusted = holm(np.concatenate(ps))
    k = 0
    for b in heads:
        t = b.table
        t["p_holm"] = adjusted[k:k + len(t)]
        k += len(t)
        t["verdict"] = [("favoured" if s > fair else "disadvantaged")
                        if not math.isnan(q) and q < alpha else "fair"
                        for s, q in zip(t["win_share"], t["p_holm"])]
    return heads


def for_summary(spec, out_dir: str, players: int, confidence: float = 0.95) -> list:
    """The breakdowns a game marks "summary": True, computed over a run folder's chunk files
    for the terminal summary (reports/terminal.py prints them)."""
    from analysis.metadata import game_metadata
    from sim.runner import chunk_files, log_columns

    comp = None
    if spec is not None:   # the run's own effective component file, as the report reads it
        from sim.game_api import ToolkitError
        from sim.run_folder import open_run
        try:
            comp = open_run(out_dir).components
        except ToolkitError:
            comp = None    # the summary itself says what is wrong with the folder
    meta = game_metadata(spec, comp) if spec is not None else {}
    by_value, per_strategy, _ = declared(meta, log_columns(out_dir), players)
    by_value = [b for b in by_value if b["summary"]]
    per_strategy = [p for p in per_strategy if p["summary"]]
    return compute(chunk_files(out_dir), by_value, per_strategy, confidence)
