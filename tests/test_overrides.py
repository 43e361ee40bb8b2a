"""`--set PATH=VALUE` overrides of component files (issue 5, part 1)."""
import json

import numpy as np
import pytest

from scripts.cli import main
from sim.game_api import ComponentError
from sim.games.sunset.components import load_components
from sim.overrides import parse_path, parse_value


def test_parse_path_and_value():
    assert parse_path("commissions[12].points") == ["commissions", 12, "points"]
    assert parse_path("solo.bands[1].param") == ["solo", "bands", 1, "param"]
    assert parse_value("5") == 5 and parse_value('"seat"') == "seat" and parse_value("seat") == "seat"
    assert parse_value('["N", "S"]') == ["N", "S"]
    with pytest.raises(ValueError):
        parse_path("[3].points")
    with pytest.raises(ValueError):
        parse_value("[1, ")


def test_override_changes_exactly_the_field_named():
    base = load_components()
    changed = load_components(overrides=("commissions[12].points=11",))
    for name in base.tables.dtype.names:
        a, b = np.asarray(base.tables[0][name]), np.asarray(changed.tables[0][name])
        if name == "commission_points":
            diff = np.nonzero(a != b)[0]
            assert list(diff) == [12] and b[12] == 11
        else:
            assert np.array_equal(a, b), name
    assert changed.sha256 != base.sha256 and changed.overrides == ["commissions[12].points=11"]


def test_override_of_a_rule_option():
    from sim.games.sunset import enums as E
    c = load_components(overrides=("rules.wake_tie=seat",))
    assert c.tables[0].wake_tie == E.WAKE_TIE_SEAT


@pytest.mark.parametrize("override, fragment", [
    ("commissions[12].pointz=5", "no field 'pointz' in commissions[12] (fields there: frames, name, points)"),
    ("commissions[30].points=5", "no item [30] in commissions (30 items there (0..29))"),
    ("colours.red=1", "no field 'colours' in the file"),
    ("commissions[12].points=-4", 'points must be >= 0, got -4'),
    ("rules.wake_tie=coin", "rules.wake_tie must be one of 'random', 'seat', got 'coin'"),
    ("commissions[12].points", "expected PATH=VALUE"),
])
def test_bad_override_is_one_clear_line(override, fragment):
    with pytest.raises(ComponentError) as exc:
        load_components(overrides=(override,))
    assert len(exc.value.lines) == 1 and fragment in exc.value.lines[0], exc.value.lines


def test_override_recorded_in_manifest_and_replayed(tmp_path, capsys):
    out = tmp_path / "run"
    code = main(["run", "sunset", "--players", "2", "--games", "30", "--workers", "1", "--no-progress",
                 "--out", str(out), "--set", "commissions[0].points=9", "--set", "rules.wake_tie=seat"])
    assert code == 0, capsys.readouterr().err
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["components"]["overrides"] == ["commissions[0].points=9", "rules.wake_tie=seat"]
    assert main(["replay", str(out), "--game", "3"]) == 0
    assert "game over" in capsys.readouterr().out


def test_bad_override_on_the_command_line_writes_nothing(tmp_path, capsys):
    out = tmp_path / "run"
    code = main(["run", "sunset", "--games", "10", "--no-progress", "--out", str(out),
                 "--set", "commissions[12].pointz=5"])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("balance: error: ") and "pointz" in err
    assert not out.exists()


def test_report_describes_cards_with_the_runs_overrides(tmp_path, capsys):
    from reports.build import analyse_run
    out = tmp_path / "run"
    code = main(["run", "sunset", "--players", "2", "--games", "40", "--workers", "1", "--no-progress",
                 "--out", str(out), "--set", "commissions[12].points=17"])
    assert code == 0, capsys.readouterr().err
    a = analyse_run(str(out))
    card = next(c for c in a.meta["cards"] if c["type"] == "commission")
    assert card["values"][12] == 17
