"""Issue 9 item 8: the dask backend gives the same logs as local workers, survives a worker
killed mid-run, and resumes runs started on the other backend.

A real dask.distributed cluster on 127.0.0.1 (a scheduler and two worker processes, each
under a nanny that restarts it). The game is `pick` (tests/usergame.py) with its built-in
`slow` strategy, a busy millisecond per decision, so that a chunk lasts long enough to kill a
worker in the middle of it; its kernels are cached, so the workers compile nothing.
"""
from __future__ import annotations

import os
import signal
import threading
import time

import pytest

from sim import runner
from tests import usergame

distributed = pytest.importorskip("distributed", reason="make test installs the [cluster] extra")

GAMES = 240
CHUNK = 12          # 20 chunks of ~0.1 s
SPEC = usergame.SPEC


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None,
                                  silence_logs=50) as c:
        yield c


@pytest.fixture(scope="module")
def prepared():
    return SPEC.prepare(SPEC.load_components(), 2, ["slow", "greedy"], 9)


@pytest.fixture(scope="module")
def local_logs(prepared, tmp_path_factory):
    out = tmp_path_factory.mktemp("local") / "run"
    runner.run(SPEC, prepared, GAMES, str(out), workers=1, chunk_size=CHUNK, progress=False)
    return logs(out)


def logs(out):
    df = runner.read_logs(str(out))
    return df[[c for c in df.columns if c != "run_id"]]


def dask_run(prepared, out, cluster, **kw):
    return runner.run(SPEC, prepared, GAMES, str(out), chunk_size=CHUNK, progress=False,
                      backend="dask", scheduler=cluster.scheduler_address, **kw)


def test_dask_run_gives_the_same_logs_as_local_workers(cluster, prepared, local_logs, tmp_path):
    manifest = dask_run(prepared, tmp_path / "d", cluster)
    assert manifest["status"] == "complete" and manifest["backend"] == "dask"
    assert logs(tmp_path / "d").equals(local_logs)


def test_a_dask_worker_killed_mid_run_has_its_chunk_replayed(cluster, prepared, local_logs, tmp_path):
    out = tmp_path / "k"
    result = {}

    def play():
        try:
            result["manifest"] = dask_run(prepared, out, cluster)
        except BaseException as exc:  # reported by the assertion below
            result["error"] = exc

    thread = threading.Thread(target=play, daemon=True)
    thread.start()
    killed = None
    with distributed.Client(cluster.scheduler_address) as client:
        deadline = time.time() + 60
        while killed is None:
            assert time.time() < deadline and thread.is_alive(), result
            # under way (a chunk file is on disk, recorded or not yet): kill a worker that
            # holds a chunk
            if list((out / "chunks").glob("chunk-*.parquet")):
                busy = [addr for addr, keys in client.processing().items() if keys]
                for nanny in cluster.workers.values():
                    if busy and nanny.worker_address == busy[0]:
                        killed = nanny.process.process.pid
                        os.kill(killed, signal.SIGKILL)
            time.sleep(0.02)
    thread.join(120)
    assert not thread.is_alive() and "error" not in result, result
    assert result["manifest"]["status"] == "complete"
    assert len(runner.chunk_files(str(out))) == GAMES // CHUNK
    assert logs(out).equals(local_logs)


@pytest.mark.parametrize("first, then", [("loky", "dask"), ("dask", "loky")])
def test_a_run_resumes_on_the_other_backend(cluster, prepared, local_logs, tmp_path, first, then):
    out = tmp_path / "r"
    kw = {"loky": {"workers": 1}, "dask": {"backend": "dask", "scheduler": cluster.scheduler_address}}
    m = runner.run(SPEC, prepared, GAMES, str(out), chunk_size=CHUNK, progress=False,
                   _max_chunks=5, **kw[first])  # as if interrupted after 5 chunks
    assert m["status"] == "running" and len(runner.chunk_files(str(out))) == 5
    m = runner.run(SPEC, prepared, GAMES, str(out), chunk_size=CHUNK, progress=False, **kw[then])
    assert m["status"] == "complete" and m["sessions"][-1]["chunks_played"] == GAMES // CHUNK - 5
    assert m["sessions"][-1]["resumed"] is True
    assert logs(out).equals(local_logs)
