"""`balance calibrate GAME`: turn play-testers' measured accuracy into the game's skill setting.

    balance calibrate surfers                          hit rate by spread and distance (row)
    balance calibrate surfers --measured 3=18/40 --measured 5=9/40    -> the spread to set
    balance calibrate surfers --spreads 0.2,0.4,0.6 --check 20000     + the engine's own draws

A game offers it by defining on its spec `calibrate(components, spreads, measured, check) ->
lines` (the game's default spreads when `spreads` is empty), `calibration_rows(components)`
and `calibration_max_spread()` (Grand Surfers: sim/games/surfers/calibrate.py); this command
names no game. Registered into scripts/cli.py by `add_commands`, like scripts/cli_designer.py.
"""
from __future__ import annotations

import re

from sim.game_api import ToolkitError


def add_commands(sub, _int) -> dict:
    s = sub.add_parser("calibrate", help="hit rate of a flick by skill setting and distance; "
                                         "the skill setting for a measured accuracy (dexterity games)")
    s.add_argument("game")
    s.add_argument("--components", default=None, help="component file (default: the game's own)")
    s.add_argument("--set", action="append", default=[], dest="overrides", metavar="PATH=VALUE",
                   help="change one field of the component file (e.g. the noise), repeatable")
    s.add_argument("--spreads", default=None,
                   help="comma-separated spreads for the table (default: the game's own)")
    s.add_argument("--measured", action="append", default=[], metavar="ROW=HITS/FLICKS",
                   help="a measured accuracy at a row of the wave sheet (1 = at the start line): "
                        "hits out of flicks (e.g. 3=18/40) or a rate (3=0.45); repeatable")
    s.add_argument("--check", type=_int("check"), default=0,
                   help="also flick N times per cell with the engine and show the share that hit")
    return {"calibrate": cmd_calibrate}


def _spreads(text, max_spread: float) -> tuple:
    """The spreads asked for, checked against the game's range; () for the game's own."""
    if text is None:
        return ()
    out = []
    for part in text.split(","):
        try:
            v = float(part)
        except ValueError:
            raise ToolkitError(f"--spreads must be numbers separated by commas, got '{text}'") from None
        if not 0.0 <= v <= max_spread:
            raise ToolkitError(f"--spreads: each spread must be between 0 and {max_spread:g}, got {v:g}")
        out.append(v)
    return tuple(out)


def _measured(items, rows: int) -> list:
    out, problems = [], []
    for text in items:
        m = re.fullmatch(r"\s*(\d+)\s*=\s*(?:(\d+)\s*/\s*(\d+)|([0-9.]+))\s*", text)
        if not m:
            problems.append(f"--measured '{text}': write ROW=HITS/FLICKS (e.g. 3=18/40) or ROW=RATE (3=0.45)")
            continue
        row = int(m.group(1))
        if not 1 <= row <= rows:
            problems.append(f"--measured '{text}': row {row} is not on the wave sheet (rows 1-{rows})")
            continue
        if m.group(4) is not None:
            rate = float(m.group(4))
            if not 0.0 < rate <= 1.0:
                problems.append(f"--measured '{text}': a rate must be above 0 and at most 1")
                continue
            out.append((row - 1, rate, None))
        else:
            hits, flicks = int(m.group(2)), int(m.group(3))
            if flicks < 1 or hits > flicks:
                problems.append(f"--measured '{text}': hits must be at most flicks, flicks at least 1")
                continue
            out.append((row - 1, hits, flicks))
    if problems:
        raise ToolkitError(problems)
    return out


def cmd_calibrate(args, out) -> int:
    import os

    from sim.registry import get_game

    spec = get_game(args.game)
    hook = getattr(spec, "calibrate", None)
    if hook is None:
        raise ToolkitError(f"{spec.name} has no model of skill to calibrate (a dexterity game "
                           f"such as surfers has)")
    if args.components is not None and not os.path.isfile(args.components):
        raise ToolkitError(f"component file {args.components}: not found")
    if not 0 <= args.check <= 10_000_000:
        raise ToolkitError(f"--check must be between 0 and 10000000, got {args.check}")
    spreads = _spreads(args.spreads, spec.calibration_max_spread())
    components = spec.load_components(args.components, tuple(args.overrides))
    measured = _measured(args.measured, spec.calibration_rows(components))
    for line in hook(components, spreads=spreads, measured=measured, check=args.check):
        print(line, file=out)
    return 0
