"""Turning the strategy names a user typed into what the compiled loop needs.

Generic: knows nothing about any game. A game's `prepare` calls `resolve_strategies` with its
built-in catalog (`spec.strategy_catalog()`), and gets back per seat an integer id and a row
of float parameters.

A strategy name is one of:
  * a built-in name from the catalog ("random", "greedy", "planner", ...);
  * a named variant from a TOML variants file, a built-in with other parameter values:

        [variants.cautious]
        base = "planner"
        params = { risk = 0.2 }
        description = "optional text"

  * `path/to/file.py:function`, a user's own @njit strategy, or `NAME=path/to/file.py:function`
    to give it a short display name. It gets a negative id (-1, -2, ... one per distinct file
    and function) and the engine loads it in each worker (sim/user_files.py). Its display
    name (NAME, else the function's name) is what logs, summaries, reports and figures show;
    the file's absolute path stays in the manifest (`source`, `user_strategies`). A path
    starting with `@examples/` is a file of the toolkit's own docs/examples folder, so that
    the documented examples run from any folder.

A user strategy may play a built-in with that built-in's default parameters: `builtin(catalog,
name)` gives the built-in's id and default parameter row as module-level constants that the
user's @njit function passes to the game's `choose_builtin_nb` (docs/examples/greedy_seller.py).

Built-ins of one game share one parameter vector length (the longest `params` list of the
catalog); shorter ones are padded with 0.0.

Ids and the dispatcher (sim/harness.py): a game's built-ins have ids 0, 1, 2, ...; user
functions -1, -2, ...; search players (strategies/search.py, listed in a template game's
catalog) ids >= sim.harness.SEARCH_BASE. The compiled dispatcher counts any other id as an
illegal answer (option 0 is played): an id is never silently played by a built-in.
"""
from __future__ import annotations

import math
import os
import re

from sim.game_api import ToolkitError
from sim.user_files import load_user_function
from strategies.params import n_params_of, param_list as _param_list  # noqa: F401 (n_params_of: a name of this module)

try:  # python >= 3.11
    import tomllib as _toml
except ModuleNotFoundError:  # pragma: no cover - python 3.10
    import tomli as _toml  # type: ignore[no-redef]


# --- search players (strategies/search.py) -------------------------------------------------
# A search entry ("search": True) has strategy-valued parameters (`strategy_params`: the
# rollout policy), given in a variants file as a built-in's name and stored as its id, and
# hidden slots filled here: the number of players and the rollout policy's own parameter row.
def _plain_builtins(catalog: list) -> dict:
    return {e["name"]: e for e in catalog if not e.get("search")}


def _strategy_value(value, catalog: list):
    """A strategy-valued parameter: a built-in's name (or id) -> its id; None if unknown."""
    plain = _plain_builtins(catalog)
    if isinstance(value, str):
        return float(plain[value]["id"]) if value in plain else None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    ids = {int(e["id"]) for e in plain.values()}
    return float(value) if float(value).is_integer() and int(value) in ids else None


def _fill_search_row(row, entry: dict, catalog: list, n_players: int) -> None:
    """The hidden slots of a search player's parameter row (strategies/search.py)."""
    from strategies.search_catalog import P_NPLAYERS, P_ROLL_PARAMS, P_ROLLOUT
    row[P_NPLAYERS] = n_players
    rollout_id = int(row[P_ROLLOUT])
    plain = {int(e["id"]): e for e in _plain_builtins(catalog).values()}
    for k, (_, default, _) in enumerate(_param_list(plain[rollout_id])):
        row[P_ROLL_PARAMS + k] = default


def _shown_param(entry: dict, pname: str, value: float, catalog: list) -> str:
    if pname in entry.get("strategy_params", ()):
        for e in _plain_builtins(catalog).values():
            if float(e["id"]) == float(value):
                return e["name"]
    return f"{value:g}"


_DISPLAY = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.\-+ ]*")
EXAMPLES_PREFIX = "@examples/"
EXAMPLES_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                            "docs", "examples")


def split_user_strategy(name: str):
    """`[NAME=]path/to/file.py:function` -> (display name or None, path, function), or None
    when `name` is not a user strategy."""
    display = None
    head, sep, rest = name.partition("=")
    if sep and _DISPLAY.fullmatch(head.strip()) and "/" not in head and not head.strip().endswith(".py"):
        display, name = head.strip(), rest.strip()
    if ":" not in name:
        return None
    path, func = name.rsplit(":", 1)
    if not (path.endswith(".py") and func):
        return None
    if path.startswith(EXAMPLES_PREFIX):
        path = os.path.join(EXAMPLES_DIR, path[len(EXAMPLES_PREFIX):])
    return display, path, func


def is_user_strategy(name: str) -> bool:
    """True for `[NAME=]path/to/file.py:function`."""
    return split_user_strategy(name) is not None


def builtin(catalog: list, name: str):
    """(id, default parameter row) of the built-in `name` of a game's catalog, for a user
    strategy that plays it: bind both at module level, then inside the @njit function call
    `choose_builtin_nb(ID, PARAMS, tables, s, seat, decision, options, n_options, ctx, keep)`
    (numba freezes a module-level array as a constant). The row is the one a seat playing
    that built-in gets, padded like every row of the game."""
    # the search players (mcts, flatmc) are not reachable through choose_builtin_nb: they are
    # dispatched by the harness (ids >= SEARCH_BASE), so a user strategy cannot delegate to one
    entries = _plain_builtins(catalog)
    if name not in entries:
        search = [e["name"] for e in catalog if e.get("search")]
        why = (f"'{name}' is a search player, which a strategy cannot call"
               if name in search else f"no built-in strategy '{name}'")
        raise ToolkitError(f"{why}; built-in strategies: {', '.join(entries)}")
    import numpy as np   # imported here: listing a catalog needs no numpy (instant CLI)
    row = np.zeros(n_params_of(list(entries.values())), dtype=np.float64)
    for k, (_, default, _) in enumerate(_param_list(entries[name])):
        row[k] = default
    return int(entries[name]["id"]), row


# --- variants files -------------------------------------------------------------------------
VARIANT_KEYS = ("base", "params", "description")


def _read_variants_toml(variants_file: str) -> dict:
    """The parsed TOML of a variants file; a missing, unreadable or malformed file is one line."""
    shown = variants_file
    if not os.path.isfile(variants_file):
        raise ToolkitError(f"variants file {shown}: not found")
    try:
        with open(variants_file, "rb") as fh:
            return _toml.load(fh)
    except _toml.TOMLDecodeError as exc:
        raise ToolkitError(f"variants file {shown}: not valid TOML: {exc}") from None
    except OSError as exc:
        raise ToolkitError(f"variants file {shown}: cannot be read: {exc.strerror}") from None


def _variants_section(data: dict, shown: str, problems: list) -> dict:
    """The [variants.<name>] tables of a parsed file; any other top-level key is a problem
    (collected, so that the user sees every one at once), a `variants` that is not a table
    ends the reading at once."""
    for k in data:
        if k != "variants":
            problems.append(f"variants file {shown}: unknown section or key '{k}' (expected [variants.<name>] tables)")
    section = data.get("variants", {})
    if not isinstance(section, dict):
        raise ToolkitError(f"variants file {shown}: 'variants' must be a table of [variants.<name>] tables")
    return section


def _variant_base(where: str, vname: str, body, builtins: dict, problems: list):
    """The checked base strategy's name of one variant, or None (the problem is added) when the
    table, its name or its base cannot make a variant: a built-in's name, ':' or ',' would
    make the strategy names of --strategies ambiguous."""
    if not isinstance(body, dict):
        problems.append(f"{where}: must be a table with base = \"...\" and params = {{...}}")
        return None
    if vname in builtins:
        problems.append(f"{where}: has the name of a built-in strategy; choose another name")
        return None
    if is_user_strategy(vname) or ":" in vname or "," in vname:
        problems.append(f"{where}: a variant name may not contain ':' or ','")
        return None
    for key in body:
        if key not in VARIANT_KEYS:
            problems.append(f"{where}: unknown key '{key}' (allowed: base, params, description)")
    base = body.get("base")
    if base is None:
        problems.append(f"{where}: missing base = \"<built-in strategy>\" "
                        f"(one of: {', '.join(builtins)})")
        return None
    if not isinstance(base, str) or base not in builtins:
        problems.append(f"{where}: unknown base strategy '{base}' "
                        f"(built-in strategies: {', '.join(builtins)})")
        return None
    return base


def _variant_param(where: str, entry: dict, pname: str, value, catalog: list, problems: list):
    """One parameter value of a variant as the float the parameter row holds, or None (the
    problem is added): a strategy-valued parameter names a built-in (stored as its id), a
    search budget is a whole count within sim/limits.py, any other a finite number."""
    if pname in entry.get("strategy_params", ()):
        sid = _strategy_value(value, catalog)
        if sid is None:
            problems.append(f"{where}: parameter '{pname}' must name a built-in "
                            f"strategy ({', '.join(_plain_builtins(catalog))}), got "
                            f"{value!r}")
        return sid
    if pname in entry.get("counts", {}):
        from sim.limits import MAX_SEARCH_BUDGET, count
        try:
            return float(count(value, f"{where}: parameter '{pname}'", entry["counts"][pname],
                               MAX_SEARCH_BUDGET))
        except ToolkitError as exc:
            problems.extend(exc.lines)
            return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        problems.append(f"{where}: parameter '{pname}' must be a number, got {value!r}")
        return None
    if not math.isfinite(float(value)):
        problems.append(f"{where}: parameter '{pname}' must be a finite number, got {value!r}")
        return None
    return float(value)


def _variant_params(where: str, base: str, entry: dict, params_in: dict, catalog: list,
                    problems: list) -> dict:
    """Every parameter of the base strategy: its default, or the variant's checked value."""
    allowed = {p[0]: p[1] for p in _param_list(entry)}
    values = dict(allowed)
    for pname, value in params_in.items():
        if pname not in allowed:
            known = ", ".join(allowed) or "none"
            problems.append(f"{where}: unknown parameter '{pname}' for base '{base}' "
                            f"(its parameters: {known})")
            continue
        checked = _variant_param(where, entry, pname, value, catalog, problems)
        if checked is not None:
            values[pname] = checked
    return values


def load_variants(variants_file: str, catalog: list) -> dict[str, dict]:
    """Read and check a variants file: {variant name: {base, params: {name: value}, description}}.

    Every problem becomes one line naming the file, the variant and what is wrong; all of
    them are raised together, so that one run of the command shows every fix needed.
    """
    shown = variants_file
    data = _read_variants_toml(variants_file)
    builtins = {e["name"]: e for e in catalog}
    problems: list[str] = []
    section = _variants_section(data, shown, problems)
    out: dict[str, dict] = {}
    for vname, body in section.items():
        where = f"variants file {shown}: variant '{vname}'"
        base = _variant_base(where, vname, body, builtins, problems)
        if base is None:
            continue
        params_in = body.get("params", {})
        if not isinstance(params_in, dict):
            problems.append(f"{where}: params must be a table like params = {{ name = 0.5 }}")
            continue
        values = _variant_params(where, base, builtins[base], params_in, catalog, problems)
        out[vname] = {"base": base, "params": values,
                      "description": str(body.get("description", ""))}
    if problems:
        raise ToolkitError(problems)
    return out


# --- resolution ------------------------------------------------------------------------------
def _seat_names(names, n_players: int) -> list:
    """One stripped strategy name per seat, from a comma-separated string or a list; a single
    name plays every seat."""
    if isinstance(names, str):
        names = [n for n in names.split(",")]
    names = [str(n).strip() for n in names]
    if not names:
        raise ToolkitError("no strategy given")
    if any(not n for n in names):
        raise ToolkitError(f"empty strategy name in '{','.join(names)}'")
    if len(names) == 1:
        return names * n_players
    if len(names) != n_players:
        raise ToolkitError(f"{len(names)} strategies given for {n_players} players; "
                           f"give one per seat or a single one for all seats")
    return names


def _seat_plays(ids, params, seat: int, entry: dict, values: list, catalog: list,
                n_players: int) -> None:
    """Seat `seat` plays the catalog entry `entry` with `values` (in the entry's parameter
    order); a search player also gets its hidden slots (_fill_search_row)."""
    ids[seat] = int(entry["id"])
    for k, value in enumerate(values):
        params[seat, k] = value
    if entry.get("search"):
        _fill_search_row(params[seat], entry, catalog, n_players)


def _user_seat(name: str, seat: int, ids, user_strategies: list, problems: list) -> dict:
    """A seat playing a user's function: its id is -(k+1) for the k-th distinct (file,
    function), so that two seats playing one function share it. The function is loaded here
    so that a file that does not compile is reported before any game; then the seat's info
    is {} and the problem is added."""
    display, path, func = split_user_strategy(name)
    display = display or func
    abspath = os.path.abspath(path)
    try:
        load_user_function(abspath, func)
    except ToolkitError as exc:
        problems.extend(f"strategy '{name}': {line}" for line in exc.lines)
        return {}
    key = (abspath, func)
    if key not in user_strategies:
        user_strategies.append(key)
    ids[seat] = -(user_strategies.index(key) + 1)
    return {"name": display, "base": func, "params": {}, "source": f"user:{abspath}"}


def _unknown_strategy(name: str, seat: int, builtins: dict, variants: dict,
                      variants_file: str | None) -> str:
    """The line for a name that is no built-in, variant or user strategy: it lists what the
    seat could have played, and the form of a user strategy when the name looks like one."""
    msg = f"unknown strategy '{name}' for seat {seat}; built-in strategies: {', '.join(builtins)}"
    if variants:
        msg += f"; variants in {variants_file}: {', '.join(variants)}"
    if ":" in name and not is_user_strategy(name):
        msg += "; a user strategy is written path/to/file.py:function"
    return msg


def _distinct_problems(problems: list) -> list:
    """One line per distinct problem: the same unknown name on several seats is said once."""
    seen, lines = set(), []
    for p in problems:
        key = p.split(" for seat ")[0] if p.startswith("unknown strategy") else p
        if key not in seen:
            seen.add(key)
            lines.append(p)
    return lines


def _rows_without_search_slots(params, info: list, builtins: dict, catalog: list):
    """When no seat plays a search player, the rows are cut to the built-ins' own width: the
    parameter rows, and so the run id, of a run of built-ins do not depend on whether the
    catalog lists search players."""
    import numpy as np
    if any(catalog_entry.get("search") for catalog_entry in
           (builtins.get(i.get("base")) or {} for i in info if i)):
        return params
    return np.ascontiguousarray(params[:, :n_params_of(list(_plain_builtins(catalog).values()))])


def resolve_strategies(catalog: list, names: list, n_players: int,
                       variants_file: str | None = None):
    """Resolve per-seat strategy names.

    Returns (ids int64[n_players], params float64[n_players, n_params], info, user_strategies):
      info: per seat {"name", "base", "params": {name: value}, "source"} with source
            "builtin", "variant:<file>" or "user:<abs path>";
      user_strategies: [(abs path, function name)], the strategy with id -(k+1) at index k.
    The problems of all the seats are raised together, one line each.
    """
    names = _seat_names(names, n_players)
    import numpy as np
    builtins = {e["name"]: e for e in catalog}
    n_params = n_params_of(catalog)
    variants = load_variants(variants_file, catalog) if variants_file else {}

    ids = np.zeros(n_players, dtype=np.int64)
    params = np.zeros((n_players, n_params), dtype=np.float64)
    info: list[dict] = []
    user_strategies: list[tuple[str, str]] = []
    problems: list[str] = []

    for seat, name in enumerate(names):
        if name in builtins:
            entry = builtins[name]
            plist = _param_list(entry)
            _seat_plays(ids, params, seat, entry, [default for _, default, _ in plist], catalog,
                        n_players)
            info.append({"name": name, "base": name,
                         "params": {p[0]: p[1] for p in plist}, "source": "builtin"})
        elif name in variants:
            v = variants[name]
            entry = builtins[v["base"]]
            _seat_plays(ids, params, seat, entry,
                        [v["params"][pname] for pname, _, _ in _param_list(entry)], catalog,
                        n_players)
            info.append({"name": name, "base": v["base"], "params": dict(v["params"]),
                         "source": f"variant:{variants_file}"})
        elif is_user_strategy(name):
            info.append(_user_seat(name, seat, ids, user_strategies, problems))
        else:
            problems.append(_unknown_strategy(name, seat, builtins, variants, variants_file))
            info.append({})
    problems.extend(_display_clashes(info, builtins, variants))
    if problems:
        raise ToolkitError(_distinct_problems(problems))
    params = _rows_without_search_slots(params, info, builtins, catalog)
    return ids, params, info, user_strategies


def _display_clashes(info: list, builtins: dict, variants: dict) -> list:
    """A display name must name one strategy: two user functions, or a user function and a
    built-in / variant, shown under one name would be merged in every table."""
    shown: dict = {}
    out = []
    for i in info:
        if not i:
            continue
        who = i["source"] + ":" + i["base"] if i["source"].startswith("user:") else i["name"]
        shown.setdefault(i["name"], set()).add(who)
    for name, who in shown.items():
        users = sorted(w[len("user:"):] for w in who if w.startswith("user:"))
        if not users:
            continue
        if len(who) > 1 or name in builtins or name in variants:
            out.append(f"two strategies would be shown as '{name}' ({', '.join(sorted(who))}"
                       f"{', a built-in' if name in builtins else ''}"
                       f"{', a variant' if name in variants else ''}); give the user strategy "
                       f"its own name: NAME=path/to/file.py:function")
    return out


def describe_catalog(catalog: list) -> list[str]:
    """Human-readable lines for `balance strategies GAME`."""
    lines = []
    for e in catalog:
        lines.append(f"{e['name']}  (id {e['id']})")
        if e.get("description"):
            lines.append(f"    {e['description']}")
        plist = _param_list(e)
        if plist:
            for pname, default, help_ in plist:
                shown = _shown_param(e, pname, default, catalog)
                lines.append(f"    {pname} = {shown}    {help_}".rstrip())
        else:
            lines.append("    (no parameters)")
        lines += [f"    {line}" for line in measured_lines(e)]
    return lines


def measured_lines(entry: dict) -> list[str]:
    """The measurements behind a game's search defaults (sim.game_api.Measured): the win
    share, its wins and games, and the time per game where and when it was measured, then the
    command that played it. The listing stays light (no scipy or statsmodels): the measurement's Wilson
    interval is in docs/search-players.md, and tests/test_search_defaults.py checks that
    every declared measurement's interval excludes the fair share."""
    from sim.formatting import fair_share, share
    out = []
    for m in entry.get("measured", ()):
        seat = "" if m.players == 2 else ", one search seat"
        out.append(f"measured: {share(m.wins / m.games)} ({m.wins:g} wins of {m.games:,} games) "
                   f"against {m.against} at {m.players} players{seat} (fair "
                   f"{fair_share(1.0 / m.players)}), seats rotated; {m.seconds_per_game:g} s "
                   f"a game on 1 worker ({m.date}{', ' + m.where if m.where else ''})")
        if m.command:   # how: the command that played it (a variant's file: the docs page)
            out.append(f"  played by: {m.command}" + (" (its variants: docs/search-players.md)"
                                                      if "--variants" in m.command else ""))
    return out
