"""`run`, `open_run` and the Run object: play games, read a run folder, summarise, report,
replay. The CLI's `balance run / summary / report / replay` call exactly these."""
from __future__ import annotations

import os

from sim.api.common import check_common, echo_to, overrides, strategy_list, \
    temporary_out
from sim import folder_lock, limits
from sim.game_api import ToolkitError


class Run:
    """A run folder: its checked manifest, its logs and everything computed from them.

        r = run("sunset", players=4, games=2000, seed=1)
        r.logs                 # one row per seat and game (pandas DataFrame)
        r.manifest             # the configuration, timings, chunk hashes (dict)
        s = r.summary()        # s.seats, s.strategies, s.head_to_head, s.ratings: DataFrames
        r.report("my-report")  # HTML + Markdown, the same numbers as the terminal
    """

    def __init__(self, path: str, notes=(), temporary: bool = False, rotation_note: str = "",
                 precision_notes=()):
        self.path = os.path.abspath(path)
        self.temporary = temporary
        self.rotation_note = rotation_note
        self.precision_notes = list(precision_notes)
        self._folder = None
        self._logs = None
        self._notes = list(notes)

    def __repr__(self):
        m = self.manifest
        return (f"Run({self.path!r}: {m.get('game')}, {m.get('games')} games, "
                f"{m.get('players')} players, seed {m.get('seed')})")

    # --- the folder -----------------------------------------------------------------------
    @property
    def folder(self):
        """The checked run folder (sim/run_folder.py: manifest, chunks, component copy)."""
        if self._folder is None:
            from sim.run_folder import open_run as _open
            self._folder = _open(self.path, allow_incomplete=True)
        return self._folder

    @property
    def manifest(self) -> dict:
        return self.folder.manifest

    @property
    def complete(self) -> bool:
        return bool(self.folder.complete)

    @property
    def notes(self) -> list:
        return self._notes + list(self.folder.notes)

    @property
    def spec(self):
        return self.folder.spec

    @property
    def logs(self):
        """Every logged row (pandas DataFrame, one row per seat and game)."""
        if self._logs is None:
            from sim.runner import read_logs
            self._logs = read_logs(self.path)
        return self._logs

    # --- analysis -------------------------------------------------------------------------
    def summary(self, confidence: float = 0.95):
        """The summary (analysis/summary.py): .seats, .strategies, .head_to_head, .ratings,
        .end_reasons as DataFrames; the game's own breakdowns in .extra['breakdowns']. The
        numbers `balance summary` prints."""
        from analysis.breakdowns import for_summary
        from analysis.summary import summarize_run

        folder = self.folder
        spec = folder.spec
        names = getattr(spec, "end_reason_names", None) if spec is not None else None
        if names is None and spec is not None:
            names = getattr(getattr(spec, "enums", None), "END_REASON_NAMES", None)
        s = summarize_run(folder, confidence=confidence, end_reason_names=names)
        s.extra["breakdowns"] = for_summary(spec, folder, s.n_players, confidence)
        if spec is not None:   # how the game's start player is chosen (analysis/metadata.py)
            from analysis.metadata import game_metadata, start_declaration
            s.extra["start"] = start_declaration(game_metadata(spec), folder.logs.columns,
                                                 s.n_players)
        return s

    def summary_text(self) -> str:
        """The summary as the terminal prints it (reports/terminal.py)."""
        from reports.terminal import format_summary
        return format_summary(self.summary(), self.manifest)

    def analysis(self, card_check: int = 0, partial: bool = False, progress: bool = False):
        """The report's analysis (analysis/balance.py BalanceAnalysis): tables, verdicts,
        flags. card_check > 0: the flagged and never-taken cards' counterfactual advantage
        from the run's first `card_check` games (sim/api/card_check.py)."""
        from reports.build import analyse_run
        from sim.api.card_check import checker
        return analyse_run(self.path, progress=progress, allow_incomplete=partial,
                           card_checker=checker(card_check))

    def findings(self, card_check: int = 0, partial: bool = False):
        """The report's verdicts and flags as data: a DataFrame, one row per finding
        (analysis/findings.py: kind, subject, verdict, statistic, value, low, high, reference,
        p_holm, effect ...), with `is_verdict`, `is_flag` and the `sentence` the report
        prints for it (reports/findings.py)."""
        from reports.findings import findings_table
        return findings_table(self.analysis(card_check=card_check, partial=partial))

    @folder_lock.scoped
    def report(self, path: str | None = None, formats=("html", "md"), card_check=None,
               partial: bool = False, progress: bool = False, others=()):
        """Write the balance report (HTML and/or Markdown) into `path` (default: RUN/report);
        returns reports.build.ReportFiles (.html, .markdown, .analysis). `others`: more runs
        (Run objects or folders) reported side by side with this one (default folder:
        RUN/report-several): one table of verdicts with a column per run, figures on shared
        axes, each run's own report linked (.analyses: every run's analysis)."""
        from reports.build import write_report, write_several_reports
        from sim.api.card_check import checker
        from sim.cards import REPORT_CHECK_GAMES

        card_check = REPORT_CHECK_GAMES if card_check is None else card_check
        card_check = limits.count(card_check, "--card-check", 0, limits.MAX_GAMES)
        if isinstance(others, (str, Run)):
            others = [others]
        dirs = [self.path] + [o.path if isinstance(o, Run) else str(o) for o in others]
        for d in dirs[1:]:
            open_run(d)           # one line for a folder that holds no run
        out = path or os.path.join(self.path, "report-several" if others else "report")
        folder_lock.keep(out)    # one report writer at a time, until its last write
        if others:
            return write_several_reports(dirs, out, formats=list(formats), progress=progress,
                                         allow_incomplete=partial,
                                         card_checker=checker(card_check))
        return write_report(self.path, out, formats=list(formats), progress=progress,
                            allow_incomplete=partial, card_checker=checker(card_check))

    def replay(self, game: int, strategy_files=()) -> list:
        """The turn-by-turn trace of game `game` (0-based), checked against its logged row."""
        return replay_lines(self.path, game, strategy_files)

    # --- the game over time (snapshots/: `run(..., snapshots=N)`, `record_snapshots`) ---------
    def _snapshots(self):
        got = self.folder.snapshots()
        if got is None:
            raise ToolkitError(f"{self.path}: no snapshots recorded (run with snapshots=N, "
                               f"`balance run --snapshots N`, or Run.record_snapshots(N))")
        return got

    def record_snapshots(self, games: int = 200) -> str:
        """Replay the run's first `games` games and write their snapshots; the line saying so."""
        return record_snapshots(self.path, games)

    def snapshots(self):
        """One row per (game, round, seat): the game's snapshot quantities, strategy, win,
        position (start position, 1 = first)."""
        return self._snapshots()[0]

    def decisions(self):
        """One row per decision of the snapshot games: round, seat, decision, options."""
        return self._snapshots()[1]

    def curves(self, quantity: str = "score", by: str | None = "strategy"):
        """Mean `quantity` per round and `by` with its interval (analysis.game_shape)."""
        from analysis import game_shape
        return game_shape.mean_curves(self._snapshots()[0], quantity, by)

    def game_shape(self, per_game: bool = False):
        """The game-shape measures (lead changes, lead for good, decisiveness, branching
        factor): one row per measure (mean, low, high, n), or one row per game."""
        from analysis import game_shape
        rounds, decisions, _ = self._snapshots()
        return game_shape.per_game(rounds) if per_game else game_shape.summary(rounds, decisions)


def open_run(path: str) -> Run:
    """An existing run folder (written by `run` or `balance run`), checked; one line
    (ToolkitError) when it holds no run."""
    from sim.run_folder import open_run as _open
    from sim.run_folder import read_manifest

    read_manifest(path)          # "no run found here" for a folder that holds none
    r = Run(path)
    r._folder = _open(path)      # manifest, chunks and component copy checked
    return r


def _import_summary() -> None:
    """The modules of the summary that follows a run (pandas among them: about 0.5 s),
    imported while other processes play the games rather than after them. A failure here
    is left to the summary's own import, which says it."""
    try:
        import analysis.breakdowns  # noqa: F401
        import analysis.summary  # noqa: F401
        import reports.terminal  # noqa: F401
    except Exception:  # pragma: no cover - the same import fails again, loudly, later
        pass


@folder_lock.scoped
def run(game: str, players: int | None = None, strategies=None, games: int = 10_000,
        seed: int = 1, set=None, out: str | None = None, *, components: str | None = None,
        variants: str | None = None, rotate_seats: bool = False, workers: int | None = None,
        chunk_size: int | None = None, precision: float | None = None,
        max_games: int | None = None, overwrite: bool = False, progress: bool = False,
        scheduler: str | None = None, command_line=None, echo=None, assign=None,
        snapshots: int = 0) -> Run:
    """Play `games` games of `game` and return the Run (keyword names: the options of
    `balance run`; `set` is a dict {path: value} or a list of 'PATH=VALUE'). out=None: a
    fresh temporary folder. The same arguments give the same logs as the CLI, for any
    `workers`, `chunk_size` or backend. `assign`: choices assigned at random instead of made
    by the players, e.g. {"window": "random"} or ["window=random"] (sim/assign.py)."""
    from sim import runner
    from sim.assign import with_assignment
    from sim.registry import get_game

    say = echo_to(echo)
    spec = get_game(game)
    n_players = check_common(spec, players, games, seed, components, variants,
                             precision=precision, workers=workers, chunk_size=chunk_size)
    if max_games is not None:
        limits.check_games(max_games, "--max-games")
    if snapshots:         # checked before any game is played
        limits.check_games(snapshots, "--snapshots")
        from sim.snapshots import snapshot_module
        snapshot_module(spec)
    if out is not None:   # one writer: held from before the folder check to the last write
        folder_lock.keep(out)
    backend = "dask" if scheduler else "loky"
    if backend == "dask":
        runner._check_dask()
    comp = spec.load_components(components, overrides(set))
    names = strategy_list(spec, strategies)
    prepared = with_assignment(spec, spec.prepare(comp, n_players, names, seed, variants),
                               assign)
    rotation_note = ""
    if rotate_seats:
        prepared, games, max_games, rotation_note = _rotated(prepared, games, max_games,
                                                             precision)
    temporary = out is None
    out_dir = temporary_out("run") if temporary else out
    if precision is not None:
        chunk_size = _precision_chunk(precision, games, max_games, chunk_size, prepared)
    runner.run(spec, prepared, games, out_dir, workers=workers, chunk_size=chunk_size,
               progress=progress, overwrite=overwrite, backend=backend, scheduler=scheduler,
               command_line=list(command_line) if command_line else None,
               while_playing=_import_summary)
    notes = []
    if precision is not None:   # then grow the run in batches
        from sim import designer
        res = designer.run_configs(spec, [{"dir": out_dir, "prepared": prepared}], games, seed,
                                   out_dir, workers=workers, progress=progress,
                                   precision=precision, max_games=max_games,
                                   by=("seat", "strategy"), chunk_size=chunk_size)
        notes = precision_notes(res)
    snapshot_line = record_snapshots(out_dir, snapshots) if snapshots else ""
    r = Run(out_dir, temporary=temporary, rotation_note=rotation_note, precision_notes=notes)
    if rotation_note:
        say(rotation_note)
    for line in notes + ([snapshot_line] if snapshot_line else []):
        say(line)
    return r


def _rotated(prepared, games: int, max_games, precision):
    """The run with its seats rotated: (prepared, games and the cap rounded up to whole
    rotations, the line saying so)."""
    from sim import rotation
    prepared = rotation.rotated(prepared)
    n_rot = len(prepared.rotation)
    whole = rotation.whole_rotations(games, prepared)
    note = (f"seats rotated: {n_rot} seating{'s' if n_rot != 1 else ''} of "
            f"{', '.join(prepared.strategy_names)}, each deal played under every "
            f"seating; {whole:,} games" +
            (f" ({games:,} rounded up to whole rotations)" if whole != games else ""))
    if max_games is not None or precision is not None:  # the cap too
        max_games = rotation.whole_rotations(max_games or 10_000_000, prepared)
    return prepared, whole, max_games, note


def _precision_chunk(precision: float, games: int, max_games, chunk_size, prepared) -> int:
    """The chunk size of a run grown to a precision (checked): batches of whole rotations, so
    that every seating stays equally often at every step."""
    from sim.designer import precision_chunk
    if not 0 < precision < 0.5:
        raise ToolkitError(f"--precision must be between 0 and 0.5, got {precision}")
    if max_games is not None and max_games < games:
        raise ToolkitError(f"--max-games ({max_games}) must be at least --games ({games})")
    rot = len(prepared.rotation or [[0]])
    if chunk_size is not None and chunk_size % rot:
        raise ToolkitError(f"--chunk-size with --precision and --rotate-seats must be a "
                           f"multiple of the {rot} seatings (the run grows by whole chunks), "
                           f"got {chunk_size}")
    return chunk_size or -(-precision_chunk(games) // rot) * rot


def precision_notes(res) -> list:
    """The line that says whether a --precision target was reached."""
    if res.get("precision") is None:
        return []
    word = "reached" if res["reached"] else "NOT reached (cap)"
    return [f"precision +/-{res['precision']:.4f} {word}: largest headline half-width "
            f"{res['halfwidth']:.4f} after {res['games']:,} games per configuration "
            f"({len(res['rounds'])} batches)"]


def record_snapshots(out_dir: str, games: int, strategy_files=()) -> str:
    """Replay the first `games` games of a finished run and write its per-round snapshots
    (sim/snapshots.py; the report's "game over time"); returns the line that says so."""
    from sim import snapshots as snap
    limits.check_games(games, "--snapshots")
    spec, prepared, folder = prepared_from_manifest(out_dir, strategy_files)
    snap.snapshot_module(spec)     # a clear error for a game that declares none
    done = snap.write_snapshots(spec, prepared, out_dir, games,
                                int(folder.manifest.get("games") or 0),
                                str(folder.manifest.get("run_id", "")))
    return (f"snapshots: {done['games']:,} games replayed in {done['seconds']:.1f} s (after "
            f"{done['warm_seconds']:.1f} s loading the replay), written to "
            f"{os.path.join(out_dir, snap.SNAPSHOT_FOLDER)}")


# --- replay --------------------------------------------------------------------------------
def prepared_from_manifest(out_dir: str, strategy_files=()):
    """(spec, prepared, folder) rebuilt from a checked run folder (sim/run_folder.py),
    independent of the user's files: the run's own component and variants copies. A user
    strategy is loaded only from a file the caller names (`strategy_files`, typed by the user)
    whose SHA-256 is the one the run recorded."""
    from sim.run_folder import open_run as _open

    folder = _open(out_dir, strategy_files=list(strategy_files), need_strategies=True)
    manifest = folder.manifest
    if folder.spec is None:
        raise ToolkitError(f"{out_dir}: game '{manifest['game']}' is not registered here")
    names = []
    for info in manifest["strategies"]:
        src = str(info.get("source", ""))
        if src.startswith("user:"):
            shown = str(info["name"])  # its display name (older runs: the typed path:function)
            prefix = f"{shown}=" if ":" not in shown and "=" not in shown else ""
            names.append(f"{prefix}{folder.strategy_files[src[len('user:'):]]}:{info['base']}")
        else:
            names.append(info["name"])
    prepared = folder.spec.prepare(folder.components, int(manifest["players"]), names,
                                   int(manifest["seed"]), folder.variants_file)
    rot = manifest.get("config", {}).get("rotation")
    if rot:  # replay the seatings the run logged, not ones recomputed by this version
        import dataclasses
        prepared = dataclasses.replace(prepared, rotation=[list(map(int, r)) for r in rot])
    assigned = manifest.get("config", {}).get("assigned")
    if assigned:  # the choices the run assigned at random are drawn the same way again
        from sim.assign import with_assignment
        prepared = with_assignment(folder.spec, prepared, dict(assigned))
    return folder.spec, prepared, folder


def _logged_game(folder, game: int):
    """The logged rows of one game (columns as played), or None if its chunk is not logged."""
    import pyarrow.compute as pc

    from sim.run_folder import read_chunk

    for rec in folder.manifest["chunks"]:
        if rec["first"] <= game < rec["first"] + rec["games"]:
            path = os.path.join(folder.path, "chunks", rec["file"])
            if path in folder.files:
                t = read_chunk(path)
                return t.filter(pc.equal(t.column("game"), game)).to_pydict()
    return None


def replay_lines(run_dir: str, game: int, strategy_files=()) -> list:
    """`balance replay`: the trace of one logged game, which must replay as logged."""
    import numpy as np

    if not os.path.isdir(run_dir):
        raise ToolkitError(f"{run_dir}: no such run folder")
    spec, prepared, folder = prepared_from_manifest(run_dir, strategy_files)
    n = int(folder.manifest["games"])
    if not 0 <= game < n:
        raise ToolkitError(f"--game {game} is out of range: this run has games 0 to {n - 1}")
    logged = _logged_game(folder, game)
    if logged is None:
        raise ToolkitError(f"game {game} is not in the logs yet (the run is not "
                           f"complete); run the same `balance run` command again to finish it")
    # a replay is of the logged game: the same outcome, column by column, or one line
    from sim import rotation
    from sim.processes import call_interruptibly  # Ctrl-C stops a looping user strategy
    again = call_interruptibly(rotation.play_chunk, spec, prepared, game, 1)
    for col, values in again.items():
        mine = np.asarray(values)
        if col == "strategy" or col not in logged:  # strategy: codes here, names in the log
            continue
        if not np.array_equal(mine, np.asarray(logged[col]).astype(mine.dtype)):
            raise ToolkitError(f"{run_dir}: game {game} replays differently from its "
                               f"log (column '{col}'); the run folder does not describe the "
                               f"games it logged")
    head = ([f"assigned at random in this run, not chosen by the strategies: "
             f"{', '.join(prepared.assigned)} (--assign)"] if prepared.assigned else [])
    return head + list(rotation.replay(spec, prepared, game))
