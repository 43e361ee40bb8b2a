import json
import os

import pytest

from scripts.cli import main


def call(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def listing(path):
    return sorted(os.listdir(path))


def test_games_strategies_components(toy_registry, capsys):
    code, out, err = call(capsys, "games")
    assert code == 0 and "toy" in out and "Toy Dice" in out and "1-4" in out
    code, out, _ = call(capsys, "strategies", "dice")
    assert code == 0 and "planner" in out and "threshold = 3.5" in out and "risk" in out
    code, out, _ = call(capsys, "components", "toy")
    assert code == 0 and out == toy_registry.default_components_text()


def test_run_summary_replay(toy_registry, in_tmp, capsys):
    code, out, err = call(capsys, "run", "toy", "--players", "3", "--games", "60",
                          "--strategies", "planner,greedy,random", "--workers", "1",
                          "--out", "r1", "--no-progress", "--chunk-size", "25")
    assert code == 0, err
    assert "By seat" in out and "By strategy" in out and "95% Wilson" in out
    m = json.load(open(in_tmp / "r1" / "manifest.json"))
    assert m["status"] == "complete" and m["players"] == 3 and m["games"] == 60
    assert m["command_line"][:3] == ["balance", "run", "toy"]
    code, out2, _ = call(capsys, "summary", "r1")
    assert code == 0 and "By seat" in out2
    code, out, err = call(capsys, "replay", "r1", "--game", "59")
    assert code == 0 and out.startswith("game 59") and "seat 2 (random)" in out
    code, out, err = call(capsys, "replay", "r1", "--game", "60")
    assert code == 2 and err.count("\n") == 1 and "out of range" in err


def test_run_solo_and_defaults(toy_registry, in_tmp, capsys):
    code, out, err = call(capsys, "run", "toy", "--players", "1", "--games", "20",
                          "--workers", "1", "--no-progress")
    assert code == 0, err
    assert "Solo run" in out and "Wilson" not in out
    runs = listing(in_tmp / "runs")
    assert len(runs) == 1 and runs[0].startswith("toy-")


def test_replay_survives_moved_component_and_variant_files(toy_registry, in_tmp, capsys):
    (in_tmp / "c.toml").write_text("[dice]\nsides = 8\nn_dice = 2\n")
    (in_tmp / "v.toml").write_text('[variants.bold]\nbase = "greedy"\nparams = { threshold = 7 }\n')
    code, _, err = call(capsys, "run", "toy", "--players", "2", "--games", "10", "--workers", "1",
                        "--components", "c.toml", "--variants", "v.toml",
                        "--strategies", "bold,random", "--out", "r", "--no-progress")
    assert code == 0, err
    code, before, _ = call(capsys, "replay", "r", "--game", "3")
    os.remove(in_tmp / "c.toml")
    os.remove(in_tmp / "v.toml")
    code, after, err = call(capsys, "replay", "r", "--game", "3")
    assert code == 0, err
    assert after == before and "(bold)" in after


BAD = [
    (["run", "nogame"], "unknown game 'nogame'"),
    (["run", "toy", "--players", "9"], "1 to 4 players"),
    (["run", "toy", "--players", "0"], "1 to 4 players"),
    (["run", "toy", "--players", "3", "--strategies", "greedy,random"], "2 strategies given for 3 players"),
    (["run", "toy", "--strategies", "greedy,bogus,greedy,greedy"], "unknown strategy 'bogus'"),
    (["run", "toy", "--games", "-5"], "--games must be at least 1"),
    (["run", "toy", "--games", "0"], "--games must be at least 1"),
    (["run", "toy", "--games", "many"], "games must be an integer"),
    (["run", "toy", "--workers", "0"], "--workers must be at least 1"),
    (["run", "toy", "--seed", "-1"], "--seed must be between 0 and"),
    (["run", "toy", "--components", "missing.toml"], "missing.toml: not found"),
    (["run", "toy", "--components", "bad.toml"], "[dice] sides: must be an integer"),
    (["run", "toy", "--variants", "nov.toml", "--strategies", "x"], "nov.toml: not found"),
    (["run", "toy", "--strategies", "nofile.py:bot"], "not found"),
    (["run", "toy", "--bogus-flag"], "unrecognized arguments"),
    (["replay", "nowhere", "--game", "1"], "no such run folder"),
    (["summary", "nowhere"], "no run found"),
    (["strategies", "nogame"], "unknown game"),
    ([], "required"),
]


@pytest.mark.parametrize("argv, expect", BAD, ids=[" ".join(a) or "empty" for a, _ in BAD])
def test_bad_arguments_exit_2_one_line_no_output(toy_registry, in_tmp, capsys, argv, expect):
    (in_tmp / "bad.toml").write_text("[dice]\nsides = 'six'\nn_dice = 3\n")
    before = listing(in_tmp)
    argv = list(argv)
    if argv and argv[0] == "run":
        argv += ["--out", "out", "--workers", "1", "--no-progress"] if "--workers" not in argv \
            else ["--out", "out", "--no-progress"]
    code, out, err = call(capsys, *argv)
    assert code == 2
    lines = err.splitlines()
    assert len(lines) >= 1 and all(l.startswith("balance: error: ") for l in lines), err
    if "--players" in argv and "9" in argv or "bogus" in " ".join(argv):
        assert len(lines) == 1, err
    assert expect in err
    assert listing(in_tmp) == before  # nothing created: no out/, no runs/


def test_several_problems_one_line_each(toy_registry, in_tmp, capsys):
    code, out, err = call(capsys, "run", "toy", "--players", "7", "--games", "0",
                          "--components", "nope.toml", "--out", "o")
    assert code == 2
    assert len(err.splitlines()) == 3
    assert not (in_tmp / "o").exists()


def test_existing_different_run_refused(toy_registry, in_tmp, capsys):
    args = ["run", "toy", "--games", "12", "--workers", "1", "--out", "o", "--no-progress"]
    assert call(capsys, *args)[0] == 0
    snapshot = {p: os.path.getmtime(os.path.join(in_tmp, "o", p)) for p in listing(in_tmp / "o")}
    code, out, err = call(capsys, *args[:-1], "--seed", "5", "--no-progress")
    assert code == 2 and len(err.splitlines()) == 1 and "--overwrite" in err
    assert {p: os.path.getmtime(os.path.join(in_tmp, "o", p)) for p in listing(in_tmp / "o")} == snapshot
    code, out, err = call(capsys, *args, "--seed", "5", "--overwrite")
    assert code == 0, err
    # the same command again resumes a complete run: nothing to play, same answer
    code, out, err = call(capsys, *args, "--seed", "5")
    assert code == 0, err


def test_scheduler_without_dask(toy_registry, in_tmp, capsys, monkeypatch):
    import sim.runner as r

    def no_dask():
        from sim.game_api import ToolkitError
        raise ToolkitError("the dask backend needs dask.distributed, which is not installed: "
                           "pip install .[cluster]")
    try:
        import dask.distributed  # noqa: F401
        monkeypatch.setattr(r, "_check_dask", no_dask)
    except ImportError:
        pass
    code, out, err = call(capsys, "run", "toy", "--games", "5", "--scheduler", "tcp://127.0.0.1:1",
                          "--out", "o")
    assert code == 2 and "pip install .[cluster]" in err and len(err.splitlines()) == 1
    assert not (in_tmp / "o").exists()
