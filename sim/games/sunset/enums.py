"""Sunset Over Water: constants, the component tables and the state layout.

Everything the compiled rules read is declared here, with its encoding beside it. Numbers a
designer may tune (card contents, points, days, rule options) are NOT constants here: they
arrive in a `TABLES_DTYPE` record, built from the component file, so changing them never
recompiles. The constants below are only array capacities and code values.
"""
import numpy as np

# --- features -------------------------------------------------------------------------
N_FEATURES = 5        # feature codes 0..4; their names come from the component file
ANY_FEATURE = 5       # a "?" frame on a commission: any landscape fills it
NO_FRAME = -1         # padding in commission_frames

# --- the wilderness --------------------------------------------------------------------
GRID = 5                       # 5 x 5; cell c = row * GRID + col, row 0 at the top
N_CELLS = GRID * GRID
CENTER = (GRID // 2) * GRID + GRID // 2
EMPTY = -1                     # grid value: no card (painted, not yet refilled)
RANGER = -2                    # grid value: a solo ranger station card

# directions: index -> (drow, dcol); N is up (row - 1)
N_DIRS = 8
DIR_N, DIR_NE, DIR_E, DIR_SE, DIR_S, DIR_SW, DIR_W, DIR_NW = range(8)
DIR_NAMES = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
DIR_DROW = np.array([-1, -1, 0, 1, 1, 1, 0, -1], dtype=np.int64)
DIR_DCOL = np.array([0, 1, 1, 1, 0, -1, -1, -1], dtype=np.int64)
MAX_MOVE = 4                   # longest hike possible on a 5x5 grid
MAX_PATH = MAX_MOVE + 1        # start card + up to 4 steps


def _step_table():
    table = np.full((N_CELLS, N_DIRS, MAX_PATH), -1, dtype=np.int64)
    for cell in range(N_CELLS):
        for d in range(N_DIRS):
            for k in range(MAX_PATH):
                r, c = cell // GRID + DIR_DROW[d] * k, cell % GRID + DIR_DCOL[d] * k
                if 0 <= r < GRID and 0 <= c < GRID:
                    table[cell, d, k] = r * GRID + c
    return table


# STEP_CELL[cell, d, k]: the cell k steps from `cell` in direction d, -1 off the grid. A lookup
# table (a constant to numba) instead of divisions in the hottest loops of hikes and paths.
STEP_CELL = _step_table()

# --- capacities --------------------------------------------------------------------------
MAX_PLAYERS = 4
MAX_HAND = 48                  # landscapes a player can hold (bitmask fits in int64)
MAX_FRAMES = 4                 # frames on one commission
MAX_ROW = MAX_PLAYERS + 1      # commission row length
N_PLAN = 8                     # planning cards per player
PLAN_DRAW = 3                  # planning cards drawn each day
# Card counts come from the component file; the compiled state holds up to these many, so a
# prototype with more or fewer cards needs no recompile.
MAX_LAND = 128                 # landscapes
MAX_COMM = 63                  # commissions (a seat's set of them is one int64 bitmask)
MAX_GOAL = 16                  # daily goals
MAX_RANGER = 8                 # solo ranger stations
MAX_INSP = 8                   # solo inspiration cards
MAX_BAND = 8                   # solo wake-up bands

# --- daily goal kinds (goal_kind in the tables; goal_param is their number) ---------------
GOAL_MOVE_HORIZONTAL = 0       # hiked at least one step west or east this turn
GOAL_MOVE_VERTICAL = 1         # hiked at least one step north or south
GOAL_MOVE_DIAGONAL = 2         # hiked at least one step diagonally
GOAL_HIKE_AT_LEAST = 3         # hiked at least `param` steps
GOAL_PAINT_AT_LEAST = 4        # painted at least `param` landscapes this turn
GOAL_SELL_AT_LEAST = 5         # sold at least `param` commissions this turn
GOAL_PAINT_FEATURE = 6         # painted a landscape showing feature `param` this turn
GOAL_NO_HIKE = 7               # did not move this turn
GOAL_KIND_NAMES = ("move_horizontal", "move_vertical", "move_diagonal", "hike_at_least",
                   "paint_at_least", "sell_at_least", "paint_feature", "no_hike")

# --- solo wake-up effects (band_effect in the tables) ------------------------------------
WAKE_REFILL_WILDERNESS = 0     # refill every empty wilderness space
WAKE_DISCARD_COMMISSIONS = 1   # discard `band_param` highest commissions of the row
WAKE_NOTHING = 2
WAKE_EFFECT_NAMES = ("refill_wilderness", "discard_commissions", "nothing")

# --- rule options (component file `rules`: the codes of the tables' fields of the same name)
WAKE_TIE_RANDOM = 0
WAKE_TIE_SEAT = 1
# An artist "may not finish on the same card" as another; staying put is finishing where one
# stands. MUST_LEAVE (default): staying on a shared card is legal only when no hike is legal
# (the rulebook's "you can not move even if you wish to"); MAY_STAY: staying is always legal.
SHARED_STAY_MUST_LEAVE = 0
SHARED_STAY_MAY_STAY = 1

# --- end reasons --------------------------------------------------------------------------
END_DAYS = 0                   # all days played
END_COMMISSIONS = 1            # the commission row could not be refilled
END_REASON_NAMES = ("days", "commissions_ran_out")


def _tables_dtype():
    """The kernels' tables, one record built straight from the validated component file
    (components.build_tables). Card ids are indices into the card arrays (0-based, in file
    order); the n_* fields say how many of each capacity are cards, the rest is padding
    (0, or NO_FRAME in commission_frames)."""
    return np.dtype([
        ("n_land", np.int64),            # landscape cards in the file
        ("n_comm", np.int64),            # commission cards
        ("n_goal", np.int64),            # daily goal cards
        ("n_ranger", np.int64),          # solo ranger station cells
        ("n_insp", np.int64),            # solo inspiration cards
        ("n_band", np.int64),            # solo wake-up bands
        ("landscape_features", np.int64, (MAX_LAND, N_FEATURES)),  # how many of each feature
        ("landscape_n_features", np.int64, (MAX_LAND,)),   # features shown in all (scoring)
        # derived from landscape_features when the file is loaded (not a number of the file):
        # bit f set = the card shows feature f, looked up by every decision and sale
        ("landscape_mask", np.int64, (MAX_LAND,)),
        ("commission_frames", np.int64, (MAX_COMM, MAX_FRAMES)),   # feature, ANY_FEATURE, NO_FRAME
        ("commission_n_frames", np.int64, (MAX_COMM,)),
        ("commission_points", np.int64, (MAX_COMM,)),
        ("goal_kind", np.int64, (MAX_GOAL,)),              # GOAL_* code
        ("goal_param", np.int64, (MAX_GOAL,)),             # a count or a feature code (by kind)
        ("goal_points", np.int64, (MAX_GOAL,)),
        ("plan_wake", np.int64, (N_PLAN,)),                # wake-up time, minutes after midnight
        ("plan_dirs", np.int64, (N_PLAN,)),                # bit d set = direction DIR d allowed
        ("plan_move", np.int64, (N_PLAN,)),                # movement points
        ("plan_paint", np.int64, (N_PLAN,)),               # landscapes that may be painted
        ("ranger_cells", np.int64, (MAX_RANGER,)),         # solo: ranger station cells
        ("inspiration_feature", np.int64, (MAX_INSP,)),    # solo: the feature each card names
        ("band_from", np.int64, (MAX_BAND,)),              # solo wake-up band start (minutes, inclusive)
        ("band_to", np.int64, (MAX_BAND,)),                # band end (minutes, inclusive)
        ("band_effect", np.int64, (MAX_BAND,)),            # WAKE_* code
        ("band_param", np.int64, (MAX_BAND,)),             # e.g. commissions discarded
        # the rules (component file `rules`, the same names): numbers as written there, rule
        # options as their codes; the rulebook's value in brackets
        ("days", np.int64),                # days in a multiplayer game (6)
        ("solo_days", np.int64),           # days in the solo variant (8)
        ("row_extra", np.int64),           # commission row = players + this (1)
        ("solo_row", np.int64),            # commission row in solo (3, "like a 2-player game")
        ("features_per_point", np.int64),  # unsold landscapes: 1 point per this many features (2)
        ("wake_tie", np.int64),            # equal wake-up times: WAKE_TIE_* (random order)
        ("return_home_bonus", np.int64),   # solo: points for ending on the centre (2)
        ("inspiration_points", np.int64),  # solo: points per commission showing the
                                           #   inspiration feature (1)
        ("empty_deck_refill", np.int64),   # wilderness refill with deck and discards empty:
                                           #   0 = leave the space empty
        ("stay_on_shared_card", np.int64),  # staying put on a card another artist stands on:
                                            #   SHARED_STAY_* (must leave)
    ], align=True)


TABLES_DTYPE = _tables_dtype()
RULE_FIELDS = TABLES_DTYPE.names[TABLES_DTYPE.names.index("days"):]   # the [rules] of the file


def pack_tables(tables: np.ndarray) -> np.ndarray:
    """The kernels' tables: the component file's tables already are the 1-element TABLES_DTYPE
    recarray (components.build_tables; kernels take element 0); the platform calls
    pack_tables(components.tables)."""
    return tables


PHASE_OVER = -1


# The state of one game is one numpy record (a structured scalar) of fixed-size arrays:
# kernels receive it by reference, so calls between rules cost no copying or reference
# counting (a tuple of 20 arrays would cost ~1 us per call). Copying a game is copying the
# record. Public information: everything except the order of the decks (ldeck, cdeck,
# gdeck), other seats' planning cards (pdeck, popen) and their pending choice (plan_code)
# before the reveal, and the order of one's own planning cards never drawn yet
# (pdeck[p, :pdeck_unseen[p]]); strategies must read only public fields and their own
# planning cards. model.determinize_nb redraws exactly the hidden part.
STATE_DTYPE = np.dtype([
    # the game
    ("n_players", np.int64),
    ("solo", np.int64),            # 1 in the Wanderlust variant
    ("day", np.int64),             # 0-based day being played
    ("n_days", np.int64),          # days this game lasts
    ("over", np.int64),            # 1 once the game has ended
    ("end_reason", np.int64),      # END_* code
    ("goal", np.int64),            # today's daily goal card id, -1 if none
    ("goal_owner", np.int64),      # seat holding today's goal card, -1 if unclaimed
    ("comm_top", np.int64),        # commission revealed on top of the deck (not yet available), -1 none
    ("n_ldeck", np.int64),         # cards left in the landscape deck (ldeck[:n], drawn from the end)
    ("n_ldisc", np.int64),         # landscapes in the discard pile
    ("n_cdeck", np.int64),         # commissions left in the deck below the revealed top card
    ("n_gdeck", np.int64),         # daily goals left in their deck
    ("row_len", np.int64),         # commission row length for this game
    ("inspiration", np.int64),     # solo: the inspiration card id, -1 otherwise
    ("turns", np.int64),           # player turns played so far (game length)
    ("selling_seat", np.int64),    # seat of the turn being played, -1 outside the trek
    ("n_cdisc", np.int64),         # commissions discarded (solo wake-up effects)
    ("n_gdisc", np.int64),         # daily goals discarded unclaimed
    # Where the game stands (the forward model, model.py): the decision pending and whose it
    # is, and what the turn being played has done so far. The whole game is in the record, so
    # a copy of it can be played on (search players) with no loop on a call stack.
    ("phase", np.int64),           # the pending decision: a DEC_* code; PHASE_OVER once ended
    ("to_move", np.int64),         # seat whose decision it is, -1 once the game has ended
    ("trek", np.int64),            # trek: index in `order` of the turn being played
    ("hike", np.int64),            # trek: the hike code taken this turn (paint decision, goal)
    ("n_path", np.int64),          # trek: cells in `path` (the hike's path, start card included)
    ("n_painted", np.int64),       # trek: landscapes painted this turn (daily goal)
    ("painted_features", np.int64),  # trek: bit f = a landscape painted this turn shows feature f
    ("n_sold", np.int64),          # trek: commissions sold this turn (daily goal)
    ("n_sell_opts", np.int64),     # sale loop: options in `sell_opts` (the last one is -1 = stop)
    # the table
    ("grid", np.int64, (N_CELLS,)),                # landscape id, EMPTY or RANGER
    ("ldeck", np.int64, (MAX_LAND,)),              # landscape deck, top = ldeck[s.n_ldeck - 1]
    ("ldisc", np.int64, (MAX_LAND,)),              # discard pile, ldisc[:s.n_ldisc]
    ("cdeck", np.int64, (MAX_COMM,)),              # commission deck, top = cdeck[s.n_cdeck - 1]
    ("crow", np.int64, (MAX_ROW,)),                # commission row: card id, or -1 for an empty slot
    ("gdeck", np.int64, (MAX_GOAL,)),              # daily goal deck, top = gdeck[s.n_gdeck - 1]
    ("pos", np.int64, (MAX_PLAYERS,)),             # cell of each artist
    ("hand", np.int64, (MAX_PLAYERS, MAX_HAND)),   # landscapes held, hand[p, :hand_n[p]]
    ("hand_n", np.int64, (MAX_PLAYERS,)),
    ("comm_owned", np.int64, (MAX_PLAYERS, MAX_COMM)),  # 1 + day the commission was sold, 0 if not owned
    ("goal_owned", np.int64, (MAX_PLAYERS, MAX_GOAL)),  # 1 + day the goal was kept, 0 if not
    ("pdeck", np.int64, (MAX_PLAYERS, N_PLAN)),    # planning deck, top = pdeck[p, 0]
    ("pdeck_n", np.int64, (MAX_PLAYERS,)),         # cards in the planning deck
    ("popen", np.int64, (MAX_PLAYERS, PLAN_DRAW)), # planning cards in hand (solo: the open ones), -1 empty
    ("pdeck_unseen", np.int64, (MAX_PLAYERS,)),    # top cards of pdeck never drawn yet (order unknown to all)
    ("plan_code", np.int64, (MAX_PLAYERS,)),       # planning option chosen, hidden until all have chosen; -1 none
    ("plan_choice", np.int64, (MAX_PLAYERS,)),     # card chosen today (revealed), -1 outside the day
    ("plan_used", np.int64, (MAX_PLAYERS, N_PLAN)),  # 1 + day the card was played, 0 if unused
    ("order", np.int64, (MAX_PLAYERS,)),           # today's turn order (seats), by wake-up time
    ("streams", np.uint64, (1 + MAX_PLAYERS,)),    # RNG counters: chance, then one per seat
    # per-seat counters for the logs, [seat] (illegal answers and real choices are counted by
    # the platform's loop)
    ("painted", np.int64, (MAX_PLAYERS,)),         # landscapes painted
    ("sold_landscapes", np.int64, (MAX_PLAYERS,)),  # landscapes sold
    ("steps", np.int64, (MAX_PLAYERS,)),           # total hiking steps
    ("goal_claims", np.int64, (MAX_PLAYERS,)),     # times the daily goal was taken (including later lost)
    ("path", np.int64, (MAX_PATH,)),               # trek: cells of this turn's hike, path[:s.n_path]
    ("sell_opts", np.int64, (MAX_ROW + 2,)),       # sale loop: legal sales now, sell_opts[:s.n_sell_opts]
], align=True)


# --- decision kinds passed to strategies -------------------------------------------------
DEC_PLAN = 0     # options: code = card_index_in_popen * 2 + return_order (0 or 1)
DEC_HIKE = 1     # options: code = dir * (MAX_MOVE + 1) + steps; steps 0 = stay (dir 0), listed first when legal (tables.stay_on_shared_card)
DEC_PAINT = 2    # options: code = bitmask over path positions (bit i = path[i])
DEC_SELL = 3     # options: code = commission row slot, or -1 = stop selling
DEC_NAMES = ("plan", "hike", "paint", "sell")
MAX_OPTIONS = 64  # enough for any decision: hikes <= 8*4+1, paint subsets <= 2**5, sells <= 7

# --- trace events (replay): trace[i] = (EV_*, a, b, c, d, e) --------------------------------
EV_DAY = 0           # a = day
EV_PLAN = 1          # a = seat, b = planning card, c = wake minutes
EV_HIKE = 2          # a = seat, b = dir, c = steps, d = from cell, e = to cell
EV_PAINT = 3         # a = seat, b = landscape, c = cell
EV_SELL = 4          # a = seat, b = commission, c = row slot it came from (MAX_ROW: top of the deck)
EV_SELL_CARD = 5     # a = seat, b = commission, c = landscape sold for it
EV_GOAL = 6          # a = seat, b = goal card (claimed, possibly taken from another seat)
EV_GOAL_KEPT = 7     # a = seat, b = goal card kept at the end of the day
EV_WAKE = 8          # a = seat, b = effect, c = param (solo wake-up effects)
EV_DISCARD_COMM = 9  # a = commission discarded by a wake-up effect
EV_REFILL = 10       # a = cell, b = landscape placed
EV_RESHUFFLE = 11    # a = cards reshuffled from the discard pile
EV_NEW_GOAL = 12     # a = goal card revealed
EV_ROW = 13          # a = slot, b = commission placed; c = 1 if it is the newly revealed top card
EV_END = 14          # a = END_* reason
EV_TOP = 15          # a = commission revealed on top of the deck (-1: none)
# set-up (before day 1; the first daily goal is an EV_NEW_GOAL among them)
EV_SETUP_CELL = 16   # a = cell, b = landscape dealt there, or RANGER (solo ranger station)
EV_SETUP_ROW = 17    # a = slot, b = commission dealt to the row
EV_SETUP_TOP = 18    # a = commission revealed on top of the deck (not available on day 1)
EV_INSPIRATION = 19  # a = the solo inspiration card drawn
TRACE_WIDTH = 6
