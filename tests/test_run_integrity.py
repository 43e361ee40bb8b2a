"""Nothing silently wrong (issue 9, items 2 and 3; issue 10, item 4): a run folder whose chunks,
manifest, component copy or strategy files are not what the run wrote gives one error line
naming the file, never other figures; `run` replays exactly the bad chunks; `replay` never
runs code because a run folder names it, and replays only the logged game.
"""
from __future__ import annotations

import json
import os
import shutil

import pandas as pd
import pytest

from reports.build import analyse_run
from scripts.cli import main
from sim import runner
from sim.game_api import ToolkitError

GAMES, CHUNK = 80, 20


def call(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def run_toy(capsys, out, *extra):
    return call(capsys, "run", "toy", "--players", "3", "--games", GAMES, "--chunk-size", CHUNK,
                "--strategies", "planner,greedy,random", "--workers", "1", "--no-progress",
                "--out", out, *extra)


@pytest.fixture
def run_dir(toy_registry, in_tmp, capsys):
    out = in_tmp / "run"
    code, _, err = run_toy(capsys, out)
    assert code == 0, err
    return out


def chunk(out, k):
    return out / "chunks" / f"chunk-{k * CHUNK:012d}.parquet"


def one_error_line(capsys, *argv):
    code, out, err = call(capsys, *argv)
    lines = err.splitlines()
    assert code == 2 and len(lines) == 1 and lines[0].startswith("balance: error: "), err
    return lines[0]


def readers(out):
    return [("summary", out), ("report", out, "--no-progress", "--out", out.parent / "rep")]


def test_manifest_records_every_chunk_with_its_checksum(run_dir):
    m = json.loads((run_dir / "manifest.json").read_text())
    assert m["tool"] == "balance-toolkit" and m["format"] == 2
    assert [c["file"] for c in m["chunks"]] == [chunk(run_dir, k).name for k in range(4)]
    import hashlib
    for c in m["chunks"]:
        data = (run_dir / "chunks" / c["file"]).read_bytes()
        assert c["sha256"] == hashlib.sha256(data).hexdigest() and c["bytes"] == len(data)
        assert c["games"] == CHUNK and c["rows"] == CHUNK * 3


def test_a_flipped_bit_is_detected_then_replayed(run_dir, capsys):
    """316 of 400 random bit flips used to decode silently into other figures."""
    full = runner.read_logs(run_dir)
    path = chunk(run_dir, 2)
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x10
    path.write_bytes(bytes(data))
    for argv in readers(run_dir):
        line = one_error_line(capsys, *argv)
        assert path.name in line and "damaged" in line
    code, _, err = run_toy(capsys, run_dir)           # the same command repairs it
    assert code == 0, err
    assert path.name in err and "playing it again" in err
    m = runner.read_manifest(run_dir)
    assert m["timings"]["chunks_played_this_session"] == 1 and m["status"] == "complete"
    pd.testing.assert_frame_equal(runner.read_logs(run_dir), full)
    assert call(capsys, "summary", run_dir)[0] == 0


def test_a_duplicated_chunk_is_one_error_line(run_dir, capsys):
    """`summary` and `report` said 42,000 games for a 40,000-game run with a `(1)` copy."""
    dup = run_dir / "chunks" / "chunk-000000000020(1).parquet"
    shutil.copyfile(chunk(run_dir, 1), dup)
    for argv in readers(run_dir):
        line = one_error_line(capsys, *argv)
        assert dup.name in line and "not a chunk this run wrote" in line
    assert dup.exists()


def test_a_deleted_chunk_is_one_error_line(run_dir, capsys):
    """`summary` used to report fewer games with exit code 0."""
    os.remove(chunk(run_dir, 3))
    for argv in readers(run_dir):
        line = one_error_line(capsys, *argv)
        assert chunk(run_dir, 3).name in line and "missing" in line


def test_a_chunk_copied_from_another_run_is_named(run_dir, in_tmp, capsys):
    other = in_tmp / "other"
    assert run_toy(capsys, other, "--seed", "99")[0] == 0
    shutil.copyfile(chunk(other, 1), chunk(run_dir, 1))
    other_id = runner.read_manifest(other)["run_id"]
    for argv in readers(run_dir):
        line = one_error_line(capsys, *argv)
        assert chunk(run_dir, 1).name in line and f"another run (run id {other_id})" in line


def test_resume_replays_exactly_the_bad_chunks(run_dir, capsys):
    full = runner.read_logs(run_dir)
    os.remove(chunk(run_dir, 0))
    chunk(run_dir, 2).write_bytes(b"PAR1 not really")
    code, _, err = run_toy(capsys, run_dir)
    assert code == 0, err
    m = runner.read_manifest(run_dir)
    assert m["timings"]["chunks_played_this_session"] == 2
    pd.testing.assert_frame_equal(runner.read_logs(run_dir), full)


@pytest.mark.parametrize("edit", [
    lambda m: m.update(players="three"),
    lambda m: m.update(chunks="all of them"),
    lambda m: m["chunks"][0].update(sha256=12),
    lambda m: m.pop("components"),
    lambda m: m.update(status="done"),
], ids=["players", "chunks", "sha256", "components", "status"])
def test_a_manifest_of_the_wrong_shape_is_one_error_line(run_dir, capsys, edit):
    path = run_dir / "manifest.json"
    m = json.loads(path.read_text())
    edit(m)
    path.write_text(json.dumps(m))
    for argv in readers(run_dir) + [("replay", run_dir, "--game", "1")]:
        line = one_error_line(capsys, *argv)
        assert "manifest.json" in line and "Traceback" not in line
    # and a run into it refuses without touching it (it is not a manifest this toolkit reads)
    before = path.read_bytes()
    one_error_line(capsys, "run", "toy", "--players", "3", "--games", GAMES, "--workers", "1",
                   "--no-progress", "--out", run_dir, "--overwrite")
    assert path.read_bytes() == before


def test_summary_and_report_refuse_an_edited_component_copy(run_dir, capsys):
    """`report` used an edited components.toml copy without checking it."""
    (run_dir / "components.toml").write_text("[dice]\nsides = 20\nn_dice = 3\n")
    for argv in readers(run_dir) + [("replay", run_dir, "--game", "1")]:
        line = one_error_line(capsys, *argv)
        assert "components.toml was changed after the run wrote it" in line


def test_the_report_never_falls_back_to_the_default_component_file(run_dir, capsys):
    """Issue 10, item 4: analysis/balance.py silently used the game's default file when the
    run's copy could not be loaded, so a report could show another card's value."""
    os.remove(run_dir / "components.toml")
    with pytest.raises(ToolkitError, match="components.toml, the run's copy of its component file, is missing"):
        analyse_run(str(run_dir))
    line = one_error_line(capsys, "report", run_dir, "--no-progress")
    assert "components.toml" in line


STRATEGY = '''
import pathlib
pathlib.Path(__file__).with_name("IMPORTED").write_text("the strategy file ran")

def bot(*args):
    return 0
'''


def test_replay_runs_only_a_strategy_file_the_user_names_with_the_runs_hash(toy_registry, in_tmp, capsys):
    """`replay` imported (ran) the Python file a run folder's manifest named: a shared run
    folder could run code on whoever replays it. And it replayed another game once the file
    had been edited."""
    bot = in_tmp / "bot.py"
    bot.write_text(STRATEGY)
    marker = in_tmp / "IMPORTED"
    out = in_tmp / "run"
    code, _, err = call(capsys, "run", "toy", "--players", "2", "--games", "20",
                        "--strategies", f"{bot}:bot,greedy", "--workers", "1", "--no-progress",
                        "--out", out)
    assert code == 0, err
    marker.unlink()

    line = one_error_line(capsys, "replay", out, "--game", "3")
    assert "--strategy-file" in line
    assert not marker.exists()                              # nothing was imported

    bot.write_text(STRATEGY + "\n# tuned since\n")
    line = one_error_line(capsys, "replay", out, "--game", "3", "--strategy-file", bot)
    assert "bot.py" in line and "changed since" in line
    assert not marker.exists()

    bot.write_text(STRATEGY)
    code, text, err = call(capsys, "replay", out, "--game", "3", "--strategy-file", bot)
    assert code == 0, err
    assert "game 3" in text


def test_replay_refuses_when_the_folder_no_longer_describes_its_logs(run_dir, capsys):
    """A manifest edited to another seed still validates and its chunks still verify, but a
    replay would be of another game: the replayed game is checked against its log."""
    path = run_dir / "manifest.json"
    m = json.loads(path.read_text())
    m["seed"] = 12345
    path.write_text(json.dumps(m))
    line = one_error_line(capsys, "replay", run_dir, "--game", "5")
    assert "replays differently from its log" in line


def test_verification_hashes_every_chunk_once_per_process(run_dir, monkeypatch):
    """Keeping verification cheap: a command that reads the chunks several times (columns,
    summary, logs) hashes each file once."""
    from sim import run_folder
    calls = []
    real = run_folder.sha256_file
    monkeypatch.setattr(run_folder, "_VERIFIED", {})
    monkeypatch.setattr(run_folder, "sha256_file", lambda p: calls.append(p) or real(p))
    for _ in range(3):
        runner.read_logs(run_dir)
    assert len(calls) == 4


def test_a_chunk_written_but_not_recorded_is_not_counted_and_is_replayed(toy_registry, in_tmp, capsys):
    """A kill between a worker writing its chunk and the parent recording it leaves a file at
    a planned name with no record: it is not counted (its bytes cannot be vouched for), the
    summary says so, and the resume plays that chunk again over it."""
    spec = toy_registry
    prepared = spec.prepare(spec.load_components(), 3, ["planner", "greedy", "random"], 1)
    out, ref = str(in_tmp / "run"), str(in_tmp / "ref")
    runner.run(spec, prepared, GAMES, ref, workers=1, chunk_size=CHUNK, progress=False)
    m = runner.run(spec, prepared, GAMES, out, workers=1, chunk_size=CHUNK, progress=False,
                   _max_chunks=2)
    assert [c["file"] for c in m["chunks"]] == [chunk(in_tmp / "run", k).name for k in (0, 1)]
    shutil.copyfile(chunk(in_tmp / "ref", 2), chunk(in_tmp / "run", 2))  # written, not recorded
    code, text, err = call(capsys, "summary", out)
    assert code == 0, err
    assert "1 chunk file(s) of an interrupted session are not counted" in text
    assert f"{2 * CHUNK} games" in text
    m = runner.run(spec, prepared, GAMES, out, workers=1, progress=False)
    assert m["status"] == "complete" and m["timings"]["chunks_played_this_session"] == 2
    pd.testing.assert_frame_equal(runner.read_logs(out), runner.read_logs(ref))


def test_a_chunk_of_this_run_edited_is_damaged_not_foreign(run_dir, capsys):
    """A chunk rewritten with changed figures but its own run id still decodes: it is named
    as damaged (its checksum), not as another run's."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    path = chunk(run_dir, 1)
    t = pq.read_table(path)
    scores = t.column("score").to_pylist()
    scores[0] += 1
    pq.write_table(t.set_column(t.schema.get_field_index("score"), "score", pa.array(scores)),
                   path)
    line = one_error_line(capsys, "summary", run_dir)
    assert path.name in line and "damaged or replaced" in line and "another run" not in line
