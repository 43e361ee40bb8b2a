"""Sagrada positions from text: set up a state by hand, drive the kernels, score a window
(the rule tests use them; `game("sagrada").positions` finds this module through the game's
contract).

    T = default_tables()                  # packed default tables (1-element recarray)
    st = fresh_state(T, n_players)        # set-up done, every seat on a blank window
    set_window(st, seat, rows)            # dice from text: ["G1 Y6 .. B4 P6", ...]
    set_pool(st, ["R3", "B6"]); set_track(st, ["G2"])
    K = Kit()                             # card ids by name

Kernels take `T[0]` and `st[0]` (records passed by reference: they mutate `st`).
Window text: 4 rows of 5 tokens; a die is colour letter + value, ".." an open space.
Restriction text (set_restrictions): "r." colour, ".3" shade, ".." none.

    score_window(["G1 Y6 .. B4 P6", ...], public=["Row Colour Variety"], private="R")
        -> {"public": [...], "private": p, "favor": f, "empty": e, "total": t}
"""
from __future__ import annotations

import functools

import numpy as np

from sim.games.sagrada import enums as E
from sim.games.sagrada.components import components_from_text, default_components_text, load_components
from sim.games.sagrada.nb import new_state, setup_nb, sync_masks_nb

LETTER = {ch: i for i, ch in enumerate(E.COLOUR_LETTERS)}
R, Y, G, B, P = range(5)


@functools.lru_cache(maxsize=None)
def default_components():
    return load_components()


def default_tables():
    return E.pack_tables(default_components().tables)


def tables_with(*overrides: str):
    return E.pack_tables(load_components(None, tuple(overrides)).tables)


def no_trace():
    return np.zeros((0, E.TRACE_WIDTH), np.int64), np.zeros(1, np.int64)


def new_trace(rows: int = 512):
    return np.zeros((rows, E.TRACE_WIDTH), np.int64), np.zeros(1, np.int64)


def events(trace, tn, ev=None) -> list:
    rows = [tuple(int(x) for x in trace[i]) for i in range(int(tn[0]))]
    return [r for r in rows if ev is None or r[0] == ev]


def cell(name: str) -> int:
    """Rulebook notation: 'C4' = row C (third from the top), column 4."""
    return "ABCD".index(name[0].upper()) * E.COLS + int(name[1:]) - 1


def die(text: str):
    return LETTER[text[0].upper()], int(text[1])


def fresh_state(tables, n_players: int, seed: int = 12345, blank: bool = True):
    """A set-up game; every seat has taken the first side of its first card (tokens =
    difficulty); with blank=True its restrictions are then cleared."""
    st = new_state()
    trace, tn = no_trace()
    setup_nb(tables[0], st[0], n_players, seed, trace, tn)
    from sim.games.sagrada.nb import apply_window_nb
    for p in range(n_players):
        card = st[0]["dealt"][p, 0]
        apply_window_nb(tables[0], st[0], p, tables[0]["card_sides"][card, 0])
        if blank:
            set_restrictions(st, p, [".. .. .. .. .."] * 4)
    return st


def _tokens(rows):
    toks = " ".join(rows).split()
    assert len(toks) == E.N_CELLS, f"{len(toks)} cells in {rows}"
    return toks


def set_restrictions(st, seat, rows) -> None:
    for c, tok in enumerate(_tokens(rows)):
        st[0]["restr_colour"][seat, c] = LETTER[tok[0].upper()] if tok[0] != "." else E.NO_COLOUR
        st[0]["restr_value"][seat, c] = int(tok[1]) if tok[1] != "." else E.NO_VALUE
    sync_masks_nb(st[0], seat)


def set_pattern(st, tables, seat, pattern: int) -> None:
    st[0]["pattern"][seat] = pattern
    st[0]["restr_colour"][seat] = tables[0]["pattern_colour"][pattern, :E.N_CELLS]
    st[0]["restr_value"][seat] = tables[0]["pattern_value"][pattern, :E.N_CELLS]
    sync_masks_nb(st[0], seat)


def set_window(st, seat, rows) -> None:
    for c, tok in enumerate(_tokens(rows)):
        if tok == "..":
            st[0]["win_colour"][seat, c] = E.NO_COLOUR
            st[0]["win_value"][seat, c] = E.NO_VALUE
        else:
            st[0]["win_colour"][seat, c], st[0]["win_value"][seat, c] = die(tok)
        st[0]["win_exempt"][seat, c] = 0
    sync_masks_nb(st[0], seat)


def window_text(st, seat) -> list:
    out = []
    for r in range(E.ROWS):
        toks = []
        for k in range(E.COLS):
            c = r * E.COLS + k
            col = int(st[0]["win_colour"][seat, c])
            toks.append(".." if col < 0 else f"{E.COLOUR_LETTERS[col]}{int(st[0]['win_value'][seat, c])}")
        out.append(" ".join(toks))
    return out


def set_pool(st, dice) -> None:
    dice = [die(d) for d in dice]
    st[0]["n_pool"] = len(dice)
    for i, (c, v) in enumerate(dice):
        st[0]["pool_colour"][i], st[0]["pool_value"][i] = c, v


def pool(st) -> list:
    n = int(st[0]["n_pool"])
    return [f"{E.COLOUR_LETTERS[int(st[0]['pool_colour'][i])]}{int(st[0]['pool_value'][i])}" for i in range(n)]


def set_track(st, dice, round_=0) -> None:
    dice = [die(d) for d in dice]
    st[0]["n_track"] = len(dice)
    for i, (c, v) in enumerate(dice):
        st[0]["track_colour"][i], st[0]["track_value"][i] = c, v
        st[0]["track_round"][i] = round_


def track(st) -> list:
    n = int(st[0]["n_track"])
    return [f"{E.COLOUR_LETTERS[int(st[0]['track_colour'][i])]}{int(st[0]['track_value'][i])}" for i in range(n)]


def set_tools(st, tables, names) -> None:
    """Put the named tool cards face up (slots 0..), no tokens on them."""
    ids = [Kit().tool(n) for n in names]
    st[0]["tools"][:] = -1
    st[0]["tools"][:len(ids)] = ids
    st[0]["tool_tokens"][:] = 0
    st[0]["tool_gone"][:] = 0
    st[0]["n_tools"] = len(ids)


def set_public(st, names) -> None:
    ids = [Kit().public(n) for n in names]
    st[0]["public"][:] = -1
    st[0]["public"][:len(ids)] = ids
    st[0]["n_public"] = len(ids)


def options_buf():
    return np.full(E.MAX_OPTIONS, -99, np.int64)


class Kit:
    def __init__(self, components=None):
        self.names = (components or default_components()).card_names

    def window(self, name):
        return self.names["window"].index(name)

    def tool(self, name):
        return self.names["tool"].index(name)

    def public(self, name):
        return self.names["public"].index(name)

    def private(self, name):
        return self.names["private"].index(name)


def score_window(rows, public=(), private: str | None = None, tokens: int = 0,
                 components=None, players: int = 2) -> dict:
    """Score one window given as text (4 rows of 5 tokens, `..` open) under the named public
    objectives and the private colour (a letter, e.g. 'R'), with `tokens` favor tokens left,
    by the engine's own scoring kernel (score_nb): {'public': [points per objective],
    'private', 'favor', 'empty', 'total'}. `components`: a loaded component file (default:
    the game's own), so a designer's values score as they would play."""
    from sim.games.sagrada.nb import N_PTS, score_nb
    comp = components or default_components()
    tables = E.pack_tables(comp.tables)
    st = fresh_state(tables, players)
    set_window(st, 0, rows)
    st[0]["n_placed"][0] = sum(1 for t in _tokens(rows) if t != "..")
    kit = Kit(comp)
    ids = [kit.public(n) for n in public]
    st[0]["public"][:] = -1
    st[0]["public"][:len(ids)] = ids
    st[0]["n_public"] = len(ids)
    st[0]["priv"][0, :] = -1
    if private is not None:
        colour = LETTER[private[0].upper()]
        cards = [k for k in range(len(tables[0]["private_colour"]))
                 if int(tables[0]["private_colour"][k]) == colour]
        st[0]["priv"][0, 0] = cards[0]
    st[0]["tokens"][0] = tokens
    pts = np.zeros(N_PTS, np.int64)
    total = int(score_nb(tables[0], st[0], 0, pts))
    return {"public": [int(x) for x in pts[:len(ids)]], "private": int(pts[3]),
            "favor": int(pts[4]), "empty": int(pts[5]), "total": total}
