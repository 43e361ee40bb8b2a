"""A naive reference scorer for Lowlands, written apart from the engine: plain Python over a
copy of the state, its own pasture detection (union-find instead of the engine's flood
fill; the Dog Kennel's pasture by trying every missing fence, not by finding bridges), the storm surge's '!' tiles, the final dike check with its penalties, and final
scoring, straight from the rules text. The engine's storm_surge_nb is checked against it."""
from sim.games.lowlands import enums as E

EFFECTS = {name: i for i, name in enumerate(E.EFFECT_NAMES)}


def _building(t, s, p, k):
    x = s.tile_at[p, k]
    return x >= 0 and t.tile_kind[x] != E.K_FACILITY


def _closed_cells(t, s, p):
    """Set of cells inside closed pastures (union-find over cells joined by open edges)."""
    parent = list(range(E.N_CELLS))

    def find(a):
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    def closed_edge(e, a, b):
        if s.fence[p, e]:
            return True
        if _building(t, s, p, a) or (b >= 0 and _building(t, s, p, b)):
            return True
        return b < 0 and t.border_is_fence == 1

    leaks = set()
    for r in range(E.ROWS):
        for c in range(E.COLS):
            k = r * E.COLS + c
            if _building(t, s, p, k):
                continue
            sides = [(r * E.COLS + c, (r - 1, c)), ((r + 1) * E.COLS + c, (r + 1, c)),
                     (E.N_HEDGES + r * (E.COLS + 1) + c, (r, c - 1)),
                     (E.N_HEDGES + r * (E.COLS + 1) + c + 1, (r, c + 1))]
            for e, (rr, cc) in sides:
                inside = 0 <= rr < E.ROWS and 0 <= cc < E.COLS
                nb = rr * E.COLS + cc if inside else -1
                if closed_edge(e, k, nb):
                    continue
                if nb < 0:
                    leaks.add(k)
                elif not _building(t, s, p, nb):
                    parent[find(k)] = find(nb)
    open_roots = {find(k) for k in leaks}
    groups = {}
    for k in range(E.N_CELLS):
        if not _building(t, s, p, k):
            groups.setdefault(find(k), []).append(k)
    cells = set()
    n_pastures = 0
    for root, ks in groups.items():
        if root not in open_roots:
            cells.update(ks)
            n_pastures += 1
    return cells, n_pastures


def pasture_cells(t, s, p):
    """Set of cells inside closed pastures and their number; with a Dog Kennel ("one pasture
    short of one fence counts as closed"), by brute force: every free edge is tried as the
    missing fence, and the cells it would newly close are a candidate; the one housing most
    sheep (1 per empty cell, tiles' inside minus outside places), then the largest, then the
    smallest cell bitmask, counts as a pasture."""
    cells, n_pastures = _closed_cells(t, s, p)
    kennel = any((int(s.owned[p]) >> x) & 1 and t.tile_effect[x] == EFFECTS["dog_kennel"]
                 for x in range(t.n_tiles))
    if not kennel:
        return cells, n_pastures
    best = None
    for e in range(E.N_EDGES):
        if s.fence[p, e]:
            continue
        ab = [k for k in range(E.N_CELLS) if e in _edges_of(k)]
        if any(_building(t, s, p, k) for k in ab):
            continue                       # a building's border: no fence goes there
        s.fence[p, e] = 1
        with_e, _ = _closed_cells(t, s, p)
        s.fence[p, e] = 0
        new = with_e - cells
        if not new:
            continue
        places = sum(1 if s.tile_at[p, k] < 0 else
                     int(t.tile_cap_in[s.tile_at[p, k]]) - int(t.tile_cap_out[s.tile_at[p, k]])
                     for k in new)
        key = (places, len(new), -sum(1 << k for k in new))
        if best is None or key > best[0]:
            best = (key, new)
    if best is None:
        return cells, n_pastures
    return cells | best[1], n_pastures + 1


def _edges_of(k):
    r, c = divmod(k, E.COLS)
    return (r * E.COLS + c, (r + 1) * E.COLS + c,
            E.N_HEDGES + r * (E.COLS + 1) + c, E.N_HEDGES + r * (E.COLS + 1) + c + 1)


def dike_points(t, lap, pos):
    return lap * t.wrap_points + pos // 2


def dike_holds(t, segments, waves):
    if segments:
        dl = t.segment_layer[segments - 1]
        dlen = sum(t.segment_length[i] for i in range(segments) if t.segment_layer[i] == dl)
    else:
        dl, dlen = 0, 0
    if waves:
        wl = -(-waves // t.layer_width)
        wlen = waves - (wl - 1) * t.layer_width
    else:
        wl, wlen = 0, 0
    return dl > wl or (dl == wl and dlen >= wlen)


def naive_final(t, s):
    """[(pts_dike, pts_sheep, pts_shields, pts_coins, pts_cards, pts_bonus, score)] per seat
    for the state `s` (a copy; it is changed) as if the storm surge came now."""
    n = int(s.n_players)
    pos = int(s.price)
    sheep_price = int(t.price_sheep[pos])
    dike_value = int(t.price_dike[pos])
    L = int(t.track_length)
    bonus = [0] * n
    for p in range(n):
        inside, n_past = pasture_cells(t, s, p)
        lay = s.layout[p]

        hidden = int(t.terrain_under_buildings) == E.TERRAIN_HIDDEN

        def outside(bit):
            return sum(1 for k in range(E.N_CELLS) if t.layout_terrain[lay, k] & bit
                       and k not in inside and not (hidden and _building(t, s, p, k)))
        for x in range(t.n_tiles):
            if not (int(s.owned[p]) >> x) & 1:
                continue
            ef, prm = int(t.tile_effect[x]), int(t.tile_param[x])
            if ef == EFFECTS["bank"]:
                bonus[p] += int(s.coins[p]) // prm
            elif ef == EFFECTS["farmhouse"]:
                bonus[p] += prm * sum(1 for k in range(E.N_CELLS)
                                      if s.tile_at[p, k] >= 0 and t.tile_kind[s.tile_at[p, k]] == E.K_FACILITY)
            elif ef == EFFECTS["dike_association"]:
                steps = 2 * (dike_points(t, s.dike_lap[p], s.dike_pos[p]) // prm)
                for _ in range(steps):
                    s.dike_pos[p] += 1
                    if s.dike_pos[p] >= L:
                        s.dike_pos[p] = t.wrap_to
                        s.dike_lap[p] += 1
            elif ef == EFFECTS["dwelling_mound"]:
                if s.breach[p] <= prm:
                    s.breach[p] = 0
            elif ef == EFFECTS["estate"]:
                bonus[p] += prm * n_past
            elif ef == EFFECTS["breeding_farm"]:
                s.sheep_tile[p] += (int(s.sheep[p]) + int(s.sheep_tile[p])) // prm
            elif ef == EFFECTS["lake_points"]:
                nl = outside(E.TERRAIN_LAKE)
                bonus[p] += 10 if nl >= 4 else 7 if nl == 3 else 0
            elif ef == EFFECTS["tree_points"]:
                nt = outside(E.TERRAIN_TREE)
                bonus[p] += 15 if nt >= 5 else 10 if nt == 4 else 5 if nt == 3 else 0
            elif ef == EFFECTS["lake_cabin"]:
                k = [c for c in range(E.N_CELLS) if s.tile_at[p, c] == x][0]
                r, c = divmod(k, E.COLS)
                for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                    if 0 <= rr < E.ROWS and 0 <= cc < E.COLS:
                        nb = rr * E.COLS + cc
                        if s.tile_at[p, nb] < 0 and nb not in inside:
                            bonus[p] += prm
    holds = dike_holds(t, int(s.segments), int(s.waves))
    out = []
    for p in range(n):
        sheep, tile_sheep, coins = int(s.sheep[p]), int(s.sheep_tile[p]), int(s.coins[p])
        lost_points = 0
        if not holds:
            tokens = int(s.breach[p])
            for _ in range(tokens):             # each token: a sheep, else coins, else points
                if sheep > 0:
                    sheep -= 1
                elif tile_sheep > 0:
                    tile_sheep -= 1
                else:
                    for _ in range(sheep_price):
                        if coins > 0:
                            coins -= 1
                        else:
                            lost_points += 1
        shields = sum(int(t.tile_shields[x]) for x in range(t.n_tiles) if (int(s.owned[p]) >> x) & 1)
        parts = (dike_points(t, int(s.dike_lap[p]), int(s.dike_pos[p])) * dike_value,
                 (sheep + tile_sheep) * sheep_price, shields, coins - lost_points,
                 int(s.hand[p].sum()) // t.cards_per_point, bonus[p])
        out.append(parts + (sum(parts),))
    return out
