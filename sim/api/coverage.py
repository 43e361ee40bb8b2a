"""coverage: the share of each card type's cards that each player ever chooses
(`balance strategies GAME --coverage`; the statistic: analysis/coverage.py).

Two sources:
  * played (default): each built-in of the game (or the `strategies` named) in every seat,
    `games` games each on the same seed, all in one pool of workers; the result folder works
    like compare's (sub-runs `point-NN`, the plan `designer.json`: the same call resumes,
    another needs overwrite=True, a folder of other files is refused), a temporary folder
    when out=None;
  * a run folder (`run`): the strategies of that run, on its games (a compare's or a
    ladder's sub-run, or any `balance run` folder).
"""
from __future__ import annotations

import os
from dataclasses import dataclass

from sim.api.common import check_common, echo_to, overrides
from sim.api.folders import claim_root, result_root
from sim.game_api import ToolkitError

DEFAULT_GAMES = 500          # per built-in: a few seconds of play for every heuristic


@dataclass
class CoverageResult:
    """.table (DataFrame, analysis/coverage.py: strategy, type, label, cards, taken,
    coverage, seat_games, never), .game, .title, .players, .games (per strategy, played; None
    for a run read), .strategies, .source ('played' or the run folder read), .path;
    .text() the terminal lines."""
    table: object
    game: str
    title: str
    players: int
    games: int | None
    strategies: list
    source: str
    path: str | None = None
    temporary: bool = False

    def text(self) -> str:
        from reports.coverage import coverage_text
        return coverage_text(self)


def coverage(game: str, players: int | None = None, games: int = DEFAULT_GAMES, seed: int = 1,
             out: str | None = None, *, run: str | None = None, strategies=None, set=None,
             components: str | None = None, workers: int | None = None,
             overwrite: bool = False, progress: bool = False, echo=None) -> CoverageResult:
    """Card coverage of the game's players: with `run`, of the strategies of that run folder;
    else each built-in (or each of `strategies`, a list or comma text) in every seat for
    `games` games at `players` players (default 4 within the game's range), seed `seed`."""
    from analysis.coverage import run_coverage
    from sim.registry import get_game

    spec = get_game(game)
    if run is not None:
        return _of_run(spec, run)
    say = echo_to(echo)
    set_ = overrides(set)
    n_players = check_common(spec, players, games, seed, components, workers=workers)
    names = _strategies(spec, strategies)
    comp = spec.load_components(components, set_)
    root, temporary = result_root(out, spec, "coverage")
    plan = {"kind": "coverage", "game": spec.name, "players": n_players, "strategies": names,
            "games": games, "seed": seed, "components": components, "overrides": list(set_)}
    claim_root(root, plan, overwrite)
    from sim import designer
    configs = [{"prepared": spec.prepare(comp, n_players, [name], seed),
                "dir": designer.sub_dir(root, "point", k)} for k, name in enumerate(names)]
    say(f"coverage: {spec.title}, {n_players} players: {', '.join(names)}, each in every seat, "
        f"{games:,} games each (seed {seed})")
    designer.run_configs(spec, configs, games, seed, root, workers=workers, progress=progress,
                         by="seat")
    import pandas as pd
    from sim.run_folder import open_run
    table = pd.concat([run_coverage(open_run(c["dir"])) for c in configs], ignore_index=True)
    designer.write_plan(root, {**plan, "result": {"games": games}})
    return CoverageResult(table, spec.name, spec.title, n_players, games, names, "played",
                          root, temporary)


def _strategies(spec, strategies) -> list:
    """The strategies to play: every built-in but the search players, or those named (each a
    built-in or a search player of the game: one line naming the unknown ones)."""
    catalog = spec.strategy_catalog()
    if strategies is None:
        return [e["name"] for e in catalog if not e.get("search")]
    names = ([s.strip() for s in strategies.split(",")] if isinstance(strategies, str)
             else [str(s) for s in strategies])
    known = [e["name"] for e in catalog]
    bad = [n for n in names if n not in known]
    if bad or not names:
        raise ToolkitError(f"--coverage: unknown strategy {', '.join(map(repr, bad))} for "
                           f"{spec.name} (its strategies: {', '.join(known)})" if bad else
                           "--coverage: no strategy given")
    return list(dict.fromkeys(names))


def _of_run(spec, run: str) -> CoverageResult:
    from analysis.coverage import run_coverage
    from sim.run_folder import open_run, read_manifest

    manifest = read_manifest(run)
    if manifest.get("game") != spec.name:
        raise ToolkitError(f"{run} holds a run of {manifest.get('game')}, not {spec.name}")
    table = run_coverage(open_run(run))
    return CoverageResult(table, spec.name, spec.title, int(manifest["players"]), None,
                          list(dict.fromkeys(manifest.get("strategy_names") or [])),
                          os.path.abspath(run), os.path.abspath(run))
