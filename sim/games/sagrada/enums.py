"""Sagrada: constants, the component tables and the state layout.

Everything the compiled rules read is declared here, with its encoding beside it. Numbers a
designer may tune (window grids, objective points, tool colours, dice counts, rounds, rule
numbers) are NOT constants here: they arrive in `SagradaTables`, built from the component
file, so changing them never recompiles. The constants below are array capacities, the
window geometry (4 x 5, printed on the frame boards) and code values.
"""
from typing import NamedTuple

import numpy as np

# --- dice ---------------------------------------------------------------------------------
N_COLOURS = 5                  # colour codes 0..4: red, yellow, green, blue, purple
COLOUR_NAMES = ("red", "yellow", "green", "blue", "purple")
COLOUR_LETTERS = "RYGBP"
N_VALUES = 6                   # values (shades) 1..6
NO_COLOUR = -1                 # window cell: no die / pattern cell: no colour restriction
NO_VALUE = 0                   # window cell: no die / pattern cell: no shade restriction

# --- the window (every pattern card is 4 rows x 5 columns) ---------------------------------
ROWS = 4
COLS = 5
N_CELLS = ROWS * COLS          # cell = row * COLS + col, row 0 at the top


def _neighbours():
    orth = np.full((N_CELLS, 4), -1, np.int64)
    diag = np.full((N_CELLS, 4), -1, np.int64)
    edge = np.zeros(N_CELLS, np.int64)
    for c in range(N_CELLS):
        r, k = divmod(c, COLS)
        edge[c] = 1 if r in (0, ROWS - 1) or k in (0, COLS - 1) else 0
        i = 0
        for dr, dk in ((-1, 0), (0, 1), (1, 0), (0, -1)):
            if 0 <= r + dr < ROWS and 0 <= k + dk < COLS:
                orth[c, i] = (r + dr) * COLS + k + dk
                i += 1
        i = 0
        for dr, dk in ((-1, -1), (-1, 1), (1, 1), (1, -1)):
            if 0 <= r + dr < ROWS and 0 <= k + dk < COLS:
                diag[c, i] = (r + dr) * COLS + k + dk
                i += 1
    return orth, diag, edge


ORTH, DIAG, EDGE = _neighbours()   # ORTH[c], DIAG[c]: neighbour cells, -1 padded; EDGE[c]: 1 on the border

# Cell sets as 20-bit masks (bit cell): legality is computed for all cells at once.
FULL_MASK = (1 << N_CELLS) - 1
EDGE_MASK = sum(1 << c for c in range(N_CELLS) if EDGE[c])
COL0_MASK = sum(1 << (r * COLS) for r in range(ROWS))
COLL_MASK = sum(1 << (r * COLS + COLS - 1) for r in range(ROWS))

# --- capacities ---------------------------------------------------------------------------
MAX_PLAYERS = 4
MAX_DICE = 128                 # dice in the game (box: 90)
MAX_PATTERNS = 64              # window pattern sides (box: 24 = 12 cards x 2)
MAX_PUBLIC = 16                # public objective cards (box: 10)
MAX_PRIVATE = 8                # private objective cards (box: 5)
MAX_TOOLS = 16                 # tool cards (box: 12)
MAX_POOL = 16                  # draft pool (4 players: 9 dice)
MAX_ROUNDS = 12                # rounds (box: 10)
MAX_TRACK = MAX_POOL * MAX_ROUNDS  # dice on the round track
MAX_IN_PLAY = 5                # tool cards face up (multi: 3, solo: 1-5)
N_PUB_SLOTS = 3                # public objectives face up (multi: 3, solo: 2)
MAX_DEAL = 4                   # window cards dealt per player (box: 2, each 2 sides)
MAX_SIDES = 2 * MAX_DEAL
N_PRIV_SLOTS = 2               # private objectives held (solo: 2)

# --- public objective kinds (public_kind in the tables; public_mask is their parameter) ----
OBJ_ROW_COLOUR = 0             # complete rows with no repeated colour
OBJ_COL_COLOUR = 1             # complete columns with no repeated colour
OBJ_ROW_SHADE = 2              # complete rows with no repeated value
OBJ_COL_SHADE = 3              # complete columns with no repeated value
OBJ_SHADE_SET = 4              # sets of one of each value in mask (bit v-1 = value v) anywhere
OBJ_COLOUR_SET = 5             # sets of one of each colour in mask (bit c = colour c) anywhere
OBJ_COLOUR_DIAGONALS = 6       # dice with at least one diagonally adjacent die of the same colour
OBJ_KIND_NAMES = ("row_colour_variety", "column_colour_variety", "row_shade_variety",
                  "column_shade_variety", "shade_set", "colour_set", "colour_diagonals")

# --- tool effects (tool_effect in the tables) ----------------------------------------------
T_GROZING_PLIERS = 0           # 1: drafted die +1 / -1 (no 1<->6), then placed
T_EGLOMISE_BRUSH = 1           # 2: move a window die ignoring colour restrictions
T_COPPER_FOIL = 2              # 3: move a window die ignoring shade restrictions
T_LATHEKIN = 3                 # 4: move exactly two window dice
T_LENS_CUTTER = 4              # 5: swap the drafted die with a round-track die, then place it
T_FLUX_BRUSH = 5               # 6: re-roll the drafted die; place it if possible, else back to the pool
T_GLAZING_HAMMER = 6           # 7: re-roll the pool; second turn of the round, before drafting
T_RUNNING_PLIERS = 7           # 8: first turn: draft a second die now, skip the second turn
T_CORK_BACKED = 8              # 9: place the drafted die on a cell adjacent to no die
T_GRINDING_STONE = 9           # 10: flip the drafted die (v -> 7 - v), then place it
T_FLUX_REMOVER = 10            # 11: drafted die to the bag, draw one, choose its value, place or pool
T_TAP_WHEEL = 11               # 12: move up to two dice of one colour present on the round track
N_TOOL_EFFECTS = 12
TOOL_EFFECT_NAMES = ("grozing_pliers", "eglomise_brush", "copper_foil_burnisher", "lathekin",
                     "lens_cutter", "flux_brush", "glazing_hammer", "running_pliers",
                     "cork_backed_straightedge", "grinding_stone", "flux_remover", "tap_wheel")
# tools whose use is the turn's draft ("shift the turn" in the components doc)
TOOL_DRAFTS = np.array([1, 0, 0, 0, 1, 1, 0, 0, 1, 1, 1, 0], np.int64)

# --- rule numbers (rules[] in the tables) ---------------------------------------------------
R_ROUNDS = 0                   # rounds (10)
R_DICE_PER_PLAYER = 1          # dice drawn per round = players x this + R_DICE_EXTRA (2)
R_DICE_EXTRA = 2               # (1)
R_N_PUBLIC = 3                 # public objectives face up (3)
R_N_TOOLS = 4                  # tool cards face up (3)
R_WINDOW_CARDS = 5             # window cards dealt per player, 2 sides each (2)
R_EMPTY_PENALTY = 6            # points lost per empty space (1)
R_TOKEN_POINTS = 7             # points per unspent favor token (1)
R_TOOL_FIRST_COST = 8          # favor tokens for a tool card with no tokens on it (1)
R_TOOL_LATER_COST = 9          # ... with tokens on it (2)
R_PIP_POINTS = 10              # private objective: points per pip (1)
R_SOLO_DICE = 11               # solo: dice drawn per round (4)
R_SOLO_PUBLIC = 12             # solo: public objectives (2)
R_SOLO_PRIVATE = 13            # solo: private objectives, the best one counts (2)
R_SOLO_TOOLS = 14              # solo: tool cards = difficulty, 1 (hardest) .. 5 (easiest) (3)
R_SOLO_EMPTY_PENALTY = 15      # solo: points lost per empty space (3)
N_RULES = 16

END_ROUNDS = 0
END_REASON_NAMES = ("rounds",)


class SagradaTables(NamedTuple):
    """Every tunable number of the game as arrays, built from the component file.
    Card ids are row indices (0-based, file order)."""
    pattern_colour: np.ndarray      # int64[n_pat, N_CELLS]: colour restriction or NO_COLOUR
    pattern_value: np.ndarray       # int64[n_pat, N_CELLS]: value restriction 1..6 or NO_VALUE
    pattern_difficulty: np.ndarray  # int64[n_pat]: favor tokens
    pattern_card: np.ndarray        # int64[n_pat]: physical card (0-based pair index)
    card_sides: np.ndarray          # int64[n_cards, 2]: the pattern ids on each physical card
    public_kind: np.ndarray         # int64[n_pub]: OBJ_* code
    public_mask: np.ndarray         # int64[n_pub]: value / colour bitmask for the set kinds
    public_points: np.ndarray       # int64[n_pub]: points per occurrence
    private_colour: np.ndarray      # int64[n_priv]: colour code
    tool_effect: np.ndarray         # int64[n_tool]: T_* code
    tool_colour: np.ndarray         # int64[n_tool]: colour code (pays for it in solo)
    tool_number: np.ndarray         # int64[n_tool]: rule number printed on the card (1..12)
    dice_per_colour: np.ndarray     # int64[N_COLOURS]
    rules: np.ndarray               # int64[N_RULES]


def _tables_dtype():
    return np.dtype([
        ("n_patterns", np.int64), ("n_cards", np.int64), ("n_public", np.int64),
        ("n_private", np.int64), ("n_tools", np.int64), ("n_dice", np.int64),
        ("pattern_colour", np.int64, (MAX_PATTERNS, N_CELLS)),
        ("pattern_value", np.int64, (MAX_PATTERNS, N_CELLS)),
        ("pattern_difficulty", np.int64, (MAX_PATTERNS,)),
        ("pattern_card", np.int64, (MAX_PATTERNS,)),
        ("card_sides", np.int64, (MAX_PATTERNS, 2)),
        ("public_kind", np.int64, (MAX_PUBLIC,)),
        ("public_mask", np.int64, (MAX_PUBLIC,)),
        ("public_points", np.int64, (MAX_PUBLIC,)),
        ("private_colour", np.int64, (MAX_PRIVATE,)),
        ("tool_effect", np.int64, (MAX_TOOLS,)),
        ("tool_colour", np.int64, (MAX_TOOLS,)),
        ("tool_number", np.int64, (MAX_TOOLS,)),
        ("dice_per_colour", np.int64, (N_COLOURS,)),
        ("rules", np.int64, (N_RULES,)),
    ])


TABLES_DTYPE = _tables_dtype()
CAPACITY = {"patterns": MAX_PATTERNS, "public": MAX_PUBLIC, "private": MAX_PRIVATE,
            "tools": MAX_TOOLS, "dice": MAX_DICE}


def pack_tables(t: SagradaTables) -> np.ndarray:
    """The kernels' copy of the tables: a 1-element recarray of TABLES_DTYPE."""
    counts = {"patterns": len(t.pattern_difficulty), "public": len(t.public_kind),
              "private": len(t.private_colour), "tools": len(t.tool_effect),
              "dice": int(np.sum(t.dice_per_colour))}
    for what, n in counts.items():
        if n > CAPACITY[what]:
            raise ValueError(f"{what}: {n}, more than the engine holds ({CAPACITY[what]})")
    rec = np.zeros(1, TABLES_DTYPE)
    r = rec[0]
    r["n_patterns"], r["n_public"] = counts["patterns"], counts["public"]
    r["n_private"], r["n_tools"], r["n_dice"] = counts["private"], counts["tools"], counts["dice"]
    r["n_cards"] = len(t.card_sides)
    for name in SagradaTables._fields:
        value = np.asarray(getattr(t, name))
        target = r[name]
        if value.ndim == 2:
            target[:value.shape[0], :value.shape[1]] = value
        else:
            target[:value.shape[0]] = value
    return rec.view(np.recarray)


# --- game scalars: state.g[...] -------------------------------------------------------------
G_N_PLAYERS = 0
G_SOLO = 1
G_ROUND = 2            # 0-based round being played
G_N_ROUNDS = 3
G_START = 4            # start player of the current round (holds the bag)
G_FIRST_START = 5      # start player of round 1
G_OVER = 6
G_END_REASON = 7
G_TURNS = 8            # turns played (game length)
G_N_BAG = 9            # dice in the bag, bag[:n]
G_N_POOL = 10          # dice in the draft pool
G_N_TRACK = 11         # dice on the round track
G_N_SPENT = 12         # solo: dice spent on tools (out of play)
G_HELD_COLOUR = 13     # a die drafted by a tool and not yet placed (-1: none)
G_HELD_VALUE = 14
G_N_PUBLIC = 15        # public objectives face up
G_N_TOOLS = 16         # tool cards face up
G_N_PRIVATE = 17       # private objectives per seat (1; solo 2)
G_SEAT = 18            # seat whose turn it is (-1 outside turns)
G_TURN_IN_ROUND = 19   # 0 = that seat's first turn of the round, 1 = its second
G_DRAFTS_LEFT = 20     # dice the seat may still draft this turn
G_TOOL_USED = 21       # 1 once the seat used a tool this turn
G_DRAFTED = 22         # dice the seat drafted this turn
# where the game stands (the forward model, model.py): the decision pending and its arguments
G_DEC = 23             # DEC_* code of the pending decision, -1 once the game is over
G_TO_MOVE = 24         # seat that takes the pending decision (-1 once over)
G_ORDER_T = 25         # index into order[] of the turn being played (-1 before a round's first)
G_TOOL_EFFECT = 26     # T_* effect of the tool being carried out (-1: none)
G_TOOL_STEP = 27       # that tool's step (0, 1: Flux Remover's value, Lathekin's / Tap Wheel's 2nd move)
G_PLACE_MODE = 28      # DEC_PLACE: placement mode (M_* bits) of the held die
G_TOOL_TO = 29         # Lathekin / Tap Wheel step 1: the cell the first moved die went to
G_N_OPTS = 30          # legal options of the pending decision, cached in opts[:n]
N_G = 31

# --- per-seat statistics: state.stats[p, ...] -------------------------------------------------
ST_PLACED = 0          # dice placed (drafted or by a tool)
ST_PASSES = 1          # turns in which the seat drafted no die
ST_TOOLS = 2           # tool cards used
ST_TOKENS_SPENT = 3    # favor tokens spent
ST_MOVES = 4           # window dice moved by tools
ST_RETURNED = 5        # dice a tool returned to the pool
N_STATS = 6            # (illegal answers and choices are the harness's counts: columns illegal, choices)

MAX_OPTIONS = 512              # longest list of legal options of one decision
CTX_LEN = 8                    # side inputs of a decision (strategies' ctx): see DEC_* below

# Placement modes (bits): what a tool lets a die ignore.
M_IGNORE_COLOUR = 1    # Eglomise Brush
M_IGNORE_SHADE = 2     # Copper Foil Burnisher
M_NOT_ADJACENT = 4     # Cork-backed Straightedge: next to no die instead of next to one

# The state of one game: one numpy record of fixed-size arrays, passed by reference; the whole
# game is in it (model.py: copying it copies the game). Public: everything except the bag's
# order, other seats' private objectives (priv), and during the window choice the other seats'
# dealt cards and hidden choices (pending_window) (model.observe_nb, determinize_nb).
STATE_DTYPE = np.dtype([
    ("g", np.int64, (N_G,)),
    ("bag", np.int64, (MAX_DICE,)),                    # colours of the dice in the bag, bag[:n]
    ("pool_colour", np.int64, (MAX_POOL,)),            # draft pool, [:g[G_N_POOL]]
    ("pool_value", np.int64, (MAX_POOL,)),
    ("track_colour", np.int64, (MAX_TRACK,)),          # round track, [:g[G_N_TRACK]]
    ("track_value", np.int64, (MAX_TRACK,)),
    ("track_round", np.int64, (MAX_TRACK,)),           # 0-based round the die was left in
    ("spent_colour", np.int64, (MAX_TRACK,)),          # solo: dice paid for tools
    ("spent_value", np.int64, (MAX_TRACK,)),
    ("win_colour", np.int64, (MAX_PLAYERS, N_CELLS)),  # the dice in each window, NO_COLOUR if empty
    ("win_value", np.int64, (MAX_PLAYERS, N_CELLS)),   # 1..6, NO_VALUE if empty
    ("win_exempt", np.int64, (MAX_PLAYERS, N_CELLS)),  # M_IGNORE_* the die was moved with
    ("n_placed", np.int64, (MAX_PLAYERS,)),            # dice in each window
    ("wmask", np.int64, (MAX_PLAYERS,)),               # bit cell set = a die there (kept by set/clear_cell_nb)
    ("cmask", np.int64, (MAX_PLAYERS, N_COLOURS)),     # cells holding a die of each colour
    ("vmask", np.int64, (MAX_PLAYERS, N_VALUES + 1)),  # cells holding a die of each value (index = value)
    ("okc", np.int64, (MAX_PLAYERS, N_COLOURS)),       # cells whose colour restriction a colour meets
    ("okv", np.int64, (MAX_PLAYERS, N_VALUES + 1)),    # cells whose shade restriction a value meets
    ("pattern", np.int64, (MAX_PLAYERS,)),             # chosen pattern id, -1 before the choice
    ("restr_colour", np.int64, (MAX_PLAYERS, N_CELLS)),  # the chosen pattern's restrictions
    ("restr_value", np.int64, (MAX_PLAYERS, N_CELLS)),
    ("dealt", np.int64, (MAX_PLAYERS, MAX_DEAL)),      # window cards dealt (physical card ids)
    ("priv", np.int64, (MAX_PLAYERS, N_PRIV_SLOTS)),   # private objective card ids (-1 none)
    ("tokens", np.int64, (MAX_PLAYERS,)),              # favor tokens left
    ("public", np.int64, (N_PUB_SLOTS,)),              # public objective ids face up
    ("tools", np.int64, (MAX_IN_PLAY,)),               # tool card ids face up
    ("tool_tokens", np.int64, (MAX_IN_PLAY,)),         # favor tokens on each tool card
    ("tool_gone", np.int64, (MAX_IN_PLAY,)),           # solo: 1 once the card is used
    ("tool_uses", np.int64, (MAX_PLAYERS, MAX_IN_PLAY)),  # uses of each face-up tool by seat
    ("skip_second", np.int64, (MAX_PLAYERS,)),         # Running Pliers: skip this round's 2nd turn
    ("order", np.int64, (2 * MAX_PLAYERS,)),           # this round's turn order (snake)
    ("streams", np.uint64, (1 + MAX_PLAYERS,)),        # RNG counters: chance, then one per seat
    ("stats", np.int64, (MAX_PLAYERS, N_STATS)),
    # window choice: each seat's chosen pattern, hidden (not yet applied) until every seat has
    # chosen (the rulebook's choice is simultaneous); -1 = not chosen yet
    ("pending_window", np.int64, (MAX_PLAYERS,)),
    ("opts", np.int64, (MAX_OPTIONS,)),                # legal options of the pending decision, [:g[G_N_OPTS]]
])

# --- decisions passed to strategies ------------------------------------------------------------
DEC_WINDOW = 0   # options: pattern ids (the sides of the seat's dealt cards)
DEC_ACTION = 1   # options: die * N_CELLS + cell (draft pool die onto a cell), OPT_TOOL + slot *
                 #   OPT_TOOL_STRIDE + payer (payer: solo pool die paying, else OPT_NO_PAYER), OPT_END
DEC_TOOL = 2     # a tool's argument; ctx[0] = tool effect, ctx[1] = step; codes per tool:
                 #   grozing: die * 2 + (0: -1, 1: +1); flux brush, cork, grinding, flux
                 #   remover step 0: die; flux remover step 1: value 1..6; lens cutter:
                 #   die * MAX_TRACK + track index; moves: from * N_CELLS + to, OPT_END = stop
DEC_PLACE = 3    # a die held by a tool: options are cells; ctx[2] = placement mode (M_*)
DEC_NAMES = ("window", "action", "tool", "place")
OPT_END = -1
OPT_TOOL = 10000
OPT_TOOL_STRIDE = 100
OPT_NO_PAYER = 99

# --- trace events (replay): trace[i] = (EV_*, a, b, c, d, e) -----------------------------------
EV_ROUND = 0        # a = round, b = start player
EV_WINDOW = 1       # a = seat, b = pattern
EV_DRAW = 2         # a = colour, b = value (a die drawn into the pool)
EV_PLACE = 3        # a = seat, b = cell, c = colour, d = value, e = 1 if placed by a tool
EV_TOOL = 4         # a = seat, b = tool id, c = cost (tokens; solo: -1 - paying die colour)
EV_MOVE = 5         # a = seat, b = from, c = to
EV_SET = 6          # a = colour, b = old value, c = new value (a tool changed a die)
EV_SWAP = 7         # a = pool colour, b = pool value, c = track colour, d = track value
EV_RETURN = 8       # a = colour, b = value (a tool's die went back to the pool)
EV_TRACK = 9        # a = round, b = colour, c = value (left over onto the round track)
EV_PASS = 10        # a = seat (turn without a draft)
EV_END = 11         # a = END_* reason
EV_REROLL = 12      # a = pool dice re-rolled (Glazing Hammer; one EV_SET per die follows)
EV_BAG = 13         # a = colour returned to the bag, b = colour drawn, c = value of the die
                    #   returned (Flux Remover)
EV_TURN = 14        # a = seat, b = 0 its first turn of the round, 1 its second
EV_VALUE = 15       # a = colour, b = value chosen for the die Flux Remover drew
TRACE_WIDTH = 6

# --- invariant codes (check_state_nb) ----------------------------------------------------------------
CHK_DICE = 1           # dice not conserved (per colour) across bag, pool, windows, track, spent, held
CHK_WINDOW = 2         # a die breaks its cell's restriction (without a tool's exemption)
CHK_NEIGHBOUR = 3      # orthogonal neighbours share a colour or a value
CHK_COUNT = 4          # n_placed differs from the dice in the window
CHK_TOKENS = 5         # favor tokens negative or not conserved
