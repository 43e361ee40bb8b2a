"""Lowlands (Das tiefe Land): constants, the component tables and the state layout.

Every number a designer may tune (tile costs, shields, price track, market layouts, farm
layouts, track lengths, rule options) arrives in the tables record built from the component
file, so changing one never recompiles. The constants here are only capacities and codes.
"""
import numpy as np

# --- capacities -------------------------------------------------------------------------
MAX_PLAYERS = 4
N_RES = 3                      # resource types: 0 wood, 1 clay, 2 stone
RES_NAMES = ("wood", "clay", "stone")
N_FARMERS = 3                  # farmers per player (values from rules.farmer_values)
N_ACTIONS = 5                  # action spaces on each farm
A_BUILD, A_DIKE, A_FENCE, A_SHEEP, A_CARDS = range(5)
ACTION_NAMES = ("build", "dike", "fence", "sheep", "cards")
MAX_TILES = 63                 # farm expansion tiles (a seat's set is one int64 bitmask)
N_KINDS = 4                    # tile kinds
K_FACILITY, K_ACTION, K_SHEEP, K_STORM = range(4)
KIND_NAMES = ("facility", "action", "sheep", "storm")
MAX_DISPLAY = 6                # face-up tiles of one kind (storm: players + 1 <= 5)
MAX_FLOOD = 16                 # flood cards
SEA = 3                        # flood cards laid per stage
N_STAGES = 3
MAX_SEGMENTS = 16              # dike segments (file: 13)
MAX_PRICE = 16                 # price-track positions
MAX_TOKENS = 8                 # progress tokens on the dike track
MAX_TRACK = 64                 # dike-track spaces
MAX_ROWS = 6                   # sheep-market rows
MAX_RES_CARDS = 128            # resource cards (file: 66)
DISPLAY_CARDS = 4              # face-up resource cards
MAX_INCOME = 16                # slots of one income-board row
N_LAYOUTS_MAX = 8              # farm layouts
MAX_TASKS = 64                 # the explicit task stack

# --- the farm grid ----------------------------------------------------------------------
ROWS = 4
COLS = 6
N_CELLS = ROWS * COLS          # cell = row * COLS + col
N_HEDGES = (ROWS + 1) * COLS   # horizontal edge h(r, c) = r * COLS + c: the line ABOVE row r
N_EDGES = N_HEDGES + ROWS * (COLS + 1)  # vertical v(r, c) = N_HEDGES + r*(COLS+1) + c: LEFT of col c
TERRAIN_BUSH = 1               # terrain bitmask of a cell
TERRAIN_TREE = 2
TERRAIN_LAKE = 4
TERRAIN_LETTERS = {"B": TERRAIN_BUSH, "T": TERRAIN_TREE, "L": TERRAIN_LAKE}
TERRAIN_NAMES = ("bush", "tree", "lake")


def _grid_tables():
    cell_edge = np.zeros((N_CELLS, 4), np.int64)   # up, down, left, right edge of a cell
    cell_nb = np.full((N_CELLS, 4), -1, np.int64)  # neighbour across that edge, -1 = outside
    edge_cells = np.full((N_EDGES, 2), -1, np.int64)
    for r in range(ROWS):
        for c in range(COLS):
            k = r * COLS + c
            cell_edge[k] = (r * COLS + c, (r + 1) * COLS + c,
                            N_HEDGES + r * (COLS + 1) + c, N_HEDGES + r * (COLS + 1) + c + 1)
            cell_nb[k] = ((r - 1) * COLS + c if r > 0 else -1, (r + 1) * COLS + c if r < ROWS - 1 else -1,
                          k - 1 if c > 0 else -1, k + 1 if c < COLS - 1 else -1)
    for e in range(N_EDGES):
        cs = [k for k in range(N_CELLS) if e in cell_edge[k]]
        edge_cells[e, :len(cs)] = cs
    corners = np.array([0, COLS - 1, (ROWS - 1) * COLS, N_CELLS - 1], np.int64)
    return cell_edge, cell_nb, edge_cells, corners


CELL_EDGE, CELL_NB, EDGE_CELLS, CORNERS = _grid_tables()

# --- tile effects (tile_effect in the tables; tile_param is their number) ---------------
EFFECT_NAMES = (
    "none",               # 0  shields only
    "coins",              # 1  immediately param coins
    "sheep",              # 2  immediately param sheep (if housed)
    "free_fences",        # 3  immediately place param fences from the income board, free
    "bank",               # 4  storm: 4 coins now; '!' 1 point per 4 coins
    "farmhouse",          # 5  storm: build a facility as with a value-4 farmer; '!' 2 per facility
    "dike_association",   # 6  storm: dike marker +3 now; '!' +2 spaces per 3 dike points (no tokens)
    "dwelling_mound",     # 7  storm: '!' discard breach tokens if <= param
    "estate",             # 8  storm: 2 free fences now; '!' 3 points per pasture
    "breeding_farm",      # 9  storm: 1 sheep now; '!' 1 sheep per 4 on this tile (capacity ignored)
    "dike_plus",          # 10 action: own dike action +1 space
    "discount",           # 11 action: 1 fewer resource of type param (tiles and dike)
    "build_then_dike",    # 12 action: after every building, a value-2 dike action
    "complete_segment",   # 13 action: complete the current dike segment, marker +3
    "half_breach",        # 14 action: breach tokens halved (rounded up)
    "waves_per_building", # 15 action: remove one wave per building you own
    "repeat_plus",        # 16 action: +1 value when repeating an action this work phase
    "lake_dike",          # 17 action: own dike action +1/+2 with 3/4 lakes outside pastures
    "fence_bonus",        # 18 action: fence action with >=1 new fence: +1 free fence
    "dairy",              # 19 sheep: immediately 1 coin per 2 sheep
    "capacity_coins",     # 20 sheep: immediately 2 coins per free sheep place
    "shearer",            # 21 sheep: +1 coin per sheep sold to the market by action
    "fence_and_sheep",    # 22 sheep: a value-3 fence action now, then 2 sheep
    "bush_coins",         # 23 facility: now and at each high tide 1 coin per bush outside pastures
    "lake_points",        # 24 facility: '!' 7/10 points with 3/4 lakes outside pastures
    "tree_cards",         # 25 facility: closing a pasture holding a tree by fencing: 2 cards
    "tree_points",        # 26 facility: '!' 5/10/15 with 3/4/5 trees outside pastures
    "sheep_farm",         # 27 facility: 1 sheep now + 5 coins per bush inside pastures
    "dike_action",        # 28 facility: a dike action of value param now
    "lake_cabin",         # 29 facility: '!' 3 per adjacent empty cell outside pastures
    "lake_sheep",         # 30 facility: +1 capacity per lake outside pastures
    "corners",            # 31 facility: +1 capacity per corner cell without a tile
    "bush_sheep",         # 32 sheep: closing a pasture holding a bush by fencing: 1 sheep
    "feed_adjacent",      # 33 sheep: +1 capacity per adjacent empty cell inside a pasture
    "between_buildings",  # 34 sheep: +1 capacity per pair of adjacent buildings
    "not_implemented",    # 35 shields only: a tile whose effect is not played (no shipped tile)
    "coin_plus",          # 36 action: once per work phase pay 1 coin: a farmer's value +1
    "auction_house",      # 37 sheep: each upkeep, before breeding, sell up to `count` sheep at
                          #    the sheep price + param (+ the Shearer's bonus)
    "market_hall",        # 38 sheep: immediately buy up to `count` sheep at `buy_price` each OR
                          #    sell up to `count` at `sell_price` each (with the supply)
    "fodder_silo",        # 39 sheep: each upkeep, before breeding, buy up to `count` sheep at
                          #    `buy_price` each (if housed)
    "dog_kennel",         # 40 facility: one pasture short of one fence counts as closed
)
(EF_NONE, EF_COINS, EF_SHEEP, EF_FREE_FENCES, EF_BANK, EF_FARMHOUSE, EF_DIKE_ASSOC, EF_MOUND,
 EF_ESTATE, EF_BREEDING, EF_DIKE_PLUS, EF_DISCOUNT, EF_BUILD_DIKE, EF_COMPLETE_SEGMENT,
 EF_HALF_BREACH, EF_WAVES, EF_REPEAT_PLUS, EF_LAKE_DIKE, EF_FENCE_BONUS, EF_DAIRY,
 EF_CAPACITY_COINS, EF_SHEARER, EF_FENCE_AND_SHEEP, EF_BUSH_COINS, EF_LAKE_POINTS,
 EF_TREE_CARDS, EF_TREE_POINTS, EF_SHEEP_FARM, EF_DIKE_ACTION, EF_LAKE_CABIN, EF_LAKE_SHEEP,
 EF_CORNERS, EF_BUSH_SHEEP, EF_FEED_ADJ, EF_BETWEEN, EF_NOT_IMPLEMENTED, EF_COIN_PLUS) = range(37)
EF_AUCTION, EF_MARKET_HALL, EF_FODDER_SILO, EF_KENNEL = range(37, 41)
N_EFFECTS = len(EFFECT_NAMES)
MAX_EFFECTS = 64               # size of tables.effect_tiles
TRADE_MAX = 9                  # sheep one trade decision moves each way (codes sold*16+bought)

# --- progress-token kinds (alternatives to their coins) ----------------------------------
TOKEN_ALT_NAMES = ("none", "remove_wave", "farmhand", "free_fence", "farmer_plus2")
ALT_NONE, ALT_REMOVE_WAVE, ALT_FARMHAND, ALT_FREE_FENCE, ALT_PLUS2 = range(5)

# --- income icons ------------------------------------------------------------------------
INCOME_NAMES = ("none", "card", "coin", "card_or_coin", "farmhand", "card_and_coin")
INC_NONE, INC_CARD, INC_COIN, INC_CARD_OR_COIN, INC_FARMHAND, INC_CARD_AND_COIN = range(6)

# --- rule options: the codes of the tables' rule fields (component file `rules`) -----------
SUPPORT_OPPONENT = 0      # "two_player_support = opponent": ask the opponent, as in 3-4 players
SUPPORT_NONE = 1          # "none": no support request in 2-player games
TWO_PLAYER_SUPPORT = {"opponent": SUPPORT_OPPONENT, "none": SUPPORT_NONE}
AUCTION_TO_SUPPLY = 0     # "auction_house_sells_to = supply": the Auction House sells to the supply
AUCTION_TO_MARKET = 1     # "market": the sale needs (and fills) empty places on sheep-market rows
AUCTION_HOUSE_SELLS_TO = {"supply": AUCTION_TO_SUPPLY, "market": AUCTION_TO_MARKET}
CORNERS_EXACTLY_ONE = 0   # "corner_pens = exactly_one": a tile-free corner in a pasture holds 1
                          #   (the rulebook's words)
CORNERS_ONE_MORE = 1      # "one_more": its pasture place plus 1
CORNER_PENS = {"exactly_one": CORNERS_EXACTLY_ONE, "one_more": CORNERS_ONE_MORE}
TERRAIN_COUNTS = 0        # "terrain_under_buildings = counts": terrain under a building counts as
                          #   outside pastures (the rulebook's words)
TERRAIN_HIDDEN = 1        # "hidden": it does not count
TERRAIN_UNDER_BUILDINGS = {"counts": TERRAIN_COUNTS, "hidden": TERRAIN_HIDDEN}
# rule fields copied as numbers (yes/no as 1/0), and those coded by the tables above
NUMBER_RULES = ("hand_limit", "price_start", "start_coins", "start_cards", "non_start_bonus",
                "start_sheep", "first_game", "border_is_fence", "same_resource_after_segment",
                "max_buildings", "max_storm_buildings", "reuse_cost", "farmhands",
                "max_farmhands_sheep", "max_farmhands_other", "fences", "breed_per",
                "farmer_plus", "storm_display_extra", "display_per_kind", "cards_per_point",
                "exchange_rate", "shuffle_progress_tokens")
RULE_OPTIONS = {"two_player_support": TWO_PLAYER_SUPPORT,
                "auction_house_sells_to": AUCTION_HOUSE_SELLS_TO,
                "corner_pens": CORNER_PENS, "terrain_under_buildings": TERRAIN_UNDER_BUILDINGS}
DIKE_RULES = ("site_length", "track_length", "wrap_to", "wrap_points")   # component file `dike`

# --- tables record (what the kernels read) -----------------------------------------------
TABLES_DTYPE = np.dtype([
    ("n_tiles", np.int64),
    ("tile_kind", np.int64, (MAX_TILES,)),      # K_*
    ("tile_value", np.int64, (MAX_TILES,)),     # action value the build needs
    ("tile_cost", np.int64, (MAX_TILES, N_RES)),  # resources by type
    ("tile_shields", np.int64, (MAX_TILES,)),   # final points
    ("tile_terrain", np.int64, (MAX_TILES,)),   # required terrain bitmask of the cell, 0 = any
    ("tile_effect", np.int64, (MAX_TILES,)),    # EF_*
    ("tile_param", np.int64, (MAX_TILES,)),
    ("tile_cap_in", np.int64, (MAX_TILES,)),    # sheep the tile houses inside a pasture
    ("tile_cap_out", np.int64, (MAX_TILES,)),   # ... outside a pasture
    ("n_flood", np.int64),
    ("flood_value", np.int64, (MAX_FLOOD,)),
    ("flood_back_high", np.int64, (MAX_FLOOD,)),  # 1 if the back shows 4-6
    ("n_segments", np.int64),
    ("segment_layer", np.int64, (MAX_SEGMENTS,)),  # 1-based layer of segment i (built in order)
    ("segment_length", np.int64, (MAX_SEGMENTS,)), # wave spaces it covers
    ("layer_width", np.int64),                  # wave spaces per layer (12)
    ("n_layers", np.int64),                     # wave layers (3)
    ("n_price", np.int64),
    ("price_sheep", np.int64, (MAX_PRICE,)),
    ("price_dike", np.int64, (MAX_PRICE,)),
    ("n_tokens", np.int64),
    ("token_space", np.int64, (MAX_TOKENS,)),   # dike-track space of each large space
    ("token_coins", np.int64, (MAX_TOKENS,)),
    ("token_alt", np.int64, (MAX_TOKENS,)),     # ALT_*
    ("n_market_rows", np.int64, (MAX_PLAYERS + 1,)),     # by player count
    ("market_buy", np.int64, (MAX_PLAYERS + 1, MAX_ROWS)),   # sheep put on a row at reset
    ("market_sell", np.int64, (MAX_PLAYERS + 1, MAX_ROWS)),  # empty places of a row
    ("n_res_cards", np.int64, (N_RES,)),
    ("farmer_values", np.int64, (N_FARMERS,)),
    ("n_layouts", np.int64),
    ("layout_terrain", np.int64, (N_LAYOUTS_MAX, N_CELLS)),  # TERRAIN_* bitmask per cell
    ("start_fences", np.int64, (N_EDGES,)),     # 1 = a fence of the starting pasture
    ("n_fence_income", np.int64),               # income-board fence slots (left to right)
    ("fence_income", np.int64, (MAX_INCOME,)),  # INC_* uncovered when the slot's fence leaves
    ("building_income", np.int64, (MAX_INCOME,)),  # INC_* uncovered by the k-th building marker
    # the dike track (component file `dike`; the shipped value in brackets)
    ("site_length", np.int64),        # resources per dike segment (construction-site track) (4)
    ("track_length", np.int64),       # dike-track spaces before the wrap (42: 0..20 points)
    ("wrap_to", np.int64),            # space the marker continues on after the last one (2: the 3rd)
    ("wrap_points", np.int64),        # dike points added per lap (20)
    # the rules (component file `rules`, the same names): numbers as written there, yes/no as
    # 1/0, rule options as their codes; the shipped value in brackets
    ("hand_limit", np.int64),         # resource cards kept at the turn of the tide (8)
    ("price_start", np.int64),        # price-marker start position (4, the middle)
    ("start_coins", np.int64),        # coins each player starts with (4)
    ("start_cards", np.int64),        # resource cards each player starts with (4)
    ("non_start_bonus", np.int64),    # extra coins for the players after the start player (1)
    ("start_sheep", np.int64),        # sheep in the starting pasture (2)
    ("two_player_support", np.int64),  # dike support in 2-player games: SUPPORT_* (opponent)
    ("first_game", np.int64),         # 1: the first-game variant, flood cards of value 6 out (0)
    ("border_is_fence", np.int64),    # 1: the farm's outer border closes pastures (0)
    ("same_resource_after_segment", np.int64),  # 1: a segment completed in an action may be
                                      #   followed by one of the same resource in it (0: text)
    ("max_buildings", np.int64),      # buildings (non-facilities) per player (4)
    ("max_storm_buildings", np.int64),  # storm-surge buildings per player (1)
    ("reuse_cost", np.int64),         # coins per own farmer already on the space (1)
    ("farmhands", np.int64),          # farmhands per player (2)
    ("max_farmhands_sheep", np.int64),  # farmhands allowed on the sheep action (1)
    ("max_farmhands_other", np.int64),  # farmhands allowed on each other action (2)
    ("fences", np.int64),             # fences per player (16)
    ("breed_per", np.int64),          # sheep per new lamb (2)
    ("farmer_plus", np.int64),        # value of a "farmer +2" token (2)
    ("storm_display_extra", np.int64),  # storm buildings face up = players + this (1)
    ("display_per_kind", np.int64),   # face-up tiles of the other kinds (3)
    ("cards_per_point", np.int64),    # resource cards per final point (2)
    ("exchange_rate", np.int64),      # cards of one type for one of another (2)
    ("shuffle_progress_tokens", np.int64),  # 1: progress tokens shuffled onto the large spaces (0)
    ("auction_house_sells_to", np.int64),   # where the Auction House sells: AUCTION_TO_* (supply)
    ("corner_pens", np.int64),        # a tile-free corner in a pasture: CORNERS_* (exactly_one)
    ("terrain_under_buildings", np.int64),  # terrain under a building: TERRAIN_* (counts)
    # tile trades (Auction House, Market Hall, Fodder Silo; 0 for other tiles)
    ("tile_count", np.int64, (MAX_TILES,)),     # sheep the effect moves per use
    ("tile_buy", np.int64, (MAX_TILES,)),       # coins paid per sheep bought
    ("tile_sell", np.int64, (MAX_TILES,)),      # coins received per sheep sold (Market Hall)
    ("effect_tiles", np.int64, (MAX_EFFECTS,)), # bitmask of the tiles with each effect (O(1) tests)
], align=True)

# --- steps of a stage (state.step) -------------------------------------------------------
STEP_TIDE, STEP_WORK1, STEP_UP1, STEP_WORK2, STEP_UP2, STEP_HIGH = range(6)
N_STEPS = 6

# --- score components (pts[p, ...]) ---------------------------------------------------------
PTS_DIKE, PTS_SHEEP, PTS_SHIELDS, PTS_COINS, PTS_CARDS, PTS_BONUS = range(6)
PTS_NAMES = ("pts_dike", "pts_sheep", "pts_shields", "pts_coins", "pts_cards", "pts_bonus")
N_PTS = 6

# --- tasks on the explicit stack: task[i] = (T_*, seat, a, b, c, d) --------------------------
T_PLACE = 0        # seat places a farmer
T_BUILD = 1        # a = value, b = 1 facility only (farmhouse), c = 1 own action (farmhands apply)
T_CELL = 2         # a = tile, b = display kind, c = display slot, d = farmhands' discount
T_DIKE = 3         # a = value left (support: resources still allowed), b = mode DIKE_*,
                   # c = resources paid so far, d = resource of a segment completed in this
                   # action (+1), 0 none; e = discount tiles used (bit per resource);
                   # f = support: the builder's seat
T_FENCE = 4        # a = value left, b = FENCE_* mode, c = resource (-1 unset),
                   # d = new fences built so far, e = fences placed or moved so far,
                   # f = bitmask of cells in pastures when the action began
T_FENCE_TO = 5     # T_FENCE's fields (a = value left after the move); the fence picked up
                   # stands on edge state.picked_edge until put down
T_SHEEP = 6        # a = value
T_CARDS = 7        # a = cards to take
T_ASK = 8          # a = resources the builder paid
T_TOKEN = 9        # a = token index (a choice of coins or its alternative)
T_FARMHAND = 10    # place or move a farmhand
T_INCOME = 11      # a card or a coin
T_DISCARD = 12     # discard one card (hand limit)
T_AFTER = 13       # automatic: end of an action: a = value left -> T_CARDS, b = action,
                   # c = 1 dike (ask support after the cards), d = resources paid (for the ask)
T_ESCAPE = 14      # automatic: sheep escape from open pastures (end of an action)
T_SHEEP_GAIN = 15  # automatic: a = sheep gained if housed
T_FLOOD = 16       # automatic: a = 1 lay this stage's flood cards first; reveal the leftmost
T_UPKEEP_TRADE = 17  # before breeding: sell at the Auction House / buy at the Fodder Silo
T_MARKET_HALL = 18   # the Market Hall just built: a = tile id
T_UPKEEP = 19      # automatic: the rest of the upkeep (breeding on), after the trades; a = 1 last
T_DECK_CARDS = 20  # automatic: a = cards drawn from the resource deck (Timber Yard)
TASK_W = 8         # (kind, seat, a, b, c, d, e, f)
DIKE_OWN, DIKE_SUPPORT, DIKE_TILE = range(3)   # farmer action / support / tile effect (asks, no cards)
FENCE_OWN, FENCE_FREE, FENCE_TILE = range(3)   # farmer action / free placements / tile's fence action

# --- decisions ------------------------------------------------------------------------------
DEC_PLACE = 0      # code = action * 16 + farmer * 4 + plus2 token * 2 + coin_plus; PASS_PLACE
                   # (farmer 0 placed idle) only when no action is possible
DEC_BUILD = 1      # code = kind * MAX_DISPLAY + slot
DEC_CELL = 2       # code = cell
DEC_DIKE = 3       # code = res * 16 + amount; STOP (0 in support = decline)
DEC_FENCE = 4      # code = edge (build), N_EDGES + edge (pick up to move); STOP
DEC_FENCE_TO = 5   # code = edge
DEC_SHEEP = 6      # code = mode * 100 + row * 10 + count (mode 0 buy, 1 sell)
DEC_CARDS = 7      # code = bitmask of display slots taken (rest from the deck)
DEC_ASK = 8        # code = seat asked
DEC_TOKEN = 9      # code 0 = coins, 1 = the alternative
DEC_FARMHAND = 10  # code = from * 8 + to; from = N_ACTIONS: from the income board; STOP = skip
DEC_INCOME = 11    # code 0 = card, 1 = coin
DEC_DISCARD = 12   # code = resource type
DEC_UPKEEP_TRADE = 13  # code = sold * 16 + bought: sheep sold at the Auction House(s) and bought
                       # at the Fodder Silo(s) before breeding (0 = neither)
DEC_MARKET_HALL = 14   # code = sold * 16 + bought (one of them 0): the Market Hall's trade;
                       # ctx[0] = the tile
DEC_NAMES = ("place", "build", "cell", "dike", "fence", "fence_to", "sheep", "cards", "ask",
             "token", "farmhand", "income", "discard", "upkeep_trade", "market_hall")
STOP = 999
PASS_PLACE = 998
MAX_OPTIONS = 128

# --- trace events: (EV_*, a, b, c, d, e) ----------------------------------------------------
EV_STAGE = 0       # a = stage, b = step
EV_FLOOD = 1       # a = card value, b = waves after
EV_PLACE = 2       # a = seat, b = action, c = farmer value, d = total value, e = reuse coins
EV_BUILD = 3       # a = seat, b = tile, c = cell, d = resource cards paid
EV_DIKE = 4        # a = seat, b = res, c = amount, d = mode, e = segments after
EV_FENCE = 5       # a = seat, b = edge, c = 1 built / 0 moved-to / 2 picked up / 3 free
EV_SHEEP = 6       # a = seat, b = mode, c = row, d = count, e = price
EV_CARDS = 7       # a = seat, b = display mask, c = from deck
EV_ASK = 8         # a = seat, b = seat asked
EV_TOKEN = 9       # a = seat, b = token, c = choice (0 coins), d = coins received
EV_HIGH = 10       # a = 1 held, 0 broke, b = waves, c = segments
EV_ESCAPE = 11     # a = seat, b = sheep lost
EV_UPKEEP = 12     # a = seat, c = cards, d = coins (the automatic income; lambs: EV_BREED)
EV_END = 13        # a = final breach
EV_DISCARD = 14    # a = seat, b = res
EV_FARMHAND = 15   # a = seat, b = from, c = to
EV_TRADE = 16      # a = seat, b = 0 upkeep (Auction House / Fodder Silo), 1 Market Hall,
                   # c = sold, d = bought, e = coins received minus paid
EV_INCOME = 17     # a = seat, b = 0 a card / 1 a coin (the income board's choice), c = card
                   # type drawn (-1: none left)
EV_BREED = 18      # a = seat, b = lambs born, c = sheep after
EV_MARKET = 19     # a = row, b = sheep before, c = empty places before, d = sheep after,
                   # e = empty places after (after every trade with the sheep market)
TRACE_WIDTH = 6

STATE_DTYPE = np.dtype([
    # the game
    ("n_players", np.int64),
    ("over", np.int64),                              # 1 once final scoring is done
    ("stage", np.int64),                             # 0..2, 3 = storm surge
    ("step", np.int64),                              # STEP_* within the stage
    ("placed", np.int64),                            # farmers placed in this work phase
    ("start_player", np.int64),                      # start player seat
    ("waves", np.int64),                             # wave pieces on the board (0..36)
    ("segments", np.int64),                          # dike segments built
    ("site_res", np.int64),                          # resource of the segment being built, -1 none
    ("site_pos", np.int64),                          # construction-site position 0..site length
    ("price", np.int64),                             # price-marker position
    ("flood_n", np.int64),                           # cards left in the flood deck
    ("sea_n", np.int64),                             # flood cards laid this stage
    ("sea_shown", np.int64),                         # of them revealed
    ("deck_n", np.int64),                            # resource deck size
    ("stamp", np.int64),                             # arrival counter for the marker stacks
                                                     #   (higher = on top)
    ("n_tasks", np.int64),                           # entries on the task stack
    ("dec", np.int64),                               # current decision kind DEC_*, -1 none
    ("seat", np.int64),                              # seat deciding, -1 none
    ("decisions", np.int64),                         # decisions taken (the game's length)
    ("floods_broke", np.int64),                      # high tides at which the dike broke
    ("final_breach", np.int64),                      # 1 if the storm surge broke the dike
    ("ask_from", np.int64),                          # seat asking support (context), -1 none
    ("stages_broke", np.int64),                      # bitmask of stages whose high tide broke
    ("step_started", np.int64),                      # 1 once the current step's automatic start ran
    ("first_start", np.int64),                       # the start player of the first stage
    ("picked_edge", np.int64),                       # edge of the fence being moved (T_FENCE_TO),
                                                     #   -1 none
    ("streams", np.uint64, (1 + MAX_PLAYERS,)),      # RNG counters: chance, then one per seat
    ("task", np.int64, (MAX_TASKS, TASK_W)),         # explicit task stack task[:n_tasks]
    ("order_stamp", np.int64, (MAX_PLAYERS,)),       # dike-marker stack order: higher = on top
    ("layout", np.int64, (MAX_PLAYERS,)),            # farm layout of each seat
    ("coins", np.int64, (MAX_PLAYERS,)),
    ("hand", np.int64, (MAX_PLAYERS, N_RES)),        # resource cards by type (hidden: count public)
    ("res_deck", np.int64, (MAX_RES_CARDS,)),        # types, top = res_deck[deck_n - 1]
    ("discard", np.int64, (N_RES,)),                 # discard pile by type (face up)
    ("display", np.int64, (DISPLAY_CARDS,)),         # face-up resource cards, -1 empty
    ("flood_deck", np.int64, (MAX_FLOOD,)),          # flood card ids, top = [flood_n - 1]
    ("sea", np.int64, (SEA,)),                       # flood card ids laid this stage, -1 none
    ("tile_deck", np.int64, (N_KINDS, MAX_TILES)),   # tile ids by kind, top = [k, n-1]
    ("tile_deck_n", np.int64, (N_KINDS,)),
    ("tile_display", np.int64, (N_KINDS, MAX_DISPLAY)),  # face-up tile ids, -1 empty
    ("tile_at", np.int64, (MAX_PLAYERS, N_CELLS)),   # tile id on each farm cell, -1 none
    ("owned", np.int64, (MAX_PLAYERS,)),             # bitmask of tiles built
    ("fence", np.int64, (MAX_PLAYERS, N_EDGES)),     # 1 = a fence on that edge
    ("fence_supply", np.int64, (MAX_PLAYERS,)),      # fences left on the income board
    ("n_buildings", np.int64, (MAX_PLAYERS,)),       # building markers used
    ("storm_built", np.int64, (MAX_PLAYERS,)),
    ("sheep", np.int64, (MAX_PLAYERS,)),             # sheep housed on the farm
    ("sheep_tile", np.int64, (MAX_PLAYERS,)),        # sheep on a breeding farm (capacity ignored)
    ("dike_pos", np.int64, (MAX_PLAYERS,)),          # dike-track space
    ("dike_lap", np.int64, (MAX_PLAYERS,)),          # times past the end
    ("breach", np.int64, (MAX_PLAYERS,)),            # breach tokens
    ("plus2", np.int64, (MAX_PLAYERS,)),             # "farmer +2" tokens held
    ("farmer_on", np.int64, (MAX_PLAYERS, N_FARMERS)),  # action of a placed farmer, -1 at home
    ("uses", np.int64, (MAX_PLAYERS, N_ACTIONS)),    # own farmers on each space this work phase
    ("coin_plus_used", np.int64, (MAX_PLAYERS,)),    # 1 once the coin_plus tile was used this work phase
    ("hands", np.int64, (MAX_PLAYERS, N_ACTIONS)),   # farmhands on each action space
    ("hands_supply", np.int64, (MAX_PLAYERS,)),      # farmhands on the income board
    ("token_order", np.int64, (MAX_TOKENS,)),        # token (kind) index on each large space
    ("market_avail", np.int64, (MAX_ROWS,)),         # sheep on each market row
    ("market_free", np.int64, (MAX_ROWS,)),          # empty selling places on each row
    # per-seat counters, [seat]: the log columns of the same name (model.RECORD), except
    # actions_taken (its dike column is the log's dike_actions) and bonus_points (pts_bonus)
    ("support_asked", np.int64, (MAX_PLAYERS,)),     # dike-support requests this seat received
    ("support_given", np.int64, (MAX_PLAYERS,)),     # requests it answered with >= 1 resource
    ("dike_resources", np.int64, (MAX_PLAYERS,)),    # resources it put in the dike (own actions
                                                     #   and support)
    ("sheep_bought", np.int64, (MAX_PLAYERS,)),      # at the sheep market
    ("sheep_sold", np.int64, (MAX_PLAYERS,)),        # at the sheep market
    ("sheep_escaped", np.int64, (MAX_PLAYERS,)),     # sheep lost from open pastures
    ("sheep_bred", np.int64, (MAX_PLAYERS,)),        # lambs born
    ("fences_built", np.int64, (MAX_PLAYERS,)),      # new fences placed
    ("actions_taken", np.int64, (MAX_PLAYERS, N_ACTIONS)),  # farmers placed on each action
    ("bonus_points", np.int64, (MAX_PLAYERS,)),      # '!' points
    ("penalty_sheep", np.int64, (MAX_PLAYERS,)),     # sheep lost to breach tokens
    ("penalty_coins", np.int64, (MAX_PLAYERS,)),     # coins lost to breach tokens
    ("penalty_points", np.int64, (MAX_PLAYERS,)),    # points lost to breach tokens
    ("breach_tokens", np.int64, (MAX_PLAYERS,)),     # breach tokens held at the storm surge
                                                     #   (before the '!' effects)
    ("progress_tokens", np.int64, (MAX_PLAYERS,)),   # progress-token bonuses taken
    ("tile_sheep_sold", np.int64, (MAX_PLAYERS,)),   # sheep sold through tiles (Auction House,
                                                     #   Market Hall)
    ("tile_sheep_bought", np.int64, (MAX_PLAYERS,)),  # sheep bought through tiles (Market Hall,
                                                      #   Fodder Silo)
    ("pts", np.int64, (MAX_PLAYERS, N_PTS)),         # final score components
    ("score", np.int64, (MAX_PLAYERS,)),
], align=True)


def new_state():
    """A 1-element STATE_DTYPE array (kernels take element 0)."""
    return np.zeros(1, STATE_DTYPE).view(np.recarray)


def new_tables():
    return np.zeros(1, TABLES_DTYPE).view(np.recarray)


def pack_tables(t):
    """The kernels' tables: components.build_tables already returns the 1-element record array
    (the platform calls pack_tables(components.tables))."""
    return t
