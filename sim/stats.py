"""The statistics of the toolkit, each defined once (docs/architecture.md, "One analysis layer").

Closed forms on numpy and the standard library: the normal quantile is
`statistics.NormalDist.inv_cdf` (Wichura's AS241, accurate to double precision), the normal tail
`math.erfc`, the Wilson interval and Holm's step-down adjustment their textbook formulas. No
scipy or statsmodels at run time: importing them cost about a second of every summary and
report on the project's 2-core machine (the second core idles meanwhile, docs/architecture.md).
tests/test_stats.py and tests/test_analysis_stats.py check every function against scipy and
statsmodels (test-only references). What is computed here and nowhere else:

    z_value           two-sided normal quantile (no hard-coded 1.96 anywhere in the toolkit)
    wilson_interval   a win share's interval (fractional successes: ties split the win)
    ratio_interval    a pooled ratio sum(a)/sum(b) over games with a per-game (cluster)
                      delta-method interval: head-to-head shares
    mean_interval     a mean of per-game values with its normal interval
    proportion_test, z_test_p, holm, newcombe_difference, mean_difference

This module imports nothing of the toolkit. It sits in sim/, the bottom layer, because the
engine uses it too (the precision stop of a growing run); analysis/ builds its findings on
it (tests/test_layering.py).
"""
from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np


def z_value(confidence: float = 0.95) -> float:
    """Two-sided normal quantile, e.g. 1.959964 for 95%."""
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    return float(NormalDist().inv_cdf(0.5 + confidence / 2.0))


def wilson_interval(successes, n, confidence: float = 0.95):
    """Wilson score interval for a proportion, vectorised: the p0 whose score test
    |p - p0| / sqrt(p0 (1 - p0) / n) = z, i.e. centre (p + z^2 / 2n) / (1 + z^2 / n) and
    half-width z sqrt(p (1 - p) / n + z^2 / 4n^2) / (1 + z^2 / n).

    `successes` may be fractional (win shares with ties split). Returns (low, high) as numpy
    arrays (or floats for scalar input); nan where n == 0.
    """
    s = np.asarray(successes, dtype=float)
    n_arr = np.asarray(n, dtype=float)
    s, n_arr = np.broadcast_arrays(s, n_arr)
    ok = n_arr > 0
    low = np.full(s.shape, np.nan)
    high = np.full(s.shape, np.nan)
    if np.any(ok):
        z = z_value(confidence)
        m = n_arr[ok]
        p = s[ok] / m
        scale = 1.0 + z * z / m
        centre = (p + z * z / (2.0 * m)) / scale
        half = z * np.sqrt(np.maximum(p * (1.0 - p), 0.0) / m + z * z / (4.0 * m * m)) / scale
        # the interval holds its estimate: floating-point rounding at p = 0 or 1 must not
        # put an end a hair past it
        low[ok] = np.clip(np.minimum(centre - half, p), 0.0, 1.0)
        high[ok] = np.clip(np.maximum(centre + half, p), 0.0, 1.0)
    if low.ndim == 0:
        return float(low), float(high)
    return low, high


def ratio_interval(sum_a, sum_b, sum_aa, sum_bb, sum_ab, n_units, confidence: float = 0.95):
    """A pooled ratio r = A / B of two sums over independent units (games), with the
    delta-method (linearisation) interval of a ratio estimator: the residuals a_g - r b_g of
    the units give var(r) = sum (a_g - r b_g)^2 / B^2 * n / (n - 1). Seat pairs inside one game
    are not independent; the game is the unit, so the interval is honest however many pairs a
    game holds. Vectorised; returns (ratio, low, high) clipped to [0, 1]; nan where B == 0."""
    a, b, aa, bb, ab, n = (np.asarray(v, dtype=float)
                           for v in (sum_a, sum_b, sum_aa, sum_bb, sum_ab, n_units))
    z = z_value(confidence)
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.where(b > 0, a / b, np.nan)
        resid = np.maximum(aa - 2 * r * ab + r * r * bb, 0.0)
        var = np.where(n > 1, resid / (b * b) * n / (n - 1), np.nan)
        half = z * np.sqrt(var)
        low = np.clip(r - half, 0.0, 1.0)
        high = np.clip(r + half, 0.0, 1.0)
    if np.ndim(r) == 0:
        return float(r), float(low), float(high)
    return r, low, high


def mean_interval(values, confidence: float = 0.95) -> tuple[float, float, float]:
    """(mean, low, high) of per-game values with a normal interval (infinite for one value)."""
    v = np.asarray(values, dtype=float)
    if v.size == 0:
        return float("nan"), float("nan"), float("nan")
    m = float(v.mean())
    se = float(v.std(ddof=1) / np.sqrt(v.size)) if v.size > 1 else float("inf")
    z = z_value(confidence)
    return m, m - z * se, m + z * se


def mean_and_se(values) -> tuple[float, float]:
    """Mean and its standard error (nan for fewer than two values)."""
    v = np.asarray(values, dtype=float)
    if v.size == 0:
        return float("nan"), float("nan")
    if v.size == 1:
        return float(v[0]), float("nan")
    return float(v.mean()), float(v.std(ddof=1) / np.sqrt(v.size))


_ERFC = np.frompyfunc(math.erfc, 1, 1)


def _normal_sf(z):
    """Upper tail of the standard normal, vectorised: erfc(z / sqrt 2) / 2 (exact in the far
    tail, 0 at +inf, 1 at -inf, nan for nan)."""
    z = np.asarray(z, dtype=float)
    return 0.5 * np.asarray(_ERFC(z / math.sqrt(2.0)), dtype=float)


def proportion_test(successes, n, p0):
    """Two-sided score test of a proportion against `p0` (the fair share), vectorised.

    z = (p - p0) / sqrt(p0 (1 - p0) / n); returns (z, p-value). nan where n == 0 or
    p0 is 0 or 1 (nothing to test).
    """
    s = np.asarray(successes, dtype=float)
    n_arr = np.asarray(n, dtype=float)
    p0 = np.asarray(p0, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        var = p0 * (1.0 - p0) / n_arr
        z = np.where((n_arr > 0) & (var > 0), (s / n_arr - p0) / np.sqrt(var), np.nan)
    p = 2.0 * _normal_sf(np.abs(z))
    p = np.where(np.isnan(z), np.nan, np.minimum(p, 1.0))
    return z, p


def z_test_p(estimate, se):
    """Two-sided p-value of a normal test of `estimate` = 0 given its standard error,
    vectorised (nan where se is not positive and finite)."""
    e = np.atleast_1d(np.asarray(estimate, dtype=float))
    s = np.atleast_1d(np.asarray(se, dtype=float))
    e, s = np.broadcast_arrays(e, s)
    p = np.full(e.shape, np.nan)
    ok = (s > 0) & np.isfinite(s) & np.isfinite(e)
    p[ok] = np.minimum(2.0 * _normal_sf(np.abs(e[ok] / s[ok])), 1.0)
    return float(p[0]) if np.ndim(estimate) == 0 and np.ndim(se) == 0 else p


def holm(pvalues):
    """Holm's step-down adjustment of a family of p-values (nan entries are left out): the
    k-th smallest of m becomes max over j <= k of min(1, (m - j + 1) p_(j)). Controls the
    family-wise error rate under any dependence (seats' win shares are dependent: they sum
    to one per game)."""
    p = np.asarray(pvalues, dtype=float)
    out = np.full(p.shape, np.nan)
    ok = ~np.isnan(p)
    if not ok.any():
        return out
    family = p[ok]
    order = np.argsort(family, kind="mergesort")
    m = family.size
    stepped = np.minimum(1.0, (m - np.arange(m)) * family[order])
    adjusted = np.empty(m)
    adjusted[order] = np.maximum.accumulate(stepped)
    out[ok] = adjusted
    return out


def newcombe_difference(s1, n1, s2, n2, confidence: float = 0.95):
    """Difference of two independent proportions p1 - p2 with Newcombe's hybrid score
    interval (method 10 of Newcombe 1998, built from the two Wilson intervals), vectorised.

    Returns (difference, low, high); nan where either n is 0.
    """
    s1, n1, s2, n2 = (np.asarray(v, dtype=float) for v in (s1, n1, s2, n2))
    l1, u1 = wilson_interval(s1, n1, confidence)
    l2, u2 = wilson_interval(s2, n2, confidence)
    with np.errstate(divide="ignore", invalid="ignore"):
        p1 = s1 / n1
        p2 = s2 / n2
        d = p1 - p2
        low = d - np.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
        high = d + np.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    bad = (n1 <= 0) | (n2 <= 0)
    d = np.where(bad, np.nan, d)
    low = np.where(bad, np.nan, low)
    high = np.where(bad, np.nan, high)
    if np.ndim(d) == 0:
        return float(d), float(low), float(high)
    return d, low, high


def mean_difference(sum1, sumsq1, n1, sum2, sumsq2, n2, confidence: float = 0.95):
    """Difference of two means from sufficient statistics (sum, sum of squares, count) with
    a Welch (unequal variance) normal interval, vectorised. Returns (difference, low, high);
    nan where a group has fewer than two values."""
    sum1, sumsq1, n1, sum2, sumsq2, n2 = (np.asarray(v, dtype=float)
                                          for v in (sum1, sumsq1, n1, sum2, sumsq2, n2))
    z = z_value(confidence)
    with np.errstate(divide="ignore", invalid="ignore"):
        m1 = sum1 / n1
        m2 = sum2 / n2
        v1 = np.maximum(sumsq1 - n1 * m1 * m1, 0.0) / (n1 - 1.0)
        v2 = np.maximum(sumsq2 - n2 * m2 * m2, 0.0) / (n2 - 1.0)
        d = m1 - m2
        half = z * np.sqrt(v1 / n1 + v2 / n2)
    bad = (n1 < 2) | (n2 < 2)
    d = np.where((n1 < 1) | (n2 < 1), np.nan, d)
    low = np.where(bad, np.nan, d - half)
    high = np.where(bad, np.nan, d + half)
    if np.ndim(d) == 0:
        return float(d), float(low), float(high)
    return d, low, high


def games_to_halve(n_games: int) -> int:
    """More games needed to halve an interval's width: widths shrink as 1/sqrt(n), so the
    sample must grow fourfold, i.e. 3 x the games already played."""
    return 3 * int(n_games)
