import os
import textwrap

import numpy as np
import pytest

from sim.game_api import ToolkitError
from strategies.registry import load_user_function, resolve_strategies
from tests import toygame

# the toy game's built-ins only: on the game template its spec's catalog also lists the
# search players (strategies/search.py), whose wider parameter rows these tests are not about
CATALOG = toygame.CATALOG


def write(path, text):
    path.write_text(textwrap.dedent(text))
    return str(path)


def one_line(exc):
    lines = exc.value.lines
    assert len(lines) == 1, lines
    assert "\n" not in lines[0]
    return lines[0]


def test_builtins_pad_parameters():
    ids, params, info, users = resolve_strategies(CATALOG, ["planner", "greedy", "random"], 3)
    assert ids.dtype == np.int64 and list(ids) == [2, 1, 0]
    assert params.dtype == np.float64 and params.shape == (3, 2)
    assert params.tolist() == [[3.5, 0.5], [4.0, 0.0], [0.0, 0.0]]
    assert info[0] == {"name": "planner", "base": "planner",
                       "params": {"threshold": 3.5, "risk": 0.5}, "source": "builtin"}
    assert users == []


def test_single_name_for_every_seat():
    ids, params, info, _ = resolve_strategies(CATALOG, ["greedy"], 4)
    assert list(ids) == [1, 1, 1, 1]
    assert [i["name"] for i in info] == ["greedy"] * 4


def test_wrong_count_and_unknown():
    with pytest.raises(ToolkitError) as exc:
        resolve_strategies(CATALOG, ["greedy", "random"], 3)
    assert "2 strategies given for 3 players" in one_line(exc)
    with pytest.raises(ToolkitError) as exc:
        resolve_strategies(CATALOG, ["greedy", "bogus", "bogus"], 3)
    line = one_line(exc)
    assert "unknown strategy 'bogus'" in line and "random, greedy, planner" in line


def test_variants_good(tmp_path):
    vf = write(tmp_path / "v.toml", """
        [variants.cautious]
        base = "planner"
        params = { risk = 0.2 }
        [variants.picky]
        base = "greedy"
        params = { threshold = 6 }
        description = "rerolls almost everything"
    """)
    ids, params, info, _ = resolve_strategies(CATALOG, ["cautious", "picky", "planner"], 3, vf)
    assert list(ids) == [2, 1, 2]
    assert params.tolist() == [[3.5, 0.2], [6.0, 0.0], [3.5, 0.5]]
    assert info[0]["source"] == f"variant:{vf}"
    assert info[0]["params"] == {"threshold": 3.5, "risk": 0.2}
    assert info[0]["base"] == "planner"


@pytest.mark.parametrize("body, expect", [
    ('[variants.bad]\nbase = "nobody"\n', "unknown base strategy 'nobody'"),
    ('[variants.bad]\nbase = "greedy"\nparams = { risk = 1 }\n', "unknown parameter 'risk'"),
    ('[variants.bad]\nbase = "greedy"\nparams = { threshold = "high" }\n', "must be a number"),
    ('[variants.bad]\nbase = "greedy"\nparams = { threshold = true }\n', "must be a number"),
    ('[variants.bad]\nparams = { threshold = 1 }\n', "missing base"),
    ('[variants.greedy]\nbase = "greedy"\n', "name of a built-in"),
])
def test_variants_bad(tmp_path, body, expect):
    vf = write(tmp_path / "v.toml", body)
    with pytest.raises(ToolkitError) as exc:
        resolve_strategies(CATALOG, ["greedy"], 2, vf)
    line = one_line(exc)
    assert expect in line
    assert vf in line
    if "greedy]" not in body:
        assert "variant 'bad'" in line


def test_variants_bad_toml_and_missing(tmp_path):
    vf = write(tmp_path / "v.toml", "[variants.x\nbase=1\n")
    with pytest.raises(ToolkitError) as exc:
        resolve_strategies(CATALOG, ["greedy"], 2, vf)
    assert "not valid TOML" in one_line(exc)
    with pytest.raises(ToolkitError) as exc:
        resolve_strategies(CATALOG, ["greedy"], 2, str(tmp_path / "none.toml"))
    assert "not found" in one_line(exc)


def test_variants_several_problems_one_line_each(tmp_path):
    vf = write(tmp_path / "v.toml", """
        [variants.a]
        base = "nobody"
        [variants.b]
        base = "greedy"
        params = { nope = 1 }
    """)
    with pytest.raises(ToolkitError) as exc:
        resolve_strategies(CATALOG, ["greedy"], 2, vf)
    assert len(exc.value.lines) == 2


USER_SRC = """
from numba import njit

@njit
def bot(x):
    return x

@njit
def other(x):
    return x + 1
"""


def test_user_strategy_ids(tmp_path):
    f = write(tmp_path / "mybot.py", USER_SRC)
    names = [f"{f}:bot", "greedy", f"{f}:other", f"{f}:bot"]
    ids, params, info, users = resolve_strategies(CATALOG, names, 4)
    assert list(ids) == [-1, 1, -2, -1]
    assert params[0].tolist() == [0.0, 0.0]
    assert users == [(os.path.abspath(f), "bot"), (os.path.abspath(f), "other")]
    assert info[0]["source"] == f"user:{os.path.abspath(f)}"
    fn = load_user_function(f, "bot")
    assert fn(3) == 3
    assert load_user_function(f, "bot") is fn


def test_user_strategy_relative_path(tmp_path, monkeypatch):
    write(tmp_path / "rel.py", USER_SRC)
    monkeypatch.chdir(tmp_path)
    ids, _, _, users = resolve_strategies(CATALOG, ["rel.py:other"], 1)
    assert list(ids) == [-1] and users[0][0] == str(tmp_path / "rel.py")


def test_user_strategy_errors(tmp_path):
    f = write(tmp_path / "mybot2.py", USER_SRC)
    broken = write(tmp_path / "broken.py", "import no_such_module_xyz\n")
    for name, expect in [(str(tmp_path / "missing.py") + ":bot", "not found"),
                         (f"{f}:nothere", "defines no 'nothere'"),
                         (f"{broken}:bot", "importing it failed: ModuleNotFoundError")]:
        with pytest.raises(ToolkitError) as exc:
            resolve_strategies(CATALOG, [name], 2)
        line = one_line(exc)
        assert expect in line, line
