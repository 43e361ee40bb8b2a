"""Issue 9 item 7: a run stays under the user's control and within sane sizes.

* A parent killed (SIGKILL) or terminated (SIGTERM) leaves no worker playing on or writing
  chunk files; SIGTERM is one line, exit 143, and the run resumes.
* More workers than cores: a warning line. Absurd sizes (games, sweep grids, component values
  that could overflow a score) are refused with one line before any work.
* A full disk and a read-only folder are one line each.
"""
from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from scripts.cli import main
from sim import limits, runner

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def call(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# --- killed and terminated parents ------------------------------------------------------------
def _children(pid: int) -> list[int]:
    kids = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as fh:
                    fields = fh.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                kids.append(int(d))
    return kids


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _chunks(out) -> set:
    d = out / "chunks"
    return set(os.listdir(d)) if d.is_dir() else set()


RUN = ["run", "sunset", "--players", "2", "--games", "20000", "--chunk-size", "500",
       "--workers", "2", "--no-progress", "--seed", "3"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL])
def test_killed_or_terminated_parent_leaves_no_worker_running_or_writing(tmp_path, sig):
    out = tmp_path / "run"
    proc = subprocess.Popen([sys.executable, "-m", "scripts.cli", *RUN, "--out", str(out)],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    workers = []
    try:
        deadline = time.time() + 180
        while len([f for f in _chunks(out) if f.endswith(".parquet")]) < 2:
            assert proc.poll() is None, proc.communicate()
            assert time.time() < deadline, "no chunk was written"
            time.sleep(0.1)
        workers = [k for c in _children(proc.pid) for k in [c, *_children(c)]]
        assert len(workers) >= 2  # the local workers (loky's: and their resource trackers)
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=60)
        time.sleep(1.0)
        survivors = [k for k in workers if _running(k)]
        assert survivors == [], f"workers still running after the parent died: {survivors}"
        files = _chunks(out)
        time.sleep(2.0)
        assert _chunks(out) == files, "a chunk file appeared after the parent died"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
        for k in workers:  # never leave strays behind, even when the test fails
            if _running(k):
                os.kill(k, signal.SIGKILL)
    if sig == signal.SIGTERM:
        assert proc.returncode == 143
        assert err.strip() == "balance: terminated (SIGTERM); run the same command again to resume"
        manifest = json.loads((out / "manifest.json").read_text())
        assert manifest["status"] == "running"
        done = len([f for f in files if f.endswith(".parquet")])
        # the chunks the parent recorded (a chunk a worker wrote but whose result the parent
        # never received is not counted: the resume plays it again)
        recorded = len(manifest["chunks"])
        assert 2 <= done < 40 and recorded <= done
        # resumable: the same command (one worker here) plays only the missing chunks
        r = subprocess.run([sys.executable, "-m", "scripts.cli", *RUN[:-5], "--workers", "1",
                            "--no-progress", "--seed", "3", "--out", str(out)],
                           cwd=ROOT, capture_output=True, text=True, timeout=600)
        assert r.returncode == 0, r.stderr
        manifest = json.loads((out / "manifest.json").read_text())
        assert manifest["status"] == "complete"
        assert manifest["sessions"][-1]["chunks_played"] == 40 - recorded
    else:
        assert proc.returncode == -signal.SIGKILL


# --- workers and sizes -----------------------------------------------------------------------
def test_more_workers_than_cores_is_warned(toy_registry, in_tmp, capsys, monkeypatch):
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    code, out, err = call(capsys, "run", "toy", "--players", "2", "--games", "20", "--workers", "2",
                          "--no-progress", "--out", "w")
    assert code == 0
    assert err.strip() == ("balance: warning: --workers 2 is more than the 1 cores of this "
                           "machine; the extra workers only share the same cores (and memory)")
    code, out, err = call(capsys, "run", "toy", "--players", "2", "--games", "20", "--workers", "1",
                          "--no-progress", "--out", "w1")
    assert code == 0 and err == ""


def test_absurd_number_of_games_is_refused_before_any_work(toy_registry, in_tmp, capsys):
    code, out, err = call(capsys, "run", "toy", "--games", str(10 ** 13), "--out", "big")
    assert code == 2 and err.count("\n") == 1
    assert "--games 10,000,000,000,000 is more than the toolkit's limit of 1,000,000,000" in err
    assert not (in_tmp / "big").exists()
    code, out, err = call(capsys, "compare", "toy", "--strategies", "greedy,random", "--games",
                          str(limits.MAX_GAMES + 1), "--out", "cmp")
    assert code == 2 and err.count("\n") == 1 and "limit of 1,000,000,000 games" in err
    assert not (in_tmp / "cmp").exists()
    # and the library refuses it too (run folders made by scripts)
    from tests.toygame import SPEC
    prepared = SPEC.prepare(SPEC.load_components(), 2, ["greedy"], 1)
    with pytest.raises(Exception, match="limit of 1,000,000,000 games"):
        runner.run(SPEC, prepared, limits.MAX_GAMES + 1, str(in_tmp / "lib"), progress=False)
    assert not (in_tmp / "lib").exists()


def test_sweep_grid_too_large_is_refused_saying_how_many_points(toy_registry, in_tmp, capsys):
    code, out, err = call(capsys, "sweep", "toy", "--vary", "dice.sides=2..101",
                          "--vary", "dice.n_dice=1..20", "--games", "10", "--out", "sw")
    assert code == 2 and err.count("\n") == 1, err
    assert "has 2,000 points (100 x 20); at most 1,000" in err
    assert not (in_tmp / "sw").exists()
    # an astronomically long range is refused at once, not built first
    t0 = time.perf_counter()
    code, out, err = call(capsys, "sweep", "toy", "--vary", "dice.sides=2..100000000000",
                          "--games", "10", "--out", "sw2")
    assert code == 2 and "99,999,999,999 values; at most 200" in err
    assert time.perf_counter() - t0 < 5 and not (in_tmp / "sw2").exists()


def test_component_value_that_could_overflow_a_score_is_refused(in_tmp, capsys):
    code, out, err = call(capsys, "run", "sunset", "--games", "10", "--out", "o",
                          "--set", "commissions[3].points=9223372036854775807")
    assert code == 2 and err.count("\n") == 1, err
    assert "commissions[3].points = 9,223,372,036,854,775,807 is beyond the toolkit's limit of 1,000,000" in err
    assert not (in_tmp / "o").exists()
    # the same check guards every point of a sweep
    code, out, err = call(capsys, "sweep", "sunset", "--vary", "commissions[3].points=1,5000000",
                          "--games", "10", "--out", "sw")
    assert code == 2 and "commissions[3].points = 5,000,000 is beyond" in err
    assert not (in_tmp / "sw").exists()


# --- disks that refuse the files --------------------------------------------------------------
def test_full_disk_is_one_line_and_the_run_resumes(toy_registry, in_tmp, capsys, monkeypatch):
    real = runner._write_chunk
    calls = []

    def full(table, out_dir, first, n_games):
        calls.append(first)
        if len(calls) > 2:
            raise OSError(errno.ENOSPC, "No space left on device",
                          os.path.join(out_dir, "chunks", runner.chunk_name(first)))
        return real(table, out_dir, first, n_games)

    monkeypatch.setattr(runner, "_write_chunk", full)
    argv = ["run", "toy", "--players", "2", "--games", "50", "--chunk-size", "10", "--workers", "1",
            "--no-progress", "--out", "d"]
    code, out, err = call(capsys, *argv)
    assert code == 2 and err.count("\n") == 1, err
    assert err.startswith("balance: error: no space left on the disk writing ")
    assert "chunk-000000000020.parquet" in err and "run the same command again to resume" in err
    assert len(runner.chunk_files(str(in_tmp / "d"))) == 2
    monkeypatch.setattr(runner, "_write_chunk", real)  # space freed: the same command resumes
    code, out, err = call(capsys, *argv)
    assert code == 0, err
    assert json.loads((in_tmp / "d" / "manifest.json").read_text())["status"] == "complete"


def test_out_folder_below_a_file_is_one_line(toy_registry, in_tmp, capsys):
    (in_tmp / "notes.txt").write_text("mine")
    code, out, err = call(capsys, "run", "toy", "--games", "10", "--workers", "1", "--no-progress",
                          "--out", "notes.txt/run")
    assert code == 2 and err.count("\n") == 1, err
    assert "a part of that path is a file, not a folder" in err
    assert (in_tmp / "notes.txt").read_text() == "mine"


@pytest.mark.parametrize("err_no, words", [(errno.EROFS, "is on a read-only file system"),
                                           (errno.EACCES, "is not writable")])
def test_read_only_folder_is_one_line(toy_registry, in_tmp, capsys, monkeypatch, err_no, words):
    # tests run as root, for whom chmod does not stop writes: the OS refusal is simulated
    real = os.makedirs

    def refuse(path, *a, **k):
        if "ro" in str(path):
            raise OSError(err_no, os.strerror(err_no), str(path))
        return real(path, *a, **k)

    monkeypatch.setattr(os, "makedirs", refuse)
    code, out, err = call(capsys, "run", "toy", "--games", "10", "--workers", "1", "--no-progress",
                          "--out", "ro")
    assert code == 2 and err.count("\n") == 1, err
    assert err.startswith("balance: error: cannot write ") and words in err
    assert "choose another --out folder" in err


def test_disk_full_in_a_worker_process_is_one_line(toy_registry, in_tmp, capsys):
    """A real ENOSPC from the OS in a loky worker: the last chunk's temporary file is a link to
    /dev/full, where every write fails with 'No space left on device'. The link is made once
    the run has written its manifest (a resume removes the toolkit's stale temporary files, and
    a folder of foreign files is refused, so it cannot be planted before the run starts); the
    worker pool starts well after that."""
    import threading

    chunks = in_tmp / "f" / "chunks"
    last = runner.chunk_name(30)
    tmp = chunks / (last + ".tmp")

    def plant():
        deadline = time.time() + 60
        while time.time() < deadline:
            if (in_tmp / "f" / "manifest.json").exists() and chunks.is_dir():
                os.symlink("/dev/full", tmp)
                return
            time.sleep(0.001)

    planter = threading.Thread(target=plant, daemon=True)
    planter.start()
    argv = ["run", "toy", "--players", "2", "--games", "40", "--chunk-size", "10", "--workers", "2",
            "--no-progress", "--out", "f"]
    code, out, err = call(capsys, *argv)
    planter.join(5)
    assert os.path.islink(tmp), "the link to /dev/full was not planted in time"
    assert code == 2 and err.count("\n") == 1, err
    assert err == (f"balance: error: no space left on the disk writing {chunks / last}"
                   f"; free some space (or choose another --out) and run the same command again "
                   f"to resume\n")
    assert os.path.exists("/dev/full") and not (chunks / last).exists()
    code, out, err = call(capsys, *argv)  # space freed: the same command resumes
    assert code == 0, err
    assert not os.path.lexists(tmp) and len(runner.chunk_files(str(in_tmp / "f"))) == 4
