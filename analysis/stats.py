"""Small statistics used by the balance tables."""
from __future__ import annotations

import numpy as np
from statistics import NormalDist


def z_value(confidence: float = 0.95) -> float:
    """Two-sided normal quantile, e.g. 1.959964 for 95%."""
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    return NormalDist().inv_cdf(0.5 + confidence / 2.0)


def wilson_interval(successes, n, confidence: float = 0.95):
    """Wilson score interval for a proportion, vectorised.

    `successes` may be fractional (win shares with ties split). Returns (low, high) as numpy
    arrays (or floats for scalar input); nan where n == 0.
    """
    s = np.asarray(successes, dtype=float)
    n_arr = np.asarray(n, dtype=float)
    s, n_arr = np.broadcast_arrays(s, n_arr)
    z = z_value(confidence)
    z2 = z * z
    with np.errstate(divide="ignore", invalid="ignore"):
        p = s / n_arr
        denom = 1.0 + z2 / n_arr
        centre = (p + z2 / (2.0 * n_arr)) / denom
        half = z * np.sqrt(np.maximum(p * (1.0 - p) / n_arr + z2 / (4.0 * n_arr * n_arr), 0.0)) / denom
        low = np.where(n_arr > 0, np.clip(centre - half, 0.0, 1.0), np.nan)
        high = np.where(n_arr > 0, np.clip(centre + half, 0.0, 1.0), np.nan)
    if low.ndim == 0:
        return float(low), float(high)
    return low, high


def mean_and_se(values) -> tuple[float, float]:
    """Mean and its standard error (nan for fewer than two values)."""
    v = np.asarray(values, dtype=float)
    if v.size == 0:
        return float("nan"), float("nan")
    if v.size == 1:
        return float(v[0]), float("nan")
    return float(v.mean()), float(v.std(ddof=1) / np.sqrt(v.size))


def _normal_sf(z):
    """Upper tail of the standard normal, vectorised (erfc based, exact in the far tail)."""
    from math import erfc, sqrt
    z = np.asarray(z, dtype=float)
    return np.vectorize(lambda v: 0.5 * erfc(v / sqrt(2.0)) if np.isfinite(v)
                        else (0.0 if v > 0 else 1.0 if v < 0 else np.nan),
                        otypes=[float])(z)


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
    """Holm's step-down adjustment of a family of p-values (nan entries are left out).

    Adjusted p_(i) = max_{j <= i} min(1, (m - j + 1) p_(j)) over the p-values in increasing
    order; m is the number of non-nan p-values. Controls the family-wise error rate under any
    dependence (seats' win shares are dependent: they sum to one per game).
    """
    p = np.asarray(pvalues, dtype=float)
    out = np.full(p.shape, np.nan)
    ok = ~np.isnan(p)
    vals = p[ok]
    m = vals.size
    if m == 0:
        return out
    order = np.argsort(vals, kind="stable")
    adj = np.minimum(1.0, (m - np.arange(m)) * vals[order])
    adj = np.maximum.accumulate(adj)
    res = np.empty(m)
    res[order] = adj
    out[ok] = res
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
