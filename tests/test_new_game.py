"""`balance new-game`: the scaffold is a working game. Written into a temporary folder, it
passes the rule tests it ships, the conformance test of every game (tests/test_every_game.py)
and plays a `balance run`, found through the game path alone.

The toolkit ships that scaffold's output as its test game (tests/data/games/dice/, written by
`balance new-game dice --out tests/data/games` from the toolkit's folder): a test writes the
scaffold again and checks that every file is the same, so the shipped game is what a newcomer
gets, and `compare`, `ladder`, `cards` and `report` are tried on it unchanged.

The first run compiles the scaffold's kernels, so this file costs about a minute on a loaded
machine the first time; the tests' own checks take seconds."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from scripts.cli import main
from sim import registry

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHIPPED = os.path.join(ROOT, "tests", "data", "games")      # the shipped test game's game path
FILES = ["__init__.py", "catalog.py", "components.py", "default_components.toml", "docs.md",
         "model.py", "players.py", "test_rules.py", "trace.py"]


@pytest.fixture(scope="module")
def scaffold(tmp_path_factory):
    folder = tmp_path_factory.mktemp("games")
    old = os.getcwd()
    os.chdir(folder)
    try:
        assert main(["new-game", "dice"]) == 0
    finally:
        os.chdir(old)
    return folder


def env_with(folder) -> dict:
    env = dict(os.environ)
    env["BALANCE_GAME_PATH"] = str(folder)
    env["PYTHONPATH"] = os.pathsep.join([ROOT, env.get("PYTHONPATH", "")])
    return env


def test_new_game_writes_the_package(scaffold):
    assert sorted(os.listdir(scaffold / "dice")) == FILES


def test_new_game_never_overwrites(scaffold, capsys):
    before = (scaffold / "dice" / "model.py").read_text()
    assert main(["new-game", "dice", "--out", str(scaffold)]) == 2
    assert "already exists" in capsys.readouterr().err
    assert (scaffold / "dice" / "model.py").read_text() == before


@pytest.mark.parametrize("name, why", [("Dice", "not a usable name"),
                                       ("sunset", "already known"),
                                       ("json", "importable Python module")])
def test_new_game_refuses_a_name_that_cannot_work(name, why, tmp_path, capsys):
    assert main(["new-game", name, "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("balance: error: new-game: ") and why in err and err.count("\n") == 1
    assert os.listdir(tmp_path) == []


def pytest_in(folder, *args) -> str:
    """The summary line of a pytest run with `folder` on the game path."""
    res = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:xdist", "-p",
                          "no:cacheprovider", *args],
                         cwd=ROOT, env=env_with(folder), capture_output=True, text=True,
                         timeout=1500)
    assert res.returncode == 0, res.stdout[-4000:] + res.stderr[-2000:]
    return res.stdout.strip().splitlines()[-1]


def test_the_scaffold_passes_its_own_rule_tests(scaffold):
    summary = pytest_in(scaffold, str(scaffold / "dice" / "test_rules.py"))
    assert summary.startswith("5 passed"), summary


def test_the_scaffold_passes_the_conformance_test(scaffold):
    """Every case of tests/test_every_game.py for the game, none skipped: 15 cases, the
    unknown-id one 3 times."""
    summary = pytest_in(scaffold, "tests/test_every_game.py", "-k", "dice")
    assert summary.startswith("17 passed"), summary


def test_the_scaffold_plays_a_run_through_the_game_path(scaffold, tmp_path):
    out = tmp_path / "r"
    res = subprocess.run(
        [sys.executable, "-m", "scripts.cli", "--game-path", str(scaffold), "run", "dice",
         "--players", "3", "--games", "60", "--workers", "1", "--no-progress",
         "--out", str(out)],
        cwd=ROOT, env={k: v for k, v in env_with(scaffold).items()
                       if k != "BALANCE_GAME_PATH"},
        capture_output=True, text=True, timeout=1500)
    assert res.returncode == 0, res.stderr[-3000:]
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["status"] == "complete" and manifest["game"] == "dice"
    assert manifest["strategy_names"] == ["greedy"] * 3


def test_a_game_path_that_is_not_a_folder_is_one_line(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(registry, "GAMES", {})
    monkeypatch.setattr(registry, "_ALIASES", {})
    monkeypatch.setattr(registry, "_loaded", False)
    monkeypatch.setenv("BALANCE_GAME_PATH", str(tmp_path / "nowhere"))
    assert main(["games"]) == 2
    err = capsys.readouterr().err
    assert err == f"balance: error: BALANCE_GAME_PATH: '{tmp_path / 'nowhere'}' is not a folder\n"


def test_the_shipped_test_game_is_the_scaffolds_output(tmp_path, monkeypatch):
    """Written again from the templates, as `balance new-game dice --out tests/data/games` in
    the toolkit's folder writes it, every file equals the shipped one: a change of a template
    that is not carried to the shipped game (or the other way round) fails here."""
    monkeypatch.chdir(tmp_path)
    assert main(["new-game", "dice", "--out", "tests/data/games"]) == 0
    fresh = tmp_path / "tests" / "data" / "games" / "dice"
    shipped = os.path.join(SHIPPED, "dice")
    assert sorted(os.listdir(fresh)) == sorted(f for f in os.listdir(shipped)
                                               if f != "__pycache__") == FILES
    for name in FILES:
        with open(os.path.join(shipped, name), encoding="utf-8") as fh:
            assert (fresh / name).read_text(encoding="utf-8") == fh.read(), name


SHIPPED_COMMANDS = """
import sys
from scripts.cli import main
out = sys.argv[1]
steps = [
    ["run", "dice", "--players", "3", "--games", "120", "--out", out + "/run", "--workers", "1"],
    ["report", out + "/run", "--out", out + "/report", "--format", "md"],
    ["compare", "dice", "--players", "2", "--strategies", "greedy,random", "--games", "120",
     "--out", out + "/compare", "--workers", "1"],
    ["cards", "dice", "--players", "2", "--games", "120", "--states", "20",
     "--out", out + "/cards", "--workers", "1"],
    ["ladder", "dice", "--players", "2", "--games", "24", "--budgets", "4",
     "--verdict-games", "24", "--card-states", "10", "--out", out + "/ladder", "--workers", "1"],
]
for step in steps:
    code = main(["--game-path", sys.argv[2], *step, "--no-progress"])
    print("STEP", step[0], code, flush=True)
    if code:
        sys.exit(code)
"""


def test_the_shipped_game_runs_every_designer_command_unchanged(tmp_path):
    """run, report, compare, cards and ladder on the shipped scaffold game, through the game
    path, with nothing written for it: each command ends with 0 and writes its folder."""
    res = subprocess.run([sys.executable, "-c", SHIPPED_COMMANDS, str(tmp_path), SHIPPED],
                         cwd=ROOT, env={k: v for k, v in os.environ.items()
                                        if k != "BALANCE_GAME_PATH"},
                         capture_output=True, text=True, timeout=1500)
    steps = [line.split()[1:] for line in res.stdout.splitlines() if line.startswith("STEP ")]
    assert steps == [[c, "0"] for c in ("run", "report", "compare", "cards", "ladder")], \
        res.stdout[-3000:] + res.stderr[-3000:]
    for folder in ("run", "report", "compare", "cards", "ladder"):
        assert os.listdir(tmp_path / folder), folder
    assert json.loads((tmp_path / "run" / "manifest.json").read_text())["game"] == "dice"


def test_the_shipped_game_passes_its_own_rule_tests():
    summary = pytest_in(SHIPPED, os.path.join(SHIPPED, "dice", "test_rules.py"))
    assert summary.startswith("5 passed"), summary
