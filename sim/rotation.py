"""Seat rotation (`balance run --rotate-seats`): every strategy sits in every seat equally
often, on shared deals, inside one ordinary run folder.

A run with fixed seats cannot tell a seat's advantage from the strength of the strategy that
always sits there. Rotation plays every distinct seating of the run's strategies (the
seatings of `seatings` (below), the set `balance compare` plays, restricted to the run's
own strategies: every permutation of the seat list, two seats with the same strategy being
interchangeable) and plays each deal under every seating, as `compare` does with one sub-run
per seating on the same seed (common random numbers):

    game index g  ->  deal d = g // S  and seating r = g % S      (S seatings)

The engine plays deal d (its randomness depends on (seed, d) only) with the strategies
permuted as seating r says. So the S games d*S .. d*S+S-1 are the same deal under every
seating, game d*S (seating 0 keeps the strategies in their seats) is game d of the run
without rotation, a game's content depends only on (seed, g) whatever the workers or the
chunking, and the logs' `strategy` column is the strategy that sat in that seat in that game.
The number of games is a whole number of rotations (the command line rounds it up), so each
strategy sits in each seat exactly equally often.
"""
from __future__ import annotations

import dataclasses
import itertools

import numpy as np

from sim.game_api import GameSpec, Prepared, ToolkitError


def seatings(strategies: list, players: int) -> list:
    """All assignments of strategies to seats that use min(k, players) distinct strategies.
    The set is closed under permuting seats and under permuting strategies, so each strategy
    sits in each seat equally often, and meets each other strategy equally often."""
    k = len(strategies)
    if k < 1:
        raise ToolkitError("compare needs at least one strategy")
    if len(set(strategies)) != k:
        raise ToolkitError("compare: strategy names must be distinct (define a copy in a variants "
                           "file to compare a strategy with itself)")
    need = min(k, players)
    out = []
    for combo in itertools.product(range(k), repeat=players):
        if len(set(combo)) == need:
            out.append(tuple(strategies[i] for i in combo))
    return out


def seat_rotations(strategy_names: list) -> list:
    """The distinct seatings of a run's per-seat strategies, the run's own seating first:
    lists giving for every seat the index (in `strategy_names`) of the strategy sitting
    there. The set is closed under permuting seats, so each strategy sits in each seat
    equally often (a strategy named for k seats, k times as often as one named once)."""
    players = len(strategy_names)
    out, seen = [], set()
    for perm in seatings(list(range(players)), players):   # every permutation, identity first
        key = tuple(strategy_names[i] for i in perm)
        if key not in seen:
            seen.add(key)
            out.append(list(perm))
    return out


def rotated(prepared: Prepared) -> Prepared:
    """`prepared` with seat rotation over all its distinct seatings."""
    return dataclasses.replace(prepared, rotation=seat_rotations(list(prepared.strategy_names)))


def whole_rotations(n_games: int, prepared: Prepared) -> int:
    """`n_games` rounded up to a whole number of rotations (every seating equally often)."""
    s = len(prepared.rotation or [[0]])
    return -(-int(n_games) // s) * s


def seated(prepared: Prepared, r: int) -> Prepared:
    """The plain (unrotated) configuration of seating r: per-seat strategies permuted."""
    perm = list(prepared.rotation[r])
    ids = np.asarray(prepared.strategy_ids)
    params = np.asarray(prepared.strategy_params)
    return dataclasses.replace(
        prepared, rotation=None,
        strategy_names=[prepared.strategy_names[i] for i in perm],
        strategy_ids=np.ascontiguousarray(ids[perm]),
        strategy_params=np.ascontiguousarray(params[perm]),
        strategy_info=[prepared.strategy_info[i] for i in perm])


def deal_of(prepared: Prepared, game_index: int) -> tuple[int, int]:
    """(deal played, seating) of a game index of the run."""
    s = len(prepared.rotation or [[0]])
    return int(game_index) // s, int(game_index) % s


def strategy_codes(prepared: Prepared) -> list:
    """The strategy names in the code order of the logs' `strategy` dictionary column."""
    return sorted(set(str(n) for n in prepared.strategy_names))


def play_chunk(spec: GameSpec, prepared: Prepared, first: int, n: int) -> dict:
    """Games first..first+n-1 of the run, rotated or not, as `spec.play_chunk` returns them,
    plus, for a rotated run, a `strategy` column (codes into `strategy_codes`)."""
    if not prepared.rotation:
        return spec.play_chunk(prepared, first, n)
    S = len(prepared.rotation)
    P = int(prepared.n_players)
    uniq = strategy_codes(prepared)
    parts = []
    for r in range(S):
        # the deals d whose game d*S + r lies in [first, first + n)
        d0 = -(-(first - r) // S)
        d1 = -(-(first + n - r) // S)
        if d1 <= d0:
            continue
        one = seated(prepared, r)
        cols = dict(spec.play_chunk(one, d0, d1 - d0))
        cols["game"] = np.asarray(cols["game"]).astype(np.int64) * S + r
        codes = np.array([uniq.index(str(s)) for s in one.strategy_names], dtype=np.int32)
        cols["strategy"] = np.tile(codes, d1 - d0)
        parts.append(cols)
    names = list(parts[0])
    merged = {k: np.concatenate([np.asarray(p[k]) for p in parts]) for k in names}
    order = np.argsort(merged["game"] * P + np.asarray(merged["seat"]).astype(np.int64),
                       kind="stable")
    return {k: v[order] for k, v in merged.items()}


def replay(spec: GameSpec, prepared: Prepared, game_index: int) -> list:
    """The turn-by-turn trace of game `game_index` of the run, as it was logged: a rotated
    run's game is its deal played under its seating (said on a first line)."""
    if not prepared.rotation:
        return spec.replay(prepared, game_index)
    d, r = deal_of(prepared, game_index)
    one = seated(prepared, r)
    seats = ", ".join(f"seat {p + 1} {n}" for p, n in enumerate(one.strategy_names))
    head = (f"game {game_index} of a seat-rotated run: deal {d} played under seating "
            f"{r + 1} of {len(prepared.rotation)} ({seats}); the trace below numbers the "
            f"game by its deal")
    return [head, *spec.replay(one, d)]
