"""The numba cache folder is keyed on the sources; old versions' folders are pruned."""
import os

import sim


def test_cache_dir_is_keyed_on_the_sources():
    assert os.environ["NUMBA_CACHE_DIR"].endswith(sim._source_hash())


def test_prune_keeps_the_newest_folders(tmp_path):
    n = sim.KEEP_CACHES + 4
    for i in range(n):
        d = tmp_path / f"v{i:02d}"
        d.mkdir()
        os.utime(d, (1_000_000 + i, 1_000_000 + i))
    current = str(tmp_path / "new")
    sim._prune_old_caches(str(tmp_path), current)
    left = sorted(os.listdir(tmp_path))
    assert left == [f"v{i:02d}" for i in range(n - (sim.KEEP_CACHES - 1), n)]
