import math

import numpy as np
import pytest
from statsmodels.stats.proportion import proportion_confint

from sim.stats import mean_and_se, wilson_interval

CASES = [
    (0, 1), (1, 1), (0, 10), (10, 10), (1, 10), (5, 10), (3, 7), (50, 100), (1, 1000),
    (999, 1000), (123, 4567), (250000, 1000000), (17.5, 40), (0.5, 3),
]


@pytest.mark.parametrize("confidence", [0.9, 0.95, 0.99])
def test_wilson_matches_statsmodels_vectorised(confidence):
    s = np.array([c[0] for c in CASES], dtype=float)
    n = np.array([c[1] for c in CASES], dtype=float)
    lo, hi = wilson_interval(s, n, confidence)
    for i, (si, ni) in enumerate(CASES):
        ref_lo, ref_hi = proportion_confint(si, ni, alpha=1 - confidence, method="wilson")
        assert lo[i] == pytest.approx(ref_lo, abs=1e-12), (si, ni)
        assert hi[i] == pytest.approx(ref_hi, abs=1e-12), (si, ni)


def test_wilson_scalar_and_zero_n():
    lo, hi = wilson_interval(5, 10)
    ref = proportion_confint(5, 10, method="wilson")
    assert (lo, hi) == pytest.approx(ref)
    lo, hi = wilson_interval(np.array([0, 3]), np.array([0, 6]))
    assert math.isnan(lo[0]) and math.isnan(hi[0])
    assert not math.isnan(lo[1])
    assert all(math.isnan(v) for v in wilson_interval(0, 0))


def test_mean_and_se():
    m, se = mean_and_se([1.0, 2.0, 3.0, 4.0])
    assert m == 2.5
    assert se == pytest.approx(np.std([1, 2, 3, 4], ddof=1) / 2)
    assert math.isnan(mean_and_se([1.0])[1])


@pytest.mark.parametrize("confidence", [0.5, 0.8, 0.9, 0.95, 0.99, 0.999, 1 - 1e-9])
def test_z_value_matches_scipy(confidence):
    from scipy.stats import norm

    from sim.stats import z_value
    assert z_value(confidence) == pytest.approx(norm.ppf(0.5 + confidence / 2), rel=1e-12)


def test_normal_tail_matches_scipy_into_the_far_tail():
    from scipy.stats import norm

    from sim.stats import _normal_sf
    z = np.array([-np.inf, -8.0, -1.5, 0.0, 0.3, 1.959964, 5.0, 12.0, 37.0, np.inf])
    got = _normal_sf(z)
    want = norm.sf(z)
    assert np.allclose(got, want, rtol=1e-12, atol=0.0)
    assert got[-1] == 0.0 and got[0] == 1.0 and got[-2] > 0.0
    assert np.isnan(_normal_sf(np.array([np.nan]))[0])

