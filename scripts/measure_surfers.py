"""The Grand Surfers figures of docs/games/grand-surfers.md, reproducible: one process, one
core (`SPEC.play_chunk`), fixed seeds.

    python scripts/measure_surfers.py skill [--strategy racer] [--games 40000] [--seed 11]
                                            [--spreads 0.1,1.5] [--save F.npy] [--baseline F.npy]
    python scripts/measure_surfers.py matchups [--games 40000]
    python scripts/measure_surfers.py rules [--games 20000]

`skill`: the skill effect averaged over seats. The two seatings (steady hand first, then
second) are played on the same game seeds; per game x = (steady seat's win share in seating A
+ in seating B) / 2, so the first-seat edge cancels; the figure is the mean of x with a 95%
normal interval. `--save` keeps the per-game x; `--baseline` a file saved earlier (e.g.
before a change of the players): the paired difference on the same seeds, with its interval.
"""
from __future__ import annotations

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from sim.stats import wilson_interval  # noqa: E402
from sim.games.surfers import SPEC  # noqa: E402

Z95 = 1.959964


def _play(names, games, seed, overrides=()):
    comp = SPEC.load_components(None, tuple(overrides))
    p = SPEC.prepare(comp, len(names), list(names), seed)
    return SPEC.play_chunk(p, 0, games)


def _mean_ci(x):
    x = np.asarray(x, float)
    m = x.mean()
    h = Z95 * x.std(ddof=1) / np.sqrt(len(x))
    return m, m - h, m + h


def skill(args) -> None:
    lo, hi = (float(v) for v in args.spreads.split(","))
    n = args.games
    a = _play([args.strategy] * 2, n, args.seed, (f"flick.spread=[{lo},{hi}]",))
    b = _play([args.strategy] * 2, n, args.seed, (f"flick.spread=[{hi},{lo}]",))
    wa = a["win"].reshape(n, 2)[:, 0]          # steady hand in seat 1
    wb = b["win"].reshape(n, 2)[:, 1]          # steady hand in seat 2
    x = (wa + wb) / 2.0
    m, l, h = _mean_ci(x)
    la, ha = wilson_interval(wa.sum(), n)
    lb, hb = wilson_interval(wb.sum(), n)
    print(f"{args.strategy} x 2, spreads {lo} vs {hi}, {n:,} games per seating, seed {args.seed}")
    print(f"  steady hand in seat 1: {wa.mean():.1%} ({la:.1%}-{ha:.1%})")
    print(f"  steady hand in seat 2: {wb.mean():.1%} ({lb:.1%}-{hb:.1%})")
    print(f"  seat-averaged skill effect: {m:.1%} ({l:.1%}-{h:.1%})")
    hits = a["aim_hits"].reshape(n, 2).sum(axis=0) / a["flicks"].reshape(n, 2).sum(axis=0)
    print(f"  aimed-cell hit rate (seating A): steady {hits[0]:.1%}, shaky {hits[1]:.1%}")
    ch = (a["channels_up"] + a["channels_down"]).reshape(n, 2).mean(axis=0)
    print(f"  channels drawn per game (seating A): steady {ch[0]:.2f}, shaky {ch[1]:.2f}")
    if args.save:
        np.save(args.save, x)
    if args.baseline:
        x0 = np.load(args.baseline)
        if len(x0) != len(x):
            raise SystemExit(f"baseline has {len(x0)} games, this run {len(x)}")
        d, dl, dh = _mean_ci(x - x0)
        print(f"  baseline (same seeds): {x0.mean():.1%}; difference {d:+.1%} ({dl:+.1%} to {dh:+.1%})")


MATCHUPS = [
    (["racer", "racer"], ()), (["rider", "rider"], ()),
    (["racer"] * 4, ()), (["rider"] * 4, ()), (["random"] * 4, ()),
    (["rider", "racer"], ()), (["racer", "random"], ()),
]


def matchups(args) -> None:
    n = args.games
    for names, ov in MATCHUPS:
        k = len(names)
        w = _play(names, n, args.seed, ov)["win"].reshape(n, k)
        parts = []
        for s in range(k):
            lo, hi = wilson_interval(w[:, s].sum(), n)
            parts.append(f"{w[:, s].mean():.1%} ({lo:.1%}-{hi:.1%})")
        print(f"{' x '.join(names) if len(set(names)) > 1 else names[0] + f' x {k}'}: " + " / ".join(parts))


RULE_COLS = [("pushes", "pushes"), ("pushed", "surfers pushed"), ("kills", "knock-outs by a push"),
             ("boosts", "boosts"), ("rides", "channel rides"), ("out_wave", "surfers taken by the wave"),
             ("out_tide", "out in the tide"), ("reflicks", "re-flicks"), ("plus", "pips +1"),
             ("minus", "pips -1"), ("channels_up", "channels drawn up"),
             ("channels_down", "channels drawn down"), ("half_moves", "halved moves"),
             ("off_sheet", "off the sheet"), ("short_flicks", "short flicks"),
             ("on_beach", "surfers on the beach at the end")]


def rules(args) -> None:
    n = args.games
    names = ["rider", "racer", "blocker", "builder"]
    c = _play(names, n, args.seed)
    print(f"{n:,} games, {', '.join(names)}, default file")
    for col, label in RULE_COLS:
        per_game = c[col].reshape(n, 4).sum(axis=1)
        print(f"  {label}: {per_game.mean():.2f} per game ({(per_game > 0).mean():.0%} of games)")
    print(f"  turns: {c['length'].reshape(n, 4)[:, 0].mean():.1f}")
    hits = c["aim_hits"].sum() / c["flicks"].sum()
    print(f"  aimed-cell hit rate: {hits:.1%}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="what", required=True)
    s = sub.add_parser("skill")
    s.add_argument("--strategy", default="racer")
    s.add_argument("--games", type=int, default=40000)
    s.add_argument("--seed", type=int, default=11)
    s.add_argument("--spreads", default="0.1,1.5")
    s.add_argument("--save")
    s.add_argument("--baseline")
    s = sub.add_parser("matchups")
    s.add_argument("--games", type=int, default=40000)
    s.add_argument("--seed", type=int, default=11)
    s = sub.add_parser("rules")
    s.add_argument("--games", type=int, default=20000)
    s.add_argument("--seed", type=int, default=11)
    args = ap.parse_args(argv)
    {"skill": skill, "matchups": matchups, "rules": rules}[args.what](args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
