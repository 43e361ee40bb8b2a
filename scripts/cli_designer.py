"""`balance compare`, `balance sweep`, `balance tune` and `balance run --precision`: the
designer's workflow (sim/designer.py plays, analysis/designer.py measures,
reports/designer.py reports). Registered into scripts/cli.py by `add_commands`.
"""
from __future__ import annotations

import datetime as _dt
import math
import os

from sim.game_api import ToolkitError

OBJECTIVES = ("seat-fairness", "strategy-parity", "card-parity")


def _common(s, _int, games_help: str):
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
    s.add_argument("--precision", type=float, default=None,
                   help="play in batches until every headline 95%% interval is at most +/- this "
                        "(e.g. 0.005), instead of a fixed count")
    s.add_argument("--max-games", type=_int("max games"), default=None,
                   help="cap for --precision (games per configuration; default 10,000,000)")
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

    s = sub.add_parser("tune", help="search the varied values for the most balanced game")
    _common(s, _int, "games per value in the first round (default 5000)")
    s.add_argument("--vary", action="append", default=[], metavar="PATH=VALUES", required=True,
                   help="field and candidate values, e.g. 'commissions[12].points=2..9'")
    s.add_argument("--objective", choices=OBJECTIVES, default="seat-fairness",
                   help="what to balance (default seat-fairness)")
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
            return [c["name"] for c in spec.strategy_catalog()]
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


def _prepare(spec, args, players, names, overrides=()):
    comp = spec.load_components(args.components, tuple(args.overrides) + tuple(overrides))
    return spec.prepare(comp, players, names, args.seed, args.variants)


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
    result = analyse_sweep(per_point, points, labels, meta, [v[0] for v in varies])
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


def cmd_tune(args, out) -> int:
    from analysis.designer import analyse_sweep, card_of_path, objective
    from reports.designer import tune_document, write_document
    from sim import designer
    from sim.registry import get_game
    from sim.runner import read_logs, read_manifest

    spec = get_game(args.game)
    players, games = _check(args, spec, 5_000)
    varies, points = _grid(args, spec)
    if len(varies) != 1:
        raise ToolkitError("tune: give exactly one --vary (one field and its candidate values)")
    path, values = varies[0]
    names = _names(spec, args.strategies)
    base_comp = spec.load_components(args.components, tuple(args.overrides))
    meta = _meta(spec, base_comp)
    card_info = card_of_path(path, meta)
    if args.objective == "card-parity" and card_info is None:
        raise ToolkitError(f"tune: card-parity needs --vary on one card's field, e.g. "
                           f"commissions[12].points (got {path})")
    if args.objective == "strategy-parity" and len(set(names)) < 2:
        raise ToolkitError("tune: strategy-parity needs at least two different strategies")
    configs = [{"prepared": _prepare(spec, args, players, names, p)} for p in points]
    root = _root(args, spec, "tune")
    plan = {"kind": "tune", "game": spec.name, "players": players, "strategies": names,
            "vary": args.vary, "points": points, "games": games, "seed": args.seed,
            "objective": args.objective, "components": args.components,
            "overrides": args.overrides, "variants": args.variants, "max_games": args.max_games}
    _claim_root(root, plan, args.overwrite)
    for i, c in enumerate(configs):
        c["dir"] = designer.sub_dir(root, "point", i)
    cap = args.max_games or games * 2 ** max(1, math.ceil(math.log2(len(points))))
    alive = list(range(len(points)))
    n = games
    history = []
    from sim import runner
    while True:
        runner.run_many(spec, [(configs[i]["prepared"], n, configs[i]["dir"]) for i in alive],
                        workers=args.workers, progress=not args.no_progress,
                        chunk_size=max(500, min(20000, games // 2)))
        scored = []
        for i in alive:
            logs = read_logs(configs[i]["dir"])
            v, se = objective(logs, args.objective, meta, card_info)
            scored.append({"point": i, "value": v, "se": se, "games": n})
        history.append({"games": n, "points": scored})
        scored.sort(key=lambda r: r["value"])
        print(f"tune round {len(history)}: {n:,} games per value; best "
              f"{points[scored[0]['point']][0]} ({args.objective} {scored[0]['value']:.4f})", file=out)
        if len(alive) == 1 or n * 2 > cap:
            break
        alive = [r["point"] for r in scored[:max(1, math.ceil(len(scored) / 2))]]
        n *= 2
    best = scored[0]["point"]
    # the value the file had before (after --set), if it is one of the candidates
    current = _current_value(base_comp, path)
    baseline = next((i for i, v in enumerate(values) if current is not None and v == current), None)
    suggested = os.path.join(root, designer.SUGGESTED)
    _write_suggested(spec, base_comp, args, path, values[best], suggested)
    manifest = read_manifest(configs[best]["dir"])
    before = None
    if baseline is not None and baseline != best:
        idx = sorted({baseline, best})
        before = analyse_sweep([_logs([configs[i]["dir"]]) for i in idx],
                               [points[i] for i in idx], [points[i][0] for i in idx], meta, [path])
    labels = [p[0] for p in points]
    # full balance reports of the chosen value and of the value the file had: their flags
    # say whether the imbalance is still there, beyond its uncertainty
    from reports.build import write_report
    notes = []
    for tag, idx in (("after", best), ("before", baseline)):
        if idx is None or (tag == "before" and idx == best):
            continue
        rep = write_report(configs[idx]["dir"], os.path.join(root, tag), metadata=meta)
        subject = _card_subject(card_info)
        flagged = [f.text for f in rep.analysis.flags
                   if f.kind == "card" and subject and subject in f.subject]
        other = [f.text for f in rep.analysis.flags if f.kind != "card"]
        if card_info:
            notes.append(f"{tag} ({points[idx][0]}): " + ("; ".join(flagged) if flagged else
                         f"{subject} is not flagged: no over- or under-performance beyond its "
                         f"interval") + f" (full report: {rep.html})")
        else:
            notes.append(f"{tag} ({points[idx][0]}): {len(other)} seat/strategy flags "
                         f"(full report: {rep.html})")
    doc = tune_document(history, labels, best, baseline, args.objective, before, manifest,
                        suggested, {"notes": []})
    doc.sections[0].blocks[0].extend(notes)
    files = write_document(doc, os.path.join(root, "report"))
    designer.write_plan(root, {**plan, "result": {"best": points[best][0], "history": history,
                                                  "suggested_sha256": _sha(suggested)}})
    print("", file=out)
    for line in doc.sections[0].blocks[0]:
        print(line, file=out)
    print(f"\nreport: {files.get('html')}  (Markdown: {files.get('md')})", file=out)
    return 0


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


def _write_suggested(spec, base_comp, args, path, value, target) -> None:
    """The component file with the chosen value (and the run's --set overrides) written in,
    comments and layout kept (tomlkit)."""
    import tomlkit
    from sim.overrides import parse_override, tomllib
    doc = tomlkit.parse(base_comp.text)
    as_written = tomllib.loads(base_comp.text)  # card names are resolved against the file
    for spec_text in list(args.overrides) + [f"{path}={_toml(value)}"]:
        steps, v = parse_override(spec_text, as_written)
        node = doc
        for step in steps[:-1]:
            node = node[step]
        node[steps[-1]] = v
    text = tomlkit.dumps(doc)
    header = (f"# Suggested by `balance tune` ({args.objective}): {path} = {_toml(value)}\n")
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
