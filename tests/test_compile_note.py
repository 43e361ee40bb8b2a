"""The first run says that it is compiling the engine, instead of sitting silently at 0%
for half a minute; a warm start says nothing (sim.compiled_game.kernel_needs_compile,
GameSpec.compile_note, the runner's warm-up)."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np

from sim import runner
from sim.registry import get_game
from tests.toygame import SPEC as TOY

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KERNEL = "from numba import njit\n\n@njit(cache=True)\ndef bump(x):\n    return x + {k}\n"
PROBE = """
import sys
sys.path.insert(0, sys.argv[1])
from sim.compiled_game import kernel_needs_compile
import kern
before = kernel_needs_compile(kern.bump)
kern.bump(1)
print(before, kernel_needs_compile(kern.bump))
"""


def _python(code: str, env: dict, *args) -> str:
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code), *args], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def _env(**extra) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "XDG_CACHE_HOME")}
    env.update(extra)
    return env


def test_needs_compile_follows_numbas_disk_cache(tmp_path):
    """Cold cache: compile; the next process: loaded from disk, nothing to say; an edited
    kernel: compile again (numba's own staleness check)."""
    mod = tmp_path / "mod"
    mod.mkdir()
    (mod / "kern.py").write_text(KERNEL.format(k=1))
    env = _env(NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    assert _python(PROBE, env, str(mod)) == "True False"     # compiled, then in memory
    assert _python(PROBE, env, str(mod)) == "False False"    # loaded from the disk cache
    (mod / "kern.py").write_text(KERNEL.format(k=2) + "\n# edited\n")
    assert _python(PROBE, env, str(mod)) == "True False"


def test_real_engine_on_a_cold_cache_announces_the_compile(tmp_path):
    """A fresh install (empty cache folder) on the real engine, asked without compiling; a
    run with the user's own strategy file always compiles its play loop."""
    code = """
    from sim.registry import list_games, get_game
    for spec in list_games():
        prepared = spec.prepare(spec.load_components(), 2, [spec.default_strategy], 1)
        print(spec.title, "|", spec.compile_note(prepared))
    spec = get_game("sunset")
    print(spec.compile_note(spec.prepare(spec.load_components(), 4, [
        "docs/examples/waterfall_lover.py:waterfall_lover", "greedy", "greedy", "greedy"], 1)))
    """
    lines = _python(code, _env(XDG_CACHE_HOME=str(tmp_path / "xdg"))).splitlines()
    assert len(lines) >= 4
    for line in lines[:-1]:
        title, note = line.split(" | ")
        assert note.startswith(f"compiling the {title} engine for this machine"), line
        assert "30 s to a few minutes, by game" in note    # never measured on this machine
    assert lines[-1].startswith("compiling the Sunset Over Water play loop around your own strategy")


def test_real_engine_warm_says_nothing():
    spec = get_game("sunset")
    prepared = spec.prepare(spec.load_components(), 4, ["greedy"], 1)
    spec.play_chunk(prepared, 0, 2)                 # compiled or loaded here, cached on disk
    assert spec.compile_note(prepared) is None
    # a new process with the same cache folder loads the kernel: nothing to announce
    code = """
    from sim.registry import get_game
    spec = get_game("sunset")
    print(spec.compile_note(spec.prepare(spec.load_components(), 4, ["greedy"], 1)))
    """
    assert _python(code, _env(NUMBA_CACHE_DIR=os.environ["NUMBA_CACHE_DIR"])) == "None"


def test_runner_prints_the_note_once_before_playing_and_only_then(tmp_path, capsys, monkeypatch):
    prepared = TOY.prepare(TOY.load_components(), 2, ["greedy", "random"], 1)
    monkeypatch.setattr(type(TOY), "compile_note", lambda self, p: "compiling the toy engine...",
                        raising=False)
    # two runs sharing one pool: one warm-up, one line; also with progress off (a long wait
    # deserves one line on stderr, which the summary on stdout never contains)
    runner.run_many(TOY, [(prepared, 10, str(tmp_path / "a")), (prepared, 10, str(tmp_path / "b"))],
                    workers=1, progress=False)
    out, err = capsys.readouterr()
    assert err.count("balance: compiling the toy engine...") == 1 and "compiling" not in out
    monkeypatch.setattr(type(TOY), "compile_note", lambda self, p: None, raising=False)
    runner.run(TOY, prepared, 10, str(tmp_path / "c"), workers=1, progress=False)
    assert "compiling" not in capsys.readouterr().err
    assert np.isfinite(runner.read_manifest(str(tmp_path / "c"))["timings"]["compile_seconds"])


def test_runner_remembers_how_long_the_compile_took(tmp_path, monkeypatch):
    """The warm-up that printed the note times the compile and hands it to the game spec."""
    prepared = TOY.prepare(TOY.load_components(), 2, ["greedy", "random"], 1)
    monkeypatch.setattr(type(TOY), "compile_note", lambda self, p: "compiling the toy engine...",
                        raising=False)
    told = []
    monkeypatch.setattr(type(TOY), "compiled", lambda self, p, secs: told.append(secs),
                        raising=False)
    runner.run_many(TOY, [(prepared, 10, str(tmp_path / "a"))], workers=1, progress=False)
    assert len(told) == 1 and told[0] > 0


def test_the_note_says_the_last_compile_time_measured_here(tmp_path, monkeypatch):
    """A cold compile's note quotes how long the last one took on this machine (kept in the
    toolkit's own cache folder), per game, and apart for runs with a strategy file."""
    import sim
    from sim import compiled_game as cg
    monkeypatch.setattr(sim, "TOOL_CACHE_ROOT", str(tmp_path / "toolcache"))
    assert cg.last_compile_seconds("lowlands") is None
    cg.remember_compile_seconds("lowlands", 131.4)
    cg.remember_compile_seconds("sunset with a strategy file", 28.2)
    assert cg.last_compile_seconds("lowlands") == 131.4
    assert cg.last_compile_seconds("sunset") is None
    assert cg._duration(131.4) == "about 2 min 11 s" and cg._duration(28.2) == "about 28 s"
    spec = get_game("lowlands")
    prepared = spec.prepare(spec.load_components(), 2, [spec.default_strategy], 1)
    monkeypatch.setattr(cg, "kernel_needs_compile", lambda dispatcher: True)
    note = spec.compile_note(prepared)
    assert "about 2 min 11 s last time on this machine" in note, note
    # a damaged file only loses the estimate
    (tmp_path / "toolcache" / "compile_seconds.json").write_text("{not json")
    assert cg.last_compile_seconds("lowlands") is None
    assert "30 s to a few minutes" in spec.compile_note(prepared)


def test_a_user_chosen_cache_folder_gets_no_file_of_ours(monkeypatch):
    import sim
    from sim import compiled_game as cg
    monkeypatch.setattr(sim, "TOOL_CACHE_ROOT", None)
    cg.remember_compile_seconds("sunset", 12.0)       # writes nothing, fails nothing
    assert cg.last_compile_seconds("sunset") is None
