"""A user strategy for Sunset Over Water built on the built-in `greedy`.

Run it from any folder (`@examples/` is this folder of the toolkit):
    balance run sunset --players 4 --games 20000 \
        --strategies 'painter=@examples/builds_on_greedy.py:greedy_painter,greedy,greedy,greedy'

`builtin(CATALOG, "greedy")` gives greedy's strategy id and its DEFAULT parameter row (the
one a seat playing `greedy` gets). Bound at module level, numba freezes both as constants, and
the @njit function passes them to the game's built-in dispatcher `choose_builtin_nb`. Do not
pass your own `params` argument instead: a user strategy's row is all zeros, and greedy with
all-zero weights values nothing (it plays badly and no error says why).

Two players here:
  * `like_greedy` hands every decision to greedy: it plays exactly as `greedy` does (the test
    tests/test_user_strategy_names.py checks that the logs are identical on shared seeds);
  * `greedy_painter` plays greedy except when it chooses its planning card, where it takes the
    card that paints the most.
"""
from numba import njit

from sim.games.sunset import enums as E
from strategies.registry import builtin
from strategies.sunset import CATALOG, choose_builtin_nb

GREEDY, GREEDY_PARAMS = builtin(CATALOG, "greedy")


@njit
def like_greedy(sid, params, tables, s, seat, decision, options, n_options, ctx, keep):
    return choose_builtin_nb(GREEDY, GREEDY_PARAMS, tables, s, seat, decision, options,
                             n_options, ctx, keep)


@njit
def greedy_painter(sid, params, tables, s, seat, decision, options, n_options, ctx, keep):
    if decision == E.DEC_PLAN:
        # options are slot * 2 + return order; s.popen[seat, slot] is the planning card
        best, best_paint = 0, -1
        for i in range(n_options):
            card = s.popen[seat, options[i] // 2]
            if tables.plan_paint[card] > best_paint:
                best, best_paint = i, tables.plan_paint[card]
        return best
    return choose_builtin_nb(GREEDY, GREEDY_PARAMS, tables, s, seat, decision, options,
                             n_options, ctx, keep)
