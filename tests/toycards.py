"""Toy Cards: a tiny card-drafting game on the game template, with planted cards, for the
counterfactual card worth (issue 19, items 3 and 4; tests/test_card_worth.py).

Each of `rounds` rounds, every seat in turn is offered 3 different cards drawn from the
chance stream, takes one (its points are scored) and rolls a die (noise: the winner is not
decided by the cards alone). Score = card points + dice; highest wins, ties split.

Planted cards (the shipped component file): four plain cards worth 3, "Hidden Gem" worth 6
and "Fool's Gold" worth 3. The shipped player `fan` takes Fool's Gold whenever it can and
Hidden Gem never (its preference list), so Hidden Gem is a card the players never choose
that wins when taken, and Fool's Gold one they love that is worth no more than the others.
`greedy` takes the card with the most points.
"""
from __future__ import annotations

import hashlib
import sys

import numpy as np
from numba import njit

from sim.compiled_game import CompiledGameSpec
from sim.events import trace_nb
from sim.game_api import ComponentError, Components
from sim.game_contract import GameContract
from sim.overrides import apply_overrides
from sim.records import declare
from sim.rng import init_streams_nb, next_u64_nb, randint_nb

try:
    import tomllib
except ModuleNotFoundError:  # pragma: no cover
    import tomli as tomllib

NAMES = ("Plain A", "Plain B", "Plain C", "Plain D", "Hidden Gem", "Fool's Gold")
DEFAULT_TEXT = "# toy cards\n[game]\nrounds = 4\nsides = 6\n\n" + "".join(
    f'[[cards]]\nname = "{n}"\npoints = {p}\n\n'
    for n, p in zip(NAMES, (3, 3, 3, 3, 6, 3)))

MAX_PLAYERS = 4
N_CARDS = 6
OFFER = 3
EV_TAKE = 1
STATE_DTYPE = np.dtype([
    ("streams", np.uint64, (MAX_PLAYERS + 1,)),
    ("n_players", np.int64),
    ("seat", np.int64),                  # to move, -1 when over
    ("round", np.int64),
    ("over", np.int64),
    ("offer", np.int64, (OFFER,)),       # card ids on offer to the seat to move
    ("points", np.int64, (MAX_PLAYERS,)),
    ("dice", np.int64, (MAX_PLAYERS,)),
    ("taken", np.int64, (MAX_PLAYERS,)),  # bitmask of the cards the seat took
])
TABLES_DTYPE = np.dtype([("points", np.int64, (N_CARDS,)), ("rounds", np.int64),
                         ("sides", np.int64)])
MAX_OPTIONS = OFFER
CTX_LEN = 1
KEEP_LEN = 1
OBS_LEN = 3 + OFFER + 3 * MAX_PLAYERS
PERFECT_INFORMATION = True     # the offer is open: only the future is unknown
RECORD = declare(
    ("game", "i8", "game index in the run"),
    ("seat", "i8", "seat, 0-based"),
    ("score", "i8", "card points + dice"),
    ("rank", "i8", "1 = best"),
    ("win", "f8", "win share (ties split)"),
    ("cards_mask", "i8", "bit c: the seat took card c"),
    ("illegal", "i8", "illegal decisions"),
    ("choices", "i8", "decisions among 2 or more options"),
)


@njit(cache=True, error_model="numpy")
def deal_offer_nb(s):
    for k in range(OFFER):
        while True:
            c = randint_nb(s.streams, 0, N_CARDS)
            fresh = True
            for j in range(k):
                if s.offer[j] == c:
                    fresh = False
            if fresh:
                break
        s.offer[k] = c


@njit(cache=True, error_model="numpy")
def setup_nb(tables, s, n_players, game_seed, trace, tn):
    init_streams_nb(s.streams, game_seed)
    s.n_players = n_players
    s.seat = 0
    s.round = 0
    s.over = 0
    s.points[:] = 0
    s.dice[:] = 0
    s.taken[:] = 0
    deal_offer_nb(s)


@njit(cache=True, error_model="numpy")
def is_over_nb(s):
    return s.over == 1


@njit(cache=True, error_model="numpy")
def to_move_nb(s):
    return s.seat


@njit(cache=True, error_model="numpy")
def decision_nb(s):
    return 0


@njit(cache=True, error_model="numpy")
def legal_nb(tables, s, options):
    if s.over == 1:
        return 0
    for k in range(OFFER):
        options[k] = s.offer[k]
    return OFFER


@njit(cache=True, error_model="numpy")
def context_nb(tables, s, ctx, keep):
    ctx[0] = s.round


@njit(cache=True, error_model="numpy")
def apply_nb(tables, s, option, keep, trace, tn):
    p = s.seat
    s.points[p] += tables.points[option]
    s.taken[p] |= np.int64(1) << option
    s.dice[p] += 1 + randint_nb(s.streams, 0, tables.sides)
    trace_nb(trace, tn, EV_TAKE, p, option, 0, 0, 0)
    s.seat += 1
    if s.seat == s.n_players:
        s.seat = 0
        s.round += 1
        if s.round == tables.rounds:
            s.over = 1
            s.seat = -1
            return
    deal_offer_nb(s)


@njit(cache=True, error_model="numpy")
def returns_nb(tables, s, n_players, out):
    out[:] = 0.0
    best = -1
    n_best = 0
    for p in range(n_players):
        v = s.points[p] + s.dice[p]
        if v > best:
            best, n_best = v, 1
        elif v == best:
            n_best += 1
    for p in range(n_players):
        if s.points[p] + s.dice[p] == best:
            out[p] = 1.0 / n_best


@njit(cache=True, error_model="numpy")
def determinize_nb(tables, s, seat, seed):
    """Nothing is hidden but the future: reseed chance."""
    rng = np.zeros(1, np.uint64)
    init_streams_nb(rng, seed)
    s.streams[0] = next_u64_nb(rng, 0)


@njit(cache=True, error_model="numpy")
def evaluate_nb(tables, s, seat):
    """The seat's share of the points scored so far (0.5 before any)."""
    total = 0
    for p in range(s.n_players):
        total += s.points[p] + s.dice[p]
    if total == 0:
        return 0.5
    return float(s.points[seat] + s.dice[seat]) / float(total)


@njit(cache=True, error_model="numpy")
def observe_nb(tables, s, seat, out):
    """Everything but the chance stream: nothing is hidden."""
    out[0], out[1], out[2] = s.seat, s.round, s.over
    n = 3
    for k in range(OFFER):
        out[n] = s.offer[k]
        n += 1
    for p in range(MAX_PLAYERS):
        out[n], out[n + 1], out[n + 2] = s.points[p], s.dice[p], s.taken[p]
        n += 3
    return n


@njit(cache=True, error_model="numpy")
def check_state_nb(tables, s):
    return 0


@njit(cache=True, error_model="numpy")
def record_nb(tables, s, n_players, game_index, rec, row0):
    win = np.zeros(MAX_PLAYERS, np.float64)
    returns_nb(tables, s, n_players, win)
    for p in range(n_players):
        r = row0 + p
        mine = s.points[p] + s.dice[p]
        rank = 1
        for q in range(n_players):
            if s.points[q] + s.dice[q] > mine:
                rank += 1
        rec[r].game = game_index
        rec[r].seat = p
        rec[r].score = mine
        rec[r].rank = rank
        rec[r].win = win[p]
        rec[r].cards_mask = s.taken[p]


# --- strategies ---------------------------------------------------------------------------
RANDOM, FAN, GREEDY = 0, 1, 2
CATALOG = [
    {"name": "random", "id": RANDOM, "description": "uniformly random", "params": []},
    {"name": "fan", "id": FAN, "description": "Fool's Gold first, Hidden Gem never",
     "params": []},
    {"name": "greedy", "id": GREEDY, "description": "the card with the most points",
     "params": []},
]
N_PARAMS = 1
FAN_RANK = np.array([1, 2, 3, 4, 9, 0], np.int64)   # lower = preferred


@njit(cache=True, error_model="numpy")
def choose_builtin_nb(sid, params, tables, s, seat, decision, options, n_options, ctx, keep):
    if sid == RANDOM:
        return randint_nb(s.streams, 1 + seat, n_options)
    best = 0
    for i in range(1, n_options):
        if sid == FAN:
            if FAN_RANK[options[i]] < FAN_RANK[options[best]]:
                best = i
        elif tables.points[options[i]] > tables.points[options[best]]:
            best = i
    return best


def default_components_text() -> str:
    return DEFAULT_TEXT


def load_components(path=None, overrides=()) -> Components:
    text, shown = DEFAULT_TEXT, "<default>"
    if path is not None:
        with open(path, encoding="utf-8") as fh:
            text, shown = fh.read(), path
    data = apply_overrides(tomllib.loads(text), list(overrides), shown)
    cards = data.get("cards", [])
    pts = [c.get("points") for c in cards]
    if len(cards) != N_CARDS or not all(isinstance(v, int) and v >= 0 for v in pts):
        raise ComponentError(f"{shown}: [[cards]] needs {N_CARDS} cards with points >= 0")
    return Components(game="toycards", path=shown, text=text,
                      sha256=hashlib.sha256("\n".join([text, *overrides]).encode())
                      .hexdigest(), data=data, overrides=list(overrides),
                      card_names={"card": [c["name"] for c in cards]},
                      tables=(pts, int(data["game"]["rounds"]), int(data["game"]["sides"])))


def pack_tables(tables):
    t = np.zeros(1, TABLES_DTYPE)
    pts, rounds, sides = tables
    t[0]["points"][:] = pts
    t[0]["rounds"], t[0]["sides"] = rounds, sides
    return t


def new_state():
    return np.zeros(1, STATE_DTYPE)


def format_trace(prepared, game_index, events, rec, state) -> list:
    return [f"seat {int(e[1])} takes {NAMES[int(e[2])]}" for e in events]


class ToyCardsSpec(CompiledGameSpec):
    contract = GameContract.single_module(sys.modules[__name__])
    name = "toycards"
    title = "Toy Cards"
    min_players = 2
    max_players = 4
    description = "a card-drafting toy with planted cards"
    default_strategy = "fan"

    def report_metadata(self, components=None) -> dict:
        comp = components or self.load_components()
        return {"cards": [{"type": "card", "label": "Cards",
                           "names": list(comp.card_names["card"]),
                           "values": [int(v) for v in comp.tables[0]],
                           "mask_column": "cards_mask", "value_path": "cards[{i}].points",
                           "unit": "points"}]}


SPEC = ToyCardsSpec()
