"""The designer's workflow: compare players, sweep a value, stop at a precision, tune.

Every configuration here is played as an ordinary run (a sub-folder with its own manifest and
Parquet chunks) with the SAME seed, so game k of every configuration starts from the same
shuffles: differences between configurations are paired game by game (common random numbers),
which makes them far less noisy than independent runs.

    compare:  one sub-run per seating (`seat-00`, ...): every strategy sits in every seat equally
              often (all seatings that use min(strategies, players) different strategies).
    sweep:    one sub-run per grid point (`point-00`, ...), each with its `--set` overrides.
    precision: a run grows in batches (the runner extends it) until the headline 95% intervals
              are narrow enough or a cap is reached.
"""
from __future__ import annotations

import itertools
import json
import math
import os
import re

import numpy as np

from sim.game_api import ToolkitError
from sim.rotation import seatings  # noqa: F401 (the seatings compare plays: sim.designer.seatings)
from sim.limits import check_vary_values
from sim.overrides import parse_path, parse_value, split_assignment

PLAN_FILE = "designer.json"   # what a compare / sweep / tune folder holds


# ---------------------------------------------------------------------------------------
# sweeps
# ---------------------------------------------------------------------------------------
_RANGE = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*\.\.\s*(-?\d+(?:\.\d+)?)\s*(?::\s*(\d+(?:\.\d+)?))?\s*$")


def parse_vary(spec: str) -> tuple[str, list]:
    """'commissions[12].points=2..7' -> ('commissions[12].points', [2, 3, 4, 5, 6, 7]).
    Values: A..B (integers, step 1), A..B:STEP, or a comma list of TOML values, where a
    value may itself be a list: 'flick.spread=[0.5,1.4],[1.4,0.5]' varies a whole list."""
    try:  # the first '=' outside brackets: a card name may hold one (goals["A=B"])
        path, values = split_assignment(spec)
    except ValueError:
        raise ToolkitError(f"--vary '{spec}': expected PATH=VALUES, e.g. commissions[12].points=2..7") from None
    try:
        parse_path(path)
    except ValueError as exc:
        raise ToolkitError(f"--vary '{spec}': {exc}") from None
    m = _RANGE.match(values)
    if m:
        a, b, step = m.group(1), m.group(2), m.group(3)
        is_int = all(re.fullmatch(r"-?\d+", x) for x in (a, b) if x) and (step is None or
                                                                          re.fullmatch(r"\d+", step))
        if is_int:
            a, b, st = int(a), int(b), int(step or 1)
        else:
            a, b, st = float(a), float(b), float(step or 1)
        if st <= 0 or b < a:
            raise ToolkitError(f"--vary '{spec}': the range must go up with a positive step")
        n = int(math.floor((b - a) / st + 1e-9)) + 1
        # said before the values are built (a..b may be astronomically long)
        check_vary_values(n, f"--vary '{spec}'")
        vals = [a + i * st for i in range(n)]
        if not is_int:
            vals = [round(v, 10) for v in vals]
    else:
        vals = []
        parts = split_values(values)
        check_vary_values(len(parts), f"--vary '{spec}'")
        for part in parts:
            try:
                vals.append(parse_value(part.strip()))
            except ValueError as exc:
                raise ToolkitError(f"--vary '{spec}': {exc}") from None
    if len(vals) < 2:
        raise ToolkitError(f"--vary '{spec}': give at least two values")
    check_vary_values(len(vals), f"--vary '{spec}'")
    return path.strip(), vals


def split_values(text: str) -> list:
    """The comma list of --vary values, split at the commas that are outside brackets and
    quotes, so that a whole list is one value: '[0.5, 1.4],[1.4, 0.5]' -> two lists."""
    parts, depth, quote, start = [], 0, None, 0
    for i, ch in enumerate(text):
        if quote:
            if ch == quote and text[i - 1] != "\\":
                quote = None
        elif ch in "\"'":
            quote = ch
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return parts


def format_value(v) -> str:
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list):
        return "[" + ", ".join(format_value(x) for x in v) + "]"
    return str(v)


def grid(varies: list) -> list:
    """[(path, values)] -> list of points, each a list of 'PATH=VALUE' overrides. A grid of
    more than limits.MAX_GRID_POINTS points is refused before it is built."""
    from sim.limits import check_grid
    check_grid([len(values) for _, values in varies])
    axes = [[f"{path}={format_value(v)}" for v in values] for path, values in varies]
    return [list(p) for p in itertools.product(*axes)]


# ---------------------------------------------------------------------------------------
# running configurations
# ---------------------------------------------------------------------------------------
def sub_dir(root: str, kind: str, i: int) -> str:
    return os.path.join(root, f"{kind}-{i:02d}")


PLAN_MARKER = ("tool", "format")


def write_plan(root: str, plan: dict) -> None:
    """designer.json, with the toolkit's marker: it makes the folder recognisably a result of
    this toolkit (sim/run_folder.py)."""
    from sim.run_folder import FORMAT, TOOL
    os.makedirs(root, exist_ok=True)
    tmp = os.path.join(root, PLAN_FILE + ".tmp")
    with open(tmp, "w") as fh:
        json.dump({"tool": TOOL, "format": FORMAT, **plan}, fh, indent=2, default=str)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, os.path.join(root, PLAN_FILE))


def read_plan(root: str) -> dict:
    """The plan of a compare / sweep / tune folder (without the marker); ToolkitError if the
    folder holds none written by this toolkit."""
    from sim.run_folder import FORMAT, TOOL
    path = os.path.join(root, PLAN_FILE)
    if not os.path.isfile(path):
        raise ToolkitError(f"{root}: not a compare / sweep / tune folder (no {PLAN_FILE})")
    try:
        with open(path) as fh:
            plan = json.load(fh)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ToolkitError(f"{path}: cannot be read ({exc})") from None
    if not isinstance(plan, dict) or plan.get("tool") != TOOL or plan.get("format") != FORMAT:
        raise ToolkitError(f"{path}: not written by this toolkit (format {FORMAT})")
    return {k: v for k, v in plan.items() if k not in PLAN_MARKER}


_SUB_RE = re.compile(r"^(?:(?:seat|point)-\d{2,}|base|confirm-base|confirm-best|"
                     r"verdict-base|verdict-top)$")   # verdict-*: balance ladder
REPORT_DIRS = ("report", "after", "before")   # report folders a designer command writes
SUGGESTED = "suggested_components.toml"


def owned_files(root: str, plan: dict) -> tuple[list, list]:
    """(files of a compare / sweep / tune folder the toolkit wrote, files it wrote that a user
    changed since): the plan, each sub-run's own files, its reports, the suggested file."""
    from sim import run_folder as rf
    owned, changed = [os.path.join(root, PLAN_FILE)], []
    for name in sorted(rf.listing(root)):
        path = os.path.join(root, name)
        if not os.path.isdir(path):
            continue
        if _SUB_RE.match(name):
            manifest, _ = rf.load_manifest_file(path)
            if manifest is not None:
                o, c = rf.run_owned(path, manifest)
                owned += o
                changed += c
        elif name in REPORT_DIRS:
            o, c, why = rf.report_owned(path)
            if why is None:
                owned += o
                changed += c
    lv = plan.get("ladder_variants")   # balance ladder's variants file (sim/api/ladders.py)
    if isinstance(lv, dict) and lv.get("file") and os.path.isfile(os.path.join(root, lv["file"])):
        path = os.path.join(root, lv["file"])
        (owned if rf.sha256_file(path) == lv.get("sha256") else changed).append(path)
    sug = os.path.join(root, SUGGESTED)
    want = (plan.get("result") or {}).get("suggested_sha256")
    if os.path.isfile(sug):
        (owned if want and rf.sha256_file(sug) == want else changed).append(sug)
    return owned, changed


def confirm_seed(seed: int) -> int:
    """The seed of tune's confirmation games: other games than the search's (a value chosen
    as the best of many on some games looks better on them than it is), the same for the
    current value and the candidate (a paired comparison). splitmix64 of the seed, so that it
    is not the search seed of a neighbouring --seed either."""
    z = (int(seed) + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return (z ^ (z >> 31)) & 0x7FFFFFFFFFFFFFFF


def headline_halfwidth(run_dirs: list, by) -> float:
    """Largest half-width of the 95% Wilson intervals of win share, per `by` ('seat',
    'strategy' or a tuple of both), over the given runs; a solo run uses the half-width of
    the mean score relative to the mean instead."""
    from sim.stats import wilson_interval, z_value   # the statistics leaf (layering test)
    from sim.runner import read_logs
    z = z_value(0.95)
    worst = 0.0
    for d in run_dirs:
        logs = read_logs(d, columns=["game", "seat", "strategy", "win", "score"])
        if logs["seat"].max() == 0:  # solo: half-width of the mean score, relative to the mean
            sc = logs["score"].to_numpy(float)
            se = sc.std(ddof=1) / math.sqrt(len(sc)) if len(sc) > 1 else math.inf
            worst = max(worst, z * se / max(abs(sc.mean()), 1e-9))
            continue
        for key in ((by,) if isinstance(by, str) else by):
            g = logs.groupby(key)["win"].agg(["sum", "count"])
            lo, hi = wilson_interval(g["sum"].to_numpy(float), g["count"].to_numpy(float))
            worst = max(worst, float(np.max((np.asarray(hi) - np.asarray(lo)) / 2)))
    return worst


def games_for_precision(n_now: int, halfwidth_now: float, target: float, chunk: int,
                        cap: int) -> int:
    """Games to aim for next: intervals shrink like 1/sqrt(n); 10% margin, whole chunks,
    at least one more chunk, at most the cap."""
    if halfwidth_now <= 0 or not math.isfinite(halfwidth_now):
        want = n_now * 2
    else:
        want = int(math.ceil(n_now * (halfwidth_now / target) ** 2 * 1.1))
    want = max(want, n_now + chunk)
    want = int(math.ceil(want / chunk) * chunk)
    return min(want, cap)


def _play_all(spec, configs, n, workers, chunk, progress) -> None:
    """Bring every configuration to n games: all their chunks go to one pool of workers
    (runner.run_many), so many small configurations cost no pool start-up each."""
    from sim import runner
    runner.run_many(spec, [(c["prepared"], n, c["dir"]) for c in configs], workers=workers,
                    chunk_size=chunk, progress=progress, overwrite=False)


PRECISION_FIRST_CHUNKS = 8   # the first batch of a --precision run is cut into about this many


def precision_chunk(games: int) -> int:
    """Chunk size of a run that grows in batches (fixed for the whole run). The batches are
    whole chunks, so this decides how many games each batch plays: it must not depend on the
    number of workers, or the same command would log different games with another --workers."""
    return int(max(1000, min(20000, games // PRECISION_FIRST_CHUNKS)))


def run_configs(spec, configs: list, games: int, seed: int, root: str, workers=None,
                progress=True, precision: float | None = None, max_games: int | None = None,
                by: str = "seat", chunk_size: int | None = None, on_round=None) -> dict:
    """Play every configuration (dicts with 'dir', 'prepared') for `games` games with the same
    seed; with `precision`, grow all of them together in batches until the headline
    half-width over all of them is <= precision or `max_games` is reached.
    Returns {'games': n, 'halfwidth': h, 'rounds': [...], 'reached': bool}."""
    n = int(games)
    if precision is not None:
        cap = int(max_games or 10_000_000)
        chunk = int(chunk_size or precision_chunk(n))
        n = int(math.ceil(n / chunk) * chunk)
    else:
        cap = n
        chunk = chunk_size
    rounds = []
    while True:
        _play_all(spec, configs, n, workers, chunk, progress)
        h = headline_halfwidth([c["dir"] for c in configs], by)
        rounds.append({"games": n, "halfwidth": h})
        if on_round:
            on_round(n, h)
        if precision is None or h <= precision or n >= cap:
            break
        n = games_for_precision(n, h, precision, chunk, cap)
    return {"games": n, "halfwidth": h, "rounds": rounds,
            "reached": precision is None or h <= precision,
            "precision": precision}
