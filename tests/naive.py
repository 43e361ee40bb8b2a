"""A slow, obviously-correct reference of the Sunset Over Water rules that are easy to get wrong.

Written from the rulebook (/work/shared/rules/sunset-over-water.en.txt), independently of
sim/games/sunset/nb.py: only the encodings (cell numbers, direction codes, option codes,
EMPTY / RANGER / "?" values) are taken from enums.py. Everything here is plain Python over
lists and tuples; speed does not matter.

Rules covered:
  * Hike: one direction among the card's arrows, 1..move steps (or stay), never entering or
    passing an empty space, never leaving the wilderness, passing artists but not ending on one;
    staying put on a card shared with another artist only when no hike is possible (unless the
    rule option `stay_on_shared_card = "may_stay"` allows it always).
  * Paint: any cards of the path (start card included) not under another artist, not empty,
    not a ranger station, at most `paint` of them.
  * Sell: a commission can be taken when distinct hand cards fill all its frames, one card per
    frame; "?" takes any landscape (brute force over every assignment).
  * Daily goal conditions of a turn.
  * Final score (commissions + goals + unsold features // per-point, solo bonuses) and ranking
    (highest score, then most daily goals, then a shared victory).
"""
from __future__ import annotations

from itertools import combinations, permutations

from sim.games.sunset.enums import (
    ANY_FEATURE, CENTER, EMPTY, GOAL_HIKE_AT_LEAST, GOAL_MOVE_DIAGONAL, GOAL_MOVE_HORIZONTAL,
    GOAL_MOVE_VERTICAL, GOAL_NO_HIKE, GOAL_PAINT_AT_LEAST, GOAL_PAINT_FEATURE, GOAL_SELL_AT_LEAST,
    MAX_MOVE, MAX_ROW, RANGER,
)

SIZE = 5
# direction code -> (row step, column step); code order N, NE, E, SE, S, SW, W, NW; N is up
VECTORS = {0: (-1, 0), 1: (-1, 1), 2: (0, 1), 3: (1, 1), 4: (1, 0), 5: (1, -1), 6: (0, -1), 7: (-1, -1)}
HORIZONTAL = {2, 6}
VERTICAL = {0, 4}
DIAGONAL = {1, 3, 5, 7}


def cell_of(row: int, col: int) -> int:
    return row * SIZE + col


def rowcol(cell: int) -> tuple[int, int]:
    return divmod(cell, SIZE)


def hike_code(direction: int, steps: int) -> int:
    """The engine's option code of a hike (staying put is code 0)."""
    return 0 if steps == 0 else direction * (MAX_MOVE + 1) + steps


def decode_hike(code: int) -> tuple[int, int]:
    return divmod(code, MAX_MOVE + 1)


def walk(start: int, direction: int, steps: int):
    """Cells visited after `start`, one per step; None where the walk leaves the grid."""
    r, c = rowcol(start)
    dr, dc = VECTORS[direction]
    out = []
    for i in range(1, steps + 1):
        rr, cc = r + dr * i, c + dc * i
        out.append(cell_of(rr, cc) if 0 <= rr < SIZE and 0 <= cc < SIZE else None)
    return out


def path_cells(start: int, code: int) -> list:
    """The hike's path, the start card included."""
    d, k = decode_hike(code)
    return [start] + walk(start, d, k)


def legal_hikes(grid, positions, seat, dirs_mask, move, may_stay_shared=False) -> set:
    """Every legal hike code for `seat` holding a planning card with arrows `dirs_mask` (bit d =
    direction d) and `move` movement points. grid: 25 values (card id, EMPTY, RANGER);
    positions: the cell of every artist in the game (index = seat). may_stay_shared: the rule
    option "may_stay" (staying on a shared card always legal)."""
    others = {positions[q] for q in range(len(positions)) if q != seat}
    start = positions[seat]
    legal = set()
    for d in range(8):
        if not (dirs_mask >> d) & 1:
            continue
        for k in range(1, move + 1):
            cells = walk(start, d, k)
            if any(c is None for c in cells):
                continue  # off the wilderness
            if any(grid[c] == EMPTY for c in cells):
                continue  # may not pass through or enter an empty space
            if cells[-1] in others:
                continue  # may pass another artist, may not finish on its card
            legal.add(hike_code(d, k))
    # "Players do not need to use all of their movement points": staying is allowed, but
    # staying is finishing on the card, so not on another artist's card unless no hike is
    # possible ("you can not move even if you wish to")
    if start not in others or may_stay_shared or not legal:
        legal.add(0)
    return legal


def paintable_positions(grid, positions, seat, path) -> list:
    """Indices i of the path whose card may be painted."""
    others = {positions[q] for q in range(len(positions)) if q != seat}
    return [i for i, cell in enumerate(path)
            if grid[cell] != EMPTY and grid[cell] != RANGER and cell not in others]


def legal_paints(grid, positions, seat, path, paint) -> set:
    """Every legal paint choice as a bitmask over path positions (the empty choice included)."""
    allowed = paintable_positions(grid, positions, seat, path)
    out = set()
    for k in range(0, min(paint, len(allowed)) + 1):
        for combo in combinations(allowed, k):
            out.add(sum(1 << i for i in combo))
    return out


def card_features(features_row) -> set:
    """The features a landscape shows (features_row[f] = how many of feature f)."""
    return {f for f, n in enumerate(features_row) if n > 0}


def frame_ok(frame: int, shown: set) -> bool:
    return frame == ANY_FEATURE or frame in shown


def fills(frames, cards) -> bool:
    """Whether exactly these landscapes (list of feature sets) fill every frame, one card per
    frame, every card used."""
    if len(cards) != len(frames):
        return False
    return any(all(frame_ok(frames[i], cards[j]) for i, j in enumerate(perm))
               for perm in permutations(range(len(cards))))


def can_fill(frames, hand) -> bool:
    """Whether some distinct cards of `hand` (list of feature sets) fill all `frames`.

    Brute force over every way to give each frame its own hand card. To keep it tractable
    with big hands, cards showing the same features are interchangeable and no filling uses
    more than len(frames) of them, so each kind of card is kept at most len(frames) times."""
    if len(hand) < len(frames):
        return False
    kept, seen = [], {}
    for shown in hand:
        key = frozenset(shown)
        if seen.get(key, 0) < len(frames):
            seen[key] = seen.get(key, 0) + 1
            kept.append(shown)

    def assign(i, used):
        if i == len(frames):
            return True
        return any(j not in used and frame_ok(frames[i], kept[j]) and assign(i + 1, used | {j})
                   for j in range(len(kept)))

    return assign(0, frozenset())


def legal_sells(row, top, solo, last_day, frames_of, hand) -> set:
    """Sell options: row slots whose commission the hand can fill, plus (solo, last day) the
    revealed top card of the deck as slot MAX_ROW, plus -1 (stop)."""
    out = {-1}
    for slot, comm in enumerate(row):
        if comm >= 0 and can_fill(frames_of(comm), hand):
            out.add(slot)
    if solo and last_day and top >= 0 and can_fill(frames_of(top), hand):
        out.add(MAX_ROW)
    return out


def goal_met(kind, param, code, painted_feature_sets, n_sold) -> bool:
    """Daily goal conditions on one turn (kinds as documented in enums.py)."""
    d, k = decode_hike(code)
    if kind == GOAL_MOVE_HORIZONTAL:
        return k > 0 and d in HORIZONTAL
    if kind == GOAL_MOVE_VERTICAL:
        return k > 0 and d in VERTICAL
    if kind == GOAL_MOVE_DIAGONAL:
        return k > 0 and d in DIAGONAL
    if kind == GOAL_HIKE_AT_LEAST:
        return k >= param
    if kind == GOAL_PAINT_AT_LEAST:
        return len(painted_feature_sets) >= param
    if kind == GOAL_SELL_AT_LEAST:
        return n_sold >= param
    if kind == GOAL_PAINT_FEATURE:
        return any(param in s for s in painted_feature_sets)
    if kind == GOAL_NO_HIKE:
        return k == 0
    raise ValueError(kind)


def score(t, commissions, goals, hand, solo=False, inspiration=-1, pos=-1) -> dict:
    """Final score of one player from the tables `t` (the Sunset TABLES_DTYPE record) and what they hold:
    commission ids, goal ids, unsold landscape ids. Solo: inspiration card id and final cell."""
    pts = {"commissions": sum(int(t.commission_points[c]) for c in commissions),
           "goals": sum(int(t.goal_points[g]) for g in goals),
           "landscapes": sum(int(t.landscape_n_features[x]) for x in hand) // int(t.features_per_point),
           "inspiration": 0, "home": 0}
    if solo:
        feature = int(t.inspiration_feature[inspiration])
        for c in commissions:  # once per commission showing the feature, however many times
            frames = [int(f) for f in t.commission_frames[c][:int(t.commission_n_frames[c])]]
            if feature in frames:
                pts["inspiration"] += int(t.inspiration_points)
        if pos == CENTER:
            pts["home"] = int(t.return_home_bonus)
    pts["total"] = sum(pts[k] for k in ("commissions", "goals", "landscapes", "inspiration", "home"))
    return pts


def ranking(scores, goals) -> tuple[list, list]:
    """(rank, win share) per seat: highest score first, ties broken by most daily goals; still
    tied: a shared victory (rank 1 for all of them, the win split evenly)."""
    keys = [(s, g) for s, g in zip(scores, goals)]
    rank = [1 + sum(1 for other in keys if other > mine) for mine in keys]
    winners = [p for p, r in enumerate(rank) if r == 1]
    win = [1.0 / len(winners) if p in winners else 0.0 for p in range(len(keys))]
    return rank, win
