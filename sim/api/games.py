"""One game, from Python: its component file, its strategies, a prepared configuration you
can play in memory, replay game by game, and (per game) positions from text.

    g = game("sagrada")
    comp = g.load_components(set={"rules.token_points": 2})     # validated like --set
    p = g.prepare(players=3, strategies="greedy", seed=7, set={...})
    logs = g.play(p, games=100)          # a small run held in memory (DataFrame)
    g.replay(p, 5)                       # the turn-by-turn trace of game 5
    g.positions.score_window([...], public=[...], private="R")   # Sagrada: a window from text
"""
from __future__ import annotations

from sim.api.common import overrides, players_for, strategy_list
from sim.game_api import ToolkitError


class Game:
    def __init__(self, spec):
        self.spec = spec
        self.name = spec.name

    def __repr__(self):
        return f"Game({self.name!r}: {self.spec.title}, {self.spec.min_players}-{self.spec.max_players} players)"

    def load_components(self, path: str | None = None, set=None):
        """The component file (`path`, default the game's own) with `set` overrides ({path:
        value} or 'PATH=VALUE' texts), validated: a Components object (.data, .tables, .text)."""
        return self.spec.load_components(path, overrides(set))

    def default_components_text(self) -> str:
        return self.spec.default_components_text()

    def strategies(self) -> list:
        """The built-in strategies: [{'name', 'params', ...}]."""
        return self.spec.strategy_catalog()

    def prepare(self, players: int | None = None, strategies=None, seed: int = 1, set=None,
                components: str | None = None, variants: str | None = None,
                rotate_seats: bool = False):
        """A prepared configuration (sim.game_api.Prepared), as `run` would play it."""
        comp = self.load_components(components, set)
        prepared = self.spec.prepare(comp, players_for(self.spec, players),
                                     strategy_list(self.spec, strategies), seed, variants)
        if rotate_seats:
            from sim import rotation
            prepared = rotation.rotated(prepared)
        return prepared

    def play(self, prepared, games: int = 100, first: int = 0):
        """Games first .. first + games - 1 of `prepared`, played here and held in memory (a
        small run: no folder). The rows are those a run folder would log for these games."""
        import pandas as pd

        from sim import rotation
        import numpy as np
        cols = rotation.play_chunk(self.spec, prepared, first, games)
        names = [str(n) for n in prepared.strategy_names]
        uniq = rotation.strategy_codes(prepared)   # the logs' dictionary order (sim/runner.py)
        seat = np.asarray(cols["seat"]).astype(np.int64)
        strategy = ([uniq[int(c)] for c in cols["strategy"]] if "strategy" in cols
                    else [names[int(k)] for k in seat])
        data = {"game": np.asarray(cols["game"]).astype(np.int64), "seat": seat,
                "strategy": strategy}
        for k, v in cols.items():
            if k not in data:
                v = np.asarray(v)
                data[k] = list(v) if v.ndim > 1 else v
        return pd.DataFrame(data)

    def replay(self, prepared, game: int) -> list:
        """The turn-by-turn trace of one game of `prepared` (as `balance replay`)."""
        from sim import rotation
        return list(rotation.replay(self.spec, prepared, game))

    @property
    def positions(self):
        """The game's positions-from-text module, as its contract names it
        (`positions`, e.g. sim/games/sagrada/positions.py)."""
        contract = getattr(self.spec, "contract", None)
        if contract is None or not contract.offers("positions"):
            raise ToolkitError(f"{self.name}: the game offers no positions from text (its "
                               f"contract names no `positions` module: docs/adding-a-game.md)")
        return contract.positions()


def game(name: str) -> Game:
    """The game `name` (or an alias), as `balance games` lists them."""
    from sim.registry import get_game
    return Game(get_game(name))
