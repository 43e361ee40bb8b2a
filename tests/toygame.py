"""Toy Dice: a tiny game on the game template (docs/adding-a-game.md), for testing the platform.

It is registered only by the tests (never in sim.registry) and uses every pattern a real
game does, in a few lines each, so the harness, the runner and the conformance test
(tests/test_every_game.py) are exercised without a real engine:

- hidden information: each seat is dealt a secret die that only it sees;
- a simultaneous choice: every seat picks a lucky number 1-3 in seat order, hidden (pending)
  until all have picked; a number nobody else picked scores +2 (LUCKY_BONUS);
- chance inside apply: every die is rolled from the chance stream when its turn comes;
- sequential decisions with context: for each of its n_dice dice, the seat sees the roll
  (ctx[0]) and keeps it or rerolls it once;
- a state checker, determinize (redraws other seats' secrets and pending picks, reseeds
  chance) and an observation of what a seat has seen.

Score = dice + secret + lucky bonus; highest wins, ties split. Solo: win when the score
reaches SOLO_TARGET(tables). Components: `[dice] sides, n_dice`, and an optional rule option
`[rules] tie_break`: "split" (the default, and the shipped file's behaviour) or
"lowest_seat", a planted seat-order tie-break (the lowest tied seat wins outright) that the
seat-symmetry conformance test (tests/test_every_game.py) must catch.
"""
from __future__ import annotations

import hashlib
import os
import sys

import numpy as np
from numba import njit

from sim.compiled_game import CompiledGameSpec
from sim.events import trace_nb
from sim.game_api import ComponentError, Components
from sim.game_contract import GameContract
from sim.overrides import apply_overrides
from sim.outcomes import rank_by_score_nb
from sim.records import declare
from sim.rng import init_streams_nb, next_u64_nb, randint_nb

try:
    import tomllib
except ModuleNotFoundError:  # pragma: no cover
    import tomli as tomllib

DEFAULT_TEXT = """# toy dice game components
[dice]
sides = 6
n_dice = 3
"""

# --- enums ---------------------------------------------------------------------------------
MAX_PLAYERS = 4
MAX_DICE = 32
N_PICKS = 3            # lucky numbers 1..N_PICKS
LUCKY_BONUS = 2
PH_PICK, PH_DICE, PH_OVER = 0, 1, 2
DEC_PICK, DEC_REROLL = 0, 1
EV_DEAL, EV_PICK, EV_REVEAL, EV_ROLL, EV_REROLL = 1, 2, 3, 4, 5

STATE_DTYPE = np.dtype([
    ("streams", np.uint64, (MAX_PLAYERS + 1,)),  # 0 chance, 1 + seat that seat's strategy
    ("n_players", np.int64),
    ("phase", np.int64),                         # PH_*
    ("seat", np.int64),                          # to move (-1 when over)
    ("die", np.int64),                           # index of the die being decided
    ("n_picked", np.int64),                      # seats that have picked (public)
    ("revealed", np.int64),                      # 1 once every pick is revealed
    ("secret", np.int64, (MAX_PLAYERS,)),        # hidden: seen by its seat only
    ("pick", np.int64, (MAX_PLAYERS,)),          # 0 = not yet; hidden until revealed
    ("bonus", np.int64, (MAX_PLAYERS,)),
    ("dice", np.int64, (MAX_PLAYERS, MAX_DICE)),  # 0 = not rolled yet
    ("rerolls", np.int64, (MAX_PLAYERS,)),
])
TABLES_DTYPE = np.dtype([("sides", np.int64), ("n_dice", np.int64), ("tie_break", np.int64)])
TIE_BREAKS = ("split", "lowest_seat")

# --- the model (the contract of docs/adding-a-game.md) ---------------------------------------
MAX_OPTIONS = N_PICKS
CTX_LEN = 1
KEEP_LEN = 1
OBS_LEN = 7 + MAX_PLAYERS * (3 + MAX_DICE)
CANONICAL_DETERMINIZE = True   # determinize_nb draws fresh values from the seed alone

RECORD = declare(
    ("game", "i8", "game index in the run"),
    ("seat", "i8", "seat, 0-based"),
    ("score", "i8", "dice + secret + lucky bonus"),
    ("rank", "i8", "1 = best; tied seats share a rank"),
    ("win", "f8", "win share: 1 for a sole winner, 1/k for k tied winners, else 0"),
    ("end_reason", "i8", "0 clear win, 1 tie"),
    ("rerolls", "i8", "dice rerolled"),
    ("secret", "i8", "the seat's secret die"),
    ("lucky", "i8", "1 when nobody else picked the seat's lucky number"),
    ("mean_die", "f8", "mean of the seat's final dice"),
    ("illegal", "i8", "strategy decisions that were not legal (always 0 for built-ins)"),
    ("choices", "i8", "decisions the seat took among 2 or more legal options"),
)


@njit(cache=True, error_model="numpy")
def solo_target_nb(tables):
    return (tables.n_dice + 1) * (tables.sides + 1) // 2 + LUCKY_BONUS


@njit(cache=True, error_model="numpy")
def roll_nb(tables, s, trace, tn):
    v = 1 + randint_nb(s.streams, 0, tables.sides)
    s.dice[s.seat, s.die] = v
    trace_nb(trace, tn, EV_ROLL, s.seat, s.die, v, 0, 0)


@njit(cache=True, error_model="numpy")
def setup_nb(tables, s, n_players, game_seed, trace, tn):
    init_streams_nb(s.streams, game_seed)
    s.n_players = n_players
    s.phase = PH_PICK
    s.seat = 0
    s.die = 0
    s.n_picked = 0
    s.revealed = 0
    s.secret[:] = 0
    s.pick[:] = 0
    s.bonus[:] = 0
    s.dice[:, :] = 0
    s.rerolls[:] = 0
    for p in range(n_players):
        s.secret[p] = 1 + randint_nb(s.streams, 0, tables.sides)
        trace_nb(trace, tn, EV_DEAL, p, s.secret[p], 0, 0, 0)


@njit(cache=True, error_model="numpy")
def is_over_nb(s):
    return s.phase == PH_OVER


@njit(cache=True, error_model="numpy")
def to_move_nb(s):
    return s.seat if s.phase != PH_OVER else -1


@njit(cache=True, error_model="numpy")
def decision_nb(s):
    return DEC_PICK if s.phase == PH_PICK else DEC_REROLL


@njit(cache=True, error_model="numpy")
def legal_nb(tables, s, options):
    if s.phase == PH_PICK:
        for k in range(N_PICKS):
            options[k] = k + 1
        return N_PICKS
    options[0] = 0   # keep
    options[1] = 1   # reroll
    return 2


@njit(cache=True, error_model="numpy")
def context_nb(tables, s, ctx, keep):
    ctx[0] = s.dice[s.seat, s.die] if s.phase == PH_DICE else 0


@njit(cache=True, error_model="numpy")
def default_keep_nb(tables, s, keep):
    pass


@njit(cache=True, error_model="numpy")
def apply_nb(tables, s, option, keep, trace, tn):
    n = s.n_players
    if s.phase == PH_PICK:
        s.pick[s.seat] = option           # pending: nobody else sees it until the reveal
        s.n_picked += 1
        trace_nb(trace, tn, EV_PICK, s.seat, 0, 0, 0, 0)
        s.seat += 1
        if s.seat < n:
            return
        s.revealed = 1
        for p in range(n):
            unique = True
            for q in range(n):
                if q != p and s.pick[q] == s.pick[p]:
                    unique = False
            s.bonus[p] = LUCKY_BONUS if unique else 0
            trace_nb(trace, tn, EV_REVEAL, p, s.pick[p], s.bonus[p], 0, 0)
        s.phase = PH_DICE
        s.seat = 0
        s.die = 0
        roll_nb(tables, s, trace, tn)
        return
    if option == 1:
        s.rerolls[s.seat] += 1
        v = 1 + randint_nb(s.streams, 0, tables.sides)
        s.dice[s.seat, s.die] = v
        trace_nb(trace, tn, EV_REROLL, s.seat, s.die, v, 0, 0)
    s.die += 1
    if s.die == tables.n_dice:
        s.die = 0
        s.seat += 1
        if s.seat == n:
            s.phase = PH_OVER
            s.seat = -1
            return
    roll_nb(tables, s, trace, tn)


@njit(cache=True, error_model="numpy")
def score_nb(tables, s, p):
    total = s.secret[p] + s.bonus[p]
    for d in range(tables.n_dice):
        total += s.dice[p, d]
    return total


@njit(cache=True, error_model="numpy")
def scores_nb(tables, s, n_players):
    scores = np.zeros(n_players, np.int64)
    for p in range(n_players):
        scores[p] = score_nb(tables, s, p)
    return scores


@njit(cache=True, error_model="numpy")
def returns_nb(tables, s, n_players, out):
    out[:] = 0.0
    if n_players == 1:
        out[0] = 1.0 if score_nb(tables, s, 0) >= solo_target_nb(tables) else 0.0
        return
    rank = np.zeros(n_players, np.int64)
    rank_by_score_nb(scores_nb(tables, s, n_players), n_players, rank, out)
    if tables.tie_break == 1:      # planted: the lowest tied seat takes the win
        winner = np.argmin(rank)   # the first seat ranked 1
        out[:n_players] = 0.0
        out[winner] = 1.0


@njit(cache=True, error_model="numpy")
def evaluate_nb(tables, s, seat):
    """A logistic of the seat's lead over the best other seat, in units of one die."""
    mine = score_nb(tables, s, seat)
    other = solo_target_nb(tables) if s.n_players == 1 else -1
    for p in range(s.n_players):
        if p != seat:
            other = max(other, score_nb(tables, s, p))
    return 1.0 / (1.0 + np.exp(-(mine - other) / float(tables.sides)))


@njit(cache=True, error_model="numpy")
def determinize_nb(tables, s, seat, seed):
    """Redraw what `seat` cannot see: other seats' secrets and their picks not yet revealed;
    then reseed chance, so future rolls differ."""
    rng = np.zeros(1, np.uint64)
    init_streams_nb(rng, seed)
    for q in range(s.n_players):
        if q == seat:
            continue
        s.secret[q] = 1 + randint_nb(rng, 0, tables.sides)
        if s.revealed == 0 and s.pick[q] > 0:
            s.pick[q] = 1 + randint_nb(rng, 0, N_PICKS)
    s.streams[0] = next_u64_nb(rng, 0)


@njit(cache=True, error_model="numpy")
def observe_nb(tables, s, seat, out):
    """What `seat` has seen, as int64s: the public state, its own secret and pick, revealed
    picks and bonuses, every die rolled and every reroll count."""
    out[0] = s.phase
    out[1] = s.seat
    out[2] = s.die
    out[3] = s.n_picked
    out[4] = s.revealed
    out[5] = s.secret[seat]
    out[6] = s.pick[seat]
    k = 7
    for p in range(MAX_PLAYERS):
        out[k] = s.pick[p] if s.revealed == 1 else 0
        out[k + 1] = s.bonus[p]
        out[k + 2] = s.rerolls[p]
        k += 3
        for d in range(MAX_DICE):
            out[k] = s.dice[p, d]
            k += 1
    return k


@njit(cache=True, error_model="numpy")
def check_state_nb(tables, s):
    """0 when consistent, else: 1 phase unknown; 2 seat to move out of range while playing;
    3 a secret outside 1..sides; 4 a die outside 0..sides, or rolled beyond the turn; 5 the
    count of picks disagrees with the picks; 6 picks revealed before all were made."""
    n = s.n_players
    if s.phase < PH_PICK or s.phase > PH_OVER:
        return 1
    if s.phase != PH_OVER and (s.seat < 0 or s.seat >= n):
        return 2
    for p in range(n):
        if s.secret[p] < 1 or s.secret[p] > tables.sides:
            return 3
        for d in range(MAX_DICE):
            v = s.dice[p, d]
            if v < 0 or v > tables.sides or (d >= tables.n_dice and v != 0):
                return 4
            rolled = s.phase == PH_OVER or (s.phase == PH_DICE and (
                p < s.seat or (p == s.seat and d <= s.die)))
            if rolled != (v > 0) and d < tables.n_dice:
                return 4
    picked = 0
    for p in range(n):
        if s.pick[p] > 0:
            picked += 1
    if picked != s.n_picked:
        return 5
    if s.revealed == 1 and picked != n:
        return 6
    return 0


@njit(cache=True, error_model="numpy")
def record_nb(tables, s, n_players, game_index, rec, row0):
    win = np.zeros(MAX_PLAYERS, np.float64)
    returns_nb(tables, s, n_players, win)
    tie = 0
    if n_players > 1:
        for p in range(n_players):
            if 0.0 < win[p] < 1.0:
                tie = 1
    scores = scores_nb(tables, s, n_players)
    rank = np.zeros(n_players, np.int64)
    rank_by_score_nb(scores, n_players, rank, np.zeros(n_players, np.float64))
    for p in range(n_players):
        r = row0 + p
        rec[r].game = game_index
        rec[r].seat = p
        rec[r].score = scores[p]
        rec[r].rank = rank[p]
        rec[r].win = win[p]
        rec[r].end_reason = tie
        rec[r].rerolls = s.rerolls[p]
        rec[r].secret = s.secret[p]
        rec[r].lucky = 1 if s.bonus[p] > 0 else 0
        total = 0
        for d in range(tables.n_dice):
            total += s.dice[p, d]
        rec[r].mean_die = total / float(tables.n_dice)


# --- strategies (strategies/<game>.py of a real game) -----------------------------------
RANDOM, GREEDY, PLANNER = 0, 1, 2
CATALOG = [
    {"name": "random", "id": RANDOM, "description": "uniformly random legal choice", "params": []},
    {"name": "greedy", "id": GREEDY, "description": "rerolls dice below a threshold",
     "params": [("threshold", 4.0, "reroll dice showing less than this")]},
    {"name": "planner", "id": PLANNER, "description": "threshold, less risk with a high secret",
     "params": [("threshold", 3.5, "reroll dice showing less than this"),
                ("risk", 0.5, "threshold lowered by this when the own secret is high")]},
]
N_PARAMS = 2


@njit(cache=True, error_model="numpy")
def choose_builtin_nb(sid, params, tables, s, seat, decision, options, n_options, ctx, keep):
    if sid == RANDOM:
        return randint_nb(s.streams, 1 + seat, n_options)
    if decision == DEC_PICK:   # reads only the seat's own secret, never its seat number
        return (s.secret[seat] + (1 if sid == GREEDY else 0)) % n_options
    threshold = params[0]
    if sid == PLANNER and 2 * s.secret[seat] > tables.sides:
        threshold -= params[1]
    return 1 if ctx[0] < threshold else 0


# --- the pieces the spec reaches through the contract (sim/game_contract.py) ---------------
def default_components_text() -> str:
    return DEFAULT_TEXT


def load_components(path=None, overrides=()) -> Components:
    if path is None:
        text, shown = DEFAULT_TEXT, "<default>"
    else:
        if not os.path.isfile(path):
            raise ComponentError(f"{path}: component file not found")
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        shown = path
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ComponentError(f"{shown}: not valid TOML: {exc}") from None
    data = apply_overrides(data, list(overrides), shown)
    dice = data.get("dice", {})
    problems = []
    for key, lo, hi in (("sides", 2, None), ("n_dice", 1, MAX_DICE)):
        v = dice.get(key)
        if not isinstance(v, int) or isinstance(v, bool) or v < lo:
            problems.append(f"{shown}: [dice] {key}: must be an integer >= {lo}, got {v!r}")
        elif hi is not None and v > hi:
            problems.append(f"{shown}: [dice] {key}: must be at most {hi}, got {v!r}")
    tie_break = data.get("rules", {}).get("tie_break", "split")
    if tie_break not in TIE_BREAKS:
        problems.append(f"{shown}: [rules] tie_break: must be one of {', '.join(TIE_BREAKS)}, "
                        f"got {tie_break!r}")
    if problems:
        raise ComponentError(problems)
    return Components(game="toy", path=shown, text=text,
                      sha256=hashlib.sha256("\n".join([text, *overrides]).encode()).hexdigest(),
                      data=data, overrides=list(overrides),
                      tables=(int(dice["sides"]), int(dice["n_dice"]),
                              TIE_BREAKS.index(tie_break)))


def pack_tables(tables):
    t = np.zeros(1, TABLES_DTYPE)
    t[0]["sides"], t[0]["n_dice"], t[0]["tie_break"] = tables
    return t


def new_state():
    return np.zeros(1, STATE_DTYPE)


def format_trace(prepared, game_index, events, rec, state) -> list:
    lines = [f"game {game_index}"]
    for ev in events:
        kind, a, b, c = (int(x) for x in ev[:4])
        who = f"seat {a} ({prepared.strategy_names[a]})"
        if kind == EV_DEAL:
            lines.append(f"{who} is dealt a secret die")
        elif kind == EV_PICK:
            lines.append(f"{who} picks a lucky number")
        elif kind == EV_REVEAL:
            lines.append(f"{who} picked {b}" + (" (lucky)" if c else ""))
        elif kind == EV_ROLL:
            lines.append(f"{who} rolls die {b + 1}: {c}")
        elif kind == EV_REROLL:
            lines.append(f"{who} rerolls die {b + 1}: {c}")
    lines += [f"seat {s} ({prepared.strategy_names[s]}): score {rec['score'][s]}, "
              f"rank {rec['rank'][s]}" for s in range(prepared.n_players)]
    return lines


# --- the spec ------------------------------------------------------------------------------
class ToySpec(CompiledGameSpec):
    # by name, not sys.modules[__name__]: run as `python -m`, this file is __main__ too
    contract = GameContract.single_module(sys.modules[__name__])
    name = "toy"
    aliases = ("dice",)
    title = "Toy Dice"
    min_players = 1
    max_players = 4
    description = "a stand-in dice game for tests"

    def variant_for(self, n_players):
        return "solo" if n_players == 1 else "standard"


SPEC = ToySpec()
