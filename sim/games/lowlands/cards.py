"""Lowlands: resource cards: the deck and the face-up display, hands, paying (with the
tiles' discounts and the 2-for-1 exchange) and the cards action.
"""
import numpy as np
from numba import njit

from sim.events import trace_nb
from sim.numba_calls import plain_constants
from sim.rng import CHANCE, shuffle_nb
from sim.games.lowlands.enums import (
    DISPLAY_CARDS, EF_DISCOUNT, EV_CARDS, N_RES,
)
from sim.games.lowlands.tasks import pop_nb


@njit(cache=True, error_model="numpy")
def draw_card_nb(s):
    """The top card of the resource deck (reshuffling the discards when it is empty); -1 when
    no card is left anywhere outside hands and the display."""
    if s.deck_n == 0:
        n = 0
        for r in range(N_RES):
            for _ in range(s.discard[r]):
                s.res_deck[n] = r
                n += 1
            s.discard[r] = 0
        shuffle_nb(s.streams, CHANCE, s.res_deck, n)
        s.deck_n = n
        if n == 0:
            return -1
    s.deck_n -= 1
    return s.res_deck[s.deck_n]


@njit(cache=True, error_model="numpy")
def refill_display_nb(s):
    for i in range(DISPLAY_CARDS):
        if s.display[i] < 0:
            s.display[i] = draw_card_nb(s)


@njit(cache=True, error_model="numpy")
def cards_available_nb(s):
    """Cards that could be drawn (deck + discards) -- the display is counted apart."""
    return s.deck_n + s.discard[0] + s.discard[1] + s.discard[2]


@njit(cache=True, error_model="numpy")
def hand_total_nb(s, p):
    return s.hand[p, 0] + s.hand[p, 1] + s.hand[p, 2]


@njit(cache=True, error_model="numpy")
def discounts_nb(t, s, p, out):
    """out[r] = resources of type r spared by the player's discount tiles (Carpenter,
    Brickmaker, Stonemason: one fewer each time a tile is built or the dike is built)."""
    out[0] = 0
    out[1] = 0
    out[2] = 0
    m = s.owned[p]
    for x in range(t.n_tiles):
        if (m >> x) == 0:
            break
        if (m >> x) & 1 and t.tile_effect[x] == EF_DISCOUNT:
            out[t.tile_param[x]] += 1


@plain_constants
@njit(cache=True, error_model="numpy")
def pay_plan_nb(t, s, p, need, free_any, out):
    """Can seat p pay `need` (by type), `free_any` resources of its choice spared (farmhands on
    Build)? Missing cards come from the 2-for-1 exchange. out[r] = cards of type r given up.
    The player's choices here are automatic: the spared resources go to the type most short,
    and an exchange gives up pairs of the type held most in surplus (this never makes a
    payable cost unpayable and keeps the most cards)."""
    if free_any == 0:
        # the common case, without scratch arrays: the hand covers the cost, no exchange
        covered = True
        for r in range(N_RES):
            if need[r] > s.hand[p, r]:
                covered = False
        if covered:
            for r in range(N_RES):
                out[r] = need[r] if need[r] > 0 else 0
            return True
    rate = t.exchange_rate
    nd = np.empty(N_RES, np.int64)
    for r in range(N_RES):
        nd[r] = need[r] if need[r] > 0 else 0
    for _ in range(free_any):
        best = -1
        bv = -1000
        for r in range(N_RES):
            if nd[r] > 0:
                v = nd[r] - s.hand[p, r]
                if v > bv:
                    bv = v
                    best = r
        if best < 0:
            break
        nd[best] -= 1
    short = 0
    surplus = np.empty(N_RES, np.int64)
    for r in range(N_RES):
        out[r] = 0
        if nd[r] > s.hand[p, r]:
            short += nd[r] - s.hand[p, r]
            out[r] = s.hand[p, r]
            surplus[r] = 0
        else:
            out[r] = nd[r]
            surplus[r] = s.hand[p, r] - nd[r]
    while short > 0:
        best = -1
        for r in range(N_RES):
            if surplus[r] >= rate and (best < 0 or surplus[r] > surplus[best]):
                best = r
        if best < 0:
            return False
        surplus[best] -= rate
        out[best] += rate
        short -= 1
    return True


@njit(cache=True, error_model="numpy")
def pay_nb(s, p, out):
    for r in range(N_RES):
        s.hand[p, r] -= out[r]
        s.discard[r] += out[r]


@njit(cache=True, error_model="numpy")
def cards_options_nb(s, want, options):
    """Take `want` cards: the face-up ones chosen (code = bitmask of display places), the rest
    from the deck; face-up first (rules text). Fewer only when the cards run out."""
    avail = cards_available_nb(s)
    nd = 0
    for i in range(DISPLAY_CARDS):
        if s.display[i] >= 0:
            nd += 1
    if want > avail + nd:
        want = avail + nd
    n = 0
    for m in range(1 << DISPLAY_CARDS):
        ok = True
        pc = 0
        for i in range(DISPLAY_CARDS):
            if (m >> i) & 1:
                if s.display[i] < 0:
                    ok = False
                pc += 1
        if not ok or pc > want or want - pc > avail:
            continue
        options[n] = m
        n += 1
    return n


@njit(cache=True, error_model="numpy")
def apply_cards_nb(t, s, option, trace, tn):
    i = s.n_tasks - 1
    p = s.task[i, 1]
    want = s.task[i, 2]
    pop_nb(s)
    nd = 0
    for j in range(DISPLAY_CARDS):
        if s.display[j] >= 0:
            nd += 1
    avail = cards_available_nb(s)
    if want > avail + nd:
        want = avail + nd
    pc = 0
    for j in range(DISPLAY_CARDS):
        if (option >> j) & 1:
            s.hand[p, s.display[j]] += 1
            s.display[j] = -1
            pc += 1
    for _ in range(want - pc):
        c = draw_card_nb(s)
        if c >= 0:
            s.hand[p, c] += 1
    refill_display_nb(s)
    trace_nb(trace, tn, EV_CARDS, p, option, want - pc, 0, 0)
