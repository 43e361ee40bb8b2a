"""The replay trace shared by every game: a preallocated int64 array of events
(code, a, b, c, d, e) that the rules append to; with 0 rows tracing is off and free."""
from numba import njit

from sim.numba_calls import plain_constants

TRACE_WIDTH = 6


@plain_constants
@njit(cache=True, error_model="numpy")
def trace_nb(trace, tn, ev, a, b, c, d, e):
    """Append one event to the replay trace (a no-op when tracing is off: trace has 0 rows)."""
    i = tn[0]
    if i < trace.shape[0]:
        trace[i, 0] = ev
        trace[i, 1] = a
        trace[i, 2] = b
        trace[i, 3] = c
        trace[i, 4] = d
        trace[i, 5] = e
        tn[0] = i + 1
