"""A tiny hidden-information card game on the forward-model contract (docs/notes template),
for testing the search players without a real engine.

Tricks: a deck of values 1..N_VALUES (COPIES of each) is shuffled (chance, stream 0); every
seat holds HAND cards, hidden from the others. Each trick, from the leader round the table,
every seat plays one card face up; the highest card wins the trick (ties: the first played),
its player leads the next one, and every seat draws one card while the deck lasts. After
ROUNDS tricks the most tricks wins (ties share the win).

What a seat can see: its own hand, every card played, the tricks won. Hidden: the others'
hands and the deck order (determinize_nb redraws them).

Built-ins: random (0), greedy (1: its highest card), planner (2: the lowest card that wins
the trick if one does, else its lowest card).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from sim.rng import init_streams_nb, randint_nb, shuffle_nb

MAX_PLAYERS = 4
HAND = 3
N_VALUES = 9
COPIES = 4
DECK = N_VALUES * COPIES
ROUNDS = 8
MAX_OPTIONS = HAND
CTX_LEN = 1
KEEP_LEN = 1
DEC_PLAY = 0

STATE_DTYPE = np.dtype([
    ("n_players", np.int64),
    ("hand", np.int64, (MAX_PLAYERS, HAND)),   # card values, 0 = empty slot
    ("deck", np.int64, (DECK,)),               # top = deck[n_deck - 1]
    ("n_deck", np.int64),
    ("played", np.int64, (MAX_PLAYERS,)),      # this trick's cards, 0 = not yet
    ("tricks", np.int64, (MAX_PLAYERS,)),
    ("leader", np.int64),
    ("turn", np.int64),                        # seat to move, -1 when over
    ("n_played", np.int64),                    # cards played in this trick
    ("round", np.int64),
    ("streams", np.uint64, (1 + MAX_PLAYERS,)),
], align=True)

TABLES_DTYPE = np.dtype([("rounds", np.int64)], align=True)

RECORD_DTYPE = np.dtype([("game", "i8"), ("seat", "i8"), ("score", "i8"), ("rank", "i8"),
                         ("win", "f8"), ("illegal", "i8"), ("choices", "i8")])


def new_state():
    return np.zeros(1, dtype=STATE_DTYPE)


def new_tables(rounds=ROUNDS):
    t = np.zeros(1, dtype=TABLES_DTYPE)
    t[0]["rounds"] = rounds
    return t


@njit(cache=True, error_model="numpy")
def setup_nb(tables, s, n_players, game_seed, trace, tn):
    init_streams_nb(s.streams, game_seed)
    s.n_players = n_players
    k = 0
    for v in range(1, N_VALUES + 1):
        for _c in range(COPIES):
            s.deck[k] = v
            k += 1
    shuffle_nb(s.streams, 0, s.deck, DECK)
    s.n_deck = DECK
    for p in range(MAX_PLAYERS):
        s.played[p] = 0
        s.tricks[p] = 0
        for h in range(HAND):
            s.hand[p, h] = 0
    for p in range(n_players):
        for h in range(HAND):
            s.n_deck -= 1
            s.hand[p, h] = s.deck[s.n_deck]
    s.leader = 0
    s.turn = 0
    s.n_played = 0
    s.round = 0


@njit(cache=True, error_model="numpy")
def is_over_nb(s):
    return s.turn < 0


@njit(cache=True, error_model="numpy")
def to_move_nb(s):
    return s.turn


@njit(cache=True, error_model="numpy")
def decision_nb(s):
    return DEC_PLAY


@njit(cache=True, error_model="numpy")
def legal_nb(tables, s, options):
    """The distinct values in the mover's hand, ascending."""
    n = 0
    p = s.turn
    for v in range(1, N_VALUES + 1):
        for h in range(HAND):
            if s.hand[p, h] == v:
                options[n] = v
                n += 1
                break
    return n


@njit(cache=True, error_model="numpy")
def context_nb(tables, s, ctx, keep):
    best = 0
    for p in range(s.n_players):
        if s.played[p] > best:
            best = s.played[p]
    ctx[0] = best


@njit(cache=True, error_model="numpy")
def apply_nb(tables, s, option, keep, trace, tn):
    p = s.turn
    for h in range(HAND):
        if s.hand[p, h] == option:
            s.hand[p, h] = 0
            break
    s.played[p] = option
    s.n_played += 1
    if s.n_played < s.n_players:
        s.turn = (p + 1) % s.n_players
        return
    # the trick is complete: the first highest card wins it
    win = s.leader
    for k in range(s.n_players):
        q = (s.leader + k) % s.n_players
        if s.played[q] > s.played[win]:
            win = q
    s.tricks[win] += 1
    for q in range(s.n_players):
        s.played[q] = 0
    s.n_played = 0
    s.round += 1
    for k in range(s.n_players):          # draw from the leader on, while the deck lasts
        q = (win + k) % s.n_players
        if s.n_deck > 0:
            for h in range(HAND):
                if s.hand[q, h] == 0:
                    s.n_deck -= 1
                    s.hand[q, h] = s.deck[s.n_deck]
                    break
    empty = True
    for h in range(HAND):
        if s.hand[win, h] != 0:
            empty = False
    if s.round >= tables.rounds or empty:
        s.turn = -1
    else:
        s.leader = win
        s.turn = win


@njit(cache=True, error_model="numpy")
def default_keep_nb(tables, s, keep):
    return None


@njit(cache=True, error_model="numpy")
def returns_nb(tables, s, n_players, out):
    best = -1
    for p in range(n_players):
        if s.tricks[p] > best:
            best = s.tricks[p]
    n_best = 0
    for p in range(n_players):
        if s.tricks[p] == best:
            n_best += 1
    for p in range(n_players):
        out[p] = 1.0 / n_best if s.tricks[p] == best else 0.0


@njit(cache=True, error_model="numpy")
def evaluate_nb(tables, s, seat):
    lead = 1e9
    for p in range(s.n_players):
        if p != seat and s.tricks[seat] - s.tricks[p] < lead:
            lead = s.tricks[seat] - s.tricks[p]
    return 1.0 / (1.0 + np.exp(-lead))


@njit(cache=True, error_model="numpy")
def determinize_nb(tables, s, seat, seed):
    """Pool the other seats' hands with the deck, shuffle, deal them back (hand sizes kept);
    then reseed chance. Canonical: the result depends only on the seat's view and `seed`."""
    pool = np.zeros(DECK, np.int64)
    n = 0
    for i in range(s.n_deck):
        pool[n] = s.deck[i]
        n += 1
    for p in range(s.n_players):
        if p == seat:
            continue
        for h in range(HAND):
            if s.hand[p, h] != 0:
                pool[n] = s.hand[p, h]
                n += 1
    # canonical: sorted before the shuffle, so the redraw depends only on what the seat
    # sees and the seed (never on the hidden arrangement it replaces)
    pool[:n] = np.sort(pool[:n])
    rs = np.zeros(1, np.uint64)
    rs[0] = seed
    shuffle_nb(rs, 0, pool, n)
    k = 0
    for p in range(s.n_players):
        if p == seat:
            continue
        for h in range(HAND):
            if s.hand[p, h] != 0:
                s.hand[p, h] = pool[k]
                k += 1
    for i in range(s.n_deck):
        s.deck[i] = pool[k]
        k += 1
    s.streams[0] = np.uint64(seed) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(1)


@njit(cache=True, error_model="numpy")
def check_state_nb(tables, s):
    """1: a value is not held by exactly COPIES cards overall (hands + deck + played +
    discarded count is not checked: discards are not kept), 0 otherwise."""
    return 0


@njit(cache=True, error_model="numpy")
def choose_builtin_nb(sid, params, tables, s, seat, decision, options, n_options, ctx, keep):
    if sid == 0:
        return randint_nb(s.streams, 1 + seat, n_options)
    if sid == 1:
        return n_options - 1
    if sid == 2:
        for i in range(n_options):          # ascending: the lowest winning card
            if options[i] > ctx[0]:
                return i
        return 0
    return -1


CATALOG = [
    {"name": "random", "id": 0, "description": "a random card", "params": []},
    {"name": "greedy", "id": 1, "description": "its highest card", "params": []},
    {"name": "planner", "id": 2, "description": "the lowest winning card, else its lowest",
     "params": []},
]
N_PARAMS = 0


def play_game(tables, s, n_players, game_seed, sids, params, search_choose, log=None):
    """A minimal stand-in for the harness's loop (ids >= 1000 go to the search). Returns
    (win shares, illegal answers); appends (seat, option) to `log` when given."""
    trace = np.zeros((0, 6), np.int64)
    tn = np.zeros(1, np.int64)
    tables, s = tables[0], s[0]
    setup_nb(tables, s, n_players, np.uint64(game_seed), trace, tn)
    options = np.zeros(MAX_OPTIONS, np.int64)
    ctx = np.zeros(CTX_LEN, np.int64)
    keep = np.zeros(KEEP_LEN, np.float64)
    illegal = 0
    while not is_over_nb(s):
        p = to_move_nb(s)
        d = decision_nb(s)
        n = legal_nb(tables, s, options)
        context_nb(tables, s, ctx, keep)
        fn = search_choose if sids[p] >= 1000 else choose_builtin_nb
        i = fn(sids[p], params[p], tables, s, p, d, options, n, ctx, keep)
        if i < 0 or i >= n:
            illegal += 1
            i = 0
        if log is not None:
            log.append((p, int(options[i])))
        apply_nb(tables, s, options[i], keep, trace, tn)
    out = np.zeros(MAX_PLAYERS, np.float64)
    returns_nb(tables, s, n_players, out)
    return out[:n_players], illegal
