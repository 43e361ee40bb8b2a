"""Every command's defaults work for every registered game (tiny game counts).

The harm prevented: `balance run surfers` failed, because `--strategies` defaulted to
`greedy`, a strategy Grand Surfers does not have. Each game now declares its own default
strategy (GameSpec.default_strategy); `compare` defaults to every built-in strategy.
"""
from __future__ import annotations

import json
import os

import pytest

from scripts.cli import main as cli_main
from sim.registry import list_games

GAMES = [g.name for g in list_games()]
# one field per game for sweep and tune (they have no default --vary): the game's own,
# `test_vary` in its contract (docs/adding-a-game.md, "The game contract")
VARY = {g.name: g.pieces().test_vary for g in list_games()}


def call(capsys, *argv):
    code = cli_main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_every_game_declares_a_default_strategy_it_has():
    assert set(GAMES) >= {"sunset", "sagrada", "surfers"}
    for spec in list_games():
        names = [c["name"] for c in spec.strategy_catalog()]
        assert spec.default_strategy, f"{spec.name} declares no default strategy"
        assert spec.default_strategy in names, (spec.name, spec.default_strategy, names)
        assert spec.default_strategy_name() == spec.default_strategy


@pytest.mark.parametrize("game", GAMES)
def test_strategies_command_names_the_default(game, capsys):
    spec = next(g for g in list_games() if g.name == game)
    code, out, err = call(capsys, "strategies", game)
    assert code == 0, err
    assert out.splitlines()[-1] == ("default (every seat, when a command is given no "
                                    f"--strategies): {spec.default_strategy}")


@pytest.mark.parametrize("game", GAMES)
def test_run_with_defaults_then_summary_report_replay(game, in_tmp, capsys):
    spec = next(g for g in list_games() if g.name == game)
    code, out, err = call(capsys, "run", game, "--games", "6", "--workers", "1", "--no-progress",
                          "--out", "r")
    assert code == 0, err
    m = json.load(open("r/manifest.json"))
    players = min(max(4, spec.min_players), spec.max_players)
    assert m["status"] == "complete" and m["players"] == players
    assert m["strategy_names"] == [spec.default_strategy] * players
    code, out, err = call(capsys, "summary", "r")
    assert code == 0 and "By seat" in out, err
    code, out, err = call(capsys, "report", "r", "--no-progress")
    assert code == 0 and os.path.isfile("r/report/report.html"), err
    code, out, err = call(capsys, "replay", "r", "--game", "5")
    assert code == 0 and len(out.splitlines()) > 3, err
    # the same defaults with the seats rotated: one strategy everywhere is a single seating
    code, out, err = call(capsys, "run", game, "--games", "6", "--workers", "1", "--no-progress",
                          "--out", "rot", "--rotate-seats")
    assert code == 0 and "seats rotated: 1 seating" in out, err


@pytest.mark.parametrize("game", GAMES)
def test_compare_sweep_tune_with_defaults(game, in_tmp, capsys):
    spec = next(g for g in list_games() if g.name == game)
    # compare without --strategies plays every built-in; the search players (mcts, flatmc)
    # cost thousands of playouts per decision and are compared only when named
    builtins = [c["name"] for c in spec.strategy_catalog() if not c.get("search")]
    assert builtins and len(builtins) < len(spec.strategy_catalog())
    assert VARY[game], f"{game}: its contract names no test_vary (a field to sweep)"
    code, out, err = call(capsys, "compare", game, "-n", "1", "--workers", "1", "--no-progress",
                          "--out", "c")
    assert code == 0, err
    plan = json.load(open("c/designer.json"))
    assert plan["strategies"] == builtins
    assert os.path.isfile("c/report/report.html")
    code, out, err = call(capsys, "sweep", game, "--vary", VARY[game], "-n", "4", "--workers", "1",
                          "--no-progress", "--out", "s")
    assert code == 0, err
    assert json.load(open("s/designer.json"))["strategies"] == [spec.default_strategy]
    code, out, err = call(capsys, "tune", game, "--vary", VARY[game], "-n", "4", "--workers", "1",
                          "--no-progress", "--out", "t")
    assert code == 0, err
    plan = json.load(open("t/designer.json"))
    assert plan["strategies"] == [spec.default_strategy]
    # the current value was played, and a file is written only with evidence of a gain
    assert plan["result"]["trials"][0]["baseline"]
    assert os.path.isfile("t/report/report.html")
    assert plan["result"]["suggested"] == os.path.isfile("t/suggested_components.toml")
    if not plan["result"]["suggested"]:
        assert "No value in the range does better than the current one" in out
