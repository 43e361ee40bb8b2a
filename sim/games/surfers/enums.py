"""Grand Surfers: constants, the component tables and the state layout.

Everything the compiled rules read is declared here, with its encoding beside it. The sea
sheet, the wave sheet, the finish cells, the flick model (noise, per-seat skill) and the rule
numbers arrive in `SurfersTables`, built from the component file, so changing them never
recompiles. The constants below are capacities and code values.

Geometry. The sea sheet is a grid of lines (rows) and columns. Line 0 is the line nearest
the start (the rulebook's "first line"), line n_lines-1 the one next to the beach; a cell is
`line * MAX_COLS + col`. The start (below line 0) and the beach (above the last line) are not
cells: a surfer's place is its status (start / sea / beach / removed) plus a cell or a finish
slot. "Forward" is up a column (towards the beach), "down" is towards the start.

The wave sheet (the flick target) is a grid of wave_rows x wave_cols cells; row 0 is nearest
the start line. Wave cell = row * MAX_WAVE_COLS + col.
"""
from typing import NamedTuple

import numpy as np

# --- capacities -------------------------------------------------------------------------
MAX_PLAYERS = 4
N_SURFERS = 2                      # surfers per player; surfer id = seat * 2 + k
MAX_SURFERS = MAX_PLAYERS * N_SURFERS
MAX_LINES = 16
MAX_COLS = 12
MAX_CELLS = MAX_LINES * MAX_COLS
MAX_WAVE_ROWS = 8
MAX_WAVE_COLS = 8
MAX_WAVE = MAX_WAVE_ROWS * MAX_WAVE_COLS
AIM_OFF = MAX_WAVE                 # column of aim_prob: the flick lands off the sheet (or in a hole)
MAX_ARROWS = MAX_CELLS * 6         # arrows the sheet's geometry allows (up/down x 3 columns per circle)
MAX_FINISH = 8                     # finish cells (Grand, Great, Good...)
N_PIPS = 6

# --- sea cells (cell_kind) ---------------------------------------------------------------
K_NONE = 0                         # no cell (rock, '#'): skipped when counting a move
K_SQUARE = 1                       # '.': any number of surfers
K_CIRCLE = 2                       # 'o': one surfer; channels connect circles only
K_TIDE = 3                         # '~': a surfer pushed into it is out
SEA_CHARS = {"#": K_NONE, ".": K_SQUARE, "o": K_CIRCLE, "~": K_TIDE}
KIND_NAMES = ("none", "square", "circle", "tide")

# up[cell] / below[cell] special values
UP_BEACH = -1                      # moving up from here reaches the beach
UP_BLOCKED = -2                    # top of a column whose beach end is closed ('#'): stay
NO_CELL = -1                       # below[cell]: no cell below (a pushed surfer goes to the start)

# --- wave cells (wave_kind) ----------------------------------------------------------------
W_NONE = 0                         # '#': a hole, not part of the sheet (lands "off the sheet")
W_PLAIN = 1                        # '.': nothing
W_HALF = 2                         # 'h': the 1/2 cell: half the pips (rounded down)
W_PIPS = 3                         # '+': change the pips by +1 or -1 (result 1..6)
W_REFLICK = 4                      # 'R': re-flick
W_UP = 5                           # 'U': draw a channel upward
W_DOWN = 6                         # 'D': draw a channel downward
W_EITHER = 7                       # 'X': draw a channel up or down (the rulebook's UP/DN cell)
WAVE_CHARS = {"#": W_NONE, ".": W_PLAIN, "h": W_HALF, "+": W_PIPS, "R": W_REFLICK,
              "U": W_UP, "D": W_DOWN, "X": W_EITHER}
WAVE_KIND_NAMES = ("hole", "plain", "half", "pips", "reflick", "up", "down", "either")
N_WAVE_KINDS = 8                   # aim_kind[..., W_NONE] = off the sheet (holes included)

# --- surfer status --------------------------------------------------------------------------
S_START = 0
S_SEA = 1
S_BEACH = 2
S_WAVE = 3                         # removed: under the Great Wave
S_TIDE = 4                         # removed: pushed into a tide cell
STATUS_NAMES = ("start", "sea", "beach", "out (wave)", "out (tide)")

# --- rule numbers (rules[] in the tables) ------------------------------------------------------
R_SECOND_LINE = 0        # the second surfer leaves the start only while the first is above this line (3)
R_FASTEST_POINTS = 1     # points of the fastest marker (2)
R_DUO_POINTS = 2         # points for both surfers on the beach (3)
R_LINES_PER_FOLD = 3     # sea lines the wave covers per fold (1)
R_FOLD_SAME_TURN = 4     # 1: the first fold happens at the end of the turn the marker is won (0)
R_BOOST_MIN = 5          # boost distance, min (1)
R_BOOST_MAX = 6          # ... max (2)
R_MAX_REFLICKS = 7       # guard: re-flicks per turn (not in the rulebook) (5)
R_MAX_RETRIES = 8        # guard: flicks that do not cross the start line before it counts as off (20)
R_TURN_LIMIT = 9         # guard: turns before the game is stopped (600)
R_PLUS_MINUS = 10        # pips change of the '+' cell (1)
R_MAX_CHAIN = 11         # guard of the legacy loop resolution: boosts set off by one stop (8)
R_BOOST_WHO = 12         # which surfer a boost moves: BOOST_* (arriving)
R_BOOST_LOOP = 13        # how a boost loop is resolved: LOOP_* (no_revisit)
R_SECOND_READING = 14    # the reading of "above the third line": SECOND_* (above)
R_TIDE_MOVE = 15         # a surfer ending a move / boost on a tide cell: TIDE_* (harmless)
N_RULES = 16

# rule options (component file `rules`, named values -> codes in rules[])
BOOST_ARRIVING = 0       # "boost_moves = arriving": the surfer that arrived moves on (the rulebook)
BOOST_STANDING = 1       # "standing": the surfer already on the circle moves on
BOOST_MOVES = {"arriving": BOOST_ARRIVING, "standing": BOOST_STANDING}
LOOP_NO_REVISIT = 0      # "boost_loop = no_revisit": a boost may not end on a cell its chain visited
LOOP_GUARD_PUSH = 1      # "guard_push": earlier engine's invented rule: after max_boost_chain boosts
                         #   the boosted surfer is pushed down
BOOST_LOOPS = {"no_revisit": LOOP_NO_REVISIT, "guard_push": LOOP_GUARD_PUSH}
SECOND_ABOVE = 0         # "second_surfer_reading = above": the first surfer beyond the line
SECOND_ON_OR_ABOVE = 1   # "on_or_above": on the line counts
SECOND_READINGS = {"above": SECOND_ABOVE, "on_or_above": SECOND_ON_OR_ABOVE}
TIDE_HARMLESS = 0        # "tide_on_move = harmless": only a push into a tide cell removes
TIDE_OUT = 1             # "out": a surfer ending a move, ride or boost on a tide cell is out too
TIDE_ON_MOVE = {"harmless": TIDE_HARMLESS, "out": TIDE_OUT}
BOOST_NO_RIDE = 8        # DEC_BOOST option flag: distance + 8 = move that far and do not ride

END_WAVE = 0
END_TURN_LIMIT = 1
END_REASON_NAMES = ("wave", "turn_limit")

# --- actions (log masks: bit ACT_*) ---------------------------------------------------------------
ACT_PLUS = 0
ACT_MINUS = 1
ACT_REFLICK = 2
ACT_CHANNEL_UP = 3
ACT_CHANNEL_DOWN = 4
N_ACTIONS = 5
ACTION_NAMES = ("pips +1", "pips -1", "re-flick", "channel up", "channel down")


class SurfersTables(NamedTuple):
    """Every tunable number of the game as arrays, built from the component file."""
    n_lines: int
    n_cols: int
    cell_kind: np.ndarray        # int64[n_lines, n_cols]: K_*
    line_label: np.ndarray       # int64[n_lines]: the number printed on the line (1..6, 0 = none)
    beach_open: np.ndarray       # int64[n_cols]: 1 if the column reaches the beach
    channels: np.ndarray         # int64[n, 4]: pre-drawn arrows (line, col, line2, col2)
    wave_kind: np.ndarray        # int64[wave_rows, wave_cols]: W_*
    finish_score: np.ndarray     # int64[n_finish]: points of each finish cell, best first
    finish_holds: np.ndarray     # int64[n_finish]: 1 = one surfer, 0 = any number
    skill: np.ndarray            # float64[MAX_PLAYERS]: noise spread multiplier per seat
    noise: np.ndarray            # float64[4]: sd distance = skill*(n0 + n1*aim), sd side = skill*(n2 + n3*aim)
    pip_weights: np.ndarray      # float64[6]: relative chance of pips 1..6
    rules: np.ndarray            # int64[N_RULES]


def _tables_dtype():
    return np.dtype([
        ("n_lines", np.int64), ("n_cols", np.int64), ("n_cells", np.int64),
        ("wave_rows", np.int64), ("wave_cols", np.int64), ("n_finish", np.int64),
        ("n_channels", np.int64),
        ("cell_kind", np.int64, (MAX_CELLS,)),      # K_* per cell (K_NONE outside the sheet)
        ("line_label", np.int64, (MAX_LINES,)),
        ("up", np.int64, (MAX_CELLS,)),             # next cell up the column, UP_BEACH / UP_BLOCKED
        ("below", np.int64, (MAX_CELLS,)),          # nearest cell below, NO_CELL
        ("col_first", np.int64, (MAX_COLS,)),       # lowest cell of each column, -1 if none
        ("channels", np.int64, (MAX_CELLS, 2)),     # pre-drawn arrows (from cell, to cell)
        # every arrow the geometry allows (circle -> circle on the next line up or down, at most
        # one column sideways), by start line: (from cell, to cell). For the strategies, which
        # value every arrow at every flick; legality in a state (start free, no loop, above the
        # wave, the pips line) is checked there (nb.channel_options_nb is the rule).
        ("n_arrows", np.int64),
        ("arrows", np.int64, (MAX_ARROWS, 2)),
        ("wave_kind", np.int64, (MAX_WAVE,)),
        ("finish_score", np.int64, (MAX_FINISH,)),
        ("finish_holds", np.int64, (MAX_FINISH,)),
        ("skill", np.float64, (MAX_PLAYERS,)),
        ("noise", np.float64, (4,)),
        ("pip_cum", np.float64, (N_PIPS,)),         # cumulative pip chances (last = 1)
        # aim_prob[seat, aim, w]: chance a flick aimed at the centre of wave cell `aim` lands in
        # wave cell w (w = AIM_OFF: off the sheet), given it crosses the start line. For the
        # strategies (computed from skill and noise when the tables are packed).
        ("aim_prob", np.float64, (MAX_PLAYERS, MAX_WAVE, MAX_WAVE + 1)),
        # aim_kind[seat, aim, k]: the same chances summed by the kind of cell landed in (W_*;
        # k = W_NONE: off the sheet or in a hole): what a strategy needs to value an aim
        ("aim_kind", np.float64, (MAX_PLAYERS, MAX_WAVE, N_WAVE_KINDS)),
        ("rules", np.int64, (N_RULES,)),
    ])


TABLES_DTYPE = _tables_dtype()


def _norm_cdf(x):
    from math import erf, sqrt
    return 0.5 * (1.0 + erf(x / sqrt(2.0)))


def band_probs(centre: float, sd: float, n: int) -> np.ndarray:
    """P(a normal(centre, sd) lands in [k, k+1)) for k = 0..n-1, plus [n] = below 0, [n+1] =
    at or above n."""
    out = np.zeros(n + 2)
    if sd <= 0:
        k = int(np.floor(centre))
        if k < 0:
            out[n] = 1.0
        elif k >= n:
            out[n + 1] = 1.0
        else:
            out[k] = 1.0
        return out
    edges = [_norm_cdf((e - centre) / sd) for e in range(n + 1)]
    for k in range(n):
        out[k] = edges[k + 1] - edges[k]
    out[n] = edges[0]
    out[n + 1] = 1.0 - edges[n]
    return out


def aim_probabilities(t: SurfersTables, seat: int) -> np.ndarray:
    """[MAX_WAVE, MAX_WAVE + 1]: the landing distribution of each aim for `seat` (see
    TABLES_DTYPE.aim_prob); rows of aims that are holes are zero."""
    rows, cols = t.wave_kind.shape
    out = np.zeros((MAX_WAVE, MAX_WAVE + 1))
    sk = float(t.skill[seat])
    n0, n1, n2, n3 = (float(x) for x in t.noise)
    for r in range(rows):
        for c in range(cols):
            if t.wave_kind[r, c] == W_NONE:
                continue
            aim = r * MAX_WAVE_COLS + c
            py = band_probs(r + 0.5, sk * (n0 + n1 * (r + 0.5)), rows)
            px = band_probs(c + 0.5, sk * (n2 + n3 * (r + 0.5)), cols)
            crossed = 1.0 - py[rows]
            if crossed <= 0:
                out[aim, AIM_OFF] = 1.0
                continue
            on = 0.0
            for rr in range(rows):
                for cc in range(cols):
                    if t.wave_kind[rr, cc] == W_NONE:
                        continue
                    p = py[rr] * px[cc] / crossed
                    out[aim, rr * MAX_WAVE_COLS + cc] = p
                    on += p
            out[aim, AIM_OFF] = max(0.0, 1.0 - on)
    return out


def pack_tables(t: SurfersTables) -> np.ndarray:
    """The kernels' copy of the tables: a 1-element recarray of TABLES_DTYPE."""
    rec = np.zeros(1, TABLES_DTYPE)
    r = rec[0]
    nl, nc = int(t.n_lines), int(t.n_cols)
    r["n_lines"], r["n_cols"], r["n_cells"] = nl, nc, nl * MAX_COLS
    wr, wc = t.wave_kind.shape
    r["wave_rows"], r["wave_cols"] = wr, wc
    r["n_finish"] = len(t.finish_score)
    kind = np.zeros(MAX_CELLS, np.int64)
    for line in range(nl):
        for col in range(nc):
            kind[line * MAX_COLS + col] = t.cell_kind[line, col]
    r["cell_kind"] = kind
    r["line_label"][:nl] = t.line_label
    up = np.full(MAX_CELLS, UP_BLOCKED, np.int64)
    below = np.full(MAX_CELLS, NO_CELL, np.int64)
    first = np.full(MAX_COLS, -1, np.int64)
    for col in range(nc):
        cells = [line * MAX_COLS + col for line in range(nl) if t.cell_kind[line, col] != K_NONE]
        if cells:
            first[col] = cells[0]
        for i, cell in enumerate(cells):
            up[cell] = cells[i + 1] if i + 1 < len(cells) else (UP_BEACH if t.beach_open[col] else UP_BLOCKED)
            below[cell] = cells[i - 1] if i > 0 else NO_CELL
    r["up"], r["below"], r["col_first"] = up, below, first
    ch = np.asarray(t.channels, np.int64).reshape(-1, 4)
    r["n_channels"] = len(ch)
    for i, (l1, c1, l2, c2) in enumerate(ch):
        r["channels"][i] = (l1 * MAX_COLS + c1, l2 * MAX_COLS + c2)
    n_arrows = 0
    for la in range(nl):
        for ca in range(nc):
            if t.cell_kind[la, ca] != K_CIRCLE:
                continue
            for dl in (1, -1):
                lb = la + dl
                if not 0 <= lb < nl:
                    continue
                for dc in (-1, 0, 1):
                    cb = ca + dc
                    if 0 <= cb < nc and t.cell_kind[lb, cb] == K_CIRCLE:
                        r["arrows"][n_arrows] = (la * MAX_COLS + ca, lb * MAX_COLS + cb)
                        n_arrows += 1
    r["n_arrows"] = n_arrows
    wk = np.zeros(MAX_WAVE, np.int64)
    for row in range(wr):
        for col in range(wc):
            wk[row * MAX_WAVE_COLS + col] = t.wave_kind[row, col]
    r["wave_kind"] = wk
    r["finish_score"][:len(t.finish_score)] = t.finish_score
    r["finish_holds"][:len(t.finish_holds)] = t.finish_holds
    r["skill"] = t.skill
    r["noise"] = t.noise
    w = np.asarray(t.pip_weights, np.float64)
    cum = np.cumsum(w / w.sum())
    cum[-1] = 1.0
    r["pip_cum"] = cum
    for seat in range(MAX_PLAYERS):
        ap = aim_probabilities(t, seat)
        r["aim_prob"][seat] = ap
        for k in range(N_WAVE_KINDS):
            cols = [w for w in range(MAX_WAVE) if wk[w] == k and k != W_NONE]
            r["aim_kind"][seat][:, k] = ap[:, cols].sum(axis=1) if cols else 0.0
        r["aim_kind"][seat][:, W_NONE] = ap[:, AIM_OFF]
    r["rules"] = t.rules
    return rec.view(np.recarray)


# --- game scalars: state.g[...] -------------------------------------------------------------
G_N_PLAYERS = 0
G_TURNS = 1            # turns played (game length)
G_SEAT = 2             # seat whose turn it is
G_WAVE = 3             # sea lines covered by the Great Wave (lines 0..wave-1); >= 1 also covers the start
G_FASTEST = 4          # seat holding the fastest marker, -1 none
G_FASTEST_PENDING = 5  # seat that brought the first surfer to the beach this turn (gets the marker at its end)
G_OVER = 6
G_END_REASON = 7
G_ARRIVALS = 8         # surfers that reached the beach
G_PIPS = 9             # this turn's pips (after actions)
G_HALF = 10            # 1 if this turn's move is halved
G_LANDED = 11          # wave cell the die landed in, -1 off the sheet
G_FOLDS = 12           # folds made
G_FASTEST_TURN = 13    # turn at which the marker was won (-1)
N_G = 14

# --- per-seat statistics: state.stats[p, ...] -----------------------------------------------
ST_FLICKS = 0          # flicks counted (re-flicks included, retries of short flicks not)
ST_SHORT = 1           # flicks that did not cross the start line (repeated)
ST_OFF = 2             # flicks off the sheet
ST_HALF = 3            # moves halved (off the sheet or 1/2 cell)
ST_PLUS = 4            # pips +1 used
ST_MINUS = 5           # pips -1 used
ST_REFLICK = 6         # re-flicks used
ST_CHAN_UP = 7         # channels drawn upward
ST_CHAN_DOWN = 8       # channels drawn downward
ST_MOVES = 9           # normal moves made
ST_PROGRESS = 10       # lines gained by own surfers through own moves (normal move, rides, boosts)
ST_PUSHES = 11         # opponent surfers this seat pushed (first of each chain)
ST_PUSHED = 12         # times this seat's surfers were pushed
ST_BOOSTS = 13         # boosts made
ST_RIDES = 14          # channel rides by this seat's surfers
ST_KILLS = 15          # opponent surfers this seat's pushes sent into tide / off the sheet under the wave
ST_TURNS = 16          # turns this seat played
ST_PASS = 17           # turns with no surfer move (0 pips or nothing movable)
ST_AIM_HIT = 18        # flicks that landed in the aimed cell
ST_CHAN_RIDE_OTHER = 19  # rides this seat's channels gave to opponents (immediate rides on drawing)
ST_ACTION_CELLS = 20   # flicks landing on a cell with an action
ST_BOOST_CHAIN = 21    # boosts set off by a boost (a loop: only under boost_loop = guard_push)
N_STATS = 22           # (illegal answers and choices are the harness's counts: columns illegal, choices)

# --- where the game stands between decisions (model.py): state.at[...] --------------------------
# The old play loop kept these in local variables; the forward model keeps them in the state so
# that a copied state resumes at the same decision.
AT_PHASE = 0       # the decision the game waits for: DEC_* (PH_OVER when the game is over)
AT_TO_MOVE = 1     # seat whose decision it is (-1 over); a boost's is the boosted surfer's owner
AT_REFLICKS = 2    # re-flicks taken in this turn
AT_LANDED = 3      # wave cell this turn's (last) flick landed in, -1 off the sheet
AT_PIPS = 4        # this turn's pips (after a +/-1 action)
AT_HALF = 5        # 1: this turn's move is halved (landed off the sheet or in a 1/2 cell)
AT_STEPS = 6       # DEC_MOVE: cells the move goes
AT_CAND = 7        # DEC_BOOST: the surfer to boost (-1 none)
AT_CHAIN = 8       # boosts already made in this chain (the guard_push loop guard)
AT_AFTER = 9       # where the turn goes once the boost chain is resolved: AFTER_*
N_AT = 10
PH_OVER = -1
AFTER_ACTION = 0   # a channel action's boosts: the move comes next
AFTER_MOVE = 1     # the move's boosts: the turn ends

# The state of one game: one numpy record of fixed-size arrays, passed by reference. All
# public: a dexterity race hides nothing (only the future flicks and pips are unknown: the
# chance stream).
STATE_DTYPE = np.dtype([
    ("g", np.int64, (N_G,)),
    ("at", np.int64, (N_AT,)),                     # AT_*: where the game stands (model.py)
    ("ctx", np.int64, (8,)),                       # the strategies' side inputs (CTX_*), kept
                                                   #   exactly as the old loop's ctx array
    ("status", np.int64, (MAX_SURFERS,)),          # S_* per surfer (seat * 2 + k)
    ("cell", np.int64, (MAX_SURFERS,)),            # cell on the sea (S_SEA), else -1
    ("slot", np.int64, (MAX_SURFERS,)),            # finish cell (S_BEACH), else -1
    ("no_ride", np.int64, (MAX_SURFERS,)),         # 1: pushed, must move a cell before riding again
    ("left_start", np.int64, (MAX_SURFERS,)),      # 1 once the surfer left the start
    ("occ", np.int64, (MAX_CELLS,)),               # circle cells: the surfer on it, -1 none
    ("chan", np.int64, (MAX_CELLS,)),              # outgoing arrow of a cell: target cell, -1 none
    ("chan_by", np.int64, (MAX_CELLS,)),           # seat that drew it (-1: printed on the sheet)
    ("finish", np.int64, (MAX_FINISH,)),           # one-surfer finish cells: the surfer, -1 none
    ("streams", np.uint64, (1 + MAX_PLAYERS,)),    # RNG counters: chance, then one per seat
    ("stats", np.int64, (MAX_PLAYERS, N_STATS)),
])

# --- decisions passed to strategies ----------------------------------------------------------
DEC_AIM = 0      # options: wave cell ids (row * MAX_WAVE_COLS + col) to aim at
DEC_ACTION = 1   # options: OPT_NO_ACTION, OPT_PLUS, OPT_MINUS, OPT_REFLICK,
                 #   OPT_CHANNEL + from_cell * MAX_CELLS + to_cell; ctx: pips, half, landed cell
DEC_MOVE = 2     # options: surfer k (0/1) * MAX_COLS + column entered (from the start) or its column
DEC_BOOST = 3    # options: distances (1, 2), or distance + BOOST_NO_RIDE when every distance
                 #   would ride back (boost_loop = no_revisit); ctx[CTX_BOOSTED] = the surfer boosted
DEC_NAMES = ("aim", "action", "move", "boost")
OPT_NO_ACTION = 0
OPT_PLUS = 1
OPT_MINUS = 2
OPT_REFLICK = 3
OPT_CHANNEL = 16
MAX_OPTIONS = 2048
CTX_LEN = 8
CTX_PIPS = 0
CTX_HALF = 1
CTX_LANDED = 2
CTX_BOOSTED = 3
CTX_STEPS = 4     # DEC_MOVE: cells this move goes
KEEP_LEN = MAX_OPTIONS + 16   # keep[MAX_OPTIONS + seat]: a strategy's per-game cache (0 = empty)
assert STATE_DTYPE["ctx"].shape == (CTX_LEN,)

# --- trace events (replay): trace[i] = (EV_*, a, b, c, d, e) ---------------------------------------
EV_TURN = 0        # a = seat, b = turn
EV_FLICK = 1       # a = seat, b = aim, c = landed wave cell (-1 off), d = pips, e = short flicks repeated
EV_ACTION = 2      # a = seat, b = OPT_* code
EV_MOVE = 3        # a = surfer, b = from cell (-1 start), c = to cell (-1 beach), d = cells
EV_RIDE = 4        # a = surfer, b = from cell, c = to cell
EV_PUSH = 5        # a = surfer pushed, b = from cell, c = to cell (-1: start / removed), d = status after
EV_BOOST = 6       # a = surfer, b = distance, c = from cell, d = to cell (-1 beach), e = 1 no ride (loop rule)
EV_FINISH = 7      # a = surfer, b = finish cell
EV_FASTEST = 8     # a = seat
EV_FOLD = 9        # a = lines covered now, b = surfers removed, c = channels removed
EV_REMOVED = 10    # a = surfer, b = S_* status (wave / tide)
EV_END = 11        # a = END_* reason
EV_PASS = 12       # a = seat (no move)
TRACE_WIDTH = 6

# --- invariant codes (check_state_nb) ----------------------------------------------------------
CHK_PLACE = 1      # a surfer's status and cell/slot disagree, or it sits under the wave / on no cell
CHK_CIRCLE = 2     # two surfers on a circle, or occ[] disagrees with the surfers
CHK_LOOP = 3       # the channels form a loop, or an arrow breaks the channel geometry
CHK_FINISH = 4     # a one-surfer finish cell holds more, or finish[] disagrees
CHK_SECOND = 5     # a second surfer left the start while its first was not above the line
