"""Sagrada: constants, the component tables and the state layout.

Everything the compiled rules read is declared here, with its encoding beside it. Numbers a
designer may tune (window grids, objective points, tool colours, dice counts, rounds, rule
numbers) are NOT constants here: they arrive in a `TABLES_DTYPE` record, built from the
validated component file (components.build_tables), so changing them never recompiles. The
constants below are array capacities, the window geometry (4 x 5, printed on the frame
boards) and code values. Every scalar of the tables and of the state is a named field
(`tables.rounds`, `s.round`), its encoding written beside it.
"""
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

END_ROUNDS = 0
END_REASON_NAMES = ("rounds",)


def _tables_dtype():
    """The kernels' tables. Card ids are row indices (0-based, file order); rows past the
    counts are zero. Aligned, as STATE_DTYPE (below)."""
    return np.dtype([
        ("n_patterns", np.int64),                   # window pattern sides in the file
        ("n_cards", np.int64),                      # physical window cards (2 sides each)
        ("n_public", np.int64),                     # public objective cards
        ("n_private", np.int64),                    # private objective cards
        ("n_tools", np.int64),                      # tool cards
        ("n_dice", np.int64),                       # dice in the box
        ("pattern_colour", np.int64, (MAX_PATTERNS, N_CELLS)),  # colour restriction or NO_COLOUR
        ("pattern_value", np.int64, (MAX_PATTERNS, N_CELLS)),   # shade restriction 1..6 or NO_VALUE
        ("pattern_difficulty", np.int64, (MAX_PATTERNS,)),      # favor tokens of the side
        ("pattern_card", np.int64, (MAX_PATTERNS,)),            # its physical card (0-based)
        ("card_sides", np.int64, (MAX_PATTERNS, 2)),            # the pattern ids on each card
        ("public_kind", np.int64, (MAX_PUBLIC,)),   # OBJ_* code
        ("public_mask", np.int64, (MAX_PUBLIC,)),   # the set kinds' values (bit v-1) / colours (bit c)
        ("public_points", np.int64, (MAX_PUBLIC,)),  # points per occurrence
        ("private_colour", np.int64, (MAX_PRIVATE,)),  # colour code
        ("tool_effect", np.int64, (MAX_TOOLS,)),    # T_* code (the card's number - 1)
        ("tool_colour", np.int64, (MAX_TOOLS,)),    # colour code (the die that pays for it in solo)
        ("tool_number", np.int64, (MAX_TOOLS,)),    # rule number printed on the card (1..12)
        ("dice_per_colour", np.int64, (N_COLOURS,)),  # dice of each colour in the box
        # the rules (component file `rules`, the same names), as written there; the shipped
        # value in brackets
        ("rounds", np.int64),              # rounds (10)
        ("dice_per_player", np.int64),     # dice drawn per round = players x this + dice_extra (2)
        ("dice_extra", np.int64),          # (1)
        ("public_objectives", np.int64),   # public objectives face up (3)
        ("tool_cards", np.int64),          # tool cards face up (3)
        ("window_cards", np.int64),        # window cards dealt per player, 2 sides each (2)
        ("empty_penalty", np.int64),       # points lost per empty space (1)
        ("token_points", np.int64),        # points per unspent favor token (1)
        ("tool_first_cost", np.int64),     # favor tokens for a tool card with no tokens on it (1)
        ("tool_later_cost", np.int64),     # ... with tokens on it (2)
        ("pip_points", np.int64),          # private objective: points per pip (1)
        ("solo_dice", np.int64),           # solo: dice drawn per round (4)
        ("solo_public", np.int64),         # solo: public objectives (2)
        ("solo_private", np.int64),        # solo: private objectives, the best one counts (2)
        ("solo_tools", np.int64),          # solo: tool cards = difficulty, 1 (hardest) .. 5
                                           #   (easiest) (3)
        ("solo_empty_penalty", np.int64),  # solo: points lost per empty space (3)
    ], align=True)


TABLES_DTYPE = _tables_dtype()
CAPACITY = {"patterns": MAX_PATTERNS, "public": MAX_PUBLIC, "private": MAX_PRIVATE,
            "tools": MAX_TOOLS, "dice": MAX_DICE}


def pack_tables(tables: np.ndarray) -> np.ndarray:
    """The kernels' tables: the component file's tables already are the 1-element TABLES_DTYPE
    recarray (components.build_tables); the platform calls pack_tables(components.tables)."""
    return tables


MAX_OPTIONS = 512              # longest list of legal options of one decision
CTX_LEN = 8                    # side inputs of a decision (strategies' ctx): see DEC_* below

# Placement modes (bits): what a tool lets a die ignore.
M_IGNORE_COLOUR = 1    # Eglomise Brush
M_IGNORE_SHADE = 2     # Copper Foil Burnisher
M_NOT_ADJACENT = 4     # Cork-backed Straightedge: next to no die instead of next to one

# The state of one game: one numpy record of fixed-size arrays, passed by reference; the whole
# game is in it (model.py: copying it copies the game). Declared aligned (every field is 8
# bytes: no padding, the same layout): numba then accesses a scalar field as an aligned word;
# on an unaligned record it must assume any address (align 1) and optimises less. Public: everything except the bag's
# order, other seats' private objectives (priv), and during the window choice the other seats'
# dealt cards and hidden choices (pending_window) (model.observe_nb, determinize_nb).
STATE_DTYPE = np.dtype([
    # the game
    ("n_players", np.int64),
    ("solo", np.int64),                # 1 in the solo variant (1 player)
    ("round", np.int64),               # 0-based round being played (n_rounds once over)
    ("n_rounds", np.int64),            # rounds in this game (tables.rounds)
    ("start_player", np.int64),        # start player of the current round (holds the bag)
    ("first_start_player", np.int64),  # start player of round 1
    ("over", np.int64),                # 1 once the game is over
    ("end_reason", np.int64),          # END_* (once over)
    ("turns", np.int64),               # turns played (the game's length)
    ("n_bag", np.int64),               # dice in the bag, bag[:n_bag]
    ("n_pool", np.int64),              # dice in the draft pool
    ("n_track", np.int64),             # dice on the round track
    ("n_spent", np.int64),             # solo: dice spent on tools (out of play)
    ("held_colour", np.int64),         # a die drafted by a tool and not yet placed (-1: none)
    ("held_value", np.int64),          # its value (0: none, or Flux Remover's value not chosen)
    ("n_public", np.int64),            # public objectives face up
    ("n_tools", np.int64),             # tool cards face up
    ("n_private", np.int64),           # private objectives per seat (1; solo 2)
    # the turn
    ("seat", np.int64),                # seat whose turn it is (-1 outside turns)
    ("turn_in_round", np.int64),       # 0 = that seat's first turn of the round, 1 = its second
    ("drafts_left", np.int64),         # dice the seat may still draft this turn
    ("tool_used_this_turn", np.int64),  # 1 once the seat used a tool this turn
    ("drafted_this_turn", np.int64),   # dice the seat drafted this turn
    # where the game stands (the forward model, model.py): the decision pending and its inputs
    ("decision", np.int64),            # DEC_* of the pending decision, -1 once the game is over
    ("to_move", np.int64),             # seat that takes the pending decision (-1 once over)
    ("order_pos", np.int64),           # index into order[] of the turn being played (-1
                                       #   before a round's first)
    ("effect_in_use", np.int64),       # T_* effect of the tool being carried out (-1: none)
    ("tool_step", np.int64),           # that tool's step (0; 1: Flux Remover's value,
                                       #   Lathekin's / Tap Wheel's second move)
    ("place_mode", np.int64),          # DEC_PLACE: placement mode (M_* bits) of the held die
    ("first_move_to", np.int64),       # Lathekin / Tap Wheel step 1: the cell the first moved
                                       #   die went to
    ("n_opts", np.int64),              # legal options of the pending decision, opts[:n_opts]
    # the table
    ("bag", np.int64, (MAX_DICE,)),                    # colours of the dice in the bag, [:n_bag]
    ("pool_colour", np.int64, (MAX_POOL,)),            # draft pool, [:n_pool]
    ("pool_value", np.int64, (MAX_POOL,)),
    ("track_colour", np.int64, (MAX_TRACK,)),          # round track, [:n_track]
    ("track_value", np.int64, (MAX_TRACK,)),
    ("track_round", np.int64, (MAX_TRACK,)),           # 0-based round the die was left in
    ("spent_colour", np.int64, (MAX_TRACK,)),          # solo: dice paid for tools, [:n_spent]
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
    # window choice: each seat's chosen pattern, hidden (not yet applied) until every seat has
    # chosen (the rulebook's choice is simultaneous); -1 = not chosen yet
    ("pending_window", np.int64, (MAX_PLAYERS,)),
    ("opts", np.int64, (MAX_OPTIONS,)),                # legal options of the pending decision, [:n_opts]
    # per-seat counters, [seat]: the log columns of the same name (model.RECORD) but
    # tool_cards_used (the column tool_uses counts s.tool_uses). Kept last (SEAT_COUNTERS).
    ("placed", np.int64, (MAX_PLAYERS,)),              # dice placed (drafted or by a tool)
    ("passes", np.int64, (MAX_PLAYERS,)),              # turns in which the seat drafted no die
    ("tool_cards_used", np.int64, (MAX_PLAYERS,)),     # tool cards used
    ("tokens_spent", np.int64, (MAX_PLAYERS,)),        # favor tokens spent
    ("moves", np.int64, (MAX_PLAYERS,)),               # window dice moved by tools
    ("returned", np.int64, (MAX_PLAYERS,)),            # dice a tool returned to the pool
    # (illegal answers and choices are the harness's counts: columns illegal, choices)
], align=True)
GAME_SCALARS = STATE_DTYPE.names[:STATE_DTYPE.names.index("bag")]
SEAT_COUNTERS = STATE_DTYPE.names[STATE_DTYPE.names.index("placed"):]

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
