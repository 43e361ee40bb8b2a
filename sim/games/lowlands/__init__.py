"""Lowlands (Das tiefe Land, Feuerland Spiele 2018): 2-4 players, on the game template.

Where each rule lives: docs/games/lowlands.md; the reconstructed components:
docs/games/lowlands-components.md.
"""
from __future__ import annotations

from sim.compiled_game import CompiledGameSpec
from sim.game_api import Components, Measured, SearchDefault
from sim.game_contract import GameContract


class LowlandsContract(GameContract):
    """Where each piece of the game lives (sim/game_contract.py; checked at registration).
    Each engine piece is imported when the game is first played: a listing imports no numpy."""

    def model(self):
        from sim.games.lowlands import model
        return model

    def components(self):
        from sim.games.lowlands import components
        return components

    def tables(self):
        from sim.games.lowlands.enums import pack_tables
        return pack_tables

    def new_state(self):
        from sim.games.lowlands.enums import new_state
        return new_state

    def trace(self):
        from sim.games.lowlands.trace import format_trace
        return format_trace

    def positions(self):
        from sim.games.lowlands import positions
        return positions

    def snapshot(self):
        from sim.games.lowlands import snapshot
        return snapshot

    # the players, by module name (the engine does not import strategies/)
    strategies = "strategies.lowlands"
    catalog = "strategies.lowlands_catalog"
    # data
    test_vary = "dike.site_length=3..4"
    rule_tests = ("tests/test_lowlands_rules.py",)
    docs_page = "docs/games/lowlands.md"


class LowlandsSpec(CompiledGameSpec):
    contract = LowlandsContract()
    name = "lowlands"
    aliases = ("das-tiefe-land", "tiefe-land")
    title = "Lowlands"
    min_players = 2
    max_players = 4
    default_strategy = "greedy"
    # mcts and flatmc as shipped: a search among the planner's 3 first choices on common worlds
    # (docs/search-players.md, "Lowlands"), both measured against the value-model planner
    # (mcts is the ladder's mcts-48 level: docs/games/lowlands.md, "Ladder")
    search_defaults = {
        "mcts": SearchDefault(
            params={"iterations": 48, "rollout": "planner", "ranked": 1, "candidates": 3,
                    "tree": 1, "worlds": 16, "c": 2.0},
            measured=(
                Measured(players=2, against="planner", games=300, wins=289, seconds_per_game=5.3,
                         date="2026-12-01",
                         where="shared 2-core machine, load average 13-17; the time: CPU "
                               "seconds a game over 6 games on 2026-12-02 at load 8",
                         command="balance ladder lowlands --players 2 -n 300 --verdict-games 0 "
                         "--seed 1 --workers 2 (its mcts-48 level is mcts as shipped)"),
                Measured(players=4, against="planner", games=100, wins=87, seconds_per_game=20.0,
                         date="2026-12-01",
                         where="shared 2-core machine, load average 13-17; the time: CPU "
                               "seconds a game over 4 games on 2026-12-02 at load 8",
                         command="balance ladder lowlands --players 4 -n 100 --verdict-games 0 "
                         "--seed 1 --workers 2 (its mcts-48 level is mcts as shipped)")),
            note="With tree = 1 it searches the root only (the planner plays every later "
                 "decision of the playouts)."),
        "flatmc": SearchDefault(
            params={"rollouts": 16, "rollout": "planner", "candidates": 3},
            measured=(
                Measured(players=2, against="planner", games=300, wins=291, seconds_per_game=4.7,
                         date="2026-12-02",
                         where="shared 2-core machine, load average 5-9; the time: CPU seconds "
                               "a game (1,417 s for the 300 games on 2 workers)",
                         command="balance run lowlands --players 2 --strategies flatmc,planner "
                         "--rotate-seats --games 300 --seed 1 --workers 2"),
                Measured(players=4, against="planner", games=100, wins=86, seconds_per_game=13.7,
                         date="2026-12-02",
                         where="shared 2-core machine, idle (load average 2); the time: CPU "
                               "seconds a game (1,367 s for the 100 games on 2 workers)",
                         command="balance run lowlands --players 4 --strategies "
                         "flatmc,planner,planner,planner --rotate-seats --games 100 --seed 7 "
                         "--workers 2"))),
    }
    description = ("Raise sheep in fenced pastures or build the shared dike against the rising "
                   "sea (component values partly reconstructed: docs/games/lowlands-components.md)")

    def variant_for(self, n_players: int) -> str:
        return "standard"

    def assignable(self) -> dict:
        """No choice to assign: the farm boards are dealt at random and the start player is
        the top of the randomly stacked dike markers (rulebook), so both are random already;
        every other decision is a move of play, not a component."""
        return {}

    def report_metadata(self, components: Components | None = None) -> dict:
        """What the balance report needs: the 46 farm expansion tiles as a card type (value:
        shield points), the score components, and the designer's questions as breakdowns."""
        comp = components or self.load_components()
        t = comp.tables[0]
        names = comp.card_names["tile"]
        return {
            "cards": [
                {"type": "tile", "label": "Farm expansion tiles built", "names": list(names),
                 "values": [int(t.tile_shields[i]) for i in range(len(names))],
                 "mask_column": "tiles_mask", "unit": "shield points",
                 "value_path": "tiles[{i}].shields"},
            ],
            "score_components": ["pts_dike", "pts_sheep", "pts_shields", "pts_coins",
                                 "pts_cards", "pts_bonus"],
            "length_column": "length", "length_unit": "decisions",
            # one way to end, so the logs hold no end_reason column (every game is code 0)
            "end_reason_names": ["the storm surge after the last stage"],
            # the start player is drawn at random and passed on: start position is the
            # fairness question (analysis/metadata.py, "start")
            "start": {"column": "start_order", "how": "random", "leads": True,
                      "note": "the start player is the top dike marker, stacked at random, and "
                              "the others get +1 coin; the seat numbers only check that no "
                              "seat number matters",
                      "question": "Is the start player's edge worth the +1 coin the others get? "
                                  "Seats by their place in the first stage's order (1 = the "
                                  "start player)."},
            "breakdowns": [
                # seats grouped after the game by what they scored: an association
                {"column": "route", "label": "Route",
                 "value_names": {0: "dike", 1: "sheep", 2: "neither"},
                 "headline": True, "grouping": "after",
                 "question": "Does paying into the dike pay, or raising sheep? Win share and score "
                             "by the route that brought more points at the end (dike: dike "
                             "points above sheep points, sheep: sheep above dike, neither: "
                             "level)."},
                # the same value for every seat of a game: a distribution, no fair share
                {"column": "floods_broke", "label": "High tides that broke the dike",
                 "unit": "count", "headline": True, "grouping": "game",
                 "question": "How much does the flood deck decide? Outcomes by how many of the "
                             "3 high tides broke the dike."},
                {"column": "final_breach", "label": "Dike broken at the storm surge",
                 "value_names": {0: "no", 1: "yes"}, "grouping": "game",
                 "question": "Who wins when the dike breaks at the end?"},
                {"column": "support_given", "label": "Support requests answered", "unit": "count",
                 "grouping": "after",
                 "question": "How often are dike-support requests answered, and does answering "
                             "pay? Seats by requests answered."},
            ],
            "per_strategy": [
                {"column": "support_asked", "label": "Support requests received"},
                {"column": "support_given", "label": "Support requests answered"},
                {"column": "dike_points", "label": "Dike points"},
                {"column": "sheep", "label": "Sheep at the end"},
                {"column": "dike_resources", "label": "Resources put into the dike"},
                {"column": "n_tiles", "label": "Tiles built"},
                {"column": "sheep_escaped", "label": "Sheep escaped"},
            ],
        }


SPEC = LowlandsSpec()
