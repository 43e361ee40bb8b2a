"""Sagrada (Floodgate Games, 2017): 2-4 players, and the solo variant.

Where each rule lives: docs/games/sagrada.md.
"""
from __future__ import annotations

import numpy as np

from sim.game_api import Components, GameSpec, Prepared, ToolkitError
from sim.games.sagrada import components as _components
from sim.games.sagrada.enums import END_REASON_NAMES, pack_tables
from sim.games.sagrada.nb import new_state
from strategies.registry import load_user_function, resolve_strategies


class SagradaSpec(GameSpec):
    name = "sagrada"
    aliases = ()
    title = "Sagrada"
    min_players = 1
    max_players = 4
    description = ("Draft dice and build a stained-glass window under its colour and shade "
                   "restrictions (1 player: the solo variant against the round track)")
    end_reason_names = END_REASON_NAMES

    def default_components_text(self) -> str:
        return _components.default_components_text()

    def load_components(self, path: str | None = None, overrides: tuple = ()) -> Components:
        return _components.load_components(path, overrides)

    def strategy_catalog(self) -> list:
        from strategies.sagrada import CATALOG
        return CATALOG

    def variant_for(self, n_players: int) -> str:
        return "solo" if n_players == 1 else "standard"

    def prepare(self, components, n_players, strategy_names, seed, variants_file=None) -> Prepared:
        if not self.min_players <= int(n_players) <= self.max_players:
            raise ToolkitError(f"sagrada: --players must be {self.min_players}..{self.max_players}, "
                               f"got {n_players}")
        ids, params, info, users = resolve_strategies(self.strategy_catalog(), strategy_names,
                                                      int(n_players), variants_file)
        from strategies.sagrada import N_PARAMS
        full = np.zeros((int(n_players), max(N_PARAMS, params.shape[1])), np.float64)
        full[:, :params.shape[1]] = params
        return Prepared(game=self.name, n_players=int(n_players), seed=int(seed),
                        components=components, strategy_names=[i["name"] for i in info],
                        strategy_ids=np.asarray(ids, np.int64), strategy_params=full,
                        strategy_info=info, user_strategies=list(users),
                        variant=self.variant_for(int(n_players)))

    def columns(self) -> list:
        from sim.games.sagrada.play import RECORD_COLUMNS
        return list(RECORD_COLUMNS)

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

    def _kernels(self, prepared: Prepared):
        from sim.games.sagrada.play import build_player
        users = tuple(load_user_function(path, fn) for path, fn in prepared.user_strategies)
        return build_player(users)

    def play_chunk(self, prepared: Prepared, first_game: int, n_games: int) -> dict:
        from sim.games.sagrada.play import C_WIN, RECORD_COLUMNS
        play_chunk, _ = self._kernels(prepared)
        out, win = play_chunk(pack_tables(prepared.components.tables), new_state(), prepared.n_players,
                              np.uint64(prepared.seed), first_game, n_games,
                              prepared.strategy_ids, prepared.strategy_params)
        out = np.ascontiguousarray(out.T)  # one contiguous array per column (fast into Arrow)
        return {name: (win if k == C_WIN else out[k]) for k, (name, _) in enumerate(RECORD_COLUMNS)}

    def replay(self, prepared: Prepared, game_index: int) -> list:
        from sim.games.sagrada.trace import format_trace
        _, trace_game = self._kernels(prepared)
        state = new_state()
        trace, n, out, win = trace_game(pack_tables(prepared.components.tables), state, prepared.n_players,
                                        np.uint64(prepared.seed), int(game_index),
                                        prepared.strategy_ids, prepared.strategy_params, 20000)
        return format_trace(prepared, int(game_index), trace[:n], out, win, state[0])


SPEC = SagradaSpec()
