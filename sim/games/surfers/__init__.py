"""Grand Surfers (Dongmin River, print-and-play, version 5): a dexterity race, 2-4 players,
simulated with a model of the flick (aim + noise whose spread is each seat's skill).

Where each rule lives: docs/games/grand-surfers.md.
"""
from __future__ import annotations

import numpy as np

from sim.game_api import Components, GameSpec, Prepared, ToolkitError
from sim.games.surfers import components as _components
from sim.games.surfers.enums import ACTION_NAMES, END_REASON_NAMES, pack_tables
from sim.games.surfers.nb import new_state
from strategies.registry import load_user_function, resolve_strategies


class SurfersSpec(GameSpec):
    name = "surfers"
    aliases = ("grand-surfers", "grand_surfers")
    title = "Grand Surfers"
    min_players = 2
    max_players = 4
    description = ("Flick a die onto the wave sheet and race two surfers to the beach: push, "
                   "boost, draw channels, outrun the Great Wave (skill: [flick] spread per seat)")
    end_reason_names = END_REASON_NAMES

    def default_components_text(self) -> str:
        return _components.default_components_text()

    def load_components(self, path: str | None = None, overrides: tuple = ()) -> Components:
        return _components.load_components(path, overrides)

    def strategy_catalog(self) -> list:
        from strategies.surfers import CATALOG
        return CATALOG

    def prepare(self, components, n_players, strategy_names, seed, variants_file=None) -> Prepared:
        if not self.min_players <= int(n_players) <= self.max_players:
            raise ToolkitError(f"surfers: --players must be {self.min_players}..{self.max_players}, "
                               f"got {n_players}")
        ids, params, info, users = resolve_strategies(self.strategy_catalog(), strategy_names,
                                                      int(n_players), variants_file)
        from strategies.surfers import N_PARAMS
        full = np.zeros((int(n_players), max(N_PARAMS, params.shape[1])), np.float64)
        full[:, :params.shape[1]] = params
        return Prepared(game=self.name, n_players=int(n_players), seed=int(seed),
                        components=components, strategy_names=[i["name"] for i in info],
                        strategy_ids=np.asarray(ids, np.int64), strategy_params=full,
                        strategy_info=info, user_strategies=list(users),
                        variant=self.variant_for(int(n_players)))

    def columns(self) -> list:
        from sim.games.surfers.play import RECORD_COLUMNS
        return list(RECORD_COLUMNS)

    def report_metadata(self, components: Components | None = None) -> dict:
        """What the balance report can show through its card sections (analysis/metadata.py):
        each "card" is a yes/no fact about a seat in a game, and the report compares the win
        share of the seats where it holds against the others:
          actions used (value 1 each), finish cells reached (value: the cell's score),
          skill against the table (steadier / as steady / shakier than the other seats' mean
          spread: how much skill decides the race), the fastest marker (its points; its win
          share against not holding it is the marker's value), surfers lost (to the wave, to
          the tide, none lost: how often the wave eliminates surfers)."""
        comp = components or self.load_components()
        t = comp.tables
        names = comp.card_names
        return {
            "cards": [
                {"type": "action", "label": "Actions used", "names": list(ACTION_NAMES),
                 "values": [1] * len(ACTION_NAMES), "mask_column": "actions_mask"},
                {"type": "finish", "label": "Finish cells reached", "names": list(names["finish"]),
                 "values": [int(v) for v in t.finish_score], "mask_column": "finish_mask"},
                {"type": "skill", "label": "Skill against the table",
                 "names": ["steadier than the others", "as steady as the others",
                           "shakier than the others"],
                 "values": [1, 0, -1], "mask_column": "edge_mask"},
                {"type": "fastest", "label": "Fastest marker", "names": ["fastest marker"],
                 "values": [int(t.rules[1])], "mask_column": "fastest_mask"},
                {"type": "lost", "label": "Surfers lost",
                 "names": ["lost a surfer to the wave", "lost a surfer to the tide",
                           "lost no surfer"],
                 "values": [0, 0, 0], "mask_column": "lost_mask"},
            ],
            "score_components": ["pts_fastest", "pts_duo", "pts_cells"],
            "length_column": "length", "length_unit": "turns",
            "end_reason_names": list(END_REASON_NAMES),
            # the questions, answered by the generic report (analysis/breakdowns.py)
            "breakdowns": [
                {"column": "spread_milli", "label": "Flick spread x1000",
                 "question": "How much does skill decide the race? Seats by their own flick "
                             "spread (0 = perfect aim; set per seat with flick.spread)."},
                {"column": "out_wave", "label": "Surfers lost to the wave",
                 "question": "How often does the wave eliminate surfers, and what does it cost?"},
            ],
            "per_strategy": [
                {"column": "pushes", "label": "Pushes"},
                {"column": "boosts", "label": "Boosts"},
                {"column": "rides", "label": "Channel rides"},
                {"column": "channels_up", "label": "Channels drawn up"},
                {"column": "reflicks", "label": "Re-flicks"},
                {"column": "progress", "label": "Progress (lines gained)"},
            ],
        }

    def _kernels(self, prepared: Prepared):
        from sim.games.surfers.play import build_player
        users = tuple(load_user_function(path, fn) for path, fn in prepared.user_strategies)
        return build_player(users)

    def play_chunk(self, prepared: Prepared, first_game: int, n_games: int) -> dict:
        from sim.games.surfers.play import C_WIN, RECORD_COLUMNS
        play_chunk, _ = self._kernels(prepared)
        out, win = play_chunk(pack_tables(prepared.components.tables), new_state(), prepared.n_players,
                              np.uint64(prepared.seed), first_game, n_games,
                              prepared.strategy_ids, prepared.strategy_params)
        out = np.ascontiguousarray(out.T)  # one contiguous array per column (fast into Arrow)
        return {name: (win if k == C_WIN else out[k]) for k, (name, _) in enumerate(RECORD_COLUMNS)}

    def replay(self, prepared: Prepared, game_index: int) -> list:
        from sim.games.surfers.trace import format_trace
        _, trace_game = self._kernels(prepared)
        state = new_state()
        trace, n, out, win = trace_game(pack_tables(prepared.components.tables), state, prepared.n_players,
                                        np.uint64(prepared.seed), int(game_index),
                                        prepared.strategy_ids, prepared.strategy_params, 20000)
        return format_trace(prepared, int(game_index), trace[:n], out, win, state[0])


SPEC = SurfersSpec()
