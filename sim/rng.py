"""Counter-based random numbers for the compiled core.

Every game gets its own seed, derived by hashing (run seed, game index), so a game's
randomness never depends on which worker played it or which chunk it fell in. Inside a
game, independent streams are kept in a small uint64 array: stream 0 is chance (shuffles,
ties broken at random) and stream 1 + seat is that seat's strategy. A strategy drawing one
more number therefore never shifts the deck order, which keeps comparisons between
strategies paired (common random numbers).

The generator is splitmix64 (Steele, Lea, Flood 2014): the state is a counter advanced by
a fixed odd constant and the output is a bijective mix of the counter. Each step is a
handful of integer operations, with no tables and no global state, so it runs identically
compiled and under NUMBA_DISABLE_JIT=1.
"""
import numpy as np
from numba import njit

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)
STREAM_SALT = np.uint64(0xD1B54A32D192ED03)
ASSIGN_SALT = np.uint64(0xA0761D6478BD642F)   # the harness's assignment stream (below)
S30 = np.uint64(30)
S27 = np.uint64(27)
S31 = np.uint64(31)
S11 = np.uint64(11)
INV_2_53 = 1.0 / 9007199254740992.0

CHANCE = 0  # stream index of chance; seat s uses stream 1 + s


@njit(cache=True, error_model="numpy")
def mix64_nb(z):
    """splitmix64 finaliser: a bijection of uint64 with good avalanche."""
    z = np.uint64(z)
    z = (z ^ (z >> S30)) * MIX1
    z = (z ^ (z >> S27)) * MIX2
    return z ^ (z >> S31)


@njit(cache=True, error_model="numpy")
def game_seed_nb(run_seed, game_index):
    """The seed of one game: a hash of (run seed, game index)."""
    return mix64_nb(mix64_nb(np.uint64(run_seed)) ^ (np.uint64(game_index) * GOLDEN + STREAM_SALT))


@njit(cache=True, error_model="numpy")
def init_streams_nb(streams, game_seed):
    """Fill `streams` (uint64 array, one counter per stream) from a game seed."""
    for k in range(streams.shape[0]):
        streams[k] = mix64_nb(np.uint64(game_seed) ^ (np.uint64(k + 1) * STREAM_SALT))


@njit(cache=True, error_model="numpy")
def assign_stream_nb(streams, game_seed):
    """streams[0] = the seed of a game's assignment stream: the harness draws the choices a
    run assigns at random from it (sim/harness.py), apart from the state's streams, so a run
    with and without assignment deals the same cards."""
    streams[0] = mix64_nb(np.uint64(game_seed) ^ ASSIGN_SALT)


@njit(cache=True, error_model="numpy")
def next_u64_nb(streams, k):
    """Advance stream k and return its next 64-bit output."""
    streams[k] = streams[k] + GOLDEN
    return mix64_nb(streams[k])


@njit(cache=True, error_model="numpy")
def uniform_nb(streams, k):
    """A float in [0, 1) from stream k (53 random bits)."""
    return float(next_u64_nb(streams, k) >> S11) * INV_2_53


@njit(cache=True, error_model="numpy")
def randint_nb(streams, k, n):
    """An int in [0, n) from stream k; n must be >= 1."""
    r = int(uniform_nb(streams, k) * n)
    return r if r < n else n - 1


@njit(cache=True, error_model="numpy")
def shuffle_nb(streams, k, arr, n):
    """Fisher-Yates shuffle of arr[:n] in place with stream k."""
    for i in range(n - 1, 0, -1):
        j = randint_nb(streams, k, i + 1)
        tmp = arr[i]
        arr[i] = arr[j]
        arr[j] = tmp


@njit(cache=True, error_model="numpy")
def redraw_nb(streams, k, arr, n):
    """A canonical shuffle of arr[:n] with stream k: sorted first, so that the result depends
    only on the items and the stream, never on the order they were in. determinize_nb redraws
    hidden piles with it: a search player then gives the same answer whatever the hidden order
    it replaces (docs/search-players.md, "A requirement on determinize_nb")."""
    arr[:n].sort()
    shuffle_nb(streams, k, arr, n)


@njit(cache=True, error_model="numpy")
def deal_unseen_nb(streams, k, hands, seat, n_seats, n_each, n_cards):
    """Deal the other seats hands[q, :n_each] again from the cards 0..n_cards-1 that `seat`
    does not hold in hands[seat, :n_each], shuffled with stream k from card order: like
    redraw_nb, the deal depends only on what `seat` holds and the stream, never on the hidden
    hands it replaces (a determinize_nb's deal of the cards a seat cannot see)."""
    unseen = np.empty(n_cards, np.int64)
    m = 0
    for c in range(n_cards):
        held = False
        for j in range(n_each):
            if hands[seat, j] == c:
                held = True
        if not held:
            unseen[m] = c
            m += 1
    shuffle_nb(streams, k, unseen, m)
    i = 0
    for q in range(n_seats):
        if q == seat:
            continue
        for j in range(n_each):
            hands[q, j] = unseen[i]
            i += 1
