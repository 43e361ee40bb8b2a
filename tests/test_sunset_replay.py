"""`balance replay` of a Sunset Over Water game shows its set-up and where each sale came from.

The harm prevented: a designer reading a replay cannot check a surprising game against the
table it started from (which landscapes were dealt where, which commissions were on offer,
which was revealed for day 2, the first daily goal, the solo inspiration card), nor see
from which slot of the commission row each commission was taken. The expected set-up is
read from the engine's own set-up (setup_nb with the game's seed), not from the trace.
"""
from __future__ import annotations

import re

import numpy as np
import pytest

from scripts.cli import main
from sim import runner
from sim.games.sunset import SPEC
from sim.games.sunset import enums as E
from sim.games.sunset.nb import new_state, setup_nb
from tests.sunset_helpers import trace_game
from sim.rng import game_seed_nb

SEED = 23


@pytest.fixture(scope="module")
def comp():
    return SPEC.load_components()


def run_folder(comp, tmp_path, names):
    prep = SPEC.prepare(comp, len(names), list(names), SEED)
    out = tmp_path / f"run{len(names)}"
    runner.run(SPEC, prep, 20, str(out), workers=1, progress=False)
    return out, prep


def replay_text(capsys, out, game):
    code = main(["replay", str(out), "--game", str(game)])
    text, err = capsys.readouterr()
    assert code == 0, err
    return text


def dealt(comp, n_players, game):
    st = new_state()
    setup_nb(comp.tables[0], st[0], n_players,
             np.uint64(game_seed_nb(np.uint64(SEED), game)), np.zeros((0, 6), np.int64), np.zeros(1, np.int64))
    return st[0]


def setup_part(text):
    start = text.index("-- set-up --")
    return text[start:text.index("-- day 1 --")]


def land_name(comp, card):
    return "Ranger Station" if card == E.RANGER else comp.card_names["landscape"][card]


@pytest.mark.parametrize("names", [("planner", "greedy", "greedy", "random"), ("planner",)])
def test_replay_shows_the_set_up(comp, tmp_path, capsys, names):
    n_players = len(names)
    out, _ = run_folder(comp, tmp_path, names)
    for game in (0, 7):
        text = replay_text(capsys, out, game)
        part = setup_part(text)
        s = dealt(comp, n_players, game)
        cnames = comp.card_names
        # the wilderness, row by row, each card in its cell
        rows = re.findall(r"^    (r\d.*)$", part, re.M)
        assert len(rows) == 5
        for r, line in enumerate(rows):
            cells = line.split(" | ")
            assert len(cells) == 5
            for c, shown in enumerate(cells):
                card = int(s["grid"][r * 5 + c])
                assert shown.startswith(f"r{r + 1}c{c + 1} {land_name(comp, card)}"), (shown, card)
        assert "every artist starts on the centre card r3c3" in part
        # the commission row, slot by slot, and the card revealed for day 2
        row_len = int(s["row_len"])
        slots = re.findall(r"^  commission row slot (\d): (.*) \(", part, re.M)
        assert slots == [(str(k + 1), cnames["commission"][int(s["crow"][k])]) for k in range(row_len)]
        top = cnames["commission"][int(s["comm_top"])]
        assert f"revealed on the commission deck (available from day 2): {top} (" in part
        if n_players > 1:
            assert f"first daily goal: {cnames['goal'][int(s['goal'])]}\n" in part
            assert "inspiration" not in part
        else:
            insp = cnames["inspiration"][int(s["inspiration"])]
            assert f"inspiration card: {insp} (+1 per commission showing" in part
            assert "daily goal" not in part


@pytest.mark.parametrize("names", [("planner", "greedy", "greedy", "random"), ("greedy",)])
def test_replay_names_the_row_slot_of_each_sale(comp, tmp_path, capsys, names):
    n_players = len(names)
    out, prep = run_folder(comp, tmp_path, names)
    trec = comp.tables
    seen = 0
    for game in range(5):
        text = replay_text(capsys, out, game)
        trace, n, _ = trace_game(trec, new_state(), n_players, SEED, game, prep.strategy_ids,
                                 prep.strategy_params)
        sales = [tuple(int(x) for x in ev) for ev in trace[:n] if ev[0] == E.EV_SELL]
        shown = re.findall(r"-> takes commission (.*?) \(.* from (row slot (\d)|the top of the commission deck)$",
                           text, re.M)
        assert len(shown) == len(sales)
        for (_, seat, comm, slot, _, _), (name, _, slot_shown) in zip(sales, shown):
            assert name == comp.card_names["commission"][comm]
            if slot == E.MAX_ROW:
                assert slot_shown == ""
            else:
                assert int(slot_shown) == slot + 1
        seen += len(sales)
    assert seen > 5
