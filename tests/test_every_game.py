"""Conformance of every game to the game template (issue 12, item 7).

Parametrised by sim.registry (every registered game) plus the tests' toy game, with no code
specific to any game: a new game is covered by registering it. Each case names the harm it
prevents. A game not on the template yet (no `model` module) skips with that reason.

What "seen" means comes from the game itself: `model.observe_nb(tables, s, seat, out)` writes
what the seat has seen; a game whose seats hide nothing from each other (only the future is
unknown) declares `PERFECT_INFORMATION = True` in its model.
"""
from __future__ import annotations

import os

import numpy as np
import pandas as pd
import pytest

from sim import registry, runner
from sim.harness import SEARCH_BASE, user_id
from sim.rng import game_seed_nb
from tests.toygame import SPEC as TOY
from tests.user_uniform import first, out_of_range, uniform

SEED = 11
GAMES = list(registry.list_games()) + [TOY]


class Game:
    """One game's template pieces, as the platform sees them."""

    def __init__(self, spec):
        self.spec = spec
        self.model = spec.model()
        self.components = spec.load_components()
        self.tables_rec = spec.pack_tables(self.components)
        self.tables = self.tables_rec[0]
        self.catalog = [e for e in spec.strategy_catalog() if int(e["id"]) < SEARCH_BASE]
        self.builtins = [e["name"] for e in self.catalog]
        self.counts = list(range(spec.min_players, spec.max_players + 1))
        self.choose = spec.choose_builtin()
        self.k = spec.kernels()

    def prepared(self, n, names, seed=SEED):
        return self.spec.prepare(self.components, n, list(names), seed)

    def mixed(self, n):
        """Every built-in in play, in a different seat for each player count."""
        return [self.builtins[(n + i) % len(self.builtins)] for i in range(n)]

    def chunk(self, n, sids, params, first_game, n_games, kernels=None, seed=SEED):
        k = kernels or self.k
        rec = self.model.RECORD.empty(n_games * n)
        k.play_chunk(self.tables_rec, self.spec.new_state(), n, np.uint64(seed), first_game,
                     n_games, np.asarray(sids, np.int64),
                     np.ascontiguousarray(params, np.float64), rec)
        return pd.DataFrame(self.model.RECORD.to_columns(rec))

    # -- stepping a state from Python, exactly as the harness does -------------------
    def new_game(self, n, game, seed=SEED):
        state = self.spec.new_state()
        self.model.setup_nb(self.tables, state[0], n, np.uint64(game_seed_nb(np.uint64(seed), game)),
                            np.zeros((0, 6), np.int64), np.zeros(1, np.int64))
        return state

    def ask(self, state, sid, params_row):
        """(options, index, keep) of the built-in `sid` at the current decision of state."""
        m, s = self.model, state[0]
        options = np.zeros(m.MAX_OPTIONS, np.int64)
        ctx = np.zeros(max(m.CTX_LEN, 1), np.int64)
        keep = np.zeros(max(m.KEEP_LEN, 1), np.float64)
        seat, dec = m.to_move_nb(s), m.decision_nb(s)
        n = m.legal_nb(self.tables, s, options)
        m.context_nb(self.tables, s, ctx, keep)
        i = self.choose(sid, params_row, self.tables, s, seat, dec, options, n, ctx, keep)
        return options[:n].copy(), int(i), keep

    def step(self, state, sids, params):
        """One decision of the seat to move, played by its built-in."""
        seat = self.model.to_move_nb(state[0])
        options, i, keep = self.ask(state, sids[seat], params[seat])
        assert 0 <= i < len(options)
        self.model.apply_nb(self.tables, state[0], options[i], keep,
                            np.zeros((0, 6), np.int64), np.zeros(1, np.int64))

    def observe(self, state, seat):
        out = np.zeros(self.model.OBS_LEN, np.int64)
        n = self.model.observe_nb(self.tables, state[0], seat, out)
        return out[:n].copy()

    def sample_states(self, n, n_games, rng, per_game=3):
        """Mid-game states of games played by `random` at every seat (copies)."""
        p = self.prepared(n, ["random"] * n)
        states = []
        for game in range(n_games):
            state = self.new_game(n, game)
            trail = []
            while not self.model.is_over_nb(state[0]):
                trail.append(state.copy())
                self.step(state, p.strategy_ids, p.strategy_params)
            for j in sorted(rng.choice(len(trail), min(per_game, len(trail)), replace=False)):
                states.append(trail[j])
        return states


@pytest.fixture(params=GAMES, ids=[g.name for g in GAMES])
def game(request):
    spec = request.param
    # every registered game is on the template: a game without a forward model fails here
    assert getattr(spec, "model", lambda: None)() is not None, f"{spec.name}: no model module"
    return Game(spec)


def without_stream0(state):
    """The state's bytes with the chance stream zeroed (what determinize may reseed)."""
    c = state.copy()
    c[0]["streams"][0] = 0
    return c.tobytes()


# --- reproducibility --------------------------------------------------------------------------
def test_same_logs_whatever_the_chunking(game):
    """Harm: a game whose outcome depends on which games a chunk held before it (state left
    over between games) makes results depend on the chunk size."""
    for n in game.counts:
        p = game.prepared(n, game.mixed(n))
        whole = game.chunk(n, p.strategy_ids, p.strategy_params, 0, 30)
        parts = pd.concat([game.chunk(n, p.strategy_ids, p.strategy_params, a, b - a)
                           for a, b in ((0, 7), (7, 8), (8, 30))], ignore_index=True)
        pd.testing.assert_frame_equal(whole, parts)
        assert list(whole.columns) == [c for c, _ in game.spec.columns()]


def test_same_logs_for_one_or_two_workers(game, tmp_path):
    """Harm: results that change with the number of worker processes."""
    n = game.counts[-1]
    p = game.prepared(n, game.mixed(n))
    logs = []
    for workers, chunk in ((1, 40), (2, 9)):
        out = str(tmp_path / f"w{workers}")
        runner.run(game.spec, p, 40, out, workers=workers, chunk_size=chunk, progress=False)
        logs.append(runner.read_logs(out).drop(columns=["run_id"]))
    pd.testing.assert_frame_equal(logs[0], logs[1])


def test_replay_equals_the_logs(game):
    """Harm: `balance replay` showing a game other than the one logged."""
    for n in game.counts:
        p = game.prepared(n, game.mixed(n))
        logs = game.chunk(n, p.strategy_ids, p.strategy_params, 0, 6)
        for g in (0, 5):
            rec = game.model.RECORD.empty(n)
            events, count = game.k.trace_game(
                game.tables_rec, game.spec.new_state(), n, np.uint64(SEED), g,
                p.strategy_ids, p.strategy_params, 1000, rec)
            pd.testing.assert_frame_equal(
                pd.DataFrame(game.model.RECORD.to_columns(rec)),
                logs[logs.game == g].reset_index(drop=True))
            assert count > 0, "a traced game records its events"
        lines = game.spec.replay(p, 5)
        assert lines and all(isinstance(x, str) for x in lines)


def test_win_shares_sum_to_one_in_every_game(game):
    """Harm: a game with no winner or two full winners skews every win rate."""
    for n in game.counts:
        p = game.prepared(n, game.mixed(n))
        logs = game.chunk(n, p.strategy_ids, p.strategy_params, 0, 60)
        assert logs.win.between(0, 1).all()
        if n > 1:
            sums = logs.groupby("game").win.sum()
            assert np.allclose(sums, 1.0), sums[~np.isclose(sums, 1.0)].head()
        assert logs.win.dtype == np.float64


def test_builtins_are_never_illegal(game):
    """Harm: a built-in answering out of range is silently replaced by option 0 and plays
    another strategy than the one named."""
    for n in game.counts:
        for name in game.builtins:
            p = game.prepared(n, [name] * n)
            logs = game.chunk(n, p.strategy_ids, p.strategy_params, 0, 25)
            assert (logs.illegal == 0).all(), f"{name} with {n} players"
        p = game.prepared(n, game.mixed(n))
        assert (game.chunk(n, p.strategy_ids, p.strategy_params, 0, 25).illegal == 0).all()


# --- user strategies and the dispatcher -------------------------------------------------------
@pytest.fixture
def user_kernels(game):
    """One compile per game: uniform is id -1, out_of_range -2, first -3 (cached on disk:
    tests/user_uniform.py imports nothing but the toolkit)."""
    return game.spec.kernels(user_functions=(uniform, out_of_range, first), cache_users=True)


def test_user_uniform_random_plays_the_games_of_builtin_random(game, user_kernels):
    """Harm: a user's file not seeing the same game as a built-in (different streams, a
    decision the user is not asked, or arguments that differ)."""
    if "random" not in game.builtins:
        pytest.skip("the game has no built-in random")
    for n in game.counts:
        p = game.prepared(n, ["random"] * n)
        builtin = game.chunk(n, p.strategy_ids, p.strategy_params, 0, 40)
        user = game.chunk(n, [user_id(0)] * n, p.strategy_params, 0, 40, kernels=user_kernels)
        pd.testing.assert_frame_equal(builtin, user)


def test_an_out_of_range_answer_is_counted_and_option_0_played(game, user_kernels):
    """Harm: a broken user strategy corrupting games instead of showing in the logs."""
    for n in game.counts:
        p = game.prepared(n, game.mixed(n))
        sids = p.strategy_ids.copy()
        sids[0] = user_id(1)                    # out_of_range in seat 0
        bad = game.chunk(n, sids, p.strategy_params, 0, 20, kernels=user_kernels)
        sids[0] = user_id(2)                    # first: always option 0, legally
        ref = game.chunk(n, sids, p.strategy_params, 0, 20, kernels=user_kernels)
        seat0 = bad.seat == 0
        assert (bad.illegal[seat0] > 0).all() and (bad.illegal[seat0] >= bad.choices[seat0]).all()
        assert (bad.illegal[~seat0] == 0).all()
        pd.testing.assert_frame_equal(bad.drop(columns="illegal"), ref.drop(columns="illegal"))


@pytest.mark.parametrize("unknown", [-99, 999, SEARCH_BASE + 77])
def test_an_unknown_strategy_id_is_illegal_never_a_builtin(game, user_kernels, unknown):
    """Harm: a strategy the dispatcher does not know silently played by a built-in."""
    n = game.counts[-1]
    p = game.prepared(n, game.mixed(n))
    sids = p.strategy_ids.copy()
    if 0 <= unknown < SEARCH_BASE and unknown < game.spec.n_builtin():
        pytest.skip("the id is a built-in of this game")
    sids[0] = unknown
    bad = game.chunk(n, sids, p.strategy_params, 0, 20, kernels=user_kernels)
    sids[0] = user_id(2)
    ref = game.chunk(n, sids, p.strategy_params, 0, 20, kernels=user_kernels)
    assert (bad.illegal[bad.seat == 0] > 0).all()
    pd.testing.assert_frame_equal(bad.drop(columns="illegal"), ref.drop(columns="illegal"))


# --- the forward model ---------------------------------------------------------------------------
def test_a_copied_state_plays_on_to_the_same_game(game):
    """Harm: game progress kept outside the state (in a loop's locals) makes copies differ,
    and every search player then plays a different game than it thinks."""
    for n in game.counts:
        p = game.prepared(n, game.mixed(n))
        logs = game.chunk(n, p.strategy_ids, p.strategy_params, 0, 8)
        for g in range(8):
            state = game.new_game(n, g)
            for _ in range(3 + 5 * g):           # stop at a different point of each game
                if game.model.is_over_nb(state[0]):
                    break
                game.step(state, p.strategy_ids, p.strategy_params)
            snapshot = state.copy()
            finals = []
            for _ in range(2):
                copy = snapshot.copy()
                out = np.zeros(max(8, n), np.float64)
                game.k.rollout(game.tables, copy[0], n, p.strategy_ids, p.strategy_params, out)
                rec = game.model.RECORD.empty(n)
                game.model.record_nb(game.tables, copy[0], n, g, rec, 0)
                finals.append((copy.tobytes(), pd.DataFrame(game.model.RECORD.to_columns(rec))))
            assert snapshot.tobytes() == state.tobytes(), "playing a copy changed the original"
            assert finals[0][0] == finals[1][0]
            played = logs[logs.game == g].reset_index(drop=True)
            pd.testing.assert_frame_equal(finals[0][1].drop(columns=["illegal", "choices"]),
                                          played.drop(columns=["illegal", "choices"]))


def test_determinize_keeps_what_the_seat_has_seen_and_redraws_the_rest(game):
    """Harm: a search player that sees other players' hidden cards (or a redraw that
    contradicts what the seat saw) measures a player that could not exist."""
    rng = np.random.default_rng(1)
    perfect = bool(getattr(game.model, "PERFECT_INFORMATION", False))
    hidden_redrawn = futures_differ = samples = 0
    for n in game.counts:
        p = game.prepared(n, ["random"] * n)
        for state in game.sample_states(n, 12, rng):
            for seat in range(n):
                seen = game.observe(state, seat)
                d = state.copy()
                game.model.determinize_nb(game.tables, d[0], seat, np.uint64(rng.integers(2**63)))
                assert np.array_equal(game.observe(d, seat), seen), "determinize changed what the seat saw"
                assert game.model.check_state_nb(game.tables, d[0]) == 0
                assert np.array_equal(d[0]["streams"][1:], state[0]["streams"][1:]), \
                    "determinize touched a strategy's own stream"
                assert d[0]["streams"][0] != state[0]["streams"][0], "chance was not reseeded"
                samples += 1
                if without_stream0(d) != without_stream0(state):
                    hidden_redrawn += 1
                a, b = state.copy(), d.copy()
                out = np.zeros(max(8, n), np.float64)
                game.k.rollout(game.tables, a[0], n, p.strategy_ids, p.strategy_params, out)
                game.k.rollout(game.tables, b[0], n, p.strategy_ids, p.strategy_params, out)
                futures_differ += a.tobytes() != b.tobytes()
    assert samples > 50
    assert futures_differ > 0, "determinize never changed the future"
    if perfect:
        assert hidden_redrawn == 0, "a perfect-information game changed a seen state"
    else:
        assert hidden_redrawn > 0, ("determinize never redrew anything hidden (a game with "
                                    "no hidden information declares PERFECT_INFORMATION)")


def test_no_builtin_peeks_at_hidden_information(game):
    """Harm: a built-in reading other seats' hidden cards or the deck order makes every
    verdict about it (and the seat-fairness ones) wrong."""
    rng = np.random.default_rng(2)
    for n in game.counts:
        for name in game.builtins:
            p = game.prepared(n, [name] * n)
            for state in game.sample_states(n, 6, rng):
                seat = game.model.to_move_nb(state[0])
                options, i, keep = game.ask(state.copy(), p.strategy_ids[seat],
                                            p.strategy_params[seat])
                for _ in range(3):
                    d = state.copy()
                    game.model.determinize_nb(game.tables, d[0], seat,
                                              np.uint64(rng.integers(2**63)))
                    options_d, i_d, keep_d = game.ask(d, p.strategy_ids[seat],
                                                      p.strategy_params[seat])
                    assert np.array_equal(options, options_d), "the legal options leak hidden information"
                    assert i == i_d, f"{name} chose differently when hidden information was redrawn"
                    assert np.array_equal(keep, keep_d)



def canonical(game):
    """Whether the game declares its determinize_nb canonical (model.CANONICAL_DETERMINIZE):
    the redraw depends only on what the seat has seen and the seed."""
    if not getattr(game.model, "CANONICAL_DETERMINIZE", False):
        pytest.skip(f"{game.spec.name}: determinize_nb is not declared canonical "
                    "(model.CANONICAL_DETERMINIZE), so a search player's answer may change "
                    "with the hidden order it replaces")


def test_determinize_is_canonical(game):
    """Harm: a redraw that depends on the hidden arrangement it replaces (a pile shuffled in
    place) makes a search player's answer depend on cards its seat cannot see."""
    canonical(game)
    rng = np.random.default_rng(4)
    compared = 0
    for n in game.counts:
        for state in game.sample_states(n, 6, rng):
            for seat in range(n):
                other = state.copy()   # another world of the same information set
                game.model.determinize_nb(game.tables, other[0], seat,
                                          np.uint64(rng.integers(2**63)))
                seed = np.uint64(rng.integers(2**63))
                a, b = state.copy(), other.copy()
                game.model.determinize_nb(game.tables, a[0], seat, seed)
                game.model.determinize_nb(game.tables, b[0], seat, seed)
                assert a.tobytes() == b.tobytes(), \
                    "the same seed redrew another world from another hidden arrangement"
                compared += without_stream0(other) != without_stream0(state)
    perfect = bool(getattr(game.model, "PERFECT_INFORMATION", False))
    assert perfect or compared > 0, "no two different worlds of one information set compared"


SEARCH_VARIANTS = """
[variants.mcts20]
base = "mcts"
params = { iterations = 20 }
"""


def test_no_search_player_peeks_at_hidden_information(game, tmp_path):
    """Harm: a search player whose answer depends on cards its seat cannot see (through
    the states it searches) measures a player that could not exist. Exact: with its own
    stream fixed, mcts must give the same answer (and keep values) in every world of its
    information set."""
    canonical(game)
    variants = tmp_path / "variants.toml"
    variants.write_text(SEARCH_VARIANTS)
    search = game.spec.search_choose()
    m = game.model
    rng = np.random.default_rng(5)
    asked = multi = 0
    for n in sorted({game.counts[0], game.counts[-1]}):
        p = game.spec.prepare(game.components, n, ["mcts20"] * n, SEED, str(variants))
        assert (p.strategy_ids >= SEARCH_BASE).all()

        def answer(state, seat):
            s = state[0]
            options = np.zeros(m.MAX_OPTIONS, np.int64)
            ctx = np.zeros(max(m.CTX_LEN, 1), np.int64)
            keep = np.zeros(max(m.KEEP_LEN, 1), np.float64)
            k = m.legal_nb(game.tables, s, options)
            m.context_nb(game.tables, s, ctx, keep)
            i = search(p.strategy_ids[seat], p.strategy_params[seat], game.tables, s, seat,
                       m.decision_nb(s), options, k, ctx, keep)
            return int(i), k, keep

        for state in game.sample_states(n, 4, rng, per_game=2):
            seat = m.to_move_nb(state[0])
            i, k, keep = answer(state.copy(), seat)
            assert 0 <= i < k
            for _ in range(2):
                d = state.copy()
                m.determinize_nb(game.tables, d[0], seat, np.uint64(rng.integers(2**63)))
                i_d, _, keep_d = answer(d, seat)
                assert i == i_d, "mcts chose differently when hidden information was redrawn"
                assert np.array_equal(keep, keep_d)
            asked += 1
            multi += k > 1
    assert asked >= 8 and multi > 0

def test_the_state_checker_holds_after_every_step(game):
    """Harm: a rule that corrupts the state in a rare position goes unseen in the logs."""
    for n in game.counts:
        for names in (["random"] * n if "random" in game.builtins else game.mixed(n),
                      game.mixed(n)):
            p = game.prepared(n, names)
            rec = game.model.RECORD.empty(50 * n)
            code, g, step = game.k.checked_chunk(
                game.tables_rec, game.spec.new_state(), n, np.uint64(SEED), 0, 50,
                p.strategy_ids, p.strategy_params, rec)
            assert code == 0, f"check_state_nb code {code} in game {g} after step {step}"



# --- seat symmetry (issue 20) ------------------------------------------------------------------
# With one strategy in every seat, seat numbers are exchangeable: a seat's chance to win may
# depend on its place in the turn order (the start player, clockwise: the log's start-position
# column) but not on its number. Typical defects: a tie-break or a resolution order that scans
# seats from 0, a shared resource handed out by seat number, a player reading its seat number.
SYMMETRY_GAMES = 2000          # per player count
SYMMETRY_ALPHA = 1e-3          # family-wise (Holm over the seats of one player count)
START_POSITION_COLUMNS = ("start_position", "start_order")


def seat_effect_pvalues(df, n):
    """Holm-adjusted p-values, one per seat, of "this seat wins as often as the other seats
    at the same start positions": each row's win minus the mean win of its start position
    (every seat pooled), summed over the seat's games, against its variance."""
    col = next((c for c in START_POSITION_COLUMNS if c in df.columns), None)
    stratum = df[col] if col is not None else pd.Series(0, index=df.index)
    win = df["win"].astype(float)
    mean = win.groupby(stratum).transform("mean")
    var = win.groupby(stratum).transform(lambda w: w.var(ddof=1))
    resid = (win - mean).groupby(df["seat"]).sum()
    se = np.sqrt(var.groupby(df["seat"]).sum())
    from sim.stats import holm
    from scipy.stats import norm
    p = 2 * norm.sf(np.abs(resid / se.where(se > 0, np.nan)).fillna(0.0))
    return holm(p)


def symmetry_cases(game):
    """(players, strategy) pairs: every player count, the built-ins in turn."""
    return [(n, game.builtins[n % len(game.builtins)]) for n in game.counts if n >= 2]


def seat_symmetry_failures(game, n_games=SYMMETRY_GAMES):
    failures = []
    for n, name in symmetry_cases(game):
        p = game.prepared(n, [name] * n)
        df = game.chunk(n, p.strategy_ids, p.strategy_params, 0, n_games)
        adj = seat_effect_pvalues(df, n)
        if np.nanmin(adj) < SYMMETRY_ALPHA:
            shares = df.groupby("seat")["win"].mean().round(4).tolist()
            failures.append(f"{n} players, {name} in every seat: seat win shares {shares}, "
                            f"Holm p {np.round(adj, 6).tolist()}")
    return failures


def test_seat_numbers_carry_no_effect(game):
    """Harm: a game (or a built-in) whose outcome depends on a seat's number rather than its
    place in the turn order: the measured seat shares would report the engine, not the game."""
    if getattr(game.model, "SEAT_ORDER_IS_TURN_ORDER", False):
        pytest.skip(f"{game.spec.name}: seats play in seat order (the rulebook's turn order): "
                    "a seat's number is its turn position")
    assert seat_symmetry_failures(game) == []


def test_seat_symmetry_catches_a_planted_seat_order_tie_break(tmp_path):
    """The check above fails on the toy game with its planted tie-break (the lowest tied seat
    wins), and passes on the same game with ties split."""
    from tests.toygame import DEFAULT_TEXT
    path = tmp_path / "planted.toml"
    path.write_text(DEFAULT_TEXT + '\n[rules]\ntie_break = "lowest_seat"\n')
    planted = Game(TOY)
    planted.components = TOY.load_components(str(path))
    planted.tables_rec = TOY.pack_tables(planted.components)
    planted.tables = planted.tables_rec[0]
    failures = seat_symmetry_failures(planted)
    assert len(failures) == len(symmetry_cases(planted)), failures
    assert seat_symmetry_failures(Game(TOY)) == []
