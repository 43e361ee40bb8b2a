"""Grand Surfers: `balance calibrate surfers`, the hit rate by spread and distance, checked
against the flick model analytically (scipy's normal, written out here), against the players'
own landing table and against the engine's draws; and the inversion a designer uses (a
measured accuracy -> the spread to set)."""
from __future__ import annotations

import re

import numpy as np
import pytest
from scipy.stats import norm

from scripts.cli import main
from sim.games.surfers import SPEC
from sim.games.surfers import enums as E
from sim.games.surfers.calibrate import (fit_spread, hit_rate, sampled_hit_rate,
                                         spread_for_rate)


@pytest.fixture(scope="module")
def comp():
    return SPEC.load_components()


def model_hit(spread, row, noise):
    """The rulebook-free flick model, from its definition: aim at the cell's centre, normal
    noise, short flicks repeated (conditioned on crossing the start line)."""
    n0, n1, n2, n3 = noise
    sdy = spread * (n0 + n1 * (row + 0.5))
    sdx = spread * (n2 + n3 * (row + 0.5))
    in_row = norm.cdf(row + 1, row + 0.5, sdy) - norm.cdf(row, row + 0.5, sdy)
    in_col = norm.cdf(1.0, 0.5, sdx) - norm.cdf(0.0, 0.5, sdx)
    return in_row * in_col / norm.sf(0.0, row + 0.5, sdy)


def test_calibration_spread_zero_hits_every_time(comp):
    assert all(hit_rate(0.0, r, comp.tables[0].noise) == 1.0 for r in range(6))


@pytest.mark.parametrize("spread", [0.1, 0.5, 1.0, 2.5])
def test_calibration_hit_rate_is_the_flick_model_in_closed_form(comp, spread):
    noise = comp.tables[0].noise
    for r in range(6):
        assert hit_rate(spread, r, noise) == pytest.approx(model_hit(spread, r, noise), abs=1e-12)


def test_calibration_agrees_with_the_players_landing_table(comp):
    T = SPEC.load_components(None, ("flick.spread=[0.3,0.9,1.7]",)).tables
    for seat, spread in enumerate((0.3, 0.9, 1.7)):
        for r in range(6):
            for col in range(5):
                aim = r * E.MAX_WAVE_COLS + col
                assert T[0].aim_prob[seat, aim, aim] == pytest.approx(
                    hit_rate(spread, r, comp.tables[0].noise), abs=1e-12)


@pytest.mark.parametrize("spread,row", [(0.5, 2), (1.0, 0), (1.5, 5)])
def test_calibration_agrees_with_the_engines_draws(comp, spread, row):
    n = 20000
    got = sampled_hit_rate(comp.tables, spread, row, n, seed=3)
    p = hit_rate(spread, row, comp.tables[0].noise)
    assert abs(got - p) < 4 * np.sqrt(p * (1 - p) / n), (got, p)


def test_calibration_measured_accuracy_gives_back_the_spread(comp):
    noise = comp.tables[0].noise
    rates = [hit_rate(s, 3, noise) for s in np.linspace(0.05, 3.0, 60)]
    assert all(a > b for a, b in zip(rates, rates[1:]))          # falls with the spread
    for spread in (0.2, 0.62, 1.4):
        assert spread_for_rate(hit_rate(spread, 3, noise), 3, noise) == pytest.approx(spread, abs=1e-6)
    assert spread_for_rate(1.0, 3, noise) == 0.0
    # counts drawn from a known spread: the maximum-likelihood fit covers it
    rng = np.random.default_rng(5)
    truth = 0.7
    measured = [(r, int(rng.binomial(400, hit_rate(truth, r, noise))), 400) for r in (1, 3, 5)]
    best, lo, hi = fit_spread(measured, noise)
    assert lo <= truth <= hi and hi - lo < 0.3 and lo < best < hi


def test_balance_calibrate_prints_the_table_and_the_spread(capsys):
    rc = main(["calibrate", "surfers", "--spreads", "0,0.5", "--measured", "3=18/40",
               "--measured", "5=0.2"])
    out = capsys.readouterr().out
    assert rc == 0
    lines = out.splitlines()
    row0 = next(ln for ln in lines if ln.split()[:1] == ["0"])
    assert row0.split()[1:] == ["100.00%"] * 6
    # the one number format of the toolkit (sim/formatting.py), intervals with "to"
    assert re.search(r"row 3: 18/40 hits = 45\.00% \(\d+\.\d\d to \d+\.\d\d\) "
                     r"-> spread 0\.62 \(\d\.\d\d to \d\.\d\d\)", out), out
    assert "row 5: 20.00% hits -> spread" in out


@pytest.mark.parametrize("argv,message", [
    (["calibrate", "sunset"], "no model of skill"),
    (["calibrate", "surfers", "--spreads", "0,x"], "--spreads must be numbers"),
    (["calibrate", "surfers", "--spreads", "11"], "between 0 and 10"),
    (["calibrate", "surfers", "--measured", "7=1/2"], "rows 1-6"),
    (["calibrate", "surfers", "--measured", "3=5/4"], "hits must be at most flicks"),
    (["calibrate", "surfers", "--measured", "3=1.5"], "at most 1"),
    (["calibrate", "surfers", "--set", "flick.noise.side=-1"], "side"),
])
def test_balance_calibrate_mistakes_are_one_error_line(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("balance: error: ") and message in err[0], err
