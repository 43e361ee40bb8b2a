"""`balance ladder GAME --players N`: the skill ladder of a game (analysis/ladder.py for what
is measured, reports/ladder.py for the table and the plot). Registered into scripts/cli.py by
`add_commands`.

The result folder works like compare / sweep (scripts/cli_designer.py, sim/designer.py): one
ordinary sub-run per level (`point-NN`: the level in one seat, the reference in the others,
seats rotated), `verdict-base` / `verdict-top` (the game's default strategy, then the
strongest level, in every seat: the report's verdicts at both), the plan `designer.json`
with the toolkit's marker, the mcts budgets as a variants file the toolkit writes and owns
(`ladder_variants.toml`, its SHA-256 in the plan), and `report/`. The same command resumes;
another one needs --overwrite, which removes only the toolkit's own files; a folder of other
files is refused.
"""
from __future__ import annotations

import math
import os

from sim.game_api import ToolkitError

BUILTIN_LEVELS = ("random", "greedy", "planner")
DEFAULT_BUDGETS = "50,200,800"
VARIANTS_NAME = "ladder_variants.toml"


def add_commands(sub, _int) -> dict:
    s = sub.add_parser("ladder", help="skill ladder: random, greedy, planner and mcts at rising "
                                      "budgets against a reference, seats rotated")
    s.add_argument("game")
    s.add_argument("--players", type=_int("players"), default=None,
                   help="player count (default: 4, within the game's range)")
    s.add_argument("-n", "--games", type=_int("games"), default=2000,
                   help="games per level (rounded up to whole seat rotations; default 2000)")
    s.add_argument("--budgets", default=DEFAULT_BUDGETS,
                   help=f"mcts iterations per decision, comma-separated (default {DEFAULT_BUDGETS})")
    s.add_argument("--rollout", default="random",
                   help="rollout policy of the mcts levels: a built-in of the game (default random)")
    s.add_argument("--reference", default=None,
                   help="the opponent of every level (default: planner if the game has one, else "
                        "its default strategy)")
    s.add_argument("--verdict-games", type=_int("verdict games"), default=None,
                   help="games of the two verdict runs (default: --games; 0 skips them)")
    s.add_argument("--seed", type=_int("seed"), default=1, help="seed shared by every level")
    s.add_argument("--workers", type=_int("workers"), default=None, help="worker processes")
    s.add_argument("--out", default=None, help="output folder (sub-runs and report/)")
    s.add_argument("--components", default=None, help="component file (default: the game's own)")
    s.add_argument("--set", action="append", default=[], dest="overrides", metavar="PATH=VALUE",
                   help="override a component field for every level (repeatable)")
    s.add_argument("--overwrite", action="store_true",
                   help="replace a previous result of this toolkit in --out (only the files the "
                        "toolkit wrote there are removed)")
    s.add_argument("--no-progress", action="store_true", help="no progress bars")
    return {"ladder": cmd_ladder}


def parse_budgets(text: str) -> list:
    out = []
    for part in str(text).split(","):
        part = part.strip()
        try:
            v = int(part)
        except ValueError:
            raise ToolkitError(f"--budgets: '{part}' is not a whole number of iterations "
                               f"(e.g. --budgets 50,200,800)") from None
        if v < 1:
            raise ToolkitError(f"--budgets: iterations must be at least 1, got {v}")
        if v not in out:
            out.append(v)
    if not out:
        raise ToolkitError("--budgets: give at least one budget, e.g. --budgets 50,200,800")
    return sorted(out)


def levels_of(spec, rollout: str, reference: str | None):
    """(built-in levels, reference, catalog names) of a game; ToolkitError when the game has
    no search players or a named strategy is unknown."""
    catalog = spec.strategy_catalog()
    names = [e["name"] for e in catalog]
    plain = [e["name"] for e in catalog if not e.get("search")]
    if "mcts" not in names:
        raise ToolkitError(f"{spec.name}: no search players (the game is not on the forward-model "
                           f"template yet), so it has no ladder")
    default = spec.default_strategy_name()
    builtin = [n for n in BUILTIN_LEVELS if n in plain]
    if default in plain and default not in builtin:
        builtin.append(default)
    if "random" not in builtin and plain:
        builtin.insert(0, plain[0])
    if rollout not in plain:
        raise ToolkitError(f"--rollout: '{rollout}' is not a built-in of {spec.name} "
                           f"(built-ins: {', '.join(plain)})")
    if reference is None:
        reference = "planner" if "planner" in plain else default
    elif reference not in plain:
        raise ToolkitError(f"--reference: '{reference}' is not a built-in of {spec.name} "
                           f"(built-ins: {', '.join(plain)})")
    if reference not in builtin:
        builtin.append(reference)
    return builtin, reference


def variants_text(budgets: list, rollout: str) -> str:
    from analysis.ladder import mcts_level
    lines = ["# written by `balance ladder`: the mcts levels of the ladder (do not edit)"]
    for b in budgets:
        lines += [f'[variants."{mcts_level(b)}"]', 'base = "mcts"',
                  f'params = {{ iterations = {int(b)}, rollout = "{rollout}" }}',
                  f'description = "mcts with {int(b)} iterations per decision, {rollout} '
                  f'rollouts"', ""]
    return "\n".join(lines)


def _chunk(games: int, rot: int) -> int:
    """About ten chunks per sub-run (a search game is slow: the progress bar moves), whole
    rotations each; fixed by the plan, so the same command resumes."""
    return max(rot, int(math.ceil(games / rot / 10.0)) * rot)


def cmd_ladder(args, out) -> int:
    from analysis.ladder import analyse_ladder, compare_verdicts, ladder_verdicts, mcts_level
    from reports.ladder import ladder_document, ladder_table_text, write_ladder
    from scripts.cli import _players_for
    from scripts.cli_designer import _claim_root, _logs, _root
    from sim import designer, rotation
    from sim import run_folder as rf
    from sim.registry import get_game

    spec = get_game(args.game)
    players = _players_for(spec, args.players)
    problems = []
    if players < 2:
        problems.append("ladder: --players must be at least 2 (a level is measured against an "
                        "opponent)")
    if not 0 <= args.seed < 2**63:
        problems.append(f"--seed must be between 0 and 2**63 - 1, got {args.seed}")
    if args.components is not None and not os.path.isfile(args.components):
        problems.append(f"component file {args.components}: not found")
    budgets = []
    try:
        budgets = parse_budgets(args.budgets)
    except ToolkitError as exc:
        problems.extend(exc.lines)
    try:
        builtin, reference = levels_of(spec, args.rollout, args.reference)
    except ToolkitError as exc:
        problems.extend(exc.lines)
    if problems:
        raise ToolkitError(problems)
    levels = builtin + [mcts_level(b) for b in budgets]
    verdict_games = args.games if args.verdict_games is None else args.verdict_games
    comp = spec.load_components(args.components, tuple(args.overrides))
    text = variants_text(budgets, args.rollout)
    root = _root(args, spec, "ladder")
    vpath = os.path.join(root, VARIANTS_NAME)
    plan = {"kind": "ladder", "game": spec.name, "players": players, "levels": levels,
            "reference": reference, "budgets": budgets, "rollout": args.rollout,
            "games": args.games, "verdict_games": verdict_games, "seed": args.seed,
            "components": args.components, "overrides": args.overrides,
            "ladder_variants": {"file": VARIANTS_NAME,
                                "sha256": rf.sha256_bytes(text.encode("utf-8"))}}
    _claim_root(root, plan, args.overwrite)
    if not os.path.isfile(vpath):     # ours (its SHA-256 is in the plan; checked on a resume)
        with open(vpath, "w", encoding="utf-8") as fh:
            fh.write(text)

    def prepared_for(names):
        p = spec.prepare(comp, players, names, args.seed, vpath)
        return rotation.rotated(p)

    configs, by_level = [], {}
    for name in levels:
        if name == reference:
            continue
        p = prepared_for([name] + [reference] * (players - 1))
        configs.append({"prepared": p, "level": name,
                        "dir": designer.sub_dir(root, "point", len(configs))})
    rot = len(configs[0]["prepared"].rotation)
    games = rotation.whole_rotations(args.games, configs[0]["prepared"])
    print(f"ladder: {spec.title}, {players} players: {', '.join(levels)}; each level against "
          f"{players - 1} x {reference}, {games:,} games in {rot} seatings (the same deals for "
          f"every level)", file=out)
    designer.run_configs(spec, configs, games, args.seed, root, workers=args.workers,
                         progress=not args.no_progress, by="strategy",
                         chunk_size=_chunk(games, rot))
    cols = ["game", "seat", "strategy", "rank", "win"]
    for c in configs:
        by_level[c["level"]] = _logs([c["dir"]], cols)
    res = analyse_ladder(spec.name, players, reference, levels, by_level)
    res.verdicts = ladder_verdicts(res)
    strongest = str(res.table.iloc[-1]["level"])
    res.strongest = strongest
    base_name = spec.default_strategy_name()
    if verdict_games > 0 and strongest != base_name:
        from analysis.balance import analyse_run
        vconf = []
        for kind, name in (("verdict-base", base_name), ("verdict-top", strongest)):
            p = spec.prepare(comp, players, [name], args.seed, vpath)
            vconf.append({"prepared": p, "dir": os.path.join(root, kind)})
        print(f"verdicts: {verdict_games:,} games with {base_name} in every seat, then with "
              f"{strongest} (the strongest level) in every seat", file=out)
        designer.run_configs(spec, vconf, verdict_games, args.seed, root, workers=args.workers,
                             progress=not args.no_progress, by="seat",
                             chunk_size=_chunk(verdict_games, 1))
        base_a = analyse_run(vconf[0]["dir"])
        top_a = analyse_run(vconf[1]["dir"])
        res.verdict_table, lines = compare_verdicts(base_a, top_a, base_name, strongest)
        res.verdicts += lines
    elif verdict_games > 0:
        res.notes.append(f"The strongest level is the game's default strategy ({base_name}): "
                         f"the report's verdicts are already those of the strongest level.")
    else:
        res.notes.append("Verdict runs skipped (--verdict-games 0).")
    manifest = rf.load_manifest_file(configs[0]["dir"])[0] or {}
    doc = ladder_document(res, manifest, {"games": games, "seatings": rot,
                                          "verdict_games": verdict_games,
                                          "rollout": args.rollout})
    files = write_ladder(doc, os.path.join(root, "report"))
    designer.write_plan(root, {**plan, "result": {"games": games, "depth": res.depth,
                                                  "strongest": strongest}})
    print("", file=out)
    print(ladder_table_text(res), file=out)
    print("", file=out)
    for line in res.verdicts + res.notes:
        print(line, file=out)
    print(f"\nreport: {files.get('html')}  (Markdown: {files.get('md')}; plot: "
          f"{os.path.join(root, 'report', 'ladder.png')})", file=out)
    return 0
