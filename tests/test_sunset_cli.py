"""The `balance` command on the real Sunset Over Water engine: malformed component files and
bad arguments each give a clear one-line error per problem, exit code 2 and no output."""
import os

import pytest

from scripts.cli import main
from sim.games.sunset.components import default_components_text


def call(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def mutate(old, new):
    text = default_components_text()
    assert text.count(old) >= 1, old
    return text.replace(old, new, 1)


# (name, component text) -> a fragment the error must contain
BAD_FILES = {
    "missing_field": (lambda: mutate("frames = [\"mountain\"], points = 2", "frames = [\"mountain\"], pointz = 2"), "missing field 'points'"),
    "unknown_feature": (lambda: mutate('"mountain"]', '"mountian"]'), "unknown feature 'mountian'"),
    "wrong_count": (lambda: mutate("landscapes = 60 ", "landscapes = 61 "), "expected 61 cards, found 60"),
    "negative_points": (lambda: mutate("frames = [\"mountain\"], points = 2", "frames = [\"mountain\"], points = -2"), "points must be >= 0"),
    "bad_syntax": (lambda: mutate("landscapes = [", "landscapes = [[["), "line "),
}


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_malformed_component_file_exit_2_one_line_each_no_output(tmp_path, capsys, case):
    make_text, fragment = BAD_FILES[case]
    bad = tmp_path / "bad.toml"
    bad.write_text(make_text())
    out_dir = tmp_path / "out"
    code, out, err = call(capsys, "run", "sunset", "--players", "4", "--games", "10",
                          "--components", str(bad), "--out", str(out_dir), "--no-progress")
    assert code == 2
    lines = err.splitlines()
    assert lines and all(l.startswith("balance: error: ") for l in lines), err
    assert all(str(bad) in l for l in lines), err       # each line names the file
    assert any(fragment in l for l in lines), err
    assert not out_dir.exists()
    assert sorted(os.listdir(tmp_path)) == ["bad.toml"]


BAD_ARGS = [
    (["--players", "5"], "players"),
    (["--players", "0"], "players"),
    (["--strategies", "greedy,random"], "strateg"),
    (["--strategies", "greedy,random,planner,telepath"], "telepath"),
    (["--strategies", "nowhere.py:bot"], "nowhere.py"),
    (["--games", "-3"], "games"),
    (["--seed", "-1"], "seed"),
]


@pytest.mark.parametrize("extra, fragment", BAD_ARGS, ids=[" ".join(a) for a, _ in BAD_ARGS])
def test_bad_run_arguments_exit_2_no_output(tmp_path, capsys, extra, fragment):
    out_dir = tmp_path / "out"
    argv = ["run", "sunset", "--games", "10", "--out", str(out_dir), "--no-progress"] + extra
    code, out, err = call(capsys, *argv)
    assert code == 2
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("balance: error: "), err
    assert fragment in lines[0]
    assert not out_dir.exists()


def test_replay_of_game_outside_the_run(tmp_path, capsys):
    out_dir = tmp_path / "run"
    code, _, err = call(capsys, "run", "sunset", "--players", "2", "--games", "20", "--workers", "1",
                        "--out", str(out_dir), "--no-progress")
    assert code == 0, err
    code, out, err = call(capsys, "replay", str(out_dir), "--game", "20")
    assert code == 2 and err.startswith("balance: error: ") and len(err.splitlines()) == 1
    code, out, err = call(capsys, "replay", str(out_dir), "--game", "19")
    assert code == 0 and "game over" in out


def test_components_command_prints_the_default(capsys):
    code, out, _ = call(capsys, "components", "sunset")
    assert code == 0 and out == default_components_text()
    assert "RECONSTRUCTION" in out.upper()
