"""Lowlands: setting up a game (rules text, set-up 1-12 and the personal set-up).
"""
import numpy as np
from numba import njit

from sim.rng import CHANCE, init_streams_nb, shuffle_nb
from sim.games.lowlands.enums import (
    K_STORM, MAX_DISPLAY, MAX_PLAYERS, N_EDGES, N_KINDS, N_RES, STEP_TIDE,
)
from sim.games.lowlands.building import refill_tiles_nb
from sim.games.lowlands.cards import draw_card_nb, refill_display_nb
from sim.games.lowlands.market import market_reset_nb


@njit(cache=True, error_model="numpy")
def clear_game_nb(s):
    """Every scalar of the game (STATE_DTYPE's first fields) back to 0."""
    s.n_players = 0
    s.over = 0
    s.stage = 0
    s.step = 0
    s.placed = 0
    s.start_player = 0
    s.waves = 0
    s.segments = 0
    s.site_res = 0
    s.site_pos = 0
    s.price = 0
    s.flood_n = 0
    s.sea_n = 0
    s.sea_shown = 0
    s.deck_n = 0
    s.stamp = 0
    s.n_tasks = 0
    s.dec = 0
    s.seat = 0
    s.decisions = 0
    s.floods_broke = 0
    s.final_breach = 0
    s.ask_from = 0
    s.stages_broke = 0
    s.step_started = 0
    s.first_start = 0
    s.picked_edge = 0


@njit(cache=True, error_model="numpy")
def clear_seat_counters_nb(s):
    """Every per-seat counter (the log's statistics columns) back to 0."""
    s.support_asked[:] = 0
    s.support_given[:] = 0
    s.dike_resources[:] = 0
    s.sheep_bought[:] = 0
    s.sheep_sold[:] = 0
    s.sheep_escaped[:] = 0
    s.sheep_bred[:] = 0
    s.fences_built[:] = 0
    s.bonus_points[:] = 0
    s.penalty_sheep[:] = 0
    s.penalty_coins[:] = 0
    s.penalty_points[:] = 0
    s.breach_tokens[:] = 0
    s.progress_tokens[:] = 0
    s.tile_sheep_sold[:] = 0
    s.tile_sheep_bought[:] = 0
    s.actions_taken[:, :] = 0


@njit(cache=True, error_model="numpy")
def setup_state_nb(t, s, n_players, game_seed):
    """Everything of the set-up (rules text, set-up 1-12 and the personal set-up). The chance
    stream is drawn in this order: flood deck, marker stack, progress tokens, resource deck,
    tile piles, farm boards (same seed, same game)."""
    clear_game_nb(s)
    init_streams_nb(s.streams, game_seed)
    s.n_players = n_players
    s.dec = -1
    s.seat = -1
    s.ask_from = -1
    s.picked_edge = -1
    s.site_res = -1
    s.price = t.price_start
    s.task[:, :] = 0
    clear_seat_counters_nb(s)
    s.pts[:, :] = 0
    s.score[:] = 0
    shuffle_floods_nb(t, s)
    stack_markers_nb(s, n_players)
    lay_tokens_nb(t, s)
    deal_resource_deck_nb(t, s)
    deal_tile_piles_nb(t, s, n_players)
    market_reset_nb(t, s)
    deal_farms_nb(t, s, n_players)
    for p in range(n_players):
        for _ in range(t.start_cards):
            c = draw_card_nb(s)
            if c >= 0:
                s.hand[p, c] += 1
    s.stage = 0
    s.step = STEP_TIDE
    s.step_started = 0
    s.n_tasks = 0


@njit(cache=True, error_model="numpy")
def shuffle_floods_nb(t, s):
    """The flood deck, shuffled (first game: the 6 goes back to the box); the sea empty."""
    n = 0
    for i in range(t.n_flood):
        if t.first_game == 1 and t.flood_value[i] == 6:
            continue
        s.flood_deck[n] = i
        n += 1
    shuffle_nb(s.streams, CHANCE, s.flood_deck, n)
    s.flood_n = n
    s.sea[:] = -1


@njit(cache=True, error_model="numpy")
def stack_markers_nb(s, n_players):
    """The dike markers stacked on the first 0 space in random order: the top one starts."""
    perm = np.arange(MAX_PLAYERS)
    shuffle_nb(s.streams, CHANCE, perm, n_players)
    for i in range(n_players):
        s.order_stamp[perm[i]] = i + 1
    s.stamp = n_players
    s.start_player = perm[n_players - 1]
    s.first_start = s.start_player


@njit(cache=True, error_model="numpy")
def lay_tokens_nb(t, s):
    """The progress tokens on the large spaces of the dike track (shuffled with the
    shuffle_progress_tokens rule)."""
    for i in range(t.n_tokens):
        s.token_order[i] = i
    if t.shuffle_progress_tokens == 1:
        shuffle_nb(s.streams, CHANCE, s.token_order, t.n_tokens)


@njit(cache=True, error_model="numpy")
def deal_resource_deck_nb(t, s):
    """The resource cards shuffled into the deck, the discard pile empty, the display dealt."""
    n = 0
    for r in range(N_RES):
        for _ in range(t.n_res_cards[r]):
            s.res_deck[n] = r
            n += 1
    shuffle_nb(s.streams, CHANCE, s.res_deck, n)
    s.deck_n = n
    s.discard[:] = 0
    s.display[:] = -1
    refill_display_nb(s)


@njit(cache=True, error_model="numpy")
def deal_tile_piles_nb(t, s, n_players):
    """The farm expansion tiles: 4 shuffled piles by kind, display_per_kind face up each;
    players + storm_display_extra storm buildings face up, the rest back to the box."""
    s.tile_deck_n[:] = 0
    s.tile_display[:, :] = -1
    for x in range(t.n_tiles):
        k = t.tile_kind[x]
        s.tile_deck[k, s.tile_deck_n[k]] = x
        s.tile_deck_n[k] += 1
    for k in range(N_KINDS):
        shuffle_nb(s.streams, CHANCE, s.tile_deck[k], s.tile_deck_n[k])
        if k == K_STORM:
            ns = n_players + t.storm_display_extra
            for i in range(ns):
                if s.tile_deck_n[k] > 0 and i < MAX_DISPLAY:
                    s.tile_deck_n[k] -= 1
                    s.tile_display[k, i] = s.tile_deck[k, s.tile_deck_n[k]]
            s.tile_deck_n[k] = 0
        else:
            refill_tiles_nb(t, s, k)


@njit(cache=True, error_model="numpy")
def deal_farms_nb(t, s, n_players):
    """The farm boards dealt at random, each with its starting pasture, fences, farmhands,
    coins (+ non_start_bonus after the start player) and sheep; empty seats cleared."""
    lay = np.arange(t.n_layouts)
    shuffle_nb(s.streams, CHANCE, lay, t.n_layouts)
    for p in range(MAX_PLAYERS):
        clear_farm_nb(s, p)
        if p >= n_players:
            s.order_stamp[p] = 0
            continue
        s.layout[p] = lay[p % t.n_layouts]
        for e in range(N_EDGES):
            s.fence[p, e] = t.start_fences[e]
        s.fence_supply[p] = t.n_fence_income
        s.hands_supply[p] = t.farmhands
        s.coins[p] = t.start_coins + (0 if p == s.start_player else t.non_start_bonus)
        s.sheep[p] = t.start_sheep


@njit(cache=True, error_model="numpy")
def clear_farm_nb(s, p):
    """Seat p's farm, hand and tracks empty."""
    s.tile_at[p, :] = -1
    s.fence[p, :] = 0
    s.farmer_on[p, :] = -1
    s.uses[p, :] = 0
    s.hands[p, :] = 0
    s.hand[p, :] = 0
    s.owned[p] = 0
    s.coins[p] = 0
    s.sheep[p] = 0
    s.sheep_tile[p] = 0
    s.dike_pos[p] = 0
    s.dike_lap[p] = 0
    s.breach[p] = 0
    s.plus2[p] = 0
    s.n_buildings[p] = 0
    s.storm_built[p] = 0
    s.fence_supply[p] = 0
    s.hands_supply[p] = 0
    s.coin_plus_used[p] = 0
    s.layout[p] = 0
