"""compare, sweep, tune and cards: the designer's workflow as library calls (the command
line, scripts/cli_designer.py and scripts/cli_cards.py, only parses, calls and prints).

sim/designer.py plays (seatings, grids, batches to a precision), analysis/ measures,
reports/ writes the documents; every function here returns a result object with DataFrames
and `.report(path)`. Keyword names follow the CLI options (`set`, `vary`, `games`, ...).
"""
from __future__ import annotations

import abc
import math
import os
from dataclasses import dataclass, field

from sim.api.common import (check_common, echo_to, overrides, strategy_list, vary_list)
from sim.api.folders import claim_root, result_root
from sim.api.runs import precision_notes
from sim import folder_lock
from sim.game_api import ToolkitError

TUNE_TRIALS = 30
OBJECTIVES = ("seat-fairness", "start-fairness", "strategy-parity", "card-parity",
              "takers-parity")


def _prepare(spec, components, set_, players, names, seed, variants, extra=(), assigned=()):
    """A configuration's Prepared; `assigned`: the choice names assigned at random (checked
    by sim.assign.parse_assign)."""
    from sim.assign import with_assignment
    comp = spec.load_components(components, tuple(set_) + tuple(extra))
    return with_assignment(spec, spec.prepare(comp, players, names, seed, variants),
                           {n: "random" for n in assigned})


def _assign_plan(assigned) -> dict:
    """The plan's record of the choices assigned at random (none: nothing, so that the plans
    of runs without assignment stay as they were)."""
    return {"assign": [f"{n}=random" for n in assigned]} if assigned else {}


def _meta(spec, comp):
    fn = getattr(spec, "report_metadata", None)
    return fn(comp) if fn else None


def _logs(dirs, columns=None):
    import pandas as pd
    from sim.runner import read_logs
    frames = []
    for i, d in enumerate(dirs):
        df = read_logs(d, columns=columns)
        df["config"] = i
        frames.append(df)
    return pd.concat(frames, ignore_index=True)


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


class _Result(abc.ABC):
    """Common to the designer results: the folder, the notes, `.report(path)`."""
    path: str
    notes: list

    @abc.abstractmethod
    def document(self):
        """The result's report document (reports.designer's Document): each result builds its own."""

    @folder_lock.scoped
    def report(self, path: str | None = None, formats=("html", "md")) -> dict:
        """Write the report (HTML and/or Markdown) into `path` (default: FOLDER/report);
        returns {'html': file, 'md': file}."""
        from reports.designer import write_document
        path = path or os.path.join(self.path, "report")
        folder_lock.keep(path)
        return write_document(self.document(), path, formats)


# --- compare --------------------------------------------------------------------------------
@dataclass
class CompareResult(_Result):
    """.shares (per strategy), .seats, .head_to_head (one row per pair), .ratings: DataFrames;
    .comparison: analysis.designer.Comparison (matrices); .verdicts: plain-language lines."""
    path: str
    comparison: object
    manifest: dict
    notes: list = field(default_factory=list)
    games_per_seating: int = 0

    @property
    def shares(self):
        return self.comparison.shares

    @property
    def seats(self):
        return self.comparison.seats

    @property
    def ratings(self):
        return self.comparison.ratings

    @property
    def head_to_head(self):
        from analysis.tables import head_to_head_rows
        c = self.comparison
        pairs = c.h2h_pairs if c.h2h_pairs is not None else c.h2h_games
        return head_to_head_rows(c.h2h, c.h2h_lo, c.h2h_hi, pairs, c.h2h_games)

    @property
    def verdicts(self) -> list:
        return self.comparison.verdicts

    def document(self):
        from reports.designer import compare_document
        return compare_document(self.comparison, self.manifest, {"notes": self.notes})


@folder_lock.scoped
def compare(game: str, players: int | None = None, strategies=None, games: int = 100_000,
            seed: int = 1, set=None, out: str | None = None, *, components=None, variants=None,
            workers=None, precision=None, max_games=None, overwrite: bool = False,
            progress: bool = False, echo=None, assign=None) -> CompareResult:
    """Play every seating of `strategies` (default: every built-in) on the same seeds,
    `games` in total; win shares, head-to-head and ratings. out=None: a temporary folder.
    `assign`: choices assigned at random ({"window": "random"}, sim/assign.py)."""
    from analysis.designer import analyse_compare
    from analysis.tables import aggregate_run
    from sim.run_folder import open_run
    from reports.designer import compare_verdicts
    from sim import designer
    from sim.assign import parse_assign
    from sim.registry import get_game
    from sim.runner import read_manifest

    say = echo_to(echo)
    spec = get_game(game)
    set_ = overrides(set)
    n_players = check_common(spec, players, games, seed, components, variants, precision,
                             max_games, workers=workers)
    assigned = parse_assign(spec, assign)
    names = strategy_list(spec, strategies, every_builtin=True)
    seats = designer.seatings(names, n_players)
    per = int(math.ceil(games / len(seats)))
    configs = [{"dir": None, "prepared": _prepare(spec, components, set_, n_players, list(s),
                                                  seed, variants, assigned=assigned)}
               for s in seats]
    names = _shown_names(names, seats, configs)
    root, _ = result_root(out, spec, "compare")
    plan = {"kind": "compare", "game": spec.name, "players": n_players, "strategies": names,
            "seatings": [list(s) for s in seats], "games_per_seating": per, "seed": seed,
            "components": components, "overrides": list(set_), "variants": variants,
            "precision": precision, "max_games": max_games, **_assign_plan(assigned)}
    res = _claim_and_play(spec, configs, root, plan, overwrite, "seat", per, seed, say,
                          f"compare: {len(seats)} seatings x {per:,} games, the same seeds in each",
                          by="strategy", workers=workers, progress=progress,
                          precision=precision, max_games=max_games)
    folders = [open_run(c["dir"], load_components=False) for c in configs]
    agg = aggregate_run(folders)   # the one aggregation of every seating
    comp = analyse_compare(agg, names, res["games"], len(seats))
    comp.start, comp.start_info = _start_of(spec, configs[0]["prepared"].components, folders,
                                            n_players)
    comp.verdicts = compare_verdicts(comp)
    result = CompareResult(root, comp, read_manifest(configs[0]["dir"]), precision_notes(res),
                           res["games"])
    designer.write_plan(root, {**plan, "result": {"games_per_seating": res["games"],
                                                  "status": comp.status}})
    return result


def _start_of(spec, comp, folders, players):
    """(the start-position breakdown of these checked run folders or None, the game's start
    declaration): analysis.breakdowns.start_breakdown."""
    from analysis.breakdowns import start_breakdown
    from analysis.metadata import start_declaration
    meta = _meta(spec, comp)
    logs = folders[0].logs
    for f in folders[1:]:
        logs = logs + f.logs
    return (start_breakdown(logs, meta, logs.columns, players),
            start_declaration(meta, logs.columns, players))


def _claim_and_play(spec, configs, root, plan, overwrite, kind, games, seed, say, line, **run):
    """Claim the result folder `root` (writing `plan`; nothing is written before), give each
    configuration its sub-folder `<kind>-NN`, say `line`, then play every configuration with
    the same seeds (sim.designer.run_configs with `run`: by, workers, progress, precision,
    max_games). Returns run_configs' result."""
    from sim import designer
    claim_root(root, plan, overwrite)
    for i, c in enumerate(configs):
        c["dir"] = designer.sub_dir(root, kind, i)
    say(line)
    return designer.run_configs(spec, configs, games, seed, root, **run)


# --- sweep ----------------------------------------------------------------------------------
@dataclass
class SweepResult(_Result):
    """.seat, .strategy, .components, .card, .paired: DataFrames (analysis.designer.SweepResult
    in .result); .labels: the points."""
    path: str
    result: object
    varied: str
    manifest: dict
    notes: list = field(default_factory=list)

    def __getattr__(self, name):   # seat, strategy, card, paired, labels ... of the analysis
        if name.startswith("_") or name in ("result",):
            raise AttributeError(name)
        return getattr(self.result, name)

    def document(self):
        from reports.designer import sweep_document
        return sweep_document(self.result, self.varied, self.manifest, {"notes": self.notes})


def _resolve_names(spec, components, varies):
    """Card names in vary paths turned into indices (`goals[Gallery Day].points` ->
    `goals[5].points`) against the component file as written; one line per unknown name."""
    from sim.overrides import resolve_path, tomllib
    raw = tomllib.loads(spec.load_components(components, ()).text)
    out = []
    for path, values in varies:
        try:
            out.append((resolve_path(raw, path), values))
        except ValueError as exc:
            raise ToolkitError(f"--vary '{path}': {exc}") from None
    return out


def grid_points(spec, components, set_, vary):
    """(axes [(path, values)], points [['PATH=VALUE', ...]]), every point validated before
    anything is played (the first failing point in full, the others counted)."""
    from sim import designer
    varies = _resolve_names(spec, components, [designer.parse_vary(v) for v in vary])
    points = designer.grid(varies)
    failed = []
    for p in points:
        try:
            spec.load_components(components, tuple(set_) + tuple(p))
        except ToolkitError as exc:
            failed.append((p, exc.lines))
    if failed:
        p, lines = failed[0]
        problems = [f"{', '.join(p)}: {line}" for line in lines]
        if len(failed) > 1:
            problems.append(f"... and {len(failed) - 1} more of the {len(points)} values fail too")
        raise ToolkitError(problems[:20])
    return varies, points


@folder_lock.scoped
def sweep(game: str, vary, players: int | None = None, strategies=None, games: int = 20_000,
          seed: int = 1, set=None, out: str | None = None, *, components=None, variants=None,
          workers=None, precision=None, max_games=None, overwrite: bool = False,
          progress: bool = False, echo=None, assign=None) -> SweepResult:
    """Play the same games under every value of `vary` ({path: values} or 'PATH=VALUES'
    texts; several fields: a grid). out=None: a temporary folder. `assign`: choices
    assigned at random (sim/assign.py)."""
    from analysis.designer import analyse_sweep
    from sim import designer
    from sim.assign import parse_assign
    from sim.registry import get_game
    from sim.runner import read_manifest

    say = echo_to(echo)
    spec = get_game(game)
    set_ = overrides(set)
    vary = vary_list(vary)
    if not vary:
        raise ToolkitError("sweep: give at least one --vary")
    n_players = check_common(spec, players, games, seed, components, variants, precision,
                             max_games, workers=workers)
    assigned = parse_assign(spec, assign)
    varies, points = grid_points(spec, components, set_, vary)
    names = strategy_list(spec, strategies)
    configs = [{"prepared": _prepare(spec, components, set_, n_players, names, seed, variants, p,
                                     assigned)} for p in points]
    root, _ = result_root(out, spec, "sweep")
    plan = {"kind": "sweep", "game": spec.name, "players": n_players, "strategies": names,
            "vary": vary, "points": points, "games": games, "seed": seed,
            "components": components, "overrides": list(set_), "variants": variants,
            "precision": precision, "max_games": max_games, **_assign_plan(assigned)}
    res = _claim_and_play(spec, configs, root, plan, overwrite, "point", games, seed, say,
                          f"sweep: {len(points)} points x {games:,} games, the same seeds at "
                          f"every point", by="seat", workers=workers, progress=progress,
                          precision=precision, max_games=max_games)
    meta = _meta(spec, configs[0]["prepared"].components)
    per_point = [_logs([c["dir"]]) for c in configs]
    labels = [", ".join(p) for p in points]
    result = analyse_sweep(per_point, points, labels, meta, [v[0] for v in varies], varies)
    designer.write_plan(root, {**plan, "result": {"games": res["games"]}})
    return SweepResult(root, result, " x ".join(v[0] for v in varies),
                       read_manifest(configs[0]["dir"]), precision_notes(res))


# --- tune -----------------------------------------------------------------------------------
@dataclass
class TuneResult(_Result):
    """.trials (DataFrame: trial, label, one column per varied path, value, se, games,
    baseline), .best and
    .current (dicts), .confirmation (the paired check, or None), .decision (the sentence),
    .suggested (the suggested component file, or None)."""
    path: str
    trials_list: list
    varies: list
    current_values: list
    current: dict
    best: dict
    confirmation: dict | None
    decision: str
    objective: str
    method: str
    manifest: dict
    suggested: str | None
    notes: list = field(default_factory=list)
    # what moves from the current values to each trial (search games) and to the candidate
    # (the check's games): step, quantity, unit, diff, low, high, p, p_holm, moves
    moves: object = None
    edges: list = field(default_factory=list)   # analysis.designer.edge_of_range

    @property
    def trials(self):
        """One row per trial, one column per varied path (its value in that trial): tidy,
        no list in a cell."""
        import pandas as pd

        from analysis.tables import tidy
        paths = [str(v[0]) for v in self.varies]
        rows = []
        for t in self.trials_list:
            row = {k: v for k, v in t.items() if k != "values"}
            row.update(zip(paths, t.get("values") or []))
            rows.append(row)
        # card-parity's advantage, score_advantage: (estimate, low, high) -> X, X_low, X_high
        return tidy(pd.DataFrame(rows))

    def lines(self) -> list:
        return self.document().sections[0].blocks[0]

    def document(self):
        from reports.designer import tune_document
        doc = tune_document(self.trials_list, self.varies, self.current_values, self.current,
                            self.best, self.confirmation, self.decision, self.objective,
                            self.method, self.manifest, {"notes": []}, moves=self.moves)
        doc.sections[0].blocks[0].extend(self.notes)
        return doc


def _tune_axes(spec, components, set_, vary):
    from sim import designer
    varies = _resolve_names(spec, components, [designer.parse_vary(v) for v in vary])
    paths = [p for p, _ in varies]
    if len(set(paths)) != len(paths):
        raise ToolkitError("tune: the same field is given in two --vary")
    problems = []
    for path, values in varies:
        for v in values:
            o = f"{path}={designer.format_value(v)}"
            try:
                spec.load_components(components, tuple(set_) + (o,))
            except ToolkitError as exc:
                problems += [f"{o}: {line}" for line in exc.lines]
    if problems:
        raise ToolkitError(problems[:20])
    return varies


def _ordered(values) -> bool:
    """Numbers (not booleans): the search may use their order."""
    return all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)


def _current_value(comp, path):
    from sim.overrides import parse_path, resolve_steps
    node = comp.data
    try:
        for step in resolve_steps(comp.data, parse_path(path)):  # a card may be named
            node = node[step]
    except (KeyError, IndexError, TypeError, ValueError):
        return None
    return node


def _card_subject(card_info):
    if not card_info:
        return None
    card, cid = card_info
    names = card.get("names", [])
    # the subject of its findings (analysis/balance.py): "Barn (tile)"
    return f"{names[cid]} ({card.get('type')})" if cid < len(names) else None


def _before_after(root, dirs, card_infos, base_rec, best) -> list:
    """Full balance reports of the current values ('before') and of the candidate ('after'),
    both on the check's games: their flags say whether an imbalance is still there."""
    from reports.build import write_report
    from reports.findings import flag_text
    notes = []
    for tag, key, rec in (("before", "base", base_rec), ("after", "best", best)):
        rep = write_report(dirs[key], os.path.join(root, tag))
        subjects = [s for s in (_card_subject(c) for c in card_infos) if s]
        if subjects:
            flagged = [flag_text(f) for f in rep.analysis.flags
                       if f.kind == "card" and f.subject in subjects]
            notes.append(f"{tag} ({rec['label']}): " + ("; ".join(flagged) if flagged else
                         f"{', '.join(subjects)} {'is' if len(subjects) == 1 else 'are'} not "
                         f"flagged: no over- or under-performance beyond the interval")
                         + f" (full report: {rep.html})")
        else:
            other = [f for f in rep.analysis.flags if f.kind != "card"]
            notes.append(f"{tag} ({rec['label']}): {len(other)} start position, seat or strategy flags "
                         f"(full report: {rep.html})")
    return notes


def write_suggested(spec, base_comp, set_, paths, values, target, objective) -> None:
    """The component file with the chosen values (and the run's set overrides) written in,
    comments and layout kept (sim/overrides.py rewrite_components); `values` are TOML
    texts. The suggestion must itself load as a valid file."""
    from sim.overrides import rewrite_components
    chosen = [f"{p}={v}" for p, v in zip(paths, values)]
    header = f"# Suggested by `balance tune` ({objective}): {', '.join(chosen)}\n"
    text = rewrite_components(base_comp.text, list(set_) + chosen, header)
    with open(target, "w", encoding="utf-8") as fh:
        fh.write(text)
    spec.load_components(target)


def _optuna_search(varies, base_idx, base_rec, seed, trials, evaluate) -> None:
    """Optuna's TPE sampler, seeded, one trial after the other (the same call gives the same
    trials). A value is searched by its position in the range, so the sampler may use the
    order of numeric values; other values are categories. The current values, when they are
    in the ranges, are told to the sampler as a finished trial."""
    import warnings

    import optuna
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # multivariate TPE is marked experimental
        sampler = optuna.samplers.TPESampler(seed=seed % 2**32, multivariate=len(varies) > 1,
                                             n_startup_trials=min(10, max(1, trials // 3)))
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
        for t in range(trials):
            trial = study.ask(dists)
            idx = tuple(int(trial.params[p]) for p, _ in varies)
            rec = evaluate([values[i] for (_, values), i in zip(varies, idx)], idx, t + 1)
            study.tell(trial, rec["value"])


@dataclass
class _TuneJob:
    """What every section of `tune` reads: the checked arguments and the search axes."""
    spec: object
    objective: str
    names: list
    n_players: int
    games: int
    confirm_games: int
    seed: int
    set_: list
    components: object
    variants: object
    workers: object
    progress: bool
    say: object
    base_comp: object
    varies: list
    paths: list
    card_infos: list
    current: list
    root: str = ""
    plan: dict = field(default_factory=dict)
    assigned: list = field(default_factory=list)
    start: dict = field(default_factory=dict)   # analysis.metadata.start_declaration
    meta: dict | None = None

    @property
    def strats(self) -> list:
        return sorted(set_of(self.names))

    def overrides_of(self, values) -> list:
        from sim import designer
        return [f"{p}={designer.format_value(v)}" for p, v in zip(self.paths, values)]

    def prepared(self, seed, values):
        return _prepare(self.spec, self.components, self.set_, self.n_players, self.names, seed,
                        self.variants, self.overrides_of(values), self.assigned)

    def objective_rows(self, d):
        from analysis.designer import objective_rows
        from sim.runner import read_logs
        return objective_rows(read_logs(d), self.objective, self.strats, self.card_infos,
                              self.start.get("column"))


def _tune_job(game, vary, objective, players, strategies, games, seed, set, out, trials,
              confirm_games, components, variants, workers, overwrite, progress,
              echo, assign=None) -> _TuneJob:
    """Check the arguments, load the components, claim the result folder."""
    from analysis.designer import card_of_path
    from sim.assign import parse_assign
    from sim.limits import MAX_GAMES, MAX_GRID_POINTS, count, is_whole
    from sim.registry import get_game

    say = echo_to(echo)
    spec = get_game(game)
    set_ = overrides(set)
    vary = vary_list(vary)
    if objective not in OBJECTIVES:
        raise ToolkitError(f"tune: unknown objective '{objective}' ({', '.join(OBJECTIVES)})")
    if not vary:
        raise ToolkitError("tune: give at least one --vary")
    n_players = check_common(spec, players, games, seed, components, variants,
                             workers=workers)
    assigned = parse_assign(spec, assign)
    if not is_whole(trials) or not 1 <= trials <= MAX_GRID_POINTS:   # each trial is a run
        raise ToolkitError(f"--trials must be between 1 and {MAX_GRID_POINTS:,}, got {trials!r}")
    confirm_games = confirm_games if confirm_games is not None else 2 * games
    count(confirm_games, "--confirm-games", 2, MAX_GAMES)
    names = strategy_list(spec, strategies)
    base_comp = spec.load_components(components, tuple(set_))
    varies = _tune_axes(spec, components, set_, vary)
    paths = [p for p, _ in varies]
    meta = _meta(spec, base_comp)
    card_infos = [card_of_path(p, meta) for p in paths]
    if objective in ("card-parity", "takers-parity") and any(c is None for c in card_infos):
        bad = paths[card_infos.index(None)]
        raise ToolkitError(f"tune: {objective} needs every --vary on a card's field, e.g. "
                           f"commissions[12].points (got {bad})")
    if objective == "card-parity" and len(paths) != 1:
        raise ToolkitError("tune: card-parity varies one card's field at a time (its advantage "
                           "is measured on that card's own sampled decision states)")
    if objective == "card-parity" and not card_infos[0][0].get("mask_column"):
        raise ToolkitError(f"tune: card-parity needs a card type the players choose (a mask "
                           f"column); {card_infos[0][0]['type']} has none")
    if objective == "strategy-parity" and len(set_of(names)) < 2:
        raise ToolkitError("tune: strategy-parity needs at least two different strategies")
    from analysis.metadata import start_declaration
    start = start_declaration(meta, [c[0] if isinstance(c, tuple) else c
                                     for c in spec.columns()], n_players)
    if objective == "start-fairness" and start["column"] is None:
        from reports.designer import no_start_position
        raise ToolkitError(f"tune: {no_start_position(spec.title, start, n_players)}")
    current = [_current_value(base_comp, p) for p in paths]
    root, _ = result_root(out, spec, "tune")
    plan = {"kind": "tune", "game": spec.name, "players": n_players, "strategies": names,
            "vary": vary, "games": games, "confirm_games": confirm_games,
            "trials": trials, "seed": seed, "objective": objective,
            "components": components, "overrides": list(set_), "variants": variants,
            **_assign_plan(assigned)}
    claim_root(root, plan, overwrite)
    return _TuneJob(spec, objective, names, n_players, games, confirm_games, seed, set_,
                    components, variants, workers, progress, say, base_comp, varies, paths,
                    card_infos, current, root, plan, assigned, start, meta)


def _tune_search(job: _TuneJob, trials: int):
    """Play the current values, then every combination or Optuna's trials, each on the
    same seeds. Returns (records by label in the order played, the current values' record,
    the method in words)."""
    import itertools

    from analysis.designer import objective_value
    from sim.stats import z_value
    from sim import designer, runner

    z = z_value(0.95)
    varies, sizes = job.varies, [len(v) for _, v in job.varies]
    n_grid = math.prod(sizes)
    chunk = max(500, min(20000, job.games // 2))   # a function of games only (same logs
    #                                                whatever workers)

    def dir_of(idx):
        if idx is None:
            return os.path.join(job.root, "base")
        flat = 0
        for i, n in zip(idx, sizes):
            flat = flat * n + i
        return designer.sub_dir(job.root, "point", flat)

    base_idx = []
    for (_, values), cur in zip(varies, job.current):
        hit = [i for i, v in enumerate(values) if v == cur and type(v) is type(cur)]
        base_idx.append(hit[0] if hit else None)
    base_idx = tuple(base_idx) if None not in base_idx else None
    evaluated = {}   # label -> record, in the order played

    def evaluate(values, idx, trial):
        label = ", ".join(job.overrides_of(values))
        if label in evaluated:   # the sampler asked again: the same games, nothing to play
            if trial != evaluated[label]["trial"]:
                job.say(f"tune trial {trial}: {label}: already played (trial "
                        f"{evaluated[label]['trial']})")
            return evaluated[label]
        d = dir_of(idx)
        runner.run_many(job.spec, [(job.prepared(job.seed, values), job.games, d)],
                        workers=job.workers, progress=job.progress, chunk_size=chunk)
        v, se = objective_value(job.objective_rows(d), seed=job.seed)
        rec = {"trial": trial, "label": label,
               "values": [designer.format_value(x) for x in values],
               "value": v, "se": se, "games": job.games, "dir": os.path.basename(d),
               "baseline": list(values) == list(job.current)}
        evaluated[label] = rec
        job.say(f"tune trial {trial}: {label}: {job.objective} {v:.4f} +/- {z * se:.4f}"
                + ("  (current values)" if rec["baseline"] else ""))
        return rec

    base_rec = evaluate(job.current, base_idx, 0)   # the current values first, whatever the range
    if n_grid <= trials:
        method = f"every combination of the varied values ({n_grid})"
        for t, idx in enumerate(itertools.product(*[range(n) for n in sizes])):
            evaluate([varies[a][1][i] for a, i in enumerate(idx)], idx, t + 1)
    else:
        method = (f"Optuna's TPE sampler (seed {job.seed}), {trials} trials one after the "
                  f"other, every trial on the same seeds")
        _optuna_search(varies, base_idx, base_rec, job.seed, trials, evaluate)
    return evaluated, base_rec, method


def _tune_confirm(job: _TuneJob, evaluated: dict, base_rec: dict):
    """Play the current values and the best candidate again on fresh, shared seeds and write
    the suggested file only if the candidate is better beyond the interval. Returns (best,
    confirmation or None, decision, notes, suggested path)."""
    from analysis.designer import paired_difference
    from sim import designer, runner
    from sim.overrides import parse_value

    best = min(evaluated.values(), key=lambda r: (r["value"], r["trial"]))
    suggested = os.path.join(job.root, designer.SUGGESTED)
    confirmation = None
    notes = []
    if best["baseline"] or best["value"] >= base_rec["value"]:
        decision = (f"No value in the range does better than the current one "
                    f"({base_rec['label']}): it was the best of the {len(evaluated)} played. "
                    f"No file written.")
        best = base_rec
    else:
        cseed = designer.confirm_seed(job.seed)
        best_values = [parse_value(x) for x in best["values"]]
        dirs = {"base": os.path.join(job.root, "confirm-base"),
                "best": os.path.join(job.root, "confirm-best")}
        jobs = [(job.prepared(cseed, job.current), job.confirm_games, dirs["base"]),
                (job.prepared(cseed, best_values), job.confirm_games, dirs["best"])]
        job.say(f"tune check: {best['label']} against the current values on "
                f"{job.confirm_games:,} fresh games (seed {cseed}), the same games for both")
        runner.run_many(job.spec, jobs, workers=job.workers, progress=job.progress,
                        chunk_size=max(500, min(20000, job.confirm_games // 2)))
        objs = {k: job.objective_rows(d) for k, d in dirs.items()}
        confirmation = paired_difference(objs["best"], objs["base"], seed=job.seed)
        confirmation.update({"seed": cseed, "candidate": best["label"],
                             "current": base_rec["label"]})
        c = confirmation
        diff = (f"{job.objective} {c['new']:.4f} against {c['old']:.4f}, paired difference "
                f"{c['diff']:+.4f} (95% interval {c['low']:+.4f} to {c['high']:+.4f}) on "
                f"{c['games']:,} fresh games")
        if c["high"] < 0:
            write_suggested(job.spec, job.base_comp, job.set_, job.paths, best["values"],
                            suggested, job.objective)
            decision = (f"Suggested: {best['label']} ({diff}), better than the current values "
                        f"beyond the interval; written to {suggested}.")
        else:
            decision = (f"No value in the range does better than the current one: the best of "
                        f"the search, {best['label']}, is not better than {base_rec['label']} "
                        f"beyond the interval ({diff}). No file written.")
        notes = _before_after(job.root, dirs, job.card_infos, base_rec, best)
    if not confirmation or confirmation["high"] >= 0:
        if os.path.isfile(suggested):   # an earlier result of this plan, never a user's file
            os.remove(suggested)        # (claim_root checked its hash)
    return best, confirmation, decision, notes, suggested


@folder_lock.scoped
def tune(game: str, vary, objective: str = "seat-fairness", players: int | None = None,
         strategies=None, games: int = 5_000, seed: int = 1, set=None, out: str | None = None,
         *, trials: int = TUNE_TRIALS, confirm_games: int | None = None, components=None,
         variants=None, workers=None, overwrite: bool = False, progress: bool = False,
         echo=None, assign=None) -> TuneResult:
    """Search the `vary` values for the smallest `objective` (every combination when there
    are at most `trials`, else Optuna's seeded TPE sampler; trials on the same seeds), always
    playing the current values too; then play the current values and the best candidate
    again on fresh, shared seeds (`confirm_games`, default 2 x games) and write a suggested
    component file only if the paired difference beats the current values beyond its 95%
    interval. `assign`: choices assigned at random (sim/assign.py)."""
    from sim import designer
    from sim.run_folder import sha256_file
    from sim.runner import read_manifest

    from analysis.designer import edge_of_range
    from reports.designer import edge_lines, objective_note

    job = _tune_job(game, vary, objective, players, strategies, games, seed, set, out, trials,
                    confirm_games, components, variants, workers, overwrite, progress, echo,
                    assign)
    if job.objective == "card-parity":
        return _tune_card_parity(job)
    evaluated, base_rec, method = _tune_search(job, trials)
    best, confirmation, decision, notes, suggested = _tune_confirm(job, evaluated, base_rec)
    # the search's best (lowest objective) on the edge of a range: the balance point may lie
    # beyond it (said whether or not the check confirmed it)
    top = min(evaluated.values(), key=lambda r: (r["value"], r["trial"]))
    from sim.overrides import parse_value
    edges = edge_of_range(job.varies, [parse_value(x) for x in top["values"]])
    notes = (objective_note(job.objective, job.start, job.spec.title) + edge_lines(edges, top)
             + notes)
    moves = _tune_moves(job, evaluated, base_rec, confirmation)
    made = os.path.isfile(suggested)
    trials_list = sorted(evaluated.values(), key=lambda r: r["trial"])
    designer.write_plan(job.root, {**job.plan, "result": {
        "best": best["label"], "current": base_rec["label"], "trials": trials_list,
        "confirmation": confirmation, "suggested": made,
        "suggested_sha256": sha256_file(suggested) if made else None}})
    return TuneResult(job.root, trials_list, job.varies, job.current, base_rec, best,
                      confirmation, decision, objective, method,
                      read_manifest(os.path.join(job.root, base_rec["dir"])),
                      suggested if made else None, notes, moves, edges)


CARD_PARITY_STATES = 500    # sampled decision states of the card (tune --objective card-parity)
CARD_PARITY_PLAYONS = 2


def _tune_card_parity(job: _TuneJob) -> TuneResult:
    """`tune --objective card-parity`: the card's counterfactual advantage (docs/card-worth.md)
    at every value of the range and the current one, all on the same sampled decision states
    (found with the current values, from `games` games scanned); the objective is the
    advantage's size |win share advantage|. A value is suggested (and the file written) only
    when the current value's advantage is beyond its interval, the best value's interval holds
    0, and the best value lies on the side that reduces the advantage (a card that already
    helps is never suggested a higher value)."""
    import time

    from analysis.card_worth import advantage_by_value
    from analysis.designer import edge_of_range
    from analysis.metadata import component_name
    from reports.designer import edge_lines
    from sim import designer
    from sim.api.worth import advantage_at_values
    from sim.run_folder import sha256_file

    t0 = time.perf_counter()
    if job.assigned:
        raise ToolkitError("tune: card-parity measures a choice's advantage over the seat's "
                           "alternative; a choice assigned at random (--assign) has none")
    card, cid = job.card_infos[0]
    path = job.paths[0]
    values = list(dict.fromkeys([job.current[0]] + list(job.varies[0][1])))
    comps = [job.spec.load_components(job.components, tuple(job.set_) + tuple(
        job.overrides_of([v]))) for v in values]
    prepared = job.prepared(job.seed, job.current)
    name = card["names"][cid] if cid < len(card.get("names", [])) else f"#{cid}"
    job.say(f"tune card-parity: {component_name(name, card['type'])}: scanning {job.games:,} games for "
            f"decisions where it is an option, then at most {CARD_PARITY_STATES} of them played "
            f"on under each of {len(values)} values ({CARD_PARITY_PLAYONS} play-ons per branch)")
    res = advantage_at_values(job.spec, prepared, card, cid, comps, job.games,
                              CARD_PARITY_STATES, CARD_PARITY_PLAYONS, job.seed,
                              workers=job.workers, progress=job.progress)
    rows, par = advantage_by_value(res["win"], res["score"], values, seed=job.seed)
    trials = _parity_trials(path, values, rows)
    base, cur = trials[0], rows[0]
    finite = [t for t in trials if math.isfinite(t["value"])]
    best = min(finite, key=lambda t: (t["value"], t["trial"])) if finite else base
    b = rows[best["trial"]]
    numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)
    head, par_text = _parity_texts(component_name(name, card["type"]), base, cur, res, par)
    row = {"win": cur["win"], "value": float(job.current[0]) if numeric else math.nan,
           "parity": float(b["value"]) if numeric else math.nan, "states": cur["states"]}
    suggested = os.path.join(job.root, designer.SUGGESTED)
    decision, write = _parity_decision(job, head, cur, best, b, row, par_text, suggested)
    if not write and os.path.isfile(suggested):   # an earlier result of this plan
        os.remove(suggested)
    from sim.overrides import parse_value
    edges = edge_of_range(job.varies, [parse_value(x) for x in best["values"]])
    seconds = time.perf_counter() - t0
    notes = edge_lines(edges, best) + [
        f"sample: {job.games:,} games scanned (seed {job.seed}), at most {CARD_PARITY_STATES} "
        f"sampled decisions of the card (one per game), {CARD_PARITY_PLAYONS} play-ons per "
        f"branch, every value played on the same decisions (common random numbers)",
        f"run time {seconds:.0f} s (workers: {job.workers or os.cpu_count()})"]
    if res.get("lost"):
        notes.append(f"{res['lost']:,} sampled states could not be replayed to the scanned "
                     f"decision and were left out (a defect to report)")
    method = ("the card's counterfactual advantage at every value, on the same sampled "
              "decision states (objective: its size, |win share advantage|)")
    made = os.path.isfile(suggested)
    designer.write_plan(job.root, {**job.plan, "result": {
        "best": best["label"], "current": base["label"], "trials": trials,
        "parity": par["parity"], "parity_low": par["parity_low"],
        "parity_high": par["parity_high"], "confirmation": None, "suggested": made,
        "suggested_sha256": sha256_file(suggested) if made else None}})
    manifest = {"game": job.spec.name, "title": job.spec.title, "players": job.n_players,
                "strategy_names": list(job.names), "seed": job.seed}
    return TuneResult(job.root, trials, job.varies, job.current, base, best, None, decision,
                      job.objective, method, manifest, suggested if made else None, notes,
                      None, edges)


def _parity_texts(card_name: str, base: dict, cur: dict, res: dict, par: dict):
    """(what the card gains at the current value, the parity value's sentence or "")."""
    from reports.card_worth import _ci_num, _ci_pp
    par_text = ""
    if math.isfinite(par["parity"]):
        ci = (f" ({par['parity_low']:.2f} to {par['parity_high']:.2f})"
              if math.isfinite(par["parity_low"]) else "")
        par_text = (f" The line through the advantages crosses 0 at {par['parity']:.2f}{ci} "
                    f"(the parity value).")
    head = (f"{card_name} at {base['label']}: taking it gains the seat {_ci_pp(cur['win'])} of "
            f"win share and {_ci_num(cur['score'], 'points')} against its best alternative "
            f"({cur['states']:,} sampled decisions; chosen in "
            f"{100 * res['chosen_rate']:.1f}% of the {res['options']:,} decisions where it was "
            f"an option, a description of play).")
    return head, par_text


def _parity_trials(path: str, values: list, rows: list) -> list:
    """tune's trial records of card-parity: one per value, its objective the size of the
    card's win-share advantage on the sampled decision states."""
    from sim import designer
    trials = []
    for k, (v, r) in enumerate(zip(values, rows)):
        trials.append({"trial": k, "label": f"{path}={designer.format_value(v)}",
                       "values": [designer.format_value(v)],
                       "value": abs(r["win"][0]), "se": r["se"], "games": r["states"],
                       "unit": "sampled decision states", "dir": "", "baseline": k == 0,
                       "advantage": list(r["win"]), "score_advantage": list(r["score"])})
    return trials


def _parity_decision(job: _TuneJob, head: str, cur: dict, best: dict, b: dict, row: dict,
                     par_text: str, suggested: str):
    """(the decision's text, whether a suggested file was written): a value is suggested only
    when the current advantage is beyond its interval, the best value's interval holds 0 and
    it lies on the side that reduces the advantage (analysis.card_worth.suggested_value)."""
    from analysis.card_worth import MIN_STATES, suggested_value
    from reports.card_worth import _ci_pp
    lo, hi = b["win"][1], b["win"][2]
    write = False
    if cur["states"] < MIN_STATES:
        decision = (f"{head} Fewer than {MIN_STATES} sampled decisions: no verdict; scan more "
                    f"games (--games). No file written.")
    elif not (cur["win"][1] > 0 or cur["win"][2] < 0):
        decision = (f"{head} No advantage beyond the interval at the current value: the card "
                    f"is at parity for these players; nothing to change. No file written.")
    elif best["baseline"]:
        decision = (f"{head} No value in the range brings its advantage closer to 0.{par_text} "
                    f"No file written.")
    elif not (lo <= 0 <= hi) or suggested_value(row) is None:
        decision = (f"{head} The best value of the range, {best['label']}, leaves an advantage "
                    f"of {_ci_pp(b['win'])}: no value in the range removes it beyond the "
                    f"interval.{par_text} No file written.")
    else:
        write = True
        write_suggested(job.spec, job.base_comp, job.set_, job.paths, best["values"],
                        suggested, job.objective)
        decision = (f"{head} At {best['label']} its advantage is {_ci_pp(b['win'])} (no "
                    f"advantage beyond the interval, on the same sampled decisions).{par_text} "
                    f"Suggested: {best['label']}; written to {suggested}.")
    return decision, write


def _tune_moves(job: _TuneJob, evaluated: dict, base_rec: dict, confirmation):
    """Everything that moves (analysis.designer.paired_quantity_steps: seats, start positions,
    strategies, scores, declared outcomes) from the current values to every other trial on
    the search's games, and from the current values to the candidate on the check's fresh
    games; Holm across every row of the table."""
    import pandas as pd

    from analysis.designer import holm_steps, paired_quantity_steps
    from sim.runner import read_logs
    base_logs = read_logs(os.path.join(job.root, base_rec["dir"]))
    rows = []
    for rec in sorted(evaluated.values(), key=lambda r: r["trial"]):
        if rec["label"] == base_rec["label"]:
            continue
        rows += paired_quantity_steps(base_logs, read_logs(os.path.join(job.root, rec["dir"])),
                                      job.meta, {"games": "search", "trial": rec["trial"],
                                                 "step": f"{base_rec['label']} -> {rec['label']}"})
    if confirmation is not None:
        rows += paired_quantity_steps(
            read_logs(os.path.join(job.root, "confirm-base")),
            read_logs(os.path.join(job.root, "confirm-best")), job.meta,
            {"games": "check", "trial": None,
             "step": f"{confirmation['current']} -> {confirmation['candidate']}"})
    return holm_steps(pd.DataFrame(rows))


def set_of(names):
    return set(names)


# --- cards ----------------------------------------------------------------------------------
@dataclass
class CardsResult(_Result):
    """.table (DataFrame: one row per card step, tidy: gap, gap_low, gap_high ...), .steps
    (dicts), .seconds."""
    path: str
    steps: list
    manifest: dict
    games: int
    configs: int
    seconds: float
    notes: list = field(default_factory=list)

    @property
    def table(self):
        import pandas as pd
        from analysis.tables import tidy
        keys = ("type", "card", "name", "value", "take_rate", "share", "base", "gap", "take",
                "gap_slope", "response", "to_parity")
        # gap, take, gap_slope: (estimate, low, high) -> X, X_low, X_high columns
        return tidy(pd.DataFrame([{k: s.get(k) for k in keys} for s in self.steps]))

    def document(self):
        from reports.cards import cards_document
        return cards_document(self.steps, self.manifest, {"games": self.games,
                                                          "configs": self.configs,
                                                          "notes": self.notes})


@folder_lock.scoped
def cards(game: str, players: int | None = None, strategies=None, games: int = 20_000,
          seed: int = 1, set=None, out: str | None = None, *, only=None, components=None,
          variants=None, workers=None, precision=None, max_games=None,
          overwrite: bool = False, progress: bool = False, echo=None,
          assign=None) -> CardsResult:
    """The sensitivity table: every card whose value is a component field played one point
    lower and one point higher on the same games. `only`: card types (list or comma text).
    `assign`: choices assigned at random (sim/assign.py)."""
    import time

    from analysis.card_check import measure
    from sim.api.card_check import read_config_logs
    from sim import cards as sc
    from sim import designer
    from sim.assign import with_assignment
    from sim.registry import get_game
    from sim.runner import read_manifest

    say = echo_to(echo)
    t0 = time.perf_counter()
    spec = get_game(game)
    set_ = overrides(set)
    n_players = check_common(spec, players, games, seed, components, variants, precision,
                             max_games, workers=workers)
    names = strategy_list(spec, strategies)
    base = spec.load_components(components, tuple(set_))
    meta = _meta(spec, base) or {}
    types = [c["type"] for c in meta.get("cards", []) if c.get("value_path")]
    if not types:
        raise ToolkitError(f"{spec.name}: the game declares no card whose value is a component "
                           f"field (report_metadata() cards with a value_path)")
    only_text = only if only is None or isinstance(only, str) else ",".join(only)
    if only is not None:
        want = [t.strip() for t in only_text.split(",") if t.strip()]
        bad = [t for t in want if t not in types]
        if bad or not want:
            raise ToolkitError(f"--only: unknown card type(s) {', '.join(bad) or '(none)'}; "
                               f"this game's: {', '.join(types)}")
        meta = {**meta, "cards": [c for c in meta["cards"] if c["type"] in want]}
    meta = {**meta, "cards": [c for c in meta["cards"] if c.get("value_path")]}

    def load(ov):
        return spec.load_components(components, tuple(set_) + tuple(ov))

    steps, configs = sc.plan_steps(meta, load)
    if not steps:
        raise ToolkitError(f"{spec.name}: no card value can be moved by one point")
    prepared = [with_assignment(spec, spec.prepare(load(ov), n_players, names, seed, variants),
                                assign) for ov in configs]
    assigned = list(prepared[0].assigned)
    root, _ = result_root(out, spec, "cards")
    plan = {"kind": "cards", "game": spec.name, "players": n_players, "strategies": names,
            "only": only_text, "configs": configs, "games": games, "seed": seed,
            "components": components, "overrides": list(set_), "variants": variants,
            "precision": precision, "max_games": max_games, **_assign_plan(assigned)}
    cfgs = [{"prepared": p} for p in prepared]
    res = _claim_and_play(spec, cfgs, root, plan, overwrite, "point", games, seed, say,
                          f"cards: {len(steps)} cards, {len(cfgs)} configurations x {games:,} "
                          f"games, the same seeds in each", by="seat", workers=workers,
                          progress=progress, precision=precision, max_games=max_games)
    logs = read_config_logs([c["dir"] for c in cfgs], meta)
    measure(steps, logs, meta)
    del logs
    seconds = time.perf_counter() - t0
    notes = precision_notes(res) + [f"run time {seconds:.0f} s (workers: "
                                    f"{workers or os.cpu_count()})"]
    designer.write_plan(root, {**plan, "result": {
        "games": res["games"], "seconds": round(seconds, 1),
        "cards": [{k: s[k] for k in ("type", "card", "name", "value", "response", "to_parity")}
                  for s in steps]}})
    return CardsResult(root, steps, read_manifest(cfgs[0]["dir"]), res["games"], len(cfgs),
                       seconds, notes)
