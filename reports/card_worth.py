"""The sentences and the document of a card's worth by counterfactual play (analysis/
card_worth.py measures; docs/card-worth.md defines the estimand and the wording).

Every verdict says what was played: the advantage is measured on decisions where the card was
an option, against the seat's own best alternative, with these players; how often the players
chose the card is a description of their play, labelled as such.
"""
from __future__ import annotations

import math

from analysis.card_worth import MIN_STATES, NOT_CHOSEN
from analysis.metadata import component_name
from reports.document import Document, Section, Table
from reports.worth_words import (_ci_num, _ci_pp, _one, _pp, _value,  # noqa: F401 (re-exported)
                                 advantage_text, card_name, chosen_text, parity_text)


def verdict_line(row: dict) -> str:
    """One card's verdict (the verdict codes of analysis/card_worth.py)."""
    code = row["verdict"]
    name = card_name(row)
    if code == "not-an-option":
        return (f"{name}: never among the options of these players' decisions in the games "
                f"scanned: its worth is not measured.")
    if code == "too-few-states":
        return (f"{name}: only {row['states']} sampled decisions where it was an option (fewer "
                f"than {MIN_STATES}): no verdict; scan more games (--games).")
    side = code.replace("not-chosen-", "")
    if code.startswith("not-chosen-"):
        head = f"{name} is not chosen by these players ({chosen_text(row)})"
        tail = {"helps": "it would help: the players miss it",
                "hurts": "it would not help: the card is weak",
                "no-advantage": "it would not help beyond the interval",
                "unclear": "its advantage is unclear"}[side]
        line = f"{head}; {advantage_text(row)}: {tail}."
    else:
        tail = {"helps": "the card is strong for these players",
                "hurts": "the card is weak for these players",
                "no-advantage": "no advantage beyond the interval",
                "unclear": "its advantage is unclear"}[side]
        line = (f"{name}: {advantage_text(row)}: {tail}. A description of play: "
                f"{chosen_text(row)}.")
    s = row.get("suggested")
    if s is not None:
        line += (f" Parity (no advantage) at {parity_text(row)}: a value of {_value(s)} "
                 f"would about remove the advantage.")
    elif row.get("parity_nearest") is not None:
        line += (f" Parity (no advantage) at {parity_text(row)}: the nearest whole value is "
                 f"its own ({_value(row['parity_nearest'])}), no change suggested.")
    elif row.get("parity_refused") is not None:
        line += (f" Parity (no advantage) at {parity_text(row)}, but the component file does "
                 f"not allow {_value(row['parity_refused'])}: no value of the card alone "
                 f"removes the advantage (the options that take it are better for more than "
                 f"its value).")
    elif side in ("helps", "hurts") and math.isfinite(row.get("parity", math.nan)):
        line += (" Its value does not bring it to parity in the direction that would reduce "
                 "the advantage (no value suggested).")
    return line


def _order(row: dict) -> tuple:
    m = row["win"][0]
    return (row["verdict"] == "not-an-option", -abs(m) if math.isfinite(m) else 0.0)


def verdict_lines(rows: list) -> list:
    """The verdicts, strongest advantage first; cards never an option last."""
    measured = [r for r in rows if r["verdict"] != "not-an-option"]
    lines = [verdict_line(r) for r in sorted(measured, key=_order)]
    never = [r for r in rows if r["verdict"] == "not-an-option"]
    if never:
        lines.append("Never among the options of the decisions scanned (not measured): "
                     + ", ".join(card_name(r) for r in never) + ".")
    return lines


HEADERS = ["card", "value", "chosen when an option (play)", "states x play-ons",
           "win share advantage (95%)", "score advantage (95%)", "parity value (95%)",
           "suggested value", "verdict"]


def table_rows(rows: list) -> list:
    out = []
    for r in rows:
        chosen = ("" if not math.isfinite(r["chosen_rate"]) else
                  f"{100 * r['chosen_rate']:.1f}% of {r['options']:,}")
        out.append([component_name(r["name"], r["type"]), _value(r["value"]), chosen,
                    f"{r['states']:,} x {r.get('playons', 1)}", _ci_pp(r["win"]),
                    _ci_num(r["score"]),
                    parity_text(r), "" if r.get("suggested") is None else
                    f"{r['suggested']:.1f}", r["verdict"]])
    return out


def worth_document(rows: list, header: dict) -> Document:
    title = header.get("title", header.get("game", ""))
    what = [f"game: {title}, {header.get('players')} players, strategies "
            f"{', '.join(header.get('strategies', []))}, seed {header.get('seed')}",
            f"{header.get('scan_games', 0):,} games scanned: {header.get('decisions', 0):,} "
            f"decisions where a card was among some but not all options",
            f"{header.get('sampled', 0):,} sampled states (at most "
            f"{header.get('states_per_card', 0):,} per card, one per game and card), "
            f"{header.get('playons', 1)} play-on(s) per state and branch (more, up to "
            f"{header.get('most_playons', 8)}x, for a card with fewer sampled states than "
            f"asked: the column 'states x play-ons')",
            f"card values moved by {', '.join(f'{o:+g}' for o in header.get('offsets', []))} "
            f"on the same states for the parity value" if header.get("offsets") else
            "no parity values (no value offsets)",
            f"component file {header.get('components')}"
            + (f", --set {' '.join(header.get('overrides'))}" if header.get("overrides") else ""),
            *header.get("notes", [])]
    method = (
        "A sampled state is a decision of a game played by these players from the run's seed "
        "in which some of the deciding seat's options bring the card (it enters the seat's "
        "cards by the end of its turn) and some do not. From a copy of the state the seat's "
        "own strategy chooses among the options that bring the card (card branch) and among "
        "the others (alternative branch: what it would do without the card); both play to the "
        "end with the same players, the same chance streams and the same hidden information "
        "(play-ons after the first redraw what the seat cannot see, identically in both "
        "branches). The advantage is the mean paired difference of the seat's win share (ties "
        "split) and score, with a 95% normal interval over the states (one per game and card: "
        "independent). The parity value is where the line fitted through the advantage at the "
        "card's values played (same states) crosses 0 (bootstrap interval over the states). "
        f"'Not chosen by these players': chosen in fewer than {100 * NOT_CHOSEN:.0f}% of the "
        "decisions where it was an option. How often a card is chosen describes the players, "
        "not the card. Definitions: docs/card-worth.md.")
    return Document(f"Card worth: {title}",
                    f"{header.get('players')} players: each card's advantage when taken, by "
                    f"counterfactual play",
                    [Section("Verdicts", "verdicts", [verdict_lines(rows)]),
                     Section("Evidence", "evidence", [Table(HEADERS, table_rows(rows),
                             "Paired over sampled decision states (common random numbers).")]),
                     Section("What was run", "run", [what]),
                     Section("Method", "method", [method])])
