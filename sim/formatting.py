"""How every number is shown: one module for the terminal, the Markdown and the HTML report
(and the verdict sentences), so that the same quantity reads the same, to the digit,
wherever it is printed.

    share(0.2750)                  '27.50%'        a win share, a take rate
    interval(0.2731, 0.2769)       '27.31 to 27.69' its interval, in percent (no % sign: the
                                                    column header or the share beside it says so)
    share_interval(p, lo, hi)      '27.50% (27.31 to 27.69)'
    signed(0.012)                  '+1.20'          a difference in percentage points
    num(3.14159)                   '3.14'
    p_value(0.0312)                '0.031'          a (Holm-adjusted) p-value
    theta(0.1234)                  '+0.123'         a Plackett-Luce log strength

Win shares, their intervals and head-to-head shares are shown with SHARE_DIGITS decimals of
a percent everywhere (more only when an interval would otherwise show equal ends).
"""
from __future__ import annotations

import math

SHARE_DIGITS = 2      # decimals of a percent for win shares, intervals, head-to-head
THETA_DIGITS = 3
MISSING = "n/a"


def _missing(x) -> bool:
    if x is None:
        return True
    try:
        return math.isnan(float(x))
    except (TypeError, ValueError):
        return False


def digits_for(lo: float, hi: float, least: int = SHARE_DIGITS) -> int:
    """Decimals of a percent so that an interval's ends differ when shown (at least `least`)."""
    width = abs(hi - lo) * 100 if not (_missing(lo) or _missing(hi)) else float("nan")
    if not math.isfinite(width) or width >= 0.05:
        return least
    return max(least, 3)


def share(x, digits: int = SHARE_DIGITS) -> str:
    if _missing(x):
        return MISSING
    return f"{100 * float(x):.{digits}f}%"


def interval(lo, hi, scale: float = 100.0, digits: int = SHARE_DIGITS, suffix: str = "") -> str:
    if _missing(lo) or _missing(hi):
        return MISSING
    return f"{float(lo) * scale:.{digits}f} to {float(hi) * scale:.{digits}f}{suffix}"


def share_interval(p, lo, hi, digits: int | None = None) -> str:
    if _missing(p):
        return MISSING
    d = digits_for(lo, hi) if digits is None else digits
    return f"{share(p, d)} ({interval(lo, hi, digits=d)})"


def signed(x, scale: float = 100.0, digits: int = SHARE_DIGITS) -> str:
    if _missing(x):
        return MISSING
    return f"{float(x) * scale:+.{digits}f}"


def num(x, digits: int = 2) -> str:
    if _missing(x):
        return MISSING
    return f"{float(x):,.{digits}f}"


def count(x) -> str:
    if _missing(x):
        return MISSING
    return f"{int(x):,}"


def p_value(p, digits: int = 2) -> str:
    if _missing(p):
        return MISSING
    return "< 1e-16" if p < 1e-16 else f"{float(p):.{digits}g}"


def p_text(p) -> str:
    """'p = 0.031' in a sentence."""
    if _missing(p):
        return "p n/a"
    return "p < 1e-16" if p < 1e-16 else f"p = {float(p):.2g}"


def theta(x) -> str:
    if _missing(x):
        return MISSING
    return f"{float(x):+.{THETA_DIGITS}f}"


def theta_interval(lo, hi) -> str:
    if _missing(lo) or _missing(hi):
        return MISSING
    return f"{theta(lo)} to {theta(hi)}"


def mean_se(mean, se) -> str:
    if _missing(mean):
        return MISSING
    return f"{float(mean):.2f} ± {float(se):.3f}" if not _missing(se) else f"{float(mean):.2f}"


def rate(x) -> str:
    """A speed (games per second): whole numbers from 100 up ('12,331'), three significant
    digits below ('45.3', '0.312'), so a slow search run never reads '0'."""
    if _missing(x):
        return MISSING
    x = float(x)
    return f"{x:,.0f}" if x >= 100 else f"{x:.3g}"


def workers(n) -> str:
    """'1 worker', '2 workers' (a dask run's 'dask' as it is)."""
    return f"{n} worker" if str(n) == "1" else f"{n} workers"


def fair_share(fair: float) -> str:
    """1/players as a percent: '25%' for four players, '33.3%' for three."""
    return share(fair, 1 if (100 * fair) % 1 else 0)
