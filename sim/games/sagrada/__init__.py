"""Sagrada (Floodgate Games, 2017): 2-4 players, and the solo variant.

Where each rule lives: docs/games/sagrada.md.
"""
from __future__ import annotations

from sim.compiled_game import CompiledGameSpec
from sim.game_api import Components
from sim.games.sagrada.enums import END_REASON_NAMES


class SagradaSpec(CompiledGameSpec):
    package = "sim.games.sagrada"
    strategies_module = "strategies.sagrada"
    name = "sagrada"
    aliases = ()
    title = "Sagrada"
    min_players = 1
    max_players = 4
    default_strategy = "greedy"     # best immediate gain: the plain baseline player
    description = ("Draft dice and build a stained-glass window under its colour and shade "
                   "restrictions (1 player: the solo variant against the round track)")
    end_reason_names = END_REASON_NAMES

    def variant_for(self, n_players: int) -> str:
        return "solo" if n_players == 1 else "standard"

    def report_metadata(self, components: Components | None = None) -> dict:
        """What the balance report needs to know about this game's cards and logs
        (analysis/metadata.py): windows chosen (value: difficulty), tool cards used (value:
        the number printed on the card), public objectives in play (value: points), private
        objectives held."""
        comp = components or self.load_components()
        t = comp.tables
        names = comp.card_names
        return {
            "cards": [
                {"type": "window", "label": "Windows", "names": list(names["window"]),
                 "values": [int(v) for v in t.pattern_difficulty], "mask_column": "window_mask"},
                {"type": "tool", "label": "Tool cards used", "names": list(names["tool"]),
                 "values": [int(v) for v in t.tool_number], "mask_column": "tools_used_mask"},
                {"type": "public", "label": "Public objectives in play",
                 "names": list(names["public"]),
                 "values": [int(v) for v in t.public_points], "mask_column": "public_mask"},
                {"type": "private", "label": "Private objectives", "names": list(names["private"]),
                 "values": [1] * len(names["private"]), "mask_column": "private_mask"},
            ],
            "score_components": ["pts_public_1", "pts_public_2", "pts_public_3", "pts_private",
                                 "pts_favor", "pts_empty"],
            "length_column": "length", "length_unit": "turns",
            "end_reason_names": list(END_REASON_NAMES),
            # the balance questions, answered by the generic report (analysis/breakdowns.py)
            "breakdowns": [
                {"column": "difficulty", "label": "Window difficulty",
                 "question": "Do the favor tokens of a hard window make up for its difficulty? "
                             "Win share and score of the seats that chose a window of each "
                             "difficulty (= favor tokens received)."},
                {"column": "start_position", "label": "Start position",
                 "question": "How much is the first seat worth? Seats by their place in round 1's "
                             "clockwise order (0 = the first start player)."},
                {"column": "tool_uses", "label": "Tool uses per seat",
                 "question": "Do tools pay? Seats by how many tool cards they used."},
            ],
            "per_strategy": [
                {"column": "empty_cells", "label": "Open spaces left"},
                {"column": "tool_uses", "label": "Tool uses"},
                {"column": "tokens_left", "label": "Favor tokens left"},
            ],
        }


SPEC = SagradaSpec()
