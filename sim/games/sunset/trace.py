"""Turn a replayed game's event trace into readable lines (`balance replay`)."""
from __future__ import annotations

from sim.games.sunset import enums as E
from sim.games.sunset.components import format_time
from sim.games.sunset.model import RECORD_FIELDS


def _cell(c: int) -> str:
    return f"r{c // E.GRID + 1}c{c % E.GRID + 1}"


def format_trace(prepared, game_index, events, rec, state) -> list:
    """The replay lines of one traced game: its events, then each seat's result from `rec`
    (the game's RECORD rows, one per seat)."""
    comp = prepared.components
    names = comp.card_names
    tables = comp.tables
    features = names["feature"]

    def land(i):
        shown = "/".join(features[f] for f in range(E.N_FEATURES) if tables.landscape_features[i, f])
        return f"{names['landscape'][i]} [{shown}]"

    def comm(i):
        frames = []
        for k in range(tables.commission_n_frames[i]):
            f = tables.commission_frames[i, k]
            frames.append("?" if f == E.ANY_FEATURE else features[f])
        return f"{names['commission'][i]} ({'+'.join(frames)}, {tables.commission_points[i]} pts)"

    def plan(i):
        return (f"{names['planning'][i]} (wake {format_time(int(tables.plan_wake[i]))}, "
                f"move {tables.plan_move[i]}, paint {tables.plan_paint[i]})")

    def seat(p):
        return f"seat {p + 1} ({prepared.strategy_names[p]})"

    def spot(c, card):
        return f"{_cell(c)} {'Ranger Station' if card == E.RANGER else land(card) if card >= 0 else 'empty'}"

    lines = [f"Sunset Over Water, game {game_index} of run seed {prepared.seed}, "
             f"{prepared.n_players} player(s), variant {prepared.variant}"]
    in_setup = False
    wilderness_row = []
    for ev in events:
        kind, a, b, c, d, e = (int(x) for x in ev)
        if kind in (E.EV_SETUP_CELL, E.EV_SETUP_ROW, E.EV_SETUP_TOP, E.EV_INSPIRATION) and not in_setup:
            in_setup = True
            lines.append("-- set-up --")
        if kind == E.EV_SETUP_CELL:
            if a == 0:
                lines.append("  wilderness (r1 is the top row, c1 the left column):")
            wilderness_row.append(spot(a, b))
            if a % E.GRID == E.GRID - 1:
                lines.append("    " + " | ".join(wilderness_row))
                wilderness_row = []
            if a == E.N_CELLS - 1:
                lines.append(f"  every artist starts on the centre card {_cell(E.CENTER)}")
        elif kind == E.EV_SETUP_ROW:
            lines.append(f"  commission row slot {a + 1}: {comm(b)}")
        elif kind == E.EV_SETUP_TOP:
            lines.append(f"  revealed on the commission deck (available from day 2): "
                         f"{comm(a) if a >= 0 else 'none'}")
        elif kind == E.EV_INSPIRATION:
            feature = features[int(tables.inspiration_feature[a])]
            lines.append(f"  inspiration card: {names['inspiration'][a]} (+{tables.inspiration_points} "
                         f"per commission showing {feature}; +{tables.return_home_bonus} "
                         f"for ending on {_cell(E.CENTER)})")
        elif kind == E.EV_DAY:
            in_setup = False
            lines.append(f"-- day {a + 1} --")
        elif kind == E.EV_PLAN:
            lines.append(f"  {seat(a)} plans {plan(b)}")
        elif kind == E.EV_WAKE:
            label = names.get("band", [])
            lines.append(f"  wake-up effect: {label[b] if 0 <= b < len(label) else 'none'}")
        elif kind == E.EV_HIKE:
            if c == 0:
                lines.append(f"  {seat(a)} stays on {_cell(d)}")
            else:
                lines.append(f"  {seat(a)} hikes {E.DIR_NAMES[b]} {c} step(s): {_cell(d)} -> {_cell(e)}")
        elif kind == E.EV_PAINT:
            lines.append(f"    paints {land(b)} at {_cell(c)}")
        elif kind == E.EV_SELL_CARD:
            lines.append(f"    sells {land(c)}")
        elif kind == E.EV_SELL:
            source = "the top of the commission deck" if c == E.MAX_ROW else f"row slot {c + 1}"
            lines.append(f"    -> takes commission {comm(b)} from {source}")
        elif kind == E.EV_GOAL:
            lines.append(f"    meets the daily goal '{names['goal'][b]}' and takes it")
        elif kind == E.EV_GOAL_KEPT:
            lines.append(f"  {seat(a)} keeps the daily goal '{names['goal'][b]}'")
        elif kind == E.EV_NEW_GOAL:
            lines.append(f"  {'first ' if in_setup else ''}daily goal: {names['goal'][a]}")
        elif kind == E.EV_DISCARD_COMM:
            lines.append(f"  discards commission {comm(a)}")
        elif kind == E.EV_REFILL:
            lines.append(f"  refill {_cell(a)}: {land(b)}")
        elif kind == E.EV_RESHUFFLE:
            lines.append(f"  landscape deck empty: {a} discarded cards reshuffled")
        elif kind == E.EV_ROW:
            lines.append(f"  commission row slot {a + 1}: {comm(b)}")
        elif kind == E.EV_TOP:
            lines.append(f"  revealed on the commission deck: {comm(a) if a >= 0 else 'none'}")
        elif kind == E.EV_END:
            lines.append(f"-- game over: {E.END_REASON_NAMES[a]} --")
    pts = [name for name, _, _ in RECORD_FIELDS if name.startswith("pts_")]
    for p in range(prepared.n_players):
        parts = ", ".join(f"{name} {rec[name][p]}" for name in pts)
        lines.append(f"{seat(p)}: score {rec['score'][p]} (rank {rec['rank'][p]}, "
                     f"win {rec['win'][p]:.2f}; {parts})")
    return lines
