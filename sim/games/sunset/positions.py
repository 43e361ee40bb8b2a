"""Sunset Over Water positions by hand: drive the kernels on hand-set states (the rule tests
use them; `game("sunset").positions` finds this module through the game's contract).

    tables = default_tables()                   # the default tables (1-element record array)
    tables = tables_from_edits(("old", "new"))  # the same, from the default TOML with text edits
    st = fresh_state(tables, n_players)         # set-up done, then overwrite fields freely
    k = Kit()                                   # card ids by name (default components), option buffers

Kernels take `tables[0]` and `st[0]` (records passed by reference: they mutate `st`).
"""
from __future__ import annotations

import functools

import numpy as np

from sim.games.sunset import enums as E
from sim.games.sunset.components import (components_from_text, default_components_text,
                                         load_components)
from sim.games.sunset.nb import new_state, setup_nb

TRACE_ROWS = 512


@functools.lru_cache(maxsize=None)
def default_components():
    return load_components()


def default_tables() -> np.ndarray:
    """A fresh copy of the default tables (callers may not share mutations)."""
    return default_components().tables.copy()


def edited_text(*edits: tuple[str, str]) -> str:
    text = default_components_text()
    for old, new in edits:
        assert text.count(old) == 1, f"edit target not unique: {old!r}"
        text = text.replace(old, new)
    return text


def tables_from_edits(*edits: tuple[str, str]) -> np.ndarray:
    return components_from_text(edited_text(*edits)).tables


def no_trace():
    return np.zeros((0, E.TRACE_WIDTH), np.int64), np.zeros(1, np.int64)


def new_trace(rows: int = TRACE_ROWS):
    return np.zeros((rows, E.TRACE_WIDTH), np.int64), np.zeros(1, np.int64)


def events(trace, tn, ev=None) -> list:
    """Trace rows so far (as tuples), optionally only those of event kind `ev`."""
    rows = [tuple(int(x) for x in trace[i]) for i in range(int(tn[0]))]
    return [r for r in rows if ev is None or r[0] == ev]


def fresh_state(tables: np.ndarray, n_players: int, seed: int = 12345) -> np.ndarray:
    st = new_state()
    trace, tn = no_trace()
    setup_nb(tables[0], st[0], n_players, seed, trace, tn)
    return st


def cell(row: int, col: int) -> int:
    return row * E.GRID + col


def hike_code(direction: int, steps: int) -> int:
    return direction * (E.MAX_MOVE + 1) + steps if steps else 0


class Kit:
    """Card ids by name for the given components, and scratch buffers."""

    def __init__(self, components=None):
        comps = components if components is not None else default_components()
        self.names = comps.card_names

    def land(self, name: str) -> int:
        return self.names["landscape"].index(name)

    def comm(self, name: str) -> int:
        return self.names["commission"].index(name)

    def goal(self, name: str) -> int:
        return self.names["goal"].index(name)

    def plan(self, name: str) -> int:
        return self.names["planning"].index(name)

    def feature(self, name: str) -> int:
        return self.names["feature"].index(name)

    @staticmethod
    def options():
        return np.full(E.MAX_OPTIONS, -99, np.int64)


def set_hand(st, seat: int, cards) -> None:
    cards = list(cards)
    st[0]["hand"][seat, :] = 0
    st[0]["hand"][seat, :len(cards)] = cards
    st[0]["hand_n"][seat] = len(cards)


def hand(st, seat: int) -> list:
    return [int(x) for x in st[0]["hand"][seat, :st[0]["hand_n"][seat]]]


def set_ldeck(st, cards_bottom_to_top) -> None:
    """The landscape deck, listed bottom first (the last one is drawn first)."""
    cards = list(cards_bottom_to_top)
    st[0]["ldeck"][:len(cards)] = cards
    st[0]["n_ldeck"] = len(cards)


def set_ldisc(st, cards) -> None:
    cards = list(cards)
    st[0]["ldisc"][:len(cards)] = cards
    st[0]["n_ldisc"] = len(cards)


def set_cdeck(st, cards_bottom_to_top, top: int) -> None:
    """The commission deck below the revealed card (bottom first), and the revealed card."""
    cards = list(cards_bottom_to_top)
    st[0]["cdeck"][:len(cards)] = cards
    st[0]["n_cdeck"] = len(cards)
    st[0]["comm_top"] = top


def set_row(st, cards) -> None:
    cards = list(cards)
    st[0]["crow"][:] = -1
    st[0]["crow"][:len(cards)] = cards


def row(st) -> list:
    return [int(x) for x in st[0]["crow"][:st[0]["row_len"]]]
