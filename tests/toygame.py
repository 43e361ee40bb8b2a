"""A tiny stand-in game for testing the platform without a real engine.

Dice: every seat rolls N_DICE dice with SIDES sides, then rerolls each die below its
threshold once (strategy parameter). Highest total wins, ties split. Randomness depends
only on (seed, game index): chance draws come from stream 0, strategy draws from 1 + seat.
"""
from __future__ import annotations

import hashlib
import os

import numpy as np
from numba import njit

from sim.game_api import ComponentError, Components, GameSpec, Prepared, ToolkitError
from sim.overrides import apply_overrides
from sim.rng import game_seed_nb, init_streams_nb, randint_nb, uniform_nb
from strategies.registry import resolve_strategies

try:
    import tomllib
except ModuleNotFoundError:  # pragma: no cover
    import tomli as tomllib

DEFAULT_TEXT = """# toy dice game components
[dice]
sides = 6
n_dice = 3
"""


@njit(cache=True)
def _play_nb(seed, first, n, n_players, sides, n_dice, ids, params,
             out_game, out_seat, out_score, out_rank, out_win, out_end, out_rerolls):
    streams = np.zeros(1 + n_players, dtype=np.uint64)
    scores = np.zeros(n_players, dtype=np.int64)
    for gi in range(n):
        g = first + gi
        init_streams_nb(streams, game_seed_nb(seed, g))
        for p in range(n_players):
            total = 0
            rer = 0
            for d in range(n_dice):
                v = 1 + randint_nb(streams, 0, sides)
                if ids[p] == 0:      # random: reroll with probability 1/2
                    again = uniform_nb(streams, 1 + p) < 0.5
                else:                # greedy / planner: reroll below threshold
                    again = v < params[p, 0]
                if again:
                    v = 1 + randint_nb(streams, 0, sides)
                    rer += 1
                total += v
            scores[p] = total
            out_rerolls[gi * n_players + p] = rer
        best = scores.max()
        n_best = 0
        for p in range(n_players):
            if scores[p] == best:
                n_best += 1
        for p in range(n_players):
            r = gi * n_players + p
            rank = 1
            for q in range(n_players):
                if scores[q] > scores[p]:
                    rank += 1
            out_game[r] = g
            out_seat[r] = p
            out_score[r] = scores[p]
            out_rank[r] = rank
            out_win[r] = 1.0 / n_best if scores[p] == best else 0.0
            out_end[r] = 0 if n_best == 1 else 1


class ToySpec(GameSpec):
    name = "toy"
    aliases = ("dice",)
    title = "Toy Dice"
    min_players = 1
    max_players = 4
    description = "a stand-in dice game for tests"

    def default_components_text(self) -> str:
        return DEFAULT_TEXT

    def load_components(self, path=None, overrides=()) -> Components:
        if path is None:
            text, shown = DEFAULT_TEXT, "<default>"
        else:
            if not os.path.isfile(path):
                raise ComponentError(f"{path}: component file not found")
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
            shown = path
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise ComponentError(f"{shown}: not valid TOML: {exc}") from None
        data = apply_overrides(data, list(overrides), shown)
        dice = data.get("dice", {})
        problems = []
        for key, lo in (("sides", 2), ("n_dice", 1)):
            v = dice.get(key)
            if not isinstance(v, int) or isinstance(v, bool) or v < lo:
                problems.append(f"{shown}: [dice] {key}: must be an integer >= {lo}, got {v!r}")
        if problems:
            raise ComponentError(problems)
        return Components(game=self.name, path=shown, text=text,
                          sha256=hashlib.sha256("\n".join([text, *overrides]).encode()).hexdigest(),
                          data=data, overrides=list(overrides),
                          tables=(int(dice["sides"]), int(dice["n_dice"])))

    def strategy_catalog(self) -> list:
        return [
            {"name": "random", "id": 0, "description": "rerolls at random", "params": []},
            {"name": "greedy", "id": 1, "description": "rerolls dice below a threshold",
             "params": [("threshold", 4.0, "reroll dice showing less than this")]},
            {"name": "planner", "id": 2, "description": "threshold and risk",
             "params": [("threshold", 3.5, "reroll dice showing less than this"),
                        ("risk", 0.5, "unused")]},
        ]

    def prepare(self, components, n_players, strategy_names, seed, variants_file=None) -> Prepared:
        if not self.min_players <= n_players <= self.max_players:
            raise ToolkitError(f"toy: players must be {self.min_players}..{self.max_players}")
        ids, params, info, users = resolve_strategies(self.strategy_catalog(), strategy_names,
                                                      n_players, variants_file)
        return Prepared(game=self.name, n_players=n_players, seed=int(seed),
                        components=components, strategy_names=[i["name"] for i in info],
                        strategy_ids=ids, strategy_params=params, strategy_info=info,
                        user_strategies=users, variant=self.variant_for(n_players))

    def variant_for(self, n_players):
        return "solo" if n_players == 1 else "standard"

    def columns(self) -> list:
        return [("game", "game index"), ("seat", "seat"), ("score", "total of the dice"),
                ("rank", "1 = best"), ("win", "win share"), ("end_reason", "0 clear win, 1 tie"),
                ("rerolls", "dice rerolled")]

    def play_chunk(self, prepared, first_game, n_games) -> dict:
        P = prepared.n_players
        rows = n_games * P
        out = {"game": np.zeros(rows, np.int64), "seat": np.zeros(rows, np.int64),
               "score": np.zeros(rows, np.int64), "rank": np.zeros(rows, np.int64),
               "win": np.zeros(rows, np.float64), "end_reason": np.zeros(rows, np.int64),
               "rerolls": np.zeros(rows, np.int64)}
        sides, n_dice = prepared.components.tables
        _play_nb(np.uint64(prepared.seed), first_game, n_games, P, sides, n_dice,
                 np.asarray(prepared.strategy_ids, np.int64),
                 np.asarray(prepared.strategy_params, np.float64),
                 out["game"], out["seat"], out["score"], out["rank"], out["win"],
                 out["end_reason"], out["rerolls"])
        return out

    def replay(self, prepared, game_index) -> list:
        cols = self.play_chunk(prepared, game_index, 1)
        return [f"game {game_index}"] + [
            f"seat {s} ({prepared.strategy_names[s]}): score {cols['score'][s]}, rank {cols['rank'][s]}"
            for s in range(prepared.n_players)]


SPEC = ToySpec()
