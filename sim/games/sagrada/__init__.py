"""Sagrada (Floodgate Games, 2017): 2-4 players, and the solo variant.

Where each rule lives: docs/games/sagrada.md.
"""
from __future__ import annotations

from sim.compiled_game import CompiledGameSpec, EnumsAttribute
from sim.game_api import Components


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
    end_reason_names = EnumsAttribute("END_REASON_NAMES")   # read on first use (numpy)

    def variant_for(self, n_players: int) -> str:
        return "solo" if n_players == 1 else "standard"

    def report_metadata(self, components: Components | None = None) -> dict:
        """What the balance report needs to know about this game's cards and logs
        (analysis/metadata.py): windows chosen (value: difficulty), tool cards used (value:
        the number printed on the card), public objectives in play (value: points), private
        objectives held."""
        from sim.games.sagrada.enums import END_REASON_NAMES
        comp = components or self.load_components()
        t = comp.tables
        names = comp.card_names
        return {
            "cards": [
                {"type": "window", "label": "Windows", "names": list(names["window"]),
                 "values": [int(v) for v in t.pattern_difficulty], "mask_column": "window_mask",
                 "unit": "favor tokens"},   # a window's difficulty = the tokens it gives
                {"type": "tool", "label": "Tool cards used", "names": list(names["tool"]),
                 "values": [int(v) for v in t.tool_number], "mask_column": "tools_used_mask",
                 "unit": "tool number"},
                {"type": "public", "label": "Public objectives in play",
                 "names": list(names["public"]),
                 "values": [int(v) for v in t.public_points], "mask_column": "public_mask",
                 "unit": "points", "value_path": "public[{i}].points"},
                {"type": "private", "label": "Private objectives", "names": list(names["private"]),
                 "values": [1] * len(names["private"]), "mask_column": "private_mask",
                 "unit": ""},   # a private objective scores the dice of its colour: no value
            ],
            "score_components": ["pts_public_1", "pts_public_2", "pts_public_3", "pts_private",
                                 "pts_favor", "pts_empty"],
            "length_column": "length", "length_unit": "turns",
            "end_reason_names": list(END_REASON_NAMES),
            # the balance questions, answered by the generic report (analysis/breakdowns.py)
            "breakdowns": [
                {"column": "difficulty", "label": "Window difficulty", "unit": "favor tokens",
                 "headline": True,
                 "question": "Do the favor tokens of a hard window make up for its difficulty? "
                             "Win share and score of the seats that chose a window of each "
                             "difficulty (= favor tokens received)."},
                # the start player is random (rulebook): the fairness question is the start
                # position, not the seat number; its verdict opens the report
                {"column": "start_position", "label": "Start position", "players": [2, 3, 4],
                 "headline": True, "fairness": True,
                 "seat_note": "the start player is chosen at random, so seat 1 is not the "
                              "first to play; the seat shares only check that no seat number "
                              "matters",
                 "question": "How much is the first seat worth? Seats by their place in round 1's "
                             "clockwise order (0 = the first start player)."},
                {"column": "tool_uses", "label": "Tool uses per seat", "unit": "count",
                 "question": "Do tools pay? Seats by how many tool cards they used."},
                # solo balance: the player wins with a score above the target (round-track sum)
                {"column": "solo_tools", "label": "Solo difficulty", "players": [1],
                 "summary": True,
                 "question": "Solo: how often does the player beat the target at each "
                             "difficulty (the number of tool cards, 1 hardest .. 5 easiest)? "
                             "Win share = games won (score above the target)."},
                {"column": "target", "label": "Solo target score", "players": [1], "bin": 5,
                 "summary": True,
                 "question": "Solo: the target's distribution (games per band of 5 points) "
                             "and the win rate in each band."},
            ],
            "per_strategy": [
                {"column": "empty_cells", "label": "Open spaces left"},
                {"column": "tool_uses", "label": "Tool uses"},
                {"column": "tokens_left", "label": "Favor tokens left", "players": [2, 3, 4]},
                {"column": "margin", "label": "Solo margin (score minus target)", "players": [1],
                 "summary": True},
                {"column": "target", "label": "Solo target score, mean", "players": [1],
                 "summary": True},
            ],
        }


SPEC = SagradaSpec()
