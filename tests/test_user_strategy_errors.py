"""Issue 9 item 6: a user's strategy mistake is one clear line, before anything is written; a
strategy that never returns can be stopped; illegal answers are counted, replaced and reported.

Most tests use the tiny `pick` game (tests/usergame.py), which takes user strategies exactly as
the real games do but compiles in a second; the illegal-answer tests run each real game's loop.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from dataclasses import replace

import numpy as np
import pytest

from scripts.cli import main
from sim import registry, runner
from tests import usergame

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIG = "sid, params, tables, s, seat, decision, options, n_options, ctx, keep"

BOTS = f'''
from numba import njit, objmode

@njit
def good({SIG}):
    return n_options - 1

@njit
def three_args(sid, params, tables):
    return 0

@njit
def undefined_name({SIG}):
    x = 1
    return no_such_name + x

@njit
def half({SIG}):
    return 0.5

@njit
def boom({SIG}):
    if n_options > 0:
        raise ValueError("the bot gave up")
    return 0

CALLS = [0]

@njit
def boom_later({SIG}):
    with objmode(k="int64"):
        CALLS[0] += 1
        k = CALLS[0]
    if k > 100:
        raise ValueError("the bot gave up late")
    return 0

@njit
def wild({SIG}):
    if decision % 2 == 0:
        return -1
    return n_options + 3
'''


@pytest.fixture
def pick(monkeypatch):
    """The `pick` game registered for the CLI, for this test only."""
    registry.list_games()
    monkeypatch.setitem(registry.GAMES, "pick", usergame.SPEC)
    monkeypatch.setitem(registry._ALIASES, "pick", "pick")
    return usergame.SPEC


@pytest.fixture
def bots(tmp_path):
    path = tmp_path / "bots.py"
    path.write_text(BOTS)
    return path


def run_pick(capsys, bots, fn, out, *extra):
    code = main(["run", "pick", "--players", "2", "--games", "40", "--workers", "1",
                 "--no-progress", "--strategies", f"{bots}:{fn},greedy", "--out", str(out), *extra])
    o, e = capsys.readouterr()
    return code, o, e


@pytest.mark.parametrize("fn, expect", [
    ("three_args", "takes 3 arguments (sid, params, tables); a strategy takes 10"),
    ("undefined_name", "does not compile: TypingError: NameError: name 'no_such_name' is not defined"),
    ("half", "returns float64, not a signed integer"),
    ("boom", "raised ValueError: the bot gave up while playing the first 2 games"),
])
def test_broken_strategy_is_one_line_naming_the_file_and_nothing_is_written(
        pick, bots, tmp_path, capsys, fn, expect):
    out = tmp_path / "run"
    code, o, err = run_pick(capsys, bots, fn, out)
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("balance: error: "), err
    assert f"{bots}:{fn}" in err and expect in err, err
    assert not out.exists()


def test_debug_flag_shows_numbas_full_message(pick, bots, tmp_path, capsys):
    code, _, err = run_pick(capsys, bots, "undefined_name", tmp_path / "run", "--debug")
    assert code == 2
    first, rest = err.split("\n", 1)
    assert "does not compile" in first
    # numba's own report follows: its pipeline stages and the typing of the user's call
    assert "Failed in nopython mode pipeline" in rest and "During: resolving callee type" in rest


def test_strategy_raising_mid_run_is_one_line_and_keeps_finished_chunks(pick, bots, tmp_path, capsys):
    out = tmp_path / "run"
    code, _, err = run_pick(capsys, bots, "boom_later", out, "--chunk-size", "5")
    assert code == 2 and err.count("\n") == 1, err
    assert f"{bots}:boom_later raised ValueError: the bot gave up late during the run" in err
    # 2 probe games x 2 seats x 4 decisions = 16 calls; the 100th call falls in game 2-3's chunk
    assert len(runner.chunk_files(str(out))) >= 1


def _start(tmp_path, bots_file, fn, workers=1, games=40):
    env = dict(os.environ, LOOP_MARK=str(tmp_path / "looping"), PYTHONPATH=ROOT)
    return subprocess.Popen(
        [sys.executable, "-m", "tests.usergame", "run", "pick", "--players", "2", "--games",
         str(games), "--workers", str(workers), "--no-progress", "--chunk-size", "5",
         "--strategies", f"{bots_file}:{fn},greedy", "--out", str(tmp_path / "run")],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


LOOPERS = f'''
import os
from numba import njit, objmode

MARK = os.environ["LOOP_MARK"]
CALLS = [0]

@njit
def spin({SIG}):
    with objmode():
        open(MARK, "w").close()
    i = 0
    while n_options > 0:
        i += 1
    return i

@njit
def spin_later({SIG}):
    with objmode(k="int64"):
        CALLS[0] += 1
        k = CALLS[0]
        if k > 100:
            open(MARK, "w").close()
    i = 0
    while k > 100 and n_options > 0:
        i += 1
    return i
'''


@pytest.mark.parametrize("fn, sig, code, word, workers", [
    ("spin", signal.SIGINT, 130, "interrupted", 1),        # stuck in the check, before any folder
    ("spin_later", signal.SIGINT, 130, "interrupted", 1),  # stuck in a chunk of the run
    ("spin_later", signal.SIGTERM, 143, "terminated", 1),
    ("spin_later", signal.SIGINT, 130, "interrupted", 2),  # stuck in local worker processes
])
def test_a_strategy_that_never_returns_can_be_stopped(tmp_path, fn, sig, code, word, workers):
    from tests.test_processes_limits import _children, _running
    bots_file = tmp_path / "loopers.py"
    bots_file.write_text(LOOPERS)
    proc = _start(tmp_path, bots_file, fn, workers=workers, games=400 if workers > 1 else 40)
    kids = []
    try:
        deadline = time.time() + 120
        while not (tmp_path / "looping").exists():
            assert proc.poll() is None, proc.communicate()
            assert time.time() < deadline, "the strategy never started"
            time.sleep(0.2)
        time.sleep(0.5)  # well inside the endless loop now
        kids = [k for c in _children(proc.pid) for k in [c, *_children(c)]]
        t0 = time.time()
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=20)
        time.sleep(1.0)
        assert [k for k in kids if _running(k)] == [], "a process spins on after the parent"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
        for k in kids:
            if _running(k):
                os.kill(k, signal.SIGKILL)
    assert time.time() - t0 < 20
    assert proc.returncode == code, err
    assert err.strip() == f"balance: {word}{' (SIGTERM)' if word == 'terminated' else ''}; " \
                          f"run the same command again to resume", err
    if fn == "spin":
        assert not (tmp_path / "run").exists()


# --- illegal answers -----------------------------------------------------------------------
GAME_BOTS = f'''
from numba import njit

@njit
def wild({SIG}):
    if decision % 2 == 0:
        return -1
    return n_options + 3

@njit
def first({SIG}):
    return 0
'''


@pytest.mark.parametrize("game", ["sunset", "surfers", "sagrada"])
def test_every_game_counts_and_replaces_illegal_answers_of_user_strategies(game, tmp_path):
    """A user strategy answering outside the legal options must neither crash nor corrupt the
    game: every such answer is counted in `illegal` and replaced by option 0, so the games
    are exactly those of a strategy that always picks option 0."""
    spec = registry.get_game(game)
    path = tmp_path / "game_bots.py"
    path.write_text(GAME_BOTS)
    comp = spec.load_components()
    wild = spec.prepare(comp, 2, [f"{path}:wild", f"{path}:first"], 7)
    assert list(wild.strategy_ids) == [-1, -2]
    # the same compiled loop, seat 0 now plays `first` (id -2): no recompile
    tame = replace(wild, strategy_ids=np.array([-2, -2], np.int64))
    a = spec.play_chunk(wild, 0, 20)
    b = spec.play_chunk(tame, 0, 20)
    seat0 = a["seat"] == 0
    assert (a["illegal"][seat0] > 0).all() and (a["illegal"][~seat0] == 0).all()
    assert (b["illegal"] == 0).all()
    for col in a:
        if col != "illegal":
            assert np.array_equal(a[col], b[col]), f"{game}: column {col} differs"


def test_summary_and_report_say_which_strategy_answered_illegally(pick, bots, tmp_path, capsys):
    out = tmp_path / "run"
    code = main(["run", "pick", "--players", "3", "--games", "30", "--workers", "1",
                 "--no-progress", "--strategies", f"{bots}:wild,greedy,{bots}:good",
                 "--out", str(out), "--report"])
    o, err = capsys.readouterr()
    assert code == 0, err
    # pick: 4 decisions per seat-game, all illegal for `wild`, none for the others
    assert "Illegal answers (each replaced by the first legal option)" in o
    section = o.split("Illegal answers")[1].split("\n\n")[0].splitlines()[3:]
    # shown by its display name, the function's name (issue 11 item 5; it was the full path)
    assert [ln.split() for ln in section] == [["wild", "120", "30", "of", "30"]]
    md = (out / "report" / "report.md").read_text()
    assert "made 120 illegal decisions in 30 of its 30 seat-games" in md
    assert "illegal decisions (replaced)" in md
    # a run without illegal answers says nothing about them
    code = main(["run", "pick", "--players", "2", "--games", "10", "--workers", "1",
                 "--no-progress", "--strategies", f"{bots}:good,greedy", "--out", str(tmp_path / "ok")])
    o, err = capsys.readouterr()
    assert code == 0 and "Illegal" not in o
