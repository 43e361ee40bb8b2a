"""`balance`: the command line of the balance toolkit.

    balance games                       the games the toolkit knows
    balance strategies GAME             built-in strategies and their parameters
    balance components GAME             the default component file (copy it and edit)
    balance run GAME [options]          play games, write logs, print the balance summary
    balance summary DIR                 the summary of a run already played
    balance replay DIR --game K         a turn-by-turn trace of one game of a run
    balance report DIR [MORE...] [--out OUT]   the balance report (HTML + Markdown) of a
                                        run, or of several side by side
    balance ladder GAME --players N     the skill ladder: built-ins and mcts at rising budgets
    balance warm [GAME...]              compile the games' engines ahead of a run, in parallel
    balance new-game NAME [--out DIR]   write a working minimal game to start your own from

Every problem a user can fix is printed as one line `balance: error: ...` on stderr, with
exit code 2, and nothing is written. `balance --debug COMMAND ...` (the flag may stand
anywhere) adds what lies behind such a line, e.g. numba's full message for a user strategy
that does not compile. `--game-path DIR` (anywhere, repeatable; or BALANCE_GAME_PATH) adds
the games kept in DIR (`balance new-game`, docs/adding-a-game.md). Ctrl-C and SIGTERM stop a run with one line (exit 130 / 143); the same
command resumes it.
"""
from __future__ import annotations

import argparse
import os
import sys

from scripts import cli_calibrate, cli_cards, cli_designer, cli_ladder, cli_newgame
from sim.game_api import ToolkitError


class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line instead of usage + message
        raise _UsageError(f"{message} (see '{self.prog} --help')")


def _int(kind: str):
    def parse(text: str) -> int:
        try:
            v = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{kind} must be an integer, got '{text}'") from None
        return v
    parse.__name__ = kind
    return parse


def _add_global_options(p) -> None:
    """The options that may stand anywhere on the line (main() takes them out before parsing):
    listed here so that `balance --help` shows them."""
    p.add_argument("--game-path", action="append", default=[], metavar="DIR",
                   help="also know the games in DIR (a game package or a folder of them, "
                        "e.g. written by `balance new-game`); repeatable, may stand anywhere; "
                        "the same as BALANCE_GAME_PATH")
    p.add_argument("--debug", action="store_true",
                   help="with an error, also print what lies behind it (e.g. numba's full "
                        "message for a user strategy); may be given anywhere on the line")


def _add_listing_parsers(sub) -> None:
    """`games`, `strategies` and `components`: what the toolkit knows, nothing played (except
    `strategies --coverage`)."""
    sub.add_parser("games", help="list the games")

    s = sub.add_parser("strategies", help="built-in strategies of a game and their parameters")
    s.add_argument("game")
    _add_coverage_options(s)

    s = sub.add_parser("components", help="print the default component file of a game")
    s.add_argument("game")


def _add_run_parser(sub) -> None:
    """`balance run`: what is played (game, players, strategies, games, seed, components),
    where and how (workers, chunks, cluster), the designer's stopping rule and seat
    assignment (scripts/cli_designer.py) and `--report`."""
    s = sub.add_parser("run", help="play games and summarise them")
    s.add_argument("game")
    s.add_argument("--players", type=_int("players"), default=None,
                   help="player count (default: 4, within the game's range)")
    s.add_argument("--games", type=_int("games"), default=10000,
                   help="games to play (default 10000)")
    s.add_argument("--strategies", default=None,
                   help="comma-separated strategy per seat, or one for all seats (default: the "
                        "game's own, e.g. greedy; see `balance strategies GAME`); built-in "
                        "names, variant names from --variants, or path/file.py:function")
    s.add_argument("--snapshots", type=_int("--snapshots"), nargs="?", const=200, default=0,
                   metavar="N",
                   help="also record the game over time: replay the first N games (200 when N "
                        "is left out) and write their per-round snapshots and legal-option "
                        "counts to snapshots/ in the run folder (docs/report.md)")
    s.add_argument("--rotate-seats", action="store_true",
                   help="seat the strategies in every distinct order in turn, each deal played "
                        "under every seating (games rounded up to whole rotations), so that "
                        "seat fairness and strategy strength are measured apart")
    s.add_argument("--seed", type=_int("seed"), default=1, help="run seed (default 1)")
    s.add_argument("--workers", type=_int("workers"), default=None,
                   help="worker processes (default: all cores)")
    s.add_argument("--out", default=None, help="output folder (default runs/<game>-<time>)")
    s.add_argument("--components", default=None, help="component file (default: the game's own)")
    s.add_argument("--set", action="append", default=[], dest="overrides", metavar="PATH=VALUE",
                   help="change one field of the component file, e.g. 'commissions[12].points=5' "
                        "or 'rules.wake_tie=seat' (repeatable; validated like the file)")
    s.add_argument("--variants", default=None, help="TOML file of named strategy variants")
    s.add_argument("--chunk-size", type=_int("chunk size"), default=None,
                   help="games per chunk (default: up to 20000)")
    s.add_argument("--overwrite", action="store_true",
                   help="replace a previous run of this toolkit in --out: only the files the "
                        "toolkit wrote there are removed, the others are kept and named")
    s.add_argument("--no-progress", action="store_true", help="no progress bar")
    s.add_argument("--scheduler", default=None,
                   help="dask.distributed scheduler address (tcp://host:port): run on a cluster")
    cli_designer.add_run_options(s)
    _add_run_report_options(s)  # `run --report` (balance report section below)


def _add_run_folder_parsers(sub) -> None:
    """`summary` and `replay`: commands that read a run folder already played."""
    s = sub.add_parser("summary", help="print the summary of a run already played")
    s.add_argument("dir")

    s = sub.add_parser("replay", help="turn-by-turn trace of one game of a run")
    s.add_argument("dir")
    s.add_argument("--game", type=_int("game index"), required=True, dest="game_index",
                   help="game index (0-based)")
    s.add_argument("--strategy-file", action="append", default=[], dest="strategy_files",
                   metavar="PATH",
                   help="a user strategy file the run played (repeatable); its SHA-256 must be "
                        "the one the run recorded. The toolkit never imports a file because a "
                        "run folder names it")


def _add_warm_parser(sub) -> None:
    """`balance warm`: compile the engines ahead of a run."""
    s = sub.add_parser("warm", help="compile the engines of the games (default: all) ahead of "
                                    "a run, one process per game on every core")
    s.add_argument("games", nargs="*", metavar="GAME")
    s.add_argument("--kinds", default="play",
                   help="comma-separated kernels to compile: play (balance run), checked (the "
                        "tests' state checks), trace (replay, report examples), search (mcts, "
                        "flatmc), counterfactual (balance cards, the report's card check), "
                        "snapshot (run --snapshots), or all (default play)")
    s.add_argument("--jobs", type=_int("jobs"), default=None,
                   help="games compiled at once (default: the cores)")


def _add_module_commands(sub) -> None:
    """The commands kept in modules of their own, each adding its parsers and its entries of
    COMMANDS: compare / sweep / tune (the designer's workflow), calibrate, cards, ladder and
    new-game."""
    COMMANDS.update(cli_designer.add_commands(sub, _int))
    COMMANDS.update(cli_calibrate.add_commands(sub, _int))
    COMMANDS.update(cli_cards.add_commands(sub, _int))
    COMMANDS.update(cli_ladder.add_commands(sub, _int))
    COMMANDS.update(cli_newgame.add_commands(sub, _int))


def build_parser() -> argparse.ArgumentParser:
    """The parser of every `balance` command; its errors are one line (_Parser). The order of
    the commands is the order of `balance --help`."""
    p = _Parser(prog="balance", description="Monte-Carlo balance toolkit for tabletop games.")
    _add_global_options(p)
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    _add_listing_parsers(sub)
    _add_run_parser(sub)
    _add_report_parser(sub)
    _add_run_folder_parsers(sub)
    _add_warm_parser(sub)
    _add_module_commands(sub)
    return p


# --- commands -----------------------------------------------------------------------------------
def _cmd_games(args, out) -> int:
    from sim.registry import list_games

    games = list_games()
    rows = [[g.name, g.title, f"{g.min_players}-{g.max_players}" if g.min_players != g.max_players
             else str(g.min_players), ", ".join(g.aliases)] for g in games]
    headers = ["name", "title", "players", "aliases"]
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(headers)]
    print("  ".join(h.ljust(w) for h, w in zip(headers, widths)).rstrip(), file=out)
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip(), file=out)
    if not games:
        print("(no games registered)", file=out)
    return 0


def _add_coverage_options(s) -> None:
    s.add_argument("--coverage", action="store_true",
                   help="the share of each card type's cards each built-in ever chooses: plays "
                        "--games games with each built-in in every seat (or reads --run DIR)")
    s.add_argument("--run", default=None, metavar="DIR",
                   help="with --coverage: read this run folder's strategies instead of playing")
    s.add_argument("--players", type=_int("players"), default=None,
                   help="with --coverage: player count (default: 4, within the game's range)")
    s.add_argument("--games", type=_int("games"), default=None,
                   help="with --coverage: games per built-in (default 500)")
    s.add_argument("--seed", type=_int("seed"), default=1, help="with --coverage: seed")
    s.add_argument("--workers", type=_int("workers"), default=None,
                   help="with --coverage: worker processes (default: all cores)")
    s.add_argument("--out", default=None,
                   help="with --coverage: keep the games in this folder (default: a temporary "
                        "folder, removed)")


def _cmd_coverage(args, out) -> int:
    import shutil

    from sim.api.coverage import DEFAULT_GAMES, coverage
    if args.run is not None and (args.players is not None or args.games is not None
                                 or args.out is not None):
        raise ToolkitError("--run reads the games of a run folder: --players, --games and --out "
                           "are for the games --coverage plays")
    r = coverage(args.game, players=args.players, games=args.games or DEFAULT_GAMES,
                 seed=args.seed, out=args.out, run=args.run, workers=args.workers,
                 progress=False)
    print(r.text(), file=out)
    if r.temporary:      # the games were only a means: nothing left behind
        shutil.rmtree(r.path, ignore_errors=True)
    return 0


def _cmd_strategies(args, out) -> int:
    from sim.registry import get_game
    from strategies.registry import describe_catalog

    if args.coverage:
        return _cmd_coverage(args, out)
    if args.run is not None:
        raise ToolkitError("--run reads a run folder for --coverage; add --coverage")
    spec = get_game(args.game)
    print(f"{spec.title}: built-in strategies", file=out)
    for line in describe_catalog(spec.strategy_catalog()):
        print(line, file=out)
    print(f"default (every seat, when a command is given no --strategies): "
          f"{spec.default_strategy_name()}", file=out)
    return 0


def _cmd_components(args, out) -> int:
    from sim.registry import get_game

    spec = get_game(args.game)
    text = spec.default_components_text()
    out.write(text if text.endswith("\n") else text + "\n")
    return 0


def _players_for(spec, requested) -> int:   # an alias of the API's players_for (docs/api.md)
    from sim.api.common import players_for
    return players_for(spec, requested)


def _cmd_run(args, out) -> int:
    """`balance run`: sim.api.run with the options as keywords, then the summary printed."""
    from sim import api
    from sim.api.common import default_out
    from sim.registry import get_game

    spec = get_game(args.game)
    out_dir = args.out or default_out(spec)
    hold_folder(out_dir)   # one writer: from the folder check to the report's last write
    if getattr(args, "report", False):  # the report folder is checked before any game is played
        from reports.output import check_report_dir
        check_report_dir(args.report_out or os.path.join(out_dir, "report"), "--report-out")
    argv = sys.argv[1:] if args._argv is None else args._argv
    r = api.run(args.game, players=args.players, strategies=args.strategies, games=args.games,
                seed=args.seed, set=list(args.overrides), out=out_dir,
                components=args.components, variants=args.variants,
                rotate_seats=args.rotate_seats, workers=args.workers, chunk_size=args.chunk_size,
                snapshots=args.snapshots,
                precision=args.precision, max_games=args.max_games, overwrite=args.overwrite,
                progress=not args.no_progress, scheduler=args.scheduler,
                command_line=["balance", *argv], echo=out, assign=list(args.assign))
    from sim import runner
    print(f"logs: {os.path.join(r.path, runner.CHUNK_DIR)}  manifest: "
          f"{os.path.join(r.path, runner.MANIFEST)}", file=out)
    print("", file=out)
    print(r.summary_text(), file=out)
    if getattr(args, "report", False):
        return _report_after_run(args, r.path, out)
    return 0


def strategy_names(spec, text: str | None) -> list:
    """--strategies as a list; none given: the game's declared default in every seat."""
    if text is None:
        return [spec.default_strategy_name()]
    return [n.strip() for n in text.split(",")]


def _cmd_summary(args, out) -> int:
    from sim.api import open_run

    r = open_run(args.dir)   # manifest, chunks and component copy checked: one line if not
    if not r.complete:
        print(f"note: this run is not complete (status {r.manifest.get('status')}); "
              f"run the same command again to finish it", file=out)
    for note in r.notes:
        print(f"note: {note}", file=out)
    print(r.summary_text(), file=out)
    return 0


def prepared_from_manifest(out_dir: str, strategy_files=()):   # an alias (docs/api.md)
    from sim.api.runs import prepared_from_manifest as _p
    return _p(out_dir, strategy_files)


def _cmd_replay(args, out) -> int:
    from sim.api.runs import replay_lines
    for line in replay_lines(args.dir, args.game_index, args.strategy_files):
        print(line, file=out)
    return 0


# --- balance report: `balance report DIR` and `balance run ... --report` -----------------------
def _add_report_parser(sub) -> None:
    s = sub.add_parser("report", help="write the balance report (HTML and Markdown) of a run")
    s.add_argument("dir", help="run folder (written by `balance run`)")
    s.add_argument("others", nargs="*", metavar="MORE",
                   help="more run folders, reported side by side with DIR (e.g. 2, 3 and 4 "
                        "players): one verdict table with a column per run")
    s.add_argument("--out", default=None,
                   help="report folder (default: DIR/report; with more runs DIR/report-several)")
    s.add_argument("--format", default="html,md", dest="formats",
                   help="comma-separated formats: html, md (default html,md)")
    s.add_argument("--partial", action="store_true",
                   help="report an incomplete run from the chunks it has so far")
    s.add_argument("--no-progress", action="store_true", help="no progress bar")
    s.add_argument("--card-check", type=int, default=None, metavar="GAMES",
                   help="games per value with which each flagged card (at most 40) is played "
                        "again one point lower and one point higher on the run's own seeds, to "
                        "say whether the players respond to its value (default 500; needs the "
                        "game's engine; 0: not checked, the verdicts say so)")


def _add_run_report_options(s) -> None:
    s.add_argument("--report", action="store_true",
                   help="also write the balance report (HTML and Markdown) when the run ends")
    s.add_argument("--report-out", default=None,
                   help="report folder for --report (default: OUT/report)")


def _write_report(run_dir: str, out_dir: str, formats: list, progress: bool, partial: bool,
                  out, card_check: int | None = None, others=()) -> int:
    from sim.api.runs import Run

    files = Run(run_dir).report(out_dir, formats=formats, card_check=card_check,
                                partial=partial, progress=progress, others=list(others))
    a = files.analysis
    if others:
        print(f"balance report of {len(others) + 1} runs side by side "
              f"({files.seconds:.1f} s)", file=out)
        for path in (files.html, files.markdown):
            if path:
                print(f"report: {os.path.abspath(path)}", file=out)
        return 0
    print(f"balance report of {a.n_games:,} games ({files.seconds:.1f} s)", file=out)
    verdicts = files.verdicts
    for v in verdicts[:8]:
        print(f"  {v}", file=out)
    if len(verdicts) > 8:
        print(f"  ... {len(verdicts) - 8} more in the report", file=out)
    for path in (files.html, files.markdown):
        if path:
            print(f"report: {os.path.abspath(path)}", file=out)
    return 0


def _report_formats(text: str) -> list:
    formats = [f.strip().lower() for f in text.split(",") if f.strip()]
    formats = ["md" if f == "markdown" else f for f in formats]
    bad = [f for f in formats if f not in ("html", "md")]
    if bad or not formats:
        raise ToolkitError(f"--format must list html and/or md, got '{text}'")
    return formats


def _cmd_report(args, out) -> int:
    formats = _report_formats(args.formats)
    for d in [args.dir, *args.others]:   # before the lock, which would make the folder
        if not os.path.isdir(d):
            raise ToolkitError(f"{d}: no such run folder")
    out_dir = args.out or os.path.join(args.dir, "report-several" if args.others else "report")
    hold_folder(out_dir)
    return _write_report(args.dir, out_dir, formats, not args.no_progress, args.partial, out,
                         args.card_check, args.others)


def _report_after_run(args, run_dir: str, out) -> int:
    print("", file=out)
    out_dir = args.report_out or os.path.join(run_dir, "report")
    return _write_report(run_dir, out_dir, ["html", "md"], not args.no_progress, False, out)
# --- end of the balance report section ---------------------------------------------------------


def _cmd_warm(args, out) -> int:
    from sim.registry import get_game, list_games
    from sim.warm import KINDS, warm
    kinds = [k.strip() for k in args.kinds.split(",") if k.strip()]
    kinds = list(KINDS) if kinds == ["all"] else kinds
    bad = [k for k in kinds if k not in KINDS]
    if bad or not kinds:
        raise ToolkitError(f"--kinds must list {', '.join(KINDS)} or all, got '{args.kinds}'")
    if args.jobs is not None and args.jobs < 1:
        raise ToolkitError(f"--jobs must be at least 1, got {args.jobs}")
    names = [get_game(g).name for g in args.games] or [g.name for g in list_games()]
    try:
        warm(list(dict.fromkeys(names)), kinds, args.jobs)
    except RuntimeError as exc:
        raise ToolkitError(str(exc)) from None
    return 0


COMMANDS = {"games": _cmd_games, "strategies": _cmd_strategies, "components": _cmd_components,
            "run": _cmd_run, "summary": _cmd_summary, "replay": _cmd_replay,
            "report": _cmd_report, "warm": _cmd_warm}


def hold_folder(path: str) -> None:
    """The folder a command writes is its own until the command ends (sim/folder_lock.py): a
    second command writing there is refused with one line naming this one."""
    from sim import folder_lock
    folder_lock.keep(path)


def _check_sizes(args, err) -> None:
    """Absurd sizes refused before any work; more local workers than cores warned about."""
    from sim import limits
    for name in ("games", "max_games"):
        v = getattr(args, name, None)
        if isinstance(v, int) and v > limits.MAX_GAMES:   # the rest: with every other problem
            limits.check_games(v, "--" + name.replace("_", "-"))
    if not getattr(args, "scheduler", None):
        warning = limits.workers_warning(getattr(args, "workers", None))
        if warning:
            print(warning, file=err)


def _stopped(code: int, from_command_line: bool) -> int:
    """Ctrl-C / SIGTERM: the command-line process leaves at once. What a run keeps is written
    by then (its manifest, its chunks); a chunk may still be playing in a thread of this
    process (sim/processes.py), and the interpreter's shutdown took seconds around it. A
    caller of main() (the tests) gets the code back."""
    if not from_command_line:
        return code
    _flush_std_streams()
    os._exit(code)


def _quiet_resource_tracker() -> None:
    """loky's resource tracker is a process of its own that outlives a run stopped by Ctrl-C or
    SIGTERM (the command line leaves with os._exit), finds the workers' semaphores still
    registered, frees them (its job) and warns about it on the terminal it shares with us,
    after our one closing line. The freeing is right; the warning is not the user's to read.
    The tracker is started with this environment, so the filter reaches it; --debug keeps it."""
    quiet = "ignore:resource_tracker:UserWarning"
    current = os.environ.get("PYTHONWARNINGS", "")
    if quiet not in current.split(","):
        os.environ["PYTHONWARNINGS"] = ",".join(filter(None, [current, quiet]))


def _take_game_paths(argv: list):
    """(argv without them, the folders of every `--game-path DIR` / `--game-path=DIR`):
    global like --debug, accepted anywhere on the line."""
    rest, paths, i = [], [], 0
    while i < len(argv):
        a = argv[i]
        if a == "--game-path" and i + 1 < len(argv):
            paths.append(argv[i + 1])
            i += 2
            continue
        if a.startswith("--game-path="):
            paths.append(a.split("=", 1)[1])
        else:
            rest.append(a)
        i += 1
    return rest, paths


def main(argv=None) -> int:
    """The `balance` command: `argv` None reads the command line, and the process then ends
    without the interpreter's teardown (`_leave`); a caller's `argv` (the tests, the API's
    users) gets the exit code back."""
    if argv is None:
        # a command-line process is short: no full pass of the cyclic collector, which after
        # a cold compile walks millions of objects (sim/numba_frontend.py)
        from sim.numba_frontend import young_collections_only
        young_collections_only()
    code = _command(argv)
    if argv is None:
        _leave(code)
    return code


def _flush_std_streams() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BrokenPipeError:   # the reader left (`| head`): nothing more to tell it
            _quiet_stdout()
        except (OSError, ValueError):
            pass


def _leave(code: int) -> None:
    """End the command-line process once its command is done, as the interpreter would,
    minus the teardown: its threads joined, every exit handler run (the locks' releases,
    multiprocessing's and loky's), the standard streams flushed, then `os._exit`. The
    teardown that is skipped frees each of the ~1,100 modules' objects one by one (numba's,
    pandas', pyarrow's): 0.25-0.35 s of one core after every command, with nothing left to
    write by then (measured 2026-12-04 with strace: no system call between the last line and
    the end of it). An interpreter without `atexit._run_exitfuncs` takes the ordinary way."""
    import atexit
    import threading

    run_exit_handlers = getattr(atexit, "_run_exitfuncs", None)
    if run_exit_handlers is None:   # pragma: no cover - CPython has it
        return
    for thread in threading.enumerate():   # what the interpreter waits for before its exit
        if thread is not threading.current_thread() and not thread.daemon:
            thread.join()
    run_exit_handlers()
    _flush_std_streams()
    os._exit(code)


def _command(argv) -> int:
    from sim import limits, processes

    out, err = sys.stdout, sys.stderr
    from_command_line = argv is None
    argv = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in argv  # global: accepted anywhere on the line
    argv, game_paths = _take_game_paths(argv)
    parser = build_parser()
    try:
        args = parser.parse_args([a for a in argv if a != "--debug"])
    except _UsageError as exc:
        print(f"balance: error: {exc}", file=err)
        return 2
    except SystemExit as exc:  # --help
        try:
            out.flush()
        except BrokenPipeError:
            _quiet_stdout()
        return int(exc.code or 0)
    except BrokenPipeError:   # `balance --help | head -1`
        _quiet_stdout()
        return 0
    args._argv = [a for a in argv if a != "--debug"]
    if from_command_line and not debug:
        _quiet_resource_tracker()
    import shlex
    import warnings

    from sim import folder_lock
    from sim.registry import add_game_path
    folder_lock.COMMAND = shlex.join(["balance", *args._argv])   # named by a refused writer
    try:
        # a library's warning (matplotlib, pandas, numpy) is not the user's to read: the
        # toolkit says what matters in its own words; --debug shows them
        with processes.sigterm_as_interrupt(), warnings.catch_warnings(), folder_lock.scope():
            if not debug:
                warnings.simplefilter("ignore")
            for folder in game_paths:
                add_game_path(folder)
            _check_sizes(args, err)
            code = COMMANDS[args.command](args, out)
            out.flush()   # a reader gone (`| head`) is found here, not at the exit
            if from_command_line:
                processes.release_workers()   # the exit need not wait for idle workers
            return code
    except BrokenPipeError:  # `balance strategies sunset | head`: the reader left, not an error
        _quiet_stdout()
        return 0
    except ToolkitError as exc:
        for line in exc.lines:
            line = "; ".join(part.strip() for part in str(line).splitlines() if part.strip())
            print(f"balance: error: {line}", file=err)
        if debug and getattr(exc, "detail", ""):
            print(exc.detail.rstrip(), file=err)
        return 2
    except processes.Terminated:
        print("balance: terminated (SIGTERM); run the same command again to resume", file=err)
        return _stopped(143, from_command_line)
    except KeyboardInterrupt:
        print("balance: interrupted; run the same command again to resume", file=err)
        return _stopped(130, from_command_line)
    except OSError as exc:  # a full disk, a read-only folder, a path too long: one line
        line = limits.os_error_line(exc)
        if line is None:
            raise
        print(f"balance: error: {line}", file=err)
        if debug:
            import traceback
            traceback.print_exception(type(exc), exc, exc.__traceback__, file=err)
        return 2


def _quiet_stdout() -> None:
    """The reader of stdout is gone: what is still buffered goes nowhere, and the
    interpreter's own flush at exit finds nothing to complain about."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):   # stdout is not a file (e.g. captured): nothing to flush
        pass


if __name__ == "__main__":
    sys.exit(main())
