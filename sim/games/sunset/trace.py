"""Turn a replayed game's event trace into readable lines (`balance replay`)."""
from __future__ import annotations

from sim.games.sunset import enums as E
from sim.games.sunset.components import format_time
from sim.games.sunset.model import RECORD_FIELDS

SETUP_EVENTS = (E.EV_SETUP_CELL, E.EV_SETUP_ROW, E.EV_SETUP_TOP, E.EV_INSPIRATION)


def _cell(c: int) -> str:
    return f"r{c // E.GRID + 1}c{c % E.GRID + 1}"


class _Shown:
    """Cards and seats as the replay names them, from the run's components and players."""

    def __init__(self, prepared):
        comp = prepared.components
        self.prepared = prepared
        self.names = comp.card_names
        self.t = comp.tables[0]
        self.features = self.names["feature"]

    def land(self, i: int) -> str:
        shown = "/".join(self.features[f] for f in range(E.N_FEATURES)
                         if self.t.landscape_features[i, f])
        return f"{self.names['landscape'][i]} [{shown}]"

    def comm(self, i: int) -> str:
        frames = []
        for k in range(self.t.commission_n_frames[i]):
            f = self.t.commission_frames[i, k]
            frames.append("?" if f == E.ANY_FEATURE else self.features[f])
        return f"{self.names['commission'][i]} ({'+'.join(frames)}, {self.t.commission_points[i]} pts)"

    def plan(self, i: int) -> str:
        t = self.t
        return (f"{self.names['planning'][i]} (wake {format_time(int(t.plan_wake[i]))}, "
                f"move {t.plan_move[i]}, paint {t.plan_paint[i]})")

    def seat(self, p: int) -> str:
        return f"seat {p + 1} ({self.prepared.strategy_names[p]})"

    def spot(self, c: int, card: int) -> str:
        what = 'Ranger Station' if card == E.RANGER else self.land(card) if card >= 0 else 'empty'
        return f"{_cell(c)} {what}"


def format_trace(prepared, game_index, events, rec, state) -> list:
    """The replay lines of one traced game: its events, then each seat's result from `rec`
    (the game's RECORD rows, one per seat)."""
    show = _Shown(prepared)
    lines = [f"Sunset Over Water, game {game_index} of run seed {prepared.seed}, "
             f"{prepared.n_players} player(s), variant {prepared.variant}"]
    in_setup = False
    wilderness_row: list = []    # the set-up's wilderness, printed a grid row at a time
    for ev in events:
        kind, a, b, c, d, e = (int(x) for x in ev)
        if kind in SETUP_EVENTS:
            if not in_setup:
                in_setup = True
                lines.append("-- set-up --")
            lines.extend(_setup_lines(show, kind, a, b, wilderness_row))
        elif kind == E.EV_DAY:
            in_setup = False
            lines.append(f"-- day {a + 1} --")
        else:
            line = _play_line(show, kind, a, b, c, d, e, in_setup)
            if line is not None:
                lines.append(line)
    return lines + _result_lines(show, rec)


def _setup_lines(show: _Shown, kind: int, a: int, b: int, wilderness_row: list) -> list:
    """The lines of one set-up event (the wilderness collects a row in `wilderness_row`)."""
    if kind == E.EV_SETUP_CELL:
        lines = []
        if a == 0:
            lines.append("  wilderness (r1 is the top row, c1 the left column):")
        wilderness_row.append(show.spot(a, b))
        if a % E.GRID == E.GRID - 1:
            lines.append("    " + " | ".join(wilderness_row))
            wilderness_row.clear()
        if a == E.N_CELLS - 1:
            lines.append(f"  every artist starts on the centre card {_cell(E.CENTER)}")
        return lines
    if kind == E.EV_SETUP_ROW:
        return [f"  commission row slot {a + 1}: {show.comm(b)}"]
    if kind == E.EV_SETUP_TOP:
        return [f"  revealed on the commission deck (available from day 2): "
                f"{show.comm(a) if a >= 0 else 'none'}"]
    t = show.t       # EV_INSPIRATION
    feature = show.features[int(t.inspiration_feature[a])]
    return [f"  inspiration card: {show.names['inspiration'][a]} (+{t.inspiration_points} "
            f"per commission showing {feature}; +{t.return_home_bonus} "
            f"for ending on {_cell(E.CENTER)})"]


def _play_line(show: _Shown, kind: int, a: int, b: int, c: int, d: int, e: int,
               in_setup: bool):
    """The line of one event of play (None for an event the replay does not show)."""
    names = show.names
    if kind == E.EV_PLAN:
        return f"  {show.seat(a)} plans {show.plan(b)}"
    if kind == E.EV_WAKE:
        label = names.get("band", [])
        return f"  wake-up effect: {label[b] if 0 <= b < len(label) else 'none'}"
    if kind == E.EV_HIKE:
        if c == 0:
            return f"  {show.seat(a)} stays on {_cell(d)}"
        return f"  {show.seat(a)} hikes {E.DIR_NAMES[b]} {c} step(s): {_cell(d)} -> {_cell(e)}"
    if kind == E.EV_PAINT:
        return f"    paints {show.land(b)} at {_cell(c)}"
    if kind == E.EV_SELL_CARD:
        return f"    sells {show.land(c)}"
    if kind == E.EV_SELL:
        source = "the top of the commission deck" if c == E.MAX_ROW else f"row slot {c + 1}"
        return f"    -> takes commission {show.comm(b)} from {source}"
    if kind == E.EV_GOAL:
        return f"    meets the daily goal '{names['goal'][b]}' and takes it"
    if kind == E.EV_GOAL_KEPT:
        return f"  {show.seat(a)} keeps the daily goal '{names['goal'][b]}'"
    if kind == E.EV_NEW_GOAL:
        return f"  {'first ' if in_setup else ''}daily goal: {names['goal'][a]}"
    if kind == E.EV_DISCARD_COMM:
        return f"  discards commission {show.comm(a)}"
    if kind == E.EV_REFILL:
        return f"  refill {_cell(a)}: {show.land(b)}"
    if kind == E.EV_RESHUFFLE:
        return f"  landscape deck empty: {a} discarded cards reshuffled"
    if kind == E.EV_ROW:
        return f"  commission row slot {a + 1}: {show.comm(b)}"
    if kind == E.EV_TOP:
        return f"  revealed on the commission deck: {show.comm(a) if a >= 0 else 'none'}"
    if kind == E.EV_END:
        return f"-- game over: {E.END_REASON_NAMES[a]} --"
    return None


def _result_lines(show: _Shown, rec) -> list:
    """Each seat's score, rank, win share and points by source."""
    pts = [name for name, _, _ in RECORD_FIELDS if name.startswith("pts_")]
    lines = []
    for p in range(show.prepared.n_players):
        parts = ", ".join(f"{name} {rec[name][p]}" for name in pts)
        lines.append(f"{show.seat(p)}: score {rec['score'][p]} (rank {rec['rank'][p]}, "
                     f"win {rec['win'][p]:.2f}; {parts})")
    return lines
