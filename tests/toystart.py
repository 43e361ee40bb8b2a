"""Toy Dice with a start player: the tests' toy game (tests/toygame.py) plus a start player
drawn at random from the chance stream, who pays a handicap set by a rule option
(`[rules] start_handicap`, points taken off the start player's score; default 0).

A planted start-position effect for the tests of issue 19: the start player is drawn at
random, so the seat numbers stay fair whatever the handicap, and only a tool that tests the
start position (declared in `report_metadata()["start"]`, log column `start_position`: the
seat's place in the order from the start player, 0 = the start player) sees it. Everything
else (the decisions, the strategies, the information sets) is the toy game's, imported.
"""
from __future__ import annotations

import hashlib
import sys

import numpy as np
from numba import njit

from sim.game_api import ComponentError, Components
from sim.game_contract import GameContract
from sim.records import declare
from sim.rng import randint_nb
from tests import toygame
from tests.toygame import (CANONICAL_DETERMINIZE, CATALOG, CTX_LEN, DEC_PICK,  # noqa: F401
                           DEC_REROLL, KEEP_LEN, MAX_OPTIONS, MAX_PLAYERS, N_PARAMS, OBS_LEN,
                           apply_nb, check_state_nb, choose_builtin_nb, context_nb,
                           decision_nb, default_keep_nb, determinize_nb, is_over_nb, legal_nb,
                           format_trace, observe_nb, solo_target_nb, to_move_nb)

DEFAULT_TEXT = toygame.DEFAULT_TEXT + """
[rules]
start_handicap = 0   # points taken off the start player's score
"""

STATE_DTYPE = np.dtype(toygame.STATE_DTYPE.descr + [("start", np.int64)])
TABLES_DTYPE = np.dtype(toygame.TABLES_DTYPE.descr + [("handicap", np.int64)])

RECORD = declare(*[(name, toygame.RECORD.dtype[name].str.lstrip("<>|="), desc)
                   for name, desc in toygame.RECORD.columns],
                 ("start_position", "i8", "the seat's place from the start player (0 = start)"))


@njit(cache=True, error_model="numpy")
def setup_nb(tables, s, n_players, game_seed, trace, tn):
    toygame.setup_nb(tables, s, n_players, game_seed, trace, tn)
    s.start = randint_nb(s.streams, 0, n_players)


@njit(cache=True, error_model="numpy")
def score_nb(tables, s, p):
    total = toygame.score_nb(tables, s, p)
    if s.n_players > 1 and p == s.start:
        total -= tables.handicap
    return total


@njit(cache=True, error_model="numpy")
def returns_nb(tables, s, n_players, out):
    out[:] = 0.0
    if n_players == 1:
        out[0] = 1.0 if score_nb(tables, s, 0) >= solo_target_nb(tables) else 0.0
        return
    best = -1000000
    n_best = 0
    for p in range(n_players):
        v = score_nb(tables, s, p)
        if v > best:
            best = v
            n_best = 1
        elif v == best:
            n_best += 1
    for p in range(n_players):
        if score_nb(tables, s, p) == best:
            out[p] = 1.0 / n_best


@njit(cache=True, error_model="numpy")
def evaluate_nb(tables, s, seat):
    mine = score_nb(tables, s, seat)
    other = solo_target_nb(tables) if s.n_players == 1 else -1000000
    for p in range(s.n_players):
        if p != seat:
            other = max(other, score_nb(tables, s, p))
    return 1.0 / (1.0 + np.exp(-(mine - other) / float(tables.sides)))


@njit(cache=True, error_model="numpy")
def record_nb(tables, s, n_players, game_index, rec, row0):
    win = np.zeros(MAX_PLAYERS, np.float64)
    returns_nb(tables, s, n_players, win)
    tie = 0
    if n_players > 1:
        for p in range(n_players):
            if 0.0 < win[p] < 1.0:
                tie = 1
    for p in range(n_players):
        r = row0 + p
        mine = score_nb(tables, s, p)
        rank = 1
        for q in range(n_players):
            if score_nb(tables, s, q) > mine:
                rank += 1
        rec[r].game = game_index
        rec[r].seat = p
        rec[r].score = mine
        rec[r].rank = rank
        rec[r].win = win[p]
        rec[r].end_reason = tie
        rec[r].rerolls = s.rerolls[p]
        rec[r].secret = s.secret[p]
        rec[r].lucky = 1 if s.bonus[p] > 0 else 0
        total = 0
        for d in range(tables.n_dice):
            total += s.dice[p, d]
        rec[r].mean_die = total / float(tables.n_dice)
        rec[r].start_position = (p - s.start + n_players) % n_players


def default_components_text() -> str:
    return DEFAULT_TEXT


def load_components(path=None, overrides=()) -> Components:
    from sim.overrides import apply_overrides, tomllib
    if path is not None:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    else:
        text = DEFAULT_TEXT
    shown = path or "<default>"
    data = apply_overrides(tomllib.loads(text), list(overrides), shown)
    h = data.get("rules", {}).get("start_handicap", 0)
    if not isinstance(h, int) or isinstance(h, bool) or not 0 <= h <= 100:
        raise ComponentError(f"{shown}: [rules] start_handicap: must be an integer 0-100, "
                             f"got {h!r}")
    dice = data.get("dice", {})
    return Components(game="toystart", path=shown, text=text,
                      sha256=hashlib.sha256("\n".join([text, *overrides]).encode()).hexdigest(),
                      data=data, overrides=list(overrides),
                      tables=(int(dice["sides"]), int(dice["n_dice"]), int(h)))


def pack_tables(tables):
    t = np.zeros(1, TABLES_DTYPE)
    t[0]["sides"], t[0]["n_dice"], t[0]["handicap"] = tables
    return t


def new_state():
    return np.zeros(1, STATE_DTYPE)


class ToyStartSpec(toygame.ToySpec):
    contract = GameContract.single_module(sys.modules[__name__])
    name = "toystart"
    aliases = ()
    title = "Toy Dice with a start player"
    description = "the toy dice game with a random start player who pays a handicap"

    def report_metadata(self, components=None) -> dict:
        return {"start": {"column": "start_position", "how": "random", "leads": True,
                          "note": "the start player is drawn at random and pays "
                                  "rules.start_handicap points"},
                "breakdowns": [{"column": "lucky", "label": "Lucky pick", "unit": "0/1",
                                "headline": True, "grouping": "after"}]}


SPEC = ToyStartSpec()
