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
