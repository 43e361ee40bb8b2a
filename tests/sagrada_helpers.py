"""Helpers for driving the Sagrada kernels on hand-set positions (tests only).

    T = default_tables()                  # packed default tables (1-element recarray)
    st = fresh_state(T, n_players)        # set-up done, every seat on a blank window
    set_window(st, seat, rows)            # dice from text: ["G1 Y6 .. B4 P6", ...]
    set_pool(st, ["R3", "B6"]); set_track(st, ["G2"])
    K = Kit()                             # card ids by name

Kernels take `T[0]` and `st[0]` (records passed by reference: they mutate `st`).
Window text: 4 rows of 5 tokens; a die is colour letter + value, ".." an open space.
Restriction text (set_restrictions): "r." colour, ".3" shade, ".." none.
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
    st[0]["g"][E.G_N_POOL] = len(dice)
    for i, (c, v) in enumerate(dice):
        st[0]["pool_colour"][i], st[0]["pool_value"][i] = c, v


def pool(st) -> list:
    n = int(st[0]["g"][E.G_N_POOL])
    return [f"{E.COLOUR_LETTERS[int(st[0]['pool_colour'][i])]}{int(st[0]['pool_value'][i])}" for i in range(n)]


def set_track(st, dice, round_=0) -> None:
    dice = [die(d) for d in dice]
    st[0]["g"][E.G_N_TRACK] = len(dice)
    for i, (c, v) in enumerate(dice):
        st[0]["track_colour"][i], st[0]["track_value"][i] = c, v
        st[0]["track_round"][i] = round_


def track(st) -> list:
    n = int(st[0]["g"][E.G_N_TRACK])
    return [f"{E.COLOUR_LETTERS[int(st[0]['track_colour'][i])]}{int(st[0]['track_value'][i])}" for i in range(n)]


def set_tools(st, tables, names) -> None:
    """Put the named tool cards face up (slots 0..), no tokens on them."""
    ids = [Kit().tool(n) for n in names]
    st[0]["tools"][:] = -1
    st[0]["tools"][:len(ids)] = ids
    st[0]["tool_tokens"][:] = 0
    st[0]["tool_gone"][:] = 0
    st[0]["g"][E.G_N_TOOLS] = len(ids)


def set_public(st, names) -> None:
    ids = [Kit().public(n) for n in names]
    st[0]["public"][:] = -1
    st[0]["public"][:len(ids)] = ids
    st[0]["g"][E.G_N_PUBLIC] = len(ids)


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


# ---------------------------------------------------------------------------------------
# whole games through the platform's play loop (sim/harness.py) over the forward model
# ---------------------------------------------------------------------------------------
def kernels():
    from sim.games.sagrada import SPEC
    return SPEC.kernels()


def play_records(tables, n_players, run_seed, first_game, n_games, sids, params):
    """The records (RECORD's structured array, n_games * n_players rows) of games
    first_game.. of a run."""
    from sim.games.sagrada.model import RECORD
    rec = RECORD.empty(n_games * n_players)
    kernels().play_chunk(tables, new_state(), n_players, np.uint64(run_seed), first_game, n_games,
                         np.asarray(sids, np.int64), np.ascontiguousarray(params, np.float64), rec)
    return rec


def checked_records(tables, n_players, run_seed, first_game, n_games, sids, params):
    """(records, first broken invariant code, 0 = none) of games checked after every step
    (the harness's checked kernel)."""
    from sim.games.sagrada.model import RECORD
    rec = RECORD.empty(n_games * n_players)
    fail = kernels().checked_chunk(tables, new_state(), n_players, np.uint64(run_seed), first_game,
                                   n_games, np.asarray(sids, np.int64),
                                   np.ascontiguousarray(params, np.float64), rec)
    return rec, int(fail[0])


def traced_game(tables, n_players, run_seed, game, sids, params, max_events=20000):
    """(trace events, records of its n_players seats, final state) of one game."""
    from sim.games.sagrada.model import RECORD
    rec = RECORD.empty(n_players)
    st = new_state()
    trace, n = kernels().trace_game(tables, st, n_players, np.uint64(run_seed), game,
                                    np.asarray(sids, np.int64),
                                    np.ascontiguousarray(params, np.float64), max_events, rec)
    return trace[:n], rec, st
