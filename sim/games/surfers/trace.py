"""Turn a replayed game's event trace into readable lines (`balance replay`)."""
from __future__ import annotations

from sim.games.surfers import enums as E

COLS = "abcdefghijkl"


def cell_name(c: int) -> str:
    """Rulebook-style: line number from the start (1 = bottom line), column letter."""
    return f"{c // E.MAX_COLS + 1}{COLS[c % E.MAX_COLS]}"


def wave_name(w: int) -> str:
    return "off the sheet" if w < 0 else f"wave row {w // E.MAX_WAVE_COLS + 1} col {w % E.MAX_WAVE_COLS + 1}"


def surfer(who: int) -> str:
    """'surfer 2.1': seat 2 (numbered from 1), its first surfer."""
    return f"surfer {who // 2 + 1}.{who % 2 + 1}"


def action_text(code: int) -> str:
    if code == E.OPT_PLUS:
        return "pips +1"
    if code == E.OPT_MINUS:
        return "pips -1"
    if code == E.OPT_REFLICK:
        return "re-flick"
    a, b = divmod(code - E.OPT_CHANNEL, E.MAX_CELLS)
    return f"draws a channel {cell_name(a)} -> {cell_name(b)}"


def format_trace(prepared, game_index, events, rec, state) -> list:
    """The replay's lines: the events, then one line per seat from the game's record `rec`
    (model.RECORD, one row per seat) and its final state."""
    comp = prepared.components
    finish = comp.card_names["finish"]
    kinds = {v: k for k, v in E.WAVE_CHARS.items()}
    t = comp.tables[0]

    def seat(p):  # seats are numbered from 1 where people read them; the logs keep 0-based
        return f"seat {p + 1} ({prepared.strategy_names[p]}, spread {t.skill[p]:g})"

    lines = [f"Grand Surfers, game {game_index} of run seed {prepared.seed}, "
             f"{prepared.n_players} players; surfer s.k = seat s, its surfer k; cells: line from the start + column"]
    for ev in events:
        kind, a, b, c, d, e = (int(x) for x in ev)
        if kind == E.EV_TURN:
            lines.append(f"-- turn {b + 1}: {seat(a)} --")
        elif kind == E.EV_FLICK:
            where = wave_name(c)
            if c >= 0:
                where += f" '{kinds[int(t.wave_kind[c])]}'"
            short = f" ({e} short flick(s) repeated)" if e else ""
            lines.append(f"  aims at {wave_name(b)}, lands {where}, pips {d}{short}")
        elif kind == E.EV_ACTION:
            lines.append(f"  action: {action_text(b)}")
        elif kind == E.EV_MOVE:
            frm = "the start" if b < 0 else cell_name(b)
            to = "the beach" if c < 0 else cell_name(c)
            lines.append(f"  {surfer(a)} moves {d} from {frm} to {to}")
        elif kind == E.EV_RIDE:
            lines.append(f"    {surfer(a)} rides the channel {cell_name(b)} -> {cell_name(c)}")
        elif kind == E.EV_PUSH:
            to = cell_name(c) if c >= 0 and d == E.S_SEA else ("the start" if d == E.S_START else E.STATUS_NAMES[d])
            lines.append(f"    {surfer(a)} is pushed down from {cell_name(b)} to {to}")
        elif kind == E.EV_BOOST:
            to = "the beach" if d < 0 else cell_name(d)
            stay = (f" and stops there: it does not ride the channel back onto its partner on "
                    f"{cell_name(c)} (every boost distance would, rules.boost_loop)") if e else ""
            lines.append(f"    {surfer(a)} is boosted {b} from {cell_name(c)} to {to}{stay}")
        elif kind == E.EV_FINISH:
            lines.append(f"    {surfer(a)} reaches the beach: {finish[b]}")
        elif kind == E.EV_FASTEST:
            lines.append(f"  {seat(a)} takes the fastest marker")
        elif kind == E.EV_FOLD:
            lines.append(f"  the Great Wave folds: lines 1-{a} covered ({b} surfer(s) out, {c} channel arrow(s) gone)")
        elif kind == E.EV_REMOVED:
            lines.append(f"    {surfer(a)} is out: {E.STATUS_NAMES[b]}")
        elif kind == E.EV_PASS:
            lines.append("  no move")
        elif kind == E.EV_END:
            lines.append(f"-- game over: {E.END_REASON_NAMES[a]} --")
    pts = [name for name in rec.dtype.names if name.startswith("pts_")]
    for p in range(prepared.n_players):
        places = []
        for k in range(2):
            who = 2 * p + k
            st = int(state["status"][who])
            places.append(finish[int(state["slot"][who])] if st == E.S_BEACH else E.STATUS_NAMES[st])
        parts = ", ".join(f"{name} {rec[name][p]}" for name in pts)
        lines.append(f"{seat(p)}: score {rec['score'][p]} (rank {rec['rank'][p]}, "
                     f"win {rec['win'][p]:.2f}; {parts}; surfers: {', '.join(places)})")
    return lines
