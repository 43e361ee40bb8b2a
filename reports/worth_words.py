"""The words of a card's counterfactual worth (its advantage, how often it was chosen, its
parity value), shared by `balance cards` (reports/card_worth.py) and the report's flag table
(reports/findings.py). A leaf of reports/: it imports no document machinery."""
from __future__ import annotations

import math

from analysis.metadata import component_name, value_text


def _pp(x: float, digits: int = 1) -> str:
    return "n/a" if x is None or not math.isfinite(x) else f"{100 * x:+.{digits}f}"


def _ci_pp(t: tuple) -> str:
    m, lo, hi = t
    if not math.isfinite(m):
        return "n/a"
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return f"{_pp(m)} pp"
    return f"{_pp(m)} pp ({_pp(lo)} to {_pp(hi)})"


def _ci_num(t: tuple, unit: str = "") -> str:
    m, lo, hi = t
    if not math.isfinite(m):
        return "n/a"
    u = f" {unit}" if unit else ""
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return f"{m:+.2f}{u}"
    return f"{m:+.2f}{u} ({lo:+.2f} to {hi:+.2f})"


def _value(v: float) -> str:
    return "?" if v is None or not math.isfinite(v) else (f"{v:.0f}" if float(v).is_integer()
                                                          else f"{v:.1f}")


def _one(label: str) -> str:
    return label[:-1] if label.endswith("s") else label


def card_name(row: dict) -> str:
    """The card as every report names it (analysis.metadata.component_name):
    "Hidden Gem (card, 6 points)"."""
    return component_name(row["name"], row["type"],
                          value_text(row.get("unit", "points"), row.get("value")))


def chosen_text(row: dict) -> str:
    """How often the players chose it: a description of play."""
    return (f"chosen in {100 * row['chosen_rate']:.1f}% of the {row['options']:,} decisions "
            f"where it was an option")


def advantage_text(row: dict) -> str:
    return (f"taking it {'gains' if row['win'][0] >= 0 else 'loses'} the seat "
            f"{_ci_pp(row['win'])} of win share and {_ci_num(row['score'], 'points')} of score "
            f"against its best alternative ({row['states']:,} sampled decisions)")


def parity_text(row: dict) -> str:
    p = row.get("parity")
    if p is None or not math.isfinite(p):
        return ""
    lo, hi = row.get("parity_low"), row.get("parity_high")
    vals = row.get("values_played") or []
    outside = bool(vals) and not (min(vals) <= p <= max(vals))
    ci = (f" ({_value(lo)} to {_value(hi)})" if lo is not None and math.isfinite(lo)
          and math.isfinite(hi) else "")
    return f"about {p:.1f}{ci}" + (", extrapolated beyond the values played" if outside else "")
