"""Issue 22 items 1 and 3: a warm `balance run` starts playing at once.

What a warm run does before its first game is imports, the component file, the run folder
and numba's load of the cached kernels (README, "Instant commands"). The harms guarded here:
a module of statistics, tables or figures imported on the way to the first game (pandas,
pyarrow, scipy.stats, matplotlib: a second or more on a loaded machine), every process
parsing the game's sources again to find its compile-cache folder (sim/compile_cache.py keeps
each file's imports per version of the file), and every process that writes a chunk (each
worker) importing pandas because pyarrow's `pa.array` asks pandas about every array.
"""
from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

import sim
from sim import compile_cache, runner

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NOT_BEFORE_THE_FIRST_GAME = ("pandas", "pyarrow", "scipy.stats", "scipy.linalg", "matplotlib",
                             "dask", "optuna", "analysis.summary", "reports")
PROBE = """
import json, os, sys
sys.path.insert(0, {root!r})
from sim import runner
def stop(*args, **kwargs):   # the kernels' load and the first games would come next
    print(json.dumps(sorted(m for m in {heavy!r} if m in sys.modules)))
    os._exit(0)
runner._warm_up = stop
from scripts.cli import main
main({argv!r})
"""


def test_a_run_imports_no_statistics_tables_or_figures_before_its_first_game(tmp_path):
    """scipy.linalg does come in later, when numba loads the first cached kernel (its BLAS
    check imports scipy.linalg.cython_blas): not before, from the toolkit's own path."""
    argv = ["run", "sunset", "--games", "10", "--workers", "1", "--no-progress", "--out",
            str(tmp_path / "run")]
    script = PROBE.format(root=ROOT, heavy=NOT_BEFORE_THE_FIRST_GAME, argv=argv)
    res = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                         text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout.strip().splitlines()[-1]) == []


def _fresh_process_state(monkeypatch, root):
    monkeypatch.setattr(sim, "TOOL_CACHE_ROOT", str(root))
    monkeypatch.setattr(compile_cache, "_IMPORTS", {})
    compile_cache._imports.cache_clear()


def _imports_of(path):
    st = os.stat(path)
    return compile_cache._imports(str(path), st.st_mtime, st.st_size)


def test_a_files_imports_are_parsed_once_per_version_of_the_file(tmp_path, monkeypatch):
    module = tmp_path / "kernel.py"
    module.write_text("import numpy as np\nfrom numba import njit\nfrom .rules import a, b\n")
    want = (("numpy", (), 0), ("numba", ("njit",), 0), ("rules", ("a", "b"), 1))
    _fresh_process_state(monkeypatch, tmp_path / "cache")
    assert _imports_of(module) == want
    assert (tmp_path / "cache" / compile_cache.IMPORTS_FILE).is_file()

    # the next process reads them: the source is not parsed again
    _fresh_process_state(monkeypatch, tmp_path / "cache")
    parse = compile_cache._parsed_imports
    monkeypatch.setattr(compile_cache, "_parsed_imports",
                        lambda path: (_ for _ in ()).throw(AssertionError(f"parsed {path}")))
    assert _imports_of(module) == want

    # an edit (the same size, so only the contents tell) is parsed again
    module.write_text("import numpy as np\nfrom numba import prange\nfrom .rules import b, c\n")
    _fresh_process_state(monkeypatch, tmp_path / "cache")
    monkeypatch.setattr(compile_cache, "_parsed_imports", parse)
    assert _imports_of(module) == (("numpy", (), 0), ("numba", ("prange",), 0),
                                   ("rules", ("b", "c"), 1))
    compile_cache._imports.cache_clear()   # no entry of this test's files for the next test


def test_without_the_toolkits_own_folder_nothing_is_written(tmp_path, monkeypatch):
    """Under a NUMBA_CACHE_DIR the user chose (TOOL_CACHE_ROOT None) the toolkit writes none
    of its own files: the imports are parsed in every process."""
    module = tmp_path / "kernel.py"
    module.write_text("import os\n")
    monkeypatch.setattr(sim, "TOOL_CACHE_ROOT", None)
    monkeypatch.setattr(compile_cache, "_IMPORTS", {})
    compile_cache._imports.cache_clear()
    assert _imports_of(module) == (("os", (), 0),)
    assert sorted(os.listdir(tmp_path)) == ["kernel.py"]
    compile_cache._imports.cache_clear()


CHUNK_PROBE = """
import json, os, sys, tempfile
sys.path.insert(0, {root!r})
import numpy as np
from sim import runner
class Prepared:
    game, n_players, strategy_names, assigned = "toy", 2, ["b", "a"], None
cols = {{"game": np.arange(4) // 2, "seat": np.tile([0, 1], 2), "score": np.ones(4),
        "counts": np.ones((4, 3), np.int16), "won": np.array([True, False, False, True])}}
out = tempfile.mkdtemp()
os.makedirs(os.path.join(out, runner.CHUNK_DIR))
record = runner._write_chunk(runner._to_table(cols, Prepared, "run", 0, 2), out, 0, 2)
print(json.dumps({{"rows": record["rows"], "pandas": "pandas" in sys.modules}}))
"""


def test_a_chunk_is_built_and_written_without_importing_pandas():
    res = subprocess.run([sys.executable, "-c", CHUNK_PROBE.format(root=ROOT)], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout.strip().splitlines()[-1]) == {"rows": 4, "pandas": False}


class _Prepared:
    game, n_players, strategy_names, assigned = "toy", 2, ["b", "a"], None


def test_a_chunk_holds_what_pa_array_would_make_of_the_columns_to_the_byte():
    """The same table and the same Parquet bytes as converting each column with pa.array
    (the logs' SHA-256 do not change), for every kind of column a game records."""
    cols = {"game": np.arange(6) // 2, "seat": np.tile([0, 1], 3),
            "strategy": np.array([0, 1, 1, 0, 0, 1], np.int32),
            "score": np.arange(6, dtype=np.float64) / 3, "share": np.full(6, np.nan),
            "won": np.array([True, False, True, True, False, False]),
            "small": np.arange(6, dtype=np.int8) - 3, "code": np.arange(6, dtype=np.uint64),
            "counts": np.arange(12, dtype=np.int16).reshape(6, 2)[:, ::-1]}
    got = runner._to_table(cols, _Prepared, "run-1", 0, 3)
    want = {"run_id": pa.DictionaryArray.from_arrays(np.zeros(6, np.int32), pa.array(["run-1"])),
            "game": pa.array(cols["game"].astype(np.int64)),
            "seat": pa.array(cols["seat"].astype(np.int64)),
            "strategy": pa.DictionaryArray.from_arrays(cols["strategy"], pa.array(["a", "b"]))}
    for name in ("score", "share", "won", "small", "code"):
        want[name] = pa.array(cols[name])
    want["counts"] = pa.FixedSizeListArray.from_arrays(
        pa.array(np.ascontiguousarray(cols["counts"]).ravel()), 2)
    want = pa.table(want)
    assert got.schema.equals(want.schema)
    for name in want.column_names:      # Arrow never finds NaN equal to NaN: that column is
        if name != "share":             # checked by the bytes below
            assert got[name].equals(want[name]), name
    written, expected = io.BytesIO(), io.BytesIO()
    pq.write_table(got, written)
    pq.write_table(want, expected)
    assert written.getvalue() == expected.getvalue()


def test_a_worker_keeps_the_toolkits_own_caches(tmp_path):
    """A process started by the toolkit (a loky worker, `balance warm`'s processes) inherits
    the NUMBA_CACHE_DIR its parent chose: that is still the toolkit's own folder, with its
    small caches (the contract's names, each file's imports), or every worker would parse
    every game's sources again. A folder the user chose stays without them."""
    probe = "import sim; print(sim.TOOL_CACHE_ROOT)"
    base = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "XDG_CACHE_HOME")}
    own = tmp_path / "balance-toolkit"
    for numba_dir, want in ((None, str(own)), (str(own / "kernels"), str(own)),
                            (str(tmp_path / "mine"), "None")):
        env = dict(base, XDG_CACHE_HOME=str(tmp_path))
        if numba_dir:
            env["NUMBA_CACHE_DIR"] = numba_dir
        res = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=env,
                             capture_output=True, text=True, timeout=60)
        assert res.returncode == 0, res.stderr
        assert res.stdout.strip() == want, (numba_dir, res.stdout)
