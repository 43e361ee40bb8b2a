import json
import os

import pandas as pd
import pytest

from sim import processes, runner
from sim.game_api import ToolkitError
from tests.toygame import SPEC

N = 120


def prep(seed=1, names=("planner", "greedy", "greedy", "random"), players=4):
    return SPEC.prepare(SPEC.load_components(), players, list(names), seed)


def chunk_set(out):
    return sorted(os.listdir(os.path.join(out, "chunks")))


def test_same_logs_any_workers_and_chunk_size(tmp_path, monkeypatch):
    p = prep()
    logs = []
    # two workers forked from this process (the default on Linux) and started fresh by loky
    for workers, chunk, pool in [(1, 50, ""), (2, 7, ""), (2, 50, "loky"), (1, 7, "")]:
        monkeypatch.setenv(processes.POOL_ENV, pool)
        out = str(tmp_path / f"w{workers}-c{chunk}")
        m = runner.run(SPEC, p, N, out, workers=workers, chunk_size=chunk, progress=False)
        assert m["status"] == "complete"
        df = runner.read_logs(out)
        assert len(df) == N * 4
        assert df["game"].is_monotonic_increasing
        logs.append(df.drop(columns=["run_id"]))
    for other in logs[1:]:
        pd.testing.assert_frame_equal(logs[0], other)


def test_manifest_and_columns(tmp_path):
    out = str(tmp_path / "run")
    m = runner.run(SPEC, prep(), 30, out, workers=1, chunk_size=10, progress=False,
                   command_line=["balance", "run", "toy"])
    disk = runner.read_manifest(out)
    assert disk == json.loads(json.dumps(m))
    for key in ("game", "title", "variant", "players", "strategies", "seed", "games",
                "chunk_size", "components", "package_version", "python", "numba",
                "command_line", "created", "timings", "status", "run_id"):
        assert key in disk, key
    assert disk["status"] == "complete" and disk["games"] == 30 and disk["chunk_size"] == 10
    assert disk["components"]["sha256"] == SPEC.load_components().sha256
    assert disk["timings"]["compile_seconds"] >= 0 and disk["timings"]["games_per_second"] > 0
    assert chunk_set(out) == [f"chunk-{f:012d}.parquet" for f in (0, 10, 20)]
    assert open(os.path.join(out, "components.toml")).read() == SPEC.default_components_text()
    df = runner.read_logs(out)
    assert set(df["run_id"].astype(str)) == {disk["run_id"]}
    assert list(df.loc[df.game == 0, "strategy"].astype(str)) == ["planner", "greedy", "greedy", "random"]
    assert df.groupby("game")["win"].sum().round(9).eq(1.0).all()
    sub = runner.read_logs(out, columns=["score"])
    assert list(sub.columns) == ["game", "seat", "score"]


def test_resume_after_deleted_chunk(tmp_path):
    out = str(tmp_path / "run")
    p = prep()
    runner.run(SPEC, p, N, out, workers=1, chunk_size=25, progress=False)
    full = runner.read_logs(out)
    files = chunk_set(out)
    os.remove(os.path.join(out, "chunks", files[2]))
    m = runner.read_manifest(out)
    m["status"] = "running"
    with open(os.path.join(out, "manifest.json"), "w") as fh:
        json.dump(m, fh)
    # a leftover temp file from a crash is cleaned up
    open(os.path.join(out, "chunks", files[2] + ".tmp"), "w").write("junk")
    m2 = runner.run(SPEC, p, N, out, workers=2, progress=False)  # chunk size taken from the run
    assert m2["status"] == "complete"
    assert m2["timings"]["chunks_played_this_session"] == 1
    assert m2["timings"]["games_played_this_session"] == 25
    assert chunk_set(out) == files
    pd.testing.assert_frame_equal(runner.read_logs(out), full)
    assert len(m2["sessions"]) == 2


def test_interrupted_run_resumes(tmp_path):
    out = str(tmp_path / "run")
    p = prep(seed=7)
    m = runner.run(SPEC, p, N, out, workers=1, chunk_size=20, progress=False, _max_chunks=2)
    assert m["status"] == "running" and m["chunks_missing"] == 4
    assert len(chunk_set(out)) == 2
    m = runner.run(SPEC, p, N, out, workers=2, chunk_size=20, progress=False)
    assert m["status"] == "complete"
    assert m["timings"]["chunks_played_this_session"] == 4
    ref = str(tmp_path / "ref")
    runner.run(SPEC, p, N, ref, workers=1, chunk_size=60, progress=False)
    a = runner.read_logs(out).drop(columns=["run_id"])
    b = runner.read_logs(ref).drop(columns=["run_id"])
    pd.testing.assert_frame_equal(a, b)
    assert a.duplicated(["game", "seat"]).sum() == 0
    # a complete run run again plays nothing
    m = runner.run(SPEC, p, N, out, workers=1, progress=False)
    assert m["timings"]["chunks_played_this_session"] == 0 and m["status"] == "complete"


def test_mismatch_refused_then_overwrite(tmp_path):
    out = str(tmp_path / "run")
    runner.run(SPEC, prep(seed=1), 40, out, workers=1, chunk_size=10, progress=False)
    before = {f: os.path.getmtime(os.path.join(out, "chunks", f)) for f in chunk_set(out)}
    manifest_before = open(os.path.join(out, "manifest.json")).read()
    for kwargs in ({"seed": 2}, {"names": ("greedy",)}):
        with pytest.raises(ToolkitError) as exc:
            runner.run(SPEC, prep(**kwargs), 40, out, workers=1, progress=False)
        assert "--overwrite" in str(exc.value) and len(exc.value.lines) == 1
    # more games extend the run (test_extend_a_run_...); fewer than recorded are refused
    with pytest.raises(ToolkitError, match="games"):
        runner.run(SPEC, prep(seed=1), 30, out, workers=1, progress=False)
    with pytest.raises(ToolkitError, match="chunk_size"):
        runner.run(SPEC, prep(seed=1), 40, out, workers=1, chunk_size=7, progress=False)
    assert open(os.path.join(out, "manifest.json")).read() == manifest_before
    assert {f: os.path.getmtime(os.path.join(out, "chunks", f)) for f in chunk_set(out)} == before
    m = runner.run(SPEC, prep(seed=2), 15, out, workers=1, chunk_size=10, progress=False,
                   overwrite=True)
    assert m["seed"] == 2 and chunk_set(out) == ["chunk-000000000000.parquet",
                                                 "chunk-000000000010.parquet"]
    assert len(runner.read_logs(out)) == 15 * 4


def test_default_chunk_size_gives_workers_work_without_depending_on_them():
    # the chunk size is in the run id of every log row: it must not depend on --workers
    assert runner.chunk_ranges(10, runner.default_chunk_size(10)) == [(0, 10)]
    assert runner.default_chunk_size(100_000) == 3125           # 32 chunks
    assert runner.default_chunk_size(10_000_000) == 20_000
    assert runner.chunk_ranges(10, 4) == [(0, 4), (4, 4), (8, 2)]


@pytest.mark.skipif(not processes.fork_available(), reason="ForkedPool is Linux's pool only")
def test_forked_workers_play_with_the_kernels_this_process_loaded(tmp_path, monkeypatch):
    """The parent loads the play kernels before it forks its workers: a worker compiles and
    loads nothing of its own (numba's loads are counted in the worker's process)."""
    monkeypatch.delenv(processes.POOL_ENV, raising=False)
    p = prep()
    runner.run(SPEC, p, 20, str(tmp_path / "warm"), workers=1, progress=False)
    with processes.ForkedPool(2) as pool:
        loads = list(pool.unordered([processes.delayed(_kernel_loads_after_a_chunk)(p)] * 2))
    assert loads == [0, 0]


def _kernel_loads_after_a_chunk(prepared) -> int:
    from numba.core import caching
    counted = []
    original = caching.Cache.load_overload
    caching.Cache.load_overload = lambda self, *a, **k: counted.append(1) or original(self, *a, **k)
    try:
        SPEC.play_chunk(prepared, 0, 3)
    finally:
        caching.Cache.load_overload = original
    return len(counted)


@pytest.mark.parametrize("workers", [1, 2])
def test_while_playing_runs_only_while_other_processes_play(tmp_path, workers):
    """The summary's imports overlap the play of other processes, never this process's own."""
    import threading
    seen = []
    runner.run(SPEC, prep(), 40, str(tmp_path / "run"), workers=workers, chunk_size=10,
               progress=False, while_playing=lambda: seen.append(threading.current_thread()))
    if workers == 1:
        assert seen == []
    else:
        assert len(seen) == 1 and seen[0] is not threading.main_thread()


def test_unknown_pool_is_one_line(tmp_path, monkeypatch):
    monkeypatch.setenv(processes.POOL_ENV, "threads")
    with pytest.raises(ToolkitError, match=r"BALANCE_POOL='threads' is not a pool: use one of "
                                           r"fork, loky"):
        runner.run(SPEC, prep(), 10, str(tmp_path / "run"), workers=2, progress=False)


def test_dask_backend_missing_is_clear(tmp_path, monkeypatch):
    import builtins
    real_import = builtins.__import__

    def fake_import(name, *args, **kwargs):
        if name.startswith("dask"):
            raise ImportError("no dask")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", fake_import)
    out = tmp_path / "run"
    with pytest.raises(ToolkitError, match=r"pip install \.\[cluster\]"):
        runner.run(SPEC, prep(), 10, str(out), backend="dask", scheduler="tcp://127.0.0.1:1",
                   progress=False)
    assert not out.exists()


def test_bad_games_and_file_as_out(tmp_path):
    with pytest.raises(ToolkitError):
        runner.run(SPEC, prep(), 0, str(tmp_path / "x"), progress=False)
    f = tmp_path / "file"
    f.write_text("")
    with pytest.raises(ToolkitError, match="is a file"):
        runner.run(SPEC, prep(), 5, str(f), progress=False)
    assert not (tmp_path / "x").exists()


def test_two_dimensional_columns_become_list_columns(tmp_path, monkeypatch):
    import numpy as np

    p = prep()
    real = SPEC.play_chunk

    def with_matrix(prepared, first, n):
        cols = real(prepared, first, n)
        cols["counts"] = np.stack([cols["score"], cols["rerolls"]], axis=1)
        return cols

    monkeypatch.setattr(SPEC, "play_chunk", with_matrix)
    out = str(tmp_path / "run")
    runner.run(SPEC, p, 10, out, workers=1, chunk_size=4, progress=False)
    df = runner.read_logs(out)
    assert list(df.loc[3, "counts"]) == [df.loc[3, "score"], df.loc[3, "rerolls"]]


def test_extend_a_run_with_more_games_equals_a_fresh_run(toy_registry, tmp_path):
    """Asking a finished run for more games (same chunking) keeps its chunks, replays a short
    last chunk whole and adds the rest: the logs equal those of a fresh run of that size."""
    from sim import runner
    spec = toy_registry
    comp = spec.load_components()
    prepared = spec.prepare(comp, 3, ["planner", "greedy", "random"], 11)
    out = str(tmp_path / "grow")
    runner.run(spec, prepared, 50, out, workers=1, chunk_size=20, progress=False)
    first_ids = set(runner.read_logs(out)["run_id"])
    runner.run(spec, prepared, 100, out, workers=1, chunk_size=20, progress=False)
    fresh = str(tmp_path / "fresh")
    runner.run(spec, prepared, 100, fresh, workers=1, chunk_size=20, progress=False)
    a, b = runner.read_logs(out), runner.read_logs(fresh)
    assert len(a) == 300 and a.equals(b)
    assert set(a["run_id"]) == first_ids  # the run keeps its id
    with pytest.raises(ToolkitError):
        runner.run(spec, prepared, 40, out, workers=1, chunk_size=20, progress=False)
