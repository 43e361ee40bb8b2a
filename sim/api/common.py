"""What every API call shares: argument checks (the CLI's messages), names, folders."""
from __future__ import annotations

import datetime as _dt
import os

from sim import limits
from sim.game_api import ToolkitError


def players_for(spec, requested) -> int:
    """The player count: 4 within the game's range when not given; one line if out of range
    or not a whole number."""
    if requested is None:
        return min(max(4, spec.min_players), spec.max_players)
    if not limits.is_whole(requested):
        raise ToolkitError(f"--players must be a whole number, got {requested!r}")
    if not spec.min_players <= requested <= spec.max_players:
        raise ToolkitError(f"{spec.name} is played by {spec.min_players} to {spec.max_players} "
                           f"players, got --players {requested}")
    return int(requested)


def strategy_list(spec, strategies, every_builtin: bool = False) -> list:
    """`strategies` as a list (a list, or the CLI's comma-separated text). None: every built-in
    (compare) or the game's declared default in every seat."""
    if strategies is None:
        if every_builtin:
            # the built-ins: a search player (strategies/search.py) costs thousands of
            # playouts per decision and is compared only when named
            return [c["name"] for c in spec.strategy_catalog() if not c.get("search")]
        return [spec.default_strategy_name()]
    if isinstance(strategies, str):
        return [n.strip() for n in strategies.split(",") if n.strip()]
    return [str(n) for n in strategies]


def overrides(set_) -> tuple:
    """`set=` as the CLI's --set texts: a dict {path: value} (values as Python/TOML values) or
    an iterable of 'PATH=VALUE' texts."""
    if set_ is None:
        return ()
    if isinstance(set_, str):
        return (set_,)
    if isinstance(set_, dict):
        from sim.designer import format_value
        return tuple(f"{k}={v if isinstance(v, str) and _is_toml(v) else format_value(v)}"
                     for k, v in set_.items())
    return tuple(str(x) for x in set_)


def _is_toml(text: str) -> bool:
    """A str value in a set= dict is taken as TOML text when it parses as one ('5', 'true',
    '"seat"'); a bare word ('seat') is a string."""
    from sim.overrides import parse_value
    try:
        parse_value(text)
        return True
    except ValueError:
        return False


def vary_list(vary) -> list:
    """`vary=` as the CLI's --vary texts: a dict {path: values} (a list of values or the text
    '2..7') or an iterable of 'PATH=VALUES' texts."""
    if isinstance(vary, str):
        return [vary]
    if isinstance(vary, dict):
        from sim.designer import format_value
        out = []
        for k, v in vary.items():
            text = v if isinstance(v, str) else ",".join(format_value(x) for x in v)
            out.append(f"{k}={text}")
        return out
    return [str(x) for x in vary]


def check_common(spec, players, games, seed, components=None, variants=None, precision=None,
                 max_games=None, workers=None, chunk_size=None) -> int:
    """Every problem with the common options, all at once (one line each), before anything
    is built or written; the numbers by sim/limits.py. Returns players."""
    n_players = []
    problems = limits.problems(
        lambda: n_players.append(players_for(spec, players)),
        lambda: limits.check_games(games),
        lambda: limits.check_workers(workers),
        lambda: chunk_size is None or limits.count(chunk_size, "--chunk-size", 1, limits.MAX_GAMES),
        lambda: limits.check_precision(precision),
        lambda: max_games is None or limits.check_games(max_games, "--max-games"),
        lambda: limits.check_seed(seed),
        lambda: limits.check_plan(games, chunk_size),
        lambda: limits.check_plan(max_games, chunk_size))
    if not problems and max_games is not None and max_games < games:
        problems.append(f"--max-games ({max_games}) must be at least --games ({games})")
    if components is not None and not os.path.isfile(components):
        problems.append(f"component file {components}: not found")
    if variants is not None and not os.path.isfile(variants):
        problems.append(f"variants file {variants}: not found")
    if problems:
        raise ToolkitError(problems)
    return n_players[0]


def default_out(spec, kind: str | None = None) -> str:
    """runs/<game>-<time> (a run) or runs/<kind>-<game>-<time>, as the CLI names them."""
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    return os.path.join("runs", f"{kind}-{spec.name}-{stamp}" if kind else f"{spec.name}-{stamp}")


def temporary_out(kind: str) -> str:
    """out=None in the API: a fresh temporary folder (the caller may delete it)."""
    import tempfile
    return tempfile.mkdtemp(prefix=f"balance-{kind}-")


def echo_to(echo):
    """The `echo` argument: None (silent), a callable taking one line, or a file."""
    if echo is None:
        return lambda line="": None
    if callable(echo):
        return echo
    return lambda line="": print(line, file=echo)
