"""Dice: the rules as a forward model (docs/adding-a-game.md, "The forward model").

Each round every seat plays one card from its hand face down, in seat order; once all have
played, the cards are revealed. The seat with the single highest card (its points) wins the
round and scores the points of every card played; a tie for the highest card scores nothing.
Then, when the draw pile holds a card for every seat, each seat draws one. The game ends after
`rounds` rounds (or when the hands are empty): the highest score wins, ties share the win.

Hands are open (every seat sees every hand); the card a seat has played stays hidden until
the reveal. The draw pile is kept as counts: the next card drawn is chance, not a hidden order.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from sim.events import trace_nb
from sim.outcomes import rank_by_score_nb
from sim.records import declare
from sim.rng import init_streams_nb, next_u64_nb, randint_nb

MAX_PLAYERS = 4
MAX_CARDS = 16                 # card kinds the engine holds (the component file's [[cards]])
DEC_PLAY = 0                   # the one decision: which card to play
EV_PLAY, EV_REVEAL, EV_WIN, EV_TIE, EV_DRAW = 1, 2, 3, 4, 5

# both records are declared aligned (align=True: every field 8 bytes, so no padding): numba
# then reads a scalar field as an aligned word; an unaligned record costs about 10% of speed
TABLES_DTYPE = np.dtype([
    ("n_cards", np.int64),                  # card kinds in use
    ("points", np.int64, (MAX_CARDS,)),     # [[cards]] points
    ("count", np.int64, (MAX_CARDS,)),      # [[cards]] copies in the game
    ("rounds", np.int64),                   # [game] rounds
    ("hand_size", np.int64),                # [game] hand_size
], align=True)
STATE_DTYPE = np.dtype([
    ("streams", np.uint64, (MAX_PLAYERS + 1,)),  # 0 chance, 1 + seat that seat's strategy
    ("n_players", np.int64),
    ("round", np.int64),                          # rounds finished
    ("seat", np.int64),                           # to move, -1 when over
    ("over", np.int64),
    ("hand", np.int64, (MAX_PLAYERS, MAX_CARDS)),  # cards in hand by kind (open)
    ("pending", np.int64, (MAX_PLAYERS,)),        # kind played this round, -1: none (hidden)
    ("deck", np.int64, (MAX_CARDS,)),             # draw pile by kind (its order is chance)
    ("played", np.int64, (MAX_CARDS,)),           # revealed cards by kind (open)
    ("score", np.int64, (MAX_PLAYERS,)),
    ("won", np.int64, (MAX_PLAYERS,)),            # rounds won
    ("cards_mask", np.int64, (MAX_PLAYERS,)),     # bit c: the seat played (revealed) kind c
], align=True)

MAX_OPTIONS = MAX_CARDS
CTX_LEN = 1
OBS_LEN = 3 + MAX_PLAYERS * (MAX_CARDS + 4) + 2 * MAX_CARDS + 1
CANONICAL_DETERMINIZE = True   # a redraw depends only on what the seat saw and the seed

RECORD = declare(
    ("game", "i8", "game index in the run"),
    ("seat", "i8", "seat, 0-based"),
    ("score", "i8", "final score: the points of the rounds won"),
    ("rank", "i8", "1 = winner; tied seats share a rank"),
    ("win", "f8", "win share: 1 for a sole winner, 1/k for k tied winners, else 0"),
    ("length", "i8", "rounds played"),
    ("rounds_won", "i8", "rounds the seat won"),
    ("cards_mask", "i8", "bit c: the seat played card c"),
    ("illegal", "i8", "strategy decisions that were not legal (always 0 for built-ins)"),
    ("choices", "i8", "decisions the seat took among 2 or more legal options"),
)


def new_state():
    """The caller owns the state array (docs/adding-a-game.md, rule 2)."""
    return np.zeros(1, STATE_DTYPE)


def pack_tables(tables: dict):
    """The validated component file (components.py) as the kernels' record."""
    t = np.zeros(1, TABLES_DTYPE)
    n = len(tables["points"])
    t[0]["n_cards"] = n
    t[0]["points"][:n] = tables["points"]
    t[0]["count"][:n] = tables["count"]
    t[0]["rounds"] = tables["rounds"]
    t[0]["hand_size"] = tables["hand_size"]
    return t


@njit(cache=True, error_model="numpy")
def draw_nb(tables, s, p, trace, tn):
    """Seat p draws one card from the pile (chance: stream 0)."""
    total = 0
    for c in range(tables.n_cards):
        total += s.deck[c]
    r = randint_nb(s.streams, 0, total)
    for c in range(tables.n_cards):
        if r < s.deck[c]:
            s.deck[c] -= 1
            s.hand[p, c] += 1
            trace_nb(trace, tn, EV_DRAW, p, c, 0, 0, 0)
            return
        r -= s.deck[c]


@njit(cache=True, error_model="numpy")
def deck_size_nb(tables, s):
    total = 0
    for c in range(tables.n_cards):
        total += s.deck[c]
    return total


@njit(cache=True, error_model="numpy")
def setup_nb(tables, s, n_players, game_seed, trace, tn):
    init_streams_nb(s.streams, game_seed)
    s.n_players = n_players
    s.round = 0
    s.seat = 0
    s.over = 0
    s.hand[:, :] = 0
    s.pending[:] = -1
    s.played[:] = 0
    s.score[:] = 0
    s.won[:] = 0
    s.cards_mask[:] = 0
    s.deck[:] = 0
    for c in range(tables.n_cards):
        s.deck[c] = tables.count[c]
    for _ in range(tables.hand_size):
        for p in range(n_players):
            draw_nb(tables, s, p, trace, tn)


@njit(cache=True, error_model="numpy")
def is_over_nb(s):
    return s.over == 1


@njit(cache=True, error_model="numpy")
def to_move_nb(s):
    return s.seat


@njit(cache=True, error_model="numpy")
def decision_nb(s):
    return DEC_PLAY


@njit(cache=True, error_model="numpy")
def legal_nb(tables, s, options):
    """The card kinds in the hand of the seat to move."""
    n = 0
    if s.over == 1:
        return 0
    for c in range(tables.n_cards):
        if s.hand[s.seat, c] > 0:
            options[n] = c
            n += 1
    return n


@njit(cache=True, error_model="numpy")
def context_nb(tables, s, ctx, keep):
    ctx[0] = s.round


@njit(cache=True, error_model="numpy")
def resolve_round_nb(tables, s, trace, tn):
    """Reveal the played cards, score the round, draw, and start the next round or end."""
    n = s.n_players
    best, n_best, winner, pot = -1, 0, -1, 0
    for p in range(n):
        c = s.pending[p]
        trace_nb(trace, tn, EV_REVEAL, p, c, tables.points[c], 0, 0)
        pot += tables.points[c]
        if tables.points[c] > best:
            best, n_best, winner = tables.points[c], 1, p
        elif tables.points[c] == best:
            n_best += 1
    if n_best == 1:
        s.score[winner] += pot
        s.won[winner] += 1
        trace_nb(trace, tn, EV_WIN, winner, pot, 0, 0, 0)
    else:
        trace_nb(trace, tn, EV_TIE, -1, best, 0, 0, 0)
    for p in range(n):
        c = s.pending[p]
        s.played[c] += 1
        s.cards_mask[p] |= np.int64(1) << c
        s.pending[p] = -1
    s.round += 1
    if deck_size_nb(tables, s) >= n:        # every seat draws, or none does
        for p in range(n):
            draw_nb(tables, s, p, trace, tn)
    empty = True
    for c in range(tables.n_cards):
        if s.hand[0, c] > 0:
            empty = False
    if s.round >= tables.rounds or empty:
        s.over = 1
        s.seat = -1
    else:
        s.seat = 0


@njit(cache=True, error_model="numpy")
def apply_nb(tables, s, option, keep, trace, tn):
    p = s.seat
    s.hand[p, option] -= 1
    s.pending[p] = option
    trace_nb(trace, tn, EV_PLAY, p, 0, 0, 0, 0)
    s.seat += 1
    if s.seat == s.n_players:
        resolve_round_nb(tables, s, trace, tn)


@njit(cache=True, error_model="numpy")
def returns_nb(tables, s, n_players, out):
    """Win shares: the highest score wins, tied seats share the win (sim.outcomes: a game
    with tie-breaks passes them as further criteria to ranks_and_win_shares_nb)."""
    rank = np.zeros(n_players, np.int64)
    rank_by_score_nb(s.score, n_players, rank, out)


@njit(cache=True, error_model="numpy")
def evaluate_nb(tables, s, seat):
    """The seat's share of the points scored so far (even before any)."""
    total = 0
    for p in range(s.n_players):
        total += s.score[p]
    return float(s.score[seat] + 1) / float(total + s.n_players)


@njit(cache=True, error_model="numpy")
def determinize_nb(tables, s, seat, seed):
    """Redraw the cards the other seats have played face down this round (each from its hand
    as the seat saw it: hands are open), then reseed chance. Depends only on what `seat` saw
    and the seed (canonical)."""
    rng = np.zeros(1, np.uint64)
    init_streams_nb(rng, seed)
    for p in range(s.n_players):
        if p == seat or s.pending[p] < 0:
            continue
        s.hand[p, s.pending[p]] += 1
        total = 0
        for c in range(tables.n_cards):
            total += s.hand[p, c]
        r = randint_nb(rng, 0, total)
        for c in range(tables.n_cards):
            if r < s.hand[p, c]:
                s.hand[p, c] -= 1
                s.pending[p] = c
                break
            r -= s.hand[p, c]
    s.streams[0] = next_u64_nb(rng, 0)


@njit(cache=True, error_model="numpy")
def observe_nb(tables, s, seat, out):
    """What `seat` has seen: everything but the other seats' face-down cards (of those, only
    that they have played and the hand they played from)."""
    out[0], out[1], out[2] = s.round, s.seat, s.over
    n = 3
    for p in range(MAX_PLAYERS):
        for c in range(MAX_CARDS):
            before = s.hand[p, c] + (1 if s.pending[p] == c else 0)
            out[n] = before if p != seat else s.hand[p, c]
            n += 1
        out[n] = s.pending[p] if p == seat else (1 if s.pending[p] >= 0 else -1)
        out[n + 1], out[n + 2], out[n + 3] = s.score[p], s.won[p], s.cards_mask[p]
        n += 4
    for c in range(MAX_CARDS):
        out[n], out[n + 1] = s.deck[c], s.played[c]
        n += 2
    out[n] = s.n_players
    return n + 1


@njit(cache=True, error_model="numpy")
def check_state_nb(tables, s):
    """0, or the first broken invariant: 1 a negative count, 2 a card created or lost,
    3 a face-down card where none may be."""
    for c in range(tables.n_cards):
        held = s.deck[c] + s.played[c]
        for p in range(s.n_players):
            if s.hand[p, c] < 0:
                return 1
            held += s.hand[p, c] + (1 if s.pending[p] == c else 0)
        if s.deck[c] < 0:
            return 1
        if held != tables.count[c]:
            return 2
    for p in range(s.n_players):
        if s.pending[p] >= 0 and (s.over == 1 or p >= s.seat):
            return 3
    return 0


@njit(cache=True, error_model="numpy")
def record_nb(tables, s, n_players, game_index, rec, row0):
    rank = np.zeros(n_players, np.int64)
    win = np.zeros(n_players, np.float64)
    rank_by_score_nb(s.score, n_players, rank, win)
    for p in range(n_players):
        r = row0 + p
        rec[r].game = game_index
        rec[r].seat = p
        rec[r].score = s.score[p]
        rec[r].rank = rank[p]
        rec[r].win = win[p]
        rec[r].length = s.round
        rec[r].rounds_won = s.won[p]
        rec[r].cards_mask = s.cards_mask[p]
