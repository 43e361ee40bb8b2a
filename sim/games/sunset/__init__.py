"""Sunset Over Water (Pencil First Games, 2018): 2-4 players, and the Wanderlust solo variant.

The template game (issue 12): its forward model (model.py) is played by the platform's loop
(sim/harness.py), which CompiledGameSpec builds from it; the game has no play loop of its own.
Where each rule lives: docs/games/sunset-over-water.md.
"""
from __future__ import annotations

from sim.compiled_game import CompiledGameSpec, EnumsAttribute
from sim.game_api import Components


class SunsetSpec(CompiledGameSpec):
    package = "sim.games.sunset"
    strategies_module = "strategies.sunset"
    name = "sunset"
    aliases = ("sunset-over-water", "sow")
    title = "Sunset Over Water"
    min_players = 1
    max_players = 4
    default_strategy = "greedy"     # best immediate gain: the plain baseline player
    description = ("Hike the wilderness, paint landscapes, sell them for commissions "
                   "(1 player: the Wanderlust solo variant)")
    end_reason_names = EnumsAttribute("END_REASON_NAMES")   # read on first use (numpy)

    def variant_for(self, n_players: int) -> str:
        return "wanderlust-solo" if n_players == 1 else "standard"

    def report_metadata(self, components: Components | None = None) -> dict:
        """What the balance report needs to know about this game's cards and logs."""
        from sim.games.sunset.enums import END_REASON_NAMES
        comp = components or self.load_components()
        t = comp.tables
        names = comp.card_names
        return {
            "cards": [
                {"type": "commission", "label": "Commissions",
                 "names": list(names["commission"]),
                 "values": [int(v) for v in t.commission_points],
                 "mask_column": "commissions_mask",
                 "value_path": "commissions[{i}].points",
                 "day_columns": ["comm_day_0", "comm_day_1", "comm_day_2", "comm_day_3"],
                 "time_unit": "day", "unit": "points"},
                {"type": "goal", "label": "Daily goals",
                 "names": list(names["goal"]),
                 "values": [int(v) for v in t.goal_points],
                 "mask_column": "goals_mask", "unit": "points", "value_path": "goals[{i}].points"},
            ],
            "score_components": ["pts_commissions", "pts_goals", "pts_landscapes",
                                 "pts_inspiration", "pts_home"],
            "length_column": "length", "length_unit": "player turns",
            "end_reason_names": list(END_REASON_NAMES),
        }


SPEC = SunsetSpec()
