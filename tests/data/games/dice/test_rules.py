"""Dice: one scenario test per rule (docs.md). Run: python -m pytest dice/test_rules.py
(with the folder that holds the package on the game path: BALANCE_GAME_PATH)."""
from __future__ import annotations

import numpy as np
import pytest

from sim.registry import get_game

NO_TRACE, TN = np.zeros((0, 6), np.int64), np.zeros(1, np.int64)


@pytest.fixture(scope="module")
def game():
    spec = get_game("dice")
    return spec, spec.model(), spec.pack_tables(spec.load_components())[0]


def start(game, n_players=2, seed=1):
    spec, m, tables = game
    state = spec.new_state()
    m.setup_nb(tables, state[0], n_players, np.uint64(seed), NO_TRACE, TN)
    return state[0]


def test_each_seat_is_dealt_hand_size_cards(game):
    s = start(game, 3)
    tables = game[2]
    assert list(s["hand"][:3].sum(axis=1)) == [tables["hand_size"]] * 3
    assert s["deck"].sum() == tables["count"].sum() - 3 * tables["hand_size"]


def test_the_single_highest_card_takes_every_card_played(game):
    _, m, tables = game
    s = start(game)
    s["hand"][:, :] = 0
    s["hand"][0, 0], s["hand"][1, 3] = 1, 1          # seat 0: a 1-point card, seat 1: a 5-point one
    m.apply_nb(tables, s, 0, np.zeros(1), NO_TRACE, TN)
    assert s["score"].sum() == 0                  # nothing scores before every seat has played
    m.apply_nb(tables, s, 3, np.zeros(1), NO_TRACE, TN)
    assert list(s["score"][:2]) == [0, tables["points"][0] + tables["points"][3]]


def test_a_tie_for_the_highest_card_scores_nothing(game):
    _, m, tables = game
    s = start(game)
    s["hand"][:, :] = 0
    s["hand"][0, 2], s["hand"][1, 2] = 1, 1
    for card in (2, 2):
        m.apply_nb(tables, s, card, np.zeros(1), NO_TRACE, TN)
    assert s["score"].sum() == 0 and s["played"][2] == 2


def test_nobody_draws_when_the_pile_cannot_serve_every_seat(game):
    _, m, tables = game
    s = start(game)
    s["deck"][:] = 0
    s["deck"][0] = 1                              # one card left for two seats
    for _ in range(2):
        options = np.zeros(m.MAX_OPTIONS, np.int64)
        m.legal_nb(tables, s, options)
        m.apply_nb(tables, s, options[0], np.zeros(1), NO_TRACE, TN)
    assert s["deck"][0] == 1 and list(s["hand"][:2].sum(axis=1)) == [tables["hand_size"] - 1] * 2


def test_the_game_ends_after_the_rounds(game):
    _, m, tables = game
    s = start(game)
    while not m.is_over_nb(s):
        options = np.zeros(m.MAX_OPTIONS, np.int64)
        m.legal_nb(tables, s, options)
        m.apply_nb(tables, s, options[0], np.zeros(1), NO_TRACE, TN)
    assert s["round"] == tables["rounds"] and m.check_state_nb(tables, s) == 0
    out = np.zeros(2)
    m.returns_nb(tables, s, 2, out)
    assert out.sum() == pytest.approx(1.0)
