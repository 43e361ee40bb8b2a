"""Sagrada rules written the slow, obvious way (plain Python), for the tests to check the
compiled engine against. Windows are lists of 20 cells, row-major (cell = row * 5 + col);
a die is (colour, value) or None; a restriction is (colour or -1, value or 0)."""
from __future__ import annotations

ROWS, COLS = 4, 5
N = ROWS * COLS
IGN_COLOUR, IGN_SHADE, NOT_ADJ = 1, 2, 4


def rc(cell):
    return divmod(cell, COLS)


def orth(cell):
    r, c = rc(cell)
    return [(r + dr) * COLS + c + dc for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
            if 0 <= r + dr < ROWS and 0 <= c + dc < COLS]


def diag(cell):
    r, c = rc(cell)
    return [(r + dr) * COLS + c + dc for dr, dc in ((-1, -1), (-1, 1), (1, -1), (1, 1))
            if 0 <= r + dr < ROWS and 0 <= c + dc < COLS]


def on_edge(cell):
    r, c = rc(cell)
    return r in (0, ROWS - 1) or c in (0, COLS - 1)


def legal(window, restr, cell, die, mode=0):
    """The placement rules, one by one."""
    colour, value = die
    if window[cell] is not None:
        return False
    want_c, want_v = restr[cell]
    if want_c >= 0 and want_c != colour and not mode & IGN_COLOUR:
        return False
    if want_v > 0 and want_v != value and not mode & IGN_SHADE:
        return False
    if all(d is None for d in window):
        if not on_edge(cell):
            return False
    else:
        touching = any(window[q] is not None for q in orth(cell) + diag(cell))
        if mode & NOT_ADJ:
            if touching:
                return False
        elif not touching:
            return False
    for q in orth(cell):
        if window[q] is not None and (window[q][0] == colour or window[q][1] == value):
            return False
    return True


def window_ok(window, restr, exempt=None):
    """Every die meets its cell's restrictions (unless exempt) and no orthogonal neighbours
    share a colour or value."""
    for cell, d in enumerate(window):
        if d is None:
            continue
        ex = exempt[cell] if exempt is not None else 0
        want_c, want_v = restr[cell]
        if want_c >= 0 and d[0] != want_c and not ex & IGN_COLOUR:
            return False
        if want_v > 0 and d[1] != want_v and not ex & IGN_SHADE:
            return False
        for q in orth(cell):
            if window[q] is not None and (window[q][0] == d[0] or window[q][1] == d[1]):
                return False
    return True


def _lines(by_rows):
    if by_rows:
        return [[r * COLS + c for c in range(COLS)] for r in range(ROWS)]
    return [[r * COLS + c for r in range(ROWS)] for c in range(COLS)]


def public_points(kind, window, points, values=(), colours=()):
    """kind: an enums.OBJ_KIND_NAMES name."""
    dice = [d for d in window if d is not None]
    if kind in ("row_colour_variety", "column_colour_variety", "row_shade_variety",
                "column_shade_variety"):
        idx = 0 if "colour" in kind else 1
        n = 0
        for line in _lines(kind.startswith("row")):
            ds = [window[c] for c in line]
            if all(d is not None for d in ds) and len({d[idx] for d in ds}) == len(ds):
                n += 1
        return n * points
    if kind == "shade_set":
        return points * min(sum(1 for d in dice if d[1] == v) for v in values)
    if kind == "colour_set":
        return points * min(sum(1 for d in dice if d[0] == c) for c in colours)
    if kind == "colour_diagonals":
        return points * sum(1 for cell, d in enumerate(window) if d is not None and any(
            window[q] is not None and window[q][0] == d[0] for q in diag(cell)))
    raise ValueError(kind)


def private_points(window, colour):
    return sum(d[1] for d in window if d is not None and d[0] == colour)


def window_from_state(st, seat):
    wc, wv = st["win_colour"][seat], st["win_value"][seat]
    return [None if wc[c] < 0 else (int(wc[c]), int(wv[c])) for c in range(N)]


def restr_from_state(st, seat):
    return [(int(st["restr_colour"][seat, c]), int(st["restr_value"][seat, c])) for c in range(N)]
