"""The search players (strategies/search.py) as the toolkit lists them: their ids, parameter
slots and catalog entries. Plain Python, no numba: `balance strategies GAME` and a run's
preparation read it without compiling; the compiled players import these names.
"""
from __future__ import annotations

# Search ids: the harness's dispatcher sends every id >= SEARCH_BASE here. Must equal
# sim.harness.SEARCH_BASE (tests/test_search_players.py checks it).
SEARCH_BASE = 1000
FLATMC = SEARCH_BASE + 0
MCTS = SEARCH_BASE + 1

P_BUDGET = 0
P_ROLLOUT = 1
P_C = 2
P_DEPTH = 3
P_WIDEN = 4
F_CANDIDATES = 2   # flatmc's third slot (flatmc has no c)
F_MARGIN = 3       # flatmc's fourth slot
P_RANKED = 5
P_CANDIDATES = 6
P_MARGIN = 7
P_TREE = 8
P_WORLDS = 9
P_NPLAYERS = 10
P_ROLL_PARAMS = 11
N_SEARCH_PARAMS = P_ROLL_PARAMS   # the search's own slots; the rollout's row follows


def search_catalog(random_id: int = 0) -> list:
    """The catalog entries of the search players (added to every template game's catalog by
    strategies.registry.with_search). `rollout` is a strategy-valued parameter: its default
    is the game's `random` built-in and a variants file may name any built-in."""
    return [
        {"name": "flatmc", "id": FLATMC, "search": True,
         "description": "Flat Monte Carlo: for each legal option (or the rollout policy's "
                        "`candidates` first choices), `rollouts` playouts with the rollout "
                        "policy, each from a determinization of the seat's information set; "
                        "takes the best mean value.",
         "params": [("rollouts", 16.0, "playouts per legal option"),
                    ("rollout", float(random_id), "rollout policy: a built-in of the game"),
                    ("candidates", 0.0, "0: every legal option, each on its own worlds; k > 0: "
                                        "only the rollout policy's k first choices, all "
                                        "played on the same worlds, ties to the policy's "
                                        "preference"),
                    ("margin", 0.0, "share of a finished playout's value given by the game's "
                                    "evaluate_nb (its score lead) instead of the win share: "
                                    "a denser signal (0 = win share only)")],
         "strategy_params": ("rollout",),
         # whole-number parameters and their least values (at most limits.MAX_SEARCH_BUDGET)
         "counts": {"rollouts": 1, "candidates": 0}},
        {"name": "mcts", "id": MCTS, "search": True,
         "description": "Information-set MCTS (UCT over a determinization of the seat's "
                        "information set at every iteration, one tree keyed by option codes); "
                        "plays the most visited option (with worlds > 0: the policy's choice "
                        "unless another root option beats it on their shared worlds).",
         "params": [("iterations", 200.0, "iterations (playouts) per decision"),
                    ("rollout", float(random_id), "rollout policy: a built-in of the game"),
                    ("c", 0.7, "UCB1 exploration constant (values are win shares in [0, 1])"),
                    ("depth", 0.0, "decisions below the root after which a playout is valued "
                                   "by the game's heuristic (0 = play to the end)"),
                    ("widening", 0.0, "progressive widening: at most widening * sqrt(visits) "
                                      "children per node (0 = off)"),
                    ("ranked", 0.0, "1: new children in the rollout policy's order of "
                                    "preference (its choice among the untried options); 0: "
                                    "its choice first, then at random"),
                    ("candidates", 0.0, "at most this many children per node (0 = no cap); "
                                        "with ranked = 1, the rollout policy's first choices"),
                    ("margin", 0.0, "share of a finished playout's value given by the game's "
                                    "evaluate_nb (its score lead) instead of the win share: "
                                    "a denser signal (0 = win share only)"),
                    ("tree", 0.0, "decisions below the root the tree may hold (0 = no limit; "
                                  "1 = a bandit over the root's children, the rollout policy "
                                  "plays every later decision)"),
                    ("worlds", 0.0, "0: a fresh world per iteration; W > 0: W worlds drawn "
                                    "once per decision, the k-th visit of every root child in "
                                    "world k mod W, and the policy's first choice kept unless "
                                    "another root child beats it on their shared worlds")],
         "strategy_params": ("rollout",),
         "counts": {"iterations": 1, "depth": 0, "candidates": 0, "tree": 0, "worlds": 0}},
    ]


GENERIC_SUFFIX = "-generic"   # `mcts-generic`, `flatmc-generic`: the generic defaults


def catalog_for(spec) -> list:
    """The search players' catalog entries for a template game (sim/compiled_game.py appends
    them to the game's built-ins): the rollout default is the game's `random` built-in, and
    the row width leaves room for the rollout policy's own parameter row.

    A game that declares its own defaults (`spec.search_defaults`, sim.game_api.SearchDefault:
    the configurations measured to beat its strongest built-in) gets them as the defaults of
    `mcts` / `flatmc`, with the measurements in the entry (`measured`); the generic defaults
    stay reachable as `mcts-generic` / `flatmc-generic` (same ids, other parameter rows)."""
    cat = spec.catalog_module()
    builtins = list(cat.CATALOG)
    ids = {e["name"]: int(e["id"]) for e in builtins}
    random_id = ids.get("random", min(ids.values()) if ids else 0)
    from strategies.params import n_params_of
    width = P_ROLL_PARAMS + max(int(getattr(cat, "N_PARAMS", 0)), n_params_of(builtins))
    generic = search_catalog(random_id)
    declared = dict(getattr(spec, "search_defaults", None) or {})
    unknown = sorted(set(declared) - {e["name"] for e in generic})
    if unknown:
        raise ValueError(f"{spec.name}: search_defaults names no search player: {unknown}")
    out = [_with_game_defaults(e, declared[e["name"]], ids, spec.title or spec.name)
           if e["name"] in declared else e for e in generic]
    for e in generic:
        out.append({**e, "name": e["name"] + GENERIC_SUFFIX,
                    "description": f"{e['name']} with the generic defaults, the same for every "
                                   f"game (as `{e['name']}` was before games declared their "
                                   f"own). " + e["description"]})
    for e in out:
        e["row_width"] = width
    return out


def _with_game_defaults(entry: dict, default, ids: dict, game: str) -> dict:
    """`entry` (a generic search catalog entry) with the game's declared parameter values as
    its defaults; the rollout policy is declared by a built-in's name."""
    params = dict(default.params)
    names = [p[0] for p in entry["params"]]
    bad = sorted(set(params) - set(names))
    if bad:
        raise ValueError(f"{game}: search_defaults['{entry['name']}'] has unknown parameters "
                         f"{bad} (its parameters: {', '.join(names)})")
    rows = []
    for pname, value, help_ in entry["params"]:
        if pname in params:
            v = params[pname]
            if pname in entry.get("strategy_params", ()):
                if v not in ids:
                    raise ValueError(f"{game}: search_defaults['{entry['name']}']: '{pname}' "
                                     f"must name a built-in of the game, got {v!r}")
                v = ids[v]
            value = float(v)
        rows.append((pname, value, help_))
    return {**entry, "params": rows, "measured": tuple(default.measured),
            "game_defaults": True, "generic": entry["name"] + GENERIC_SUFFIX,
            "description": entry["description"] + f" Defaults: the game's own ({game}; "
                           f"measured below); the generic defaults are "
                           f"`{entry['name']}{GENERIC_SUFFIX}`." +
                           (f" {default.note}" if default.note else "")}
