"""Sunset Over Water (Pencil First Games, 2018): 2-4 players, and the Wanderlust solo variant.

The template game: its forward model (model.py) is played by the platform's loop
(sim/harness.py), which CompiledGameSpec builds from it; the game has no play loop of its own.
Where each rule lives: docs/games/sunset-over-water.md.
"""
from __future__ import annotations

from sim.compiled_game import CompiledGameSpec
from sim.game_api import Components, Measured, SearchDefault
from sim.game_contract import GameContract


class SunsetContract(GameContract):
    """Where each piece of the game lives (sim/game_contract.py; checked at registration).
    Each engine piece is imported when the game is first played: a listing imports no numpy."""

    def model(self):
        from sim.games.sunset import model
        return model

    def components(self):
        from sim.games.sunset import components
        return components

    def tables(self):
        from sim.games.sunset.enums import pack_tables
        return pack_tables

    def new_state(self):
        from sim.games.sunset.nb import new_state
        return new_state

    def trace(self):
        from sim.games.sunset.trace import format_trace
        return format_trace

    def positions(self):
        from sim.games.sunset import positions
        return positions

    def snapshot(self):
        from sim.games.sunset import snapshot
        return snapshot

    # the players, by module name (the engine does not import strategies/)
    strategies = "strategies.sunset"
    catalog = "strategies.sunset_catalog"
    # data
    test_vary = "rules.return_home_bonus=1..2"
    rule_tests = ("tests/test_sunset_rules.py",)
    docs_page = "docs/games/sunset-over-water.md"


class SunsetSpec(CompiledGameSpec):
    contract = SunsetContract()
    name = "sunset"
    aliases = ("sunset-over-water", "sow")
    title = "Sunset Over Water"
    min_players = 1
    max_players = 4
    default_strategy = "greedy"     # best immediate gain: the plain baseline player
    # mcts as shipped: 400 iterations with greedy rollouts; flatmc: 16 greedy rollouts on each
    # of greedy's 3 first choices, on common worlds (docs/search-players.md)
    search_defaults = {
        "mcts": SearchDefault(
            params={"iterations": 400, "rollout": "greedy"},
            measured=(
                Measured(players=2, against="planner", games=300, wins=202,
                         seconds_per_game=1.24, date="2026-12-01",
                         where="shared 2-core machine, load average 6-9",
                         command="balance run sunset --players 2 --strategies mcts,planner "
                         "--rotate-seats --games 300 --seed 1 --workers 1"),
                Measured(players=4, against="planner", games=100, wins=69,
                         seconds_per_game=6.9, date="2026-12-01",
                         where="shared 2-core machine, load average 11-13 (3.1 s a game over "
                               "8 games at load 9)",
                         command="balance run sunset --players 4 --strategies "
                         "mcts,planner,planner,planner --rotate-seats --games 100 --seed 1 "
                         "--workers 1"))),
        "flatmc": SearchDefault(
            params={"rollouts": 16, "rollout": "greedy", "candidates": 3},
            measured=(
                Measured(players=2, against="planner", games=300, wins=224,
                         seconds_per_game=0.19, date="2026-12-01",
                         where="shared 2-core machine, load average 7-10",
                         command="balance run sunset --players 2 --strategies flatmc,planner "
                         "--rotate-seats --games 300 --seed 1 --workers 1"),
                Measured(players=4, against="planner", games=100, wins=47,
                         seconds_per_game=0.36, date="2026-12-01",
                         where="shared 2-core machine, load average 9-10",
                         command="balance run sunset --players 4 --strategies "
                         "flatmc,planner,planner,planner --rotate-seats --games 100 --seed 1 "
                         "--workers 1"))),
    }
    description = ("Hike the wilderness, paint landscapes, sell them for commissions "
                   "(1 player: the Wanderlust solo variant)")

    @property
    def end_reason_names(self) -> tuple:
        """The enums' END_REASON_NAMES, imported on first use (numpy)."""
        from sim.games.sunset.enums import END_REASON_NAMES
        return END_REASON_NAMES

    def variant_for(self, n_players: int) -> str:
        return "wanderlust-solo" if n_players == 1 else "standard"

    def assignable(self) -> dict:
        """No choice to assign: the commission row, the daily goals and the planning cards
        are dealt at random; which card a player plans or which commission it sells to is a
        move of play, not a component it keeps."""
        return {}

    def report_metadata(self, components: Components | None = None) -> dict:
        """What the balance report needs to know about this game's cards and logs."""
        from sim.games.sunset.enums import END_REASON_NAMES
        comp = components or self.load_components()
        t = comp.tables[0]
        names = comp.card_names
        return {
            "cards": [
                {"type": "commission", "label": "Commissions",
                 "names": list(names["commission"]),
                 "values": [int(v) for v in t.commission_points[:t.n_comm]],
                 "mask_column": "commissions_mask",
                 "value_path": "commissions[{i}].points",
                 "day_columns": ["comm_day_0", "comm_day_1", "comm_day_2", "comm_day_3"],
                 "time_unit": "day", "unit": "points"},
                {"type": "goal", "label": "Daily goals",
                 "names": list(names["goal"]),
                 "values": [int(v) for v in t.goal_points[:t.n_goal]],
                 "mask_column": "goals_mask", "unit": "points", "value_path": "goals[{i}].points"},
            ],
            "score_components": ["pts_commissions", "pts_goals", "pts_landscapes",
                                 "pts_inspiration", "pts_home"],
            "length_column": "length", "length_unit": "player turns",
            "end_reason_names": list(END_REASON_NAMES),
            # no start player: the trek order is chosen every day (wake-up cards), so the
            # seat number is the only position fixed before play (docs/games/sunset-over-water.md)
            "start": {"column": None, "how": "chosen", "leads": False,
                      "note": "there is no start player: each day the wake-up cards the players "
                              "choose set the trek order (equal times ordered at random, "
                              "rules.wake_tie), so the seat number is the only position fixed "
                              "before play"},
        }


SPEC = SunsetSpec()
