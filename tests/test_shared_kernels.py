"""The platform's kernels every game calls: ranks and win shares (sim/outcomes.py) and the
deal of the cards a seat cannot see (sim.rng.deal_unseen_nb)."""
import numpy as np

from sim.outcomes import rank_by_score_nb, ranks_and_win_shares_nb
from sim.rng import deal_unseen_nb, init_streams_nb


def ranked(keys, n):
    rank = np.zeros(n, np.int64)
    win = np.zeros(n, np.float64)
    k = ranks_and_win_shares_nb(np.array(keys, np.float64), n, rank, win)
    return list(rank), list(win), k


def test_the_first_criterion_decides_then_the_next_ones_break_ties():
    assert ranked([[10, 12, 8]], 3) == ([2, 1, 3], [0.0, 1.0, 0.0], 1)
    assert ranked([[10, 10, 8], [1, 2, 9]], 3) == ([2, 1, 3], [0.0, 1.0, 0.0], 1)


def test_seats_equal_on_every_criterion_share_the_rank_and_split_the_win():
    assert ranked([[10, 10, 10, 3], [2, 2, 1, 9]], 4) == ([1, 1, 3, 4], [0.5, 0.5, 0.0, 0.0], 2)
    rank = np.zeros(3, np.int64)
    win = np.zeros(3, np.float64)
    assert rank_by_score_nb(np.array([7, 7, 7]), 3, rank, win) == 3
    assert list(rank) == [1, 1, 1] and np.allclose(win, 1 / 3)


def test_only_the_first_n_seats_are_ranked():
    rank = np.full(4, -7, np.int64)
    win = np.full(4, -7.0)
    ranks_and_win_shares_nb(np.array([[1.0, 5.0, 99.0, 99.0]]), 2, rank, win)
    assert list(rank) == [2, 1, -7, -7] and list(win) == [0.0, 1.0, -7.0, -7.0]


def dealt(hands, seat, n_each, n_cards, seed=3):
    streams = np.zeros(2, np.uint64)
    init_streams_nb(streams, np.uint64(seed))
    hands = np.array(hands, np.int64)
    deal_unseen_nb(streams, 0, hands, seat, hands.shape[0], n_each, n_cards)
    return hands


def test_the_deal_keeps_the_seat_s_hand_and_deals_the_others_from_the_rest():
    hands = dealt([[0, 1], [2, 3], [4, 5]], 1, 2, 8)
    assert list(hands[1]) == [2, 3]
    others = sorted(hands[[0, 2]].ravel())
    assert len(set(others)) == 4 and set(others) <= {0, 1, 4, 5, 6, 7}


def test_the_deal_does_not_depend_on_the_hidden_hands_it_replaces():
    a = dealt([[0, 1], [2, 3], [4, 5]], 1, 2, 8)
    b = dealt([[7, 6], [2, 3], [1, 0]], 1, 2, 8)
    assert (a == b).all()
    assert not all((dealt([[0, 1], [2, 3], [4, 5]], 1, 2, 8, seed=s) == a).all()
                   for s in range(4, 12))   # the stream does change the deal
