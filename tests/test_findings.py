"""Verdicts and flags are data (analysis/findings.py); sentences are made in one place
(reports/findings.py). The harms: an analysis that can only be read as English (a notebook
user parsing "27.50%" out of a sentence), and two places writing the same verdict in two
ways."""
from __future__ import annotations

import math

from reports.build import analyse_run
from analysis.findings import FIELDS, Finding
from reports.findings import findings_table, flag_text, sentence, verdict_lines
from tests.test_report import NEVER_CARD, STRONG_CARD, make_run


def test_a_fixed_run_gives_its_verdicts_and_flags_as_findings(tmp_path):
    """The synthetic run of tests/test_report.py (seats rotated, seat 1 advantaged, planner
    strongest, card 2 planted strong, card 19 never taken): the analysis states each of
    these as a Finding with its kind, subject, verdict code and numbers, and no text."""
    run, meta = make_run(tmp_path / "run", "rotated", n_games=6000)
    a = analyse_run(run, metadata=meta)
    assert all(isinstance(f, Finding) for f in a.findings + a.flags)
    assert not any(hasattr(f, "text") for f in a.findings + a.flags)
    kinds = [(f.kind, f.subject) for f in a.findings]
    assert kinds[:5] == [("seat", "Seat 1"), ("seat", "Seat 2"), ("seat", "Seat 3"),
                         ("seat", "Seat 4"), ("seating", "seats")]
    seat1 = a.findings[0]
    assert seat1.verdict == "favoured" and seat1.statistic == "win_share"
    assert seat1.low < seat1.value < seat1.high and seat1.reference == 0.25
    assert seat1.p_holm < 0.05 and seat1.effect_low > 0 and seat1.unit == "pp"
    assert seat1.value == a.seats.win_share[0] and seat1.p_holm == a.seats.p_holm[0]
    assert a.findings[4].verdict == "rotated"
    strategies = {f.subject: f.verdict for f in a.findings if f.kind == "strategy"}
    assert set(strategies) == {"planner", "greedy", "random"}
    assert strategies["planner"] == "above" and strategies["random"] == "below"
    dom = next(f for f in a.findings if f.kind == "dominance")
    assert dom.subject == "planner" and dom.get("closest") > 0.5
    card = next(f for f in a.flags if f.subject == f"Card {STRONG_CARD} (commission)")
    assert (card.kind, card.verdict, card.statistic) == ("card", "over-performs",
                                                         "takers_win_share")
    assert card.effect_low > 0 and card.value > card.reference
    never = next(f for f in a.findings if f.kind == "card-never" and f.subject == "Commissions")
    assert f"Card {NEVER_CARD}" in never.get("names") and never.value == 1
    # the flags are findings too, the same objects as their verdict lines
    assert seat1 in a.flags and dom in a.flags
    # and the table the API returns (sim.api Run.findings)
    t = findings_table(a)
    assert list(t.columns) == FIELDS + ["is_verdict", "is_flag", "sentence"]
    row = t.iloc[0]
    assert (row.kind, row.subject, row.verdict, bool(row.is_flag)) == ("seat", "Seat 1",
                                                                      "favoured", True)
    assert list(t.sentence[t.is_verdict]) == verdict_lines(a)
    never_flag = t[(t.kind == "card") & (t.verdict == "never taken")]
    assert list(never_flag.subject) == [f"Card {NEVER_CARD} (commission)"]
    assert not never_flag.is_verdict.any() and never_flag.is_flag.all()


def test_the_sentence_renderer_writes_a_hand_made_finding():
    """One hand-made finding of each common kind, and the exact sentence the report prints
    for it (in the one number format of sim/formatting.py)."""
    seat = Finding("seat", "Seat 1", "favoured", "win_share", 0.275, 0.2731, 0.2769, 0.25,
                   p_holm=0.0012, effect=0.025, effect_low=0.0231, effect_high=0.0269, unit="pp")
    assert sentence(seat) == "Seat 1 wins 27.50% (27.31 to 27.69) against a fair 25%: favoured."
    assert flag_text(seat) == ("Seat 1 is favoured: +2.50 points of win share "
                               "(Holm-adjusted p = 0.0012)")
    fair = Finding("seat", "Seat 2", "fair", "win_share", 1 / 3, 0.32, 0.345, 1 / 3, p_holm=0.9)
    assert sentence(fair) == ("Seat 2 wins 33.33% (32.00 to 34.50) against a fair 33.3%: fair "
                              "(no significant difference).")
    card = Finding("card", "Cascade Diptych (commission)", "over-performs", "takers_win_share",
                   0.584, 0.578, 0.589, 0.252, 0.251, 0.253, effect=0.332, effect_low=0.32,
                   effect_high=0.34, unit="pp",
                   detail={"value_text": "8 points", "label": "Commissions", "game": "sunset",
                           "response": None, "name": "Cascade Diptych", "type": "commission"})
    assert sentence(card) == (
        "Cascade Diptych (commission, 8 points) over-performs: its takers win 58.40% "
        "(57.80 to 58.90) against 25.20% (25.10 to 25.30) for the takers of the other "
        "commissions; this is an association: the card's own advantage is not measured by one "
        "run (`balance cards sunset` measures it).")
    strat = Finding("strategy", "planner", "above", "win_share", 0.424, 0.42, 0.429, 0.25,
                    p_holm=1e-20, detail={"seats": "every seat, rotated", "confounded": False})
    assert sentence(strat) == ("planner wins 42.40% (42.00 to 42.90) of its games (every seat, "
                               "rotated), above a fair 25%.")
    ties = Finding("ties", "shared wins", "none", "tie_share", 0.0, 0.0, 0.001,
                   detail={"median_lead": 7.0})
    assert sentence(ties) == "No game ended in a shared win; the winner's median lead is 7 points."
    assert math.isnan(Finding("seat", "x").value)     # numbers missing are nan, not 0
