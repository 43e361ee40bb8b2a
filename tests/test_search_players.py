"""The search players (strategies/search.py) on a small hidden-information game written on
the forward-model contract (tests/search_model.py): they answer legally, they are
reproducible, they play only on their seat's information set, and they are stronger than
random. Small budgets: every test here takes a second or two once compiled."""
from __future__ import annotations

import numpy as np
import pytest

import tests.search_model as m
from sim.stats import wilson_interval
from strategies import search
from strategies.registry import describe_catalog, load_variants, resolve_strategies
from sim.game_api import ToolkitError


@pytest.fixture(scope="module")
def choose():
    return search.build_search("search-test-tricks", m, m.choose_builtin_nb)


def catalog():
    cat = list(m.CATALOG) + search.search_catalog(0)
    for e in cat:
        if e.get("search"):
            e["row_width"] = search.P_ROLL_PARAMS + m.N_PARAMS
    return cat


def seats(names, n_players, variants=None):
    ids, params, _, _ = resolve_strategies(catalog(), names, n_players, variants)
    return ids, np.ascontiguousarray(params)


def play(choose, names, n_players, game_seed, variants=None, log=None):
    ids, params = seats(names, n_players, variants)
    return m.play_game(m.new_tables(), m.new_state(), n_players, game_seed, ids, params,
                       choose, log)


def write_variants(tmp_path, text):
    p = tmp_path / "variants.toml"
    p.write_text(text)
    return str(p)


SMALL = """
[variants.mcts30]
base = "mcts"
params = { iterations = 30 }
[variants.mcts30d]
base = "mcts"
params = { iterations = 30, depth = 3, rollout = "planner", widening = 0.5 }
[variants.flat4]
base = "flatmc"
params = { rollouts = 4, rollout = "greedy" }
[variants.mcts30r]
base = "mcts"
params = { iterations = 30, rollout = "greedy", ranked = 1, candidates = 2, depth = 2, tree = 1, margin = 0.25 }
[variants.flat4c]
base = "flatmc"
params = { rollouts = 4, rollout = "planner", candidates = 2, margin = 0.5 }
"""


def test_search_players_never_answer_illegally(choose, tmp_path):
    v = write_variants(tmp_path, SMALL)
    for names, n in ((["mcts30", "random"], 2), (["flat4", "planner", "mcts30d"], 3),
                     (["mcts30d", "flat4", "mcts30", "greedy"], 4),
                     (["mcts30r", "planner", "flat4c"], 3)):
        for g in range(15):
            log = []
            _, illegal = play(choose, names, n, 100 + g, v, log)
            assert illegal == 0
            assert len(log) >= n   # a game was really played


def test_an_unknown_search_id_is_illegal_not_a_fallback(choose):
    ids, params = seats(["mcts", "random"], 2)
    ids[0] = search.SEARCH_BASE + 7
    _, illegal = m.play_game(m.new_tables(), m.new_state(), 2, 5, ids, params, choose)
    assert illegal > 0


def test_same_seed_same_game(choose, tmp_path):
    v = write_variants(tmp_path, SMALL)
    for g in range(5):
        a, b = [], []
        play(choose, ["mcts30", "flat4", "random"], 3, 40 + g, v, a)
        play(choose, ["mcts30", "flat4", "random"], 3, 40 + g, v, b)
        assert a == b
    # and a different game seed gives another game (the check above can fail)
    c = []
    play(choose, ["mcts30", "flat4", "random"], 3, 41, v, c)
    d = []
    play(choose, ["mcts30", "flat4", "random"], 3, 40, v, d)
    assert c != d


def mid_game_states(n_states, n_players=3, seed=0):
    """States after a few random moves, with the seat to move."""
    ids = np.zeros(n_players, np.int64)
    params = np.zeros((n_players, 1))
    opts = np.zeros(m.MAX_OPTIONS, np.int64)
    ctx = np.zeros(m.CTX_LEN, np.int64)
    keep = np.zeros(m.KEEP_LEN)
    trace = np.zeros((0, 6), np.int64)
    tn = np.zeros(1, np.int64)
    tables = m.new_tables()
    out = []
    for k in range(n_states):
        st = m.new_state()
        s = st[0]
        m.setup_nb(tables[0], s, n_players, np.uint64(seed * 1000 + k), trace, tn)
        for _ in range(k % 7):
            p = m.to_move_nb(s)
            n = m.legal_nb(tables[0], s, opts)
            m.context_nb(tables[0], s, ctx, keep)
            i = m.choose_builtin_nb(ids[p], params[p], tables[0], s, p, 0, opts, n, ctx, keep)
            m.apply_nb(tables[0], s, opts[i], keep, trace, tn)
        if not m.is_over_nb(s):
            out.append(st)
    return tables, out


def decision_view(tables, s):
    """(seat to move, legal options, their number, ctx, keep) of the pending decision."""
    p = m.to_move_nb(s)
    opts = np.zeros(m.MAX_OPTIONS, np.int64)
    ctx = np.zeros(m.CTX_LEN, np.int64)
    keep = np.zeros(m.KEEP_LEN)
    n = m.legal_nb(tables[0], s, opts)
    m.context_nb(tables[0], s, ctx, keep)
    return p, opts, n, ctx, keep


def decide(choose, tables, st, sid_name, variants):
    ids, params = seats([sid_name] * 3, 3, variants)
    s = st[0]
    p, opts, n, ctx, keep = decision_view(tables, s)
    return choose(ids[p], params[p], tables[0], s, p, 0, opts, n, ctx, keep), n


def test_search_does_not_peek_at_hidden_cards(choose, tmp_path):
    """Redrawing everything the deciding seat cannot see (the others' hands, the deck order,
    chance) leaves its answer unchanged, given its own stream."""
    v = write_variants(tmp_path, SMALL)
    tables, states = mid_game_states(30)
    multi = 0
    for st in states:
        p = m.to_move_nb(st[0])
        for name in ("mcts30", "flat4", "mcts30d", "mcts30r", "flat4c"):
            a = st.copy()
            b = st.copy()
            m.determinize_nb(tables[0], b[0], p, np.uint64(12345))
            assert not np.array_equal(a[0]["deck"], b[0]["deck"])  # hidden info did change
            ia, n = decide(choose, tables, a, name, v)
            ib, _ = decide(choose, tables, b, name, v)
            assert ia == ib
            multi += n > 1
    assert multi > 20   # real choices were compared


def policy_ranking(tables, st, sid, k):
    """The rollout policy's k first choices (option codes): its choice, then its choice
    among the options left, and so on."""
    s = st[0]
    p, opts, n, ctx, keep = decision_view(tables, s)
    left = list(opts[:n])
    ranked = []
    while left and len(ranked) < k:
        i = m.choose_builtin_nb(sid, np.zeros(1), tables[0], s, p, 0, np.array(left), len(left),
                                ctx, keep)
        ranked.append(left.pop(i))
    return ranked, list(opts[:n])


TOP_K = {"mcts": "iterations = 40, rollout = \"greedy\", ranked = 1, candidates = {k}",
         "mcts-worlds": "iterations = 40, rollout = \"greedy\", ranked = 1, candidates = {k}, "
                        "tree = 1, worlds = 8",
         "flatmc": "rollouts = 8, rollout = \"greedy\", candidates = {k}"}


@pytest.mark.parametrize("player", ["mcts", "mcts-worlds", "flatmc"])
@pytest.mark.parametrize("k", [1, 2])
def test_candidates_keep_search_to_the_policys_first_choices(choose, tmp_path, player, k):
    """With candidates = k (mcts: and ranked = 1), the search plays one of the k options its
    rollout policy prefers (harm: a cap that lets other options in, or candidates that are
    not the policy's first choices)."""
    v = write_variants(tmp_path, f"""
[variants.top]
base = "{player.split('-')[0]}"
params = {{ {TOP_K[player].format(k=k)} }}
""")
    tables, states = mid_game_states(40)
    wider = 0
    for st in states:
        top, legal = policy_ranking(tables, st, 1, k)
        i, n = decide(choose, tables, st.copy(), "top", v)
        assert legal[i] in top
        wider += n > k
    assert wider > 10   # the cap was binding in many decisions


@pytest.mark.parametrize("margin", [0.0, 0.5, 1.0])
def test_margin_mixes_the_win_share_with_the_finished_games_evaluation(choose, margin):
    """A finished playout is worth (1 - margin) x its win share + margin x evaluate_nb of the
    finished game (harm: a margin that is ignored, or that values unfinished games)."""
    playout = search._BENCH["search-test-tricks"]["playout_nb"]
    tables, states = mid_game_states(12)
    n_players = 3
    differ = 0
    for st in states:
        w = st.copy()
        out = np.zeros(search.MAX_SEATS)
        playout(tables[0], w[0], 0, n_players, 0, np.zeros(1), -1, margin,
                np.zeros(m.MAX_OPTIONS, np.int64), np.zeros(m.CTX_LEN, np.int64),
                np.zeros(m.KEEP_LEN), out, np.zeros((0, 6), np.int64), np.zeros(1, np.int64))
        assert m.is_over_nb(w[0])
        win = np.zeros(search.MAX_SEATS)
        m.returns_nb(tables[0], w[0], n_players, win)
        for q in range(n_players):
            ev = m.evaluate_nb(tables[0], w[0], q)
            assert out[q] == pytest.approx((1 - margin) * win[q] + margin * ev)
            differ += abs(ev - win[q]) > 1e-6
    assert differ > 0   # the two values differ, so the mix is really checked


WORLDS = """
[variants.w{w}i{it}]
base = "mcts"
params = {{ iterations = {it}, rollout = "greedy", ranked = 1, candidates = 2, tree = 1, worlds = {w} }}
"""


def test_mcts_worlds_are_reproducible_and_do_not_peek(choose, tmp_path):
    """mcts with worlds > 0 draws its worlds from the seat's own stream: the same state and
    stream give the same answer, whole games replay, and redrawing what the seat cannot see
    changes nothing (harm: worlds drawn from an unseeded or hidden source)."""
    v = write_variants(tmp_path, WORLDS.format(w=8, it=24))
    tables, states = mid_game_states(30)
    multi = 0
    for st in states:
        p = m.to_move_nb(st[0])
        a, b, c = st.copy(), st.copy(), st.copy()
        m.determinize_nb(tables[0], c[0], p, np.uint64(777))
        ia, n = decide(choose, tables, a, "w8i24", v)
        ib, _ = decide(choose, tables, b, "w8i24", v)
        ic, _ = decide(choose, tables, c, "w8i24", v)
        assert ia == ib == ic
        assert a.tobytes() == b.tobytes()        # the same stream draws, nothing else written
        multi += n > 1
    assert multi > 20
    for g in range(3):
        x, y = [], []
        play(choose, ["w8i24", "greedy", "random"], 3, 60 + g, v, x)
        play(choose, ["w8i24", "greedy", "random"], 3, 60 + g, v, y)
        assert x == y


def test_mcts_with_one_world_plays_every_iteration_in_that_world(choose, tmp_path):
    """worlds = 1: every iteration starts from the same world, so each root child's playouts
    all repeat one deterministic game and the move (the policy's first choice unless the
    second one's playout is better) does not depend on the budget; the seat's stream gives
    1 + W draws whatever the budget. With a fresh world per iteration (worlds = 0) the budget
    does change some moves: the check can fail (harm: worlds that are not reused)."""
    from sim.rng import next_u64_nb
    text = "".join(WORLDS.format(w=w, it=it) for w in (0, 1) for it in (4, 41))
    v = write_variants(tmp_path, text)
    tables, states = mid_game_states(60)
    changed = {0: 0, 1: 0}
    multi = 0
    for st in states:
        p = m.to_move_nb(st[0])
        for w in (0, 1):
            a, b = st.copy(), st.copy()
            ia, n = decide(choose, tables, a, f"w{w}i4", v)
            ib, _ = decide(choose, tables, b, f"w{w}i41", v)
            changed[w] += ia != ib
            if w == 1:
                multi += n > 1
                if n > 1:
                    expect = st[0]["streams"].copy()
                    for _ in range(2):          # the search's own stream, then one world seed
                        next_u64_nb(expect, 1 + p)
                    assert a[0]["streams"][1 + p] == expect[1 + p]
                    assert b[0]["streams"][1 + p] == expect[1 + p]
    assert changed[1] == 0
    assert changed[0] > 0
    assert multi > 30


def test_search_leaves_the_real_state_alone_but_its_own_stream(choose, tmp_path):
    v = write_variants(tmp_path, SMALL)
    tables, states = mid_game_states(10)
    for st in states:
        p = m.to_move_nb(st[0])
        before = st.copy()
        _, n = decide(choose, tables, st, "mcts30", v)
        after = st.copy()
        if n > 1:
            assert after[0]["streams"][1 + p] != before[0]["streams"][1 + p]
        after[0]["streams"][1 + p] = before[0]["streams"][1 + p]
        assert after.tobytes() == before.tobytes()


def win_share(choose, names_me, opp, n_games, variants=None):
    """Win share of `names_me` against `opp` in 2-player games, seats alternated."""
    wins = 0.0
    for g in range(n_games):
        me = g % 2
        names = [opp, opp]
        names[me] = names_me
        out, illegal = play(choose, names, 2, 7000 + g // 2, variants)
        assert illegal == 0
        wins += out[me]
    return wins


@pytest.mark.parametrize("player", ["mcts", "flatmc"])
def test_search_beats_random_beyond_its_interval(choose, player):
    n = 200
    wins = win_share(choose, player, "random", n)
    lo, hi = wilson_interval(wins, n)
    assert lo > 0.5, (player, wins / n, lo, hi)


def test_mcts_beats_the_planner_on_the_toy_game(choose):
    n = 200
    wins = win_share(choose, "mcts", "planner", n)
    lo, _ = wilson_interval(wins, n)
    assert lo > 0.5, (wins / n, lo)


def test_rollout_names_a_builtin_in_variants_files(tmp_path):
    v = write_variants(tmp_path, SMALL)
    ids, params = seats(["mcts30d", "flat4"], 2, v)
    assert ids[0] == search.MCTS and ids[1] == search.FLATMC
    assert params[0, search.P_BUDGET] == 30 and params[0, search.P_DEPTH] == 3
    assert params[0, search.P_ROLLOUT] == 2        # planner
    assert params[1, search.P_ROLLOUT] == 1        # greedy
    assert params[0, search.P_NPLAYERS] == 2 and params[0, search.P_WIDEN] == 0.5
    ids, params = seats(["mcts30r", "flat4c"], 2, v)
    assert params[0, search.P_RANKED] == 1 and params[0, search.P_CANDIDATES] == 2
    assert params[0, search.P_TREE] == 1 and params[0, search.P_MARGIN] == 0.25
    assert params[1, search.F_CANDIDATES] == 2 and params[1, search.P_ROLLOUT] == 2
    bad = write_variants(tmp_path, '[variants.x]\nbase = "mcts"\nparams = { rollout = "mcts" }\n')
    with pytest.raises(ToolkitError) as exc:
        load_variants(bad, catalog())
    assert "must name a built-in strategy" in str(exc.value.lines[0])


def test_strategies_listing_shows_search_players_and_parameters():
    text = "\n".join(describe_catalog(catalog()))
    for word in ("flatmc", "mcts", "iterations = 200", "rollout = random", "c = 0.7",
                 "depth = 0", "rollouts = 16"):
        assert word in text


def test_search_base_is_the_harness_one():
    harness = pytest.importorskip("sim.harness")
    assert harness.SEARCH_BASE == search.SEARCH_BASE


# --- through the harness and the runner, on the template toy game (tests/toygame.py) -------
@pytest.fixture
def template_toy(toy_registry):
    assert toy_registry.model() is not None   # the toy game is on the template
    return toy_registry


TOY_VARIANTS = """
[variants.mcts20]
base = "mcts"
params = { iterations = 20 }
[variants.flat3]
base = "flatmc"
params = { rollouts = 3, rollout = "planner" }
"""


def _toy_run(spec, tmp_path, names, games, workers, tag, chunk=None):
    from sim import runner
    v = tmp_path / "v.toml"
    v.write_text(TOY_VARIANTS)
    comp = spec.load_components(None)
    prepared = spec.prepare(comp, len(names), names, 11, str(v))
    out = tmp_path / tag
    runner.run(spec, prepared, games, str(out), workers=workers, chunk_size=chunk,
               progress=False)
    return runner.read_logs(str(out)).sort_values(["game", "seat"]).reset_index(drop=True)


def test_search_games_are_the_same_for_one_and_two_workers(template_toy, tmp_path):
    names = ["mcts20", "flat3", "random"]
    a = _toy_run(template_toy, tmp_path, names, 60, 1, "w1", chunk=60)
    b = _toy_run(template_toy, tmp_path, names, 60, 2, "w2", chunk=20)
    pd_cols = [c for c in a.columns if c in b.columns and c != "run_id"]   # id hashes the chunking
    assert a[pd_cols].equals(b[pd_cols])
    assert (a["illegal"] == 0).all()          # search players are never illegal
    assert (a.loc[a["seat"] < 2, "choices"] > 0).all()   # and they really decided


def test_mcts_beats_random_on_the_toy_game(template_toy, tmp_path):
    logs = _toy_run(template_toy, tmp_path, ["mcts20", "random"], 300, 1, "duel")
    games = logs["game"].nunique()
    wins = logs.loc[logs["seat"] == 0, "win"].sum()
    lo, hi = wilson_interval(wins, games)
    assert lo > 0.5, (wins / games, lo, hi)
