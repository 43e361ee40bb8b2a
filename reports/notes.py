"""The sentences of the analysis layer's notes on method and input (analysis.findings.Note)
and of why Plackett-Luce ratings are not estimable (analysis.ratings.PLFit.why). The
analysis returns codes and numbers; the terminal, the report and the API text come from here.
"""
from __future__ import annotations


def why_text(code: str, names, noun: str = "strategy") -> str:
    """Why no maximum-likelihood strength exists (a code of analysis.ratings.WHY_CODES), the
    items it names given by name; `noun` is what the items are ("strategy", "level")."""
    names = [str(n) for n in names]
    plural = "levels" if noun == "level" else noun[:-1] + "ies" if noun.endswith("y") else noun + "s"
    if code == "no-game":
        return f"{names[0]} played no game against another {noun}"
    if code == "never-behind":
        return f"{names[0]} finished ahead of every other {noun} in every game"
    if code == "never-ahead":
        return f"{names[0]} never finished ahead of another {noun}"
    if code == "split":
        i, j = names   # i never finished ahead of j (analysis.ratings.not_estimable)
        return (f"the {plural} split into groups that never finished behind each other "
                f"({i} never finished ahead of {j}, even through others)")
    return code


def note_text(note) -> str:
    """The sentence of one note: a Note, or a line already written (the run folder's notes
    come from the engine layer as text)."""
    if note is None:
        return ""
    if isinstance(note, str):
        return note
    d = note.detail
    code = note.code
    if code == "ratings-fit":
        return (f"Plackett-Luce (MM algorithm of Hunter 2004, {d['iterations']} iterations"
                f"{'' if d['converged'] else ', NOT converged'}) on {d['orders']} distinct "
                f"finishing orders of {d['games']:,} games, {d['prior']:g} virtual game each "
                f"way per pair of strategies as a prior; theta = log strength centred on 0 "
                f"with {int(round(d['confidence'] * 100))}% intervals from the Fisher "
                f"information; 'ahead of' = the model's chance of finishing ahead of the named "
                f"strategy in a two-seat comparison")
    if code == "ratings-no-orders":
        return "no finishing orders recorded (too many seats and strategies to encode)"
    if code == "ratings-not-estimable":
        return (f"Plackett-Luce ratings not estimable: {why_text(d['why'], d['names'])} in "
                f"these {d['games']:,} games, so no finite strength fits the games (the "
                f"head-to-head table and win shares still hold)")
    if code == "ratings-solo":
        return "one seat: no ratings"
    if code == "ratings-single":
        return f"every seat plays {d['strategy']}: nothing to rate"
    if code == "unregistered-game":
        return f"game '{d['game']}' is not registered here: generic sections only"
    if code == "missing-score-component":
        return f"score component column '{d['column']}' is not in the logs; left out"
    if code == "missing-length-column":
        return f"game length column '{d['column']}' is not in the logs; left out"
    if code == "cards-no-names":
        return f"{d['label']}: no card names declared; left out"
    if code == "cards-missing-mask":
        return f"{d['label']}: mask column '{d['column']}' is not in the logs; left out"
    if code == "cards-too-many":
        return (f"{d['label']}: {d['cards']} cards do not fit a 64-bit mask; "
                f"only the first 64 are analysed")
    if code == "cards-missing-days":
        return (f"{d['label']}: day columns {', '.join(d['columns'])} are not in the logs; "
                f"no timing of when cards are taken")
    if code == "cards-too-few-days":
        return (f"{d['label']}: {d['days']} day columns hold 16 cards each, fewer than "
                f"the {d['cards']} cards; no timing")
    if code == "cards-unknown-kind":
        return f"{d['label']}: unknown kind '{d['kind']}' (card, outcome); read as a card"
    if code == "breakdown-missing-column":
        return f"{d['label']}: column '{d['column']}' is not in the logs; left out"
    if code == "values-pooled":
        return f"{d['values']} rarer values pooled as 'other'"
    if code == "card-check-user-strategies":
        return "card response not checked: the run plays user strategies"
    if code == "card-check-crashed":
        return (f"card worth not checked: the counterfactual kernel of {d['game']} crashed "
                f"(a known defect: docs/card-worth.md, \"Known problems\"); the card lines "
                f"say it was not measured")
    if code == "card-check-limited":
        return (f"card response checked for the {d['checked']} strongest of the "
                f"{d['flagged']} flagged cards")
    raise ValueError(f"no sentence for note code {code!r}")


def note_lines(notes) -> list:
    return [note_text(n) for n in notes]
