"""The analysis layer returns its notes on method and input as data (analysis.findings.Note:
a code and numbers); reports/notes.py writes the sentences (issue 14: sentence-making moves
to reports/). Harms prevented: a note written as English inside analysis/ (the terminal, the
report and the API could no longer word it alike, nor a notebook read its numbers), and a
note code analysis emits that no renderer knows (a crash at print time)."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from analysis.findings import Note
from analysis.ratings import WHY_CODES, fit_plackett_luce
from reports.notes import note_text, why_text

ROOT = Path(__file__).resolve().parent.parent


def _note_codes_in_analysis() -> dict:
    """code -> keys of its detail, for every Note("code", {...}) written in analysis/ or in
    the facade (sim/api/: the report's card checks play there and return notes)."""
    codes = {}
    files = sorted((ROOT / "analysis").glob("*.py")) + sorted((ROOT / "sim/api").glob("*.py"))
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id == "Note"):
                code = node.args[0]
                assert isinstance(code, ast.Constant), f"{path.name}:{node.lineno}: a literal code"
                keys = []
                if len(node.args) > 1 and isinstance(node.args[1], ast.Dict):
                    keys = [k.value for k in node.args[1].keys]
                codes[code.value] = keys
    return codes


def test_every_note_code_that_analysis_emits_has_a_sentence():
    codes = _note_codes_in_analysis()
    assert {"ratings-fit", "ratings-not-estimable", "unregistered-game",
            "card-check-limited"} <= set(codes)
    sample = {"iterations": 3, "converged": True, "orders": 2, "games": 10, "prior": 1.0,
              "confidence": 0.95, "why": "never-ahead", "names": ["a"], "strategy": "a",
              "game": "g", "column": "c", "label": "L", "cards": 70, "columns": ["d1"],
              "days": 1, "kind": "k", "values": 3, "checked": 5, "flagged": 9}
    for code, keys in codes.items():
        text = note_text(Note(code, {k: sample[k] for k in keys}))
        assert text and text[0] != " ", code


def test_notes_appended_in_analysis_are_notes_not_sentences():
    """No `notes.append(<string>)` / `notes.append(f"...")` left in analysis/."""
    found = []
    for path in sorted((ROOT / "analysis").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in ("append", "extend")
                    and isinstance(node.func.value, ast.Name) and "note" in node.func.value.id
                    and node.args and isinstance(node.args[0], (ast.JoinedStr, ast.Constant,
                                                                ast.BinOp))):
                found.append(f"{path.name}:{node.lineno}")
    assert not found, found


def test_the_rating_note_is_data_and_reads_as_before():
    note = Note("ratings-fit", {"iterations": 12, "converged": False, "orders": 7, "games": 1234,
                                "prior": 1.0, "confidence": 0.95})
    assert note_text(note) == (
        "Plackett-Luce (MM algorithm of Hunter 2004, 12 iterations, NOT converged) on 7 "
        "distinct finishing orders of 1,234 games, 1 virtual game each way per pair of "
        "strategies as a prior; theta = log strength centred on 0 with 95% intervals from the "
        "Fisher information; 'ahead of' = the model's chance of finishing ahead of the named "
        "strategy in a two-seat comparison")
    not_est = Note("ratings-not-estimable", {"why": "never-behind", "names": ["greedy"],
                                             "games": 600})
    assert note_text(not_est) == (
        "Plackett-Luce ratings not estimable: greedy finished ahead of every other strategy in "
        "every game in these 600 games, so no finite strength fits the games (the "
        "head-to-head table and win shares still hold)")


def test_the_rating_fit_hands_back_its_numbers():
    """analysis.tables.ratings: the note of a fit carries the fit's counts, not words."""
    import numpy as np
    import pandas as pd

    from analysis.tables import aggregate_frame, ratings
    G = 200
    rng = np.random.default_rng(3)
    first = rng.random(G) < 0.6                     # "a" finishes first in 60% of the games
    logs = pd.DataFrame({
        "game": np.repeat(np.arange(G), 2), "seat": np.tile([0, 1], G),
        "strategy": np.tile(["a", "b"], G),
        "rank": np.column_stack([np.where(first, 1, 2), np.where(first, 2, 1)]).ravel(),
        "win": np.column_stack([first, ~first]).ravel().astype(float),
        "score": np.column_stack([first, ~first]).ravel().astype(float)})
    agg = aggregate_frame(logs)
    idx = [agg.strategies.index("a"), agg.strategies.index("b")]
    table, note = ratings(agg, idx, ["a", "b"])
    assert table is not None and note.code == "ratings-fit"
    assert (note.get("games"), note.get("orders"), note.get("prior")) == (G, 2, 1.0)
    assert f"of {G} games" in note_text(note)


@pytest.mark.parametrize("code", WHY_CODES)
def test_every_why_code_has_words_for_strategies_and_levels(code):
    names = ["a", "b"] if code == "split" else ["a"]
    assert why_text(code, names).startswith(("a ", "the strategies "))
    assert "strateg" not in why_text(code, names, "level")


def test_why_names_the_strategy_that_never_finished_ahead():
    fit = fit_plackett_luce([((0, 1), 5.0), ((0, 1), 3.0)], 2)
    assert (fit.why, fit.why_items) == ("never-behind", (0,))
    assert why_text(fit.why, ["x"]) == "x finished ahead of every other strategy in every game"
