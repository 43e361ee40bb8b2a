"""Labels say what a number is (issue 11, item 7): a card's value is printed with the unit its
game declares (points, favor tokens, tool number, ...), "points" only for points, and outcomes
that are not cards (Grand Surfers' skill against the table, surfers lost) get their own
section, without values. Before: "Tool cards used 'Glazing Hammer' (7 points)"."""
from __future__ import annotations

import math

import numpy as np

from analysis.metadata import normalise, value_text
from reports.findings import verdict_lines


def test_a_value_is_printed_with_its_own_unit():
    assert value_text("points", 7) == "7 points"
    assert value_text("points", 1) == "1 point"
    assert value_text("favor tokens", 5) == "5 favor tokens"
    assert value_text("tool number", 7) == "tool number 7"
    assert value_text("", 1) == "" and value_text("points", math.nan) == ""


def test_an_undeclared_unit_is_points_and_an_outcome_has_none():
    meta = {"cards": [{"type": "c", "label": "Cs", "names": ["a"], "values": [2], "mask_column": "m"},
                      {"type": "o", "label": "Os", "names": ["x"], "values": [0], "mask_column": "m",
                       "kind": "outcome"}]}
    out, _ = normalise(meta, ["m"])
    assert [(c["unit"], c["kind"]) for c in out["cards"]] == [("points", "card"), ("", "outcome")]


def test_every_shipped_game_declares_the_unit_of_each_card_type():
    from sim.games.sagrada import SPEC as SAGRADA
    from sim.games.sunset import SPEC as SUNSET
    from sim.games.surfers import SPEC as SURFERS
    units = {}
    for spec in (SAGRADA, SUNSET, SURFERS):
        for card in spec.report_metadata()["cards"]:
            assert "unit" in card, (spec.name, card["type"])
            units[(spec.name, card["type"])] = (card["unit"], card.get("kind", "card"))
    assert units[("sagrada", "tool")] == ("tool number", "card")
    assert units[("sagrada", "window")] == ("favor tokens", "card")
    assert units[("sunset", "commission")] == ("points", "card")
    assert units[("surfers", "skill")][1] == "outcome"
    assert units[("surfers", "lost")][1] == "outcome"


def test_tool_verdicts_say_tool_number_and_outcomes_have_their_own_section(tmp_path):
    """A planted run through the real report: a tool card over-performs; its verdict names
    its tool number, never points; its table has no points-per-game column; the outcome
    type is its own "Outcomes" section."""
    from reports.build import analyse_run
    from reports.document import build_document
    from tests.test_report import write_run   # the report tests' run-folder writer

    meta = {"cards": [
        {"type": "tool", "label": "Tool cards used", "names": ["Glazing Hammer", "Lathekin"],
         "values": [7, 5], "mask_column": "tools_mask", "unit": "tool number"},
        {"type": "lost", "label": "Surfers lost", "names": ["lost one", "lost none"],
         "values": [0, 0], "mask_column": "lost_mask", "kind": "outcome", "unit": ""}]}
    rng = np.random.default_rng(3)
    G = 3000
    hammer = rng.integers(0, 2, G).astype(bool)       # seat 1 takes the hammer in half the games
    win0 = rng.random(G) < np.where(hammer, 0.8, 0.5)
    lost = rng.integers(0, 2, G)
    win = np.stack([win0, ~win0], axis=1).astype(float).ravel()
    seat = np.tile([0, 1], G)
    cols = {"game": np.repeat(np.arange(G), 2), "seat": seat, "win": win,
            "rank": np.where(win > 0, 1, 2).astype(np.int64), "score": 10 * win,
            "end_reason": np.zeros(2 * G, np.int64),
            "tools_mask": np.where((seat == 0) & np.repeat(hammer, 2), 1, 2).astype(np.int64),
            "lost_mask": np.where(np.repeat(lost, 2) == seat, 1, 2).astype(np.int64)}
    run = write_run(tmp_path / "run", cols, ["greedy", "greedy"], chunk_games=1000)
    a = analyse_run(run, metadata=meta)
    hammer_lines = [v for v in verdict_lines(a) if v.startswith("Glazing Hammer (tool")]
    assert hammer_lines[0].startswith("Glazing Hammer (tool, tool number 7) over-performs")
    assert not any("points)" in v for v in verdict_lines(a))
    doc = build_document(a, [])
    titles = [s.title for s in doc.sections]
    assert "Outcomes: Surfers lost" in titles and "Surfers lost" not in titles
    tools = next(s for s in doc.sections if s.title == "Tool cards used")
    table = next(b for b in tools.blocks if hasattr(b, "headers"))
    assert "value (tool number)" in table.headers and "points per game" not in table.headers
    outcome = next(s for s in doc.sections if s.title == "Outcomes: Surfers lost")
    table = next(b for b in outcome.blocks if hasattr(b, "headers"))
    assert table.headers[0] == "outcome" and not any("value" in h for h in table.headers)
    from reports.figures import make_figures
    figs = {f.key: f for f in make_figures(a)}
    assert figs["cards-lost"].title == "Surfers lost: effect of each outcome"


def test_a_card_is_named_the_same_in_the_flags_the_card_worth_and_balance_cards():
    """One naming of a component everywhere a reader sees it (issue 24, item 6): the report's
    flag, the card-worth verdicts and `balance cards --takers` all say "Hidden Gem (card, 6
    points)" (analysis.metadata.component_name), never "Card 'Hidden Gem' (6)"."""
    from analysis.findings import Finding
    from analysis.metadata import component_name
    from reports.cards import _name as takers_name
    from reports.findings import flag_text
    from reports.worth_words import card_name
    want = "Hidden Gem (card, 6 points)"
    assert component_name("Hidden Gem", "card", value_text("points", 6)) == want
    flag = Finding("card", component_name("Hidden Gem", "card"), "never taken", "taken", 0.0,
                   detail={"value_text": "6 points", "label": "Cards", "games": 100,
                           "name": "Hidden Gem", "type": "card"})
    assert flag_text(flag).startswith(f"{want} was never taken")
    row = {"name": "Hidden Gem", "type": "card", "label": "Cards", "value": 6.0,
           "unit": "points"}
    assert card_name(row) == want and takers_name(row) == want
    assert card_name({**row, "unit": "favor tokens", "value": 1.0}) == \
        "Hidden Gem (card, 1 favor token)"
