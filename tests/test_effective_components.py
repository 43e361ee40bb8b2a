"""Every report shows the values that were played (issue 11, item 1): a run folder keeps the
effective component file (the `--set` overrides written in, comments kept) with its SHA-256,
and every report and sub-run report reads it. Before, the copy was the user's file without the
overrides and `tune`'s "after" report printed Sketchbook at 4 points when the run used 7."""
from __future__ import annotations

import json
import os

import pytest

from reports.build import write_report
from scripts.cli import main
from sim import designer
from sim.game_api import ToolkitError
from sim.games.sunset.components import components_from_text, default_components_text
from sim.run_folder import open_run, sha256_file

SKETCHBOOK = 25   # commissions[25] "Sketchbook", 4 points in the shipped file


def call(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def _card_row(markdown: str, name: str) -> list:
    """The cells of the card table row of `name` in a report's Markdown."""
    for line in markdown.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells and cells[0] == name:
            return cells
    raise AssertionError(f"no table row for {name}")


def test_the_effective_file_loaded_alone_gives_the_data_the_overrides_gave():
    from sim.component_file import effective_text
    text = default_components_text()
    sets = [f"commissions[{SKETCHBOOK}].points=7", "rules.wake_tie=seat"]
    effective = effective_text(text, sets, "mine.toml")
    assert components_from_text(effective).data == components_from_text(text, "mine.toml",
                                                                           tuple(sets)).data
    assert "# rulebook" in effective            # the designer's comments are kept
    assert effective.startswith("# balance: the component file as played: mine.toml with "
                                f"--set commissions[{SKETCHBOOK}].points=7; --set rules.wake_tie=seat")
    assert effective_text(text, [], "mine.toml") == text


def test_a_run_folder_keeps_the_values_played_and_its_report_shows_them(tmp_path, capsys):
    out = tmp_path / "run"
    call(capsys, "run", "sunset", "--players", "2", "--games", "60", "--workers", "1",
         "--no-progress", "--set", f"commissions[{SKETCHBOOK}].points=7", "--out", out)
    copy = out / "components.toml"
    played = components_from_text(copy.read_text(encoding="utf-8"))
    assert int(played.tables[0].commission_points[SKETCHBOOK]) == 7
    comp = json.loads((out / "manifest.json").read_text())["components"]
    assert comp["copy_sha256"] == sha256_file(str(copy))     # the hash of the effective file
    assert comp["overrides"] == [f"commissions[{SKETCHBOOK}].points=7"]
    folder = open_run(str(out))
    assert int(folder.components.tables[0].commission_points[SKETCHBOOK]) == 7
    rep = write_report(str(out), str(tmp_path / "report"), formats=("md",))
    row = _card_row(open(rep.markdown, encoding="utf-8").read(), "Sketchbook")
    assert row[1] == "7"

    # the integrity check still holds on the effective copy: an edit is refused, naming it
    copy.write_text(copy.read_text(encoding="utf-8").replace("points = 7 }", "points = 4 }"),
                    encoding="utf-8")
    with pytest.raises(ToolkitError, match="components.toml was changed after the run wrote it"):
        open_run(str(out))


def test_tune_before_and_after_reports_show_the_value_each_played(tmp_path, capsys):
    # the file (after --set) says 20, far over the card's worth, so tune finds and checks a
    # better value (takers-parity); the "after" report must show the value it played, not the 20
    # of the file the command started from, and the "before" report the 20
    call(capsys, "tune", "sunset", "--players", "4", "--strategies", "greedy",
         "--set", f"commissions[{SKETCHBOOK}].points=20",
         "--vary", f"commissions[{SKETCHBOOK}].points=2,5", "--objective", "takers-parity",
         "-n", "500", "--workers", "1", "--no-progress", "--out", tmp_path / "t")
    plan = json.loads((tmp_path / "t" / "designer.json").read_text())
    assert plan["result"]["suggested"], plan["result"]   # the planted card is a clear flaw
    best = int(plan["result"]["best"].split("=")[1])
    assert best in (2, 5)
    after = tmp_path / "t" / "after" / "report.md"
    assert _card_row(after.read_text(encoding="utf-8"), "Sketchbook")[1] == str(best)
    before = tmp_path / "t" / "before" / "report.md"
    assert _card_row(before.read_text(encoding="utf-8"), "Sketchbook")[1] == "20"
    # and each sub-run's copy is the file it played
    for i, v in enumerate((2, 5)):
        sub = designer.sub_dir(str(tmp_path / "t"), "point", i)
        played = components_from_text(open(os.path.join(sub, "components.toml"),
                                           encoding="utf-8").read())
        assert int(played.tables[0].commission_points[SKETCHBOOK]) == v
    assert os.path.isfile(tmp_path / "t" / "suggested_components.toml")
