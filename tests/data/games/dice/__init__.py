"""Dice: a 2-4 player card game written by `balance new-game` (docs/adding-a-game.md).

Where each rule lives: docs.md next to this file. Play it with the game path set to the
folder that holds this package: `balance --game-path tests/data/games run dice` (or
BALANCE_GAME_PATH=tests/data/games).
"""
from __future__ import annotations

from sim.compiled_game import CompiledGameSpec
from sim.game_api import Components
from sim.game_contract import GameContract

class DiceContract(GameContract):
    """Where each piece of the game lives (sim/game_contract.py; checked at registration).
    Each engine piece is imported when the game is first played: a listing imports no numpy."""

    def model(self):                    # the forward model and RECORD
        from . import model
        return model

    def components(self):               # load_components, default_components_text
        from . import components
        return components

    def tables(self):                   # component tables -> the kernels' record
        from .model import pack_tables
        return pack_tables

    def new_state(self):
        from .model import new_state
        return new_state

    def trace(self):
        from .trace import format_trace
        return format_trace

    # the players, by module name (the engine does not import them)
    strategies = f"{__name__}.players"                  # choose_builtin_nb
    catalog = f"{__name__}.catalog"                     # CATALOG, N_PARAMS (plain Python)
    # data
    test_vary = "game.rounds=4..5"      # a field the tests of sweep and tune vary
    rule_tests = ("test_rules.py",)
    docs_page = "docs.md"


class DiceSpec(CompiledGameSpec):
    contract = DiceContract()
    name = "dice"
    title = "Dice"
    min_players = 2
    max_players = 4
    default_strategy = "greedy"
    description = "play a card face down each round; the single highest card takes them all"

    def assignable(self) -> dict:
        """No choice to assign: the hands are dealt at random and every card played is a
        move of play."""
        return {}

    def report_metadata(self, components: Components | None = None) -> dict:
        """What the balance report needs: the cards as a card type (value: points)."""
        comp = components or self.load_components()
        return {
            "cards": [
                {"type": "card", "label": "Cards played", "names": list(comp.card_names["card"]),
                 "values": list(comp.tables["points"]), "mask_column": "cards_mask",
                 "unit": "points", "value_path": "cards[{i}].points"},
            ],
            "score_components": [],
            "length_column": "length", "length_unit": "rounds",
            # every seat plays face down and the reveal is simultaneous: no start player
            "start": {"column": None, "how": "simultaneous", "leads": False,
                      "note": "the cards are played face down and revealed together, so no "
                              "seat plays first in effect"},
        }


SPEC = DiceSpec()
