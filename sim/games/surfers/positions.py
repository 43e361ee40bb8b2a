"""Grand Surfers positions from hand-drawn small sheets: drive the kernels on them (the rule
tests use them; `game("surfers").positions` finds this module through the game's contract).

    T = sheet_tables(SEA, wave=".", channels=[...], **rules)   # packed tables (1-element recarray)
    st = fresh_state(T, n_players)          # set-up done: every surfer at the start
    put(T, st, who, "3b")                   # a surfer on a cell (status sea, circle held)
    c("3b")                                 # cell id: line 3 from the start (1-based), column b

Kernels take `T[0]` and `st[0]` (records passed by reference: they mutate `st`). Surfer ids
are seat * 2 + k (k = 0 the first surfer).
"""
from __future__ import annotations

import numpy as np

from sim.games.surfers import enums as E
from sim.games.surfers.components import components_from_text
from sim.games.surfers.nb import new_state, setup_nb

RULES = dict(second_surfer_line=3, fastest_points=2, duo_points=3, lines_per_fold=1,
             fold_on_marker_turn="false", boost_min=1, boost_max=2, pips_change=1,
             max_reflicks=5, max_short_flicks=20, max_boost_chain=8, turn_limit=600)

TEMPLATE = '''
finish = [
  {{ name = "Grand", score = 5, holds = 1 }},
  {{ name = "Great", score = 3, holds = 1 }},
  {{ name = "Good", score = 1, holds = 0 }},
]
[sea]
sheet = """
{sea}
"""
channels = {channels}
[wave]
sheet = """
{wave}
"""
[flick]
spread = {spread}
pips = [1.0, 1.0, 1.0, 1.0, 1.0, 1.0]
[flick.noise]
distance = 0.6
distance_per_row = 0.12
side = 0.5
side_per_row = 0.1
[rules]
{rules}
'''


def sheet_text(sea: str, wave: str = ".", channels=(), spread=(0.0,), **rules) -> str:
    r = dict(RULES, **rules)
    return TEMPLATE.format(sea=sea.strip("\n"), wave=wave.strip("\n"),
                           channels="[" + ", ".join(f'"{x}"' for x in channels) + "]",
                           spread="[" + ", ".join(str(float(x)) for x in spread) + "]",
                           rules="\n".join(f"{k} = {v}" for k, v in r.items()))


def sheet_components(sea: str, **kw):
    return components_from_text(sheet_text(sea, **kw), "<test>")


def sheet_tables(sea: str, **kw):
    return sheet_components(sea, **kw).tables


def fresh_state(T, n_players: int = 2, seed: int = 1):
    st = new_state()
    setup_nb(T[0], st[0], n_players, np.uint64(seed))
    return st


def c(name: str) -> int:
    """'3b' -> cell id: line 3 counted from the start (1 = bottom), column b."""
    return (int(name[:-1]) - 1) * E.MAX_COLS + "abcdefghijkl".index(name[-1])


def put(T, st, who: int, name: str) -> None:
    """Place surfer `who` on a cell (as if it had left the start)."""
    s = st[0]
    cell = c(name)
    s.status[who] = E.S_SEA
    s.cell[who] = cell
    s.left_start[who] = 1
    if T[0].cell_kind[cell] == E.K_CIRCLE:
        s.occ[cell] = who


def where(st, who: int):
    """'3b', 'start', 'beach:<slot>', 'wave', 'tide'."""
    s = st[0]
    status = int(s.status[who])
    if status == E.S_SEA:
        cell = int(s.cell[who])
        return f"{cell // E.MAX_COLS + 1}{'abcdefghijkl'[cell % E.MAX_COLS]}"
    if status == E.S_BEACH:
        return f"beach:{int(s.slot[who])}"
    return {E.S_START: "start", E.S_WAVE: "wave", E.S_TIDE: "tide"}[status]


def no_trace():
    return np.zeros((0, E.TRACE_WIDTH), np.int64), np.zeros(1, np.int64)


def options_buf():
    return np.zeros(E.MAX_OPTIONS, np.int64)
