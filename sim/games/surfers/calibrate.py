"""Grand Surfers: skill calibration, `balance calibrate surfers` (scripts/cli_calibrate.py).

A designer measures play-testers' accuracy ("18 of 40 flicks landed in the cell aimed at,
third row") and needs the `[flick] spread` that plays like it. Under the flick model
(nb.flick_nb) a flick aimed at the centre of wave cell (row r, column c) lands at
distance r + 0.5 + sd_y Z1 and side c + 0.5 + sd_x Z2, with

    sd_y = spread * (noise.distance + noise.distance_per_row * (r + 0.5))
    sd_x = spread * (noise.side + noise.side_per_row * (r + 0.5)),

and a flick that does not cross the start line (distance < 0) is flicked again. So the hit
rate (landing in the aimed cell) is, in closed form,

    hit(spread, r) = (2 Phi(0.5 / sd_y) - 1) (2 Phi(0.5 / sd_x) - 1) / Phi((r + 0.5) / sd_y)

the same for every column of a row (a hole or the sheet's edge beside the cell changes where
a miss lands, not whether it hits). It falls as the spread grows, so a measured rate gives
one spread (bisection); several rows' counts give a maximum-likelihood spread with a
likelihood-ratio interval. (The engine stops repeating short flicks after
rules.max_short_flicks in a row; the formula ignores that, a chance below 0.5^20.)
"""
from __future__ import annotations

import math

import numpy as np

from sim.formatting import share, share_interval
from sim.stats import wilson_interval

MAX_SPREAD = 10.0          # the component file's upper bound for a spread
DEFAULT_SPREADS = (0.0, 0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0)


def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def hit_rate(spread: float, row: int, noise) -> float:
    """P(a flick aimed at a cell of `row` (0 = at the start line) lands in it), spread >= 0."""
    n0, n1, n2, n3 = (float(v) for v in noise)
    centre = row + 0.5
    sdy = spread * (n0 + n1 * centre)
    sdx = spread * (n2 + n3 * centre)
    py = 1.0 if sdy <= 0 else 2.0 * _phi(0.5 / sdy) - 1.0
    px = 1.0 if sdx <= 0 else 2.0 * _phi(0.5 / sdx) - 1.0
    crossed = 1.0 if sdy <= 0 else _phi(centre / sdy)
    return py * px / crossed


def spread_for_rate(rate: float, row: int, noise) -> float:
    """The spread whose hit rate at `row` is `rate` (bisection; hit_rate falls with the
    spread). 0 for a rate of 1; MAX_SPREAD if even that spread hits more often."""
    if rate >= 1.0:
        return 0.0
    if hit_rate(MAX_SPREAD, row, noise) > rate:
        return MAX_SPREAD
    lo, hi = 0.0, MAX_SPREAD
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        if hit_rate(mid, row, noise) > rate:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def _loglik(spread: float, measured, noise) -> float:
    total = 0.0
    for row, hits, flicks in measured:
        p = min(max(hit_rate(spread, row, noise), 1e-12), 1.0 - 1e-12)
        total += hits * math.log(p) + (flicks - hits) * math.log(1.0 - p)
    return total


def fit_spread(measured, noise):
    """Maximum-likelihood spread from [(row, hits, flicks), ...] and its 95% likelihood-ratio
    interval (log-likelihood within 1.92 of the best), on a grid of 0.001."""
    grid = np.linspace(0.0, MAX_SPREAD, 10001)
    ll = np.array([_loglik(float(g), measured, noise) for g in grid])
    best = int(np.argmax(ll))
    inside = np.nonzero(ll >= ll[best] - 1.920729)[0]
    return float(grid[best]), float(grid[inside[0]]), float(grid[inside[-1]])


def sampled_hit_rate(tables, spread: float, row: int, flicks: int, seed: int = 1) -> float:
    """The engine's own draws (nb.flick_nb): the share of `flicks` flicks aimed at the middle
    cell of `row` that land in it, with every seat's spread set to `spread`. `tables`: the
    component file's tables (left unchanged)."""
    from sim.games.surfers import enums as E
    from sim.games.surfers.nb import flick_hits_nb, new_state, setup_nb
    rec = tables.copy()
    t = rec[0]
    t.skill[:] = float(spread)
    st = new_state()
    setup_nb(t, st[0], 2, np.uint64(seed))
    cols = int(t.wave_cols)
    first = row * E.MAX_WAVE_COLS
    col = next((c for c in [cols // 2, *range(cols)] if t.wave_kind[first + c] != E.W_NONE), None)
    if col is None:
        return float("nan")
    aim = first + col
    return flick_hits_nb(t, st[0], 0, aim, int(flicks)) / float(flicks)


def report_lines(components, spreads=DEFAULT_SPREADS, measured=(), check: int = 0) -> list:
    """The calibration table (hit rate by spread and row) and, for measured accuracies, the
    spread that plays like them. `measured`: [(row 0-based, hits, flicks or None for a bare
    rate given as hits in [0, 1]), ...]."""
    t = components.tables[0]
    noise = t.noise
    rows = int(t.wave_rows)
    lines = [f"Grand Surfers: flick calibration (component file {components.path})",
             "hit rate = the share of flicks landing in the cell aimed at (short flicks "
             "repeated); row 1 = the row at the start line",
             f"noise: sd along = spread x ({noise[0]:g} + {noise[1]:g} x distance), "
             f"sd sideways = spread x ({noise[2]:g} + {noise[3]:g} x distance), in cells",
             ""]
    head = ["spread"] + [f"row {r + 1}" for r in range(rows)]
    table = []
    for sp in spreads:
        cells = [f"{sp:g}"]
        for r in range(rows):
            txt = share(hit_rate(sp, r, noise))
            if check:
                txt += f" ({share(sampled_hit_rate(components.tables, sp, r, check))})"
            cells.append(txt)
        table.append(cells)
    widths = [max(len(h), *(len(row[i]) for row in table)) for i, h in enumerate(head)]
    lines.append("  ".join(h.rjust(w) for h, w in zip(head, widths)))
    for row in table:
        lines.append("  ".join(c.rjust(w) for c, w in zip(row, widths)))
    if check:
        lines.append(f"(in brackets: the engine's own draws, {check:,} flicks at the row's middle cell)")
    own = sorted(set(float(x) for x in t.skill))
    lines.append(f"this file's seats: spread {', '.join(f'{x:g}' for x in own)}")
    if measured:
        lines.append("")
        lines.append("measured accuracy -> spread:")
        counted = []
        for row, hits, flicks in measured:
            if flicks is None:
                sp = spread_for_rate(hits, row, noise)
                lines.append(f"  row {row + 1}: {share(hits)} hits -> spread {_fmt(sp)}")
                continue
            rate = hits / flicks
            lo, hi = wilson_interval(hits, flicks)
            sp, sp_hi, sp_lo = (spread_for_rate(x, row, noise) for x in (rate, lo, hi))
            lines.append(f"  row {row + 1}: {hits}/{flicks} hits = {share_interval(rate, lo, hi)} "
                         f"-> spread {_fmt(sp)} ({_fmt(sp_lo)} to {_fmt(sp_hi)})")
            counted.append((row, hits, flicks))
        if len(counted) > 1:
            best, lo, hi = fit_spread(counted, noise)
            lines.append(f"  all {len(counted)} rows together (maximum likelihood): spread "
                         f"{_fmt(best)} ({_fmt(lo)} to {_fmt(hi)})")
        lines.append("set it per seat: --set 'flick.spread=[...]' (seat order)")
    return lines


def _fmt(x: float) -> str:
    return f">= {MAX_SPREAD:g}" if x >= MAX_SPREAD else f"{x:.2f}"
