"""Sagrada (Floodgate Games, 2017): 2-4 players, and the solo variant.

Where each rule lives: docs/games/sagrada.md.
"""
from __future__ import annotations

from sim.compiled_game import CompiledGameSpec
from sim.game_api import Components, Measured, SearchDefault
from sim.game_contract import GameContract


class SagradaContract(GameContract):
    """Where each piece of the game lives (sim/game_contract.py; checked at registration).
    Each engine piece is imported when the game is first played: a listing imports no numpy."""

    def model(self):
        from sim.games.sagrada import model
        return model

    def components(self):
        from sim.games.sagrada import components
        return components

    def tables(self):
        from sim.games.sagrada.enums import pack_tables
        return pack_tables

    def new_state(self):
        from sim.games.sagrada.nb import new_state
        return new_state

    def trace(self):
        from sim.games.sagrada.trace import format_trace
        return format_trace

    def positions(self):
        from sim.games.sagrada import positions
        return positions

    def snapshot(self):
        from sim.games.sagrada import snapshot
        return snapshot

    # the players, by module name (the engine does not import strategies/)
    strategies = "strategies.sagrada"
    catalog = "strategies.sagrada_catalog"
    # data
    test_vary = "rules.token_points=1..2"
    rule_tests = ("tests/test_sagrada_rules.py",)
    docs_page = "docs/games/sagrada.md"


class SagradaSpec(CompiledGameSpec):
    contract = SagradaContract()
    name = "sagrada"
    aliases = ()
    title = "Sagrada"
    min_players = 1
    max_players = 4
    default_strategy = "greedy"     # best immediate gain: the plain baseline player
    # mcts and flatmc as shipped: a search among the planner's 3 first choices on common worlds
    # (docs/search-players.md, "Sagrada"); measured on 2026-11-30 on the shared 2-core machine
    # under load; the determinize of that day redrew the hidden cards from their hidden order,
    # so today's code plays other games, from the same distribution
    search_defaults = {
        "mcts": SearchDefault(
            params={"iterations": 96, "rollout": "planner", "ranked": 1, "candidates": 3,
                    "tree": 1, "worlds": 32, "c": 2.0},
            measured=(
                Measured(players=2, against="planner", games=200, wins=131, seconds_per_game=1.4,
                         date="2026-11-30", where="shared machine, load average 4-6",
                         command="balance run sagrada --players 2 --strategies mw32b,planner "
                         "--rotate-seats --variants V.toml --games 200 --seed 7 --workers 1"),
                Measured(players=4, against="planner", games=80, wins=31, seconds_per_game=2.9,
                         date="2026-11-30", where="shared machine, load average 1-4",
                         command="balance run sagrada --players 4 --strategies "
                         "mw32b,planner,planner,planner --rotate-seats --variants V.toml "
                         "--games 80 --seed 7 --workers 1")),
            note="With tree = 1 it searches the root only (the planner plays every later "
                 "decision of the playouts)."),
        "flatmc": SearchDefault(
            params={"rollouts": 32, "rollout": "planner", "candidates": 3},
            measured=(
                Measured(players=2, against="planner", games=200, wins=131, seconds_per_game=3.0,
                         date="2026-11-30", where="shared machine, load average 6-10",
                         command="balance run sagrada --players 2 --strategies f3x32,planner "
                         "--rotate-seats --variants V.toml --games 200 --seed 7 --workers 1"),
                Measured(players=4, against="planner", games=80, wins=40, seconds_per_game=8.1,
                         date="2026-11-30", where="shared machine, load average 6-10",
                         command="balance run sagrada --players 4 --strategies "
                         "f3x32,planner,planner,planner --rotate-seats --variants V.toml "
                         "--games 80 --seed 7 --workers 1"))),
    }
    description = ("Draft dice and build a stained-glass window under its colour and shade "
                   "restrictions (1 player: the solo variant against the round track)")

    @property
    def end_reason_names(self) -> tuple:
        """The enums' END_REASON_NAMES, imported on first use (numpy)."""
        from sim.games.sagrada.enums import END_REASON_NAMES
        return END_REASON_NAMES

    def variant_for(self, n_players: int) -> str:
        return "solo" if n_players == 1 else "standard"

    def assignable(self) -> dict:
        """`--assign window=random`: each seat's window pattern drawn uniformly from the sides
        of its dealt window cards (2 cards x 2 sides: 4 patterns) instead of chosen by its
        strategy, so that a window's (or a difficulty's) win share measures the window, not
        the player who picks it. The private objective, the tools and the public objectives
        are dealt at random already (rulebook)."""
        from sim.games.sagrada.enums import DEC_WINDOW
        return {"window": {"decision": DEC_WINDOW,
                           "what": "each seat's window pattern, drawn uniformly from the "
                                   "sides of its dealt window cards",
                           "columns": ["window", "difficulty", "window_mask"]}}

    def report_metadata(self, components: Components | None = None) -> dict:
        """What the balance report needs to know about this game's cards and logs
        (analysis/metadata.py): windows chosen (value: difficulty), tool cards used (value:
        the number printed on the card), public objectives in play (value: points), private
        objectives held."""
        from sim.games.sagrada.enums import END_REASON_NAMES
        comp = components or self.load_components()
        t = comp.tables[0]
        names = comp.card_names
        return {
            "cards": [
                {"type": "window", "label": "Windows", "names": list(names["window"]),
                 "values": [int(v) for v in t.pattern_difficulty[:t.n_patterns]], "mask_column": "window_mask",
                 "unit": "favor tokens",    # a window's difficulty = the tokens it gives
                 "value_path": "windows[{i}].difficulty"},
                {"type": "tool", "label": "Tool cards used", "names": list(names["tool"]),
                 "values": [int(v) for v in t.tool_number[:t.n_tools]], "mask_column": "tools_used_mask",
                 "unit": "tool number"},
                {"type": "public", "label": "Public objectives in play",
                 "names": list(names["public"]),
                 "values": [int(v) for v in t.public_points[:t.n_public]], "mask_column": "public_mask",
                 "unit": "points", "value_path": "public[{i}].points"},
                {"type": "private", "label": "Private objectives", "names": list(names["private"]),
                 "values": [1] * len(names["private"]), "mask_column": "private_mask",
                 "unit": ""},   # a private objective scores the dice of its colour: no value
            ],
            "score_components": ["pts_public_1", "pts_public_2", "pts_public_3", "pts_private",
                                 "pts_favor", "pts_empty"],
            "length_column": "length", "length_unit": "turns",
            "end_reason_names": list(END_REASON_NAMES),
            # the start player is random (rulebook) and the bag passes clockwise: the
            # fairness question is the start position, not the seat number
            "start": {"column": "start_position", "how": "random", "leads": True,
                      "players": [2, 3, 4],
                      "note": "the start player is chosen at random, so seat 1 is not the "
                              "first to play; the seat shares only check that no seat number "
                              "matters",
                      "question": "How much is the first seat worth? Seats by their place in "
                                  "round 1's clockwise order (1 = the first start player)."},
            # the designer's balance questions, answered by the generic report (analysis/breakdowns.py)
            "breakdowns": [
                # the seats chose their windows: an association, not the difficulty's effect
                {"column": "difficulty", "label": "Window difficulty", "unit": "favor tokens",
                 "headline": True, "grouping": "after",
                 "question": "Do the favor tokens of a hard window make up for its difficulty? "
                             "Win share and score of the seats that chose a window of each "
                             "difficulty (= favor tokens received)."},
                {"column": "tool_uses", "label": "Tool uses per seat", "unit": "count",
                 "grouping": "after",
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
