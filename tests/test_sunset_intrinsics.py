"""The two machine operations of sim/games/sunset/intrinsics.py that Sunset's hot code uses:
scratch arrays in the caller's stack frame and a population count."""
import numpy as np
from numba import njit

from sim.games.sunset.intrinsics import bit_count, frame_array

N = 40


@njit(cache=False)
def _fill(a, start):
    for i in range(a.shape[0]):
        a[i] = start + i


@njit(cache=False)
def _frame_sums(rounds):
    """Each round fills a fresh frame array through a callee and sums it: the array has the
    asked length and holds what was written (a loop reuses the same frame memory)."""
    out = np.zeros(rounds, np.int64)
    for r in range(rounds):
        a = frame_array(N, np.int64)
        _fill(a, r)
        out[r] = a.sum() + a.shape[0]
    return out


def test_frame_array_holds_what_is_written():
    assert _frame_sums(3).tolist() == [sum(range(r, r + N)) + N for r in range(3)]


@njit(cache=False)
def _counts(xs):
    out = np.zeros(xs.shape[0], np.int64)
    for i in range(xs.shape[0]):
        out[i] = bit_count(xs[i])
    return out


def test_bit_count_counts_the_set_bits():
    xs = np.array([0, 1, 2, 3, 0b1011, (1 << 47) | 5, (1 << 62) - 1], np.int64)
    assert _counts(xs).tolist() == [bin(int(x)).count("1") for x in xs]
