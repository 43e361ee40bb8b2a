"""The balance report end to end on synthetic run folders (logs we write ourselves, so every
figure is known): the streaming aggregation against a naive pandas computation, verdicts,
edge cases (solo, ties everywhere, a card never taken), the files written, the command line.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import warnings

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from reports.build import analyse_run
from reports.build import write_report
from scripts.cli import main as cli_main
from sim.run_folder import record_of_file
from sim.runner import read_logs
from reports.findings import verdict_lines
from reports.notes import note_lines

CARD_NAMES = [f"Card {c}" for c in range(20)]
CARD_VALUES = [2, 3, 4, 5] * 5
STRONG_CARD = 2          # +8 score when taken
NEVER_CARD = 19          # nobody ever takes it
GOALS = ["Goal A", "Goal B", "Goal C"]


def synthetic_meta() -> dict:
    return {
        "cards": [
            {"type": "commission", "label": "Commissions", "names": CARD_NAMES,
             "values": CARD_VALUES, "mask_column": "commissions_mask",
             "day_columns": ["comm_day_0", "comm_day_1"], "time_unit": "day"},
            {"type": "goal", "label": "Daily goals", "names": GOALS, "values": [2, 2, 2],
             "mask_column": "goals_mask"},
        ],
        "score_components": ["pts_a", "pts_b"],
        "length_column": "length", "length_unit": "player turns",
        "end_reason_names": ["days", "deck ran out"],
    }


def synthetic_logs(kind: str, n_games: int, seed: int = 7):
    """Columns (one row per game and seat) and the seats' strategies."""
    rng = np.random.default_rng(seed)
    if kind == "solo":
        strategies = ["planner"]
    elif kind == "single":
        strategies = ["greedy"] * 4
    else:
        strategies = ["planner", "greedy", "greedy", "random"]
    P = len(strategies)
    skill = {"planner": 3.0, "greedy": 1.5, "random": 0.0}
    rows = n_games * P
    game = np.repeat(np.arange(n_games), P)
    seat = np.tile(np.arange(P), n_games)
    # "rotated": the strategies move one seat on every game (each in each seat equally often)
    # and Seat 1 has a planted advantage of its own (+3 points) whatever its strategy
    slot = (seat + game) % P if kind == "rotated" else seat
    taken = rng.random((rows, len(CARD_NAMES))) < 0.25
    taken[:, NEVER_CARD] = False
    # a card is taken by at most one seat per game
    t3 = taken.reshape(n_games, P, -1)
    first = np.argmax(t3, axis=1)
    any_ = t3.any(axis=1)
    t3[:] = False
    gi, ci = np.nonzero(any_)
    t3[gi, first[gi, ci], ci] = True
    taken = t3.reshape(rows, -1)
    sk = np.array([skill[s] for s in strategies])[slot]
    pts_a = (taken * np.array(CARD_VALUES)).sum(axis=1) + 8 * taken[:, STRONG_CARD]
    pts_b = np.rint(rng.normal(10 + 2 * sk, 3)).astype(np.int64)
    if kind == "rotated":
        pts_b += 3 * (seat == 0)
    score = (pts_a + pts_b).astype(np.int64)
    if kind == "tied":
        score[:] = 30
    s2 = score.reshape(n_games, P)
    rank = (1 + (s2[:, None, :] > s2[:, :, None]).sum(axis=2)).ravel()
    top = s2 == s2.max(axis=1, keepdims=True)
    win = (top / top.sum(axis=1, keepdims=True)).ravel()
    mask = (taken.astype(np.int64) << np.arange(len(CARD_NAMES))).sum(axis=1)
    day = np.where(taken, rng.integers(1, 5, taken.shape), 0)
    day0 = (day[:, :16] << (4 * np.arange(16))).sum(axis=1)
    day1 = (day[:, 16:] << (4 * np.arange(4))).sum(axis=1)
    goals = rng.random((rows, 3)) < 0.3
    goals_mask = (goals.astype(np.int64) << np.arange(3)).sum(axis=1)
    end = np.repeat((rng.random(n_games) < 0.2).astype(np.int64), P)
    length = np.repeat(rng.integers(20, 30, n_games), P)
    cols = {"game": game, "seat": seat, "score": score, "rank": rank, "win": win,
            "length": length, "end_reason": end, "pts_a": pts_a, "pts_b": pts_b,
            "commissions_mask": mask, "goals_mask": goals_mask, "comm_day_0": day0,
            "comm_day_1": day1}
    if kind == "rotated":
        cols["strategy"] = np.array(strategies)[slot]
    return cols, strategies


def write_run(run_dir, cols: dict, strategies: list, chunk_games: int, game: str = "synthetic",
              complete: bool = True, drop_chunks: int = 0) -> str:
    """A run folder in the runner's format: manifest.json + chunks/chunk-*.parquet."""
    run_dir = str(run_dir)
    os.makedirs(os.path.join(run_dir, "chunks"), exist_ok=True)
    P = len(strategies)
    n_games = len(cols["game"]) // P
    uniq = sorted(set(strategies))
    codes = np.array([uniq.index(s) for s in strategies], dtype=np.int32)
    per_row = cols.get("strategy")   # the strategy of each row, when seats were rotated
    firsts = list(range(0, n_games, chunk_games))
    records = []
    for k, first in enumerate(firsts):
        if k >= len(firsts) - drop_chunks:
            break
        sl = slice(first * P, min(n_games, first + chunk_games) * P)
        n = sl.stop - sl.start
        arrays = {"run_id": pa.DictionaryArray.from_arrays(np.zeros(n, np.int32), pa.array(["synthetic0001"])),
                  "game": pa.array(cols["game"][sl].astype(np.int64)),
                  "seat": pa.array(cols["seat"][sl].astype(np.int64)),
                  "strategy": pa.DictionaryArray.from_arrays(
                      codes[cols["seat"][sl]] if per_row is None else
                      np.array([uniq.index(x) for x in per_row[sl]], np.int32), pa.array(uniq))}
        for name, a in cols.items():
            if name not in arrays:
                arrays[name] = pa.array(a[sl])
        path = os.path.join(run_dir, "chunks", f"chunk-{first:012d}.parquet")
        pq.write_table(pa.table(arrays), path)
        records.append(record_of_file(path, first, n // P))
    copy = b"# the synthetic game has no components\n"
    with open(os.path.join(run_dir, "components.toml"), "wb") as fh:
        fh.write(copy)
    manifest = {
        "tool": "balance-toolkit", "format": 2, "chunks": records, "config": {},
        "status": "complete" if complete else "running", "run_id": "synthetic0001", "game": game,
        "title": "Synthetic Game", "variant": "standard", "players": P,
        "strategy_names": strategies,
        "strategies": [{"name": s, "base": s, "params": {"skill": 1.0}, "source": "builtin"}
                       for s in strategies],
        "seed": 7, "games": n_games, "chunk_size": chunk_games, "n_chunks": len(firsts),
        "components": {"path": "<default>", "sha256": "ab" * 32, "copy": "components.toml",
                       "copy_sha256": hashlib.sha256(copy).hexdigest(), "overrides": []},
        "package_version": "0.1.0", "python": "3.11", "numba": "0.6x", "numpy": np.__version__,
        "command_line": ["balance", "run", game], "created": "2026-11-29T00:00:00+00:00",
        "sessions": [{"play_seconds": 1.5, "compile_seconds": 0.1, "games_per_second": 1000.0,
                      "workers": 2}],
        "timings": {"play_seconds": 1.5, "compile_seconds": 0.1, "games_per_second": 1000.0,
                    "workers": 2},
    }
    with open(os.path.join(run_dir, "manifest.json"), "w") as fh:
        json.dump(manifest, fh)
    return run_dir


def make_run(run_dir, kind: str, n_games: int = 3000):
    cols, strategies = synthetic_logs(kind, n_games)
    return write_run(run_dir, cols, strategies, chunk_games=700), synthetic_meta()


def _read(path) -> str:
    with open(path, encoding="utf-8") as fh:
        return fh.read()


@pytest.fixture
def no_warnings():
    with warnings.catch_warnings():
        warnings.simplefilter("error")   # a division by zero would warn
        yield


# --- the streaming pass against pandas ---------------------------------------------------------
def test_aggregation_matches_pandas(tmp_path, no_warnings):
    run, meta = make_run(tmp_path / "run", "mixed")
    a = analyse_run(run, metadata=meta)
    logs = read_logs(run)
    assert a.n_games == 3000 and a.players == 4
    # seats
    ws = logs.groupby("seat")["win"].mean().to_numpy()
    np.testing.assert_allclose(a.seats.win_share, ws)
    np.testing.assert_allclose(a.seats.score_mean, logs.groupby("seat")["score"].mean())
    np.testing.assert_allclose(a.seats.score_sd, logs.groupby("seat")["score"].std(ddof=1))
    # strategies
    st = a.strategy_table.set_index("strategy")
    ref = logs.groupby("strategy", observed=True)["win"].mean()
    for s in ref.index:
        assert st.loc[s, "win_share"] == pytest.approx(ref[s])
    # cards from the bitmask, one card at a time in plain pandas
    t = a.cards[0].table
    for c in (0, STRONG_CARD, 7, 17, NEVER_CARD):
        took = ((logs["commissions_mask"].to_numpy() >> c) & 1).astype(bool)
        assert t.taken[c] == took.sum()
        if took.any():
            assert t.win_taken[c] == pytest.approx(logs["win"][took].mean())
            assert t.win_not[c] == pytest.approx(logs["win"][~took].mean())
            assert t.score_taken[c] == pytest.approx(logs["score"][took].mean())
    # days: card 17 lives in the second day column, nibble 1
    d = ((logs["comm_day_1"].to_numpy() >> 4) & 15)
    np.testing.assert_array_equal(a.cards[0].days[17], np.bincount(d, minlength=16))
    # head to head: planner (seat 0) ahead of random (seat 3)
    wide = logs.pivot(index="game", columns="seat", values="rank")
    ahead = ((wide[0] < wide[3]) + 0.5 * (wide[0] == wide[3])).mean()
    assert a.h2h.loc["planner", "random"] == pytest.approx(ahead)
    # ties
    assert a.tie_rate == pytest.approx((logs.groupby("game")["win"].max() < 1).mean())
    # game shape
    per_game = logs.drop_duplicates("game")
    assert a.length["mean"] == pytest.approx(per_game["length"].mean())
    er = a.end_reasons.set_index("reason")
    assert er.loc["deck ran out", "share"] == pytest.approx((per_game["end_reason"] == 1).mean())
    # components
    comp = logs.groupby("strategy", observed=True)[["pts_a", "pts_b"]].mean()
    for s in comp.index:
        assert a.components.loc[s, "pts_b"] == pytest.approx(comp.loc[s, "pts_b"])


def test_chunk_order_and_rows_per_chunk_do_not_matter(tmp_path):
    cols, strategies = synthetic_logs("mixed", 1000)
    a1 = analyse_run(write_run(tmp_path / "a", cols, strategies, 1000), metadata=synthetic_meta())
    shuffled = {k: v.reshape(1000, 4)[:, ::-1].ravel() for k, v in cols.items()}  # seats reversed
    a2 = analyse_run(write_run(tmp_path / "b", shuffled, strategies, 137), metadata=synthetic_meta())
    np.testing.assert_allclose(a1.seats.win_share, a2.seats.win_share)
    np.testing.assert_array_equal(a1.cards[0].table.taken, a2.cards[0].table.taken)
    np.testing.assert_allclose(a1.ratings.theta, a2.ratings.theta)


# --- verdicts -----------------------------------------------------------------------------------
def test_verdicts_plain_words_and_flags(tmp_path, no_warnings):
    run, meta = make_run(tmp_path / "run", "rotated", n_games=6000)
    a = analyse_run(run, metadata=meta)
    text = "\n".join(verdict_lines(a))
    # seats rotated: the report opens with the seat verdicts, in the documented form; the
    # planted seat advantage is found, and no verdict is marked as confounded
    assert a.seats_rotated and not a.seat_confounded
    assert re.match(r"Seat 1 wins \d+\.\d+% \(\d+\.\d+ to \d+\.\d+\) against a fair 25%: favoured\.$",
                    verdict_lines(a)[0])
    assert "Seats were rotated" in text and "not rotated" not in text
    assert any(f.kind == "seat" and f.subject == "Seat 1" and f.effect_low > 0 for f in a.flags)
    assert "planner dominates" in text
    # the strong card is singled out, the never-taken card reported as such
    t = a.cards[0].table
    assert t.flag[STRONG_CARD] == "over-performs"
    others = t.drop(index=[STRONG_CARD, NEVER_CARD])
    assert t.win_taken_low[STRONG_CARD] > others.win_taken_high.max()
    assert t.flag[NEVER_CARD] == "never taken"
    assert "never taken" in text and "'Card 19'" in text
    subjects = [f.subject for f in a.flags]
    assert "Card 2 (commission)" in subjects
    f = next(f for f in a.flags if f.subject == "Card 2 (commission)")
    assert f.effect_low > 0 and f.games_to_halve == 18000
    # ratings order: planner > greedy > random
    assert list(a.ratings.strategy) == ["planner", "greedy", "random"]


def test_fixed_seats_with_different_strategies_give_no_seat_verdict(tmp_path, no_warnings):
    """The harm: "Seat 1 favoured" printed when Seat 1 is simply where the planner sat. With
    each seat keeping its own strategy the report withholds every seat verdict and flag,
    opens by saying why, and marks the strategy verdicts as including their seats."""
    run, meta = make_run(tmp_path / "run", "mixed", n_games=6000)
    files = write_report(run, str(tmp_path / "rep"), metadata=meta)
    a = files.analysis
    assert a.seat_confounded and not a.seats_rotated
    assert verdict_lines(a)[0].startswith("No seat verdict: each seat always played the same strategy")
    assert "--rotate-seats" in verdict_lines(a)[0]
    text = "\n".join(verdict_lines(a))
    assert not re.search(r"Seat \d wins .*: (favoured|disadvantaged|fair)", text)
    assert not any(f.kind == "seat" for f in a.flags)
    assert set(a.seats.verdict) == {"confounded"}
    planner = next(v for v in verdict_lines(a) if v.startswith("planner wins"))
    assert "seats not rotated" in planner
    seat_section = _read(files.markdown).split("## Seat fairness")[1].split("## Strategy strength")[0]
    assert "favoured" not in seat_section and "disadvantaged" not in seat_section
    assert "| confounded |" in seat_section and "No seat verdict" in seat_section


def test_solo_run_says_so(tmp_path, no_warnings):
    run, meta = make_run(tmp_path / "run", "solo")
    files = write_report(run, str(tmp_path / "rep"), metadata=meta)
    a = files.analysis
    assert a.solo and a.h2h is None and a.ratings is None
    assert verdict_lines(a)[0].startswith("Solo run (one seat, planner)")
    md = _read(files.markdown)
    assert "One seat: no seat comparison." in md
    assert "One seat: no strategy comparison." in md
    assert not re.search(r"\bnan\b|\binf\b", md)


def test_ties_everywhere_say_so(tmp_path, no_warnings):
    run, meta = make_run(tmp_path / "run", "tied")
    files = write_report(run, str(tmp_path / "rep"), metadata=meta)
    a = files.analysis
    assert a.all_tied_rate == 1.0 and a.tie_rate == 1.0
    assert any("Every game ended with all 4 seats tied" in v for v in verdict_lines(a))
    assert not any(f.kind == "seat" for f in a.flags)
    np.testing.assert_allclose(a.seats.win_share, 0.25)
    md = _read(files.markdown)
    assert not re.search(r"\bnan\b|\binf\b", md)


def test_one_strategy_everywhere(tmp_path, no_warnings):
    run, meta = make_run(tmp_path / "run", "single")
    a = write_report(run, str(tmp_path / "rep"), metadata=meta).analysis
    assert a.single_strategy and a.ratings is None
    assert "Every seat plays greedy: no strategy comparison." in verdict_lines(a)
    # seat fairness is meaningful here: no caution about strategies
    assert not any(v.startswith("Caution") for v in verdict_lines(a))


def test_game_without_metadata_gets_generic_sections(tmp_path, no_warnings):
    cols, strategies = synthetic_logs("mixed", 500)
    for k in ("commissions_mask", "goals_mask", "comm_day_0", "comm_day_1", "pts_a", "pts_b", "length"):
        del cols[k]
    run = write_run(tmp_path / "run", cols, strategies, 500, game="not-registered")
    files = write_report(run, str(tmp_path / "rep"))
    a = files.analysis
    assert a.cards == [] and a.components is None and a.length is None
    assert any("not registered" in n for n in note_lines(a.notes))
    html = _read(files.html)
    assert "Seat fairness" in html and "Strategy strength" in html


def test_metadata_naming_missing_columns_is_noted(tmp_path):
    cols, strategies = synthetic_logs("mixed", 300)
    del cols["comm_day_1"]
    run = write_run(tmp_path / "run", cols, strategies, 300)
    a = analyse_run(run, metadata=synthetic_meta())
    assert a.cards[0].days is None
    assert any("comm_day_1" in n for n in note_lines(a.notes))


# --- files and command line ------------------------------------------------------------------
def test_report_files(tmp_path):
    run, meta = make_run(tmp_path / "run", "mixed")
    files = write_report(run, str(tmp_path / "rep"), metadata=meta)
    html = _read(files.html)
    md = _read(files.markdown)
    # verdicts first, then evidence, then what was run
    order = [html.index(x) for x in ("<h2>Verdicts</h2>", "<h2>Seat fairness</h2>",
                                     "<h2>Commissions</h2>", "<h2>What was run</h2>")]
    assert order == sorted(order)
    assert html.count("data:image/png;base64,") >= 8
    assert "http://" not in html and "https://" not in html
    assert "ab" * 32 in html and "Synthetic Game" in html      # component hash, game
    for m in re.finditer(r"!\[[^\]]*\]\((figures/[^)]+\.png)\)", md):
        assert os.path.getsize(os.path.join(tmp_path, "rep", m.group(1))) > 1000
    assert md.index("## Verdicts") < md.index("## What was run")


def test_cli_report_missing_and_incomplete_folders(tmp_path, capsys):
    assert cli_main(["report", str(tmp_path / "nope")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"balance: error: {tmp_path / 'nope'}: no such run folder"]
    (tmp_path / "empty").mkdir()
    assert cli_main(["report", str(tmp_path / "empty")]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
    cols, strategies = synthetic_logs("mixed", 1000)
    inc = write_run(tmp_path / "inc", cols, strategies, 250, complete=False, drop_chunks=2)
    assert cli_main(["report", inc, "--no-progress"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "incomplete (2 of 4 chunks" in err[0]
    assert not os.path.exists(os.path.join(inc, "report"))
    assert cli_main(["report", inc, "--format", "pdf"]) == 2
    assert "--format" in capsys.readouterr().err


def test_cli_report_partial_and_format(tmp_path, capsys, monkeypatch):
    import analysis.balance as balance
    cols, strategies = synthetic_logs("mixed", 1000)
    inc = write_run(tmp_path / "inc", cols, strategies, 250, complete=False, drop_chunks=1)
    monkeypatch.setattr(balance, "game_metadata", lambda spec, comp=None: synthetic_meta())
    assert cli_main(["report", inc, "--partial", "--format", "md", "--out",
                     str(tmp_path / "out"), "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "balance report of 750 games" in out
    assert os.path.isfile(tmp_path / "out" / "report.md")
    assert not os.path.exists(tmp_path / "out" / "report.html")


def test_toy_game_run_with_report(toy_registry, in_tmp, capsys):
    """`balance run ... --report` on a registered game without report metadata (seats
    rotated, so that the report has seat verdicts to give)."""
    rc = cli_main(["run", "toy", "--players", "3", "--games", "600", "--strategies",
                   "greedy,random,greedy", "--workers", "1", "--no-progress", "--out", "r",
                   "--report", "--rotate-seats"])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert "balance report of 600 games" in out
    assert os.path.isfile("r/report/report.html") and os.path.isfile("r/report/report.md")
    md = _read("r/report/report.md")
    assert "Seat 1 wins" in md and "## Commissions" not in md
