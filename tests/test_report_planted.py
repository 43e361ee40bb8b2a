"""A deliberately overpowered card planted in a modified Sunset component file is singled out
by the report's card statistics (real engine, real command line: `balance run ... --report`).
"""
from __future__ import annotations

import io
import os
import re
from contextlib import redirect_stdout

import pytest

from reports.build import analyse_run
from scripts.cli import main as cli_main
from reports.findings import verdict_lines

PLANTED = "Forest Study"   # a one-frame commission worth 2 in the shipped file


@pytest.fixture(scope="module")
def planted_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("planted")
    buf = io.StringIO()
    with redirect_stdout(buf):
        assert cli_main(["components", "sunset"]) == 0
    text = buf.getvalue()
    line = re.search(r'^\s*\{ name = "' + PLANTED + r'".*points = (\d+) \},$', text, re.M)
    assert line, "the shipped component file changed: pick another commission to plant"
    planted = line.group(0).replace(f"points = {line.group(1)} }}", "points = 20 }")
    comp = tmp / "planted.toml"
    comp.write_text(text.replace(line.group(0), planted))
    run_dir = tmp / "run"
    buf = io.StringIO()
    with redirect_stdout(buf):
        rc = cli_main(["run", "sunset", "--players", "4", "--games", "3000", "--strategies",
                       "greedy", "--seed", "11", "--components", str(comp), "--out", str(run_dir),
                       "--no-progress", "--report"])
    assert rc == 0, buf.getvalue()
    return run_dir, buf.getvalue()


def test_planted_commission_is_singled_out(planted_run):
    run_dir, out = planted_run
    a = analyse_run(str(run_dir))
    sec = next(s for s in a.cards if s.type == "commission")
    t = sec.table.set_index("name")
    card = t.loc[PLANTED]
    assert card.value == 20                         # values come from the run's own file
    assert card.flag == "over-performs"
    others = t.drop(index=PLANTED)
    others = others[others.taken > 0]
    # its interval excludes every other commission's
    assert card.win_taken_low > others.win_taken_high.max()
    assert card.vs_peers_low > 0
    # and it is the strongest effect of its type, with the most points per game
    assert card.vs_peers == t.vs_peers.max()
    assert card.points_per_game == t.points_per_game.max()
    flag = next(f for f in a.flags if f.subject == f"{PLANTED} (commission)")
    assert flag.effect_low > 0 and flag.games_to_halve == 9000
    # first verdict about commissions names it
    first = next(v for v in verdict_lines(a) if "(commission" in v)
    assert first.startswith(f"{PLANTED} (commission, 20 points) over-performs")
    # `run --report` wrote the report and printed where
    assert os.path.isfile(run_dir / "report" / "report.html")
    assert os.path.isfile(run_dir / "report" / "report.md")
    assert "report: " in out and "balance report of 3,000 games" in out
    md = (run_dir / "report" / "report.md").read_text()
    assert f"{PLANTED} (commission, 20 points) over-performs" in md
