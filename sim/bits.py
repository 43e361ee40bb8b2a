"""Bit masks as the harness's option lists: the compiled helper every game's legal-move code
shares (a game that computes its legal moves as one mask lists them here)."""
from numba import njit


@njit(cache=True, error_model="numpy", inline="always")
def mask_options_nb(mask, options):
    """The set bits of `mask` (an int >= 0) into options[0..n-1], lowest bit first (bit i
    is option code i); returns n. Inlined: it runs at every decision of the games using it."""
    n = 0
    code = 0
    while mask:
        if mask & 1:
            options[n] = code
            n += 1
        mask >>= 1
        code += 1
    return n
