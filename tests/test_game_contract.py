"""The game contract (sim/game_contract.py): a game missing a piece is refused when it is
registered, with one line naming the game, the piece, the module and the docs section, not
late when a run, a search player or a test first reaches the piece."""
from __future__ import annotations

import ast
import inspect
import os
import sys

import pytest

from sim import registry
from sim.game_api import ToolkitError
from sim.game_contract import GameContract, imported_piece, load_model
from tests import toygame
from tests.toygame import ToySpec

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ToyContract = type(toygame.SPEC.contract)      # the one-module contract of the toy game

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


def test_a_game_missing_a_model_function_is_refused_at_registration(tmp_path, monkeypatch,
                                                                    empty_registry):
    (tmp_path / "nomodel.py").write_text(
        "def setup_nb(): pass\n" + "".join(
            f"{n} = None\n" for n in ("is_over_nb", "to_move_nb", "decision_nb", "legal_nb",
                                      "context_nb", "apply_nb", "returns_nb", "determinize_nb",
                                      "observe_nb", "check_state_nb", "record_nb",
                                      "MAX_OPTIONS", "OBS_LEN", "RECORD", "evaluate")))
    monkeypatch.syspath_prepend(str(tmp_path))

    class NoModelContract(ToyContract):
        def model(self):
            import nomodel
            return nomodel

    class Broken(ToySpec):
        contract = NoModelContract(toygame)
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
    (tmp_path / "starmodel.py").write_text(MODEL_WITHOUT_EVALUATE)
    monkeypatch.syspath_prepend(str(tmp_path))

    class StarContract(ToyContract):
        def model(self):
            import starmodel
            return starmodel

    class Broken(ToySpec):
        contract = StarContract(toygame)
        name = "broken"
    spec = Broken()
    registry.register(spec)
    assert "starmodel" not in sys.modules
    with pytest.raises(ToolkitError, match=r"^game 'broken': the forward model \(starmodel\) "
                                           r"has no evaluate_nb \(docs/adding-a-game.md"):
        load_model(spec, spec.pieces())


def test_a_missing_module_and_a_misnamed_piece_are_one_line_each(empty_registry):
    class Misnamed(ToyContract):
        def tables(self):
            from tests.toygame import pack_table
            return pack_table

        def trace(self):
            from tests.no_such import fmt
            return fmt

    class NoTrace(ToySpec):
        contract = Misnamed(toygame)
        name = "notrace"
    with pytest.raises(ToolkitError) as exc:
        registry.register(NoTrace())
    assert exc.value.lines == [
        "game 'notrace': the tables builder (tests.toygame) has no pack_table (is 'pack_tables' "
        "meant?) (docs/adding-a-game.md, \"What a game writes\")",
        "game 'notrace': the trace formatter (trace) names module 'tests.no_such', which does "
        "not exist (docs/adding-a-game.md, \"What a game writes\")"]


def test_a_required_piece_not_given_is_one_line(empty_registry):
    class NoTables(GameContract):
        def model(self):
            from tests import toygame
            return toygame
        strategies = catalog = "tests.toygame"

    class Bare(ToySpec):
        contract = NoTables()
        name = "bare"
    with pytest.raises(ToolkitError) as exc:
        registry.register(Bare())
    assert exc.value.lines == [
        f"game 'bare': the contract gives no {what} ({field}) (docs/adding-a-game.md, "
        f"\"{section}\")"
        for what, field, section in (
            ("component file module", "components", "What a game writes"),
            ("tables builder", "tables", "What a game writes"),
            ("state allocator", "new_state", "What a game writes"),
            ("trace formatter", "trace", "What a game writes"))]


def test_a_misspelled_piece_names_the_closest_one():
    with pytest.raises(ToolkitError, match=r"^game contract: unknown piece 'tables_builder' "
                                           r"\(did you mean 'tables'\?\)"):
        class Misspelled(GameContract):
            def tables_builder(self):
                from tests.toygame import pack_tables
                return pack_tables


def test_a_piece_method_must_return_what_it_imports():
    class Indirect(ToyContract):
        def tables(self):
            from tests import toygame
            return toygame.pack_tables
    with pytest.raises(ToolkitError, match=r"Indirect.tables must import its piece and return "
                                           r"it"):
        imported_piece(Indirect(toygame).tables)


def test_optional_model_pieces_get_their_defaults(tmp_path, monkeypatch, empty_registry):
    """A model with the required pieces only plays: the contract fills in default_keep_nb
    (a no-op), CTX_LEN, KEEP_LEN, MAX_PLAYERS, STATE_DTYPE and the flags."""
    from sim.game_contract import MODEL_DEFAULTS, PIECE_BY_FIELD
    required = PIECE_BY_FIELD["model"].names
    (tmp_path / "requiredonly.py").write_text(
        f"from tests.toygame import {', '.join(required)}  # noqa: F401\n")
    monkeypatch.syspath_prepend(str(tmp_path))

    class RequiredOnly(ToyContract):
        def model(self):
            import requiredonly
            return requiredonly

    class Plain(ToySpec):
        contract = RequiredOnly(toygame)
        name = "plain"
    spec = Plain()
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
        assert imported_piece(type(contract).model) == (f"sim.games.{spec.name}", "model")
        assert contract.test_vary and contract.docs_page, spec.name
        for test_file in contract.rule_tests:
            assert os.path.isfile(os.path.join(ROOT, test_file)), (spec.name, test_file)


def test_the_tables_builder_is_reached_by_plain_calls_and_imports():
    """From the command line to a game's tables builder every step is a call or an import a
    reader follows by name (docs/adding-a-game.md, "From the command line to the tables"):
    spec.pack_tables -> contract.tables() -> `from sim.games.<game>.enums import
    pack_tables`. The engine looks a module up by a name held in a string in two places
    only: a player piece (the engine may not import strategies/) and a package on the game
    path (a user's folder)."""
    from sim.compiled_game import CompiledGameSpec
    assert "self.pieces().tables()" in inspect.getsource(CompiledGameSpec.pack_tables)
    for spec in registry.list_games():
        tree = ast.parse(inspect.cleandoc("\n" + inspect.getsource(type(spec.contract).tables)))
        imports = [(n.module, [a.name for a in n.names]) for n in ast.walk(tree)
                   if isinstance(n, ast.ImportFrom)]
        assert imports == [(f"sim.games.{spec.name}.enums", ["pack_tables"])], spec.name
        assert spec.contract.tables() is sys.modules[f"sim.games.{spec.name}.enums"].pack_tables
    lookups = set()
    for path in ("sim/compiled_game.py", "sim/game_contract.py", "sim/registry.py",
                 "sim/runner.py", "sim/api/games.py", "sim/snapshots.py", "sim/warm.py"):
        tree = ast.parse(open(os.path.join(ROOT, path), encoding="utf-8").read())
        for fn in ast.walk(tree):
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for call in ast.walk(fn):
                    if (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                            and call.func.attr == "import_module"):
                        lookups.add((path, fn.name))
    assert lookups == {("sim/game_contract.py", "players"),
                       ("sim/registry.py", "_register_outside")}


def test_every_shipped_game_has_positions_through_its_contract():
    """`game(NAME).positions` finds the game's own module (Lowlands had none); a game whose
    contract names none says so in one line."""
    from sim.api import game
    from sim.api.games import Game
    for spec in registry.list_games():
        module = game(spec.name).positions
        assert module.__name__ == f"sim.games.{spec.name}.positions"
    assert callable(game("lowlands").positions.fresh)
    with pytest.raises(ToolkitError, match=r"^toy: the game offers no positions from text"):
        Game(toygame.SPEC).positions


def test_the_players_are_handed_to_the_spec_through_the_contract(empty_registry):
    """The engine imports no strategies/: a game gets the platform's players from its
    contract (module names, defaults on GameContract), can do without search players (None)
    and is refused, in one line, when a player piece names a module that lacks what the spec
    calls."""
    contract = GameContract.single_module(toygame)
    assert (contract.strategy_names, contract.search_catalog, contract.search) == (
        "strategies.registry", "strategies.search_catalog", "strategies.search")

    class NoSearch(ToySpec):
        contract = GameContract.single_module(toygame, search=None, search_catalog=None)
        name = "nosearch"
    spec = NoSearch()
    registry.register(spec)
    names = [e["name"] for e in spec.strategy_catalog()]
    assert "mcts" not in names and "flatmc" not in names and names
    assert spec.search_choose() is None
    assert {"mcts", "flatmc"} <= {e["name"] for e in ToySpec().strategy_catalog()}

    class WrongSearch(ToySpec):
        contract = GameContract.single_module(toygame, search="strategies.registry")
        name = "wrongsearch"
    with pytest.raises(ToolkitError) as exc:
        registry.register(WrongSearch())
    assert exc.value.lines == [
        "game 'wrongsearch': the search players (strategies.registry) has no search_choose_for, "
        "estimated_seconds_per_game (docs/adding-a-game.md, \"Strategies\")"]
