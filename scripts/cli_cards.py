"""`balance cards GAME`: the sensitivity table. Every card whose value the game declares as a
component field is played one point lower and one point higher on the same games (common
random numbers), and the table gives, per point of value, the change in how often it is
taken and in its takers' win share against the takers of the other cards of its type, with
95% intervals, and the value change that would bring each card to parity.

sim/cards.py plans and plays (sim/designer.py's run_configs: every configuration's chunks in
one worker pool, --precision stopping), analysis/cards.py measures, reports/cards.py reports.
The result folder follows the sweep's rules (designer.json marker, sub-runs point-NN, report/;
--overwrite removes only the toolkit's files). Registered into scripts/cli.py by add_commands.
"""
from __future__ import annotations

import os
import time

from sim.game_api import ToolkitError


def add_commands(sub, _int) -> dict:
    from scripts.cli_designer import _common
    s = sub.add_parser("cards", help="the sensitivity table: every card's value one point "
                                     "down and up, on the same games")
    _common(s, _int, "games per configuration (default 20000; with --precision the first batch)")
    s.add_argument("--only", default=None, metavar="TYPES",
                   help="comma-separated card types to play (default: every type with a value "
                        "field, e.g. commission,goal)")
    return {"cards": cmd_cards}


def cmd_cards(args, out) -> int:
    from reports.cards import cards_document
    from reports.designer import write_document
    from scripts.cli_designer import _check, _claim_root, _meta, _names, _precision_notes, _root
    from sim import cards as sc
    from sim import designer
    from sim.registry import get_game
    from sim.runner import read_manifest

    t0 = time.perf_counter()
    spec = get_game(args.game)
    players, games = _check(args, spec, 20_000)
    names = _names(spec, args.strategies)
    base = spec.load_components(args.components, tuple(args.overrides))
    meta = _meta(spec, base) or {}
    types = [c["type"] for c in meta.get("cards", []) if c.get("value_path")]
    if not types:
        raise ToolkitError(f"{spec.name}: the game declares no card whose value is a component "
                           f"field (report_metadata() cards with a value_path)")
    if args.only is not None:
        want = [t.strip() for t in args.only.split(",") if t.strip()]
        bad = [t for t in want if t not in types]
        if bad or not want:
            raise ToolkitError(f"--only: unknown card type(s) {', '.join(bad) or '(none)'}; "
                               f"this game's: {', '.join(types)}")
        meta = {**meta, "cards": [c for c in meta["cards"] if c["type"] in want]}
    meta = {**meta, "cards": [c for c in meta["cards"] if c.get("value_path")]}

    def load(ov):
        return spec.load_components(args.components, tuple(args.overrides) + tuple(ov))

    steps, configs = sc.plan_steps(meta, load)
    if not steps:
        raise ToolkitError(f"{spec.name}: no card value can be moved by one point")
    prepared = [spec.prepare(load(ov), players, names, args.seed, args.variants) for ov in configs]
    root = _root(args, spec, "cards")
    plan = {"kind": "cards", "game": spec.name, "players": players, "strategies": names,
            "only": args.only, "configs": configs, "games": games, "seed": args.seed,
            "components": args.components, "overrides": args.overrides, "variants": args.variants,
            "precision": args.precision, "max_games": args.max_games}
    _claim_root(root, plan, args.overwrite)
    cfgs = [{"prepared": p, "dir": designer.sub_dir(root, "point", i)}
            for i, p in enumerate(prepared)]
    print(f"cards: {len(steps)} cards, {len(cfgs)} configurations x {games:,} games, the same "
          f"seeds in each", file=out)
    res = designer.run_configs(spec, cfgs, games, args.seed, root, workers=args.workers,
                               progress=not args.no_progress, precision=args.precision,
                               max_games=args.max_games, by="seat")
    logs = sc.read_config_logs([c["dir"] for c in cfgs], meta)
    sc.measure(steps, logs, meta)
    del logs
    manifest = read_manifest(cfgs[0]["dir"])
    seconds = time.perf_counter() - t0
    notes = _precision_notes(res) + [f"run time {seconds:.0f} s (workers: "
                                     f"{args.workers or os.cpu_count()})"]
    doc = cards_document(steps, manifest, {"games": res["games"], "configs": len(cfgs),
                                           "notes": notes})
    files = write_document(doc, os.path.join(root, "report"))
    designer.write_plan(root, {**plan, "result": {
        "games": res["games"], "seconds": round(seconds, 1),
        "cards": [{k: s[k] for k in ("type", "card", "name", "value", "response", "to_parity")}
                  for s in steps]}})
    print("", file=out)
    for line in doc.sections[0].blocks[0]:
        print(line, file=out)
    for n in notes:
        print(n, file=out)
    print(f"\nreport: {files.get('html')}  (Markdown: {files.get('md')})", file=out)
    return 0
