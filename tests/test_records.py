"""sim.records.declare: a game's log columns declared once (issue 12, item 4).

The harm prevented: a record missing a column the platform relies on (win, illegal,
choices), two columns under one name, or a float column silently stored as an integer."""
from __future__ import annotations

import numpy as np
import pytest

from sim.records import declare

BASE = (("game", "i8", "g"), ("seat", "i8", "s"), ("score", "i8", "x"), ("rank", "i8", "r"),
        ("win", "f8", "w"))
TAIL = (("illegal", "i8", "i"), ("choices", "i8", "c"))


def test_declared_types_names_and_descriptions_are_kept():
    rec = declare(*BASE, ("mean_gap", "f8", "a float stays a float"), *TAIL)
    assert rec.names == ("game", "seat", "score", "rank", "win", "mean_gap", "illegal", "choices")
    assert rec.dtype["mean_gap"] == np.float64 and rec.dtype["score"] == np.int64
    assert ("mean_gap", "a float stays a float") in rec.columns
    rows = rec.empty(3)
    rows["mean_gap"][1] = 0.25
    cols = rec.to_columns(rows)
    assert list(cols) == list(rec.names) and cols["mean_gap"][1] == 0.25
    assert all(c.flags.c_contiguous for c in cols.values())


@pytest.mark.parametrize("fields, why", [
    (BASE + (("win", "f8", "again"),) + TAIL, "declared twice"),
    (BASE[1:] + TAIL, "starts with the columns"),
    (BASE + (("illegal", "i8", "i"),), "choices"),
    (BASE + (("x", "U3", "text"),) + TAIL, "not a scalar number type"),
    (BASE + (("bad name", "i8", "?"),) + TAIL, "identifier"),
])
def test_a_bad_declaration_is_refused(fields, why):
    with pytest.raises(ValueError, match=why):
        declare(*fields)
