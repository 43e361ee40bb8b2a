"""Lowlands: running the game to the next decision. `advance_nb` starts each step (tide,
work, upkeep, high tide) when the task stack is empty, runs the automatic tasks, applies a
decision with a single option on the spot and stops at the first decision with two or more.
"""
import numpy as np
from numba import njit

from sim.events import trace_nb
from sim.games.lowlands.enums import (
    EV_CARDS, EV_STAGE, MAX_OPTIONS, MAX_TASKS, N_FARMERS, N_STAGES, N_STEPS, STEP_HIGH,
    STEP_TIDE, STEP_UP1, STEP_UP2, STEP_WORK1, STEP_WORK2, T_DECK_CARDS, T_DISCARD, T_ESCAPE,
    T_FLOOD, T_PLACE, T_SHEEP_GAIN, T_UPKEEP,
)
from sim.games.lowlands.cards import draw_card_nb, hand_total_nb
from sim.games.lowlands.decisions import apply_task_nb, skip_task_nb, task_options_nb
from sim.games.lowlands.farm import escape_nb, gain_sheep_nb
from sim.games.lowlands.placement import place_options_upto_nb
from sim.games.lowlands.storm_surge import storm_surge_nb
from sim.games.lowlands.tasks import is_decision_task_nb, kind_to_dec_nb, pop_nb, push_nb
from sim.games.lowlands.tides import high_tide_nb, lay_sea_nb, reveal_flood_nb
from sim.games.lowlands.trade_tiles import push_upkeep_trades_nb
from sim.games.lowlands.upkeep import upkeep_nb


@njit(cache=True, error_model="numpy")
def start_step_nb(t, s, trace, tn):
    """The automatic beginning of the current step (may push tasks)."""
    step = s.step
    np_ = s.n_players
    trace_nb(trace, tn, EV_STAGE, s.stage, step, 0, 0, 0)
    if step == STEP_TIDE:
        push_nb(s, T_FLOOD, 0, 1, 0, 0, 0, 0, 0)    # after the hand limit
        for j in range(np_ - 1, -1, -1):
            p = (s.start_player + j) % np_
            extra = hand_total_nb(s, p) - t.hand_limit
            for _ in range(extra):
                push_nb(s, T_DISCARD, p, 0, 0, 0, 0, 0, 0)
    elif step == STEP_WORK1 or step == STEP_WORK2:
        s.placed = 0
    elif step == STEP_UP1 or step == STEP_UP2:
        last = step == STEP_UP2 and s.stage == N_STAGES - 1
        if not push_upkeep_trades_nb(t, s, last):   # no Auction House / Fodder Silo: at once
            upkeep_nb(t, s, last, trace, tn)
    elif step == STEP_HIGH:
        high_tide_nb(t, s, trace, tn)


@njit(cache=True, error_model="numpy")
def run_auto_task_nb(t, s, trace, tn):
    i = s.n_tasks - 1
    kind = s.task[i, 0]
    p = s.task[i, 1]
    a = s.task[i, 2]
    pop_nb(s)
    if kind == T_ESCAPE:
        escape_nb(t, s, p, trace, tn)
    elif kind == T_SHEEP_GAIN:
        gain_sheep_nb(t, s, p, a)
    elif kind == T_FLOOD:
        if a == 1:
            lay_sea_nb(s)
        reveal_flood_nb(t, s, trace, tn)
    elif kind == T_UPKEEP:
        upkeep_nb(t, s, a == 1, trace, tn)
    elif kind == T_DECK_CARDS:
        got = 0
        for _ in range(a):
            c = draw_card_nb(s)
            if c >= 0:
                s.hand[p, c] += 1
                got += 1
        trace_nb(trace, tn, EV_CARDS, p, 0, got, 0, 0)


@njit(cache=True, error_model="numpy")
def advance_nb(t, s, trace, tn):
    """Run everything automatic up to the next decision with 2+ options (forced moves are
    applied on the spot) or the end. Sets s.dec and s.seat."""
    options = np.empty(MAX_OPTIONS, np.int64)
    np_ = s.n_players
    while True:
        if s.over == 1:
            s.dec = -1
            s.seat = -1
            return
        if s.n_tasks > MAX_TASKS:
            s.over = 1
            continue
        if s.n_tasks > 0:
            i = s.n_tasks - 1
            kind = s.task[i, 0]
            if not is_decision_task_nb(kind):
                run_auto_task_nb(t, s, trace, tn)
                continue
            if kind == T_PLACE:     # 2 placements found: the player decides (legal_nb lists all)
                n = place_options_upto_nb(t, s, s.task[i, 1], options, 2)
            else:
                n = task_options_nb(t, s, options)
            if n == 0:
                skip_task_nb(t, s, trace, tn)
                continue
            if n == 1:
                apply_task_nb(t, s, options[0], trace, tn)
                continue
            s.dec = kind_to_dec_nb(kind)
            s.seat = s.task[i, 1]
            return
        if s.stage >= N_STAGES:
            storm_surge_nb(t, s, trace, tn)
            continue
        if s.step_started == 0:
            s.step_started = 1
            start_step_nb(t, s, trace, tn)
            continue
        step = s.step
        if (step == STEP_WORK1 or step == STEP_WORK2) and s.placed < N_FARMERS * np_:
            p = (s.start_player + s.placed) % np_
            push_nb(s, T_PLACE, p, 0, 0, 0, 0, 0, 0)
            continue
        s.step += 1
        s.step_started = 0
        if s.step >= N_STEPS:
            s.step = 0
            s.stage += 1
