"""Turn a replayed game's event trace into readable lines (`balance replay`)."""
from __future__ import annotations

from sim.games.sagrada import enums as E
from sim.games.sagrada.model import RECORD


def cell_name(c: int) -> str:
    """Rulebook notation: row letter A-D (top first), column number 1-5."""
    return f"{'ABCD'[c // E.COLS]}{c % E.COLS + 1}"


def die(colour: int, value: int) -> str:
    return f"{E.COLOUR_NAMES[colour]} {value}" if value else E.COLOUR_NAMES[colour]


def window_lines(state, seat: int) -> list:
    """The window as 4 text rows: a die is colour letter + value, an open space its restriction
    in lower case (or '..')."""
    rows = []
    for r in range(E.ROWS):
        parts = []
        for k in range(E.COLS):
            c = r * E.COLS + k
            col = int(state["win_colour"][seat, c])
            if col >= 0:
                parts.append(f"{E.COLOUR_LETTERS[col]}{int(state['win_value'][seat, c])}")
            else:
                rc = int(state["restr_colour"][seat, c])
                rv = int(state["restr_value"][seat, c])
                parts.append(f"{E.COLOUR_LETTERS[rc].lower()}." if rc >= 0 else (f".{rv}" if rv else ".."))
        rows.append(" ".join(parts))
    return rows


def format_trace(prepared, game_index, events, rec, state) -> list:
    """The readable lines of one traced game; rec: its records (RECORD's columns by name, one
    row per seat), state: the final state."""
    comp = prepared.components
    names = comp.card_names
    tables = comp.tables[0]

    def seat(p):  # seats are numbered from 1 where people read them; the logs keep 0-based
        return f"seat {p + 1} ({prepared.strategy_names[p]})"

    lines = [f"Sagrada, game {game_index} of run seed {prepared.seed}, "
             f"{prepared.n_players} player(s), variant {prepared.variant}"]
    n_pub = int(state["n_public"])
    n_tools = int(state["n_tools"])
    lines.append("public objectives: " + ", ".join(names["public"][int(o)] for o in state["public"][:n_pub]))
    lines.append("tool cards: " + ", ".join(
        f"{names['tool'][int(t)]} ({E.COLOUR_NAMES[int(tables.tool_colour[int(t)])]})" for t in state["tools"][:n_tools]))
    for p in range(prepared.n_players):
        privs = [names["private"][int(x)] for x in state["priv"][p] if x >= 0]
        lines.append(f"{seat(p)}: private {', '.join(privs)}")
    for ev in events:
        kind, a, b, c, d, e = (int(x) for x in ev)
        if kind == E.EV_ROUND:
            lines.append(f"-- round {a + 1} (start player: {seat(b)}) --")
        elif kind == E.EV_WINDOW:
            lines.append(f"  {seat(a)} takes window {names['window'][b]} "
                         f"(difficulty {tables.pattern_difficulty[b]})")
        elif kind == E.EV_DRAW:
            lines.append(f"  pool: {die(a, b)}")
        elif kind == E.EV_TURN:
            lines.append(f"  > {seat(a)}, {'second' if b else 'first'} turn")
        elif kind == E.EV_PLACE:
            how = " (tool)" if e else ""
            lines.append(f"    places {die(c, d)} on {cell_name(b)}{how}")
        elif kind == E.EV_TOOL:
            paid = f"{c} token(s)" if c >= 0 else f"a {die(-1 - c, d)} die"
            lines.append(f"    uses {names['tool'][b]}, paying {paid}")
        elif kind == E.EV_MOVE:
            lines.append(f"    moves the die on {cell_name(b)} to {cell_name(c)}")
        elif kind == E.EV_SET:
            lines.append(f"    {E.COLOUR_NAMES[a]} die: {b} -> {c}")
        elif kind == E.EV_SWAP:
            lines.append(f"    swaps {die(a, b)} from the pool with {die(c, d)} from the round track")
        elif kind == E.EV_RETURN:
            lines.append(f"    {die(a, b)} cannot be placed: back to the pool")
        elif kind == E.EV_BAG:
            lines.append(f"    returns {die(a, c)} to the bag; draws a {E.COLOUR_NAMES[b]} die")
        elif kind == E.EV_VALUE:
            lines.append(f"    sets the drawn {E.COLOUR_NAMES[a]} die to {b}")
        elif kind == E.EV_REROLL:
            lines.append(f"    re-rolls the {a} dice of the pool:")
        elif kind == E.EV_TRACK:
            lines.append(f"  round track {a + 1}: {die(b, c)}")
        elif kind == E.EV_PASS:
            lines.append("    passes (no die drafted)")
        elif kind == E.EV_END:
            lines.append(f"-- game over: {E.END_REASON_NAMES[a]} --")
    cols = [name for name in RECORD.names if name.startswith("pts_")]
    for p in range(prepared.n_players):
        lines.append(f"{seat(p)} window {names['window'][int(state['pattern'][p])]}:")
        lines.extend("    " + row for row in window_lines(state, p))
        parts = ", ".join(f"{c} {rec[p][c]}" for c in cols)
        extra = f", target {rec[p]['target']}" if prepared.n_players == 1 else ""
        lines.append(f"{seat(p)}: score {rec[p]['score']} (rank {rec[p]['rank']}, "
                     f"win {rec[p]['win']:.2f}; {parts}{extra})")
    return lines
