"""The game contract (sim/game_contract.py): a game missing a piece is refused when it is
registered, with one line naming the game, the piece, the module and the docs section, not
late when a run, a search player or a test first reaches the piece."""
from __future__ import annotations

import os
import sys

import pytest

from sim import registry
from sim.game_api import ToolkitError
from sim.game_contract import GameContract, load_model
from tests.toygame import ToySpec

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

MODEL_WITHOUT_EVALUATE = '''
from tests.toygame import *          # noqa: F401,F403 (every piece of the toy game ...)
del evaluate_nb                      # (... but one)
'''


@pytest.fixture
def empty_registry(monkeypatch):
    monkeypatch.setattr(registry, "GAMES", {})
    monkeypatch.setattr(registry, "_ALIASES", {})
    monkeypatch.setattr(registry, "_load_errors", {})
    monkeypatch.setattr(registry, "_loaded", True)


def game_missing(tmp_path, monkeypatch, source: str, name: str):
    """A toy game whose model is `source` (a module written in tmp_path)."""
    (tmp_path / f"{name}.py").write_text(source)
    monkeypatch.syspath_prepend(str(tmp_path))

    class Broken(ToySpec):
        contract = GameContract.single_module("tests.toygame", model=name)
    Broken.name = "broken"
    return Broken()


def test_a_game_missing_a_model_function_is_refused_at_registration(tmp_path, monkeypatch,
                                                                    empty_registry):
    (tmp_path / "nomodel.py").write_text(
        "def setup_nb(): pass\n" + "".join(
            f"{n} = None\n" for n in ("is_over_nb", "to_move_nb", "decision_nb", "legal_nb",
                                      "context_nb", "apply_nb", "returns_nb", "determinize_nb",
                                      "observe_nb", "check_state_nb", "record_nb",
                                      "MAX_OPTIONS", "OBS_LEN", "RECORD", "evaluate")))
    monkeypatch.syspath_prepend(str(tmp_path))

    class Broken(ToySpec):
        contract = GameContract.single_module("tests.toygame", model="nomodel")
        name = "broken"
    with pytest.raises(ToolkitError) as exc:
        registry.register(Broken())
    assert str(exc.value) == (
        "game 'broken': the forward model (nomodel) has no evaluate_nb (is 'evaluate' meant?) "
        "(docs/adding-a-game.md, \"The forward model\")")
    assert "nomodel" not in sys.modules          # read from its source, not imported
    assert "broken" not in registry.GAMES


def test_a_piece_the_source_cannot_tell_is_checked_when_the_game_is_first_played(
        tmp_path, monkeypatch, empty_registry):
    """A star import hides the names from the source: registration lets it through and the
    first use of the model says the same line."""
    spec = game_missing(tmp_path, monkeypatch, MODEL_WITHOUT_EVALUATE, "starmodel")
    registry.register(spec)
    with pytest.raises(ToolkitError, match=r"^game 'broken': the forward model \(starmodel\) "
                                           r"has no evaluate_nb \(docs/adding-a-game.md"):
        load_model(spec, spec.pieces())


def test_a_missing_module_and_a_misnamed_piece_are_one_line_each(empty_registry):
    class NoTrace(ToySpec):
        contract = GameContract.single_module("tests.toygame", trace="tests.no_such:fmt",
                                              tables="tests.toygame:pack_table")
        name = "notrace"
    with pytest.raises(ToolkitError) as exc:
        registry.register(NoTrace())
    assert exc.value.lines == [
        "game 'notrace': the tables builder (tests.toygame) has no pack_table (is 'pack_tables' "
        "meant?) (docs/adding-a-game.md, \"What a game writes\")",
        "game 'notrace': the trace formatter (trace) names module 'tests.no_such', which does "
        "not exist (docs/adding-a-game.md, \"What a game writes\")"]


def test_an_unknown_contract_field_names_the_closest_one():
    with pytest.raises(ToolkitError, match=r"^game contract: unknown piece 'tables_builder' "
                                           r"\(did you mean 'tables'\?\)"):
        GameContract(tables_builder="x:y")


def test_optional_model_pieces_get_their_defaults(tmp_path, monkeypatch, empty_registry):
    """A model with the required pieces only plays: the contract fills in default_keep_nb
    (a no-op), CTX_LEN, KEEP_LEN, MAX_PLAYERS, STATE_DTYPE and the flags."""
    from sim.game_contract import MODEL_DEFAULTS, PIECE_BY_FIELD
    from tests import toygame
    required = PIECE_BY_FIELD["model"].names
    spec = game_missing(tmp_path, monkeypatch,
                        f"from tests.toygame import {', '.join(required)}  # noqa: F401\n",
                        "requiredonly")
    registry.register(spec)
    model = load_model(spec, spec.pieces())
    assert model.default_keep_nb.py_func.__module__ == "sim.contract_defaults"
    assert (model.CTX_LEN, model.KEEP_LEN) == (1, 1)
    assert model.MAX_PLAYERS == spec.max_players
    assert model.STATE_DTYPE == toygame.STATE_DTYPE
    for name, value in MODEL_DEFAULTS.items():
        assert getattr(model, name) == value, name


def test_every_shipped_game_names_every_piece():
    for spec in registry.list_games():
        contract = spec.pieces()
        assert contract.model.endswith(".model") and contract.test_vary and contract.docs_page, \
            spec.name
        for test_file in contract.rule_tests:
            assert os.path.isfile(os.path.join(ROOT, test_file)), (spec.name, test_file)


def test_every_shipped_game_has_positions_through_its_contract():
    """`game(NAME).positions` finds the game's own module (Lowlands had none); a game whose
    contract names none says so in one line."""
    from sim.api import game
    from tests.toygame import SPEC as TOY
    from sim.api.games import Game
    for spec in registry.list_games():
        module = game(spec.name).positions
        assert module.__name__ == f"sim.games.{spec.name}.positions"
    assert callable(game("lowlands").positions.fresh)
    with pytest.raises(ToolkitError, match=r"^toy: the game offers no positions from text"):
        Game(TOY).positions


def test_the_players_are_handed_to_the_spec_through_the_contract(empty_registry):
    """The engine imports no strategies/: a game gets the platform's players from its
    contract (PLATFORM_PLAYERS), can do without search players (None) and is refused, in one
    line, when a player piece names a module that lacks what the spec calls."""
    from sim.game_contract import PLATFORM_PLAYERS
    contract = GameContract.single_module("tests.toygame")
    assert {f: getattr(contract, f) for f in PLATFORM_PLAYERS} == PLATFORM_PLAYERS

    class NoSearch(ToySpec):
        contract = GameContract.single_module("tests.toygame", search=None, search_catalog=None)
        name = "nosearch"
    spec = NoSearch()
    registry.register(spec)
    names = [e["name"] for e in spec.strategy_catalog()]
    assert "mcts" not in names and "flatmc" not in names and names
    assert spec.search_choose() is None
    assert {"mcts", "flatmc"} <= {e["name"] for e in ToySpec().strategy_catalog()}

    class WrongSearch(ToySpec):
        contract = GameContract.single_module("tests.toygame", search="strategies.registry")
        name = "wrongsearch"
    with pytest.raises(ToolkitError) as exc:
        registry.register(WrongSearch())
    assert exc.value.lines == [
        "game 'wrongsearch': the search players (strategies.registry) has no search_choose_for, "
        "estimated_seconds_per_game (docs/adding-a-game.md, \"Strategies\")"]
