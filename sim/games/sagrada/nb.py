"""Sagrada: the rules, as pure compiled functions over a `STATE_DTYPE` record.

Each function is one rule (or one piece of bookkeeping); `docs/games/sagrada.md` maps every
rule and tool card to its function. Nothing here calls a strategy: the platform's loop (sim/harness.py) asks a strategy
to pick one of the legal options enumerated here (`*_options_nb`) and applies it with the
`apply_*` / `*_nb` functions here.

All tunable numbers come from `tables` (built from the component file); see enums.py.
"""
import numpy as np
from numba import njit

from sim.bits import mask_options_nb
from sim.events import trace_nb
from sim.outcomes import ranks_and_win_shares_nb
from sim.rng import CHANCE, init_streams_nb, randint_nb, shuffle_nb
from sim.games.sagrada.enums import (
    CHK_COUNT, CHK_DICE, COL0_MASK, COLL_MASK, EDGE_MASK, FULL_MASK, CHK_NEIGHBOUR, CHK_TOKENS,
    CHK_WINDOW, COLS, DIAG, END_ROUNDS, EV_BAG, EV_DRAW, EV_END, EV_MOVE, EV_PLACE,
    EV_RETURN, EV_REROLL, EV_ROUND, EV_SET, EV_SWAP, EV_TOOL, EV_TRACK, EV_VALUE,
    M_IGNORE_COLOUR, M_IGNORE_SHADE, M_NOT_ADJACENT, MAX_DEAL, MAX_IN_PLAY, MAX_PLAYERS,
    MAX_TRACK, N_CELLS, N_COLOURS, N_PRIV_SLOTS, N_PUB_SLOTS, N_VALUES, NO_COLOUR,
    NO_VALUE, OBJ_COL_COLOUR, OBJ_COL_SHADE, OBJ_COLOUR_DIAGONALS, OBJ_COLOUR_SET,
    OBJ_ROW_COLOUR, OBJ_ROW_SHADE, OBJ_SHADE_SET, OPT_END, OPT_NO_PAYER, OPT_TOOL,
    OPT_TOOL_STRIDE, ORTH, ROWS, STATE_DTYPE, T_COPPER_FOIL, T_CORK_BACKED, T_EGLOMISE_BRUSH,
    T_FLUX_BRUSH, T_FLUX_REMOVER, T_GLAZING_HAMMER, T_GRINDING_STONE, T_GROZING_PLIERS,
    T_LATHEKIN, T_LENS_CUTTER, T_RUNNING_PLIERS, T_TAP_WHEEL,
)

# Score components, in the order score_nb writes them (the log columns pts_*).
PTS_PUBLIC_1, PTS_PUBLIC_2, PTS_PUBLIC_3, PTS_PRIVATE, PTS_FAVOR, PTS_EMPTY = range(6)
N_PTS = 6


# ---------------------------------------------------------------------------------------
# state and trace
# ---------------------------------------------------------------------------------------
def new_state():
    """A game record for the kernels: a 1-element STATE_DTYPE recarray owned by the caller
    (in numba a record taken from an array does not keep that array alive)."""
    return np.zeros(1, STATE_DTYPE).view(np.recarray)


# ---------------------------------------------------------------------------------------
# set-up
# ---------------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy")
def clear_game_nb(s):
    """Every game scalar (enums.GAME_SCALARS) to 0: a record reused for the next game keeps
    nothing of the last one."""
    s.n_players = 0
    s.solo = 0
    s.round = 0
    s.n_rounds = 0
    s.start_player = 0
    s.first_start_player = 0
    s.over = 0
    s.end_reason = 0
    s.turns = 0
    s.n_bag = 0
    s.n_pool = 0
    s.n_track = 0
    s.n_spent = 0
    s.held_colour = 0
    s.held_value = 0
    s.n_public = 0
    s.n_tools = 0
    s.n_private = 0
    s.seat = 0
    s.turn_in_round = 0
    s.drafts_left = 0
    s.tool_used_this_turn = 0
    s.drafted_this_turn = 0
    s.decision = 0
    s.to_move = 0
    s.order_pos = 0
    s.effect_in_use = 0
    s.tool_step = 0
    s.place_mode = 0
    s.first_move_to = 0
    s.n_opts = 0


@njit(cache=True, error_model="numpy")
def setup_nb(tables, s, n_players, game_seed, trace, tn):
    """Set-up: all dice in the bag; tool cards and public objectives face up (3 and 3; solo:
    tables.solo_tools tools and 2 publics); 1 private objective per seat (solo: 2); 2 window
    cards dealt per seat (their 4 sides are the seat's window choice, made in model.py); a
    random start player holding the bag. The chance stream is drawn in this order: the bag,
    the tools, the public objectives, the private objectives, the window cards, the start
    player."""
    clear_game_nb(s)
    init_streams_nb(s.streams, game_seed)
    solo = n_players == 1
    s.n_players = n_players
    s.solo = 1 if solo else 0
    s.n_rounds = tables.rounds
    s.held_colour = -1
    s.seat = -1
    fill_bag_nb(tables, s)
    for p in range(MAX_PLAYERS):
        clear_seat_nb(s, p)
    deck = np.empty(max(tables.n_tools, max(tables.n_public, max(tables.n_private, tables.n_cards))), np.int64)
    deal_face_up_nb(tables, s, solo, deck)
    deal_hands_nb(tables, s, n_players, solo, deck)
    s.first_start_player = randint_nb(s.streams, CHANCE, n_players)
    s.start_player = s.first_start_player


@njit(cache=True, error_model="numpy")
def fill_bag_nb(tables, s):
    """Every die of the box into the bag, shuffled."""
    n = 0
    for c in range(N_COLOURS):
        for _ in range(tables.dice_per_colour[c]):
            s.bag[n] = c
            n += 1
    shuffle_nb(s.streams, CHANCE, s.bag, n)
    s.n_bag = n


@njit(cache=True, error_model="numpy")
def clear_seat_nb(s, p):
    """Seat p before the game: an empty window with no pattern, no tokens, no cards, every
    counter 0."""
    for c in range(N_CELLS):
        s.win_colour[p, c] = NO_COLOUR
        s.win_value[p, c] = NO_VALUE
        s.win_exempt[p, c] = 0
        s.restr_colour[p, c] = NO_COLOUR
        s.restr_value[p, c] = NO_VALUE
    s.n_placed[p] = 0
    s.wmask[p] = 0
    for k in range(N_COLOURS):
        s.cmask[p, k] = 0
        s.okc[p, k] = 0
    for k in range(N_VALUES + 1):
        s.vmask[p, k] = 0
        s.okv[p, k] = 0
    s.pattern[p] = -1
    s.tokens[p] = 0
    s.skip_second[p] = 0
    for k in range(MAX_DEAL):
        s.dealt[p, k] = -1
    for k in range(N_PRIV_SLOTS):
        s.priv[p, k] = -1
    for k in range(MAX_IN_PLAY):
        s.tool_uses[p, k] = 0
    s.placed[p] = 0
    s.passes[p] = 0
    s.tool_cards_used[p] = 0
    s.tokens_spent[p] = 0
    s.moves[p] = 0
    s.returned[p] = 0


@njit(cache=True, error_model="numpy")
def shuffled_deck_nb(s, deck, n):
    """deck[:n] = card ids 0..n-1 in a random order (the chance stream)."""
    for i in range(n):
        deck[i] = i
    shuffle_nb(s.streams, CHANCE, deck, n)


@njit(cache=True, error_model="numpy")
def deal_face_up_nb(tables, s, solo, deck):
    """The tool cards (solo: as many as the difficulty) and the public objectives face up."""
    n_tools = tables.solo_tools if solo else tables.tool_cards
    shuffled_deck_nb(s, deck, tables.n_tools)
    for k in range(MAX_IN_PLAY):
        s.tools[k] = deck[k] if k < n_tools else -1
        s.tool_tokens[k] = 0
        s.tool_gone[k] = 0
    s.n_tools = n_tools
    n_pub = tables.solo_public if solo else tables.public_objectives
    shuffled_deck_nb(s, deck, tables.n_public)
    for k in range(N_PUB_SLOTS):
        s.public[k] = deck[k] if k < n_pub else -1
    s.n_public = n_pub


@njit(cache=True, error_model="numpy")
def deal_hands_nb(tables, s, n_players, solo, deck):
    """Each seat's private objective(s) (solo: tables.solo_private) and window cards."""
    n_priv = tables.solo_private if solo else 1
    shuffled_deck_nb(s, deck, tables.n_private)
    for p in range(n_players):
        for k in range(n_priv):
            s.priv[p, k] = deck[p * n_priv + k]
    s.n_private = n_priv
    shuffled_deck_nb(s, deck, tables.n_cards)
    n_deal = tables.window_cards
    for p in range(n_players):
        for k in range(n_deal):
            s.dealt[p, k] = deck[p * n_deal + k]


@njit(cache=True, error_model="numpy")
def window_options_nb(tables, s, p, options):
    """The window choice: both sides of each dealt card (pattern ids)."""
    n = 0
    for k in range(tables.window_cards):
        card = s.dealt[p, k]
        options[n] = tables.card_sides[card, 0]
        options[n + 1] = tables.card_sides[card, 1]
        n += 2
    return n


@njit(cache=True, error_model="numpy")
def apply_window_nb(tables, s, p, pattern):
    """Take the pattern, and favor tokens equal to its difficulty (none in solo)."""
    s.pattern[p] = pattern
    for c in range(N_CELLS):
        s.restr_colour[p, c] = tables.pattern_colour[pattern, c]
        s.restr_value[p, c] = tables.pattern_value[pattern, c]
    sync_masks_nb(s, p)
    s.tokens[p] = 0 if s.solo == 1 else tables.pattern_difficulty[pattern]


# ---------------------------------------------------------------------------------------
# rounds
# ---------------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy")
def roll_nb(s):
    return 1 + randint_nb(s.streams, CHANCE, N_VALUES)


@njit(cache=True, error_model="numpy")
def dice_per_round_nb(tables, s):
    if s.solo == 1:
        return tables.solo_dice
    return s.n_players * tables.dice_per_player + tables.dice_extra


@njit(cache=True, error_model="numpy")
def start_round_nb(tables, s, trace, tn):
    """The start player draws players x 2 + 1 dice (solo: 4) from the bag and rolls them into
    the draft pool; the turn order is the snake: clockwise from the start player, then back
    counter-clockwise from the last player (who thus plays twice in a row)."""
    trace_nb(trace, tn, EV_ROUND, s.round, s.start_player, 0, 0, 0)
    want = dice_per_round_nb(tables, s)
    for _ in range(want):
        if s.n_bag == 0:
            break
        s.n_bag -= 1
        colour = s.bag[s.n_bag]
        value = roll_nb(s)
        pool_add_nb(s, colour, value)
        trace_nb(trace, tn, EV_DRAW, colour, value, 0, 0, 0)
    n = s.n_players
    for i in range(n):
        q = (s.start_player + i) % n
        s.order[i] = q
        s.order[2 * n - 1 - i] = q
    for p in range(n):
        s.skip_second[p] = 0


@njit(cache=True, error_model="numpy")
def end_round_nb(tables, s, trace, tn):
    """Every die left in the pool goes onto the round track (one space covered however many
    there are); the bag passes clockwise; after the last round the game ends."""
    for i in range(s.n_pool):
        k = s.n_track
        s.track_colour[k] = s.pool_colour[i]
        s.track_value[k] = s.pool_value[i]
        s.track_round[k] = s.round
        s.n_track = k + 1
        trace_nb(trace, tn, EV_TRACK, s.round, s.pool_colour[i], s.pool_value[i], 0, 0)
    s.n_pool = 0
    s.start_player = (s.start_player + 1) % s.n_players
    s.round += 1
    if s.round >= s.n_rounds:
        s.over = 1
        s.end_reason = END_ROUNDS
        trace_nb(trace, tn, EV_END, END_ROUNDS, 0, 0, 0, 0)


@njit(cache=True, error_model="numpy")
def begin_turn_nb(s, p, turn_in_round):
    """Seat p starts its first (turn_in_round 0) or second (1) turn of the round."""
    s.seat = p
    s.turn_in_round = turn_in_round
    s.drafts_left = 1
    s.drafted_this_turn = 0
    s.tool_used_this_turn = 0


# ---------------------------------------------------------------------------------------
# the pool, the held die
# ---------------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy")
def pool_add_nb(s, colour, value):
    k = s.n_pool
    s.pool_colour[k] = colour
    s.pool_value[k] = value
    s.n_pool = k + 1


@njit(cache=True, error_model="numpy")
def pool_take_nb(s, i):
    """Remove pool die i (later dice shift down); the caller reads its colour and value first."""
    n = s.n_pool
    for k in range(i + 1, n):
        s.pool_colour[k - 1] = s.pool_colour[k]
        s.pool_value[k - 1] = s.pool_value[k]
    s.n_pool = n - 1


@njit(cache=True, error_model="numpy")
def pool_duplicate_nb(s, i):
    """True if an earlier pool die has the same colour and value (same options: listed once)."""
    for k in range(i):
        if s.pool_colour[k] == s.pool_colour[i] and s.pool_value[k] == s.pool_value[i]:
            return True
    return False


@njit(cache=True, error_model="numpy")
def hold_nb(s, colour, value):
    s.held_colour = colour
    s.held_value = value


@njit(cache=True, error_model="numpy")
def return_held_nb(s, p, trace, tn):
    """A tool's die that cannot (or may not) be placed goes back to the draft pool."""
    pool_add_nb(s, s.held_colour, s.held_value)
    trace_nb(trace, tn, EV_RETURN, s.held_colour, s.held_value, 0, 0, 0)
    s.held_colour = -1
    s.held_value = 0
    s.returned[p] += 1


# ---------------------------------------------------------------------------------------
# placement
# ---------------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy")
def sync_masks_nb(s, p):
    """Rebuild seat p's cell masks from its window and restrictions (after a hand edit)."""
    s.wmask[p] = 0
    for k in range(N_COLOURS):
        s.cmask[p, k] = 0
        s.okc[p, k] = 0
    for k in range(N_VALUES + 1):
        s.vmask[p, k] = 0
        s.okv[p, k] = 0
    n = 0
    for cell in range(N_CELLS):
        bit = 1 << cell
        rc = s.restr_colour[p, cell]
        rv = s.restr_value[p, cell]
        for k in range(N_COLOURS):
            if rc == NO_COLOUR or rc == k:
                s.okc[p, k] |= bit
        for k in range(1, N_VALUES + 1):
            if rv == NO_VALUE or rv == k:
                s.okv[p, k] |= bit
        c = s.win_colour[p, cell]
        if c != NO_COLOUR:
            s.wmask[p] |= bit
            s.cmask[p, c] |= bit
            s.vmask[p, s.win_value[p, cell]] |= bit
            n += 1
    s.n_placed[p] = n


@njit(cache=True, error_model="numpy")
def set_cell_nb(s, p, cell, colour, value):
    """Put a die on a cell (window arrays, masks, count)."""
    bit = 1 << cell
    s.win_colour[p, cell] = colour
    s.win_value[p, cell] = value
    s.wmask[p] |= bit
    s.cmask[p, colour] |= bit
    s.vmask[p, value] |= bit
    s.n_placed[p] += 1


@njit(cache=True, error_model="numpy")
def clear_cell_nb(s, p, cell):
    """Take the die off a cell; returns its (colour, value)."""
    bit = 1 << cell
    colour = s.win_colour[p, cell]
    value = s.win_value[p, cell]
    s.win_colour[p, cell] = NO_COLOUR
    s.win_value[p, cell] = NO_VALUE
    s.wmask[p] &= ~bit
    s.cmask[p, colour] &= ~bit
    s.vmask[p, value] &= ~bit
    s.n_placed[p] -= 1
    return colour, value


@njit(cache=True, error_model="numpy")
def dilate4_nb(m):
    """Cells orthogonally adjacent to a cell of m."""
    return (((m << 1) & ~COL0_MASK) | ((m >> 1) & ~COLL_MASK) | (m << COLS) | (m >> COLS)) & FULL_MASK


@njit(cache=True, error_model="numpy")
def dilate8_nb(m):
    """Cells orthogonally or diagonally adjacent to a cell of m (and m itself)."""
    h = (m | ((m << 1) & ~COL0_MASK) | ((m >> 1) & ~COLL_MASK)) & FULL_MASK
    return (h | (h << COLS) | (h >> COLS)) & FULL_MASK


@njit(cache=True, error_model="numpy")
def legal_mask_nb(s, p, colour, value, mode):
    """The cells of seat p's window where a die (colour, value) may go, as a bitmask:
      - the cell is open;
      - its colour / shade restriction is met (unless the mode ignores it);
      - the window's first die goes on an edge or corner cell; every later die is next to a
        die already placed, orthogonally or diagonally (Cork-backed Straightedge: next to none);
      - no orthogonal neighbour has the same colour or the same value (diagonals may)."""
    filled = s.wmask[p]
    m = ~filled & FULL_MASK
    if (mode & M_IGNORE_COLOUR) == 0:
        m &= s.okc[p, colour]
    if (mode & M_IGNORE_SHADE) == 0:
        m &= s.okv[p, value]
    if filled == 0:
        m &= EDGE_MASK
    elif (mode & M_NOT_ADJACENT) != 0:
        m &= ~dilate8_nb(filled)
    else:
        m &= dilate8_nb(filled)
    m &= ~dilate4_nb(s.cmask[p, colour] | s.vmask[p, value])
    return m


@njit(cache=True, error_model="numpy")
def can_place_nb(s, p, cell, colour, value, mode):
    """Whether a die (colour, value) may go on `cell` (see legal_mask_nb)."""
    return (legal_mask_nb(s, p, colour, value, mode) >> cell) & 1 == 1


@njit(cache=True, error_model="numpy")
def has_cell_nb(s, p, colour, value, mode):
    return legal_mask_nb(s, p, colour, value, mode) != 0


@njit(cache=True, error_model="numpy")
def cell_options_nb(s, p, colour, value, mode, options):
    """Cells where the die may go (a tool's held die: DEC_PLACE options)."""
    return mask_options_nb(legal_mask_nb(s, p, colour, value, mode), options)


@njit(cache=True, error_model="numpy")
def place_die_nb(s, p, cell, colour, value, exempt, by_tool, trace, tn):
    set_cell_nb(s, p, cell, colour, value)
    s.win_exempt[p, cell] = exempt
    s.placed[p] += 1
    trace_nb(trace, tn, EV_PLACE, p, cell, colour, value, by_tool)


@njit(cache=True, error_model="numpy")
def place_held_nb(s, p, cell, trace, tn):
    place_die_nb(s, p, cell, s.held_colour, s.held_value, 0, 1, trace, tn)
    s.held_colour = -1
    s.held_value = 0


@njit(cache=True, error_model="numpy")
def apply_draft_nb(s, p, code, trace, tn):
    """Draft pool die code // N_CELLS and place it on cell code % N_CELLS."""
    i = code // N_CELLS
    cell = code % N_CELLS
    colour = s.pool_colour[i]
    value = s.pool_value[i]
    pool_take_nb(s, i)
    place_die_nb(s, p, cell, colour, value, 0, 0, trace, tn)
    s.drafts_left -= 1
    s.drafted_this_turn += 1


# ---------------------------------------------------------------------------------------
# moving window dice (tools 2, 3, 4, 12)
# ---------------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy")
def lift_nb(s, p, cell):
    """Take a die off the window (for a move); returns (colour, value)."""
    return clear_cell_nb(s, p, cell)


@njit(cache=True, error_model="numpy")
def unlift_nb(s, p, cell, colour, value):
    set_cell_nb(s, p, cell, colour, value)


@njit(cache=True, error_model="numpy")
def move_options_nb(s, p, mode, colour_filter, exclude_cell, options, n0):
    """Moves of one window die to another open cell, obeying the placement rules as if the die
    were placed anew (so a moved die must again touch another die, or sit on an edge if it is
    the only die), except what `mode` ignores. colour_filter: -1 any, else a colour bitmask;
    exclude_cell: a cell whose die may not move (Lathekin's and Tap Wheel's second die must
    be another die). Codes from * N_CELLS + to, appended at options[n0:]; returns the new n."""
    n = n0
    for frm in range(N_CELLS):
        colour = s.win_colour[p, frm]
        if colour == NO_COLOUR or frm == exclude_cell:
            continue
        if colour_filter >= 0 and (colour_filter >> colour) & 1 == 0:
            continue
        c, v = lift_nb(s, p, frm)
        m = legal_mask_nb(s, p, c, v, mode) & ~(1 << frm)
        unlift_nb(s, p, frm, c, v)
        to = 0
        while m:
            if m & 1:
                options[n] = frm * N_CELLS + to
                n += 1
            m >>= 1
            to += 1
    return n


@njit(cache=True, error_model="numpy")
def any_move_nb(s, p, mode, colour_filter, exclude_cell):
    for frm in range(N_CELLS):
        colour = s.win_colour[p, frm]
        if colour == NO_COLOUR or frm == exclude_cell:
            continue
        if colour_filter >= 0 and (colour_filter >> colour) & 1 == 0:
            continue
        c, v = lift_nb(s, p, frm)
        found = (legal_mask_nb(s, p, c, v, mode) & ~(1 << frm)) != 0
        unlift_nb(s, p, frm, c, v)
        if found:
            return True
    return False


@njit(cache=True, error_model="numpy")
def apply_move_nb(s, p, code, mode, trace, tn):
    """Move a window die; it keeps the restriction a tool let it ignore (win_exempt)."""
    frm = code // N_CELLS
    to = code % N_CELLS
    c, v = lift_nb(s, p, frm)
    s.win_exempt[p, frm] = 0
    set_cell_nb(s, p, to, c, v)
    s.win_exempt[p, to] = mode & (M_IGNORE_COLOUR | M_IGNORE_SHADE)
    s.moves[p] += 1
    trace_nb(trace, tn, EV_MOVE, p, frm, to, 0, 0)
    return to


@njit(cache=True, error_model="numpy")
def lathekin_first_ok_nb(s, p, code):
    """Lathekin moves exactly two dice: a first move is legal only if a second die can then
    move."""
    frm = code // N_CELLS
    to = code % N_CELLS
    c, v = lift_nb(s, p, frm)
    set_cell_nb(s, p, to, c, v)
    ok = any_move_nb(s, p, 0, -1, to)
    clear_cell_nb(s, p, to)
    unlift_nb(s, p, frm, c, v)
    return ok


@njit(cache=True, error_model="numpy")
def track_colours_nb(s):
    m = 0
    for k in range(s.n_track):
        m |= 1 << s.track_colour[k]
    return m


# ---------------------------------------------------------------------------------------
# tool cards
# ---------------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy")
def tool_cost_nb(tables, s, slot):
    """Favor tokens to use a face-up tool card: 1 if none lie on it, else 2."""
    if s.tool_tokens[slot] == 0:
        return tables.tool_first_cost
    return tables.tool_later_cost


@njit(cache=True, error_model="numpy")
def lathekin_options_nb(s, p, options):
    n = move_options_nb(s, p, 0, -1, -1, options, 0)
    k = 0
    for i in range(n):
        if lathekin_first_ok_nb(s, p, options[i]):
            options[k] = options[i]
            k += 1
    return k


@njit(cache=True, error_model="numpy")
def draft_tool_options_nb(s, p, effect, options):
    """Arguments of the tools that draft a die (step 0):
      grozing pliers: die * 2 + up (the changed die must be placeable; 1 never becomes 6);
      grinding stone / cork-backed straightedge: die (the flipped die / a not-adjacent cell
      must exist); flux brush / flux remover: die (outcome unknown: any die)."""
    n = 0
    for i in range(s.n_pool):
        if pool_duplicate_nb(s, i):
            continue
        c = s.pool_colour[i]
        v = s.pool_value[i]
        if effect == T_GROZING_PLIERS:
            if v > 1 and has_cell_nb(s, p, c, v - 1, 0):
                options[n] = i * 2
                n += 1
            if v < N_VALUES and has_cell_nb(s, p, c, v + 1, 0):
                options[n] = i * 2 + 1
                n += 1
        elif effect == T_GRINDING_STONE:
            if has_cell_nb(s, p, c, 7 - v, 0):
                options[n] = i
                n += 1
        elif effect == T_CORK_BACKED:
            if has_cell_nb(s, p, c, v, M_NOT_ADJACENT):
                options[n] = i
                n += 1
        else:  # flux brush, flux remover
            options[n] = i
            n += 1
    return n


@njit(cache=True, error_model="numpy")
def lens_options_nb(s, p, options):
    """Lens Cutter: pool die i swapped with round-track die k (code i * MAX_TRACK + k); the die
    taken from the track must then be placeable. Identical dice are listed once."""
    n = 0
    nt = s.n_track
    for k in range(nt):
        dup = False
        for j in range(k):
            if s.track_colour[j] == s.track_colour[k] and s.track_value[j] == s.track_value[k]:
                dup = True
                break
        if dup or not has_cell_nb(s, p, s.track_colour[k], s.track_value[k], 0):
            continue
        for i in range(s.n_pool):
            if pool_duplicate_nb(s, i):
                continue
            options[n] = i * MAX_TRACK + k
            n += 1
    return n


@njit(cache=True, error_model="numpy")
def flux_value_options_nb(s, p, options):
    """Flux Remover, step 1: the value to give the die drawn from the bag; values that can be
    placed, or all six if none can (the die then goes to the pool)."""
    c = s.held_colour
    n = 0
    for v in range(1, N_VALUES + 1):
        if has_cell_nb(s, p, c, v, 0):
            options[n] = v
            n += 1
    if n == 0:
        for v in range(1, N_VALUES + 1):
            options[n] = v
            n += 1
    return n


@njit(cache=True, error_model="numpy")
def any_draft_tool_nb(s, p, effect):
    """Whether draft_tool_options_nb(s, p, effect) lists an argument: stops at the first
    (identical dice give the same answer, so duplicates need no skipping here)."""
    for i in range(s.n_pool):
        c = s.pool_colour[i]
        v = s.pool_value[i]
        if effect == T_GROZING_PLIERS:
            if v > 1 and has_cell_nb(s, p, c, v - 1, 0):
                return True
            if v < N_VALUES and has_cell_nb(s, p, c, v + 1, 0):
                return True
        elif effect == T_GRINDING_STONE:
            if has_cell_nb(s, p, c, 7 - v, 0):
                return True
        elif effect == T_CORK_BACKED:
            if has_cell_nb(s, p, c, v, M_NOT_ADJACENT):
                return True
        else:
            return True
    return False


@njit(cache=True, error_model="numpy")
def any_lens_nb(s, p):
    """Whether lens_options_nb(s, p) lists a swap, given a pool die: some round-track die
    is placeable (stops at the first)."""
    for k in range(s.n_track):
        if has_cell_nb(s, p, s.track_colour[k], s.track_value[k], 0):
            return True
    return False


@njit(cache=True, error_model="numpy")
def any_lathekin_nb(s, p):
    """Whether lathekin_options_nb(s, p) lists a first move: the moves of
    move_options_nb(s, p, 0, -1, -1) in the same order, stopping at the first after which
    a second die can move."""
    for frm in range(N_CELLS):
        if s.win_colour[p, frm] == NO_COLOUR:
            continue
        c, v = lift_nb(s, p, frm)
        m = legal_mask_nb(s, p, c, v, 0) & ~(1 << frm)
        unlift_nb(s, p, frm, c, v)
        to = 0
        while m:
            if m & 1 and lathekin_first_ok_nb(s, p, frm * N_CELLS + to):
                return True
            m >>= 1
            to += 1
    return False


@njit(cache=True, error_model="numpy")
def tool_usable_nb(tables, s, p, slot):
    """Whether seat p may use face-up tool `slot` now (cost aside): one tool per turn, the
    drafting tools only while the turn's draft is unused, Glazing Hammer only on the second
    turn before drafting, Running Pliers only on the first turn after drafting, and only if
    the tool has a legal argument."""
    if s.tool_used_this_turn == 1:
        return False
    effect = tables.tool_effect[s.tools[slot]]
    draft_free = s.drafts_left > 0
    n_pool = s.n_pool
    # the any_* checks stop at the first argument: this runs at every action of every turn
    # (listing every argument here cost a tenth of a random player's game)
    if effect == T_GROZING_PLIERS or effect == T_GRINDING_STONE or effect == T_CORK_BACKED:
        return draft_free and n_pool > 0 and any_draft_tool_nb(s, p, effect)
    if effect == T_FLUX_BRUSH:
        return draft_free and n_pool > 0
    if effect == T_FLUX_REMOVER:
        # an empty bag does not stop it: the die goes back and is drawn again (apply_flux_remover_nb)
        return draft_free and n_pool > 0
    if effect == T_LENS_CUTTER:
        return draft_free and n_pool > 0 and s.n_track > 0 and any_lens_nb(s, p)
    if effect == T_GLAZING_HAMMER:
        return s.turn_in_round == 1 and s.drafted_this_turn == 0 and n_pool > 0
    if effect == T_RUNNING_PLIERS:
        return s.turn_in_round == 0 and s.drafted_this_turn == 1 and n_pool > 0
    if effect == T_EGLOMISE_BRUSH:
        return s.n_placed[p] > 0 and any_move_nb(s, p, M_IGNORE_COLOUR, -1, -1)
    if effect == T_COPPER_FOIL:
        return s.n_placed[p] > 0 and any_move_nb(s, p, M_IGNORE_SHADE, -1, -1)
    if effect == T_LATHEKIN:
        return s.n_placed[p] >= 2 and any_lathekin_nb(s, p)
    if effect == T_TAP_WHEEL:
        if s.n_placed[p] == 0 or s.n_track == 0:
            return False
        return any_move_nb(s, p, 0, track_colours_nb(s), -1)
    return False


@njit(cache=True, error_model="numpy")
def action_options_nb(tables, s, p, options):
    """A turn's next action: draft a pool die onto a cell (die * N_CELLS + cell; identical dice
    listed once), use a tool (OPT_TOOL + slot * OPT_TOOL_STRIDE + payer: in solo the pool die
    of the tool's colour that pays, else OPT_NO_PAYER), or end the turn (OPT_END, last)."""
    n = 0
    n_pool = s.n_pool
    if s.drafts_left > 0:
        for i in range(n_pool):
            if pool_duplicate_nb(s, i):
                continue
            m = legal_mask_nb(s, p, s.pool_colour[i], s.pool_value[i], 0)
            cell = 0
            while m:
                if m & 1:
                    options[n] = i * N_CELLS + cell
                    n += 1
                m >>= 1
                cell += 1
    if s.tool_used_this_turn == 0:
        solo = s.solo == 1
        for slot in range(s.n_tools):
            tool = s.tools[slot]
            if not solo:
                if s.tokens[p] >= tool_cost_nb(tables, s, slot) and tool_usable_nb(tables, s, p, slot):
                    options[n] = OPT_TOOL + slot * OPT_TOOL_STRIDE + OPT_NO_PAYER
                    n += 1
            elif s.tool_gone[slot] == 0:
                colour = tables.tool_colour[tool]
                for i in range(s.n_pool):
                    if s.pool_colour[i] != colour or pool_duplicate_nb(s, i):
                        continue
                    # the paying die leaves the pool before the tool acts
                    value = s.pool_value[i]
                    pool_take_nb(s, i)
                    ok = tool_usable_nb(tables, s, p, slot)
                    # put it back where it was
                    for k in range(s.n_pool, i, -1):
                        s.pool_colour[k] = s.pool_colour[k - 1]
                        s.pool_value[k] = s.pool_value[k - 1]
                    s.pool_colour[i] = colour
                    s.pool_value[i] = value
                    s.n_pool += 1
                    if ok:
                        options[n] = OPT_TOOL + slot * OPT_TOOL_STRIDE + i
                        n += 1
    options[n] = OPT_END
    return n + 1


@njit(cache=True, error_model="numpy")
def pay_tool_nb(tables, s, p, slot, payer, trace, tn):
    """Pay for a tool card: favor tokens onto the card (1 if it has none, else 2); solo: the
    paying die leaves play and the card is removed. Marks the turn's tool as used."""
    tool = s.tools[slot]
    if s.solo == 1:
        c = s.pool_colour[payer]
        v = s.pool_value[payer]
        pool_take_nb(s, payer)
        k = s.n_spent
        s.spent_colour[k] = c
        s.spent_value[k] = v
        s.n_spent = k + 1
        s.tool_gone[slot] = 1
        trace_nb(trace, tn, EV_TOOL, p, tool, -1 - c, v, 0)
    else:
        cost = tool_cost_nb(tables, s, slot)
        s.tokens[p] -= cost
        s.tool_tokens[slot] += cost
        s.tokens_spent[p] += cost
        trace_nb(trace, tn, EV_TOOL, p, tool, cost, 0, 0)
    s.tool_uses[p, slot] += 1
    s.tool_cards_used[p] += 1
    s.tool_used_this_turn = 1


@njit(cache=True, error_model="numpy")
def take_for_tool_nb(s, i):
    """A drafting tool takes pool die i into the hand (held) and uses the turn's draft."""
    c = s.pool_colour[i]
    v = s.pool_value[i]
    pool_take_nb(s, i)
    hold_nb(s, c, v)
    s.drafts_left -= 1
    s.drafted_this_turn += 1


@njit(cache=True, error_model="numpy")
def apply_grozing_nb(s, code, trace, tn):
    """Grozing Pliers: the drafted die goes up or down by 1."""
    take_for_tool_nb(s, code // 2)
    old = s.held_value
    s.held_value = old + (1 if code % 2 == 1 else -1)
    trace_nb(trace, tn, EV_SET, s.held_colour, old, s.held_value, 0, 0)


@njit(cache=True, error_model="numpy")
def apply_grinding_nb(s, i, trace, tn):
    """Grinding Stone: the drafted die is flipped to its opposite face (7 - value)."""
    take_for_tool_nb(s, i)
    old = s.held_value
    s.held_value = 7 - old
    trace_nb(trace, tn, EV_SET, s.held_colour, old, s.held_value, 0, 0)


@njit(cache=True, error_model="numpy")
def apply_flux_brush_nb(s, i, trace, tn):
    """Flux Brush: the drafted die is re-rolled."""
    take_for_tool_nb(s, i)
    old = s.held_value
    s.held_value = roll_nb(s)
    trace_nb(trace, tn, EV_SET, s.held_colour, old, s.held_value, 0, 0)


@njit(cache=True, error_model="numpy")
def apply_flux_remover_nb(s, i, trace, tn):
    """Flux Remover: "return the die to the Dice Bag and pull 1 die from the bag" (card text,
    taken literally): the drafted die goes back into the bag and a die is drawn from it (its
    value is chosen next: flux_value_options_nb). With the bag empty (round 10 of a 4-player
    game) the returned die is the only one in it and is drawn again."""
    take_for_tool_nb(s, i)
    back = s.held_colour
    back_value = s.held_value
    n = s.n_bag
    s.bag[n] = back
    j = randint_nb(s.streams, CHANCE, n + 1)  # the returned die lands anywhere in the bag
    tmp = s.bag[j]
    s.bag[j] = s.bag[n]
    s.bag[n] = tmp
    j = randint_nb(s.streams, CHANCE, n + 1)  # and one die is drawn at random
    drawn = s.bag[j]
    s.bag[j] = s.bag[n]
    s.n_bag = n
    hold_nb(s, drawn, 0)
    trace_nb(trace, tn, EV_BAG, back, drawn, back_value, 0, 0)


@njit(cache=True, error_model="numpy")
def set_flux_value_nb(s, value, trace, tn):
    """Flux Remover, step 1: the die drawn from the bag takes the value the seat chose."""
    s.held_value = value
    trace_nb(trace, tn, EV_VALUE, s.held_colour, value, 0, 0, 0)


@njit(cache=True, error_model="numpy")
def apply_lens_nb(s, code, trace, tn):
    """Lens Cutter: pool die i takes the place of round-track die k; the track die is held."""
    i = code // MAX_TRACK
    k = code % MAX_TRACK
    pc = s.pool_colour[i]
    pv = s.pool_value[i]
    tc = s.track_colour[k]
    tv = s.track_value[k]
    pool_take_nb(s, i)
    s.track_colour[k] = pc
    s.track_value[k] = pv
    hold_nb(s, tc, tv)
    s.drafts_left -= 1
    s.drafted_this_turn += 1
    trace_nb(trace, tn, EV_SWAP, pc, pv, tc, tv, 0)


@njit(cache=True, error_model="numpy")
def apply_glazing_nb(s, trace, tn):
    """Glazing Hammer: every pool die is re-rolled (traced die by die: old and new value)."""
    trace_nb(trace, tn, EV_REROLL, s.n_pool, 0, 0, 0, 0)
    for i in range(s.n_pool):
        old = s.pool_value[i]
        s.pool_value[i] = roll_nb(s)
        trace_nb(trace, tn, EV_SET, s.pool_colour[i], old, s.pool_value[i], 0, 0)


@njit(cache=True, error_model="numpy")
def apply_running_nb(s, p):
    """Running Pliers: draft a second die this turn; skip this round's second turn."""
    s.drafts_left += 1
    s.skip_second[p] = 1


# ---------------------------------------------------------------------------------------
# scoring
# ---------------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy")
def line_distinct_nb(wc, wv, start, step, length, by_colour):
    """1 if the line of `length` cells from `start` by `step` is complete and has no repeated
    colour (by_colour) or value, else 0."""
    seen = 0
    for k in range(length):
        c = start + k * step
        if wc[c] == NO_COLOUR:
            return 0
        x = wc[c] if by_colour else wv[c]
        if (seen >> x) & 1:
            return 0
        seen |= 1 << x
    return 1


@njit(cache=True, error_model="numpy")
def public_score_nb(kind, mask, points, wc, wv):
    """Points of one public objective for a window (wc: colours, wv: values per cell)."""
    count = 0
    if kind == OBJ_ROW_COLOUR or kind == OBJ_ROW_SHADE:
        for r in range(ROWS):
            count += line_distinct_nb(wc, wv, r * COLS, 1, COLS, kind == OBJ_ROW_COLOUR)
    elif kind == OBJ_COL_COLOUR or kind == OBJ_COL_SHADE:
        for k in range(COLS):
            count += line_distinct_nb(wc, wv, k, COLS, ROWS, kind == OBJ_COL_COLOUR)
    elif kind == OBJ_SHADE_SET or kind == OBJ_COLOUR_SET:
        counts = np.zeros(8, np.int64)
        for c in range(N_CELLS):
            if wc[c] != NO_COLOUR:
                if kind == OBJ_SHADE_SET:
                    counts[wv[c] - 1] += 1
                else:
                    counts[wc[c]] += 1
        count = 1 << 30
        for x in range(8):
            if (mask >> x) & 1 and counts[x] < count:
                count = counts[x]
        if count == 1 << 30:
            count = 0
    elif kind == OBJ_COLOUR_DIAGONALS:
        for c in range(N_CELLS):
            if wc[c] == NO_COLOUR:
                continue
            for k in range(4):
                q = DIAG[c, k]
                if q >= 0 and wc[q] == wc[c]:
                    count += 1
                    break
    return count * points


@njit(cache=True, error_model="numpy")
def private_score_nb(colour, wc, wv, pip_points):
    total = 0
    for c in range(N_CELLS):
        if wc[c] == colour:
            total += wv[c]
    return total * pip_points


@njit(cache=True, error_model="numpy")
def private_points_nb(tables, s, p):
    """The private objective's points; solo: the better of the two (the player's choice)."""
    best = 0
    for k in range(s.n_private):
        card = s.priv[p, k]
        if card >= 0:
            v = private_score_nb(tables.private_colour[card], s.win_colour[p], s.win_value[p],
                                 tables.pip_points)
            if v > best:
                best = v
    return best


@njit(cache=True, error_model="numpy")
def score_nb(tables, s, p, pts):
    """Final score of seat p into pts[N_PTS]; returns the total: each public objective (each
    may score several times; rows / columns only when complete), the private objective,
    1 per favor token left, -1 per open space (solo: -3, no tokens)."""
    for k in range(N_PTS):
        pts[k] = 0
    for k in range(s.n_public):
        o = s.public[k]
        pts[PTS_PUBLIC_1 + k] = public_score_nb(tables.public_kind[o], tables.public_mask[o],
                                                tables.public_points[o], s.win_colour[p], s.win_value[p])
    pts[PTS_PRIVATE] = private_points_nb(tables, s, p)
    pts[PTS_FAVOR] = s.tokens[p] * tables.token_points
    empty = N_CELLS - s.n_placed[p]
    penalty = tables.solo_empty_penalty if s.solo == 1 else tables.empty_penalty
    pts[PTS_EMPTY] = -empty * penalty
    total = 0
    for k in range(N_PTS):
        total += pts[k]
    return total


@njit(cache=True, error_model="numpy")
def target_score_nb(s):
    """Solo: the target is the sum of the values of the dice on the round track."""
    total = 0
    for k in range(s.n_track):
        total += s.track_value[k]
    return total


@njit(cache=True, error_model="numpy")
def final_position_nb(s, p):
    """Seat p's place in the last round's clockwise order (0 = that round's start player)."""
    n = s.n_players
    start = (s.first_start_player + s.n_rounds - 1) % n
    return (p - start + n) % n


@njit(cache=True, error_model="numpy")
def rank_nb(scores, privs, tokens, positions, n, rank, win):
    """Highest score wins; ties: most private objective points, then most favor tokens left,
    then reverse order in the final round (the later seat in that round's order wins), so the
    ranking is strict. rank[p] = 1 + seats ahead; win[p] = 1 for the winner."""
    keys = np.empty((4, n), np.float64)
    for p in range(n):
        keys[0, p] = scores[p]
        keys[1, p] = privs[p]
        keys[2, p] = tokens[p]
        keys[3, p] = positions[p]
    ranks_and_win_shares_nb(keys, n, rank, win)


# ---------------------------------------------------------------------------------------
# invariants (checked games)
# ---------------------------------------------------------------------------------------
@njit(cache=True, error_model="numpy")
def popcount_cells_nb(m):
    n = 0
    while m:
        m &= m - 1
        n += 1
    return n


@njit(cache=True, error_model="numpy")
def check_state_nb(tables, s):
    """0 if the state is sound, else the CHK_* code of the first broken invariant: dice of each
    colour conserved across bag, pool, windows, round track, spent dice and the held die;
    the cell masks agree with the window; each window die on a cell whose restrictions it
    meets (or a tool let it ignore);
    no orthogonal neighbours alike in colour or value; n_placed right; favor tokens >= 0 and
    those spent all lie on the tool cards."""
    counts = np.zeros(N_COLOURS, np.int64)
    for k in range(s.n_bag):
        counts[s.bag[k]] += 1
    for k in range(s.n_pool):
        counts[s.pool_colour[k]] += 1
    for k in range(s.n_track):
        counts[s.track_colour[k]] += 1
    for k in range(s.n_spent):
        counts[s.spent_colour[k]] += 1
    if s.held_colour >= 0:
        counts[s.held_colour] += 1
    n = s.n_players
    for p in range(n):
        placed = 0
        for c in range(N_CELLS):
            col = s.win_colour[p, c]
            bit = 1 << c
            if col == NO_COLOUR:
                if (s.wmask[p] & bit) != 0:
                    return CHK_COUNT
                continue
            if (s.wmask[p] & bit) == 0 or (s.cmask[p, col] & bit) == 0 or (s.vmask[p, s.win_value[p, c]] & bit) == 0:
                return CHK_COUNT
            placed += 1
            counts[col] += 1
            rc = s.restr_colour[p, c]
            if rc != NO_COLOUR and rc != col and (s.win_exempt[p, c] & M_IGNORE_COLOUR) == 0:
                return CHK_WINDOW
            rv = s.restr_value[p, c]
            if rv != NO_VALUE and rv != s.win_value[p, c] and (s.win_exempt[p, c] & M_IGNORE_SHADE) == 0:
                return CHK_WINDOW
            for k in range(4):
                q = ORTH[c, k]
                if q >= 0 and s.win_colour[p, q] != NO_COLOUR:
                    if s.win_colour[p, q] == col or s.win_value[p, q] == s.win_value[p, c]:
                        return CHK_NEIGHBOUR
        if placed != s.n_placed[p]:
            return CHK_COUNT
        total = 0
        for k in range(N_COLOURS):
            total += popcount_cells_nb(s.cmask[p, k])
        for k in range(N_VALUES + 1):
            total += popcount_cells_nb(s.vmask[p, k])
        if total != 2 * placed:
            return CHK_COUNT
    for c in range(N_COLOURS):
        if counts[c] != tables.dice_per_colour[c]:
            return CHK_DICE
    if s.solo == 0:
        spent = 0
        for p in range(n):
            if s.tokens[p] < 0:
                return CHK_TOKENS
            spent += s.tokens_spent[p]
            if s.pattern[p] >= 0 and s.tokens[p] + s.tokens_spent[p] != tables.pattern_difficulty[s.pattern[p]]:
                return CHK_TOKENS
        on_cards = 0
        for k in range(MAX_IN_PLAY):
            on_cards += s.tool_tokens[k]
        if on_cards != spent:
            return CHK_TOKENS
    return 0

