"""Sunset Over Water: invariants of whole games, checked game by game against tests/naive.py.

Two drivers:
  * the platform's loop (sim/harness.py) on the forward model (model.py) with its event trace
    on, thousands of games: a shadow of
    the public state is rebuilt from the set-up and the trace, and every hike, painting, sale,
    daily goal and solo discard in the trace is checked against the naive rules on the shadow
    state *before* the move; the shadow must end equal to the engine's final state; cards are
    conserved; scores and ranks recompute; games end in time; no illegal decisions.
  * a Python copy of the play loop that calls the rule kernels one step at a time, with the
    built-in strategies choosing: every option list the engine offers is compared with the
    naive one (nothing missing, nothing extra), every applied move is checked on the state
    before it, and cards are conserved after every turn. With the same strategies it must
    reproduce the compiled loop's results exactly, so it checks what the compiled loop plays
    (a second, independent sequencing of the same rules: model.py must agree with it).
"""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from sim.games.sunset import SPEC
from sim.games.sunset.components import components_from_text, default_components_text
from sim.games.sunset import enums as E
from sim.games.sunset.nb import (
    apply_hike_nb, apply_paint_nb, apply_plan_nb, apply_sell_nb, check_goal_nb, cleanup_nb,
    default_keep_nb, draw_plans_nb, hike_options_nb, new_state, paint_options_nb, path_nb,
    plan_options_nb, sell_options_nb, setup_nb, turn_order_nb, wake_effect_nb,
)
from tests.sunset_helpers import card_tables, play_games, trace_game
from sim.rng import game_seed_nb
from strategies.sunset import choose_builtin_nb
from tests import naive

RUN_SEED = 20240917
MAX_EVENTS = 5000


@pytest.fixture(scope="module")
def comp():
    return SPEC.load_components()


@pytest.fixture(scope="module")
def T(comp):
    return card_tables(comp.tables)


@pytest.fixture(scope="module")
def trec(comp):
    return comp.tables


def prepare(comp, names, n_players):
    return SPEC.prepare(comp, n_players, list(names), RUN_SEED)


def reference_games(comp, T, trec, names, n_players, n_games):
    """What a replaying test needs: (the Python rules, strategy ids, params, a fresh state, the
    records of the compiled loop's `n_games` games with RUN_SEED: the reference)."""
    R = Rules(T)
    prep = prepare(comp, names, n_players)
    ids, params = prep.strategy_ids, prep.strategy_params
    st = new_state()
    ref = play_games(trec, n_players, ids, params, RUN_SEED, n_games)
    return R, ids, params, st, ref


# ------------------------------------------------------------------------------------------
# helpers over the tables
# ------------------------------------------------------------------------------------------
class Rules:
    """Plain-python views of the tables (T: tests.sunset_helpers.card_tables, the card arrays
    cut to the file's cards)."""

    def __init__(self, T):
        self.T = T
        self.n_land = len(T.landscape_n_features)
        self.n_comm = len(T.commission_points)
        self.n_goal = len(T.goal_points)
        self.shows = [naive.card_features(T.landscape_features[x]) for x in range(self.n_land)]
        self.frames = [[int(f) for f in T.commission_frames[c][:int(T.commission_n_frames[c])]]
                       for c in range(self.n_comm)]
        self.points = [int(x) for x in T.commission_points]
        self.rangers = {int(c) for c in T.ranger_cells}

    def hand_shows(self, hand):
        return [self.shows[x] for x in hand]

    def n_days(self, n_players):
        return int(self.T.solo_days if n_players == 1 else self.T.days)

    def row_len(self, n_players):
        return int(self.T.solo_row if n_players == 1 else n_players + self.T.row_extra)

    def ranger_refills(self, grid, start, code):
        """Solo: cells an artist's hike refills, in order: for each ranger station passed or
        reached, the empty spaces around it left to right, top to bottom."""
        out = []
        d, k = naive.decode_hike(code)
        for cell in naive.walk(start, d, k):
            if cell in self.rangers:
                r0, c0 = naive.rowcol(cell)
                for r in range(r0 - 1, r0 + 2):
                    for c in range(c0 - 1, c0 + 2):
                        if 0 <= r < 5 and 0 <= c < 5:
                            x = naive.cell_of(r, c)
                            if grid[x] == E.EMPTY and x not in out:
                                out.append(x)
        return out

    def highest_slot(self, row):
        """Solo wake-up discard: the highest-point commission of the row, the leftmost on ties."""
        best = None
        for slot, comm in enumerate(row):
            if comm >= 0 and (best is None or self.points[comm] > self.points[row[best]]):
                best = slot
        return best


def owned_comms(s, p):
    return [c for c in range(E.MAX_COMM) if s["comm_owned"][p, c] > 0]


def owned_goals(s, p):
    return [g for g in range(E.MAX_GOAL) if s["goal_owned"][p, g] > 0]


def hand_of(s, p):
    return [int(x) for x in s["hand"][p, :s["hand_n"][p]]]


def check_conservation(R, s, where=""):
    """Every card is in exactly one place."""
    n = int(s["n_players"])
    lands = [int(x) for x in s["grid"] if x >= 0]
    lands += [int(x) for x in s["ldeck"][:s["n_ldeck"]]] + [int(x) for x in s["ldisc"][:s["n_ldisc"]]]
    for p in range(n):
        lands += hand_of(s, p)
    assert sorted(lands) == list(range(R.n_land)), f"landscapes not conserved {where}"

    row_len = int(s["row_len"])
    assert all(x == -1 for x in s["crow"][row_len:]), where
    comms = [int(x) for x in s["cdeck"][:s["n_cdeck"]]]
    comms += [int(s["comm_top"])] if s["comm_top"] >= 0 else []
    comms += [int(x) for x in s["crow"][:row_len] if x >= 0]
    for p in range(n):
        comms += owned_comms(s, p)
    assert len(comms) == len(set(comms)), f"a commission is in two places {where}"
    assert all(0 <= c < R.n_comm for c in comms)
    assert len(comms) + int(s["n_cdisc"]) == R.n_comm, f"commissions not conserved {where}"

    goals = [int(x) for x in s["gdeck"][:s["n_gdeck"]]]
    goals += [int(s["goal"])] if s["goal"] >= 0 else []
    for p in range(n):
        goals += owned_goals(s, p)
    assert len(goals) == len(set(goals)), f"a daily goal is in two places {where}"
    assert len(goals) + int(s["n_gdisc"]) == R.n_goal, f"daily goals not conserved {where}"

    if n == 1:
        assert {c for c in range(25) if s["grid"][c] == E.RANGER} == R.rangers, where
    else:
        assert not any(s["grid"] == E.RANGER), where
    assert all(0 <= s["pos"][p] < 25 for p in range(n)), where


def check_final(R, s, rec, n_players, where=""):
    """Scores and ranks recompute with the naive rules; the game ended in time."""
    solo = n_players == 1
    n_days = R.n_days(n_players)
    assert s["over"] == 1
    assert s["day"] + 1 <= n_days
    if s["end_reason"] == E.END_DAYS:
        assert s["day"] + 1 == n_days, where
        if not solo:  # "only 2 Planning Cards remain in each player's deck"
            assert list(s["pdeck_n"][:n_players]) == [2] * n_players, where
    else:
        assert s["end_reason"] == E.END_COMMISSIONS
    scores, goals = [], []
    for p in range(n_players):
        pts = naive.score(R.T, owned_comms(s, p), owned_goals(s, p), hand_of(s, p), solo=solo,
                          inspiration=int(s["inspiration"]), pos=int(s["pos"][p]))
        row = rec[p]
        assert row["score"] == pts["total"], f"score of seat {p} {where}"
        assert [row["pts_commissions"], row["pts_goals"], row["pts_landscapes"], row["pts_inspiration"],
                row["pts_home"]] == [pts["commissions"], pts["goals"], pts["landscapes"],
                                     pts["inspiration"], pts["home"]], where
        assert row["n_commissions"] == len(owned_comms(s, p))
        assert row["n_goals"] == len(owned_goals(s, p))
        assert row["landscapes_left"] == s["hand_n"][p]
        assert row["days"] == s["day"] + 1 and row["end_reason"] == s["end_reason"]
        assert row["length"] == n_players * (s["day"] + 1), where
        assert row["illegal"] == 0, f"illegal decision by a built-in {where}"
        scores.append(pts["total"])
        goals.append(len(owned_goals(s, p)))
    rank, share = naive.ranking(scores, goals)
    assert list(rec["rank"][:n_players]) == rank, where
    assert np.allclose(rec["win"][:n_players], share), where


# ------------------------------------------------------------------------------------------
# 1. the compiled loop, checked through its trace
# ------------------------------------------------------------------------------------------
class Shadow:
    """The public state of a game rebuilt from its set-up and its trace; each move is checked
    with the naive rules before it is applied."""

    def __init__(self, R, trec, n_players, game_seed):
        self.R = R
        self.n = n_players
        self.solo = n_players == 1
        st = new_state()
        setup_nb(trec[0], st[0], n_players, game_seed, np.zeros((0, 6), np.int64), np.zeros(1, np.int64))
        s = st[0]
        self.grid = [int(x) for x in s["grid"]]
        self.row = [int(x) for x in s["crow"][:int(s["row_len"])]]
        self.top = int(s["comm_top"])
        self.inspiration = int(s["inspiration"])
        self.n_days = R.n_days(n_players)
        self.pos = [E.CENTER] * n_players
        self.hands = [[] for _ in range(n_players)]
        self.comms = [set() for _ in range(n_players)]
        self.goals = [set() for _ in range(n_players)]
        self.used = [set() for _ in range(n_players)]
        self.card = [-1] * n_players
        self.day = -1
        self.goal = -1
        self.goal_owner = -1
        self.pending_refills = []
        self.turn = None
        self.slid = True
        self.ended = None
        self.counts = Counter()

    def others(self, p):
        return {self.pos[q] for q in range(self.n) if q != p}

    def apply_refills(self):
        for cell, land in self.pending_refills:
            assert self.grid[cell] == E.EMPTY, f"refill of a non-empty space {cell}"
            self.grid[cell] = land
        self.pending_refills = []

    def slide(self):
        """Solo clean-up: the remaining commissions slide left (not traced)."""
        if self.solo and not self.slid:
            kept = [c for c in self.row if c >= 0]
            self.row = kept + [-1] * (len(self.row) - len(kept))
            self.slid = True

    def end_turn(self):
        t = self.turn
        if t is None:
            return
        self.turn = None
        met = self.goal >= 0 and naive.goal_met(
            int(self.R.T.goal_kind[self.goal]), int(self.R.T.goal_param[self.goal]), t["code"],
            t["painted"], t["sold"])
        assert met == t["goal_event"], (f"daily goal {self.goal}: met {met}, claimed {t['goal_event']} "
                                        f"(hike {t['code']}, painted {t['painted']}, sold {t['sold']})")
        if met:
            self.goal_owner = t["seat"]

    def event(self, ev):
        kind, a, b, c, d, e = (int(x) for x in ev)
        R = self.R
        if kind not in (E.EV_PAINT, E.EV_SELL_CARD, E.EV_SELL, E.EV_GOAL):
            self.end_turn()
        if kind == E.EV_REFILL:
            self.pending_refills.append((a, b))
            return
        if kind == E.EV_RESHUFFLE:
            return
        if kind == E.EV_HIKE:
            self.hike(a, b, c, d, e)
            return
        self.apply_refills()
        if kind == E.EV_DAY:
            self.slide()
            assert a == self.day + 1
            self.day = a
        elif kind == E.EV_PLAN:
            assert b not in self.used[a], f"planning card {b} played twice by seat {a}"
            self.used[a].add(b)
            self.card[a] = b
            assert c == R.T.plan_wake[b]
        elif kind == E.EV_WAKE:
            pass
        elif kind == E.EV_SETUP_CELL:   # the set-up shown by the replay is the real one
            assert self.day == -1 and self.grid[a] == b, f"set-up cell {a}: traced {b}, dealt {self.grid[a]}"
            self.counts["setup_cell"] += 1
        elif kind == E.EV_SETUP_ROW:
            assert self.day == -1 and self.row[a] == b, f"set-up row slot {a}: traced {b}, dealt {self.row[a]}"
            self.counts["setup_row"] += 1
        elif kind == E.EV_SETUP_TOP:
            assert self.day == -1 and self.top == a
            self.counts["setup_top"] += 1
        elif kind == E.EV_INSPIRATION:
            assert self.day == -1 and self.solo and a == self.inspiration
            self.counts["setup_inspiration"] += 1
        elif kind == E.EV_PAINT:
            t = self.turn
            assert t is not None and t["seat"] == a
            assert c in t["path"], "painted a card off the path"
            assert self.grid[c] == b and b >= 0, "painted a card that is not there"
            assert c not in self.others(a), "painted a card under another artist"
            t["painted"].append(R.shows[b])
            assert len(t["painted"]) <= R.T.plan_paint[self.card[a]], "painted more than the card allows"
            self.hands[a].append(b)
            self.grid[c] = E.EMPTY
            self.counts["paint"] += 1
        elif kind == E.EV_SELL_CARD:
            t = self.turn
            assert t is not None and t["seat"] == a
            t["selling"].append(c)
        elif kind == E.EV_SELL:
            t = self.turn
            assert t is not None and t["seat"] == a
            slot = c
            legal = naive.legal_sells(self.row, self.top, self.solo, self.day == self.n_days - 1,
                                      lambda k: R.frames[k], R.hand_shows(self.hands[a]))
            assert slot in legal and slot >= 0, f"illegal sale at slot {slot}"
            comm = self.top if slot == E.MAX_ROW else self.row[slot]
            assert comm == b
            sold = t["selling"]
            t["selling"] = []
            assert not (Counter(sold) - Counter(self.hands[a])), "sold a landscape not in hand"
            assert naive.fills(R.frames[comm], R.hand_shows(sold)), \
                f"landscapes {sold} do not fill commission {comm} {R.frames[comm]}"
            for x in sold:
                self.hands[a].remove(x)
            if slot == E.MAX_ROW:
                self.top = -1
                self.counts["sell_top"] += 1
            else:
                self.row[slot] = -1
            self.comms[a].add(comm)
            t["sold"] += 1
            self.counts["sell"] += 1
        elif kind == E.EV_GOAL:
            t = self.turn
            assert t is not None and t["seat"] == a and b == self.goal and not self.solo
            assert not t["selling"]
            t["goal_event"] = True
        elif kind == E.EV_GOAL_KEPT:
            assert a == self.goal_owner >= 0 and b == self.goal, "the wrong seat keeps the goal"
            self.goals[a].add(b)
            self.goal = -1
            self.goal_owner = -1
            self.counts["goal"] += 1
        elif kind == E.EV_NEW_GOAL:
            assert not self.solo
            assert self.goal == -1 or self.goal_owner == -1, "a claimed goal was not kept"
            self.goal = a
            self.goal_owner = -1
        elif kind == E.EV_DISCARD_COMM:
            assert self.solo
            slot = R.highest_slot(self.row)
            assert slot is not None and self.row[slot] == a, \
                f"discarded {a}, expected the highest (leftmost) of {self.row}"
            self.row[slot] = -1
            self.counts["discard"] += 1
        elif kind == E.EV_ROW:
            self.slide()
            assert self.row[a] == -1, "a row slot refilled while occupied"
            if c == 1:
                assert b == self.top, "the revealed top card does not fill the row first"
                self.top = -1
            else:
                assert self.top == -1, "a row slot filled from the deck before the revealed card"
            self.row[a] = b
        elif kind == E.EV_TOP:
            self.slide()
            assert self.top == -1
            self.top = a
        elif kind == E.EV_END:
            assert self.goal == -1 or self.goal_owner == -1, "a claimed goal was not kept"
            if a == E.END_COMMISSIONS:
                self.slide()
            else:
                assert self.day == self.n_days - 1
            self.ended = a
        else:
            raise AssertionError(f"unknown event {kind}")

    def hike(self, p, d, k, start, end):
        R = self.R
        refills = self.pending_refills
        assert start == self.pos[p], "hike does not start where the artist stands"
        card = self.card[p]
        code = naive.hike_code(d, k)
        may_stay = int(R.T.stay_on_shared_card) == E.SHARED_STAY_MAY_STAY
        legal = naive.legal_hikes(self.grid, self.pos, p, int(R.T.plan_dirs[card]), int(R.T.plan_move[card]),
                                  may_stay)
        assert code in legal, f"illegal hike dir {d} steps {k} from {start} with card {card}"
        path = naive.path_cells(start, code)
        assert end == path[-1]
        if self.solo:
            expect = R.ranger_refills(self.grid, start, code)
            got = [cell for cell, _ in refills]
            assert got == expect[:len(got)], f"ranger refills {got}, expected {expect}"
        else:
            assert not refills, "refill during a multiplayer trek"
        self.apply_refills()
        # No two artists end a move on the same card, staying put included; the only exception
        # is an artist with no legal hike at all ("you can not move even if you wish to").
        if end in self.others(p):
            assert legal == {0} or may_stay, f"seat {p} ended on {end}, another artist's card, with {legal} legal"
            self.counts["shared_end"] += 1
        else:
            self.counts["ended_alone"] += 1
        self.pos[p] = end
        self.slid = False
        self.turn = {"seat": p, "code": code, "path": path, "painted": [], "sold": 0, "selling": [],
                     "goal_event": False}
        self.counts["hike"] += 1

    def compare_final(self, s):
        assert self.ended is not None
        assert self.grid == [int(x) for x in s["grid"]], "trace and final wilderness differ"
        assert self.pos == [int(x) for x in s["pos"][:self.n]]
        assert self.row == [int(x) for x in s["crow"][:len(self.row)]], "trace and final row differ"
        assert self.top == s["comm_top"]
        for p in range(self.n):
            assert sorted(self.hands[p]) == sorted(hand_of(s, p)), f"hand of seat {p}"
            assert self.comms[p] == set(owned_comms(s, p))
            assert self.goals[p] == set(owned_goals(s, p))


TRACE_CASES = [
    (1, ("random",), 2000), (2, ("random",), 2000), (3, ("random",), 2000), (4, ("random",), 2000),
    (1, ("planner",), 150), (2, ("planner", "greedy"), 150),
    (3, ("greedy", "random", "planner"), 150), (4, ("planner", "greedy", "greedy", "random"), 150),
]


@pytest.mark.parametrize("n_players,names,n_games", TRACE_CASES,
                         ids=[f"{n}p-{'-'.join(names)}" for n, names, _ in TRACE_CASES])
def test_compiled_games_traced(comp, T, trec, n_players, names, n_games):
    R, ids, params, st, ref = reference_games(comp, T, trec, names, n_players, n_games)
    totals = Counter()
    ends = Counter()
    for game in range(n_games):
        where = f"({n_players}p {names} game {game})"
        trace, n_ev, rec = trace_game(trec, st, n_players, RUN_SEED, game, ids, params, MAX_EVENTS)
        assert n_ev < MAX_EVENTS
        # the trace does not change the game
        assert (rec == ref[game * n_players:(game + 1) * n_players]).all(), where
        s = st[0]
        shadow = Shadow(R, trec, n_players, np.uint64(game_seed_nb(np.uint64(RUN_SEED), game)))
        try:
            for ev in trace[:n_ev]:
                shadow.event(ev)
            shadow.compare_final(s)
            check_conservation(R, s, where)
            check_final(R, s, rec, n_players, where)
        except AssertionError as exc:
            raise AssertionError(f"{where}: {exc}") from exc
        totals.update(shadow.counts)
        ends[int(s["end_reason"])] += 1
    # the checks above saw real play, not empty games
    assert totals["hike"] == ref["length"].sum() // n_players
    assert totals["paint"] > n_games and totals["sell"] > n_games // 2
    if n_players > 1:
        assert totals["goal"] > n_games
    else:  # solo: wake-up discards happen, the top card of the deck is sold on the last day
        assert totals["discard"] > 0 and totals["sell_top"] > 0
    assert ends[E.END_DAYS] > 0
    # the set-up is traced whole in every game (what `balance replay` shows first)
    assert totals["setup_cell"] == 25 * n_games and totals["setup_top"] == n_games
    assert totals["setup_row"] == n_games * (3 if n_players == 1 else n_players + 1)
    assert totals["setup_inspiration"] == (n_games if n_players == 1 else 0)


def shared_card_counts(comp, n_players, names, n_games, seed=RUN_SEED):
    """Replay n_games through the Shadow (which checks every hike against the naive rules)
    and count the hikes that ended alone and those that ended on another artist's card."""
    R = Rules(card_tables(comp.tables))
    trec = comp.tables
    prep = SPEC.prepare(comp, n_players, list(names), seed)
    st = new_state()
    totals = Counter()
    for game in range(n_games):
        trace, n_ev, _ = trace_game(trec, st, n_players, seed, game, prep.strategy_ids,
                                    prep.strategy_params, MAX_EVENTS)
        shadow = Shadow(R, trec, n_players, np.uint64(game_seed_nb(np.uint64(seed), game)))
        for ev in trace[:n_ev]:
            shadow.event(ev)
        shadow.compare_final(st[0])
        totals.update(shadow.counts)
    return totals


@pytest.mark.parametrize("n_players,names", [(2, ("random",)), (3, ("random",)), (4, ("random",)),
                                             (4, ("greedy", "planner", "random", "greedy"))])
def test_no_two_artists_end_a_move_on_the_same_card(comp, n_players, names):
    """Rulebook: an artist "may not finish on the same card" as another, and staying put is
    finishing where it stands. Over random games, every hike (stays included) ends on a card
    no other artist stands on, except when the artist had no legal hike at all (checked in
    Shadow.hike against the naive rules)."""
    totals = shared_card_counts(comp, n_players, names, 300)
    assert totals["ended_alone"] + totals["shared_end"] == totals["hike"] > 0
    # boxed-in artists are rare: the exception is not how the invariant holds
    assert totals["shared_end"] <= 0.01 * totals["hike"], totals


def test_may_stay_option_lets_artists_share_a_card(comp):
    """The rule option "may_stay" (staying put always legal) is the other reading: with it,
    random players end turns together on a card (the centre on day 1), which the default
    forbids."""
    text = default_components_text().replace('stay_on_shared_card = "must_leave"',
                                             'stay_on_shared_card = "may_stay"')
    loose = components_from_text(text)
    assert int(loose.tables[0].stay_on_shared_card) == E.SHARED_STAY_MAY_STAY
    shared = shared_card_counts(loose, 4, ("random",), 100)["shared_end"]
    strict = shared_card_counts(comp, 4, ("random",), 100)["shared_end"]
    assert shared > 20 and strict < shared / 5, (shared, strict)


# ------------------------------------------------------------------------------------------
# 2. the loop re-written in Python, one kernel call at a time
# ------------------------------------------------------------------------------------------
def step_game(R, trec, st, n_players, game, ids, params):
    """Play one game in the day's order (model.py), checking each option list and each applied move with
    the naive rules. Returns the number of decisions checked."""
    t = trec[0]
    s = st[0]
    T = R.T
    trace0 = np.zeros((0, 6), np.int64)
    tn = np.zeros(1, np.int64)
    setup_nb(t, s, n_players, np.uint64(game_seed_nb(np.uint64(RUN_SEED), game)), trace0, tn)
    solo = n_players == 1
    n_days = R.n_days(n_players)
    options = np.empty(E.MAX_OPTIONS, np.int64)
    ctx = np.zeros(2 + E.MAX_PATH, np.int64)
    keep = np.zeros(E.MAX_HAND, np.float64)
    path = np.zeros(E.MAX_PATH, np.int64)
    checked = Counter()
    assert s["row_len"] == R.row_len(n_players) and s["n_days"] == n_days
    assert all(x >= 0 for x in s["crow"][:R.row_len(n_players)]) and s["comm_top"] >= 0
    assert (s["goal"] >= 0) != solo
    check_conservation(R, s, "after set-up")

    def choose(p, decision, n):
        i = choose_builtin_nb(ids[p], params[p], t, s, p, decision, options, n, ctx, keep)
        assert 0 <= i < n, "a built-in strategy chose an option that does not exist"
        return options[i]

    while s["over"] == 0:
        day = int(s["day"])
        # planning
        codes = []
        for p in range(n_players):
            if not solo:
                assert s["pdeck_n"][p] == E.N_PLAN - day  # on the last day exactly 3 cards remain
                draw_plans_nb(s, p)
            hand = [int(x) for x in s["popen"][p]]
            assert all(c >= 0 for c in hand) or (solo and day >= n_days - 2)
            assert not any(s["plan_used"][p, c] for c in hand if c >= 0), "a used planning card came back"
            n = plan_options_nb(s, p, options)
            expect = {k * 2 + o for k in range(3) if hand[k] >= 0 for o in ((0,) if solo else (0, 1))}
            assert sorted(options[:n]) == sorted(expect)
            codes.append(choose(p, E.DEC_PLAN, n))
            checked["plan"] += 1
        for p in range(n_players):
            before = int(s["pdeck_n"][p])
            expect_card = int(s["popen"][p, codes[p] // 2])
            apply_plan_nb(s, p, codes[p])
            card = int(s["plan_choice"][p])
            assert card == expect_card >= 0
            if not solo:  # the two other cards go to the bottom of the deck
                assert s["pdeck_n"][p] == before + 2 and card not in list(s["pdeck"][p, :before + 2])
        if solo:
            row_before = [int(x) for x in s["crow"][:s["row_len"]]]
            empty_before = sum(1 for x in s["grid"] if x == E.EMPTY)
            band = wake_effect_nb(t, s, s["plan_choice"][0], trace0, tn)
            wake = T.plan_wake[s["plan_choice"][0]]
            row = list(row_before)
            if band >= 0:
                assert T.band_from[band] <= wake <= T.band_to[band]
                if T.band_effect[band] == E.WAKE_DISCARD_COMMISSIONS:
                    for _ in range(int(T.band_param[band])):
                        slot = R.highest_slot(row)
                        if slot is not None:
                            row[slot] = -1
                elif T.band_effect[band] == E.WAKE_REFILL_WILDERNESS and empty_before:
                    left = s["n_ldeck"] + s["n_ldisc"]
                    assert left == 0 or not any(s["grid"] == E.EMPTY), "early morning left spaces empty"
            assert row == [int(x) for x in s["crow"][:s["row_len"]]], "wake-up discard"
        turn_order_nb(t, s)
        order = [int(x) for x in s["order"][:n_players]]
        assert sorted(order) == list(range(n_players))
        wakes = [T.plan_wake[s["plan_choice"][p]] for p in order]
        assert wakes == sorted(wakes), "trek order is not by wake-up time"

        # trek
        for p in order:
            s["selling_seat"] = p
            card = int(s["plan_choice"][p])
            ctx[0] = card
            ctx[1] = 0
            grid = [int(x) for x in s["grid"]]
            pos = [int(x) for x in s["pos"][:n_players]]
            n = hike_options_nb(t, s, p, card, options)
            got = [int(x) for x in options[:n]]
            assert len(got) == len(set(got))
            assert set(got) == naive.legal_hikes(grid, pos, p, int(T.plan_dirs[card]), int(T.plan_move[card])), \
                f"hike options from {pos[p]} card {card}"
            hike = int(choose(p, E.DEC_HIKE, n))
            start = pos[p]
            n_path = path_nb(start, hike, path)
            expect_path = naive.path_cells(start, hike)
            assert [int(x) for x in path[:n_path]] == expect_path
            apply_hike_nb(t, s, p, hike, trace0, tn)
            assert s["pos"][p] == expect_path[-1]
            changed = [c for c in range(25) if s["grid"][c] != grid[c]]
            if solo:
                expect = R.ranger_refills(grid, start, hike)
                assert set(changed) <= set(expect) and all(grid[c] == E.EMPTY for c in changed)
                left = (s["n_ldeck"] + s["n_ldisc"])
                if left > 0:
                    assert set(changed) == set(expect), "ranger station did not refill its surroundings"
            else:
                assert not changed
            checked["hike"] += 1

            # paint
            ctx[1] = n_path
            ctx[2:2 + n_path] = path[:n_path]
            grid = [int(x) for x in s["grid"]]
            pos = [int(x) for x in s["pos"][:n_players]]
            n = paint_options_nb(s, p, path, n_path, T.plan_paint[card], options)
            got = [int(x) for x in options[:n]]
            assert len(got) == len(set(got))
            assert set(got) == naive.legal_paints(grid, pos, p, expect_path, int(T.plan_paint[card])), \
                f"paint options on path {expect_path}"
            mask = int(choose(p, E.DEC_PAINT, n))
            painted = [grid[expect_path[i]] for i in range(n_path) if (mask >> i) & 1]
            hand_before = hand_of(s, p)
            apply_paint_nb(s, p, path, mask, trace0, tn)
            assert hand_of(s, p) == hand_before + painted
            assert all(s["grid"][expect_path[i]] == E.EMPTY for i in range(n_path) if (mask >> i) & 1)
            painted_features = 0
            for x in painted:
                for f in R.shows[x]:
                    painted_features |= 1 << f
            checked["paint"] += 1

            # sell
            n_sold = 0
            while True:
                hand = hand_of(s, p)
                row = [int(x) for x in s["crow"][:s["row_len"]]]
                top = int(s["comm_top"])
                n = sell_options_nb(t, s, p, options)
                got = [int(x) for x in options[:n]]
                assert len(got) == len(set(got)) and got[-1] == -1
                assert set(got) == naive.legal_sells(row, top, solo, day == n_days - 1,
                                                     lambda k: R.frames[k], R.hand_shows(hand)), \
                    f"sell options with hand {hand} row {row}"
                checked["sell_options"] += 1
                if n == 1:
                    break
                default_keep_nb(t, s, p, keep)
                assert list(keep[:len(hand)]) == [T.landscape_n_features[x] for x in hand]
                slot = int(choose(p, E.DEC_SELL, n))
                if slot < 0:
                    break
                expect_comm = top if slot == E.MAX_ROW else row[slot]
                discards_before = int(s["n_ldisc"])
                comm = apply_sell_nb(t, s, p, slot, keep, trace0, tn)
                assert comm == expect_comm
                after = hand_of(s, p)
                sold = list((Counter(hand) - Counter(after)).elements())
                assert not (Counter(after) - Counter(hand)) and len(after) == len(hand) - len(R.frames[comm])
                assert naive.fills(R.frames[comm], R.hand_shows(sold)), \
                    f"sold {sold} for commission {comm} {R.frames[comm]}"
                assert sorted(int(x) for x in s["ldisc"][discards_before:s["n_ldisc"]]) == sorted(sold)
                assert s["comm_owned"][p, comm] == day + 1
                assert (s["comm_top"] if slot == E.MAX_ROW else s["crow"][slot]) == -1
                n_sold += 1
                checked["sell"] += 1

            # daily goal
            owner_before = int(s["goal_owner"])
            check_goal_nb(t, s, p, hike, len(painted), painted_features, n_sold, trace0, tn)
            goal = int(s["goal"])
            met = goal >= 0 and naive.goal_met(int(T.goal_kind[goal]), int(T.goal_param[goal]), hike,
                                               [R.shows[x] for x in painted], n_sold)
            assert s["goal_owner"] == (p if met else owner_before), "daily goal claim"
            s["plan_used"][p, card] = day + 1
            s["turns"] += 1
            check_conservation(R, s, f"after seat {p}'s turn on day {day}")
        s["selling_seat"] = -1

        # clean-up
        goal, owner = int(s["goal"]), int(s["goal_owner"])
        cleanup_nb(t, s, trace0, tn)
        if goal >= 0 and owner >= 0:
            assert s["goal_owned"][owner, goal] == day + 1, "the last seat to meet the goal keeps it"
        if s["over"]:
            break
        assert s["day"] == day + 1
        row = [int(x) for x in s["crow"][:s["row_len"]]]
        assert all(x >= 0 for x in row), "commission row not refilled"
        if solo:
            assert s["goal"] == -1
            n_open = sum(1 for c in s["popen"][0] if c >= 0)
            assert n_open == min(3, E.N_PLAN - (day + 1)), "solo: three open planning cards while the deck lasts"
        else:
            left = s["n_ldeck"] + s["n_ldisc"]
            assert left == 0 or not any(s["grid"] == E.EMPTY), "wilderness not refilled"
            assert s["goal"] >= 0 or s["n_gdeck"] == 0
    check_conservation(R, s, "at the end")
    return checked


STEP_CASES = [
    (1, ("random",), 100), (1, ("planner",), 30),
    (2, ("random",), 100), (2, ("planner", "greedy"), 30),
    (3, ("random",), 100), (3, ("greedy", "random", "planner"), 30),
    (4, ("random",), 100), (4, ("planner", "greedy", "greedy", "random"), 30),
]


@pytest.mark.parametrize("n_players,names,n_games", STEP_CASES,
                         ids=[f"{n}p-{'-'.join(names)}" for n, names, _ in STEP_CASES])
def test_step_by_step_games(comp, T, trec, n_players, names, n_games):
    R, ids, params, st, ref = reference_games(comp, T, trec, names, n_players, n_games)
    checked = Counter()
    for game in range(n_games):
        where = f"({n_players}p {names} game {game})"
        try:
            checked.update(step_game(R, trec, st, n_players, game, ids, params))
        except AssertionError as exc:
            raise AssertionError(f"{where}: {exc}") from exc
        s = st[0]
        # the Python loop plays exactly the compiled loop's game
        check_final(R, s, ref[game * n_players:(game + 1) * n_players], n_players, where)
    assert checked["hike"] == ref["length"].sum() // n_players
    assert checked["sell"] > 0 and checked["paint"] > 0
