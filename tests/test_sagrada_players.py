"""Sagrada players (strategies/sagrada.py): the choices that make them play the solo game
and every tool card, on hand-set positions, and the planner's solo win rate.

Rules these choices rest on (/work/shared/rules/sagrada-components.md, "Solo"): no favor
tokens in solo; a tool card is paid with a pool die of the card's colour, and that die and the
card leave play; the target is the sum of the round-track dice (spent dice do not count); the
player wins with a score above it; -3 per open space.
"""
from __future__ import annotations

import numpy as np

from sim.stats import wilson_interval
from sim.games.sagrada import SPEC
from sim.games.sagrada import enums as E
from sim.games.sagrada.nb import action_options_nb, apply_draft_nb, begin_turn_nb, window_options_nb
from strategies.sagrada import (PREP_LEN, P_TARGET, P_TOKEN, P_WIN_PUBLIC, P_WIN_TOKENS, choose_action_nb,
                                choose_window_nb, plain_best_nb, prep_nb, tool_gain_nb, work_nb)
from tests.sagrada_helpers import (Kit, cell, default_tables, fresh_state, options_buf, play_records, pool, set_pool,
                                   set_public, set_restrictions, set_tools, set_window, tables_with)

T = default_tables()
K = Kit()
COMP = SPEC.load_components()
PLANNER = SPEC.prepare(COMP, 1, ["planner"], 1).strategy_params[0].copy()
GREEDY = SPEC.prepare(COMP, 1, ["greedy"], 1).strategy_params[0].copy()
ALL = [".. .. .. .. .."] * 4


def privates(st, seat, *names):
    ids = [K.private(n) for n in names]
    st[0]["priv"][seat, :] = -1
    st[0]["priv"][seat, :len(ids)] = ids


def decide(st, seat, params, planner=True):
    """The action the strategy takes now, as the engine's option code (the engine's options
    for that seat, the strategy's pick)."""
    buf = options_buf()
    n = action_options_nb(T[0], st[0], seat, buf)
    keep = np.zeros(E.MAX_OPTIONS)
    return int(buf[choose_action_nb(T[0], st[0], seat, params, planner, buf, n, keep)])


def codes_now(st, seat=0):
    buf = options_buf()
    n = action_options_nb(T[0], st[0], seat, buf)
    return [int(x) for x in buf[:n]]


def tool_code(st, slot, payer=E.OPT_NO_PAYER):
    return E.OPT_TOOL + slot * E.OPT_TOOL_STRIDE + payer


# ---------------------------------------------------------------------------------------
# window choice
# ---------------------------------------------------------------------------------------
def test_solo_window_choice_gives_no_value_to_favor_tokens():
    """Solo players get no favor tokens: the weight of tokens must not move the solo choice,
    while in a 4-player game a token-hungry planner takes the hardest side."""
    for seed in range(20):
        st = fresh_state(T, 1, seed=seed, blank=False)
        opts = options_buf()
        n = window_options_nb(T[0], st[0], 0, opts)
        picks = set()
        for w in (0.0, 1.0, 1000.0):
            params = PLANNER.copy()
            params[P_WIN_TOKENS] = w
            picks.add(choose_window_nb(T[0], st[0], 0, params, True, opts, n))
        assert len(picks) == 1
        diffs = [int(T[0]["pattern_difficulty"][opts[i]]) for i in range(n)]
        # greedy takes the most tokens; solo, where there are none, the easiest side
        assert diffs[choose_window_nb(T[0], st[0], 0, GREEDY, False, opts, n)] == min(diffs)
        st4 = fresh_state(T, 4, seed=seed, blank=False)
        n = window_options_nb(T[0], st4[0], 0, opts)
        diffs = [int(T[0]["pattern_difficulty"][opts[i]]) for i in range(n)]
        params = PLANNER.copy()
        params[P_WIN_TOKENS] = 1000.0
        assert diffs[choose_window_nb(T[0], st4[0], 0, params, True, opts, n)] == max(diffs)
        assert diffs[choose_window_nb(T[0], st4[0], 0, GREEDY, False, opts, n)] == max(diffs)


def test_planner_window_choice_sees_the_public_objectives():
    """Two sides alike but for where two red spaces lie: in one row (no Row Color Variety
    there, ever) or in one column (no Column Color Variety). The planner takes the side whose
    restrictions do not spoil the public objective face up."""
    T2 = T.copy()
    a, b = 0, 1
    for pat, cells in ((a, ("A1", "A3")), (b, ("A1", "C1"))):
        T2[0]["pattern_colour"][pat, :] = E.NO_COLOUR
        T2[0]["pattern_value"][pat, :] = E.NO_VALUE
        for c in cells:
            T2[0]["pattern_colour"][pat, cell(c)] = E.COLOUR_NAMES.index("red")
    st = fresh_state(T2, 2)
    privates(st, 0, "Shades of Blue")
    opts = np.array([a, b] + [0] * (E.MAX_OPTIONS - 2), np.int64)
    set_public(st, ["Row Color Variety"])
    assert choose_window_nb(T2[0], st[0], 0, PLANNER, True, opts, 2) == 1
    set_public(st, ["Column Color Variety"])
    assert choose_window_nb(T2[0], st[0], 0, PLANNER, True, opts, 2) == 0
    blind = PLANNER.copy()
    blind[P_WIN_PUBLIC] = 0.0   # without the objectives in view the two sides are alike
    set_public(st, ["Row Color Variety"])
    assert choose_window_nb(T2[0], st[0], 0, blind, True, opts, 2) == 0


# ---------------------------------------------------------------------------------------
# solo: playing against the target
# ---------------------------------------------------------------------------------------
def solo_state(pool_dice, tools=(), private=("Shades of Purple",)):
    st = fresh_state(T, 1)
    set_public(st, [])
    privates(st, 0, *private)
    set_tools(st, T, list(tools))
    set_pool(st, pool_dice)
    begin_turn_nb(st[0], 0, 0)
    return st


def test_solo_planner_leaves_low_dice_to_the_round_track():
    """Two dice alike for the window (no objective wants either): solo, the planner drafts
    the 6 and leaves the 1 for the round track, whose sum is the target; in a 2-player game
    (no target) the two are worth the same to it."""
    st = solo_state(["R1", "G6"])
    assert decide(st, 0, PLANNER) // E.N_CELLS == 1
    st2 = fresh_state(T, 2)
    set_public(st2, [])
    privates(st2, 0, "Shades of Purple")
    set_tools(st2, T, [])
    set_pool(st2, ["R1", "G6"])
    begin_turn_nb(st2[0], 0, 0)
    assert decide(st2, 0, PLANNER) // E.N_CELLS == 0   # a tie: the first listed


def test_solo_planner_pays_a_tool_with_the_die_it_can_spare():
    """Eglomise Brush (blue) paid with B1 or B6. The paid die leaves play: its pips come off
    the target, but it can no longer be drafted. With blue as its private colour the 6 is
    worth drafting, so the planner pays with the low die; otherwise it spends the 6."""
    gains = {}
    for private in ("Shades of Blue", "Shades of Green"):
        st = solo_state(["B1", "B6", "G3"], ["Eglomise Brush"], (private,))
        set_window(st, 0, ["Y2 .. .. .. ..", *ALL[1:]])
        prep = np.zeros(PREP_LEN, np.int64)
        prep_nb(T[0], st[0], 0, prep)
        buf = options_buf()
        n = action_options_nb(T[0], st[0], 0, buf)
        codes = [int(x) for x in buf[:n]]
        assert tool_code(st, 0, 0) in codes and tool_code(st, 0, 1) in codes
        # the plain best draft (target bonus included), as choose_action_nb computes it
        work = work_nb(T[0], st[0], 0, prep, PLANNER, True, np.zeros(E.MAX_OPTIONS))
        plain = plain_best_nb(st[0], 0, prep, work, -1, PLANNER[P_TARGET])
        gains[private] = [tool_gain_nb(T[0], st[0], 0, 0, payer, prep, work, plain, PLANNER, 0.0, -1e18)
                          for payer in (0, 1)]
    low, high = gains["Shades of Blue"]
    assert low > high
    low, high = gains["Shades of Green"]
    assert high > low


def test_solo_glazing_hammer_rerolls_high_dice_bound_for_the_track():
    """Second turn, nothing placeable (every space wants a 2): re-rolling R6 and Y6, which
    would otherwise add 12 to the target, pays; re-rolling R1 and Y1 does not."""
    for rest, used in ((["R6", "Y6"], True), (["R1", "Y1"], False)):
        st = solo_state(["B1", *rest], ["Glazing Hammer"])
        set_restrictions(st, 0, [".2 .2 .2 .2 .2"] * 4)
        begin_turn_nb(st[0], 0, 1)
        code = decide(st, 0, PLANNER)
        assert (code == tool_code(st, 0, 0)) == used, (rest, code)


# ---------------------------------------------------------------------------------------
# the tools the planner never used before
# ---------------------------------------------------------------------------------------
def two_player_state(pool_dice, tools, private="Shades of Red"):
    st = fresh_state(T, 2)
    set_public(st, [])
    privates(st, 0, private)
    set_tools(st, T, list(tools))
    st[0]["tokens"][0] = 5
    set_pool(st, pool_dice)
    begin_turn_nb(st[0], 0, 0)
    return st


def test_planner_uses_running_pliers_for_a_second_die_worth_taking_now():
    """After its first draft: a red 6 (its private colour) is left in a 2-player pool that
    the opponent drafts from before the planner's next turn: Running Pliers takes it now.
    A green 1 is not worth a favor token; nor is the red 6 to the last seat of the snake
    order, whose second turn comes right after its first."""
    for seat, second, used in ((0, "R6", True), (0, "G1", False), (1, "R6", False)):
        st = two_player_state(["Y3", second], ["Running Pliers"])
        st[0]["order"][:4] = [0, 1, 1, 0]          # round order: seat 1 plays twice in a row
        privates(st, seat, "Shades of Red")
        st[0]["tokens"][seat] = 5
        begin_turn_nb(st[0], seat, 0)
        apply_draft_nb(st[0], seat, 0 * E.N_CELLS + cell("A1"), np.zeros((0, 6), np.int64),
                       np.zeros(1, np.int64))
        assert pool(st) == [second]
        code = decide(st, seat, PLANNER)
        assert (code == tool_code(st, 0)) == used, (seat, second, code)


def test_planner_uses_flux_remover_when_no_pool_die_fits():
    """Every space wants a 6 or a yellow die and the pool holds a red 1 and a green 1: Flux
    Remover (return a die, draw one and choose its value) is the only way to fill a space
    this turn, and worth its favor token; with tokens dear the planner does without."""
    st = two_player_state(["R1", "G1"], ["Flux Remover"])
    set_restrictions(st, 0, [".6 y. .6 y. .6", "y. .6 y. .6 y."] * 2)
    assert codes_now(st) == [tool_code(st, 0), E.OPT_END]   # no die can be drafted
    assert decide(st, 0, PLANNER) == tool_code(st, 0)
    dear = PLANNER.copy()
    dear[P_TOKEN] = 100.0
    assert decide(st, 0, dear) == E.OPT_END


def test_planner_uses_every_tool_card_in_play():
    """Over planner games, each of the 12 tool cards is used in most of the games where it
    is face up (Glazing Hammer, Running Pliers and Flux Remover were never used before)."""
    T0 = default_tables()
    for players in (4, 1):
        p = SPEC.prepare(COMP, players, ["planner"] * players, 3)
        out = play_records(T0, players, 3, 0, 400, p.strategy_ids, p.strategy_params)
        up = out[out["seat"] == 0]["tools_mask"]
        for t, name in enumerate(COMP.card_names["tool"]):
            games_up = int(((up >> t) & 1).sum())
            used = len(set(out[((out["tools_used_mask"] >> t) & 1) == 1]["game"]))
            assert games_up >= 50 and used >= 0.4 * games_up, (players, name, games_up, used)


def test_planner_beats_the_solo_target_far_more_often_with_its_solo_play():
    """A planner without its solo play (leave low dice to the track, spend tools) beats the
    target in 0.29% of solo games at 3 tools (95% Wilson 0.20-0.42%, 10,000 games, seed 1):
    with it, the lower end of the interval must clear 1%."""
    tables = tables_with("rules.solo_tools=3")
    p = SPEC.prepare(COMP, 1, ["planner"], 21)
    n = 3000
    win = play_records(tables, 1, 21, 0, n, p.strategy_ids, p.strategy_params)["win"]
    lo, hi = wilson_interval(win.sum(), n)
    assert lo > 0.01, (win.sum() / n, lo, hi)
