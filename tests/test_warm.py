"""`balance warm`: the games' kernels compiled ahead, one child process per game (sim/warm.py).

The harm prevented: a warm-up that says it compiled what it did not (a failed child counted as
done), or a run after `balance warm` that compiles again."""
from __future__ import annotations

import io
import os
import subprocess
import sys
import textwrap

import pytest

from scripts.cli import main
from sim.warm import warm

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_bad_kinds_and_unknown_games_are_one_line(capsys):
    assert main(["warm", "--kinds", "play,nope"]) == 2
    assert main(["warm", "nosuchgame"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("balance: error: --kinds must list play, checked, trace, search")
    assert err[1].startswith("balance: error: unknown game 'nosuchgame'")


def test_a_child_that_fails_is_reported_not_counted_done():
    err = io.StringIO()
    with pytest.raises(RuntimeError, match="the kernels of nosuchgame did not compile"):
        warm(["nosuchgame"], ["play"], jobs=2, err=err)
    text = err.getvalue()
    assert "balance: warm nosuchgame failed" in text and "unknown game" in text
    assert text.rstrip().splitlines()[-1].startswith("warm: 1/1 games")
    assert "failed nosuchgame" in text.rstrip().splitlines()[-1]


def test_after_warm_a_new_process_loads_the_play_loop_from_the_cache():
    err = io.StringIO()
    done = warm(["sunset"], ["play"], err=err)
    assert list(done) == ["sunset"] and "done sunset" in err.getvalue()
    code = """
    from sim.registry import get_game
    spec = get_game("sunset")
    p = spec.prepare(spec.load_components(), 4, ["greedy"], 5)
    spec.play_chunk(p, 0, 1)
    k = spec.kernels()
    print(sum(k.play_chunk.stats.cache_misses.values()), sum(k.play_chunk.stats.cache_hits.values()))
    """
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=ROOT,
                         capture_output=True, text=True, timeout=600, check=True).stdout
    assert out.split() == ["0", "1"]
