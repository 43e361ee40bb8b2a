"""Issue 22 items 1 and 3: a warm `balance run` starts playing at once.

What a warm run does before its first game is imports, the component file, the run folder
and numba's load of the cached kernels (README, "Instant commands"). The harms guarded here:
a module of statistics, tables or figures imported on the way to the first game (pandas,
pyarrow, scipy.stats, matplotlib: a second or more on a loaded machine), and every process
parsing the game's sources again to find its compile-cache folder (sim/compile_cache.py keeps
each file's imports per version of the file).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys

import sim
from sim import compile_cache

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
