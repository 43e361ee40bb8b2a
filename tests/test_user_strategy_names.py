"""User strategies built on a built-in, with short display names (issue 11, item 5)."""
import json
import os
import re
import textwrap

import numpy as np
import pytest

from scripts.cli import main
from sim.game_api import ToolkitError
from sim.registry import get_game, list_games
from sim.runner import read_logs
from strategies.registry import EXAMPLES_DIR, builtin, resolve_strategies
from tests.toygame import SPEC as TOY

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BOT = textwrap.dedent("""
    def bot(sid, params, tables, s, seat, decision, options, n_options, ctx, keep):
        return 0

    def greedy(sid, params, tables, s, seat, decision, options, n_options, ctx, keep):
        return 0
    """)


@pytest.mark.parametrize("game", [g.name for g in list_games()])
def test_builtin_gives_the_row_a_seat_playing_that_builtin_gets(game):
    catalog = get_game(game).strategy_catalog()
    for entry in (e for e in catalog if not e.get("search")):
        sid, row = builtin(catalog, entry["name"])
        ids, params, _, _ = resolve_strategies(catalog, [entry["name"]], 1)
        assert sid == ids[0] and row.dtype == np.float64 and row.tolist() == params[0].tolist()
    with pytest.raises(ToolkitError, match="no built-in strategy 'greddy'"):
        builtin(catalog, "greddy")
    # a search player is dispatched by the harness, not by choose_builtin_nb: refused by name
    with pytest.raises(ToolkitError, match="'mcts' is a search player, which a strategy cannot call"):
        builtin(catalog, "mcts")


def test_a_user_strategy_delegating_to_greedy_plays_like_greedy_from_any_folder(
        tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)  # not the toolkit's folder: `@examples/` must still be found
    common = ["--players", "2", "--games", "60", "--seed", "11", "--workers", "1", "--no-progress"]
    assert main(["run", "sunset", *common, "--strategies", "greedy,random", "--out", "a"]) == 0
    assert main(["run", "sunset", *common, "--out", "b", "--strategies",
                 "@examples/builds_on_greedy.py:like_greedy,random"]) == 0, capsys.readouterr().err
    a, b = read_logs("a"), read_logs("b")
    assert list(b["strategy"].astype(str).unique()) == ["like_greedy", "random"]
    cols = [c for c in a.columns if c not in ("run_id", "strategy")]
    assert a[cols].equals(b[cols])  # the same game, decision for decision, on shared seeds
    m = json.loads((tmp_path / "b" / "manifest.json").read_text())
    assert m["strategy_names"] == ["like_greedy", "random"]
    assert m["user_strategies"][0]["path"] == os.path.join(EXAMPLES_DIR, "builds_on_greedy.py")


def test_a_user_strategy_is_shown_by_its_function_name_or_the_name_given(tmp_path):
    f = tmp_path / "long_folder_name" / "my_bots.py"
    f.parent.mkdir()
    f.write_text(BOT)
    _, _, info, users = resolve_strategies(TOY.strategy_catalog(),
                                           [f"{f}:bot", f"mine={f}:bot", "greedy"], 3)
    assert [i["name"] for i in info] == ["bot", "mine", "greedy"]
    assert info[0]["source"] == info[1]["source"] == f"user:{f}"  # the full path stays
    assert users == [(str(f), "bot")]


def test_two_strategies_shown_under_one_name_are_refused(tmp_path):
    (tmp_path / "a.py").write_text(BOT)
    (tmp_path / "b.py").write_text(BOT)
    for names, fragment in [
            ([f"{tmp_path}/a.py:bot", f"{tmp_path}/b.py:bot"], "two strategies would be shown as 'bot'"),
            ([f"{tmp_path}/a.py:greedy", "random"], "shown as 'greedy'"),
            ([f"random={tmp_path}/a.py:bot", "greedy"], "shown as 'random'")]:
        with pytest.raises(ToolkitError) as exc:
            resolve_strategies(TOY.strategy_catalog(), names, 2)
        assert len(exc.value.lines) == 1 and fragment in exc.value.lines[0], exc.value.lines
    # distinct names make them usable together
    _, _, info, _ = resolve_strategies(TOY.strategy_catalog(),
                                       [f"a={tmp_path}/a.py:bot", f"b={tmp_path}/b.py:bot"], 2)
    assert [i["name"] for i in info] == ["a", "b"]


def test_the_readme_user_strategy_command_resolves_from_any_folder(tmp_path, monkeypatch):
    readme = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    m = re.search(r"balance run sunset .*?\\\n\s+--strategies (\S+)", readme.split("### Your own player")[1])
    assert m, "the README's user-strategy command"
    spec = m.group(1).strip("'\"")
    assert "@examples/" in spec
    monkeypatch.chdir(tmp_path)
    _, _, info, users = resolve_strategies(get_game("sunset").strategy_catalog(), spec, 4)
    assert users and all(os.path.isfile(p) for p, _ in users)
    assert all(":" not in i["name"] for i in info)  # short names in every table


ZERO_GREEDY = textwrap.dedent("""
    from numba import njit
    from strategies.sunset import GREEDY, choose_builtin_nb

    @njit
    def greedy_own_params(sid, params, tables, s, seat, decision, options, n_options, ctx, keep):
        # the mistake of the report: the user's own (all-zero) row handed to greedy
        return choose_builtin_nb(GREEDY, params, tables, s, seat, decision, options,
                                 n_options, ctx, keep)
    """)


def test_a_user_strategy_that_never_wins_despite_many_choices_is_flagged(tmp_path, capsys):
    bot = tmp_path / "zero.py"
    bot.write_text(ZERO_GREEDY)
    out = tmp_path / "run"
    code = main(["run", "sunset", "--players", "4", "--games", "120", "--seed", "5",
                 "--workers", "1", "--no-progress", "--out", str(out), "--strategies",
                 f"{bot}:greedy_own_params,@examples/builds_on_greedy.py:like_greedy,greedy,greedy"])
    text, err = capsys.readouterr()
    assert code == 0, err
    logs = read_logs(out)
    per = logs.groupby(logs["strategy"].astype(str))
    assert per["win"].sum()["greedy_own_params"] == 0 and per["win"].sum()["like_greedy"] > 0
    assert (per["choices"].mean() >= 5).all()  # every seat chose among several options often
    warn = [ln for ln in text.splitlines() if ln.startswith("warning: user strategy")]
    assert len(warn) == 1 and "greedy_own_params won none of its 120 seat-games" in warn[0]
    assert "check its parameters" in warn[0]
    assert main(["summary", str(out)]) == 0  # and again when the summary is read back
    assert "greedy_own_params won none" in capsys.readouterr().out


def test_no_warning_without_real_choices_or_enough_games():
    import pandas as pd
    from analysis.summary import Summary
    from reports.terminal import never_winning_user_strategies
    t = pd.DataFrame({"rows": [200, 200], "wins": [0.0, 100.0]}, index=["bot", "greedy"])
    m = {"strategies": [{"name": "bot", "source": "user:/x/bot.py"},
                        {"name": "greedy", "source": "builtin"}]}

    def warns(rows=200, choices=12.0, solo=False, source="user:/x/bot.py"):
        tt = t.assign(rows=[rows, rows])
        mm = {"strategies": [dict(m["strategies"][0], source=source), m["strategies"][1]]}
        s = Summary(n_games=rows, n_players=1 if solo else 2, solo=solo, confidence=0.95,
                    seats=tt, strategies=tt, extra={"choices": {"bot": choices, "greedy": 12.0}})
        return never_winning_user_strategies(s, mm)

    assert len(warns()) == 1
    assert warns(choices=1.0) == []      # a game that left it (almost) nothing to choose
    assert warns(rows=40) == []          # too few games for a zero to mean anything
    assert warns(solo=True) == []        # a solo target may be out of reach
    assert warns(source="builtin") == []  # built-ins are the toolkit's own


def test_compare_reads_a_user_strategy_by_its_display_name(tmp_path, capsys):
    code = main(["compare", "sunset", "--players", "2", "--strategies",
                 "twin=@examples/builds_on_greedy.py:like_greedy,greedy", "-n", "200",
                 "--workers", "1", "--no-progress", "--out", str(tmp_path / "c")])
    out, err = capsys.readouterr()
    assert code == 0, err
    plan = json.loads((tmp_path / "c" / "designer.json").read_text())
    # greedy against itself under another name: never told apart
    assert plan["result"]["status"] == {"twin": "not separated", "greedy": "not separated"}
