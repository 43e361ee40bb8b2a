"""A card's worth by counterfactual play: sample real decision states in which a
card is one of the options, and from each play on twice, after taking the card and after the
seat's best alternative, with the same players and the same future chance.

Definitions (the estimand: docs/card-worth.md):

- An option *brings* card c of type t to the deciding seat when, applied to a copy of the
  state and followed by the rest of that seat's turn (its own strategy, while it is still to
  move), bit c of the seat's mask column of type t (report_metadata() `mask_column`) goes
  from 0 to 1. The game needs no extra code: the mask is read from its own `record_nb`. A
  commission sold, a tile built or a window chosen is brought by the option that takes it;
  a daily goal by the options after which the seat's turn claims it.
- A sampled *state*: a decision of a real game (played by the run's players from the run's
  seed, game index g, after `step` decisions) with two or more options, some bringing card c
  and some not. At most one state per game and card (states of one card are independent).
- *Card branch*: the seat's own strategy chooses among the options that bring c; *alternative
  branch*: among the others (what it would do were the card not available). Both then play
  to the end with the same players (`sim.harness` rollout) from copies of the same state:
  the same chance streams and the same hidden information. Play-on 0 continues the real
  game; play-on k >= 1 first redraws what the deciding seat cannot see (`determinize_nb`,
  the seed of (game, step, k), identical in both branches): the seat's information set.
- Value configurations: the same states, the branches played with other tables (a card's
  value changed by `--set`), for the parity value. The states are always found and the
  options classified with the run's own tables.

Kernels are built from the harness's pieces (its dispatcher `decide` and its `rollout`) with
sim.harness.instantiate, so they are cached on disk per game like the harness's.
Reproducibility: a state's outcome depends only on (seed, game, step, card), never on the
worker or the chunk.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from sim.game_api import ToolkitError
from sim.harness import HARNESS_SEATS, SEARCH_BASE, instantiate, model_globals, source_token
from sim.rng import game_seed_nb

# columns of a scan row (int64)
SCAN_COLUMNS = ("game", "step", "seat", "type", "card", "chosen", "n_options", "n_bringing")
PLAYON_SALT = 0x5EED_C0FF_EE00_0019    # play-on seeds: never a game seed of the run


@njit(cache=True, error_model="numpy")
def scan_rows_nb(gains, n_types, n, chosen, game, step, seat, out, count):
    """The scan rows (SCAN_COLUMNS) of one decision, written into out from row `count`: one
    per card brought by some but not all of its n options (gains[j, t]: gains_nb's masks of
    option j; `chosen`: the option played). Returns the rows found so far (rows beyond out's
    length are counted, not written)."""
    for t in range(n_types):
        union = np.int64(0)
        for j in range(n):
            union |= gains[j, t]
        for c in range(63):
            if (union >> c) & 1 == 0:
                continue
            k = 0
            for j in range(n):
                k += (gains[j, t] >> c) & 1
            if k == n:
                continue      # every option brings it: no alternative
            if count < out.shape[0]:
                out[count, 0] = game
                out[count, 1] = step
                out[count, 2] = seat
                out[count, 3] = t
                out[count, 4] = c
                out[count, 5] = (gains[chosen, t] >> c) & 1
                out[count, 6] = n
                out[count, 7] = k
            count += 1
    return count


# ---------------------------------------------------------------------------------------
# The kernels, one maker each (sim/harness.py's module doc: why makers over a `token`).
# Globals bound per game by `counterfactual_kernels`: the model's functions and constants,
# determinize_nb, SEATS, DECIDE (the harness dispatcher), ROLLOUT (the harness rollout), and
# the kernels built before (TURN_END, MASKS, GAINS, ADVANCE, BRANCH).
# ---------------------------------------------------------------------------------------

def _make_turn_end(token):
    def turn_end_nb(tables, s, n_players, seat, sids, params, options, ctx, keep):
        """Play on while `seat` is to move (its own strategy): the rest of its turn."""
        token
        no_trace = np.zeros((0, 6), np.int64)
        tn = np.zeros(1, np.int64)
        while not is_over_nb(s) and to_move_nb(s) == seat:
            dec = decision_nb(s)
            n = legal_nb(tables, s, options)
            context_nb(tables, s, ctx, keep)
            i = DECIDE(sids, params, tables, s, seat, dec, options, n, ctx, keep)
            if i < 0:
                i = 0
            apply_nb(tables, s, options[i], keep, no_trace, tn)
    return turn_end_nb


def _make_masks(token):
    def masks_nb(tables, state, n_players, seat, rec, recv, mask_cols, out):
        """out[t] = the seat's mask of card type t in state[0] (read through record_nb on a
        copy: the record is the game's own definition of "took")."""
        token
        w = state.copy()
        record_nb(tables, w[0], n_players, 0, rec, 0)
        for t in range(mask_cols.shape[0]):
            out[t] = recv[seat, mask_cols[t]]
    return masks_nb


def _make_gains(token):
    def gains_nb(tables, state, n_players, seat, sids, params, opts, n, rec, recv, mask_cols,
                 gains):
        """gains[i, t] = the cards of type t that option opts[i] brings the seat (applied to a
        copy of state[0], then the rest of the seat's turn)."""
        token
        n_types = mask_cols.shape[0]
        before = np.zeros(n_types, np.int64)
        after = np.zeros(n_types, np.int64)
        MASKS(tables, state, n_players, seat, rec, recv, mask_cols, before)
        options = np.zeros(MAX_OPTIONS, np.int64)
        ctx = np.zeros(max(CTX_LEN, 1), np.int64)
        keep = np.zeros(max(KEEP_LEN, 1), np.float64)
        no_trace = np.zeros((0, 6), np.int64)
        tn = np.zeros(1, np.int64)
        for i in range(n):
            w = state.copy()
            ws = w[0]
            dec = decision_nb(ws)
            context_nb(tables, ws, ctx, keep)
            for j in range(n):
                options[j] = opts[j]
            # the strategy's side output (keep values) for this decision, its answer unused
            DECIDE(sids, params, tables, ws, seat, dec, options, n, ctx, keep)
            apply_nb(tables, ws, opts[i], keep, no_trace, tn)
            TURN_END(tables, ws, n_players, seat, sids, params, options, ctx, keep)
            MASKS(tables, w, n_players, seat, rec, recv, mask_cols, after)
            for t in range(n_types):
                gains[i, t] = after[t] & ~before[t]
    return gains_nb


def _make_scan(token):
    def scan_nb(tables_rec, state_rec, n_players, run_seed, first_game, n_games, sids,
                params, mask_cols, rec, recv, out):
        """Play games first_game.. (as the run plays them) and write one row per decision and
        card brought by some but not all of its options (SCAN_COLUMNS) into out; returns the
        number of rows found (rows beyond out's length are counted, not written)."""
        token
        tables = tables_rec[0]
        s = state_rec[0]
        n_types = mask_cols.shape[0]
        options = np.zeros(MAX_OPTIONS, np.int64)
        ctx = np.zeros(max(CTX_LEN, 1), np.int64)
        keep = np.zeros(max(KEEP_LEN, 1), np.float64)
        gains = np.zeros((MAX_OPTIONS, max(n_types, 1)), np.int64)
        no_trace = np.zeros((0, 6), np.int64)
        tn = np.zeros(1, np.int64)
        count = 0
        for g in range(n_games):
            game = first_game + g
            setup_nb(tables, s, n_players, game_seed_nb(run_seed, game), no_trace, tn)
            step = 0
            while not is_over_nb(s):
                seat = to_move_nb(s)
                dec = decision_nb(s)
                n = legal_nb(tables, s, options)
                if n > 1:
                    GAINS(tables, state_rec, n_players, seat, sids, params, options, n, rec,
                          recv, mask_cols, gains)
                context_nb(tables, s, ctx, keep)
                i = DECIDE(sids, params, tables, s, seat, dec, options, n, ctx, keep)
                if i < 0:
                    i = 0
                if n > 1:
                    count = scan_rows_nb(gains, n_types, n, i, game, step, seat, out, count)
                apply_nb(tables, s, options[i], keep, no_trace, tn)
                step += 1
        return count
    return scan_nb


def _make_advance(token):
    def advance_nb(tables, s, n_players, sids, params, steps, options, ctx, keep):
        """Play `steps` decisions of state s as the run does (fewer if the game ends)."""
        token
        no_trace = np.zeros((0, 6), np.int64)
        tn = np.zeros(1, np.int64)
        for _ in range(steps):
            if is_over_nb(s):
                return
            seat = to_move_nb(s)
            dec = decision_nb(s)
            n = legal_nb(tables, s, options)
            context_nb(tables, s, ctx, keep)
            i = DECIDE(sids, params, tables, s, seat, dec, options, n, ctx, keep)
            if i < 0:
                i = 0
            apply_nb(tables, s, options[i], keep, no_trace, tn)
    return advance_nb


def _make_branch(token):
    def branch_nb(tables, state, work, n_players, seat, sids, params, opts, n, rec, recv_i,
                  recv_f, score_col, score_float, win):
        """The seat's strategy chooses among opts[:n] in work[0], a copy of state[0], then
        every seat plays to the end: returns (the seat's win share, its score). The copy is
        made into the caller's `work`: a record view (w[0]) does not keep its array alive in
        numba, so a view of an array made here would point at freed memory once the array's
        last use is past, and the scratch arrays below and the rollout's could be allocated
        on top of the state being played."""
        token
        work[0] = state[0]
        ws = work[0]
        ctx = np.zeros(max(CTX_LEN, 1), np.int64)
        keep = np.zeros(max(KEEP_LEN, 1), np.float64)
        no_trace = np.zeros((0, 6), np.int64)
        tn = np.zeros(1, np.int64)
        dec = decision_nb(ws)
        context_nb(tables, ws, ctx, keep)
        i = DECIDE(sids, params, tables, ws, seat, dec, opts, n, ctx, keep)
        if i < 0:
            i = 0
        apply_nb(tables, ws, opts[i], keep, no_trace, tn)
        ROLLOUT(tables, ws, n_players, sids, params, win)
        record_nb(tables, ws, n_players, 0, rec, 0)
        sc = recv_f[seat, score_col] if score_float else float(recv_i[seat, score_col])
        return win[seat], sc
    return branch_nb


def _make_branches(token):
    def branches_nb(tables_rec, tables_list, state_rec, n_players, run_seed, games, steps,
                    seats, types, cards, configs, sids, params, mask_cols, rec, recv_i, recv_f,
                    score_col, score_float, playons, playon_seed, out, valid):
        """For each sampled state r (rows sorted by game, then step): out[r, w, k] = (card
        branch win, alternative win, card branch score, alternative score) with tables
        tables_list[configs[r, w]] (w = 0, 1, ...; -1 ends the list) and play-on
        k < playons[r];
        valid[r] = 0 where the state has no option bringing the card or none that does not,
        -1 where the replay did not reach the scanned decision (neither should happen for rows
        of scan_nb; both are counted by the caller)."""
        token
        tables = tables_rec[0]
        s = state_rec[0]
        n_types = mask_cols.shape[0]
        options = np.zeros(MAX_OPTIONS, np.int64)
        take = np.zeros(MAX_OPTIONS, np.int64)
        alt = np.zeros(MAX_OPTIONS, np.int64)
        ctx = np.zeros(max(CTX_LEN, 1), np.int64)
        keep = np.zeros(max(KEEP_LEN, 1), np.float64)
        gains = np.zeros((MAX_OPTIONS, max(n_types, 1)), np.int64)
        win = np.zeros(max(SEATS, n_players), np.float64)
        work = state_rec.copy()       # the branches' state (branch_nb: why it is passed in)
        no_trace = np.zeros((0, 6), np.int64)
        tn = np.zeros(1, np.int64)
        game = -1
        at = 0
        for r in range(games.shape[0]):
            if games[r] != game or steps[r] < at:
                game = games[r]
                setup_nb(tables, s, n_players, game_seed_nb(run_seed, game), no_trace, tn)
                at = 0
            ADVANCE(tables, s, n_players, sids, params, steps[r] - at, options, ctx, keep)
            at = steps[r]
            valid[r] = 0
            # the replay must reach the scanned decision: the same seat to move (a game whose
            # replay differs from its scan is counted invalid, never played from a wrong state)
            if is_over_nb(s) or to_move_nb(s) != seats[r]:
                valid[r] = -1
                continue
            seat = to_move_nb(s)
            n = legal_nb(tables, s, options)
            GAINS(tables, state_rec, n_players, seat, sids, params, options, n, rec, recv_i,
                  mask_cols, gains)
            n_take = 0
            n_alt = 0
            for j in range(n):
                if (gains[j, types[r]] >> cards[r]) & 1:
                    take[n_take] = options[j]
                    n_take += 1
                else:
                    alt[n_alt] = options[j]
                    n_alt += 1
            if n_take == 0 or n_alt == 0:
                continue
            valid[r] = 1
            state_seed = game_seed_nb(playon_seed, game * 1000003 + steps[r])
            for k in range(playons[r]):
                start = state_rec.copy()
                if k > 0:
                    determinize_nb(tables, start[0], seat, game_seed_nb(state_seed, k))
                for v in range(configs.shape[1]):
                    if configs[r, v] < 0:
                        break
                    tv = tables_list[configs[r, v]]
                    wt, st = BRANCH(tv, start, work, n_players, seat, sids, params, take, n_take,
                                    rec, recv_i, recv_f, score_col, score_float, win)
                    wa, sa = BRANCH(tv, start, work, n_players, seat, sids, params, alt, n_alt,
                                    rec, recv_i, recv_f, score_col, score_float, win)
                    out[r, v, k, 0] = wt
                    out[r, v, k, 1] = wa
                    out[r, v, k, 2] = st
                    out[r, v, k, 3] = sa
    return branches_nb


@njit(cache=True, error_model="numpy")
def reseed_chance_nb(tables, s, seat, seed):
    """The play-on redraw of a game without determinize_nb: a new chance stream only."""
    s.streams[0] = game_seed_nb(np.uint64(seed), 0)


_BUILT: dict = {}


class CounterfactualKernels:
    """The compiled scan and branch kernels of one game."""

    def __init__(self, scan, branches):
        self.scan = scan
        self.branches = branches


def counterfactual_kernels(spec) -> CounterfactualKernels:
    """The kernels of `spec` (a game on the template), built once per process on the
    harness's built-in dispatcher and rollout; cached on disk like the harness's."""
    if spec.name in _BUILT:
        return _BUILT[spec.name]
    model = spec.model()
    if model is None:
        raise ToolkitError(f"{spec.name}: counterfactual play needs a game on the forward-model "
                           f"template (docs/adding-a-game.md)")
    k = spec.kernels()
    token = source_token(f"{spec.name}-counterfactual", model, spec.choose_builtin(),
                         _make_scan) + "-" + k.token
    glb = {"np": np, "game_seed_nb": game_seed_nb, "scan_rows_nb": scan_rows_nb,
           "DECIDE": k.decide, "ROLLOUT": k.rollout,
           "SEATS": max(HARNESS_SEATS, int(getattr(model, "MAX_PLAYERS", 0))),
           "determinize_nb": getattr(model, "determinize_nb", reseed_chance_nb),
           **model_globals(model)}

    def make(maker, **extra):
        glb.update(extra)
        fn = maker(token)
        return instantiate(fn, token, dict(glb), f"cf_{fn.__name__}__{token}")

    turn_end = make(_make_turn_end)
    masks = make(_make_masks)
    gains = make(_make_gains, TURN_END=turn_end, MASKS=masks)
    scan = make(_make_scan, GAINS=gains)
    advance = make(_make_advance)
    branch = make(_make_branch)
    branches = make(_make_branches, ADVANCE=advance, BRANCH=branch)
    _BUILT[spec.name] = CounterfactualKernels(scan, branches)
    return _BUILT[spec.name]


# ---------------------------------------------------------------------------------------
# drivers: chunks of games (scan) and of sampled states (branches) over joblib
# ---------------------------------------------------------------------------------------
def check_players(prepared) -> None:
    """Counterfactual play needs the built-in players (the harness's rollout plays them)."""
    ids = np.asarray(prepared.strategy_ids)
    if prepared.user_strategies or (ids < 0).any() or (ids >= SEARCH_BASE).any():
        raise ToolkitError("counterfactual play supports the built-in strategies only (not "
                           "strategy files or search players)")


def _record_views(model, n_players: int, columns: list):
    """A one-game record buffer and int64 / float64 views of it (one row per seat), and the
    view's column index of each named column (every column is 8 bytes: checked)."""
    rec = model.RECORD.empty(n_players)
    dt = rec.dtype
    if dt.itemsize % 8 or any(dt.fields[n][0].itemsize != 8 or dt.fields[n][1] % 8
                              for n in dt.names):
        raise ToolkitError("counterfactual play needs a record of 8-byte columns")
    width = dt.itemsize // 8
    recv_i = rec.view(np.int64).reshape(n_players, width)
    recv_f = rec.view(np.float64).reshape(n_players, width)
    return rec, recv_i, recv_f, [dt.fields[c][1] // 8 for c in columns]


def _args(prepared):
    return (np.asarray(prepared.strategy_ids, np.int64),
            np.ascontiguousarray(prepared.strategy_params, np.float64))


def scan_chunk(spec, prepared, mask_columns: list, first: int, n: int) -> np.ndarray:
    """The scan rows (SCAN_COLUMNS) of games first..first+n-1."""
    kern = counterfactual_kernels(spec)
    rec, recv_i, _, cols = _record_views(spec.model(), prepared.n_players, mask_columns)
    sids, params = _args(prepared)
    tables = spec.pack_tables(prepared.components)
    size = max(256, 64 * n)
    while True:
        out = np.zeros((size, len(SCAN_COLUMNS)), np.int64)
        found = kern.scan(tables, spec.new_state(), prepared.n_players, np.uint64(prepared.seed),
                          int(first), int(n), sids, params, np.asarray(cols, np.int64), rec,
                          recv_i, out)
        if found <= size:
            return out[:found]
        size = int(found)


def branches_chunk(spec, prepared, value_components: list, states: np.ndarray,
                   configs: np.ndarray, mask_columns: list,
                   playons: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(outcomes[r, w, k, 4], valid[r]) of sampled states (scan rows sorted by game, step)
    under value configurations value_components[configs[r, w]] (Components; -1 ends a row's
    list) and play-ons k < playons[r] (nan beyond)."""
    kern = counterfactual_kernels(spec)
    model = spec.model()
    rec, recv_i, recv_f, cols = _record_views(model, prepared.n_players,
                                              list(mask_columns) + ["score"])
    score_float = rec.dtype.fields["score"][0].kind == "f"
    sids, params = _args(prepared)
    tables = spec.pack_tables(prepared.components)
    tables_list = np.concatenate([spec.pack_tables(c) for c in value_components])
    playons = np.asarray(playons, np.int64)
    out = np.full((len(states), configs.shape[1], int(playons.max(initial=1)), 4), np.nan)
    valid = np.zeros(len(states), np.int64)
    seed = np.uint64(prepared.seed) ^ np.uint64(PLAYON_SALT)
    kern.branches(tables, tables_list, spec.new_state(), prepared.n_players,
                  np.uint64(prepared.seed), np.ascontiguousarray(states[:, 0]),
                  np.ascontiguousarray(states[:, 1]), np.ascontiguousarray(states[:, 2]),
                  np.ascontiguousarray(states[:, 3]),
                  np.ascontiguousarray(states[:, 4]), np.ascontiguousarray(configs, np.int64),
                  sids, params,
                  np.asarray(cols[:-1], np.int64), rec, recv_i, recv_f, int(cols[-1]),
                  bool(score_float), playons, seed, out, valid)
    return out, valid


def _map(tasks, fn, workers: int | None, progress: bool, unit: str, total: int, sizes):
    """fn(*task) for every task in order, over joblib's loky processes (one in-process when
    workers == 1), with a tqdm bar counting `unit`s (sizes[i] per task)."""
    from tqdm import tqdm
    bar = tqdm(total=total, unit=unit, disable=not progress, leave=False, smoothing=0.05)
    results = []
    try:
        if workers == 1 or len(tasks) <= 1:
            for task, size in zip(tasks, sizes):
                results.append(fn(*task))
                bar.update(size)
        else:
            from joblib import Parallel, delayed
            par = Parallel(n_jobs=workers or -1, backend="loky", return_as="generator")
            for res, size in zip(par(delayed(fn)(*t) for t in tasks), sizes):
                results.append(res)
                bar.update(size)
    finally:
        bar.close()
    return results


def scan(spec, prepared, mask_columns: list, first: int, n_games: int,
         workers: int | None = None, progress: bool = False, chunk: int = 50) -> np.ndarray:
    """Scan rows of games first..first+n_games-1, in game order (any worker count)."""
    starts = list(range(first, first + n_games, chunk))
    sizes = [min(chunk, first + n_games - a) for a in starts]
    tasks = [(spec, prepared, list(mask_columns), a, m) for a, m in zip(starts, sizes)]
    parts = _map(tasks, scan_chunk, workers, progress, "games", n_games, sizes)
    if not parts:
        return np.zeros((0, len(SCAN_COLUMNS)), np.int64)
    return np.concatenate(parts)


def play_states(spec, prepared, value_components: list, states: np.ndarray,
                configs: np.ndarray, mask_columns: list, playons,
                workers: int | None = None, progress: bool = False,
                chunk: int = 200) -> tuple[np.ndarray, np.ndarray]:
    """branches_chunk over every sampled state (sorted here by game, step; the result in the
    order given), in chunks that never split a game. configs[r]: the value configurations
    (indices into value_components, -1 padded) state r is played under; playons: per state
    (an array) or for all (an int)."""
    order = np.lexsort((states[:, 1], states[:, 0]))
    ordered = states[order]
    cuts = [0]
    while cuts[-1] < len(ordered):
        end = min(cuts[-1] + chunk, len(ordered))
        while end < len(ordered) and ordered[end, 0] == ordered[end - 1, 0]:
            end += 1
        cuts.append(end)
    pieces = [(a, b) for a, b in zip(cuts[:-1], cuts[1:])]
    cfg = np.asarray(configs, np.int64)[order]
    k = np.broadcast_to(np.asarray(playons, np.int64), (len(states),))[order]
    tasks = [(spec, prepared, value_components, ordered[a:b], cfg[a:b], list(mask_columns),
              np.ascontiguousarray(k[a:b])) for a, b in pieces]
    parts = _map(tasks, branches_chunk, workers, progress, "states", len(ordered),
                 [b - a for a, b in pieces])
    out = np.full((len(states), np.shape(configs)[1], int(k.max(initial=1)), 4), np.nan)
    valid = np.zeros(len(states), np.int64)
    for (a, b), (o, v) in zip(pieces, parts):
        out[order[a:b], :, :o.shape[2]] = o
        valid[order[a:b]] = v
    return out, valid
