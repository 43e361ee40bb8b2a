"""`balance compare`, `balance sweep`, `balance tune` (and the options of `balance run
--precision`): their arguments, parsed and handed to the library (sim/api/designer.py, which
plays with sim/designer.py, measures with analysis/designer.py and reports with
reports/designer.py), and what it returns printed. Registered into scripts/cli.py by
`add_commands`; imports nothing of scripts/cli.py (no cycle between the scripts modules).
"""
from __future__ import annotations

import argparse
import os
import textwrap

from sim.game_api import ToolkitError


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
    add_assign_option(s)


def add_assign_option(s) -> None:
    """--assign NAME=random (run, compare, sweep, tune, cards): sim/assign.py."""
    s.add_argument("--assign", action="append", default=[], metavar="CHOICE=random",
                   help="assign a choice at random instead of letting the players make it, "
                        "e.g. 'window=random' in Sagrada (repeatable; the game's choices: "
                        "docs/api.md), so that its effect is measured, not who chooses it")


# the objectives' help lives with their definitions (analysis/designer.py, which imports
# pandas and scipy): read only when `balance tune --help` shows it, so that building the
# parser stays instant (`balance --help`, `balance games`)
_OBJECTIVES_EPILOG = "".join(["objectives ", "(which question each one answers):"])


def objectives_epilog() -> str:
    from analysis.designer import OBJECTIVE_HELP
    return _OBJECTIVES_EPILOG + "\n" + "\n".join(
        textwrap.fill(f"{k}: {v}", 88, initial_indent="  ", subsequent_indent="      ")
        for k, v in OBJECTIVE_HELP.items())


class _TuneHelp(argparse.RawDescriptionHelpFormatter):
    def add_text(self, text):
        super().add_text(objectives_epilog() if text is _OBJECTIVES_EPILOG else text)


def add_commands(sub, _int) -> dict:
    s = sub.add_parser("compare", help="compare strategies fairly: every seating, shared seeds")
    _common(s, _int, "total games over all seatings (default 100000)")

    s = sub.add_parser("sweep", help="play the same games under every value of one or more fields")
    _common(s, _int, "games per value (default 20000)")
    s.add_argument("--vary", action="append", default=[], metavar="PATH=VALUES", required=True,
                   help="field and values, e.g. 'commissions[12].points=2..7' or "
                        "'rules.wake_tie=random,seat' (several --vary: a grid)")

    from sim.api.designer import OBJECTIVES, TUNE_TRIALS
    s = sub.add_parser(
        "tune", help="search the varied values for the most balanced game",
        formatter_class=_TuneHelp,
        description="Search the --vary values (one field or several together) for the smallest "
                    "objective, always playing\nthe current values too, then play the best "
                    "candidate and the current values again on fresh,\nshared seeds: a "
                    "suggested file is written only if the candidate is better beyond the 95%\n"
                    "interval of that paired difference.",
        epilog=_OBJECTIVES_EPILOG)
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
    add_assign_option(s)


# ---------------------------------------------------------------------------------------
# the commands: parse, call the API (sim/api/designer.py), print
# ---------------------------------------------------------------------------------------
def _common_kwargs(args, default_games: int) -> dict:
    return dict(players=args.players, strategies=args.strategies,
                games=args.games if args.games is not None else default_games, seed=args.seed,
                set=list(args.overrides), out=args.out, components=args.components,
                variants=args.variants, workers=args.workers, overwrite=args.overwrite,
                progress=not args.no_progress, assign=list(args.assign))


def _out_folder(args, game: str, kind: str) -> str:
    """The CLI's default result folder: runs/<kind>-<game>-<time> (the API's is temporary)."""
    from sim.api.common import default_out
    from sim.registry import get_game
    return os.path.abspath(args.out or default_out(get_game(game), kind))


def _print_result(lines, notes, files, out) -> None:
    print("", file=out)
    for line in lines:
        print(line, file=out)
    for n in notes:
        print(n, file=out)
    print(f"\nreport: {files.get('html')}  (Markdown: {files.get('md')})", file=out)


def cmd_compare(args, out) -> int:
    from sim.api import compare
    kw = _common_kwargs(args, 100_000)
    kw["out"] = _out_folder(args, args.game, "compare")
    r = compare(args.game, precision=args.precision, max_games=args.max_games, echo=out, **kw)
    files = r.report()
    _print_result(r.verdicts, r.notes, files, out)
    return 0


def cmd_sweep(args, out) -> int:
    from sim.api import sweep
    kw = _common_kwargs(args, 20_000)
    kw["out"] = _out_folder(args, args.game, "sweep")
    r = sweep(args.game, args.vary, precision=args.precision, max_games=args.max_games,
              echo=out, **kw)
    doc = r.document()
    files = r.report()
    lines = [line for block in doc.sections[0].blocks for line in block]
    _print_result(lines, r.notes, files, out)
    return 0


def cmd_tune(args, out) -> int:
    from sim.api import tune
    unused = [flag for flag, v in (("--precision", args.precision), ("--max-games", args.max_games))
              if v is not None]
    if unused:
        raise ToolkitError(f"tune: {unused[0]} is not used by tune (every trial plays --games "
                           f"games; the check of the best value plays --confirm-games)")
    kw = _common_kwargs(args, 5_000)
    kw["out"] = _out_folder(args, args.game, "tune")
    r = tune(args.game, args.vary, objective=args.objective, trials=args.trials,
             confirm_games=args.confirm_games, echo=out, **kw)
    files = r.report()
    _print_result(r.lines(), [], files, out)
    return 0


# ---------------------------------------------------------------------------------------
# thin aliases: the names other scripts modules imported from here before the library took
# the work over (sim/api); kept so that code written against them keeps working
# ---------------------------------------------------------------------------------------
def _check(args, spec, default_games):
    """(players, games) of the common options, checked (sim.api.common.check_common)."""
    from sim.api.common import check_common
    games = args.games if args.games is not None else default_games
    players = check_common(spec, args.players, games, args.seed, args.components, args.variants,
                           getattr(args, "precision", None), getattr(args, "max_games", None))
    return players, games


def _root(args, spec, kind) -> str:
    return _out_folder(args, spec.name, kind)


def _claim_root(root: str, plan: dict, overwrite: bool) -> None:
    from sim.api.folders import claim_root
    claim_root(root, plan, overwrite)


def _names(spec, text, every_builtin: bool = False) -> list:
    from sim.api.common import strategy_list
    return strategy_list(spec, text, every_builtin)


def _meta(spec, comp):
    from sim.api.designer import _meta as meta
    return meta(spec, comp)


def _precision_notes(res) -> list:
    from sim.api.runs import precision_notes
    return precision_notes(res)


def __getattr__(name):   # OBJECTIVES, TUNE_TRIALS: the library's
    if name in ("OBJECTIVES", "TUNE_TRIALS"):
        from sim.api import designer
        return getattr(designer, name)
    raise AttributeError(name)
