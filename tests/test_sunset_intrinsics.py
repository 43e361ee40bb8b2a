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


def test_the_jit_off_plays_the_same_games():
    """With NUMBA_DISABLE_JIT=1 (`make coverage`, the interpreted benchmark) the intrinsics'
    Python stand-ins play the very games the compiled code plays."""
    import json
    import os
    import subprocess
    import sys

    code = ("import json; from sim.registry import get_game; s = get_game('sunset'); "
            "p = s.prepare(s.load_components(), 4, ['greedy'] * 4, 5); "
            "print(json.dumps([int(x) for x in s.play_chunk(p, 0, 2)['score']]))")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    scores = []
    for jit_off in ("1", "0"):
        done = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True,
                              text=True, env=dict(os.environ, NUMBA_DISABLE_JIT=jit_off))
        assert done.returncode == 0, done.stderr[-2000:]
        scores.append(json.loads(done.stdout.strip().splitlines()[-1]))
    assert scores[0] == scores[1] and len(scores[0]) == 8
