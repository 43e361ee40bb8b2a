"""Lowlands: the forward model of the game template (docs: notes/template.md) and the typed
log record. Every function is compiled; the game's whole progress is in the state record
(the explicit task stack included), so copying the record copies the game.
"""
import numpy as np
from numba import njit

from sim.outcomes import ranks_and_win_shares_nb
from sim.records import declare
from sim.rng import init_streams_nb, mix64_nb, redraw_nb
from sim.games.lowlands.advance import advance_nb
from sim.games.lowlands.cards import hand_total_nb
from sim.games.lowlands.decisions import apply_task_nb, task_options_nb
from sim.games.lowlands.dike import ahead_nb, dike_points_nb, dike_progress_nb
from sim.games.lowlands.farm import capacity_nb
from sim.games.lowlands.setup import setup_state_nb
from sim.games.lowlands.enums import (
    A_DIKE, A_SHEEP, DISPLAY_CARDS, K_FACILITY, MAX_PLAYERS, MAX_TASKS, N_ACTIONS, N_CELLS,
    N_EDGES, N_KINDS, N_PTS, N_RES, PTS_BONUS, PTS_CARDS, PTS_COINS, PTS_DIKE, PTS_SHEEP,
    PTS_SHIELDS, SEA, TASK_W, T_ESCAPE, T_FENCE, T_FENCE_TO, MAX_OPTIONS as _MAX_OPTIONS,
)

MAX_OPTIONS = _MAX_OPTIONS
OBS_LEN = 2048     # observe_nb output capacity
CTX_LEN = 8        # ctx[0:6] = the decision task's fields a..f (value left, mode, ...), ctx[6] = seat
KEEP_LEN = 1       # no keep values in Lowlands
# determinize_nb's redraw depends only on what the seat saw and the seed (docs/search-players.md)
CANONICAL_DETERMINIZE = True

ROUTE_DIKE, ROUTE_SHEEP, ROUTE_NONE = 0, 1, 2
ROUTE_NAMES = ("dike", "sheep", "none")

RECORD = declare(
    ("game", "i8", "game index in the run"),
    ("seat", "i8", "seat, 0-based"),
    ("score", "i8", "final score (sum of the pts_ columns)"),
    ("rank", "i8", "1 = winner; ties broken by dike-track position, then the marker on top"),
    ("win", "f8", "win share: 1 for the winner, 0 otherwise (the tie-breaks leave no tie)"),
    ("pts_dike", "i8", "dike points x the dike value at the end"),
    ("pts_sheep", "i8", "sheep x the sheep value at the end"),
    ("pts_shields", "i8", "shield points of the tiles built"),
    ("pts_coins", "i8", "coins left, minus the points lost for coins a breach could not pay"),
    ("pts_cards", "i8", "1 point per 2 resource cards"),
    ("pts_bonus", "i8", "'!' tile points at the storm surge"),
    ("route", "i8", "0 dike (pts_dike > pts_sheep), 1 sheep (pts_sheep > pts_dike), 2 neither"),
    ("dike_points", "i8", "dike points at the end (laps counted)"),
    ("sheep", "i8", "sheep at the end (after breach penalties)"),
    ("coins", "i8", "coins at the end (after breach penalties)"),
    ("tiles_mask", "i8", "bitmask of the farm expansion tiles built (bit = tile id)"),
    ("n_tiles", "i8", "farm expansion tiles built"),
    ("start_player", "i8", "1 if this seat was the first start player"),
    ("start_order", "i8", "0 = first start player, then clockwise"),
    ("floods_broke", "i8", "high tides at which the dike broke (0-3; same for every seat)"),
    ("final_breach", "i8", "1 if the dike broke at the storm surge"),
    ("breach_tokens", "i8", "breach tokens held at the storm surge, before the '!' effects (Dwelling Mound)"),
    ("support_asked", "i8", "dike-support requests this seat received"),
    ("support_given", "i8", "requests it answered with at least 1 resource"),
    ("dike_resources", "i8", "resources it put into the dike (own actions and support)"),
    ("sheep_bought", "i8", "sheep bought at the market"),
    ("sheep_sold", "i8", "sheep sold at the market"),
    ("sheep_escaped", "i8", "sheep lost from open pastures"),
    ("sheep_bred", "i8", "lambs born"),
    ("fences_built", "i8", "new fences placed"),
    ("penalty_sheep", "i8", "sheep lost to breach tokens"),
    ("penalty_coins", "i8", "coins lost to breach tokens"),
    ("penalty_points", "i8", "points lost to breach tokens"),
    ("progress_tokens", "i8", "progress-token bonuses received"),
    ("dike_actions", "i8", "farmers placed on the dike action"),
    ("first_game", "i8", "1 when played with the first-game variant"),
    ("length", "i8", "decisions in the game"),
    ("tile_sheep_sold", "i8", "sheep sold through tiles (Auction House at upkeeps, Market Hall)"),
    ("tile_sheep_bought", "i8", "sheep bought through tiles (Market Hall, Fodder Silo at upkeeps)"),
    ("illegal", "i8", "strategy decisions that were not legal (always 0 for built-ins)"),
    ("choices", "i8", "decisions the seat took among 2 or more legal options"),
)


@njit(cache=True, error_model="numpy")
def setup_nb(tables, s, n_players, game_seed, trace, tn):
    setup_state_nb(tables, s, n_players, game_seed)
    advance_nb(tables, s, trace, tn)


@njit(cache=True, error_model="numpy")
def is_over_nb(s):
    return s.over == 1


@njit(cache=True, error_model="numpy")
def to_move_nb(s):
    return s.seat if s.over == 0 else -1


@njit(cache=True, error_model="numpy")
def decision_nb(s):
    return s.dec


@njit(cache=True, error_model="numpy")
def legal_nb(tables, s, options):
    n = task_options_nb(tables, s, options)
    if n == 0:  # pragma: no cover - advance_nb never stops on such a task
        options[0] = 0
        n = 1
    return n


@njit(cache=True, error_model="numpy")
def context_nb(tables, s, ctx, keep):
    i = s.n_tasks - 1
    for k in range(6):
        ctx[k] = s.task[i, 2 + k] if i >= 0 else 0
    ctx[6] = s.seat
    ctx[7] = 0


@njit(cache=True, error_model="numpy")
def apply_nb(tables, s, option, keep, trace, tn):
    apply_task_nb(tables, s, option, trace, tn)
    advance_nb(tables, s, trace, tn)


@njit(cache=True, error_model="numpy")
def default_keep_nb(tables, s, keep):
    pass


@njit(cache=True, error_model="numpy")
def ranks_nb(tables, s, n_players, rank):
    """rank[p] = 1 + the seats ahead of p: more points, or as many and further on the dike
    track, or on the same space with the marker on top (no ties remain)."""
    keys = np.empty((3, n_players), np.float64)
    for p in range(n_players):
        keys[0, p] = s.score[p]
        keys[1, p] = dike_progress_nb(tables, s, p)   # ahead_nb's order
        keys[2, p] = s.order_stamp[p]
    ranks_and_win_shares_nb(keys, n_players, rank, np.empty(n_players, np.float64))


@njit(cache=True, error_model="numpy")
def returns_nb(tables, s, n_players, out):
    rank = np.zeros(MAX_PLAYERS, np.int64)
    ranks_nb(tables, s, n_players, rank)
    for p in range(out.shape[0]):
        out[p] = 0.0
    for p in range(n_players):
        if rank[p] == 1:
            out[p] = 1.0


@njit(cache=True, error_model="numpy")
def estimate_nb(tables, s, p):
    """A seat's score if the game ended now (public information only), breach tokens valued
    as lost sheep."""
    price = tables.price_sheep[s.price]
    v = dike_points_nb(tables, s, p) * tables.price_dike[s.price]
    v += (s.sheep[p] + s.sheep_tile[p] - s.breach[p]) * price
    v += s.coins[p] + hand_total_nb(s, p) // 2
    for x in range(tables.n_tiles):
        if (s.owned[p] >> x) & 1:
            v += tables.tile_shields[x]
    return v


@njit(cache=True, error_model="numpy")
def evaluate_nb(tables, s, seat):
    np_ = s.n_players
    mine = estimate_nb(tables, s, seat)
    best = -1 << 40
    for q in range(np_):
        if q != seat:
            e = estimate_nb(tables, s, q)
            if e > best:
                best = e
    if np_ == 1:
        best = mine
    return 1.0 / (1.0 + np.exp(-(mine - best) / 8.0))


@njit(cache=True, error_model="numpy")
def determinize_nb(tables, s, seat, seed):
    """Redraw what `seat` cannot see: the other players' hand contents (their sizes are
    public), the resource deck's order, the tile piles' order, the flood deck and the face-down
    sea cards (each keeping its back: 1-3 or 4-6); then reseed the chance stream.
    Canonical: every pile is pooled and sorted before it is shuffled (sim.rng.redraw_nb), so
    the result depends only on what the seat has seen and `seed`, not on the hidden order it
    replaces (a search player's answer never changes when the hidden cards are redrawn)."""
    init_streams_nb(s.streams[0:1], mix64_nb(np.uint64(seed)))
    np_ = s.n_players
    # resource cards: pool the deck and the other hands, deal back the same sizes
    pool = np.empty(s.res_deck.shape[0] + MAX_PLAYERS * 64, np.int64)
    n = 0
    for i in range(s.deck_n):
        pool[n] = s.res_deck[i]
        n += 1
    for q in range(np_):
        if q == seat:
            continue
        for r in range(N_RES):
            for _ in range(s.hand[q, r]):
                pool[n] = r
                n += 1
    redraw_nb(s.streams, 0, pool, n)     # sorted first: canonical (docstring)
    k = 0
    for q in range(np_):
        if q == seat:
            continue
        size = s.hand[q, 0] + s.hand[q, 1] + s.hand[q, 2]
        s.hand[q, :] = 0
        for _ in range(size):
            s.hand[q, pool[k]] += 1
            k += 1
    for i in range(s.deck_n):
        s.res_deck[i] = pool[k]
        k += 1
    for kk in range(N_KINDS):
        redraw_nb(s.streams, 0, s.tile_deck[kk], s.tile_deck_n[kk])
    # floods: unseen = deck + face-down sea cards; sea cards keep their back
    unseen = np.empty(32, np.int64)
    m = 0
    for i in range(s.flood_n):
        unseen[m] = s.flood_deck[i]
        m += 1
    for j in range(s.sea_shown, s.sea_n):
        unseen[m] = s.sea[j]
        m += 1
    redraw_nb(s.streams, 0, unseen, m)
    used = np.zeros(32, np.int64)
    for j in range(s.sea_shown, s.sea_n):
        back = tables.flood_back_high[s.sea[j]]
        for u in range(m):
            if used[u] == 0 and tables.flood_back_high[unseen[u]] == back:
                s.sea[j] = unseen[u]
                used[u] = 1
                break
    d = 0
    for u in range(m):
        if used[u] == 0:
            s.flood_deck[d] = unseen[u]
            d += 1


@njit(cache=True, error_model="numpy")
def _put(out, k, x):
    out[k] = x
    return k + 1


@njit(cache=True, error_model="numpy")
def _put_game(out, s):
    """The game's scalars, in STATE_DTYPE's order (all public)."""
    k = 0
    k = _put(out, k, s.n_players)
    k = _put(out, k, s.over)
    k = _put(out, k, s.stage)
    k = _put(out, k, s.step)
    k = _put(out, k, s.placed)
    k = _put(out, k, s.start_player)
    k = _put(out, k, s.waves)
    k = _put(out, k, s.segments)
    k = _put(out, k, s.site_res)
    k = _put(out, k, s.site_pos)
    k = _put(out, k, s.price)
    k = _put(out, k, s.flood_n)
    k = _put(out, k, s.sea_n)
    k = _put(out, k, s.sea_shown)
    k = _put(out, k, s.deck_n)
    k = _put(out, k, s.stamp)
    k = _put(out, k, s.n_tasks)
    k = _put(out, k, s.dec)
    k = _put(out, k, s.seat)
    k = _put(out, k, s.decisions)
    k = _put(out, k, s.floods_broke)
    k = _put(out, k, s.final_breach)
    k = _put(out, k, s.ask_from)
    k = _put(out, k, s.stages_broke)
    k = _put(out, k, s.step_started)
    k = _put(out, k, s.first_start)
    k = _put(out, k, s.picked_edge)
    return k


@njit(cache=True, error_model="numpy")
def observe_nb(tables, s, seat, out):
    """What `seat` may know: the whole public state (boards, farms, tracks, market, displays,
    task stack, counts of every pile), its own hand, the other hands' SIZES, the face-up
    flood cards and the backs of the face-down ones. Not: deck orders, other hands' contents,
    face-down flood values."""
    k = _put_game(out, s)
    np_ = s.n_players
    for p in range(np_):
        k = _put(out, k, s.coins[p])
        k = _put(out, k, s.hand[p, 0] + s.hand[p, 1] + s.hand[p, 2])
        k = _put(out, k, s.sheep[p])
        k = _put(out, k, s.sheep_tile[p])
        k = _put(out, k, s.dike_pos[p])
        k = _put(out, k, s.dike_lap[p])
        k = _put(out, k, s.breach[p])
        k = _put(out, k, s.plus2[p])
        k = _put(out, k, s.owned[p])
        k = _put(out, k, s.fence_supply[p])
        k = _put(out, k, s.n_buildings[p])
        k = _put(out, k, s.storm_built[p])
        k = _put(out, k, s.hands_supply[p])
        k = _put(out, k, s.order_stamp[p])
        k = _put(out, k, s.layout[p])
        k = _put(out, k, s.coin_plus_used[p])
        for e in range(N_EDGES):
            k = _put(out, k, s.fence[p, e])
        for c in range(N_CELLS):
            k = _put(out, k, s.tile_at[p, c])
        for a in range(N_ACTIONS):
            k = _put(out, k, s.uses[p, a])
            k = _put(out, k, s.hands[p, a])
        for f in range(s.farmer_on.shape[1]):
            k = _put(out, k, s.farmer_on[p, f])
    for r in range(N_RES):
        k = _put(out, k, s.hand[seat, r])
        k = _put(out, k, s.discard[r])
    for i in range(DISPLAY_CARDS):
        k = _put(out, k, s.display[i])
    for j in range(SEA):
        c = s.sea[j]
        if c < 0:
            k = _put(out, k, -1)
        elif j < s.sea_shown:
            k = _put(out, k, tables.flood_value[c])
        else:
            k = _put(out, k, 100 + tables.flood_back_high[c])   # only the back shows
    for kk in range(N_KINDS):
        k = _put(out, k, s.tile_deck_n[kk])
        for i in range(s.tile_display.shape[1]):
            k = _put(out, k, s.tile_display[kk, i])
    for i in range(s.token_order.shape[0]):
        k = _put(out, k, s.token_order[i])
    for i in range(s.market_avail.shape[0]):
        k = _put(out, k, s.market_avail[i])
        k = _put(out, k, s.market_free[i])
    for i in range(min(s.n_tasks, MAX_TASKS)):
        for j in range(TASK_W):
            k = _put(out, k, s.task[i, j])
    return k


@njit(cache=True, error_model="numpy")
def check_state_nb(tables, s):
    """0 when consistent, else the first broken invariant:
    1 resource cards not conserved (deck + display + hands + discards != the file's count)
    2 a player's fences not conserved (farm + income board != rules.fences)
    3 more housed sheep than the farm houses (a sheep outside pastures and tiles)
    4 wave pieces out of 0..36 (layers x width)
    5 a negative count (coins, cards, sheep, fences, farmhands)
    6 more buildings / storm buildings than allowed, or a tile on two farms
    7 the task stack overflowed
    8 a finished game's score differs from the sum of its components
    9 farmhands not conserved / over a space's limit
    10 a sheep-market row's sheep and empty places do not add up to its places"""
    if not cards_conserved_nb(tables, s):
        return 1
    if not fences_conserved_nb(tables, s):
        return 2
    if not sheep_housed_nb(tables, s):
        return 3
    if s.waves < 0 or s.waves > tables.n_layers * tables.layer_width:
        return 4
    if not counts_nonnegative_nb(s):
        return 5
    if not buildings_allowed_nb(tables, s):
        return 6
    if s.n_tasks > MAX_TASKS or s.n_tasks < 0:
        return 7
    if s.over == 1 and not scores_add_up_nb(s):
        return 8
    if not farmhands_conserved_nb(tables, s):
        return 9
    if not market_conserved_nb(tables, s):
        return 10
    return 0


@njit(cache=True, error_model="numpy")
def cards_conserved_nb(tables, s):
    total = 0
    for r in range(N_RES):
        total += tables.n_res_cards[r]
    have = s.deck_n + s.discard[0] + s.discard[1] + s.discard[2]
    for i in range(DISPLAY_CARDS):
        if s.display[i] >= 0:
            have += 1
    for p in range(s.n_players):
        have += s.hand[p, 0] + s.hand[p, 1] + s.hand[p, 2]
    return have == total


@njit(cache=True, error_model="numpy")
def fences_conserved_nb(tables, s):
    for p in range(s.n_players):
        nf = 0
        for e in range(N_EDGES):
            nf += s.fence[p, e]
        if s.picked_edge >= 0 and s.n_tasks > 0 and s.task[s.n_tasks - 1, 1] == p:
            nf += 1            # a fence picked up, being moved
        if nf + s.fence_supply[p] != tables.fences:
            return False
    return True


@njit(cache=True, error_model="numpy")
def sheep_housed_nb(tables, s):
    """During a fence action sheep stay in open pastures until it ends (rules text); after a
    build the escape check is a pending task: the seat in the middle of either is skipped."""
    midway = -1
    for i in range(min(s.n_tasks, MAX_TASKS)):
        kd = s.task[i, 0]
        if kd == T_FENCE or kd == T_FENCE_TO or kd == T_ESCAPE:
            midway = s.task[i, 1] if midway < 0 or midway == s.task[i, 1] else MAX_PLAYERS
    for p in range(s.n_players):
        if (midway != p and midway != MAX_PLAYERS) and s.sheep[p] > capacity_nb(tables, s, p):
            return False
    return True


@njit(cache=True, error_model="numpy")
def counts_nonnegative_nb(s):
    for p in range(s.n_players):
        if s.coins[p] < 0 or s.sheep[p] < 0 or s.fence_supply[p] < 0 or s.hands_supply[p] < 0:
            return False
        for r in range(N_RES):
            if s.hand[p, r] < 0:
                return False
    return True


@njit(cache=True, error_model="numpy")
def buildings_allowed_nb(tables, s):
    seen = 0
    for p in range(s.n_players):
        nb = 0
        for k in range(N_CELLS):
            x = s.tile_at[p, k]
            if x >= 0:
                if (seen >> x) & 1:
                    return False
                seen |= 1 << x
                if tables.tile_kind[x] != K_FACILITY:
                    nb += 1
        if (nb != s.n_buildings[p] or nb > tables.max_buildings
                or s.storm_built[p] > tables.max_storm_buildings):
            return False
    return True


@njit(cache=True, error_model="numpy")
def scores_add_up_nb(s):
    for p in range(s.n_players):
        tot = 0
        for c in range(N_PTS):
            tot += s.pts[p, c]
        if tot != s.score[p]:
            return False
    return True


@njit(cache=True, error_model="numpy")
def farmhands_conserved_nb(tables, s):
    for p in range(s.n_players):
        h = s.hands_supply[p]
        for a in range(N_ACTIONS):
            h += s.hands[p, a]
            lim = tables.max_farmhands_sheep if a == A_SHEEP else tables.max_farmhands_other
            if s.hands[p, a] > lim:
                return False
        if h != tables.farmhands:
            return False
    return True


@njit(cache=True, error_model="numpy")
def market_conserved_nb(tables, s):
    """A bought sheep leaves its place empty, a sold one fills one."""
    np_ = s.n_players
    for r in range(tables.n_market_rows[np_]):
        if s.market_avail[r] + s.market_free[r] != tables.market_buy[np_, r] + tables.market_sell[np_, r]:
            return False
        if s.market_avail[r] < 0 or s.market_free[r] < 0:
            return False
    return True


@njit(cache=True, error_model="numpy")
def record_nb(tables, s, n_players, game_index, rec, row0):
    rank = np.zeros(MAX_PLAYERS, np.int64)
    ranks_nb(tables, s, n_players, rank)
    for p in range(n_players):
        i = row0 + p   # rec[name][i]: works compiled and interpreted
        rec["game"][i] = game_index
        rec["seat"][i] = p
        rec["score"][i] = s.score[p]
        rec["rank"][i] = rank[p]
        rec["win"][i] = 1.0 if rank[p] == 1 else 0.0
        rec["pts_dike"][i] = s.pts[p, PTS_DIKE]
        rec["pts_sheep"][i] = s.pts[p, PTS_SHEEP]
        rec["pts_shields"][i] = s.pts[p, PTS_SHIELDS]
        rec["pts_coins"][i] = s.pts[p, PTS_COINS]
        rec["pts_cards"][i] = s.pts[p, PTS_CARDS]
        rec["pts_bonus"][i] = s.pts[p, PTS_BONUS]
        if s.pts[p, PTS_DIKE] > s.pts[p, PTS_SHEEP]:
            rec["route"][i] = 0
        elif s.pts[p, PTS_SHEEP] > s.pts[p, PTS_DIKE]:
            rec["route"][i] = 1
        else:
            rec["route"][i] = 2
        rec["dike_points"][i] = dike_points_nb(tables, s, p)
        rec["sheep"][i] = s.sheep[p] + s.sheep_tile[p]
        rec["coins"][i] = s.coins[p]
        rec["tiles_mask"][i] = s.owned[p]
        nt = 0
        for x in range(tables.n_tiles):
            if (s.owned[p] >> x) & 1:
                nt += 1
        rec["n_tiles"][i] = nt
        rec["start_player"][i] = 1 if p == s.first_start else 0
        rec["start_order"][i] = (p - s.first_start + n_players) % n_players
        rec["floods_broke"][i] = s.floods_broke
        rec["final_breach"][i] = s.final_breach
        rec["breach_tokens"][i] = s.breach_tokens[p]
        rec["support_asked"][i] = s.support_asked[p]
        rec["support_given"][i] = s.support_given[p]
        rec["dike_resources"][i] = s.dike_resources[p]
        rec["sheep_bought"][i] = s.sheep_bought[p]
        rec["sheep_sold"][i] = s.sheep_sold[p]
        rec["sheep_escaped"][i] = s.sheep_escaped[p]
        rec["sheep_bred"][i] = s.sheep_bred[p]
        rec["fences_built"][i] = s.fences_built[p]
        rec["penalty_sheep"][i] = s.penalty_sheep[p]
        rec["penalty_coins"][i] = s.penalty_coins[p]
        rec["penalty_points"][i] = s.penalty_points[p]
        rec["progress_tokens"][i] = s.progress_tokens[p]
        rec["dike_actions"][i] = s.actions_taken[p, A_DIKE]
        rec["first_game"][i] = tables.first_game
        rec["length"][i] = s.decisions
        rec["tile_sheep_sold"][i] = s.tile_sheep_sold[p]
        rec["tile_sheep_bought"][i] = s.tile_sheep_bought[p]
