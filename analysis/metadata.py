"""What the report knows about a game: the metadata it declares, checked and completed.

A game may define `spec.report_metadata(components=None) -> dict` (see docs/report.md):

    {"cards": [{"type", "label", "names", "values", "mask_column",
                "day_columns" (optional), "time_unit" (optional),
                "unit" (optional: what a value is, default "points"),
                "kind" (optional: "card", default, or "outcome"),
                "value_path" (optional: the --set path of card {i}'s value)}, ...],
     "score_components": [column, ...], "length_column": str, "length_unit": str,
     "end_reason_names": [str, ...]}

A game without it gets the generic sections only. Entries naming a column the run's logs do
not have are dropped with a note (the report says so rather than failing).
"""
from __future__ import annotations

import inspect

from analysis.findings import Note

GENERIC_COLUMNS = ("strategy", "score", "win", "rank", "end_reason", "illegal", "choices")

# What a card's value is: "points" (the default: the card scores them), or any other word a
# game declares ("favor tokens", "tool number", "count"); "" for a value that means nothing
# to show. Units read before the number ("tool number 7") are listed here.
DEFAULT_UNIT = "points"
PREFIX_UNITS = ("tool number", "number", "position")
# An "outcome" is a yes/no fact about a seat's game that is not a card (Grand Surfers: its skill
# against the table, surfers lost): the report gives it its own section, without values.
KINDS = ("card", "outcome")


def value_text(unit: str, value) -> str:
    """A card's value with its unit: "7 points", "1 point", "5 favor tokens", "tool number 7";
    "" when the unit is empty or the value unknown."""
    import math
    try:
        v = float(value)
    except (TypeError, ValueError):
        return ""
    if not unit or math.isnan(v):
        return ""
    shown = f"{v:g}"
    if unit in PREFIX_UNITS:
        return f"{unit} {shown}"
    if v == 1 and unit.endswith("s"):
        unit = unit[:-1]
    return f"{shown} {unit}"


def component_name(name, kind: str, value: str = "") -> str:
    """How a reader sees a component named everywhere (the report's flags and tables, the
    terminal, `balance cards`, the API's findings): its name, then its kind (the card type:
    tile, window, commission ...) and, when given, its value with its unit (value_text):
    "Barn (tile)", "Barn (tile, 3 shield points)"."""
    return f"{name} ({kind}, {value})" if value else f"{name} ({kind})"


def game_metadata(spec, components=None) -> dict:
    """The raw metadata a game declares ({} when it declares none)."""
    fn = getattr(spec, "report_metadata", None) if spec is not None else None
    if fn is None:
        meta = {}
    else:
        try:
            params = inspect.signature(fn).parameters
        except (TypeError, ValueError):  # pragma: no cover
            params = {}
        meta = fn(components) if params else fn()
        meta = dict(meta or {})
    if "end_reason_names" not in meta and spec is not None:
        names = getattr(spec, "end_reason_names", None)
        if names is not None:
            meta["end_reason_names"] = list(names)
    return meta


def normalise(meta: dict, available: list[str]) -> tuple[dict, list[str]]:
    """(metadata restricted to the columns present, notes on what was dropped)."""
    notes: list = []   # analysis.findings.Note (reports/notes.py words them)
    have = set(available)
    out = {
        "cards": [],
        "score_components": [],
        "length_column": None,
        "length_unit": meta.get("length_unit") or "",
        # a game's code names ("commissions_ran_out") read as words in a report
        "end_reason_names": [str(x).replace("_", " ") for x in meta.get("end_reason_names")
                             or []],
    }
    for c in meta.get("score_components") or []:
        if c in have:
            out["score_components"].append(c)
        else:
            notes.append(Note("missing-score-component", {"column": c}))
    length = meta.get("length_column")
    if length is None and "length" in have:
        length = "length"
    if length is not None:
        if length in have:
            out["length_column"] = length
        else:
            notes.append(Note("missing-length-column", {"column": length}))
    for card in meta.get("cards") or []:
        label = card.get("label") or card.get("type") or "cards"
        names = [str(n) for n in card.get("names") or []]
        mask = card.get("mask_column")
        if not names:
            notes.append(Note("cards-no-names", {"label": label}))
            continue
        if mask not in have:
            notes.append(Note("cards-missing-mask", {"label": label, "column": mask}))
            continue
        if len(names) > 64:
            notes.append(Note("cards-too-many", {"label": label, "cards": len(names)}))
            names = names[:64]
        values = list(card.get("values") or [])
        values = [float(v) for v in values[:len(names)]] + [float("nan")] * (len(names) - len(values))
        days = list(card.get("day_columns") or [])
        if days:
            missing = [d for d in days if d not in have]
            if missing:
                notes.append(Note("cards-missing-days", {"label": label, "columns": missing}))
                days = []
            elif len(days) * 16 < len(names):
                notes.append(Note("cards-too-few-days", {"label": label, "days": len(days),
                                                          "cards": len(names)}))
                days = []
        kind = str(card.get("kind") or "card")
        if kind not in KINDS:
            notes.append(Note("cards-unknown-kind", {"label": label, "kind": kind}))
            kind = "card"
        unit = card.get("unit", DEFAULT_UNIT if kind == "card" else "")
        out["cards"].append({
            "type": str(card.get("type") or label), "label": str(label), "names": names,
            "values": values, "mask_column": mask, "day_columns": days,
            "time_unit": str(card.get("time_unit") or "round"),
            "unit": str(unit or ""), "kind": kind,
            # the component field that holds card i's value, as a --set path with {i}
            # ('commissions[{i}].points'): `balance cards` varies it (None: not tunable)
            "value_path": card.get("value_path"),
        })
    return out, notes


def needed_columns(meta: dict, available: list[str]) -> list[str]:
    """Every column the report reads, in a stable order, restricted to those present."""
    cols = [c for c in GENERIC_COLUMNS if c in available]
    if meta.get("length_column"):
        cols.append(meta["length_column"])
    cols.extend(meta.get("score_components") or [])
    for card in meta.get("cards") or []:
        cols.append(card["mask_column"])
        cols.extend(card.get("day_columns") or [])
    return list(dict.fromkeys(c for c in cols if c in available))


# How a game's start player is chosen ("start" in report_metadata()):
#   "random"  drawn at random (and perhaps passed on): start position is a factor of its own,
#             apart from the seat number; the game names the log column holding each seat's
#             place in the first round's order (0 = the start player)
#   "passed"  passed on from a fixed first player: likewise, with its column
#   "seat 1"  seat 1 always starts: the seat number is the start position (no column)
#   "chosen"  no start player: the order is chosen in play (no column)
# "leads": True when the start position, not the seat number, answers the game's fairness
# question (its verdicts open the report, the summary, compare, sweep and tune).
START_HOWS = ("random", "passed", "seat 1", "chosen")


def start_declaration(meta_raw: dict | None, available=None, players: int | None = None) -> dict:
    """The game's start declaration, checked: {"column" (None when the seat number is the
    start position, or the logs lack the column, or the declaration is not for this player
    count), "how", "leads" (never without a column), "note", "question", "label"}."""
    raw = dict((meta_raw or {}).get("start") or {})
    how = str(raw.get("how") or "seat 1")
    col = raw.get("column")
    only = raw.get("players")
    if col is not None and available is not None and col not in set(available):
        col = None
    if only is not None and players is not None and int(players) not in {int(x) for x in only}:
        col = None
    if players is not None and int(players) < 2:
        col = None
    return {"column": col, "how": how if how in START_HOWS else "seat 1",
            "leads": bool(raw.get("leads")) and col is not None,
            "note": str(raw.get("note") or ""), "question": str(raw.get("question") or ""),
            "label": str(raw.get("label") or "Start position")}
