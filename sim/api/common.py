"""What every API call shares: argument checks (the CLI's messages), names, folders."""
from __future__ import annotations

import datetime as _dt
import os

from sim.game_api import ToolkitError


def players_for(spec, requested) -> int:
    """The player count: 4 within the game's range when not given; one line if out of range."""
    if requested is None:
        return min(max(4, spec.min_players), spec.max_players)
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
    """Every problem with the common options, all at once (one line each); returns players."""
    problems = []
    n_players = None
    try:
        n_players = players_for(spec, players)
    except ToolkitError as exc:
        problems.extend(exc.lines)
    if games < 1:
        problems.append(f"--games must be at least 1, got {games}")
    if workers is not None and workers < 1:
        problems.append(f"--workers must be at least 1, got {workers}")
    if chunk_size is not None and chunk_size < 1:
        problems.append(f"--chunk-size must be at least 1, got {chunk_size}")
    if precision is not None and not 0 < precision < 0.5:
        problems.append(f"--precision must be between 0 and 0.5, got {precision}")
    if max_games is not None and max_games < games:
        problems.append(f"--max-games ({max_games}) must be at least --games ({games})")
    if not 0 <= seed < 2**63:
        problems.append(f"--seed must be between 0 and 2**63 - 1, got {seed}")
    if components is not None and not os.path.isfile(components):
        problems.append(f"component file {components}: not found")
    if variants is not None and not os.path.isfile(variants):
        problems.append(f"variants file {variants}: not found")
    if problems:
        raise ToolkitError(problems)
    return n_players


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
