"""A worked example of a user strategy for Sunset Over Water.

Run it with (from any folder: `@examples/` is this folder of the toolkit):
    balance run sunset --players 4 --games 20000 \
        --strategies @examples/waterfall_lover.py:waterfall_lover,greedy,greedy,greedy

The function must be a numba @njit function with exactly this signature (see
strategies/sunset.py for what each argument holds). It returns the INDEX of the option it
takes, 0 <= index < n_options; anything else is counted in the `illegal` log column and the
engine plays option 0 instead.

This player hikes and paints wherever waterfalls are, plans with the card that paints the
most, sells the first commission it can, and otherwise chooses at random from its own
random stream (stream 1 + seat: never the chance stream, so its choices do not change the
cards that come out).
"""
import numpy as np
from numba import njit

from sim.games.sunset import enums as E
from sim.games.sunset.nb import path_nb
from sim.rng import randint_nb

WATERFALL = 2  # feature code: index in the component file's [game] features list


@njit
def waterfall_lover(sid, params, tables, s, seat, decision, options, n_options, ctx, keep):
    if decision == E.DEC_PLAN:
        # options are slot * 2 + return order; s.popen[seat, slot] is the planning card
        best, best_paint = 0, -1
        for i in range(n_options):
            card = s.popen[seat, options[i] // 2]
            if tables.plan_paint[card] > best_paint:
                best, best_paint = i, tables.plan_paint[card]
        return best
    if decision == E.DEC_HIKE:
        # count waterfalls along each legal hike's path (start card included)
        path = np.empty(E.MAX_PATH, np.int64)
        best, best_count = 0, -1
        for i in range(n_options):
            n = path_nb(s.pos[seat], options[i], path)
            count = 0
            for k in range(n):
                land = s.grid[path[k]]
                if land >= 0 and tables.landscape_features[land, WATERFALL] > 0:
                    count += 1
            if count > best_count:
                best, best_count = i, count
        return best
    if decision == E.DEC_PAINT:
        # options are bitmasks over path positions; ctx[2 + i] is path cell i.
        # Take the largest legal set (most paintings).
        best, best_size = 0, -1
        for i in range(n_options):
            size = 0
            m = options[i]
            while m:
                size += m & 1
                m >>= 1
            if size > best_size:
                best, best_size = i, size
        return best
    if decision == E.DEC_SELL:
        return 0  # the first sellable commission (the last option is "stop")
    return randint_nb(s.streams, 1 + seat, n_options)

