"""The plumbing every game's runs tests share: the component fixture, a prepared game and a run
through the real runner (1 worker, no progress bar unless asked), and the checks that hold for
every game (same seed -> same logs for any workers and chunks; report metadata naming real
columns). Each test file adds its game's own assertions."""
from __future__ import annotations

import pytest

from sim import runner


def comp_fixture(spec):
    """A module-scoped `comp` fixture: the game's shipped component file."""
    @pytest.fixture(scope="module")
    def comp():
        return spec.load_components()
    return comp


class SpecRuns:
    def __init__(self, spec):
        self.spec = spec

    def prep(self, comp, names, seed=11, variants=None):
        return self.spec.prepare(comp, len(names), list(names), seed, variants)

    def play(self, p, out, n_games, **kw):
        kw.setdefault("workers", 1)
        kw.setdefault("progress", False)
        return runner.run(self.spec, p, n_games, str(out), **kw)

    def same_logs_any_workers_and_chunks(self, comp, tmp_path, names, n_games):
        """Play `n_games` twice with the same seed, as one chunk on 1 worker and as chunks of 17
        on 2; assert the logs are equal (but for run_id) and return them."""
        self.play(self.prep(comp, names), tmp_path / "a", n_games, chunk_size=n_games)
        self.play(self.prep(comp, names), tmp_path / "b", n_games, workers=2, chunk_size=17)
        a, b = runner.read_logs(str(tmp_path / "a")), runner.read_logs(str(tmp_path / "b"))
        cols = [c for c in a.columns if c != "run_id"]
        assert a[cols].equals(b[cols])
        return a

    def check_report_metadata(self, comp):
        """Every card type names a mask column the logs have and as many names as values, the
        score components are columns; returns (metadata, the log columns)."""
        meta = self.spec.report_metadata(comp)
        cols = {n for n, _ in self.spec.columns()}
        for card in meta["cards"]:
            assert card["mask_column"] in cols and len(card["names"]) == len(card["values"])
        assert set(meta["score_components"]) <= cols
        return meta, cols
