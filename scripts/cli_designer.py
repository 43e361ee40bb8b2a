"""`balance compare`, `balance sweep`, `balance tune` and `balance run --precision`: the
designer's workflow (sim/designer.py plays, analysis/designer.py measures,
reports/designer.py reports). Registered into scripts/cli.py by `add_commands`.
"""
from __future__ import annotations

import argparse
import datetime as _dt
import math
import os
import textwrap

from sim.game_api import ToolkitError

OBJECTIVES = ("seat-fairness", "strategy-parity", "card-parity")


def _common(s, _int, games_help: str, precision: bool = True):
    s.add_argument("game")
    s.add_argument("--players", type=_int("players"), default=None,
                   help="player count (default: 4, within the game's range)")
    s.add_argument("--strategies", default=None,
                   help="comma-separated strategies (see `balance run`; default: compare "
                        "every built-in strategy of the game, sweep and tune the game's own "
                        "default strategy in every seat)")
    s.add_argument("-n", "--games", type=_int("games"), default=None, help=games_help)
    s.add_argument("--seed", type=_int("seed"), default=1, help="seed shared by every configuration")
    s.add_argument("--workers", type=_int("workers"), default=None, help="worker processes")
    s.add_argument("--out", default=None, help="output folder (sub-runs and report/)")
    s.add_argument("--components", default=None, help="component file (default: the game's own)")
    s.add_argument("--set", action="append", default=[], dest="overrides", metavar="PATH=VALUE",
                   help="override a component field for every configuration (repeatable)")
    s.add_argument("--variants", default=None, help="TOML file of named strategy variants")
    # tune plays fixed counts (trials and check): the options are refused there, unlisted
    s.add_argument("--precision", type=float, default=None,
                   help="play in batches until every headline 95%% interval is at most +/- this "
                        "(e.g. 0.005), instead of a fixed count" if precision else argparse.SUPPRESS)
    s.add_argument("--max-games", type=_int("max games"), default=None,
                   help="cap for --precision (games per configuration; default 10,000,000)"
                   if precision else argparse.SUPPRESS)
    s.add_argument("--overwrite", action="store_true",
                   help="replace a previous result of this toolkit in --out (only the files the "
                        "toolkit wrote there are removed)")
    s.add_argument("--no-progress", action="store_true", help="no progress bars")


def add_commands(sub, _int) -> dict:
    s = sub.add_parser("compare", help="compare strategies fairly: every seating, shared seeds")
    _common(s, _int, "total games over all seatings (default 100000)")

    s = sub.add_parser("sweep", help="play the same games under every value of one or more fields")
    _common(s, _int, "games per value (default 20000)")
    s.add_argument("--vary", action="append", default=[], metavar="PATH=VALUES", required=True,
                   help="field and values, e.g. 'commissions[12].points=2..7' or "
                        "'rules.wake_tie=random,seat' (several --vary: a grid)")

    from analysis.designer import OBJECTIVE_HELP
    s = sub.add_parser(
        "tune", help="search the varied values for the most balanced game",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Search the --vary values (one field or several together) for the smallest "
                    "objective, always playing\nthe current values too, then play the best "
                    "candidate and the current values again on fresh,\nshared seeds: a "
                    "suggested file is written only if the candidate is better beyond the 95%\n"
                    "interval of that paired difference.",
        epilog="objectives (which question each one answers):\n" + "\n".join(
            textwrap.fill(f"{k}: {v}", 88, initial_indent="  ", subsequent_indent="      ")
            for k, v in OBJECTIVE_HELP.items()))
    _common(s, _int, "games per trial (default 5000)", precision=False)
    s.add_argument("--vary", action="append", default=[], metavar="PATH=VALUES", required=True,
                   help="field and candidate values, e.g. 'commissions[12].points=2..9' "
                        "(several --vary: the fields are searched together)")
    s.add_argument("--objective", choices=OBJECTIVES, default="seat-fairness",
                   help="what to balance (default seat-fairness; see below)")
    s.add_argument("--trials", type=_int("trials"), default=TUNE_TRIALS,
                   help=f"values tried (default {TUNE_TRIALS}); when the varied values have at "
                        f"most this many combinations every one is played, else Optuna's TPE "
                        f"sampler chooses them")
    s.add_argument("--confirm-games", type=_int("confirm games"), default=None,
                   help="games of the check of the best candidate against the current values, "
                        "on fresh shared seeds (default: twice --games)")
    return {"compare": cmd_compare, "sweep": cmd_sweep, "tune": cmd_tune}


def add_run_options(s) -> None:
    s.add_argument("--precision", type=float, default=None,
                   help="keep playing in batches until the seat and strategy 95%% intervals are "
                        "at most +/- this (e.g. 0.005); --games is then the first batch")
    s.add_argument("--max-games", type=int, default=None,
                   help="cap for --precision (default 10,000,000)")


# ---------------------------------------------------------------------------------------
def _check(args, spec, default_games):
    from scripts.cli import _players_for
    problems = []
    players = None
    try:
        players = _players_for(spec, args.players)
    except ToolkitError as exc:
        problems.extend(exc.lines)
    games = args.games if args.games is not None else default_games
    if games < 1:
        problems.append(f"--games must be at least 1, got {games}")
    if args.precision is not None and not 0 < args.precision < 0.5:
        problems.append(f"--precision must be between 0 and 0.5, got {args.precision}")
    if args.max_games is not None and args.max_games < games:
        problems.append(f"--max-games ({args.max_games}) must be at least --games ({games})")
    if not 0 <= args.seed < 2**63:
        problems.append(f"--seed must be between 0 and 2**63 - 1, got {args.seed}")
    if args.components is not None and not os.path.isfile(args.components):
        problems.append(f"component file {args.components}: not found")
    if args.variants is not None and not os.path.isfile(args.variants):
        problems.append(f"variants file {args.variants}: not found")
    if problems:
        raise ToolkitError(problems)
    return players, games


def _root(args, spec, kind) -> str:
    root = args.out or os.path.join(
        "runs", f"{kind}-{spec.name}-{_dt.datetime.now().strftime('%Y%m%d-%H%M%S')}")
    return os.path.abspath(root)


def _claim_root(root: str, plan: dict, overwrite: bool) -> None:
    """A result folder holds one plan: the same plan resumes, another needs --overwrite, which
    removes only what the toolkit wrote there (sub-runs, reports, plan, suggested file) and
    names what it keeps. A folder of other files is refused whatever the flags."""
    import sys

    from sim import designer
    from sim import run_folder as rf
    if os.path.exists(root) and not os.path.isdir(root):
        raise ToolkitError(f"{root} is a file; choose a folder with --out")
    if os.path.isdir(root) and os.listdir(root):
        try:
            old = designer.read_plan(root)
        except ToolkitError as exc:
            raise rf.foreign_folder_error(root, str(exc.lines[0]).split(": ", 1)[-1]) from None
        same = {k: v for k, v in old.items() if k != "result"} == plan
        if not same and not overwrite:
            raise ToolkitError(f"{root} holds a different result; pass --overwrite to replace "
                               f"it or choose a new --out folder")
        owned, changed = designer.owned_files(root, old)
        if changed:
            raise ToolkitError(
                f"{changed[0]} was changed after the toolkit wrote it and would be replaced; "
                f"move it out of {root} first or choose another --out folder")
        if same:  # resumed: the earlier result stays recorded until the new one replaces it
            plan = {**plan, "result": old.get("result")}
        else:
            rf.remove_owned(owned, root)
            kept = rf.list_files(root)
            if kept:
                print(f"note: {root}: --overwrite kept {len(kept)} file(s) the toolkit did not "
                      f"write: {rf.describe_kept(kept, root)}", file=sys.stderr)
    from reports.output import check_report_dir
    for name in designer.REPORT_DIRS:  # before any game is played
        check_report_dir(os.path.join(root, name))
    designer.write_plan(root, plan)


def _names(spec, text, every_builtin: bool = False) -> list:
    """--strategies as a list; none given: every built-in (compare) or the game's default."""
    if text is None:
        if every_builtin:
            # the built-ins: a search player (strategies/search.py) costs thousands of
            # playouts per decision and is compared only when named
            return [c["name"] for c in spec.strategy_catalog() if not c.get("search")]
        return [spec.default_strategy_name()]
    return [n.strip() for n in text.split(",") if n.strip()]


def _shown_names(names, seats, configs) -> list:
    """The names the logs use for the typed `names` (a user strategy `dir/f.py:bot` is shown
    as `bot`, or as NAME for `NAME=dir/f.py:bot`); one line if two would be shown alike."""
    shown = {}
    for seating, c in zip(seats, configs):
        shown.update(zip(seating, c["prepared"].strategy_names))
    out = [str(shown[n]) for n in names]
    dup = sorted({n for n in out if out.count(n) > 1})
    if dup:
        raise ToolkitError(f"compare: two strategies would be shown as '{dup[0]}'; give the user "
                           f"strategy its own name: NAME=path/to/file.py:function")
    return out


def _prepare(spec, args, players, names, overrides=(), seed=None):
    comp = spec.load_components(args.components, tuple(args.overrides) + tuple(overrides))
    return spec.prepare(comp, players, names, args.seed if seed is None else seed, args.variants)


def _logs(dirs, columns=None):
    import pandas as pd
    from sim.runner import read_logs
    frames = []
    for i, d in enumerate(dirs):
        df = read_logs(d, columns=columns)
        df["config"] = i
        frames.append(df)
    return pd.concat(frames, ignore_index=True)


def _meta(spec, comp):
    fn = getattr(spec, "report_metadata", None)
    return fn(comp) if fn else None


# ---------------------------------------------------------------------------------------
def cmd_compare(args, out) -> int:
    from analysis.designer import analyse_compare
    from reports.designer import compare_document, write_document
    from sim import designer
    from sim.registry import get_game
    from sim.runner import read_manifest

    spec = get_game(args.game)
    players, games = _check(args, spec, 100_000)
    names = _names(spec, args.strategies, every_builtin=True)
    seats = designer.seatings(names, players)
    per = int(math.ceil(games / len(seats)))
    configs = [{"dir": None, "prepared": _prepare(spec, args, players, list(s))} for s in seats]
    names = _shown_names(names, seats, configs)
    root = _root(args, spec, "compare")
    plan = {"kind": "compare", "game": spec.name, "players": players, "strategies": names,
            "seatings": [list(s) for s in seats], "games_per_seating": per, "seed": args.seed,
            "components": args.components, "overrides": args.overrides, "variants": args.variants,
            "precision": args.precision, "max_games": args.max_games}
    _claim_root(root, plan, args.overwrite)
    for i, c in enumerate(configs):
        c["dir"] = designer.sub_dir(root, "seat", i)
    print(f"compare: {len(seats)} seatings x {per:,} games, the same seeds in each", file=out)
    res = designer.run_configs(spec, configs, per, args.seed, root, workers=args.workers,
                               progress=not args.no_progress, precision=args.precision,
                               max_games=args.max_games, by="strategy")
    logs = _logs([c["dir"] for c in configs], ["game", "seat", "strategy", "rank", "win", "score"])
    comp = analyse_compare(logs, names, res["games"], len(seats))
    manifest = read_manifest(configs[0]["dir"])
    notes = _precision_notes(res)
    doc = compare_document(comp, manifest, {"notes": notes})
    files = write_document(doc, os.path.join(root, "report"))
    designer.write_plan(root, {**plan, "result": {"games_per_seating": res["games"],
                                                  "status": comp.status}})
    print("", file=out)
    for line in comp.verdicts:
        print(line, file=out)
    for n in notes:
        print(n, file=out)
    print(f"\nreport: {files.get('html')}  (Markdown: {files.get('md')})", file=out)
    return 0


def _precision_notes(res) -> list:
    if res.get("precision") is None:
        return []
    word = "reached" if res["reached"] else "NOT reached (cap)"
    return [f"precision +/-{res['precision']:.4f} {word}: largest headline half-width "
            f"{res['halfwidth']:.4f} after {res['games']:,} games per configuration "
            f"({len(res['rounds'])} batches)"]


def _resolve_names(args, spec, varies):
    """Card names in --vary paths turned into indices (`goals[Gallery Day].points` ->
    `goals[5].points`) against the component file as written, so that every later step (card
    statistics, current value, suggested file) sees the index; the plan keeps the typed
    `vary` too. An unknown name is one line with the near matches."""
    from sim.overrides import resolve_path, tomllib
    raw = tomllib.loads(spec.load_components(args.components, ()).text)
    out = []
    for path, values in varies:
        try:
            out.append((resolve_path(raw, path), values))
        except ValueError as exc:
            raise ToolkitError(f"--vary '{path}': {exc}") from None
    return out


def _grid(args, spec):
    from sim import designer
    varies = [designer.parse_vary(v) for v in args.vary]
    varies = _resolve_names(args, spec, varies)
    points = designer.grid(varies)
    # validate every point before playing anything: one line per bad value
    failed = []
    for p in points:
        try:
            spec.load_components(args.components, tuple(args.overrides) + tuple(p))
        except ToolkitError as exc:
            failed.append((p, exc.lines))
    if failed:
        p, lines = failed[0]  # the first failing point in full; the others counted
        problems = [f"{', '.join(p)}: {line}" for line in lines]
        if len(failed) > 1:
            problems.append(f"... and {len(failed) - 1} more of the {len(points)} values fail too")
        raise ToolkitError(problems[:20])
    return varies, points


def cmd_sweep(args, out) -> int:
    from analysis.designer import analyse_sweep
    from reports.designer import sweep_document, write_document
    from sim import designer
    from sim.registry import get_game
    from sim.runner import read_manifest

    spec = get_game(args.game)
    players, games = _check(args, spec, 20_000)
    varies, points = _grid(args, spec)
    names = _names(spec, args.strategies)
    configs = [{"prepared": _prepare(spec, args, players, names, p)} for p in points]
    root = _root(args, spec, "sweep")
    plan = {"kind": "sweep", "game": spec.name, "players": players, "strategies": names,
            "vary": args.vary, "points": points, "games": games, "seed": args.seed,
            "components": args.components, "overrides": args.overrides, "variants": args.variants,
            "precision": args.precision, "max_games": args.max_games}
    _claim_root(root, plan, args.overwrite)
    for i, c in enumerate(configs):
        c["dir"] = designer.sub_dir(root, "point", i)
    print(f"sweep: {len(points)} points x {games:,} games, the same seeds at every point", file=out)
    res = designer.run_configs(spec, configs, games, args.seed, root, workers=args.workers,
                               progress=not args.no_progress, precision=args.precision,
                               max_games=args.max_games, by="seat")
    meta = _meta(spec, configs[0]["prepared"].components)
    cols = None
    per_point = [_logs([c["dir"]], cols) for c in configs]
    labels = [", ".join(p) for p in points]
    result = analyse_sweep(per_point, points, labels, meta, [v[0] for v in varies], varies)
    manifest = read_manifest(configs[0]["dir"])
    notes = _precision_notes(res)
    varied = " x ".join(v[0] for v in varies)
    doc = sweep_document(result, varied, manifest, {"notes": notes})
    files = write_document(doc, os.path.join(root, "report"))
    designer.write_plan(root, {**plan, "result": {"games": res["games"]}})
    print("", file=out)
    for block in doc.sections[0].blocks:
        for line in block:
            print(line, file=out)
    for n in notes:
        print(n, file=out)
    print(f"\nreport: {files.get('html')}  (Markdown: {files.get('md')})", file=out)
    return 0


TUNE_TRIALS = 30


def _tune_axes(args, spec, base_comp):
    """The --vary axes of a tune, each value checked alone (the other fields at their current
    values) before anything is played; one line per bad value."""
    from sim import designer
    varies = _resolve_names(args, spec, [designer.parse_vary(v) for v in args.vary])
    paths = [p for p, _ in varies]
    if len(set(paths)) != len(paths):
        raise ToolkitError("tune: the same field is given in two --vary")
    problems = []
    for path, values in varies:
        for v in values:
            o = f"{path}={designer.format_value(v)}"
            try:
                spec.load_components(args.components, tuple(args.overrides) + (o,))
            except ToolkitError as exc:
                problems += [f"{o}: {line}" for line in exc.lines]
    if problems:
        raise ToolkitError(problems[:20])
    return varies


def _ordered(values) -> bool:
    """Numbers (not booleans): the search may use their order."""
    return all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)


def cmd_tune(args, out) -> int:
    """Search the --vary values for the best objective (every value when there are at most
    --trials combinations, else Optuna's seeded TPE sampler, trials one after the other on
    the same seeds), always playing the current values too; then play the current values and
    the best candidate again on fresh, shared seeds and suggest the candidate only if the
    paired difference beats the current values beyond its 95% interval."""
    from analysis.designer import card_of_path, objective_rows, objective_value, paired_difference
    from reports.designer import tune_document, write_document
    from sim import designer, runner
    from sim.registry import get_game
    from sim.runner import read_logs, read_manifest

    spec = get_game(args.game)
    players, games = _check(args, spec, 5_000)
    unused = [flag for flag, v in (("--precision", args.precision), ("--max-games", args.max_games))
              if v is not None]
    if unused:
        raise ToolkitError(f"tune: {unused[0]} is not used by tune (every trial plays --games "
                           f"games; the check of the best value plays --confirm-games)")
    from sim.limits import MAX_GRID_POINTS
    if not 1 <= args.trials <= MAX_GRID_POINTS:   # each trial is a run folder, like a sweep point
        raise ToolkitError(f"--trials must be between 1 and {MAX_GRID_POINTS:,}, got {args.trials:,}")
    confirm_games = args.confirm_games if args.confirm_games is not None else 2 * games
    if confirm_games < 2:
        raise ToolkitError(f"--confirm-games must be at least 2, got {confirm_games}")
    names = _names(spec, args.strategies)
    base_comp = spec.load_components(args.components, tuple(args.overrides))
    varies = _tune_axes(args, spec, base_comp)
    paths = [p for p, _ in varies]
    meta = _meta(spec, base_comp)
    card_infos = [card_of_path(p, meta) for p in paths]
    if args.objective == "card-parity" and any(c is None for c in card_infos):
        bad = paths[card_infos.index(None)]
        raise ToolkitError(f"tune: card-parity needs every --vary on a card's field, e.g. "
                           f"commissions[12].points (got {bad})")
    if args.objective == "strategy-parity" and len(set(names)) < 2:
        raise ToolkitError("tune: strategy-parity needs at least two different strategies")
    current = [_current_value(base_comp, p) for p in paths]
    root = _root(args, spec, "tune")
    plan = {"kind": "tune", "game": spec.name, "players": players, "strategies": names,
            "vary": args.vary, "games": games, "confirm_games": confirm_games,
            "trials": args.trials, "seed": args.seed, "objective": args.objective,
            "components": args.components, "overrides": args.overrides,
            "variants": args.variants}
    _claim_root(root, plan, args.overwrite)

    sizes = [len(v) for _, v in varies]
    n_grid = math.prod(sizes)
    chunk = max(500, min(20000, games // 2))   # a function of --games only (same logs
    strategies = sorted(set(names))            # whatever --workers)

    def overrides_of(values):
        return [f"{p}={designer.format_value(v)}" for p, v in zip(paths, values)]

    def label_of(values):
        return ", ".join(overrides_of(values))

    def dir_of(idx):
        if idx is None:
            return os.path.join(root, "base")
        flat = 0
        for i, n in zip(idx, sizes):
            flat = flat * n + i
        return designer.sub_dir(root, "point", flat)

    base_idx = []
    for (_, values), cur in zip(varies, current):
        hit = [i for i, v in enumerate(values) if v == cur and type(v) is type(cur)]
        base_idx.append(hit[0] if hit else None)
    base_idx = tuple(base_idx) if None not in base_idx else None

    evaluated = {}   # label -> record, in the order played

    def evaluate(values, idx, trial):
        label = label_of(values)
        if label in evaluated:   # the sampler asked again: the same games, nothing to play
            if trial != evaluated[label]["trial"]:
                print(f"tune trial {trial}: {label}: already played (trial "
                      f"{evaluated[label]['trial']})", file=out)
            return evaluated[label]
        d = dir_of(idx)
        prepared = _prepare(spec, args, players, names, overrides_of(values))
        runner.run_many(spec, [(prepared, games, d)], workers=args.workers,
                        progress=not args.no_progress, chunk_size=chunk)
        obj = objective_rows(read_logs(d), args.objective, strategies, card_infos)
        v, se = objective_value(obj, seed=args.seed)
        rec = {"trial": trial, "label": label, "values": [designer.format_value(x) for x in values],
               "value": v, "se": se, "games": games, "dir": os.path.basename(d),
               "baseline": list(values) == list(current)}
        evaluated[label] = rec
        print(f"tune trial {trial}: {label}: {args.objective} {v:.4f} +/- {1.96 * se:.4f}"
              + ("  (current values)" if rec["baseline"] else ""), file=out)
        return rec

    # the current values first, whatever the range
    base_rec = evaluate(current, base_idx, 0)
    if n_grid <= args.trials:
        method = f"every combination of the varied values ({n_grid})"
        for t, idx in enumerate(itertools_product(sizes)):
            evaluate([varies[a][1][i] for a, i in enumerate(idx)], idx, t + 1)
    else:
        method = (f"Optuna's TPE sampler (seed {args.seed}), {args.trials} trials one after the "
                  f"other, every trial on the same seeds")
        _optuna_search(varies, base_idx, base_rec, args, evaluate)
    best = min(evaluated.values(), key=lambda r: (r["value"], r["trial"]))

    suggested = os.path.join(root, designer.SUGGESTED)
    confirmation = None
    notes = []
    if best["baseline"] or best["value"] >= base_rec["value"]:
        decision = (f"No value in the range does better than the current one "
                    f"({base_rec['label']}): it was the best of the {len(evaluated)} played. "
                    f"No file written.")
        best = base_rec
    else:
        cseed = designer.confirm_seed(args.seed)
        best_values = [_parse_label_value(x) for x in best["values"]]
        dirs = {"base": os.path.join(root, "confirm-base"), "best": os.path.join(root, "confirm-best")}
        jobs = [(_prepare(spec, args, players, names, overrides_of(current), seed=cseed),
                 confirm_games, dirs["base"]),
                (_prepare(spec, args, players, names, overrides_of(best_values), seed=cseed),
                 confirm_games, dirs["best"])]
        print(f"tune check: {best['label']} against the current values on {confirm_games:,} "
              f"fresh games (seed {cseed}), the same games for both", file=out)
        runner.run_many(spec, jobs, workers=args.workers, progress=not args.no_progress,
                        chunk_size=max(500, min(20000, confirm_games // 2)))
        objs = {k: objective_rows(read_logs(d), args.objective, strategies, card_infos)
                for k, d in dirs.items()}
        confirmation = paired_difference(objs["best"], objs["base"], seed=args.seed)
        confirmation.update({"seed": cseed, "candidate": best["label"],
                             "current": base_rec["label"]})
        c = confirmation
        diff = (f"{args.objective} {c['new']:.4f} against {c['old']:.4f}, paired difference "
                f"{c['diff']:+.4f} (95% interval {c['lo']:+.4f} to {c['hi']:+.4f}) on "
                f"{c['games']:,} fresh games")
        if c["hi"] < 0:
            _write_suggested(spec, base_comp, args, paths, best["values"], suggested)
            decision = (f"Suggested: {best['label']} ({diff}), better than the current values "
                        f"beyond the interval; written to {suggested}.")
        else:
            decision = (f"No value in the range does better than the current one: the best of "
                        f"the search, {best['label']}, is not better than {base_rec['label']} "
                        f"beyond the interval ({diff}). No file written.")
        notes = _before_after(root, dirs, card_infos, base_rec, best)
    if not confirmation or confirmation["hi"] >= 0:
        if os.path.isfile(suggested):   # an earlier result of this plan, never a user's file
            os.remove(suggested)        # (_claim_root checked its hash)
    manifest = read_manifest(os.path.join(root, base_rec["dir"]))
    trials = sorted(evaluated.values(), key=lambda r: r["trial"])
    doc = tune_document(trials, varies, current, base_rec, best, confirmation, decision,
                        args.objective, method, manifest, {"notes": []})
    doc.sections[0].blocks[0].extend(notes)
    files = write_document(doc, os.path.join(root, "report"))
    made = os.path.isfile(suggested)
    designer.write_plan(root, {**plan, "result": {
        "best": best["label"], "current": base_rec["label"], "trials": trials,
        "confirmation": confirmation, "suggested": made,
        "suggested_sha256": _sha(suggested) if made else None}})
    print("", file=out)
    for line in doc.sections[0].blocks[0]:
        print(line, file=out)
    print(f"\nreport: {files.get('html')}  (Markdown: {files.get('md')})", file=out)
    return 0


def itertools_product(sizes):
    import itertools
    return itertools.product(*[range(n) for n in sizes])


def _parse_label_value(text):
    from sim.overrides import parse_value
    return parse_value(text)


def _optuna_search(varies, base_idx, base_rec, args, evaluate) -> None:
    """Optuna's TPE sampler, seeded, one trial after the other (the same command gives the
    same trials). A value is searched by its position in the range, so the sampler may use the
    order of numeric values; other values are categories. The current values, when they are
    in the ranges, are told to the sampler as a finished trial."""
    import warnings
    import optuna
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # multivariate TPE is marked experimental
        sampler = optuna.samplers.TPESampler(seed=args.seed % 2**32,
                                             multivariate=len(varies) > 1,
                                             n_startup_trials=min(10, max(1, args.trials // 3)))
        study = optuna.create_study(direction="minimize", sampler=sampler)
        dists = {}
        for path, values in varies:
            dists[path] = (optuna.distributions.IntDistribution(0, len(values) - 1)
                           if _ordered(values) else
                           optuna.distributions.CategoricalDistribution(list(range(len(values)))))
        if base_idx is not None:
            study.add_trial(optuna.trial.create_trial(
                params={p: i for (p, _), i in zip(varies, base_idx)}, distributions=dists,
                value=base_rec["value"]))
        for t in range(args.trials):
            trial = study.ask(dists)
            idx = tuple(int(trial.params[p]) for p, _ in varies)
            rec = evaluate([values[i] for (_, values), i in zip(varies, idx)], idx, t + 1)
            study.tell(trial, rec["value"])


def _before_after(root, dirs, card_infos, base_rec, best) -> list:
    """Full balance reports of the current values ('before') and of the candidate ('after'),
    both on the check's games: their flags say whether an imbalance is still there."""
    from reports.build import write_report
    notes = []
    for tag, key, rec in (("before", "base", base_rec), ("after", "best", best)):
        # metadata from the sub-run's own (effective) component file: the values it played
        rep = write_report(dirs[key], os.path.join(root, tag))
        subjects = [s for s in (_card_subject(c) for c in card_infos) if s]
        if subjects:
            flagged = [f.text for f in rep.analysis.flags
                       if f.kind == "card" and any(s in f.subject for s in subjects)]
            notes.append(f"{tag} ({rec['label']}): " + ("; ".join(flagged) if flagged else
                         f"{', '.join(subjects)} {'is' if len(subjects) == 1 else 'are'} not "
                         f"flagged: no over- or under-performance beyond the interval")
                         + f" (full report: {rep.html})")
        else:
            other = [f.text for f in rep.analysis.flags if f.kind != "card"]
            notes.append(f"{tag} ({rec['label']}): {len(other)} seat/strategy flags "
                         f"(full report: {rep.html})")
    return notes


def _sha(path):
    from sim.run_folder import sha256_file
    return sha256_file(path)


def _card_subject(card_info):
    if not card_info:
        return None
    card, cid = card_info
    names = card.get("names", [])
    return f"'{names[cid]}'" if cid < len(names) else None


def _current_value(comp, path):
    from sim.overrides import parse_path, resolve_steps
    node = comp.data
    try:
        for step in resolve_steps(comp.data, parse_path(path)):  # a card may be named
            node = node[step]
    except (KeyError, IndexError, TypeError, ValueError):
        return None
    return node


def _write_suggested(spec, base_comp, args, paths, values, target) -> None:
    """The component file with the chosen values (and the run's --set overrides) written in,
    comments and layout kept (tomlkit). `values` are TOML texts."""
    import tomlkit
    from sim.overrides import parse_override, tomllib
    doc = tomlkit.parse(base_comp.text)
    as_written = tomllib.loads(base_comp.text)  # card names are resolved against the file
    chosen = [f"{p}={v}" for p, v in zip(paths, values)]
    for spec_text in list(args.overrides) + chosen:
        steps, v = parse_override(spec_text, as_written)
        node = doc
        for step in steps[:-1]:
            node = node[step]
        node[steps[-1]] = v
    text = tomlkit.dumps(doc)
    header = f"# Suggested by `balance tune` ({args.objective}): {', '.join(chosen)}\n"
    with open(target, "w", encoding="utf-8") as fh:
        fh.write(header + text)
    spec.load_components(target)  # the suggestion must itself be a valid file


def _toml(v):
    from sim.designer import format_value
    return format_value(v)


def run_with_precision(spec, prepared, args, out_dir, out) -> dict:
    """`balance run --precision`: grow the run in batches until the seat and strategy intervals
    are narrow enough (or --max-games)."""
    from sim import designer
    from sim.runner import read_manifest
    cfg = [{"dir": out_dir, "prepared": prepared}]
    res = designer.run_configs(spec, cfg, args.games, args.seed, out_dir, workers=args.workers,
                               progress=not args.no_progress, precision=args.precision,
                               max_games=args.max_games, by=("seat", "strategy"),
                               chunk_size=args.chunk_size)
    for line in _precision_notes(res):
        print(line, file=out)
    return read_manifest(out_dir)
