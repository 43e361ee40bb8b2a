"""The batch runner: plays a run's games in chunks on every core and streams them to Parquet.

A run is `n_games` games of one prepared configuration. Game indices 0..n_games-1 are cut
into consecutive chunks of `chunk_size`; each chunk is one call of `spec.play_chunk` in a
worker process (joblib, one thread per process). The parent writes each finished chunk to

    out_dir/chunks/chunk-<first game index, 12 digits>.parquet     (atomically: .tmp + rename)

and keeps `out_dir/manifest.json` describing the run (status "running" while it plays,
"complete" at the end, with timings) and recording every chunk written: its file name, games,
rows, bytes and SHA-256 (computed by whoever writes the chunk from the bytes it writes). A copy
of the component file (and of the variants file, if one was used) is kept next to it, with its
SHA-256 in the manifest, so that the run can be replayed later without the user's files.

Folders (sim/run_folder.py): a run goes only into a new or empty folder or one holding a run
of this toolkit; `overwrite` removes only the files the toolkit wrote there (and names what it
keeps).

Reproducibility: a game's randomness depends only on (seed, game index), so the logs, sorted
by (game, seat), are identical whatever the number of workers, the chunk size or the backend.

Resume: running again into a folder whose manifest has the same configuration plays only the
chunks that are missing or fail their check (damaged, another run's); a different
configuration is refused unless `overwrite=True`. A file in chunks/ that the run did not
write is never deleted: the resume refuses with one line naming it.
"""
from __future__ import annotations

import datetime as _dt
import hashlib
import json
import math
import os
import platform
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from sim import folder_lock, limits, processes
from sim.assign import manifest_record
from sim import run_folder as rf
from sim.game_api import GameSpec, Prepared, ToolkitError
from sim.run_folder import (CHUNK_DIR, COMPONENTS_COPY, MANIFEST, VARIANTS_COPY, chunk_name,
                            chunk_ranges)

DEFAULT_CHUNK_SIZE = 20_000
DEFAULT_CHUNKS = 32            # default chunking aims at this many chunks (any worker count)
MIN_DEFAULT_CHUNK = 500        # ... of at least this many games
SEARCH_CHUNK_SECONDS = 5.0     # slow players (search): chunks of about this many seconds
MANIFEST_SAVE_SECONDS = 1.0    # the manifest records finished chunks at most this often
THREAD_ENV = ("NUMBA_NUM_THREADS", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS",
              "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS")


# --- small helpers ----------------------------------------------------------------------------
def package_version() -> str:
    try:
        from importlib.metadata import PackageNotFoundError, version
        try:
            return version("balance-toolkit")
        except PackageNotFoundError:
            return "0.1.0+source"
    except Exception:  # pragma: no cover
        return "unknown"


def default_chunk_size(n_games: int, seconds_per_game: float | None = None) -> int:
    """About DEFAULT_CHUNKS chunks (enough to keep a few workers each busy), at least
    MIN_DEFAULT_CHUNK and at most DEFAULT_CHUNK_SIZE games each. It does not depend on the
    number of workers: the chunk size is part of the run id written in every log row, so the
    same command gives the same files with any --workers.

    A run whose players are slow (search players: `seconds_per_game`, the estimate of
    GameSpec.estimated_seconds_per_game, a function of the configuration only) gets chunks of
    about SEARCH_CHUNK_SECONDS each, and at least DEFAULT_CHUNKS of them (no minimum size):
    every worker gets work, the progress bar moves from the first chunks on, and a resume
    replays little."""
    per = math.ceil(n_games / DEFAULT_CHUNKS)
    if seconds_per_game is not None and seconds_per_game > 0:
        by_cost = math.floor(SEARCH_CHUNK_SECONDS / seconds_per_game)
        return int(max(1, min(DEFAULT_CHUNK_SIZE, per, by_cost)))
    return int(max(1, min(DEFAULT_CHUNK_SIZE, max(MIN_DEFAULT_CHUNK, per))))


def seconds_per_game(spec: GameSpec, prepared: Prepared) -> float | None:
    """The game's estimate of one game's cost when its players are slow (search players),
    else None (GameSpec.estimated_seconds_per_game)."""
    estimate = getattr(spec, "estimated_seconds_per_game", None)
    return estimate(prepared) if estimate is not None else None


_sha256_file = rf.sha256_file


def _jsonable(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {str(k): _jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_jsonable(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return _jsonable(obj.tolist())
    if isinstance(obj, np.generic):
        return obj.item()
    return obj


def _variants_file_of(prepared: Prepared) -> str | None:
    for info in prepared.strategy_info:
        src = str(info.get("source", ""))
        if src.startswith("variant:"):
            return src[len("variant:"):]
    return None


def run_config(prepared: Prepared, n_games: int, chunk_size: int) -> dict:
    """The part of the manifest that must match for a resume (and that the run id hashes)."""
    users = []
    for path, func in prepared.user_strategies:
        users.append({"path": path, "function": func, "sha256": _sha256_file(path)})
    return _jsonable({
        "game": prepared.game,
        "variant": prepared.variant,
        "players": int(prepared.n_players),
        "strategies": [{"name": i.get("name"), "base": i.get("base"),
                        "params": i.get("params", {}), "source": i.get("source")}
                       for i in prepared.strategy_info],
        "strategy_params": np.asarray(prepared.strategy_params, dtype=float).tolist(),
        "user_strategies": users,
        "seed": int(prepared.seed),
        "components_sha256": prepared.components.sha256,
        "games": int(n_games),
        "chunk_size": int(chunk_size),
        # seat rotation (sim/rotation.py), only when on: unrotated runs keep their ids
        **({"rotation": [list(map(int, r)) for r in prepared.rotation]}
           if getattr(prepared, "rotation", None) else {}),
        # choices assigned at random (sim/assign.py), only when some are: a resume with
        # another assignment is refused ("differs in: assigned")
        **({"assigned": {n: "random" for n in prepared.assigned}}
           if getattr(prepared, "assigned", None) else {}),
    })


def run_id_of(config: dict) -> str:
    """A short id of the run's configuration; the number of games is left out, so that a run
    extended with more games (same chunking) keeps its id."""
    config = {k: v for k, v in config.items() if k != "games"}
    blob = json.dumps(config, sort_keys=True, separators=(",", ":")).encode()
    return hashlib.sha256(blob).hexdigest()[:12]


def read_manifest(out_dir: str) -> dict:
    """The validated manifest of a run folder (sim/run_folder.py), or one error line."""
    return rf.read_manifest(str(out_dir))


def _write_json_atomic(path: str, data: dict) -> None:
    """A reader sees the old file or the new one, never a part: written aside, flushed to
    the disk, then renamed over (atomic on local and network file systems)."""
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(_jsonable(data), fh, indent=2, sort_keys=False)
        fh.write("\n")
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


# --- planning (no side effects) ----------------------------------------------------------------
@dataclass
class RunPlan:
    out_dir: str
    n_games: int
    chunk_size: int
    workers: int
    config: dict
    run_id: str
    chunks: list                      # all (first, n)
    todo: list                        # (first, n) still to play
    resume: bool = False              # an existing matching run is being continued
    wipe: bool = False                # overwrite: the previous run's files are removed
    previous: dict | None = None      # the old manifest when resuming
    remove: list = field(default_factory=list)  # the toolkit's own files to delete first
    kept: list = field(default_factory=list)    # files the toolkit did not write (overwrite)
    done: list = field(default_factory=list)    # chunk records kept from the previous session
    repairs: list = field(default_factory=list)  # (chunk file, why) recorded but bad: replayed
    extended_from: int | None = None  # games of the previous run when more are asked for


def plan_run(prepared: Prepared, n_games: int, out_dir: str, workers: int | None = None,
             chunk_size: int | None = None, overwrite: bool = False,
             seconds_per_game: float | None = None) -> RunPlan:
    """Check everything and decide what to play; touches nothing on disk.

    The folder must be new, empty or hold a run of this toolkit (sim/run_folder.py). A
    matching run resumes: the chunks it recorded are verified (size, SHA-256) and those that
    fail are played again; a file in chunks/ it did not write is refused, never deleted.
    `overwrite` replaces a run of this toolkit by removing only the files it wrote.
    `seconds_per_game`: the estimated cost of a game of slow players (default_chunk_size)."""
    n_games, workers = _checked_counts(n_games, workers, chunk_size)
    out_dir = os.path.abspath(out_dir)
    state, previous, why = rf.folder_state(out_dir)
    if state == "file":
        raise ToolkitError(f"output folder {out_dir} is a file; choose a folder with --out")
    if state == "foreign":
        raise rf.foreign_folder_error(out_dir, why)
    if previous is not None and not overwrite and chunk_size is None:
        chunk_size = previous["config"].get("chunk_size")  # resume with the run's own chunking
    if chunk_size is None:
        chunk_size = default_chunk_size(n_games, seconds_per_game)
    chunk_size = limits.count(chunk_size, "chunk size", 1, limits.MAX_GAMES)
    limits.check_plan(n_games, chunk_size)

    config = run_config(prepared, n_games, chunk_size)
    run_id = run_id_of(config)
    chunks = chunk_ranges(n_games, chunk_size)
    plan = RunPlan(out_dir=out_dir, n_games=n_games, chunk_size=chunk_size, workers=workers,
                   config=config, run_id=run_id, chunks=chunks, todo=list(chunks))
    if previous is None:
        return plan
    if overwrite:
        return _plan_overwrite(plan, previous)
    return _plan_resume(plan, previous)


def _checked_counts(n_games, workers, chunk_size) -> tuple[int, int]:
    """(games, workers) as ints, or the one-line error of a bad count (sim/limits.py); a
    plan of more than limits.MAX_CHUNKS chunks is refused before it is built."""
    limits.check_games(n_games, "number of games")
    workers = limits.check_workers(workers, "workers") or (os.cpu_count() or 1)
    if chunk_size is not None:
        limits.count(chunk_size, "chunk size", 1, limits.MAX_GAMES)
    limits.check_plan(n_games, chunk_size if chunk_size is not None
                      else default_chunk_size(int(n_games)))
    return int(n_games), workers


def _plan_overwrite(plan: RunPlan, previous: dict) -> RunPlan:
    """--overwrite: remove only the files this toolkit wrote, refuse if the new run would
    replace one it did not write or one changed since."""
    out_dir, chunks = plan.out_dir, plan.chunks
    chunk_dir = os.path.join(out_dir, CHUNK_DIR)
    owned, changed = rf.run_owned(out_dir, previous)
    if changed:
        raise ToolkitError(
            f"{changed[0]} was changed after the toolkit wrote it, so --overwrite does not "
            f"delete it; move it out of {out_dir} first or choose another --out folder")
    owned_set = set(owned)
    in_way = [os.path.join(chunk_dir, chunk_name(f)) for f, _ in chunks]
    in_way += [os.path.join(out_dir, n) for n in (COMPONENTS_COPY, VARIANTS_COPY)]
    for path in in_way:
        if os.path.exists(path) and path not in owned_set:
            raise ToolkitError(
                f"{path} was not written by the toolkit and the new run would replace it; "
                f"move it out of {out_dir} first or choose another --out folder")
    plan.wipe = True
    plan.remove = owned
    plan.kept = [p for p in rf.list_files(out_dir) if p not in owned_set]
    return plan


def _plan_resume(plan: RunPlan, previous: dict) -> RunPlan:
    """The same run again (or with more games): keep the verified chunks, play the rest;
    refuse a different run or files the run did not write."""
    out_dir, chunks, config, n_games = plan.out_dir, plan.chunks, plan.config, plan.n_games
    chunk_dir = os.path.join(out_dir, CHUNK_DIR)
    old = previous["config"]
    diff = sorted(k for k in set(old) | set(config) if old.get(k) != config.get(k))
    if diff == ["games"] and int(old.get("games", 0)) <= n_games:
        # Same run with more games: earlier chunks stay, a short last chunk is replayed
        # whole (its record has too few games), new chunks are added. Nothing is counted
        # twice because every chunk file covers a fixed range of game indices.
        diff = []
        plan.extended_from = int(old.get("games", 0))
    if diff:
        _, changed = rf.run_owned(out_dir, previous)
        hint = ("pass --overwrite to replace it or choose a new --out folder" if not changed else
                f"choose a new --out folder (--overwrite would not delete {changed[0]}, which "
                f"was changed after the toolkit wrote it)")
        raise ToolkitError(f"output folder {out_dir} holds a different run (differs in: "
                           f"{', '.join(diff)}); {hint}")
    check = rf.check_chunks(out_dir, previous)
    if check.extra:
        raise ToolkitError(
            f"{out_dir}: {CHUNK_DIR}/{check.extra[0]} is not a chunk this run wrote (an extra or "
            f"duplicated file); the toolkit does not delete files it did not write: move it out "
            f"of the folder, then run the same command again")
    _, changed = rf.run_owned(out_dir, previous)
    copies = [c for c in changed if os.path.dirname(c) == out_dir]
    if copies:
        raise ToolkitError(
            f"{copies[0]} was changed after the run wrote it; restore it or move it away (the "
            f"toolkit does not overwrite files it did not write), then run the same command again")
    owned = set(check.good) | set(check.bad) | set(check.unrecorded)
    done = []
    for f, n in chunks:
        name = chunk_name(f)
        rec = check.good.get(name)
        if rec is not None and rec["games"] == n:
            done.append(rec)
        elif os.path.exists(os.path.join(chunk_dir, name)) and name not in owned:
            raise ToolkitError(
                f"{out_dir}: {CHUNK_DIR}/{name} is not a chunk this run wrote; the toolkit does "
                f"not overwrite files it did not write: move it out of the folder, then run the "
                f"same command again")
    done_first = {r["first"] for r in done}
    plan.done = done
    plan.todo = [(f, n) for f, n in chunks if f not in done_first]
    plan.remove = [os.path.join(chunk_dir, n) for n in check.tmp]
    plan.repairs = sorted(check.bad.items())
    plan.resume = True
    plan.previous = previous
    return plan


# --- workers ---------------------------------------------------------------------------------
def _play_chunk_task(spec: GameSpec, prepared: Prepared, first: int, n: int):
    """Runs in a worker: one thread, one chunk."""
    for var in THREAD_ENV:
        os.environ.setdefault(var, "1")
    from sim import rotation
    t0 = time.perf_counter()
    cols = rotation.play_chunk(spec, prepared, first, n)   # spec.play_chunk unless rotated
    return first, n, cols, time.perf_counter() - t0


def _arrow_array(values):
    """A 1-d numpy array of numbers as a pyarrow array, made from its memory. pa.array would
    do the same but first asks pandas whether the array is one of its own, importing pandas
    (0.3-0.7 s of every process that writes a chunk: each worker of a run). Other arrays
    (text, objects) go through pa.array."""
    import pyarrow as pa

    values = np.asarray(values)
    if values.ndim != 1 or values.dtype.kind not in "biuf" or not values.dtype.isnative:
        return pa.array(values)
    values = np.ascontiguousarray(values)
    if values.dtype.kind == "b":   # Arrow keeps booleans as bits
        data = np.packbits(values.view(np.uint8), bitorder="little")
        return pa.Array.from_buffers(pa.bool_(), len(values), [None, pa.py_buffer(data)])
    return pa.Array.from_buffers(pa.from_numpy_dtype(values.dtype), len(values),
                                 [None, pa.py_buffer(values)])


def _arrow_strings(texts: list):
    """A pyarrow string array of `texts`, made from its bytes (pa.array imports pandas)."""
    import pyarrow as pa

    data = [t.encode("utf-8") for t in texts]
    offsets = np.zeros(len(data) + 1, np.int32)
    np.cumsum([len(d) for d in data], out=offsets[1:])
    return pa.Array.from_buffers(pa.string(), len(data),
                                 [None, pa.py_buffer(offsets), pa.py_buffer(b"".join(data))])


def _to_table(cols: dict, prepared: Prepared, run_id: str, first: int, n: int):
    import pyarrow as pa

    if "game" not in cols or "seat" not in cols:
        raise RuntimeError(f"play_chunk of {prepared.game} returned no 'game'/'seat' column")
    n_rows = n * prepared.n_players
    for name, arr in cols.items():
        if len(arr) != n_rows:
            raise RuntimeError(f"play_chunk of {prepared.game}: column '{name}' has {len(arr)} "
                               f"rows for {n} games x {prepared.n_players} seats")
    seat = np.asarray(cols["seat"]).astype(np.int32)
    names = [str(s) for s in prepared.strategy_names]
    uniq = sorted(set(names))
    seat_to_code = np.array([uniq.index(s) for s in names], dtype=np.int32)
    arrays = {
        "run_id": pa.DictionaryArray.from_arrays(_arrow_array(np.zeros(n_rows, dtype=np.int32)),
                                                 _arrow_strings([run_id])),
        "game": _arrow_array(np.asarray(cols["game"]).astype(np.int64)),
        "seat": _arrow_array(np.asarray(cols["seat"]).astype(np.int64)),
        # per row: the seat's strategy, or (rotated runs) the one that sat there in that game
        "strategy": pa.DictionaryArray.from_arrays(_arrow_array(
            np.asarray(cols["strategy"], dtype=np.int32) if "strategy" in cols
            else seat_to_code[seat]), _arrow_strings(uniq)),
    }
    for name, arr in cols.items():
        if name in arrays:
            continue
        arr = np.asarray(arr)
        if arr.ndim == 2:  # e.g. per-row counts per card type: a fixed-size list column
            arrays[name] = pa.FixedSizeListArray.from_arrays(
                _arrow_array(np.ascontiguousarray(arr).ravel()), arr.shape[1])
        else:
            arrays[name] = _arrow_array(arr)
    table = pa.table(arrays)
    if getattr(prepared, "assigned", None):   # each chunk says which choices were not the players'
        table = table.replace_schema_metadata(
            {"assigned": json.dumps({n: "random" for n in prepared.assigned})})
    return table


def _write_chunk(table, out_dir: str, first: int, n_games: int) -> dict:
    """Write one chunk atomically and return its manifest record; the SHA-256 is of the very
    bytes written (hashed in memory, no second read)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    name = chunk_name(first)
    path = os.path.join(out_dir, CHUNK_DIR, name)
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, compression="zstd")
    data = memoryview(sink.getvalue())
    tmp = path + ".tmp"
    with open(tmp, "wb") as fh:
        fh.write(data)
    os.replace(tmp, path)
    return {"file": name, "first": int(first), "games": n_games, "rows": int(table.num_rows),
            "bytes": int(data.nbytes), "sha256": rf.sha256_bytes(data)}


def _copies(prepared: Prepared) -> list:
    """[(file name in the run folder, bytes, source path)] of the copies a run keeps. The
    component copy is the effective file, the `--set` overrides written in: what was played,
    so every report and replay reads the values the games used."""
    from sim.component_file import effective_text
    comp = prepared.components
    text = effective_text(comp.text, getattr(comp, "overrides", []), comp.path)
    out = [(COMPONENTS_COPY, text.encode("utf-8"), None)]
    vf = _variants_file_of(prepared)
    if vf:
        with open(vf, "rb") as fh:
            out.append((VARIANTS_COPY, fh.read(), vf))
    return out


def _base_manifest(spec: GameSpec, prepared: Prepared, plan: RunPlan, backend: str,
                   command_line: list | None) -> dict:
    import numba

    comp = prepared.components
    copies = {name: (data, src) for name, data, src in _copies(prepared)}
    variants = copies.get(VARIANTS_COPY)
    return {
        "tool": rf.TOOL,
        "format": rf.FORMAT,
        "status": "running",
        "run_id": plan.run_id,
        "game": prepared.game,
        "title": spec.title,
        "variant": prepared.variant,
        "players": int(prepared.n_players),
        "strategy_names": list(prepared.strategy_names),
        "strategies": prepared.strategy_info,
        # the choices assigned at random instead of made by the players (sim/assign.py):
        # the reports say so; [] = the players made every choice
        "assigned": manifest_record(spec, getattr(prepared, "assigned", None) or []),
        "user_strategies": list(plan.config.get("user_strategies", [])),
        "seed": int(prepared.seed),
        "games": plan.n_games,
        "chunk_size": plan.chunk_size,
        "n_chunks": len(plan.chunks),
        "chunks": sorted(plan.done, key=lambda r: r["first"]),
        "components": {"path": comp.path, "sha256": comp.sha256, "copy": COMPONENTS_COPY,
                       "copy_sha256": rf.sha256_bytes(copies[COMPONENTS_COPY][0]),
                       "overrides": list(getattr(comp, "overrides", [])),
                       # the copy has the overrides written in (sim/run_folder.py open_run
                       # loads it as it is); folders of older versions kept the user's file
                       "copy_overrides_applied": True,

                       "overrides_resolved": list(getattr(comp, "overrides_resolved", []))},
        "variants_file": ({"path": variants[1], "copy": VARIANTS_COPY,
                           "copy_sha256": rf.sha256_bytes(variants[0])} if variants else None),
        "columns": [list(c) for c in spec.columns()],
        "package_version": package_version(),
        "python": platform.python_version(),
        "numba": numba.__version__,
        "numpy": np.__version__,
        "platform": platform.platform(),
        "command_line": list(command_line) if command_line is not None else list(sys.argv),
        "created": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "backend": backend,
        "config": plan.config,
        "sessions": [],
        "timings": {},
    }


def _prepare_out_dir(plan: RunPlan, prepared: Prepared, manifest: dict) -> None:
    """Remove the toolkit's own old files (overwrite; stale temporary files), then write the
    manifest first (so that the folder is recognisably the toolkit's), then the copies."""
    manifest_path = os.path.join(plan.out_dir, MANIFEST)
    if plan.remove:  # the old manifest is not removed: the new one replaces it atomically
        rf.remove_owned([p for p in plan.remove if p != manifest_path], plan.out_dir)
    os.makedirs(os.path.join(plan.out_dir, CHUNK_DIR), exist_ok=True)
    _write_json_atomic(manifest_path, manifest)
    for name, data, _ in _copies(prepared):
        path = os.path.join(plan.out_dir, name)
        if os.path.isfile(path) and rf.sha256_file(path) == rf.sha256_bytes(data):
            continue  # the run's own copy, unchanged (plan_run refused a changed one)
        tmp = path + ".tmp"
        with open(tmp, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)


def _parallel(plan: RunPlan, backend: str, scheduler: str | None, pool_kind: str | None):
    """(parallel, delayed, context): a callable taking the delayed calls and yielding their
    results as they finish (joblib's Parallel, processes.ForkedPool's or one_worker), the
    `delayed` that makes its calls, and a context manager to run it in. `pool_kind`: the
    local workers' (processes.local_pool_kind), for the loky backend."""
    import contextlib

    n_jobs = min(plan.workers, max(1, len(plan.todo)))
    if backend == "dask":
        from joblib import Parallel, parallel_config
        client = _dask_client(scheduler)
        stack = contextlib.ExitStack()
        stack.callback(client.close)
        stack.enter_context(parallel_config(backend="dask"))
        return Parallel(n_jobs=-1, return_as="generator_unordered"), _joblib_delayed(), stack
    if backend != "loky":
        raise ToolkitError(f"unknown backend '{backend}' (use loky or dask)")
    if n_jobs == 1:  # in a thread of this process, so that Ctrl-C stops even a looping strategy
        return processes.one_worker, processes.delayed, contextlib.nullcontext()
    if pool_kind == "fork":  # workers forked with the kernels loaded
        pool = processes.ForkedPool(n_jobs)
        return pool.unordered, processes.delayed, pool
    from joblib import Parallel
    return (Parallel(n_jobs=n_jobs, backend="loky", return_as="generator_unordered",
                     pre_dispatch="2 * n_jobs"), _joblib_delayed(), contextlib.nullcontext())


def _joblib_delayed():
    from joblib import delayed
    return delayed


def _check_dask() -> None:
    try:
        import dask.distributed  # noqa: F401
    except ImportError:
        raise ToolkitError("the dask backend needs dask.distributed, which is not installed: "
                           "pip install .[cluster]") from None


def _dask_client(scheduler: str | None):
    _check_dask()
    from dask.distributed import Client
    try:
        return Client(scheduler) if scheduler else Client()
    except Exception as exc:
        raise ToolkitError(f"cannot connect to the dask scheduler {scheduler}: {exc}") from None


# --- the run ----------------------------------------------------------------------------------
def run(spec: GameSpec, prepared: Prepared, n_games: int, out_dir: str,
        workers: int | None = None, chunk_size: int | None = None, progress: bool = True,
        overwrite: bool = False, backend: str = "loky", scheduler: str | None = None,
        command_line: list | None = None, _max_chunks: int | None = None,
        while_playing=None) -> dict:
    """Play `n_games` games of `prepared` into `out_dir`; returns the final manifest.

    workers: processes (default: all cores). chunk_size: games per chunk (default: at most
    20000, fewer when needed to give every worker work; on a resume, the run's own).
    backend "loky" (local processes) or "dask" (joblib's dask backend; `scheduler` is the
    address of a dask.distributed scheduler, e.g. tcp://host:8786).
    `_max_chunks` (tests) stops after that many chunks, as an interruption would.
    `while_playing`: run_many's.
    """
    return run_many(spec, [(prepared, n_games, out_dir)], workers=workers, chunk_size=chunk_size,
                    progress=progress, overwrite=overwrite, backend=backend, scheduler=scheduler,
                    command_line=command_line, _max_chunks=_max_chunks,
                    while_playing=while_playing)[0]


def _play_job_chunk_task(spec: GameSpec, job: int, prepared: Prepared, first: int, n: int,
                         write_to: tuple | None = None):
    """One chunk of run `job`. With `write_to` = (run id, out dir, parent pid) the worker writes
    the chunk file itself (local processes share the disk): the parent then neither unpickles
    ~15 MB per chunk nor compresses it, and keeps its share of the cores free for the workers.
    A local worker dies with its parent (processes.guard_worker), and a chunk of a run the
    parent gave up (Ctrl-C, SIGTERM) is not written."""
    if write_to is not None:
        processes.guard_worker(write_to[2])
    first, n, cols, secs = _play_chunk_task(spec, prepared, first, n)
    rec = None
    if write_to is not None:  # the digest goes back to the parent with the chunk's record
        if processes.CANCELLED.is_set():
            return job, first, n, None, secs, None
        try:
            rec = _write_chunk(_to_table(cols, prepared, write_to[0], first, n), write_to[1],
                               first, n)
        except OSError as exc:  # e.g. a full disk: say which file (pyarrow does not)
            if exc.filename is None:
                exc.filename = os.path.join(write_to[1], CHUNK_DIR, chunk_name(first))
            raise
        cols = None
    return job, first, n, cols, secs, rec


def _check_users(spec, jobs: list, plans: list) -> float:
    """User strategies compiled and tried on the first games before any folder is made: a
    broken one is one line naming its file (sim/user_check.py), and nothing is written.
    Returns the seconds it took."""
    from sim.user_check import check_user_strategies
    t0 = time.perf_counter()
    checked = set()
    for (prepared, _, _), plan in zip(jobs, plans):
        key = tuple(map(tuple, prepared.user_strategies))
        if key and key not in checked:
            check_user_strategies(spec, prepared, plan.n_games)
            checked.add(key)
    return time.perf_counter() - t0


def _open_folders(spec, jobs: list, plans: list, backend: str, command_line) -> list:
    """Everything is validated: each run folder is made (or resumed) and its manifest begun."""
    manifests = []
    for (prepared, _, _), plan in zip(jobs, plans):
        manifest = _base_manifest(spec, prepared, plan, backend, command_line)
        if plan.resume and plan.previous:
            manifest["created"] = plan.previous.get("created", manifest["created"])
            manifest["sessions"] = list(plan.previous.get("sessions", []))
        _prepare_out_dir(plan, prepared, manifest)
        if plan.kept:
            print(f"note: {plan.out_dir}: --overwrite kept {len(plan.kept)} file(s) the toolkit "
                  f"did not write: {rf.describe_kept(plan.kept, plan.out_dir)}", file=sys.stderr)
        for name, why in plan.repairs:
            print(f"note: {plan.out_dir}: {CHUNK_DIR}/{name}: {why}; playing it again",
                  file=sys.stderr)
        manifests.append(manifest)
    return manifests


def _warm_up(spec, jobs: list, plans: list, pooled: bool = False) -> float:
    """Compile / load machine code in the parent, on a tiny chunk, so that it is timed apart
    from play and workers find the on-disk cache. Returns the seconds it took.

    `pooled`: the chunks go to two or more loky worker processes, started fresh. Then a
    kernel already in the on-disk cache is not loaded here: the parent plays no chunk, and
    loading it would only delay the workers, which load it themselves. Workers forked from
    this process (processes.ForkedPool) are not `pooled`: they inherit what is loaded here."""
    t0 = time.perf_counter()
    warmed = set()
    for (prepared, _, _), plan in zip(jobs, plans):
        key = tuple(map(tuple, prepared.user_strategies))
        if key not in warmed:
            # a cold compile is a long wait before the first game: say so (on stderr, also
            # with --no-progress: it is one line, not a redrawn bar), and only when it happens
            note = getattr(spec, "compile_note", lambda _: None)(prepared)
            if pooled and not note and hasattr(spec, "compile_note"):
                warmed.add(key)
                continue
            if note:
                print(f"balance: {note}", file=sys.stderr, flush=True)
            started = time.perf_counter()
            if note and hasattr(spec, "compile_on_two_cores"):   # players and rules at once
                processes.call_interruptibly(spec.compile_on_two_cores, prepared)
            # slow players (search): compile only, no game (a game would be minutes of 4-seat
            # search played twice); in a thread, so Ctrl-C stops even a long compile or game
            games = 0 if seconds_per_game(spec, prepared) is not None else min(2, plan.n_games)
            processes.call_interruptibly(spec.play_chunk, prepared, 0, games)
            if note and hasattr(spec, "compiled"):   # remembered for the next such note
                spec.compiled(prepared, time.perf_counter() - started)
            warmed.add(key)
    return time.perf_counter() - t0


def _play_tasks(spec, jobs, plans, manifests, tasks, total, games_before, progress, backend,
                scheduler, pool_kind=None, while_playing=None) -> list:
    """Every chunk of every run to one pool; each finished chunk recorded in its manifest
    (saved now and then, and whatever happens). Returns the chunks played per run."""
    from sim.user_check import explain_run_error
    if tasks:   # the pool before the bar: forked workers start before its monitor thread
        pool_plan = plans[0] if len(plans) == 1 else RunPlan(
            out_dir="", n_games=total, chunk_size=0, workers=plans[0].workers, config={},
            run_id="", chunks=[], todo=tasks)
        parallel, delayed, ctx = _parallel(pool_plan, backend, scheduler, pool_kind)
        if while_playing is not None and parallel is not processes.one_worker:
            threading.Thread(target=while_playing, name="balance-while-playing",
                             daemon=True).start()
    bar = _progress_bar(total, games_before, progress)
    n_done = [0] * len(plans)
    saved = [time.perf_counter()] * len(plans)
    try:
        if tasks:
            with ctx:
                # local workers are processes of this machine: they write their own chunks;
                # dask workers may be other machines: the parent writes what they return
                local = backend == "loky"
                parent = os.getpid()
                results = parallel(delayed(_play_job_chunk_task)(
                    spec, j, jobs[j][0], f, n,
                    (plans[j].run_id, plans[j].out_dir, parent) if local else None)
                    for j, f, n in tasks)
                for j, first, n, cols, _secs, rec in results:
                    if cols is not None:
                        rec = _write_chunk(_to_table(cols, jobs[j][0], plans[j].run_id, first, n),
                                           plans[j].out_dir, first, n)
                    if rec is None:  # a chunk of a run given up (Ctrl-C, SIGTERM): not written
                        continue
                    manifests[j]["chunks"].append(rec)
                    if time.perf_counter() - saved[j] > MANIFEST_SAVE_SECONDS:
                        _save_chunks(plans[j], manifests[j])
                        saved[j] = time.perf_counter()
                    n_done[j] += 1
                    if bar is not None:
                        bar.update(n)
    except Exception as exc:  # a user strategy raising mid-run: one line, chunks so far kept
        users = next((p for p, _, _ in jobs if p.user_strategies), None)
        err = explain_run_error(users, exc) if users is not None else None
        if err is None:
            raise
        raise err from None
    finally:
        if bar is not None:
            bar.close()
        for plan, manifest in zip(plans, manifests):  # interrupted: keep what was recorded
            _save_chunks(plan, manifest)
    return n_done


def _record_session(plans, manifests, todos, tasks, n_done, started, compile_seconds,
                    play_seconds, backend) -> None:
    """The session's timings in each manifest (a run sharing the pool is credited its share
    of the play time), its status, written atomically."""
    for j, (plan, manifest) in enumerate(zip(plans, manifests)):
        games_this = sum(n for _, n in todos[j])
        recorded = {r["first"] for r in manifest["chunks"]}
        missing = [f for f, _ in plan.chunks if f not in recorded]
        # a run sharing the pool with others is credited its share of the play time
        share = games_this / max(1, sum(n for t in todos for _, n in t))
        secs = play_seconds * share
        session = {
            "started": started,
            "compile_seconds": round(compile_seconds, 4),
            "play_seconds": round(secs, 4),
            "games_played": games_this,
            "chunks_played": n_done[j],
            "games_per_second": _rate(games_this / secs) if secs > 0 and games_this else None,
            "workers": min(plan.workers, max(1, len(tasks))) if backend == "loky" else "dask",
            "resumed": plan.resume,
        }
        if len(plans) > 1:
            session["shared_pool_with_runs"] = len(plans)
        manifest["sessions"].append(session)
        manifest["timings"] = {
            "compile_seconds": session["compile_seconds"],
            "play_seconds": session["play_seconds"],
            "games_per_second": session["games_per_second"],
            "workers": session["workers"],
            "games_played_this_session": games_this,
            "chunks_played_this_session": n_done[j],
        }
        manifest["status"] = "complete" if not missing else "running"
        manifest["chunks_missing"] = len(missing)
        _write_json_atomic(os.path.join(plan.out_dir, MANIFEST), manifest)


@folder_lock.scoped(own=True)   # the caller's own lock (api.run, a designer root) lasts longer
def run_many(spec: GameSpec, jobs: list, workers: int | None = None,
             chunk_size: int | None = None, progress: bool = True, overwrite: bool = False,
             backend: str = "loky", scheduler: str | None = None,
             command_line: list | None = None, _max_chunks: int | None = None,
             while_playing=None) -> list:
    """Several runs of one game at once: `jobs` = [(prepared, n_games, out_dir)]. Every chunk
    of every run goes to one pool of workers, so that many configurations (a sweep, the
    seatings of a comparison) keep every core busy without a pool start-up and an idle tail
    per configuration. Each run is an ordinary run folder (manifest, chunks, resume).
    `while_playing()`: called in a daemon thread of this process once the chunks are playing
    in other processes (never when they play in this one), for work of the caller that
    would otherwise wait until the end (the summary's imports: sim/api/runs.py).
    Returns the final manifests, in the order of `jobs`."""
    if backend not in ("loky", "dask"):
        raise ToolkitError(f"unknown backend '{backend}' (use loky or dask)")
    if backend == "dask":
        _check_dask()
    # a bad BALANCE_POOL is an error before any folder is made
    pool_kind = processes.local_pool_kind() if backend == "loky" else None
    for _, n_games, _ in jobs:
        limits.check_games(n_games)
    for _, _, out_dir in jobs:   # one writer per folder, from its check to its last write
        folder_lock.keep(out_dir)
    plans = [plan_run(prepared, n_games, out_dir, workers, chunk_size, overwrite,
                      seconds_per_game(spec, prepared))
             for prepared, n_games, out_dir in jobs]
    started = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")

    check_seconds = _check_users(spec, jobs, plans)
    processes.CANCELLED.clear()
    manifests = _open_folders(spec, jobs, plans, backend, command_line)
    for var in THREAD_ENV:  # inherited by worker processes started from here
        os.environ.setdefault(var, "1")
    todos = [plan.todo if _max_chunks is None else plan.todo[:_max_chunks] for plan in plans]
    tasks = [(j, f, n) for j, todo in enumerate(todos) for f, n in todo]
    pooled = pool_kind == "loky" and min(plans[0].workers, len(tasks)) > 1
    compile_seconds = _warm_up(spec, jobs, plans, pooled) + check_seconds
    total = sum(plan.n_games for plan in plans)
    games_before = total - sum(n for plan in plans for _, n in plan.todo)
    t1 = time.perf_counter()
    n_done = _play_tasks(spec, jobs, plans, manifests, tasks, total, games_before, progress,
                         backend, scheduler, pool_kind, while_playing)
    _record_session(plans, manifests, todos, tasks, n_done, started, compile_seconds,
                    time.perf_counter() - t1, backend)
    return manifests


def _rate(games_per_second: float) -> float:
    """One decimal, or three significant digits below 10 games/s (a search run's 0.31)."""
    return (round(games_per_second, 1) if games_per_second >= 10
            else float(f"{games_per_second:.3g}"))


def _save_chunks(plan: RunPlan, manifest: dict) -> None:
    """Record the chunks finished so far (a resume then trusts them: it checks their SHA-256)."""
    manifest["chunks"].sort(key=lambda r: r["first"])
    _write_json_atomic(os.path.join(plan.out_dir, MANIFEST), manifest)


def _progress_bar(total: int, initial: int, progress: bool):
    if not progress:
        return None
    try:
        from tqdm import tqdm
    except ImportError:  # pragma: no cover
        return None
    # the rate always in games per second (tqdm's default turns a slow rate into s/game)
    return tqdm(total=total, initial=initial, unit="game", unit_scale=True,
                desc="games", file=sys.stderr, dynamic_ncols=True, smoothing=0.1,
                bar_format="{l_bar}{bar}| {n_fmt}/{total_fmt} [{elapsed}<{remaining}, "
                           "{rate_noinv_fmt}{postfix}]")


# --- reading ---------------------------------------------------------------------------------
def chunk_files(out_dir: str) -> list[str]:
    """The run's chunk files in game order, each checked against the manifest's record (one
    error line for a missing, extra, duplicated, damaged or foreign file). Only recorded
    chunks are returned: a file the run did not record is never counted."""
    return rf.open_run(str(out_dir), load_components=False).files


def log_columns(out_dir: str) -> list[str]:
    """The column names of a run's logs (from the first chunk's schema)."""
    import pyarrow.parquet as pq

    files = chunk_files(out_dir)
    if not files:
        raise ToolkitError(f"{out_dir}: no chunk files found in {CHUNK_DIR}/")
    return list(pq.read_schema(files[0]).names)


def read_logs(out_dir: str, columns: list | None = None):
    """All rows of a run as a pandas DataFrame sorted by (game, seat).

    `columns`: read only these (game and seat are always included).
    """
    import pandas as pd
    import pyarrow as pa

    files = chunk_files(out_dir)
    if not files:
        if not os.path.isdir(out_dir):
            raise ToolkitError(f"{out_dir}: no such folder")
        raise ToolkitError(f"{out_dir}: no chunk files found in {CHUNK_DIR}/")
    cols = None
    if columns is not None:
        cols = list(dict.fromkeys(["game", "seat", *columns]))
    tables = [rf.read_chunk(f, cols) for f in files]
    table = pa.concat_tables(tables, promote_options="default").unify_dictionaries()
    df = table.to_pandas()
    if len(df) == 0:
        return df
    df = df.sort_values(["game", "seat"], kind="stable").reset_index(drop=True)
    for c in df.columns:  # dictionary columns come back as pandas categoricals: keep them
        if isinstance(df[c].dtype, pd.CategoricalDtype):
            df[c] = df[c].cat.remove_unused_categories()
    return df
