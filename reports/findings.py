"""Findings in words: the one place where a run's verdicts and flags (analysis/findings.py
`Finding`, data made by analysis/balance.py) become the sentences the terminal, the Markdown
and the HTML report print.

    sentence(f)        the verdict line ("Seat 1 wins 27.50% (27.31 to 27.69) against a fair
                       25%: favoured.")
    flag_text(f)       the flag table's "what" ("Seat 1 is favoured: +2.50 points of win share
                       (Holm-adjusted p = 0.0001)")
    verdict_lines(a)   every verdict line of a BalanceAnalysis, in reading order
    flag_lines(a)      every flag's text

Numbers are written by the one formatting module (sim/formatting.py).
"""
from __future__ import annotations

from sim import formatting as F
from analysis.cards import baseline_name, response_word
from analysis.findings import Finding
from analysis.metadata import component_name

# said of a strategy's share when the seats were not rotated
CONFOUNDED_STRATEGY = (" (seats not rotated: the advantage or handicap of its seats is part "
                       "of this)")


def _confounded(f: Finding) -> str:
    return CONFOUNDED_STRATEGY if f.get("confounded") else ""


def _share(f: Finding) -> str:
    """The finding's value as a share with its interval, digits as the interval needs."""
    return F.share_interval(f.value, f.low, f.high, F.digits_for(f.low, f.high))


def _wins_against_fair(f: Finding, tail: str) -> str:
    return (f"{f.subject} wins {_share(f)} against a fair {F.fair_share(f.reference)}: "
            f"{f.verdict}{tail}.")


def _is_fair(f: Finding) -> bool:
    return f.verdict == "fair"


def _pp_flag(f: Finding) -> str:
    return (f"{f.subject} is {f.verdict}: {100 * (f.value - f.reference):+.2f} points of win "
            f"share (Holm-adjusted {F.p_text(f.p_holm)})")


# --- one function per kind: the verdict line -------------------------------------------------
def _seat(f):
    return _wins_against_fair(f, " (no significant difference)" if _is_fair(f) else "")


def _headline(f):
    return _wins_against_fair(f, " (no significant difference)" if _is_fair(f) else
                              f" (Holm-adjusted {F.p_text(f.p_holm)})")


def _association(f):
    if f.verdict == "no association":
        tail = "no association beyond chance"
    else:
        tail = (f"{f.verdict} than a fair share, an association (the seats were grouped after "
                f"the game by what happened in it), not an effect")
    return (f"{f.subject}: these seats win {_share(f)} against a fair "
            f"{F.fair_share(f.reference)}: {tail} (Holm-adjusted {F.p_text(f.p_holm)}).")


def _outcome(f):
    return (f"{f.subject}: {_share(f)} of games ({f.get('games'):,}); a game-level outcome, the "
            f"same for every seat, so it has no fair share to test (mean score "
            f"{F.num(f.get('mean_score'), 2)}).")


def _start_note(f):
    return f"Start position: {f.get('note')}."


def _seat_order(f):
    note = f.get("note") or ""
    return "Seat numbers come second" + (f": {note}" if note else "") + "."


def _seating(f):
    if f.verdict == "rotated":
        n = f.get("seatings") or 0
        how = f" ({n} seatings, each deal played under every one)" if n else ""
        return (f"Seats were rotated{how}: each strategy sat in each seat equally often, so the "
                f"seat shares above measure the seats alone, and each strategy's share is "
                f"averaged over the seats.")
    if f.get("fixed"):
        who = ", ".join(f"{seat} {name}" for seat, name in f.get("seat_strategies", []))
        why = f"each seat always played the same strategy ({who})"
    else:
        why = "the strategies were not spread evenly over the seats"
    return (f"No seat verdict: {why}, so a seat's win share mixes the seat's advantage with "
            f"its strategy's strength (seat and strategy are confounded). Play with "
            f"--rotate-seats, or one strategy in every seat, to measure seat fairness.")


def _solo(f):
    return (f"Solo run (one seat, {f.subject}): there is no opponent, so no win shares or seat "
            f"fairness; the mean score is {F.num(f.value)} ({F.num(f.low)}-{F.num(f.high)}), "
            f"from {F.num(f.get('min'), 0)} to {F.num(f.get('max'), 0)}.")


def _all_tied(f):
    P = f.get("players")
    return (f"Every game ended with all {P} seats tied: every seat gets exactly 1/{P} of each "
            f"win by construction, so the win shares say nothing about balance.")


def _single_strategy(f):
    return f"Every seat plays {f.subject}: no strategy comparison."


def _strategy(f):
    return (f"{f.subject} wins {_share(f)} of its games ({f.get('seats')}), {f.verdict} a fair "
            f"{F.fair_share(f.reference)}{_confounded(f)}.")


def _dominance(f):
    closest = F.share_interval(f.get("closest"), f.get("closest_low"), f.get("closest_high"))
    return (f"{f.subject} dominates: it finishes ahead of every other strategy more often than "
            f"not (its closest match-up: {closest}){_confounded(f)}.")


def _ties(f):
    lead = F.num(f.get("median_lead"), 0)
    if f.verdict == "none":
        return f"No game ended in a shared win; the winner's median lead is {lead} points."
    return (f"{F.share(f.value)} of games ended in a shared win (ties split the win); the "
            f"winner's median lead is {lead} points.")


def _shape(f):
    parts = []
    if f.statistic == "mean_length":
        parts.append(f"Games last {F.num(f.value, 1)} {f.get('unit')} on average (middle 80%: "
                     f"{F.num(f.low, 0)} to {F.num(f.high, 0)})")
    reasons = f.get("end_reasons") or []
    if reasons:
        parts.append("they end by " + ", ".join(f"{r} ({F.share(x)})" for r, x in reasons))
    return "; ".join(parts) + "."


def _card(f):
    return flag_text(f) + "."


def _card_more(f):
    return (f"{int(f.value)} more {f.subject.lower()} {f.verdict} (see the "
            f"{f.subject.lower()} table).")


def _card_never(f):
    names = f.get("names") or []
    shown = ", ".join(f"'{x}'" for x in names[:6]) + (" ..." if len(names) > 6 else "")
    play = (" by these players (not chosen: a description of their play, not of the cards)"
            if f.verdict == "never taken" else "")
    return (f"{int(f.value)} of {f.get('of')} {f.subject.lower()} {f.verdict}{play} in "
            f"{f.get('games'):,} games: {shown}.")


def _card_none(f):
    return (f"No {f.get('singular').lower()} stands out among the {f.get('of')} "
            f"{f.subject.lower()} beyond its uncertainty.")


def _illegal(f):
    return flag_text(f) + "."


SENTENCES = {"seat": _seat, "headline": _headline, "seat-order": _seat_order,
             "association": _association, "outcome": _outcome, "start-note": _start_note,
             "seating": _seating, "solo": _solo, "all-tied": _all_tied,
             "single-strategy": _single_strategy, "strategy": _strategy,
             "dominance": _dominance, "ties": _ties, "shape": _shape, "card": _card,
             "card-more": _card_more, "card-never": _card_never, "card-none": _card_none,
             "illegal": _illegal}


def sentence(f: Finding) -> str:
    """The verdict line of one finding."""
    try:
        return SENTENCES[f.kind](f)
    except KeyError:
        raise ValueError(f"no sentence for a finding of kind '{f.kind}'") from None


# --- the flag table's "what" -----------------------------------------------------------------
def worth_text(row: dict) -> str:
    """A card's counterfactual advantage (sim/api/card_check.py worth_check), in the words of
    `balance cards` (reports/card_worth.py)."""
    from reports.worth_words import advantage_text, chosen_text
    code = row["verdict"]
    if code == "not-an-option":
        return ("by counterfactual play: never among the options of these players' decisions "
                f"in the {row.get('scan_games', 0):,} games scanned, so its worth is not "
                "measured")
    if code == "too-few-states":
        return (f"by counterfactual play: only {row['states']} sampled decisions where it was "
                f"an option, too few for a verdict")
    side = code.replace("not-chosen-", "")
    if code.startswith("not-chosen-"):
        tail = {"helps": "it would help: the players miss it",
                "hurts": "it would not help: the card is weak",
                "no-advantage": "it would not help beyond the interval",
                "unclear": "its advantage is unclear"}[side]
        return (f"by counterfactual play it is not chosen by these players ({chosen_text(row)}); "
                f"{advantage_text(row)}: {tail}")
    tail = {"helps": "the card is strong for these players",
            "hurts": "the card is weak for these players",
            "no-advantage": "no advantage beyond the interval: the takers' lead is not the "
                            "card's",
            "unclear": "its advantage is unclear"}[side]
    return f"by counterfactual play, {advantage_text(row)}: {tail}"


def response_text(game: str, step: dict | None) -> str:
    """What the card is worth: its counterfactual advantage when the report measured it
    (worth_check), a paired +/-1 step of the takers' sensitivity table (analysis/cards.py)
    when given one, otherwise where to measure it."""
    if step is None:
        return (f"this is an association: the card's own advantage is not measured by one "
                f"run (`balance cards {game or '<game>'}` measures it)")
    if "verdict" in step:
        return ("an association (a description of play); " + worth_text(step))
    lo, hi = step["take"][1], step["take"][2]
    word = response_word(lo, hi)
    rate = (f"take rate {100 * step['take'][0]:+.1f} pp per point "
            f"({100 * lo:+.1f} to {100 * hi:+.1f}) over {step['games']:,} paired games at "
            f"{step['values']}")
    if word == "players do not respond":
        return (f"the players do not respond to its value ({rate}): its takers' lead is "
                f"association, not the value's effect")
    if word == "players respond":
        return f"the players respond to its value ({rate})"
    return f"whether the players respond to its value is unclear ({rate})"


def assigned_text(choice: str) -> str:
    """The tail of a card flag whose choice the run assigned at random: an experiment."""
    return (f"the {choice} was assigned at random in this run, so this difference is an "
            f"experiment: the effect of the {choice} itself, for these players")


def _card_flag(f: Finding) -> str:
    subject = f.subject   # "Barn (tile)"; with its value "Barn (tile, 3 shield points)"
    if f.get("name") is not None and f.get("type"):
        subject = component_name(f.get("name"), f.get("type"), f.get("value_text") or "")
    if f.verdict in ("never taken", "never happened"):
        worth = f.get("response")
        return (f"{subject} was {f.verdict} in {f.get('games'):,} games"
                + (f"; {worth_text(worth)}" if worth else ""))
    label = f.get("label") or ""
    if f.get("solo"):
        what = (f"scores {F.num(f.value, 1)} when taken against {F.num(f.reference, 1)} for "
                f"the other {label.lower()}")
    else:
        what = (f"its takers win {F.share_interval(f.value, f.low, f.high)} against "
                f"{F.share_interval(f.reference, f.reference_low, f.reference_high)} for "
                f"{baseline_name(label)}; "
                + (assigned_text(f.get("choice") or label.lower()) if f.get("assigned")
                   else response_text(f.get("game"), f.get("response"))))
    return f"{subject} {f.verdict}: {what}"


def flag_text(f: Finding) -> str:
    """What a flag says (the flag table's "what" column, the tune's before/after lines)."""
    if f.kind in ("seat", "headline"):
        return _pp_flag(f)
    if f.kind == "dominance":
        return (f"{f.subject} dominates every other strategy; it wins "
                f"{F.share_interval(f.value, f.low, f.high)} against a fair "
                f"{F.share(f.reference)}{_confounded(f)}")
    if f.kind == "strategy":   # almost never wins
        return (f"{f.subject} {f.verdict}: {F.share_interval(f.value, f.low, f.high)}"
                f"{_confounded(f)}")
    if f.kind == "ties":
        return f"{F.share(f.value)} of games end in a shared win"
    if f.kind == "card":
        return _card_flag(f)
    if f.kind == "illegal":
        return (f"{f.subject} made {f.get('decisions'):,} illegal decisions in "
                f"{f.get('seat_games'):,} of its {f.get('of_seat_games'):,} seat-games; each "
                f"was replaced by the first legal option, so these games are not entirely its "
                f"own play")
    return sentence(f).rstrip(".")


def flag_kind(f: Finding) -> str:
    """The flag table's "kind": a headline breakdown is named by its log column, dominance is
    a strategy flag."""
    return f.get("column") or ("strategy" if f.kind == "dominance" else f.kind)


def verdict_lines(a) -> list:
    """Every verdict line of a BalanceAnalysis (analysis/balance.py), in reading order."""
    return [sentence(f) for f in a.findings]


def flag_lines(a) -> list:
    return [flag_text(f) for f in a.flags]


def card_lines(section) -> list:
    """The verdict lines of one card section (analysis.balance.CardSection)."""
    return [sentence(f) for f in section.findings]


def seating_line(a) -> str:
    """Why the seat shares can or cannot be read as seat fairness ("" when nothing to say)."""
    return sentence(a.seating) if a.seating is not None else ""


def findings_table(a):
    """Every finding of a BalanceAnalysis as one DataFrame row (sim.api Run.findings): the
    verdicts in reading order, then the flags that are not verdict lines (a never-taken card,
    an 'almost never wins'); `is_verdict` / `is_flag` say where each is shown, `sentence` is
    its verdict line (or its flag text when it is only a flag)."""
    import pandas as pd

    from analysis.findings import FIELDS

    flagged = {id(f) for f in a.flags}
    shown = {id(f) for f in a.findings}
    rows = []
    for f in list(a.findings) + [f for f in a.flags if id(f) not in shown]:
        rows.append({**f.row(), "is_verdict": id(f) in shown, "is_flag": id(f) in flagged,
                     "sentence": sentence(f) if id(f) in shown else flag_text(f)})
    return pd.DataFrame(rows, columns=FIELDS + ["is_verdict", "is_flag", "sentence"])
