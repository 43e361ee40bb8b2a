"""The report's statistics against reference implementations (statsmodels, choix; test-only)
and on synthetic data with known answers."""
from __future__ import annotations

import math
from collections import Counter

import choix
import numpy as np
import pytest
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import (confint_proportions_2indep, proportion_confint,
                                          proportions_ztest)

from analysis.ratings import expand_ties, fit_plackett_luce
from sim.stats import (games_to_halve, holm, mean_difference, newcombe_difference,
                            proportion_test, wilson_interval)

CASES = [(0, 1), (1, 1), (0, 10), (10, 10), (1, 10), (5, 10), (3, 7), (50, 100), (1, 1000),
         (999, 1000), (123, 4567), (250000, 1000000), (2790000, 10000000), (17.5, 40)]


def test_wilson_table_matches_statsmodels():
    s = np.array([c[0] for c in CASES], float)
    n = np.array([c[1] for c in CASES], float)
    lo, hi = wilson_interval(s, n)
    for i, (si, ni) in enumerate(CASES):
        ref = proportion_confint(si, ni, alpha=0.05, method="wilson")
        assert (lo[i], hi[i]) == pytest.approx(ref, abs=1e-12)


@pytest.mark.parametrize("s1,n1,s2,n2", [(56, 70, 48, 80), (9, 10, 3, 10), (5, 56, 0, 29),
                                         (0, 10, 0, 20), (10, 10, 10, 10), (2750, 10000, 2500, 10000),
                                         (1234, 4000, 30000, 90000)])
def test_newcombe_matches_statsmodels(s1, n1, s2, n2):
    d, lo, hi = newcombe_difference(s1, n1, s2, n2)
    ref = confint_proportions_2indep(s1, n1, s2, n2, method="newcomb", compare="diff")
    assert d == pytest.approx(s1 / n1 - s2 / n2)
    assert (lo, hi) == pytest.approx(ref, abs=1e-10)


def test_newcombe_zero_rows_is_nan_not_error():
    d, lo, hi = newcombe_difference(np.array([0.0, 3]), np.array([0.0, 10]), np.array([5.0, 5]),
                                    np.array([10.0, 10]))
    assert math.isnan(d[0]) and math.isnan(lo[0]) and math.isnan(hi[0])
    assert not math.isnan(lo[1])


@pytest.mark.parametrize("s,n,p0", [(279, 1000, 0.25), (2790000, 10000000, 0.25), (40, 100, 0.5),
                                    (1, 3, 1 / 3), (0, 50, 0.25)])
def test_proportion_test_matches_statsmodels_score_test(s, n, p0):
    z, p = proportion_test(s, n, p0)
    rz, rp = proportions_ztest(s, n, value=p0, prop_var=p0)
    assert float(z) == pytest.approx(rz, rel=1e-9)
    assert float(p) == pytest.approx(rp, rel=1e-6, abs=1e-300)


def test_holm_matches_statsmodels():
    rng = np.random.default_rng(3)
    for _ in range(50):
        p = rng.random(rng.integers(1, 8)) ** 3
        ref = multipletests(p, alpha=0.05, method="holm")[1]
        np.testing.assert_allclose(holm(p), ref, rtol=1e-12)
    out = holm([0.01, np.nan, 0.04])
    assert math.isnan(out[1])
    np.testing.assert_allclose(out[[0, 2]], multipletests([0.01, 0.04], method="holm")[1])


def test_mean_difference_welch():
    rng = np.random.default_rng(1)
    a, b = rng.normal(5, 2, 400), rng.normal(4, 3, 900)
    d, lo, hi = mean_difference(a.sum(), (a * a).sum(), a.size, b.sum(), (b * b).sum(), b.size)
    se = math.sqrt(a.var(ddof=1) / a.size + b.var(ddof=1) / b.size)
    assert d == pytest.approx(a.mean() - b.mean())
    assert hi - lo == pytest.approx(2 * 1.959963984540054 * se)
    d, lo, hi = mean_difference(3.0, 9.0, 1, 0.0, 0.0, 0)
    assert math.isnan(d) and math.isnan(lo)


def test_games_to_halve():
    assert games_to_halve(10000) == 30000


# --- Plackett-Luce ----------------------------------------------------------------------------
def simulate_orders(theta, tables, n_games, rng):
    """Finishing orders from a Plackett-Luce model (Gumbel trick)."""
    orders = []
    for g in range(n_games):
        items = np.asarray(tables[g % len(tables)])
        u = theta[items] + rng.gumbel(size=items.size)
        orders.append(tuple(int(x) for x in items[np.argsort(-u)]))
    return orders


def test_plackett_luce_recovers_known_strengths():
    rng = np.random.default_rng(5)
    theta = np.array([1.0, 0.3, 0.0, -0.6, -0.7])
    theta = theta - theta.mean()
    tables = [(0, 1, 2, 3), (1, 2, 3, 4), (0, 2, 4, 4), (0, 1), (3, 4, 1)]  # 2-4 seats, repeats
    orders = simulate_orders(theta, tables, 30000, rng)
    fit = fit_plackett_luce(list(Counter(orders).items()), 5, prior=0.0)
    assert fit.converged
    assert np.all(np.abs(fit.theta - theta) < 4 * fit.se)
    assert np.max(np.abs(fit.theta - theta)) < 0.05
    assert list(np.argsort(-fit.theta)) == list(np.argsort(-theta, kind="stable"))


def test_plackett_luce_matches_choix():
    """Same data, same model: our weighted MM equals choix's estimates (distinct items)."""
    rng = np.random.default_rng(8)
    theta = np.array([0.8, 0.2, -0.3, -0.7])
    orders = simulate_orders(theta, [(0, 1, 2, 3), (0, 2, 3), (1, 3)], 3000, rng)
    ours = fit_plackett_luce(list(Counter(orders).items()), 4, prior=0.0, tol=1e-12)
    ref = choix.mm_rankings(4, orders, tol=1e-12, max_iter=100000)
    ref = ref - ref.mean()
    np.testing.assert_allclose(ours.theta, ref, atol=1e-6)


def test_plackett_luce_standard_errors_match_spread():
    """The Fisher-information s.e. matches the spread of estimates over replications."""
    rng = np.random.default_rng(11)
    theta = np.array([0.5, 0.0, -0.5])
    est, ses = [], []
    for _ in range(60):
        orders = simulate_orders(theta, [(0, 1, 2), (0, 1, 1, 2)], 600, rng)
        fit = fit_plackett_luce(list(Counter(orders).items()), 3, prior=0.0)
        est.append(fit.theta)
        ses.append(fit.se)
    spread = np.std(est, axis=0, ddof=1)
    np.testing.assert_allclose(np.mean(ses, axis=0), spread, rtol=0.3)


def test_plackett_luce_two_players_is_bradley_terry():
    # BT closed form for two items: theta_0 - theta_1 = log(w0 / w1)
    fit = fit_plackett_luce([((0, 1), 700.0), ((1, 0), 300.0)], 2, prior=0.0)
    assert fit.theta[0] - fit.theta[1] == pytest.approx(math.log(700 / 300), abs=1e-8)
    assert fit.win_probability(0, 1) == pytest.approx(0.7)
    # s.e. of the difference: 1 / sqrt(n p (1-p))
    se_diff = math.sqrt(fit.cov[0, 0] + fit.cov[1, 1] - 2 * fit.cov[0, 1])
    assert se_diff == pytest.approx(1 / math.sqrt(1000 * 0.7 * 0.3), rel=1e-6)


def test_never_losing_strategy_stays_finite_with_prior():
    fit = fit_plackett_luce([((0, 1, 2), 500.0), ((0, 2, 1), 500.0)], 3)
    assert np.all(np.isfinite(fit.theta))
    assert fit.theta[0] > fit.theta[1] and fit.theta[0] > fit.theta[2]
    # issue 11 item 9: the prior alone sets these strengths, so the fit says it is not
    # estimable and gives no standard errors (before: finite, misleadingly small ones)
    assert not fit.estimable and np.all(np.isnan(fit.se))


def test_expand_ties():
    assert expand_ties([0, 1, 2], [1, 2, 3]) == [((0, 1, 2), 1.0)]
    out = dict(expand_ties([0, 1, 2, 3], [1, 1, 3, 3], 4.0))
    assert len(out) == 4 and all(w == pytest.approx(1.0) for w in out.values())
    out = dict(expand_ties([0, 1, 1], [1, 1, 1], 6.0))      # repeated strategy in a tie
    assert out == pytest.approx({(0, 1, 1): 2.0, (1, 0, 1): 2.0, (1, 1, 0): 2.0})
