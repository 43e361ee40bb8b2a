"""Outcome logs -> balance tables (per seat, per strategy).

Input: a logs DataFrame with at least `game`, `seat`, `strategy`, `score`, `win` (a win share:
1 for a sole winner, 1/k for a k-way tie, 0 otherwise), optionally `rank`, `end_reason`.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from analysis.stats import wilson_interval, z_value


def _group_table(df: pd.DataFrame, key: str, confidence: float) -> pd.DataFrame:
    g = df.groupby(key, observed=True, sort=True)
    out = pd.DataFrame({
        "rows": g.size(),
        "games": g["game"].nunique(),
    })
    if "win" in df.columns:
        wins = g["win"].sum()
        out["wins"] = wins
        out["win_share"] = wins / out["rows"]
        lo, hi = wilson_interval(wins.to_numpy(), out["rows"].to_numpy(), confidence)
        out["win_low"] = lo
        out["win_high"] = hi
    if "score" in df.columns:
        out["score_mean"] = g["score"].mean()
        out["score_sd"] = g["score"].std(ddof=1)
        out["score_se"] = out["score_sd"] / np.sqrt(out["rows"])
        out["score_min"] = g["score"].min()
        out["score_max"] = g["score"].max()
    if "rank" in df.columns:
        out["rank_mean"] = g["rank"].mean()
    out.index.name = key
    return out


@dataclass
class Summary:
    n_games: int
    n_players: int
    solo: bool
    confidence: float
    seats: pd.DataFrame
    strategies: pd.DataFrame
    end_reasons: pd.DataFrame | None = None
    tie_rate: float | None = None
    extra: dict = field(default_factory=dict)


def _illegal(parts: dict) -> pd.DataFrame | None:
    """{strategy: [illegal decisions, seat-games with any, seat-games]} -> the strategies with
    illegal decisions (None when there are none): they were replaced by option 0."""
    rows = [(str(k), int(v[0]), int(v[1]), int(v[2])) for k, v in sorted(parts.items(), key=lambda kv: str(kv[0]))
            if v[0] > 0]
    if not rows:
        return None
    return pd.DataFrame(rows, columns=["strategy", "decisions", "seat_games", "of_seat_games"])


def _illegal_parts(df: pd.DataFrame, acc: dict) -> None:
    if "illegal" not in df.columns:
        return
    key = df["strategy"].astype(str) if "strategy" in df.columns else pd.Series("(all)", index=df.index)
    ill = df["illegal"].astype(np.int64)
    g = pd.DataFrame({"k": key, "d": ill, "r": (ill > 0).astype(np.int64)}).groupby("k")
    for k, d, r, n in zip(g.size().index, g["d"].sum(), g["r"].sum(), g.size()):
        cur = acc.setdefault(k, [0, 0, 0])
        cur[0] += int(d)
        cur[1] += int(r)
        cur[2] += int(n)


def _choice_parts(df: pd.DataFrame, acc: dict) -> None:
    """{strategy: [decisions with 2+ legal options, seat-games]} from the `choices` column."""
    if "choices" not in df.columns or "strategy" not in df.columns:
        return
    g = pd.DataFrame({"k": df["strategy"].astype(str),
                      "c": df["choices"].astype(np.int64)}).groupby("k")
    for k, c, n in zip(g.size().index, g["c"].sum(), g.size()):
        cur = acc.setdefault(k, [0, 0])
        cur[0] += int(c)
        cur[1] += int(n)


def _choices(parts: dict) -> dict | None:
    """{strategy: mean decisions with 2+ legal options per seat-game} (None: not logged)."""
    return {k: v[0] / v[1] for k, v in parts.items() if v[1]} or None


def summarize(logs: pd.DataFrame, confidence: float = 0.95,
              end_reason_names: list | tuple | None = None) -> Summary:
    """Per-seat and per-strategy tables of a run's logs."""
    if len(logs) == 0:
        raise ValueError("no rows in the logs")
    n_games = int(logs["game"].nunique())
    n_players = int(logs["seat"].nunique())
    seats = _group_table(logs, "seat", confidence)
    strategies = _group_table(logs, "strategy", confidence) if "strategy" in logs.columns else None
    end = None
    if "end_reason" in logs.columns:
        per_game = logs.drop_duplicates("game")["end_reason"]
        counts = per_game.value_counts().sort_index()
        names = []
        for k in counts.index:
            if (end_reason_names is not None and isinstance(k, (int, np.integer))
                    and 0 <= int(k) < len(end_reason_names)):
                names.append(str(end_reason_names[int(k)]))
            else:
                names.append(str(k))
        end = pd.DataFrame({"reason": names, "games": counts.to_numpy(),
                            "share": counts.to_numpy() / n_games})
    tie_rate = None
    if "win" in logs.columns and n_players > 1:
        max_share = logs.groupby("game")["win"].max()
        tie_rate = float((max_share < 1.0 - 1e-9).mean())
    ill: dict = {}
    _illegal_parts(logs, ill)
    ch: dict = {}
    _choice_parts(logs, ch)
    return Summary(n_games=n_games, n_players=n_players, solo=n_players == 1,
                   confidence=confidence, seats=seats, strategies=strategies,
                   end_reasons=end, tie_rate=tie_rate,
                   extra={"z": z_value(confidence), "illegal": _illegal(ill),
                          "choices": _choices(ch)})


def summarize_run(out_dir: str, confidence: float = 0.95,
                  end_reason_names: list | tuple | None = None) -> Summary:
    """The same tables as `summarize`, streamed chunk file by chunk file, so that memory stays
    flat however many games the run holds (a chunk covers whole games, so per-game counts add
    up across chunks)."""
    import pyarrow.parquet as pq

    from sim.runner import chunk_files, log_columns

    available = set(log_columns(out_dir))
    cols = [c for c in ("game", "seat", "strategy", "score", "win", "rank", "end_reason", "illegal",
                                "choices") if c in available]
    illegal: dict = {}
    choices: dict = {}
    acc: dict = {"seat": {}, "strategy": {}}
    n_games = 0
    n_players = 0
    ends: dict = {}
    tied_games = 0
    for path in chunk_files(out_dir):
        df = pq.read_table(path, columns=cols).to_pandas()
        if len(df) == 0:
            continue
        n_games += int(df["game"].nunique())
        n_players = max(n_players, int(df["seat"].max()) + 1)
        if "end_reason" in df.columns:
            for k, v in df.loc[df["seat"] == 0, "end_reason"].value_counts().items():
                ends[k] = ends.get(k, 0) + int(v)
        if "win" in df.columns:
            tied_games += int((df.groupby("game")["win"].max() < 1.0 - 1e-9).sum())
        _illegal_parts(df, illegal)
        _choice_parts(df, choices)
        for key in ("seat", "strategy"):
            if key not in df.columns:
                continue
            g = df.groupby(key, observed=True, sort=True)
            part = pd.DataFrame({"rows": g.size(), "games": g["game"].nunique()})
            if "win" in df.columns:
                part["wins"] = g["win"].sum()
            if "score" in df.columns:
                part["s1"] = g["score"].sum().astype(float)
                part["s2"] = g["score"].apply(lambda s: float((s.astype(float) ** 2).sum()))
                part["smin"] = g["score"].min()
                part["smax"] = g["score"].max()
            if "rank" in df.columns:
                part["r1"] = g["rank"].sum().astype(float)
            for name, row in part.iterrows():
                cur = acc[key].get(name)
                if cur is None:
                    acc[key][name] = row.to_dict()
                    continue
                for c, v in row.items():
                    if c == "smin":
                        cur[c] = min(cur[c], v)
                    elif c == "smax":
                        cur[c] = max(cur[c], v)
                    else:
                        cur[c] += v
    if n_games == 0:
        raise ValueError("no rows in the logs")

    def table(key):
        if not acc[key]:
            return None
        t = pd.DataFrame.from_dict(acc[key], orient="index").sort_index()
        out = pd.DataFrame({"rows": t["rows"].astype(int), "games": t["games"].astype(int)})
        if "wins" in t:
            out["wins"] = t["wins"]
            out["win_share"] = t["wins"] / t["rows"]
            lo, hi = wilson_interval(t["wins"].to_numpy(), t["rows"].to_numpy(), confidence)
            out["win_low"] = lo
            out["win_high"] = hi
        if "s1" in t:
            n = t["rows"].astype(float)
            mean = t["s1"] / n
            var = (t["s2"] - n * mean ** 2) / (n - 1).where(n > 1)
            out["score_mean"] = mean
            out["score_sd"] = np.sqrt(var.clip(lower=0))
            out["score_se"] = out["score_sd"] / np.sqrt(n)
            out["score_min"] = t["smin"]
            out["score_max"] = t["smax"]
        if "r1" in t:
            out["rank_mean"] = t["r1"] / t["rows"]
        out.index.name = key
        return out

    end = None
    if ends:
        keys = sorted(ends)
        names = [str(end_reason_names[int(k)]) if end_reason_names is not None
                 and 0 <= int(k) < len(end_reason_names) else str(k) for k in keys]
        counts = np.array([ends[k] for k in keys])
        end = pd.DataFrame({"reason": names, "games": counts, "share": counts / n_games})
    return Summary(n_games=n_games, n_players=n_players, solo=n_players == 1,
                   confidence=confidence, seats=table("seat"), strategies=table("strategy"),
                   end_reasons=end, tie_rate=(tied_games / n_games) if n_players > 1 else None,
                   extra={"z": z_value(confidence), "illegal": _illegal(illegal),
                          "choices": _choices(choices)})
