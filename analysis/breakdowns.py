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
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from analysis.stats import wilson_interval, z_value

MAX_VALUES = 40


@dataclass
class Breakdown:
    column: str
    label: str
    question: str
    table: pd.DataFrame      # value, rows, win_share, lo, hi, mean_score, score_lo, score_hi
    kind: str                # "breakdown" or "per_strategy"
    note: str = ""


def declared(meta_raw: dict | None, available: list) -> tuple[list, list, list]:
    """(breakdowns, per-strategy columns, notes) restricted to the columns present."""
    have = set(available)
    notes = []
    out = {"breakdowns": [], "per_strategy": []}
    for key in out:
        for item in (meta_raw or {}).get(key) or []:
            col = item.get("column")
            if col in have:
                out[key].append({"column": col, "label": str(item.get("label") or col),
                                 "question": str(item.get("question") or "")})
            else:
                notes.append(f"{item.get('label') or col}: column '{col}' is not in the logs; left out")
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
            g = df.groupby(b["column"], observed=True)
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
        note = ""
        if len(items) > MAX_VALUES:
            other = np.sum([v for _, v in items[MAX_VALUES:]], axis=0)
            note = f"{len(items) - MAX_VALUES} rarer values pooled as 'other'"
            items = items[:MAX_VALUES] + [("other", other)]
        rows = []
        for value, (n, w, s1, s2) in items:
            lo, hi = wilson_interval(w, n, confidence) if n else (math.nan, math.nan)
            if n:  # rounding can put a bound a hair past the share itself (0 or 1)
                lo, hi = min(float(lo), w / n), max(float(hi), w / n)
            mean = s1 / n if n else math.nan
            var = (s2 - n * mean * mean) / (n - 1) if n > 1 else math.nan
            half = z * math.sqrt(max(var, 0.0) / n) if n > 1 else math.nan
            rows.append({"value": value, "rows": int(n), "win_share": w / n if n else math.nan,
                         "lo": float(lo), "hi": float(hi), "mean_score": mean,
                         "score_lo": mean - half, "score_hi": mean + half})
        t = pd.DataFrame(rows)
        try:
            t = t.sort_values("value", key=lambda s: pd.to_numeric(s, errors="raise"))
        except (ValueError, TypeError):
            pass
        out.append(Breakdown(b["column"], b["label"], b["question"], t.reset_index(drop=True),
                             "breakdown", note))
    for p in per_strategy:
        rows = []
        for name, (n, x1, x2) in sorted(strat[p["column"]].items()):
            mean = x1 / n if n else math.nan
            var = (x2 - n * mean * mean) / (n - 1) if n > 1 else math.nan
            half = z * math.sqrt(max(var, 0.0) / n) if n > 1 else math.nan
            rows.append({"value": name, "rows": int(n), "mean": mean, "lo": mean - half,
                         "hi": mean + half})
        out.append(Breakdown(p["column"], p["label"], p["question"], pd.DataFrame(rows),
                             "per_strategy"))
    return out
