"""A tiny game that takes user strategies the way the real games do (sim/user_strategies.py),
so that the checks on a user's strategy file can be tested without compiling a real game's
loop (30-60 s each).

Pick: each seat makes ROUNDS decisions; a decision offers N_OPTIONS options with values drawn
from the chance stream; the seat scores the value of the option its strategy picks. A strategy
has the signature of every strategy (sim.user_strategies.ARGS); an answer outside
0..n_options-1 is counted in `illegal` and replaced by option 0, as in the real games.

`python -m tests.usergame ARGS...` runs `balance ARGS...` with this game registered (for
tests that need a separate process: signals).
"""
from __future__ import annotations

import hashlib
import sys

import numpy as np
from numba import njit

from sim.game_api import Components, GameSpec, Prepared, ToolkitError
from sim.rng import game_seed_nb, init_streams_nb, randint_nb
from sim.user_strategies import compile_with_users, rebind
from strategies.registry import load_user_function, resolve_strategies

ROUNDS = 4
N_OPTIONS = 3
SLOW_STEPS = 1_000_000   # `slow`: busy steps per decision (about a millisecond), deterministic


@njit(cache=True)
def choose_builtin_nb(sid, params, tables, s, seat, decision, options, n_options, ctx, keep):
    if sid == 2:  # slow: a xorshift walk, then a choice that depends on it (cannot be skipped)
        x = np.uint64(options[0] + 1)
        for _ in range(SLOW_STEPS):
            x ^= x << np.uint64(13)
            x ^= x >> np.uint64(7)
            x ^= x << np.uint64(17)
        return np.int64(x >> np.uint64(1)) % n_options
    if sid == 1:  # greedy: the best value
        best = 0
        for i in range(n_options):
            if options[i] > options[best]:
                best = i
        return best
    return 0      # first


@njit(cache=True)
def choose_nb(sid, params, tables, s, seat, decision, options, n_options, ctx, keep):
    return choose_builtin_nb(sid, params, tables, s, seat, decision, options, n_options, ctx, keep)


@njit(cache=True)
def play_chunk_nb(seed, first, n, n_players, sids, params):
    out = np.zeros((n * n_players, 4), np.int64)   # game, seat, score, illegal
    streams = np.zeros(1 + n_players, np.uint64)
    options = np.zeros(N_OPTIONS, np.int64)
    ctx = np.zeros(2, np.int64)
    keep = np.zeros(2, np.float64)
    tables = np.zeros(1, np.int64)
    s = np.zeros(1, np.int64)
    for gi in range(n):
        init_streams_nb(streams, game_seed_nb(seed, first + gi))
        for p in range(n_players):
            r = gi * n_players + p
            out[r, 0] = first + gi
            out[r, 1] = p
            for d in range(ROUNDS):
                for k in range(N_OPTIONS):
                    options[k] = randint_nb(streams, 0, 10)
                i = choose_nb(sids[p], params[p], tables, s, p, d, options, N_OPTIONS, ctx, keep)
                if i < 0 or i >= N_OPTIONS:
                    out[r, 3] += 1
                    i = 0
                out[r, 2] += options[i]
    return out


_PLAYERS: dict = {}


def build_player(users):
    if not users:
        return play_chunk_nb, None

    def chain(choose_user):
        return rebind(play_chunk_nb, choose_nb=choose_user), None

    return compile_with_users(_PLAYERS, users, choose_builtin_nb, chain)


class PickSpec(GameSpec):
    name = "pick"
    title = "Pick (test game)"
    min_players = 1
    max_players = 4

    def default_components_text(self) -> str:
        return "# no components\n"

    def load_components(self, path=None, overrides=()) -> Components:
        text = self.default_components_text()
        return Components(game=self.name, path="<default>", text=text,
                          sha256=hashlib.sha256(text.encode()).hexdigest(), data={}, tables=None)

    def strategy_catalog(self) -> list:
        return [{"name": "first", "id": 0, "description": "option 0", "params": []},
                {"name": "greedy", "id": 1, "description": "the best option", "params": []},
                {"name": "slow", "id": 2, "description": "a busy millisecond per decision",
                 "params": []}]

    def prepare(self, components, n_players, strategy_names, seed, variants_file=None) -> Prepared:
        if not self.min_players <= n_players <= self.max_players:
            raise ToolkitError("pick: 1 to 4 players")
        ids, params, info, users = resolve_strategies(self.strategy_catalog(), strategy_names,
                                                      n_players, variants_file)
        params = np.zeros((n_players, 1))
        return Prepared(game=self.name, n_players=n_players, seed=int(seed),
                        components=components, strategy_names=[i["name"] for i in info],
                        strategy_ids=ids, strategy_params=params, strategy_info=info,
                        user_strategies=users)

    def _kernels(self, prepared):
        users = tuple(load_user_function(p, f) for p, f in prepared.user_strategies)
        return build_player(users)

    def columns(self) -> list:
        return [("game", ""), ("seat", ""), ("score", "sum of the values picked"),
                ("win", "win share"), ("illegal", "decisions that were not legal")]

    def play_chunk(self, prepared, first_game, n_games) -> dict:
        play, _ = self._kernels(prepared)
        out = play(np.uint64(prepared.seed), first_game, n_games, prepared.n_players,
                   np.asarray(prepared.strategy_ids, np.int64),
                   np.asarray(prepared.strategy_params, np.float64))
        P = prepared.n_players
        score = out[:, 2].reshape(-1, P)
        top = score == score.max(axis=1, keepdims=True)
        win = (top / top.sum(axis=1, keepdims=True)).ravel()
        return {"game": out[:, 0], "seat": out[:, 1], "score": out[:, 2], "win": win,
                "illegal": out[:, 3]}

    def replay(self, prepared, game_index) -> list:
        cols = self.play_chunk(prepared, game_index, 1)
        return [f"game {game_index}: scores {list(cols['score'])}"]


SPEC = PickSpec()


def register() -> None:
    """Make `pick` known to sim.registry in this process (next to the real games)."""
    from sim import registry
    if "pick" not in {g.name for g in registry.list_games()}:
        registry.register(SPEC)


if __name__ == "__main__":
    register()
    from scripts.cli import main
    sys.exit(main(sys.argv[1:]))
