"""A tiny game that takes user strategies the way the real games do (through the harness,
sim/harness.py: it is a template game), so that the checks on a user's strategy file can be
tested without compiling a real game's loop (30-60 s each).

Pick: each seat makes ROUNDS decisions; a decision offers N_OPTIONS options with values drawn
from the chance stream; the seat scores the value of the option its strategy picks. A strategy
has the signature of every strategy (sim.user_strategies.ARGS); an answer outside
0..n_options-1 is counted in `illegal` and replaced by option 0, as in the real games.

`python -m tests.usergame ARGS...` runs `balance ARGS...` with this game registered (for
tests that need a separate process: signals).
"""
from __future__ import annotations

import hashlib
import sys

import numpy as np
from numba import njit

from sim.compiled_game import CompiledGameSpec
from sim.game_api import Components
from sim.game_contract import GameContract
from sim.records import declare
from sim.rng import init_streams_nb, next_u64_nb, randint_nb

ROUNDS = 4
N_OPTIONS = 3
SLOW_STEPS = 1_000_000   # `slow`: busy steps per decision (about a millisecond), deterministic
MAX_PLAYERS = 4

# --- the model (docs/adding-a-game.md); a game of public information only ------------------
STATE_DTYPE = np.dtype([("streams", np.uint64, (MAX_PLAYERS + 1,)), ("n_players", np.int64),
                        ("seat", np.int64), ("round", np.int64), ("over", np.int64),
                        ("values", np.int64, (N_OPTIONS,)), ("score", np.int64, (MAX_PLAYERS,))])
TABLES_DTYPE = np.dtype([("unused", np.int64)])
MAX_OPTIONS = N_OPTIONS
CTX_LEN = 2
KEEP_LEN = 2
OBS_LEN = 4 + N_OPTIONS + MAX_PLAYERS
PERFECT_INFORMATION = True
RECORD = declare(
    ("game", "i8", "game index"),
    ("seat", "i8", "seat"),
    ("score", "i8", "sum of the values picked"),
    ("rank", "i8", "1 = best"),
    ("win", "f8", "win share"),
    ("illegal", "i8", "decisions that were not legal"),
    ("choices", "i8", "decisions among 2 or more options"),
)


@njit(cache=True)
def draw_nb(s):
    for k in range(N_OPTIONS):
        s.values[k] = randint_nb(s.streams, 0, 10)


@njit(cache=True)
def setup_nb(tables, s, n_players, game_seed, trace, tn):
    init_streams_nb(s.streams, game_seed)
    s.n_players = n_players
    s.seat = 0
    s.round = 0
    s.over = 0
    s.score[:] = 0
    draw_nb(s)


@njit(cache=True)
def is_over_nb(s):
    return s.over == 1


@njit(cache=True)
def to_move_nb(s):
    return -1 if s.over == 1 else s.seat


@njit(cache=True)
def decision_nb(s):
    return s.round


@njit(cache=True)
def legal_nb(tables, s, options):
    for k in range(N_OPTIONS):
        options[k] = s.values[k]
    return N_OPTIONS


@njit(cache=True)
def context_nb(tables, s, ctx, keep):
    pass


@njit(cache=True)
def default_keep_nb(tables, s, keep):
    pass


@njit(cache=True)
def apply_nb(tables, s, option, keep, trace, tn):
    s.score[s.seat] += option
    s.round += 1
    if s.round == ROUNDS:
        s.round = 0
        s.seat += 1
        if s.seat == s.n_players:
            s.over = 1
            s.seat = -1
            return
    draw_nb(s)


@njit(cache=True)
def returns_nb(tables, s, n_players, out):
    best = s.score[:n_players].max()
    n_best = 0
    for p in range(n_players):
        n_best += s.score[p] == best
    for p in range(n_players):
        out[p] = 1.0 / n_best if s.score[p] == best else 0.0


@njit(cache=True)
def evaluate_nb(tables, s, seat):
    return 0.5


@njit(cache=True)
def determinize_nb(tables, s, seat, seed):
    rng = np.zeros(1, np.uint64)
    init_streams_nb(rng, seed)
    s.streams[0] = next_u64_nb(rng, 0)


@njit(cache=True)
def observe_nb(tables, s, seat, out):
    out[0] = s.seat
    out[1] = s.round
    out[2] = s.over
    out[3] = s.n_players
    for k in range(N_OPTIONS):
        out[4 + k] = s.values[k]
    for p in range(MAX_PLAYERS):
        out[4 + N_OPTIONS + p] = s.score[p]
    return OBS_LEN


@njit(cache=True)
def check_state_nb(tables, s):
    return 0 if s.over == 1 or 0 <= s.seat < s.n_players else 1


@njit(cache=True)
def record_nb(tables, s, n_players, game_index, rec, row0):
    win = np.zeros(MAX_PLAYERS, np.float64)
    returns_nb(tables, s, n_players, win)
    for p in range(n_players):
        r = row0 + p
        rank = 1
        for q in range(n_players):
            rank += s.score[q] > s.score[p]
        rec[r].game = game_index
        rec[r].seat = p
        rec[r].score = s.score[p]
        rec[r].rank = rank
        rec[r].win = win[p]


# --- strategies ---------------------------------------------------------------------------
CATALOG = [{"name": "first", "id": 0, "description": "option 0", "params": []},
           {"name": "greedy", "id": 1, "description": "the best option", "params": []},
           {"name": "slow", "id": 2, "description": "a busy millisecond per decision",
            "params": []}]
N_PARAMS = 1


@njit(cache=True)
def choose_builtin_nb(sid, params, tables, s, seat, decision, options, n_options, ctx, keep):
    if sid == 2:  # slow: a xorshift walk, then a choice that depends on it (cannot be skipped)
        x = np.uint64(options[0] + 1)
        for _ in range(SLOW_STEPS):
            x ^= x << np.uint64(13)
            x ^= x >> np.uint64(7)
            x ^= x << np.uint64(17)
        return np.int64(x >> np.uint64(1)) % n_options
    if sid == 1:  # greedy: the best value
        best = 0
        for i in range(n_options):
            if options[i] > options[best]:
                best = i
        return best
    return 0      # first


def default_components_text() -> str:
    return "# no components\n"


def load_components(path=None, overrides=()) -> Components:
    text = default_components_text()
    return Components(game="pick", path="<default>", text=text,
                      sha256=hashlib.sha256(text.encode()).hexdigest(), data={}, tables=None)


def pack_tables(tables):
    return np.zeros(1, TABLES_DTYPE)


def new_state():
    return np.zeros(1, STATE_DTYPE)


def format_trace(prepared, game_index, events, rec, state) -> list:
    return [f"game {game_index}: scores {list(rec['score'])}"]


class PickSpec(CompiledGameSpec):
    # by name, not sys.modules[__name__]: run as `python -m`, this file is __main__ too
    contract = GameContract.single_module(sys.modules[__name__])
    name = "pick"
    title = "Pick (test game)"
    min_players = 1
    max_players = 4


SPEC = PickSpec()


def register() -> None:
    """Make `pick` known to sim.registry in this process (next to the real games)."""
    from sim import registry
    if "pick" not in {g.name for g in registry.list_games()}:
        registry.register(SPEC)


if __name__ == "__main__":
    from tests import usergame   # the module's own copy (this one is __main__)
    usergame.register()
    from scripts.cli import main
    sys.exit(main(sys.argv[1:]))
