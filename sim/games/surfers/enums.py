"""Grand Surfers: constants, the component tables and the state layout.

Everything the compiled rules read is declared here, with its encoding beside it. The sea
sheet, the wave sheet, the finish cells, the flick model (noise, per-seat skill) and the rule
numbers arrive in a `TABLES_DTYPE` record, built from the validated component file
(components.build_tables), so changing them never recompiles. The constants below are
capacities and code values. Every scalar of the tables and of the state is a named field
(`tables.turn_limit`, `s.wave`), its encoding written beside it.

Geometry. The sea sheet is a grid of lines (rows) and columns. Line 0 is the line nearest
the start (the rulebook's "first line"), line n_lines-1 the one next to the beach; a cell is
`line * MAX_COLS + col`. The start (below line 0) and the beach (above the last line) are not
cells: a surfer's place is its status (start / sea / beach / removed) plus a cell or a finish
slot. "Forward" is up a column (towards the beach), "down" is towards the start.

The wave sheet (the flick target) is a grid of wave_rows x wave_cols cells; row 0 is nearest
the start line. Wave cell = row * MAX_WAVE_COLS + col.
"""
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

# rule options (component file `rules`, named values -> the codes of the tables' fields)
BOOST_ARRIVING = 0       # "boost_moves = arriving": the surfer that arrived moves on (the rulebook)
BOOST_STANDING = 1       # "standing": the surfer already on the circle moves on
BOOST_MOVES = {"arriving": BOOST_ARRIVING, "standing": BOOST_STANDING}
LOOP_NO_REVISIT = 0      # "boost_loop = no_revisit": a boost may not end on a cell its chain visited
LOOP_GUARD_PUSH = 1      # "guard_push": a chain of boosts may revisit cells; after max_boost_chain
                         #   boosts the boosted surfer is pushed down (invented, kept to compare)
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


def _tables_dtype():
    return np.dtype([
        ("n_lines", np.int64),                      # sea lines (line 0 nearest the start)
        ("n_cols", np.int64),                       # columns of the sea sheet
        ("n_cells", np.int64),                      # n_lines * MAX_COLS: cell ids below it
        ("wave_rows", np.int64),                    # rows of the wave sheet (row 0 at the start line)
        ("wave_cols", np.int64),                    # columns of the wave sheet
        ("n_finish", np.int64),                     # finish cells (best first)
        ("n_channels", np.int64),                   # pre-drawn arrows in `channels`
        ("cell_kind", np.int64, (MAX_CELLS,)),      # K_* per cell (K_NONE outside the sheet)
        ("line_label", np.int64, (MAX_LINES,)),     # the number printed on the line (1..6, 0 none)
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
        ("wave_kind", np.int64, (MAX_WAVE,)),       # W_* per wave cell (W_NONE outside the sheet)
        ("finish_score", np.int64, (MAX_FINISH,)),  # points of each finish cell, best first
        ("finish_holds", np.int64, (MAX_FINISH,)),  # 1 = one surfer, 0 = any number
        ("skill", np.float64, (MAX_PLAYERS,)),      # flick spread per seat (0 = perfect aim)
        # sd along = skill * (noise[0] + noise[1] * aimed row), sd sideways = skill * (noise[2] +
        # noise[3] * aimed row), in cells
        ("noise", np.float64, (4,)),
        ("pip_cum", np.float64, (N_PIPS,)),         # cumulative pip chances (last = 1)
        # aim_prob[seat, aim, w]: chance a flick aimed at the centre of wave cell `aim` lands in
        # wave cell w (w = AIM_OFF: off the sheet), given it crosses the start line. For the
        # strategies (computed from skill and noise when the tables are packed).
        ("aim_prob", np.float64, (MAX_PLAYERS, MAX_WAVE, MAX_WAVE + 1)),
        # aim_kind[seat, aim, k]: the same chances summed by the kind of cell landed in (W_*;
        # k = W_NONE: off the sheet or in a hole): what a strategy needs to value an aim
        ("aim_kind", np.float64, (MAX_PLAYERS, MAX_WAVE, N_WAVE_KINDS)),
        # the rules (component file `rules`, the same names): numbers as written there,
        # yes/no as 1/0, rule options as their codes; the shipped value in brackets
        ("second_surfer_line", np.int64),  # the second surfer leaves the start only while the
                                           #   first is above this line (3)
        ("second_surfer_reading", np.int64),  # the reading of "above" that line: SECOND_* (above)
        ("fastest_points", np.int64),      # points of the fastest marker (2)
        ("duo_points", np.int64),          # points for both surfers on the beach (3)
        ("lines_per_fold", np.int64),      # sea lines the wave covers per fold (1)
        ("fold_on_marker_turn", np.int64),  # 1: the first fold is at the end of the turn the
                                            #   marker is won (0)
        ("boost_min", np.int64),           # boost distance, min (1)
        ("boost_max", np.int64),           # ... max (2)
        ("boost_moves", np.int64),         # which surfer a boost moves: BOOST_* (arriving)
        ("boost_loop", np.int64),          # how a boost loop is resolved: LOOP_* (no_revisit)
        ("pips_change", np.int64),         # pips change of the '+' cell (1)
        ("tide_on_move", np.int64),        # a surfer ending a move / boost on a tide cell:
                                           #   TIDE_* (harmless)
        ("max_reflicks", np.int64),        # guard: re-flicks per turn (not in the rulebook) (5)
        ("max_short_flicks", np.int64),    # guard: flicks that do not cross the start line before
                                           #   the flick counts as off the sheet (20)
        ("max_boost_chain", np.int64),     # guard of boost_loop = guard_push: boosts set off by
                                           #   one stop (8)
        ("turn_limit", np.int64),          # guard: turns before the game is stopped (600)
    ], align=True)


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


def aim_probabilities(wave_kind: np.ndarray, spread: float, noise) -> np.ndarray:
    """[MAX_WAVE, MAX_WAVE + 1]: the landing distribution of each aim on the wave sheet
    `wave_kind` (W_*[rows, cols]) for a hand of the given spread (see TABLES_DTYPE.aim_prob);
    rows of aims that are holes are zero."""
    rows, cols = wave_kind.shape
    out = np.zeros((MAX_WAVE, MAX_WAVE + 1))
    sk = float(spread)
    n0, n1, n2, n3 = (float(x) for x in noise)
    for r in range(rows):
        for c in range(cols):
            if wave_kind[r, c] == W_NONE:
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
                    if wave_kind[rr, cc] == W_NONE:
                        continue
                    p = py[rr] * px[cc] / crossed
                    out[aim, rr * MAX_WAVE_COLS + cc] = p
                    on += p
            out[aim, AIM_OFF] = max(0.0, 1.0 - on)
    return out


def pack_tables(tables: np.ndarray) -> np.ndarray:
    """The kernels' tables: the component file's tables already are the 1-element TABLES_DTYPE
    recarray (components.build_tables); the platform calls pack_tables(components.tables)."""
    return tables


# --- where the game stands between decisions (the state's fields phase .. after_boosts) -------
PH_OVER = -1       # phase once the game is over
AFTER_ACTION = 0   # after_boosts: a channel action's boosts; the move comes next
AFTER_MOVE = 1     # after_boosts: the move's boosts; the turn ends

# The state of one game: one numpy record, passed by reference. All public: a dexterity race
# hides nothing (only the future flicks and pips are unknown: the chance stream).
STATE_DTYPE = np.dtype([
    # the game
    ("n_players", np.int64),
    ("turn", np.int64),             # turns played: the game turn under way, from 0 (at the end:
                                    #   the game's length)
    ("seat", np.int64),             # seat whose turn it is
    ("wave", np.int64),             # sea lines covered by the Great Wave (lines 0..wave-1);
                                    #   >= 1 also covers the start
    ("fastest", np.int64),          # seat holding the fastest marker, -1 none
    ("fastest_pending", np.int64),  # seat that brought the first surfer to the beach this turn
                                    #   (gets the marker at its end), -1 none
    ("fastest_turn", np.int64),     # turn at which the marker was won, -1 not yet
    ("over", np.int64),             # 1 once the game is over
    ("end_reason", np.int64),       # END_* (once over)
    ("arrivals", np.int64),         # surfers that reached the beach
    ("folds", np.int64),            # folds of the wave sheet made
    # where the game stands between decisions (model.py), so that a copied state resumes at
    # the same decision
    ("phase", np.int64),            # the decision the game waits for: DEC_* (PH_OVER once over)
    ("to_move", np.int64),          # seat whose decision it is (-1 once over); a boost's is the
                                    #   boosted surfer's owner
    ("turn_reflicks", np.int64),    # re-flicks taken in this turn (rules.max_reflicks)
    ("landed", np.int64),           # wave cell this turn's (last) flick landed in, -1 off the sheet
    ("pips", np.int64),             # this turn's pips (after a +/-1 action)
    ("half", np.int64),             # 1: this turn's move is halved (off the sheet or a 1/2 cell)
    ("steps", np.int64),            # DEC_MOVE: cells the move goes
    ("boost_surfer", np.int64),     # DEC_BOOST: the surfer to boost, -1 none
    ("boost_chain", np.int64),      # boosts already made in this chain (rules.max_boost_chain)
    ("after_boosts", np.int64),     # where the turn goes once the boost chain is resolved: AFTER_*
    # the strategies' side inputs (CTX_*), copied whole into the platform's ctx array by
    # context_nb; a value not renewed at a decision is the one an earlier decision left
    ("ctx", np.int64, (8,)),
    # the table
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
    # per-seat counters, [seat]: the log columns of the same name (model.RECORD); seat_turns is
    # the column `turns`, rides_given is in no column. Kept last (SEAT_COUNTERS).
    ("seat_turns", np.int64, (MAX_PLAYERS,)),      # turns this seat played
    ("flicks", np.int64, (MAX_PLAYERS,)),          # flicks counted (re-flicks included, retries of
                                                   #   short flicks not)
    ("short_flicks", np.int64, (MAX_PLAYERS,)),    # flicks that did not cross the start line (repeated)
    ("off_sheet", np.int64, (MAX_PLAYERS,)),       # flicks off the sheet
    ("aim_hits", np.int64, (MAX_PLAYERS,)),        # flicks that landed in the aimed cell
    ("action_cells", np.int64, (MAX_PLAYERS,)),    # flicks landing on a cell with an action
    ("half_moves", np.int64, (MAX_PLAYERS,)),      # moves halved (off the sheet or 1/2 cell)
    ("plus", np.int64, (MAX_PLAYERS,)),            # pips +1 used
    ("minus", np.int64, (MAX_PLAYERS,)),           # pips -1 used
    ("reflicks", np.int64, (MAX_PLAYERS,)),        # re-flicks used
    ("channels_up", np.int64, (MAX_PLAYERS,)),     # channels drawn upward
    ("channels_down", np.int64, (MAX_PLAYERS,)),   # channels drawn downward
    ("rides_given", np.int64, (MAX_PLAYERS,)),     # rides this seat's channels gave to opponents
                                                   #   (immediate rides on drawing)
    ("moves", np.int64, (MAX_PLAYERS,)),           # normal moves made
    ("passes", np.int64, (MAX_PLAYERS,)),          # turns with no surfer move (0 pips or nothing movable)
    ("progress", np.int64, (MAX_PLAYERS,)),        # lines gained by own surfers through own moves
                                                   #   (normal move, rides, boosts)
    ("pushes", np.int64, (MAX_PLAYERS,)),          # opponent surfers this seat pushed (first of each chain)
    ("pushed", np.int64, (MAX_PLAYERS,)),          # times this seat's surfers were pushed
    ("kills", np.int64, (MAX_PLAYERS,)),           # opponent surfers this seat's pushes sent into tide /
                                                   #   off the sheet under the wave
    ("boosts", np.int64, (MAX_PLAYERS,)),          # boosts made
    ("rides", np.int64, (MAX_PLAYERS,)),           # channel rides by this seat's surfers
    ("boost_loops", np.int64, (MAX_PLAYERS,)),     # boosts set off by a boost (a loop: only under
                                                   #   rules.boost_loop = guard_push)
    # (illegal answers and choices are the harness's counts: columns illegal, choices)
], align=True)
SEAT_COUNTERS = STATE_DTYPE.names[STATE_DTYPE.names.index("seat_turns"):]

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
