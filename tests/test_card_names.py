"""Cards addressed by name in `--set` / `--vary` (issue 11, item 6): `goals["Gallery Day"]`
is `goals[5]`, an unknown name says which names are near, and the manifest keeps both."""
import json

import numpy as np
import pytest

from scripts.cli import main
from sim.designer import parse_vary
from sim.game_api import ComponentError
from sim.overrides import Name, parse_path, resolve_override
from sim.registry import get_game


def _same_tables(a, b) -> bool:
    return all(np.array_equal(np.asarray(getattr(a.tables, f)), np.asarray(getattr(b.tables, f)))
               for f in a.tables._fields) if hasattr(a.tables, "_fields") else \
        a.tables.tobytes() == b.tables.tobytes()


@pytest.mark.parametrize("game, by_name, by_index", [
    ("sunset", 'goals["Gallery Day"].points=1', "goals[5].points=1"),
    ("sunset", "goals[Gallery Day].points=1", "goals[5].points=1"),
    ("sunset", "solo.bands[Early Morning].to=\"7:30\"", "solo.bands[0].to=\"7:30\""),
    ("sagrada", "public[Row Color Variety].points=9", "public[0].points=9"),
    ("surfers", "finish[Grand].score=9", "finish[0].score=9"),
])
def test_a_card_named_is_the_card_at_its_index(game, by_name, by_index):
    spec = get_game(game)
    named = spec.load_components(None, (by_name,))
    indexed = spec.load_components(None, (by_index,))
    base = spec.load_components(None, ())
    assert named.data == indexed.data and named.data != base.data
    assert _same_tables(named, indexed)
    # the same game was played: the same component hash, whichever way it was asked
    assert named.sha256 == indexed.sha256
    assert named.overrides == [by_name] and named.overrides_resolved == [by_index]


def test_a_name_holding_brackets_dots_or_equals_can_be_quoted():
    data = {"goals": [{"name": "a.b"}, {"name": 'x=y "z"'}]}
    assert parse_path('goals["a.b"].points') == ["goals", Name("a.b"), "points"]
    assert resolve_override(data, 'goals["x=y \\"z\\""].points=3') == "goals[1].points=3"
    assert resolve_override(data, "goals[a.b].points=3") == "goals[0].points=3"


def test_an_unknown_name_lists_the_near_matches():
    with pytest.raises(ComponentError) as exc:
        get_game("sunset").load_components(None, ("goals[Galery Day].points=1",))
    assert len(exc.value.lines) == 1
    line = exc.value.lines[0]
    assert "no item named 'Galery Day' in goals" in line and "'Gallery Day' ([5])" in line


def test_a_name_several_items_carry_is_refused_with_their_indices():
    data = {"tools": [{"name": "Twin"}, {"name": "Other"}, {"name": "Twin"}]}
    with pytest.raises(ValueError, match=r"2 items are named 'Twin' in tools \(\[0\], \[2\]\)"):
        resolve_override(data, "tools[Twin].colour=1")


def test_a_name_on_a_table_that_is_not_a_list_of_cards_is_refused():
    with pytest.raises(ComponentError, match="rules is not a list of named items"):
        get_game("sunset").load_components(None, ("rules[wake_tie]=seat",))


def test_unknown_name_on_the_command_line_is_one_error_line_and_writes_nothing(tmp_path, capsys):
    out = tmp_path / "run"
    code = main(["run", "sunset", "--games", "10", "--no-progress", "--out", str(out),
                 "--set", "goals[Galery Day].points=1"])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("balance: error: ") and err.count("\n") == 1
    assert "Gallery Day" in err
    assert not out.exists()


def test_the_manifest_records_what_was_asked_and_what_it_resolved_to(tmp_path, capsys):
    out = tmp_path / "run"
    code = main(["run", "sunset", "--players", "2", "--games", "20", "--workers", "1",
                 "--no-progress", "--out", str(out), "--set", 'goals["Gallery Day"].points=1',
                 "--set", "rules.wake_tie=seat"])
    assert code == 0, capsys.readouterr().err
    comp = json.loads((out / "manifest.json").read_text())["components"]
    assert comp["overrides"] == ['goals["Gallery Day"].points=1', "rules.wake_tie=seat"]
    assert comp["overrides_resolved"] == ["goals[5].points=1", "rules.wake_tie=seat"]
    assert main(["summary", str(out)]) == 0  # the folder reads back (manifest validation)


def test_vary_accepts_a_card_name_and_sweeps_that_card(tmp_path, capsys):
    assert parse_vary('goals["Gallery Day"].points=0..2') == ('goals["Gallery Day"].points', [0, 1, 2])
    out = tmp_path / "s"
    code = main(["sweep", "sunset", "--players", "2", "--strategies", "greedy",
                 "--vary", "goals[Gallery Day].points=0,3", "-n", "20", "--workers", "1",
                 "--no-progress", "--out", str(out)])
    text, err = capsys.readouterr()
    assert code == 0, err
    resolved = [json.loads((out / f"point-{i:02d}" / "manifest.json").read_text())
                ["components"]["overrides_resolved"] for i in range(2)]
    assert resolved == [["goals[5].points=0"], ["goals[5].points=3"]]
    plan = json.loads((out / "designer.json").read_text())
    assert plan["vary"] == ["goals[Gallery Day].points=0,3"]  # what was asked
    assert "Gallery Day" in text  # the sweep knows which card it varied


def test_vary_with_an_unknown_name_is_one_line_with_the_near_matches(tmp_path, capsys):
    code = main(["sweep", "sunset", "--players", "2", "--strategies", "greedy",
                 "--vary", "goals[Galery Day].points=0,3", "-n", "20", "--workers", "1",
                 "--no-progress", "--out", str(tmp_path / "s")])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "'Gallery Day' ([5])" in err, err
    assert not (tmp_path / "s").exists()
