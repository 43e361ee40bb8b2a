"""Sunset Over Water (Pencil First Games, 2018): 2-4 players, and the Wanderlust solo variant.

Where each rule lives: docs/games/sunset-over-water.md.
"""
from __future__ import annotations

import numpy as np

from sim.game_api import Components, GameSpec, Prepared, ToolkitError
from sim.games.sunset import components as _components
from sim.games.sunset.enums import END_REASON_NAMES, pack_tables
from sim.games.sunset.nb import new_state
from strategies.registry import load_user_function, resolve_strategies


class SunsetSpec(GameSpec):
    name = "sunset"
    aliases = ("sunset-over-water", "sow")
    title = "Sunset Over Water"
    min_players = 1
    max_players = 4
    description = ("Hike the wilderness, paint landscapes, sell them for commissions "
                   "(1 player: the Wanderlust solo variant)")
    end_reason_names = END_REASON_NAMES

    def default_components_text(self) -> str:
        return _components.default_components_text()

    def load_components(self, path: str | None = None, overrides: tuple = ()) -> Components:
        return _components.load_components(path, overrides)

    def strategy_catalog(self) -> list:
        from strategies.sunset import CATALOG
        return CATALOG

    def variant_for(self, n_players: int) -> str:
        return "wanderlust-solo" if n_players == 1 else "standard"

    def prepare(self, components, n_players, strategy_names, seed, variants_file=None) -> Prepared:
        if not self.min_players <= int(n_players) <= self.max_players:
            raise ToolkitError(f"sunset: --players must be {self.min_players}..{self.max_players}, "
                               f"got {n_players}")
        ids, params, info, users = resolve_strategies(self.strategy_catalog(), strategy_names,
                                                      int(n_players), variants_file)
        from strategies.sunset import N_PARAMS
        full = np.zeros((int(n_players), max(N_PARAMS, params.shape[1])), np.float64)
        full[:, :params.shape[1]] = params
        return Prepared(game=self.name, n_players=int(n_players), seed=int(seed),
                        components=components, strategy_names=[i["name"] for i in info],
                        strategy_ids=np.asarray(ids, np.int64), strategy_params=full,
                        strategy_info=info, user_strategies=list(users),
                        variant=self.variant_for(int(n_players)))

    def columns(self) -> list:
        from sim.games.sunset.play import RECORD_COLUMNS
        return list(RECORD_COLUMNS)

    def report_metadata(self, components: Components | None = None) -> dict:
        """What the balance report needs to know about this game's cards and logs."""
        comp = components or self.load_components()
        t = comp.tables
        names = comp.card_names
        return {
            "cards": [
                {"type": "commission", "label": "Commissions",
                 "names": list(names["commission"]),
                 "values": [int(v) for v in t.commission_points],
                 "mask_column": "commissions_mask",
                 "day_columns": ["comm_day_0", "comm_day_1", "comm_day_2", "comm_day_3"],
                 "time_unit": "day"},
                {"type": "goal", "label": "Daily goals",
                 "names": list(names["goal"]),
                 "values": [int(v) for v in t.goal_points],
                 "mask_column": "goals_mask"},
            ],
            "score_components": ["pts_commissions", "pts_goals", "pts_landscapes",
                                 "pts_inspiration", "pts_home"],
            "length_column": "length", "length_unit": "player turns",
            "end_reason_names": list(END_REASON_NAMES),
        }

    def _kernels(self, prepared: Prepared):
        from sim.games.sunset.play import build_player
        users = tuple(load_user_function(path, fn) for path, fn in prepared.user_strategies)
        return build_player(users)

    def play_chunk(self, prepared: Prepared, first_game: int, n_games: int) -> dict:
        from sim.games.sunset.play import RECORD_COLUMNS, C_WIN
        play_chunk, _ = self._kernels(prepared)
        out, win = play_chunk(pack_tables(prepared.components.tables), new_state(), prepared.n_players,
                              np.uint64(prepared.seed), first_game, n_games,
                              prepared.strategy_ids, prepared.strategy_params)
        out = np.ascontiguousarray(out.T)  # one contiguous array per column: Arrow takes it without a slow strided copy
        cols = {}
        for k, (name, _) in enumerate(RECORD_COLUMNS):
            cols[name] = win if k == C_WIN else out[k]
        return cols

    def replay(self, prepared: Prepared, game_index: int) -> list:
        from sim.games.sunset.trace import format_trace
        _, trace_game = self._kernels(prepared)
        state = new_state()
        trace, n, out, win = trace_game(pack_tables(prepared.components.tables), state, prepared.n_players,
                                                np.uint64(prepared.seed), int(game_index),
                                                prepared.strategy_ids, prepared.strategy_params,
                                                20000)
        return format_trace(prepared, int(game_index), trace[:n], out, win, state[0])


SPEC = SunsetSpec()
