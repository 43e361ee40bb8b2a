"""Lowlands: the shared dike and the sea: the dike track (markers, laps, progress tokens),
the dike's and the waves' heights, whether the dike holds.
"""
from numba import njit

from sim.events import trace_nb
from sim.games.lowlands.enums import (
    ALT_NONE, EV_TOKEN, T_TOKEN,
)
from sim.games.lowlands.tasks import push_nb
from sim.numba_calls import plain_constants


@njit(cache=True, error_model="numpy")
def dike_points_nb(t, s, p):
    return s.dike_lap[p] * t.wrap_points + s.dike_pos[p] // 2


@plain_constants
@njit(cache=True, error_model="numpy")
def dike_progress_nb(t, s, p):
    """Distance along the track (laps counted): orders the markers."""
    return s.dike_lap[p] * t.track_length + s.dike_pos[p]


@plain_constants
@njit(cache=True, error_model="numpy")
def ahead_nb(t, s, p, q):
    """Is p's marker ahead of q's: further along, or on the same space and on top."""
    a = dike_progress_nb(t, s, p)
    b = dike_progress_nb(t, s, q)
    if a != b:
        return a > b
    return s.order_stamp[p] > s.order_stamp[q]


@plain_constants
@njit(cache=True, error_model="numpy")
def move_marker_nb(t, s, p, steps, tokens, trace, tn):
    """Advance p's dike marker `steps` spaces; past the last space it continues on the wrap
    space (a lap: +wrap_points dike points). With `tokens`, every progress token landed on OR
    passed gives its bonus (a choice -> a T_TOKEN task, resolved right after)."""
    L = t.track_length
    for _ in range(steps):
        s.dike_pos[p] += 1
        if s.dike_pos[p] >= L:
            s.dike_pos[p] = t.wrap_to
            s.dike_lap[p] += 1
        if tokens:
            for i in range(t.n_tokens):
                if t.token_space[i] == s.dike_pos[p]:
                    s.progress_tokens[p] += 1
                    k = s.token_order[i]
                    if t.token_alt[k] == ALT_NONE:
                        s.coins[p] += t.token_coins[k]
                        trace_nb(trace, tn, EV_TOKEN, p, k, 0, t.token_coins[k], 0)
                    else:
                        push_nb(s, T_TOKEN, p, k, 0, 0, 0, 0, 0)
    if steps > 0:
        s.stamp += 1
        s.order_stamp[p] = s.stamp   # lands on top of the markers already there


@njit(cache=True, error_model="numpy")
def dike_height_nb(t, s):
    """(layer, length in that layer) of the dike: the top layer holding a segment."""
    k = s.segments
    if k == 0:
        return 0, 0
    layer = t.segment_layer[k - 1]
    length = 0
    for i in range(k):
        if t.segment_layer[i] == layer:
            length += t.segment_length[i]
    return layer, length


@njit(cache=True, error_model="numpy")
def wave_height_nb(t, s):
    w = s.waves
    if w <= 0:
        return 0, 0
    layer = (w + t.layer_width - 1) // t.layer_width
    return layer, w - (layer - 1) * t.layer_width


@njit(cache=True, error_model="numpy")
def dike_holds_nb(t, s):
    """High tide: a higher dike holds, a higher sea breaks it; at the same layer the top
    layers' lengths compare, and a dike as long as the waves holds (wave <= dike)."""
    dl, dlen = dike_height_nb(t, s)
    wl, wlen = wave_height_nb(t, s)
    if dl != wl:
        return dl > wl
    return dlen >= wlen


@plain_constants
@njit(cache=True, error_model="numpy")
def remove_waves_nb(t, s, n):
    w = s.waves - n
    s.waves = w if w > 0 else 0


@njit(cache=True, error_model="numpy")
def complete_segment_nb(t, s):
    if s.segments < t.n_segments:
        s.segments += 1
