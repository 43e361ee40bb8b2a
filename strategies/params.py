"""The parameter rows of a game's strategy catalog: a leaf both the strategy registry and the
search players' catalog read (plain Python, no toolkit import)."""
from __future__ import annotations


def param_list(entry: dict) -> list[tuple[str, float, str]]:
    """A catalog entry's parameters as (name, default, help)."""
    out = []
    for p in entry.get("params", []) or []:
        p = list(p)
        name = str(p[0])
        default = float(p[1]) if len(p) > 1 else 0.0
        help_ = str(p[2]) if len(p) > 2 else ""
        out.append((name, default, help_))
    return out


def n_params_of(catalog: list) -> int:
    """The common parameter vector length of a game's built-ins (a search player's entry
    declares its wider row: `row_width`, strategies/search.py)."""
    return max([max(len(param_list(e)), int(e.get("row_width", 0))) for e in catalog] or [0])
