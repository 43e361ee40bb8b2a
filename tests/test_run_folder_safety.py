"""A user's files are sacred: `--out` never deletes or overwrites what the toolkit did not write
(issue 9, item 1). Each test is a harm a real user met or could meet: a run, a report or a
designer command pointed at a folder that holds their own files, with and without --overwrite.
"""
from __future__ import annotations

import json
import os

import pytest

from scripts.cli import main

USER_FILES = {
    "my-notes.txt": b"ideas for the next prototype\n",
    "components.toml": b"# my own component file, hand-tuned\n[dice]\nsides = 6\nn_dice = 3\n",
    "chunks/README.txt": b"what these files are\n",
}


def call(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def plant(folder, files):
    for rel, data in files.items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def snapshot(folder):
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


def assert_kept(folder, files):
    for rel, data in files.items():
        assert (folder / rel).read_bytes() == data, rel


def run_toy(capsys, out, *extra):
    return call(capsys, "run", "toy", "--players", "2", "--games", "40", "--chunk-size", "10",
                "--workers", "1", "--no-progress", "--out", out, *extra)


@pytest.mark.parametrize("flags", [(), ("--overwrite",)], ids=["plain", "overwrite"])
def test_a_folder_of_user_files_is_never_written_into(toy_registry, in_tmp, capsys, flags):
    """`balance run --out DIR` on a folder of the user's own files overwrote their
    components.toml; with --overwrite it emptied chunks/. Now: refused, every byte kept, and
    the message does not suggest --overwrite (it would not help)."""
    folder = in_tmp / "project"
    plant(folder, USER_FILES)
    before = snapshot(folder)
    code, out, err = run_toy(capsys, folder, *flags)
    assert code == 2 and len(err.splitlines()) == 1, err
    assert "no run of this toolkit" in err and "--overwrite" not in err
    assert snapshot(folder) == before


def test_a_foreign_manifest_is_not_taken_for_a_run(toy_registry, in_tmp, capsys):
    """A manifest.json of another program (no toolkit marker) is not the toolkit's: even with
    --overwrite it is neither deleted nor replaced, and neither are the chunks beside it."""
    folder = in_tmp / "other"
    plant(folder, {"manifest.json": b'{"name": "my web app", "version": 3}\n',
                   "chunks/chunk-000000000000.parquet": b"not ours"})
    before = snapshot(folder)
    code, _, err = run_toy(capsys, folder, "--overwrite")
    assert code == 2 and len(err.splitlines()) == 1 and "--overwrite" not in err
    assert "not written by this toolkit" in err
    assert snapshot(folder) == before


def test_overwrite_removes_only_the_toolkits_files_and_names_the_rest(toy_registry, in_tmp, capsys):
    """--overwrite of a run of this toolkit: its manifest, chunks, copies and report go (the
    stale report too: it described the replaced run); the user's notes, a README in chunks/
    and a file they added in report/ stay byte for byte and are named."""
    folder = in_tmp / "run"
    code, _, err = run_toy(capsys, folder, "--seed", "1", "--report")
    assert code == 0, err
    assert (folder / "report" / "report.html").is_file() and (folder / "report" / "report.json").is_file()
    user = {"my-notes.txt": b"seed 1 looked odd\n", "chunks/README.txt": b"chunks of seed 1\n",
            "report/my-comments.md": b"# my comments on the report\n"}
    plant(folder, user)
    old_run_id = json.loads((folder / "manifest.json").read_text())["run_id"]

    code, _, err = run_toy(capsys, folder, "--seed", "2", "--games", "20", "--overwrite")
    assert code == 0, err
    assert_kept(folder, user)
    assert "kept 3 file(s)" in err and "my-notes.txt" in err and "report/my-comments.md" in err
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["seed"] == 2 and manifest["run_id"] != old_run_id
    # the old run's chunks 20 and 30 are gone (the new run has two chunks), the old report too
    assert sorted(os.listdir(folder / "chunks")) == [
        "README.txt", "chunk-000000000000.parquet", "chunk-000000000010.parquet"]
    # the folder stays a report folder of the toolkit (an empty record) beside the user's file
    assert sorted(os.listdir(folder / "report")) == ["my-comments.md", "report.json"]
    assert json.loads((folder / "report" / "report.json").read_text())["files"] == {}
    code, _, err = call(capsys, "report", folder, "--no-progress")
    assert code == 0, err
    assert_kept(folder, user)
    assert (folder / "report" / "report.md").is_file()


def test_overwrite_never_deletes_a_copy_the_user_edited(toy_registry, in_tmp, capsys):
    """The run's components.toml copy, edited by hand, is the user's file now: --overwrite
    refuses (one line naming it) instead of deleting it."""
    folder = in_tmp / "run"
    assert run_toy(capsys, folder)[0] == 0
    edited = b"[dice]\nsides = 12\nn_dice = 3\n# my experiment\n"
    (folder / "components.toml").write_bytes(edited)
    before = snapshot(folder)
    code, _, err = run_toy(capsys, folder, "--seed", "9", "--overwrite")
    assert code == 2 and len(err.splitlines()) == 1 and "components.toml" in err
    assert snapshot(folder) == before
    # without --overwrite, the message does not suggest a flag that would not help
    code, _, err = run_toy(capsys, folder, "--seed", "9")
    assert code == 2 and len(err.splitlines()) == 1
    assert "pass --overwrite" not in err and "would not delete" in err
    assert snapshot(folder) == before


def test_resume_reports_a_stray_chunk_file_and_keeps_it(toy_registry, in_tmp, capsys):
    """A duplicated chunk (a file manager's `(1)` copy) in a run folder: the same command
    again does not delete it; it stops with one line naming it."""
    folder = in_tmp / "run"
    assert run_toy(capsys, folder)[0] == 0
    src = folder / "chunks" / "chunk-000000000010.parquet"
    dup = folder / "chunks" / "chunk-000000000010(1).parquet"
    dup.write_bytes(src.read_bytes())
    before = snapshot(folder)
    code, _, err = run_toy(capsys, folder)
    assert code == 2 and len(err.splitlines()) == 1
    assert "chunk-000000000010(1).parquet" in err and "move it out" in err
    assert snapshot(folder) == before


def test_report_out_into_a_folder_of_user_files_is_refused(toy_registry, in_tmp, capsys):
    """`balance report DIR --out FOLDER` would have written report.md over a user's file."""
    run = in_tmp / "run"
    assert run_toy(capsys, run)[0] == 0
    folder = in_tmp / "docs"
    plant(folder, {"report.md": b"# my own report\n", "notes.txt": b"x\n"})
    before = snapshot(folder)
    code, _, err = call(capsys, "report", run, "--out", folder, "--no-progress")
    assert code == 2 and len(err.splitlines()) == 1 and "--overwrite" not in err
    assert snapshot(folder) == before


def test_writing_a_report_again_replaces_only_its_own_files(toy_registry, in_tmp, capsys):
    """A report folder records what it wrote (report.json): writing the report again replaces
    those files and keeps a user's file there; a report file the user edited is refused."""
    run = in_tmp / "run"
    assert run_toy(capsys, run)[0] == 0
    rep = in_tmp / "rep"
    assert call(capsys, "report", run, "--out", rep, "--no-progress")[0] == 0
    record = json.loads((rep / "report.json").read_text())
    assert record["tool"] == "balance-toolkit" and "report.md" in record["files"]
    (rep / "mine.txt").write_bytes(b"keep me\n")
    code, _, err = call(capsys, "report", run, "--out", rep, "--no-progress", "--format", "md")
    assert code == 0, err
    assert (rep / "mine.txt").read_bytes() == b"keep me\n"
    assert not (rep / "report.html").exists()  # the old report's file the new one does not have
    (rep / "report.md").write_text("# edited by hand\n")
    code, _, err = call(capsys, "report", run, "--out", rep, "--no-progress")
    assert code == 2 and len(err.splitlines()) == 1 and "report.md" in err
    assert (rep / "report.md").read_text() == "# edited by hand\n"


def sweep(capsys, out, *extra):
    return call(capsys, "sweep", "toy", "--players", "2", "--strategies", "greedy",
                "-n", "40", "--workers", "1", "--no-progress", "--out", out, *extra)


def test_sweep_overwrite_keeps_user_files_and_refuses_a_foreign_folder(toy_registry, in_tmp, capsys):
    """compare / sweep / tune --overwrite used to delete the whole result folder (shutil.rmtree),
    the user's files with it."""
    root = in_tmp / "sweep"
    code, _, err = sweep(capsys, root, "--vary", "dice.sides=6,8")
    assert code == 0, err
    user = {"my-notes.txt": b"sides 8 felt better\n", "report/annotated.md": b"# mine\n"}
    plant(root, user)
    code, _, err = sweep(capsys, root, "--vary", "dice.sides=4,10", "--overwrite")
    assert code == 0, err
    assert_kept(root, user)
    assert "my-notes.txt" in err
    plan = json.loads((root / "designer.json").read_text())
    assert plan["tool"] == "balance-toolkit" and plan["vary"] == ["dice.sides=4,10"]

    foreign = in_tmp / "papers"
    plant(foreign, USER_FILES)
    before = snapshot(foreign)
    for flags in ((), ("--overwrite",)):
        code, _, err = sweep(capsys, foreign, "--vary", "dice.sides=6,8", *flags)
        assert code == 2 and len(err.splitlines()) == 1 and "--overwrite" not in err
    assert snapshot(foreign) == before


def test_a_report_cut_short_is_still_the_toolkits_folder(toy_registry, in_tmp, capsys, monkeypatch):
    """A report write interrupted after its files and before its final record must not turn
    the folder into 'files the toolkit did not write' (the next report would be refused)."""
    from sim import run_folder

    run = in_tmp / "run"
    assert run_toy(capsys, run)[0] == 0
    rep = in_tmp / "rep"
    assert call(capsys, "report", run, "--out", rep, "--no-progress", "--format", "md")[0] == 0

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    with monkeypatch.context() as m:
        m.setattr(run_folder, "remove_owned", interrupted)
        assert call(capsys, "report", run, "--out", rep, "--no-progress")[0] == 130
    assert "pending" in json.loads((rep / "report.json").read_text())
    code, _, err = call(capsys, "report", run, "--out", rep, "--no-progress")
    assert code == 0, err
    record = json.loads((rep / "report.json").read_text())
    assert "pending" not in record and {"report.html", "report.md"} <= set(record["files"])
