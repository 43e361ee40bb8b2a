"""The printed summary is streamed chunk by chunk (flat memory for any run size) and equals
the in-memory summary of the whole logs."""
import pandas as pd

from analysis.summary import summarize, summarize_run
from sim.run_folder import open_run
from sim import runner
from sim.registry import get_game


def _same(a, b):
    assert a.n_games == b.n_games and a.n_players == b.n_players
    for key in ("seats", "strategies"):
        x, y = getattr(a, key).copy(), getattr(b, key).copy()
        x.index, y.index = x.index.astype(str), y.index.astype(str)
        pd.testing.assert_frame_equal(x[y.columns].astype(float), y.astype(float), rtol=1e-9,
                                      check_index_type=False)
    assert abs((a.tie_rate or 0) - (b.tie_rate or 0)) < 1e-12
    pd.testing.assert_frame_equal(a.end_reasons.reset_index(drop=True),
                                  b.end_reasons.reset_index(drop=True), check_dtype=False)


def test_streamed_summary_equals_in_memory_summary(tmp_path):
    spec = get_game("sunset")
    prepared = spec.prepare(spec.load_components(), 4, ["planner", "greedy", "greedy", "random"], 5)
    out = str(tmp_path / "run")
    runner.run(spec, prepared, 250, out, workers=1, chunk_size=60, progress=False)
    _same(summarize(runner.read_logs(out)), summarize_run(open_run(str(out), load_components=False)))
