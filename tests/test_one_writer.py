"""Issue 23: one writer per folder, every hostile number one line, quiet closed pipes, long
paths one line.

Each test is a situation a user (or a hostile input) puts the toolkit in:

* two `balance run` of the user's own strategy into one folder, started at the same instant
  and 3 s apart: exactly one plays, the other says who holds the folder (real processes);
* a run killed with SIGKILL left its lock: the next command takes it over (kernel locks and
  the exclusive-file fallback of file systems that cannot lock);
* a reader polling the manifest while a run writes it never reads half a file;
* huge or fractional numbers (API and CLI), a huge plan, a manifest that says 10**13 games:
  one line, exit 2 (ToolkitError in the API), nothing written;
* `balance ... | head -1`: exit 0, no traceback;
* an --out path of 300 characters: one line on every command.
"""
from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from scripts.cli import main
from sim import folder_lock, limits, runner
from sim.game_api import ToolkitError

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PY = sys.executable


def call(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def balance(*argv, **kw):
    return subprocess.Popen([PY, "-m", "scripts.cli", *argv], cwd=kw.pop("cwd", ROOT),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def nothing_written(path) -> bool:
    return not os.path.exists(path)


# --- 1. two writers, one folder ---------------------------------------------------------------
def _user_run(out, seed, games=40):
    """The issue's command, made small: the user's strategy compiles (the long window
    between the folder check and the first write; loaded from the cache once compiled), then
    2 chunks of games/2 games."""
    return balance("run", "sunset", "--players", "2", "--games", str(games), "--chunk-size",
                   str(games // 2),
                   "--strategies", "@examples/waterfall_lover.py:waterfall_lover,greedy",
                   "--workers", "1", "--no-progress", "--seed", str(seed), "--out", str(out))


def test_two_runs_into_one_folder_one_plays_the_other_says_who_holds_it(tmp_path):
    """Two runs started at the same instant, and a third 3 s later, once one of them holds the
    folder (compiling or loading the user's strategy, then playing): exactly one
    plays, each other one says in one line who holds the folder. One folder, so that the
    suite waits for one compile of the user's strategy."""
    out = tmp_path / "D"
    # enough games that the winner still holds the folder when the third run checks it, also
    # when the user's strategy is already compiled (a run of 40 games then ends in ~3 s): on
    # the 2-core machine of 2026-12-02 night 40,000 games took under 3 s, and the third
    # run once found the winner's finished run instead of its lock; 200,000 take ~10 s there
    procs = {1: _user_run(out, 1, 200000), 2: _user_run(out, 2, 200000)}
    time.sleep(3)
    deadline = time.monotonic() + 300
    while not (out / folder_lock.LOCK_NAME).exists() and time.monotonic() < deadline:
        time.sleep(0.05)       # the third run starts while one of the two holds the folder
    procs[3] = _user_run(out, 3, 200000)
    done = {seed: (p.wait(timeout=600), *p.communicate()) for seed, p in procs.items()}
    winners = [s for s, (code, _, _) in done.items() if code == 0]
    assert len(winners) == 1 and winners != [3], done
    won = winners[0]
    for seed, (code, text, err) in done.items():
        if seed == won:
            continue
        assert code == 2 and text == "" and err.count("\n") == 1, done[seed]
        assert err.startswith(f"balance: error: {out} is in use by another balance command "
                              f"(pid {procs[won].pid}: `balance run sunset "), err
        assert f"--seed {won} " in err and "started 20" in err and " UTC)" in err
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["seed"] == won and manifest["status"] == "complete"
    assert not (out / folder_lock.LOCK_NAME).exists()   # released at the end


_HOLDER = ("import sys, time; sys.path.insert(0, {root!r}); from sim import folder_lock; "
           "folder_lock.COMMAND = 'balance run toy --out D'; folder_lock.acquire({out!r}); "
           "print('held', flush=True); time.sleep(120)")


@pytest.mark.parametrize("mode", ["lockf", "file"])
def test_a_lock_left_by_a_killed_run_is_taken_over(toy_registry, in_tmp, capsys, monkeypatch,
                                                  mode):
    """A run killed with SIGKILL keeps no lock: the same command resumes. With
    BALANCE_LOCK=file (file systems that cannot lock) the holder's pid is checked."""
    env = dict(os.environ)
    if mode == "file":
        env["BALANCE_LOCK"] = "file"
        monkeypatch.setenv("BALANCE_LOCK", "file")
    out = str(in_tmp / "D")
    holder = subprocess.Popen([PY, "-c", _HOLDER.format(root=ROOT, out=out)], env=env,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        argv = ["run", "toy", "--players", "2", "--games", "20", "--workers", "1",
                "--no-progress", "--out", out]
        code, _, err = call(capsys, *argv)   # alive: refused, named
        assert code == 2 and err.count("\n") == 1
        assert f"is in use by another balance command (pid {holder.pid}: `balance run toy " \
               f"--out D`" in err
        assert not (in_tmp / "D" / "manifest.json").exists()
        holder.send_signal(signal.SIGKILL)
        holder.wait(10)
        assert (in_tmp / "D" / folder_lock.LOCK_NAME).exists()   # the stale lock file
        code, _, err = call(capsys, *argv)
        assert code == 0, err
        assert (f"note: {out}: the lock of pid {holder.pid} (`balance run toy --out D`" in err
                and "no longer runs; taken over" in err)
        assert not (in_tmp / "D" / folder_lock.LOCK_NAME).exists()
    finally:
        holder.kill()


@pytest.mark.parametrize("content", [b"", b"my notes about the lock\n", b'{"tool": "other"}'])
def test_a_users_file_named_like_the_lock_is_never_overwritten_or_removed(toy_registry, in_tmp,
                                                                        capsys, content):
    """A file `.balance-lock` that the toolkit did not write (even an empty one) is the user's:
    the command is refused in one line, and the file is left byte for byte."""
    folder = in_tmp / "D"
    folder.mkdir()
    users = folder / folder_lock.LOCK_NAME
    users.write_bytes(content)
    code, _, err = call(capsys, "run", "toy", "--players", "2", "--games", "10", "--workers",
                        "1", "--no-progress", "--out", "D")
    assert code == 2 and err.count("\n") == 1, err
    assert "is not a lock file of this toolkit" in err and "does not overwrite" in err
    assert users.read_bytes() == content
    assert sorted(p.name for p in folder.iterdir()) == [folder_lock.LOCK_NAME]


def test_a_refused_writer_leaves_nothing_and_a_folder_check_still_sees_an_empty_folder(
        toy_registry, in_tmp, capsys):
    """The lock file is the toolkit's own: the folder it makes for an error goes again, and
    a folder holding only the lock of a running command is not "a folder of other files"."""
    code, _, err = call(capsys, "run", "toy", "--players", "2", "--strategies", "nosuch",
                        "--out", "new/deep")
    assert code == 2 and "nosuch" in err and not (in_tmp / "new").exists()
    with folder_lock.holding(str(in_tmp / "mine")):
        code, _, err = call(capsys, "run", "toy", "--players", "2", "--games", "10",
                            "--workers", "1", "--no-progress", "--out", "mine")
        assert code == 0, err   # re-entrant within the process: the same writer
    assert not (in_tmp / "mine" / folder_lock.LOCK_NAME).exists()


def test_readers_never_see_a_half_written_manifest(toy_registry, in_tmp, monkeypatch):
    """`summary` / `report --partial` while a run writes: the manifest is replaced whole."""
    from sim.run_folder import load_manifest_file
    monkeypatch.setattr(runner, "MANIFEST_SAVE_SECONDS", 0.0)   # a save after every chunk
    out = str(in_tmp / "r")
    seen, bad, stop = [], [], threading.Event()

    def read():
        while not stop.is_set():
            if os.path.isfile(os.path.join(out, "manifest.json")):
                manifest, why = load_manifest_file(out)
                (seen if manifest is not None else bad).append(why or len(manifest["chunks"]))

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    from tests.toygame import SPEC
    prepared = SPEC.prepare(SPEC.load_components(), 2, ["greedy"], 1)
    runner.run(SPEC, prepared, 3000, out, workers=1, chunk_size=10, progress=False)
    stop.set()
    reader.join(5)
    assert bad == [] and len(seen) > 20
    assert len(load_manifest_file(out)[0]["chunks"]) == 300


# --- 2. every number checked before use --------------------------------------------------------
def test_huge_integers_in_components_are_one_line_not_an_overflow(in_tmp, capsys):
    from sim import api
    with pytest.raises(ToolkitError, match=r"commissions\[12\]\.points = "
                       r"1,000,000,000,000,000,000,000,000,000,000 is beyond the toolkit's limit"):
        api.run("sunset", set={"commissions[12].points": 10**30}, games=20, out="a")
    assert nothing_written(in_tmp / "a")
    code, out, err = call(capsys, "sweep", "sunset", "--vary",
                          "commissions[12].points=1,99999999999999999999", "--out", "s")
    assert code == 2 and err.count("\n") == 1 and "99,999,999,999,999,999,999 is beyond" in err
    assert nothing_written(in_tmp / "s")
    text = (open(os.path.join(ROOT, "sim/games/lowlands/default_components.toml")).read()
            .replace("start_coins = 4 ", "start_coins = 99999999999999999999 "))
    (in_tmp / "mine.toml").write_text(text)
    code, out, err = call(capsys, "run", "lowlands", "--components", "mine.toml", "--out", "l")
    assert code == 2 and err.count("\n") == 1, err
    assert "start_coins = 99,999,999,999,999,999,999 is beyond the toolkit's limit" in err
    assert nothing_written(in_tmp / "l")


@pytest.mark.parametrize("kw, words", [
    ({"players": 2.5}, "--players must be a whole number, got 2.5"),
    ({"games": 20.5}, "--games must be a whole number, got 20.5"),
    ({"seed": 1.5}, "--seed must be a whole number, got 1.5"),
    ({"chunk_size": 2.5}, "--chunk-size must be a whole number, got 2.5"),
    ({"workers": 1.5}, "--workers must be a whole number, got 1.5"),
    ({"seed": 2**64}, "--seed must be between 0 and 2**63 - 1"),
    ({"workers": 10**6}, "--workers must be at most 1,024"),
])
def test_fractional_or_huge_counts_in_the_api_are_refused_never_truncated(toy_registry, in_tmp,
                                                                         kw, words):
    from sim import api
    with pytest.raises(ToolkitError) as exc:
        api.run("toy", out="o", **{"players": 2, "games": 20, "workers": 1, **kw})
    assert words in str(exc.value)
    assert nothing_written(in_tmp / "o")


@pytest.mark.parametrize("command", ["compare", "sweep", "tune", "cards"])
@pytest.mark.parametrize("workers", ["0", "-1"])
def test_no_workers_is_one_line_and_no_folder_is_claimed(in_tmp, capsys, command, workers):
    extra = (["--vary", "commissions[12].points=3,5"] if command in ("sweep", "tune") else [])
    code, out, err = call(capsys, command, "sunset", "--players", "2", "--workers", workers,
                          "--out", "o", *extra)
    assert code == 2 and err == f"balance: error: --workers must be at least 1, got {workers}\n"
    assert nothing_written(in_tmp / "o")


def test_a_huge_plan_is_refused_before_it_is_built(toy_registry, in_tmp, capsys):
    t0 = time.perf_counter()
    code, out, err = call(capsys, "run", "toy", "--games", "1000000000", "--chunk-size", "1",
                          "--out", "big")
    assert code == 2 and err.count("\n") == 1, err
    assert ("1,000,000,000 games in chunks of 1 make 1,000,000,000 chunk files; at most "
            "100,000 per run: give a larger --chunk-size") in err
    assert time.perf_counter() - t0 < 5 and nothing_written(in_tmp / "big")


def test_a_manifest_claiming_ten_trillion_games_is_refused_before_it_is_read(toy_registry,
                                                                            in_tmp, capsys):
    code, _, err = call(capsys, "run", "toy", "--players", "2", "--games", "20", "--workers",
                        "1", "--no-progress", "--out", "r")
    assert code == 0, err
    path = in_tmp / "r" / "manifest.json"
    manifest = json.loads(path.read_text())
    manifest.update(games=10**13, chunk_size=1)
    path.write_text(json.dumps(manifest))
    t0 = time.perf_counter()
    for argv in (["summary", "r"], ["report", "r", "--partial"], ["replay", "r", "--game", "0"]):
        code, out, err = call(capsys, *argv)
        assert code == 2 and err.count("\n") == 1, (argv, err)
        assert "manifest.json is not a valid run manifest: field 'games'" in err
    manifest.update(games=10**9)
    path.write_text(json.dumps(manifest))
    code, out, err = call(capsys, "summary", "r")
    assert code == 2 and "make 1,000,000,000 chunk files; at most 100,000" in err
    assert time.perf_counter() - t0 < 10


def test_an_impossible_search_budget_is_refused(toy_registry, in_tmp, capsys):
    code, out, err = call(capsys, "ladder", "toy", "--players", "2", "--budgets",
                          "18446744073709551616", "--out", "lad")
    assert code == 2 and err.count("\n") == 1
    assert ("--budgets: at most 1,000,000 iterations per decision (the toolkit's limit), got "
            "18,446,744,073,709,551,616") in err
    assert nothing_written(in_tmp / "lad")
    for value, words in (("1e20", "must be a whole number, got 1e+20"),
                         ("-5", "must be at least 1, got -5"),
                         ("2.5", "must be a whole number, got 2.5")):
        (in_tmp / "v.toml").write_text(f'[variants.deep]\nbase = "mcts"\n'
                                       f'params = {{ iterations = {value} }}\n')
        code, out, err = call(capsys, "run", "toy", "--players", "2", "--strategies",
                              "deep,greedy", "--variants", "v.toml", "--out", "o")
        assert code == 2 and err.count("\n") == 1, err
        assert f"variant 'deep': parameter 'iterations' {words}" in err
        assert nothing_written(in_tmp / "o")


def test_every_limit_of_sim_limits_is_in_the_readme_table():
    readme = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    table = readme.split("### Limits", 1)[1].split("\n#", 1)[0]
    for name in ("MAX_GAMES", "MAX_CHUNKS", "MAX_SEED", "MAX_WORKERS", "MAX_GRID_POINTS",
                 "MAX_VARY_VALUES", "MAX_COMPONENT_VALUE", "MAX_SEARCH_BUDGET"):
        value = getattr(limits, name)
        shown = "2**63 - 1" if name == "MAX_SEED" else f"{value:,}"
        assert f"`{name}`" in table and shown in table, name


# --- 3. closed pipes ----------------------------------------------------------------------------
@pytest.mark.parametrize("argv", [["games"], ["strategies", "sunset"],
                                  ["components", "sunset"], ["--help"]])
def test_a_reader_that_leaves_early_ends_the_command_quietly(argv):
    """`balance games | head -1`: the reader is gone before the command writes."""
    proc = balance(*argv)
    proc.stdout.close()   # no reader at all: every write meets a closed pipe
    err = proc.stderr.read()
    assert proc.wait(60) == 0 and err == "", err


def test_summary_into_a_closed_pipe_is_quiet(toy_registry, in_tmp, capsys, monkeypatch):
    code, _, err = call(capsys, "run", "toy", "--players", "2", "--games", "20", "--workers",
                        "1", "--no-progress", "--out", "r")
    assert code == 0

    class ClosedPipe:
        def write(self, text):
            raise BrokenPipeError(errno.EPIPE, "Broken pipe")

        def flush(self):
            raise BrokenPipeError(errno.EPIPE, "Broken pipe")

        def fileno(self):
            raise ValueError("not a file")

    monkeypatch.setattr(sys, "stdout", ClosedPipe())
    assert main(["summary", "r"]) == 0
    monkeypatch.undo()
    assert capsys.readouterr().err == ""


# --- 4. long or unwritable paths ---------------------------------------------------------------
LONG = "x" * 300


@pytest.mark.parametrize("argv", [
    ["run", "toy", "--players", "2", "--games", "10", "--out", LONG],
    ["compare", "toy", "--players", "2", "--strategies", "greedy,random", "--out", LONG],
    ["sweep", "toy", "--players", "2", "--vary", "dice.sides=5,6", "--out", LONG],
    ["tune", "toy", "--players", "2", "--vary", "dice.sides=5,6", "--out", LONG],
    ["ladder", "toy", "--players", "2", "--budgets", "8", "--out", LONG],
    ["cards", "sunset", "--players", "2", "--out", LONG],
    ["run", "toy", "--players", "2", "--games", "10", "--out", f"ok/{LONG}/deeper"],
])
def test_a_path_too_long_is_one_line(toy_registry, in_tmp, capsys, argv):
    if argv[1] == "sunset":
        from sim import registry
        registry._loaded = False   # the real games too
    code, out, err = call(capsys, *argv)
    assert code == 2 and err.count("\n") == 1, err
    assert "the path is too long for the file system (" in err
    assert "choose a shorter folder name" in err
    assert os.listdir(in_tmp) == []


def test_report_summary_and_replay_with_a_long_path_are_one_line(toy_registry, in_tmp, capsys):
    code, _, err = call(capsys, "run", "toy", "--players", "2", "--games", "10", "--workers",
                        "1", "--no-progress", "--out", "r")
    assert code == 0
    for argv in (["report", "r", "--out", LONG], ["summary", LONG],
                 ["replay", LONG, "--game", "1"], ["report", LONG]):
        code, out, err = call(capsys, *argv)
        assert code == 2 and err.count("\n") == 1, (argv, err)
    assert sorted(os.listdir(in_tmp)) == ["r"]
