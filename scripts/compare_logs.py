"""Compare two run folders' logs column by column, by value ("no rule changed").

    python scripts/compare_logs.py RUN_A RUN_B [--rename OLD=NEW ...] [--scale COL=FACTOR ...]
                                   [--ignore COL ...] [--show N]

RUN_A is usually the run of the old engine, RUN_B the same command on the new one. Rows are
matched on (game, seat). Values compare by value whatever their type (an int64 column and a
float64 column holding the same numbers are equal; categorical columns compare as text).

  --rename OLD=NEW   column OLD of RUN_A is called NEW in RUN_B
  --scale COL=F      RUN_A stored COL (its name in RUN_B) as an integer x F (the old x1000
                     integers): RUN_A's value / F must equal RUN_B's value to within the
                     rounding of the integer (0.5 / F)
  --ignore COL       leave COL out (`run_id` is always left out: it names the run)
  --show N           differences printed per column (default 5)

Prints the columns compared and, for each column that differs, how many rows differ and the
first ones. Exit code 0 when everything matches, 1 on any difference (missing or extra
columns and rows included), 2 on a usage error (one line `compare_logs: error: ...`).
"""
from __future__ import annotations

import argparse
import os
import sys

import numpy as np
import pandas as pd

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

ALWAYS_IGNORED = ("run_id",)


def _pairs(items, what):
    out = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep or not key or not value:
            raise ValueError(f"{what} takes NAME=VALUE, got {item!r}")
        out[key.strip()] = value.strip()
    return out


def load(run_dir: str) -> pd.DataFrame:
    from sim.runner import read_logs
    df = read_logs(run_dir)
    return df.drop(columns=[c for c in ALWAYS_IGNORED if c in df.columns])


def _values(col: pd.Series):
    """A comparable numpy array: numbers as float64 (ints are exact below 2**53; larger
    ones, e.g. bit masks, compare as int64/uint64), anything else as text."""
    if isinstance(col.dtype, pd.CategoricalDtype) or col.dtype == object:
        return col.astype(str).to_numpy(), "text"
    if col.dtype.kind in "iub":
        return col.to_numpy(), "int"
    return col.to_numpy(np.float64), "float"


def compare(a: pd.DataFrame, b: pd.DataFrame, rename=None, scale=None, ignore=(), show=5,
            out=sys.stdout) -> int:
    """Print the differences of b against a; returns the number of differing columns, rows
    or key mismatches (0: identical by value)."""
    rename = dict(rename or {})
    scale = {k: float(v) for k, v in (scale or {}).items()}
    a = a.rename(columns=rename)
    ignore = set(ignore)
    problems = 0
    only_a = [c for c in a.columns if c not in b.columns and c not in ignore]
    only_b = [c for c in b.columns if c not in a.columns and c not in ignore]
    if only_a:
        print(f"only in A: {', '.join(only_a)}", file=out)
        problems += len(only_a)
    if only_b:
        print(f"only in B: {', '.join(only_b)}", file=out)
        problems += len(only_b)
    keys = ["game", "seat"]
    a = a.sort_values(keys, kind="stable").reset_index(drop=True)
    b = b.sort_values(keys, kind="stable").reset_index(drop=True)
    if len(a) != len(b) or not (a[keys].to_numpy() == b[keys].to_numpy()).all():
        print(f"rows differ: A has {len(a)} (game, seat) rows, B has {len(b)}; "
              f"comparing the rows both have", file=out)
        problems += 1
        merged = a[keys].merge(b[keys], on=keys, how="inner")
        a = merged.merge(a, on=keys, how="left")
        b = merged.merge(b, on=keys, how="left")
    common = [c for c in a.columns if c in b.columns and c not in ignore]
    for c in common:
        va, ka = _values(a[c])
        vb, kb = _values(b[c])
        if c in scale:
            va = va.astype(np.float64) / scale[c]
            vb = vb.astype(np.float64)
            bad = ~(np.abs(va - vb) <= 0.5 / scale[c] + 1e-12)
        elif "text" in (ka, kb):
            bad = a[c].astype(str).to_numpy() != b[c].astype(str).to_numpy()
        elif ka == "int" and kb == "int":
            bad = va != vb
        else:
            fa, fb = va.astype(np.float64), vb.astype(np.float64)
            bad = ~((fa == fb) | (np.isnan(fa) & np.isnan(fb)))
        n_bad = int(np.count_nonzero(bad))
        if n_bad:
            problems += 1
            print(f"column {c}: {n_bad} of {len(bad)} rows differ", file=out)
            for r in np.flatnonzero(bad)[:show]:
                print(f"    game {a.game[r]} seat {a.seat[r]}: A {a[c][r]}  B {b[c][r]}",
                      file=out)
    print(f"{len(common)} columns compared on {len(a)} rows: "
          f"{'identical by value' if problems == 0 else f'{problems} difference(s)'}", file=out)
    return problems


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run_a")
    ap.add_argument("run_b")
    ap.add_argument("--rename", action="append", metavar="OLD=NEW")
    ap.add_argument("--scale", action="append", metavar="COL=FACTOR")
    ap.add_argument("--ignore", action="append", default=[], metavar="COL")
    ap.add_argument("--show", type=int, default=5)
    args = ap.parse_args(argv)
    try:
        rename = _pairs(args.rename, "--rename")
        scale = _pairs(args.scale, "--scale")
        for k, v in scale.items():
            if not float(v) > 0:
                raise ValueError(f"--scale {k}={v}: the factor must be > 0")
        a, b = load(args.run_a), load(args.run_b)
    except Exception as exc:  # a usage problem: one line
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        print(f"compare_logs: error: {first}", file=sys.stderr)
        return 2
    return 1 if compare(a, b, rename, scale, args.ignore, args.show) else 0


if __name__ == "__main__":
    sys.exit(main())
