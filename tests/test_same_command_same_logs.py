"""Same command, same logs (issue 9, item 4): `run`, `compare` and `sweep` with --precision
gave different logs with --workers 1 and --workers 2, because the batch size of a --precision
run depended on the worker count. Now every chunk file (and so every log row, run id
included) is the same byte for byte whatever the number of workers.
"""
from __future__ import annotations

import json

import pytest

from scripts.cli import main
from sim.designer import precision_chunk


def chunk_records(root):
    """{sub-run/chunk file: sha256} of every run folder under root."""
    out = {}
    for manifest in sorted(root.rglob("manifest.json")):
        m = json.loads(manifest.read_text())
        rel = manifest.parent.relative_to(root)
        for c in m["chunks"]:
            out[f"{rel}/{c['file']}"] = c["sha256"]
        out[f"{rel}/games"] = m["games"]
    return out


# first batches of 4000 games: the old rule cut them into 4000-game chunks on one worker and
# 2000-game chunks on two, and the batches that followed differed
COMMANDS = {
    "run": ["run", "toy", "--players", "3", "--strategies", "planner,greedy,random",
            "--games", "4000", "--precision", "0.01", "--max-games", "16000"],
    "compare": ["compare", "toy", "--players", "2", "--strategies", "planner,random",
                "-n", "8000", "--precision", "0.01", "--max-games", "16000"],
    "sweep": ["sweep", "toy", "--players", "2", "--strategies", "greedy",
              "--vary", "dice.sides=4,8", "-n", "4000", "--precision", "0.01",
              "--max-games", "16000"],
}


@pytest.mark.parametrize("command", list(COMMANDS))
def test_precision_batches_do_not_depend_on_workers(toy_registry, in_tmp, capsys, command):
    results = []
    for workers in (1, 2):
        out = in_tmp / f"{command}-w{workers}"
        code = main([*COMMANDS[command], "--workers", str(workers), "--no-progress",
                     "--out", str(out)])
        _, err = capsys.readouterr()
        assert code == 0, err
        results.append(chunk_records(out))
    assert results[0] == results[1]
    games = [v for k, v in results[0].items() if k.endswith("/games")]
    assert max(games) > 4000  # the precision loop played more than one batch


def test_precision_chunk_takes_no_worker_count():
    assert precision_chunk(1000) == 1000 and precision_chunk(80_000) == 10_000
    with pytest.raises(TypeError):
        precision_chunk(80_000, 4)
