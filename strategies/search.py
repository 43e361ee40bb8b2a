"""Search players, written once on the forward model (docs/search-players.md).

Every game on the template (docs/adding-a-game.md, `sim/games/<game>/model.py`) gets two
compiled search players for free:

  flatmc   flat Monte Carlo: for each legal option, `rollouts` playouts from a copy of the
           state after that option, each after a fresh determinization of the seat's
           information set; the option with the best mean win share for the seat is taken.
           With `candidates` = k only the rollout policy's k first choices are played out,
           all from the same worlds (common random numbers), ties to the policy's choice.
  mcts     information-set MCTS (Cowling, Powley & Whitehouse 2012, "single observer"
           variant, SO-ISMCTS): one tree for the deciding seat, built over a fresh
           determinization at every iteration. A node's children are keyed by (seat to move,
           decision kind, option code), so the same move reached through different hidden
           worlds shares its statistics; a child is selected only among the options legal in
           the present determinization, with UCB1 over its availability count (how often it
           was legal when its parent was visited) instead of the parent's visits. Chance is
           resolved inside `apply_nb`, so the tree is open-loop over chance (chance outcomes
           are averaged in the child's statistics). Every seat in the tree maximises its own
           win share (each node stores the value of the seat that moved into it). Leaves are
           played out with the rollout policy (any built-in of the game) to the end, or, with
           `depth` > 0, stopped `depth` decisions below the root and valued with the game's
           `evaluate_nb`. A new child is the option the rollout policy would play in this
           world when it is untried, else an untried option drawn at random; with
           `widening` > 0 a node adds children only as its visits grow (progressive
           widening), so a budget smaller than the number of options still compares the
           policy's move with a few alternatives instead of trying every option once. The
           move played is the root child with the most visits (ties: the best mean).

Information: a search player sees only its seat's information set. Before every rollout
(flatmc) and every iteration (mcts) the copy is redrawn with `model.determinize_nb`, which
replaces everything the seat cannot see and reseeds chance; the copy's strategy streams are
reseeded too (the other seats' future random choices are hidden as well). The real state is
never written except for the seat's own strategy stream, from which every seed of the search
is drawn (s.streams[1 + seat]): a game with search players is reproducible like any other,
whatever the number of workers.

No recursion: the tree lives in flat arrays sized by the budget, the descent is a loop, the
path is an explicit stack. The rollouts call the game's `choose_builtin_nb` directly (not the
harness's dispatcher, which calls us: a cycle numba cannot compile).

Parameter row of a search player (float64; `strategies.registry` fills the hidden slots):
  [P_BUDGET]   flatmc: rollouts per option; mcts: iterations per decision
  [P_ROLLOUT]  the rollout policy: a built-in's id (named in variants files, resolved by the
               registry)
  [P_C]        mcts: UCB1 exploration constant (win shares are in [0, 1])
  [P_DEPTH]    mcts: decisions below the root after which a playout stops and is valued by
               evaluate_nb (0 = play to the end)
  [P_WIDEN]    mcts: progressive widening; a node visited v times may hold at most
               max(1, ceil(widening * sqrt(v))) children legal in the present world (0 = off:
               every legal option is tried once before any is tried twice)
  [P_RANKED]   mcts: 1 = a new child is the rollout policy's choice among the options not
               yet children (children come in the policy's order of preference); 0 = the
               policy's choice if untried, else an untried option at random
  [P_CANDIDATES] mcts: at most this many children legal in the present world per node
               (0 = no cap); with ranked = 1: the policy's first choices only
  [P_TREE]     mcts: decisions below the root the tree may hold, selection and expansion stop
               there and the playout begins (0 = no limit)
  [P_MARGIN]   mcts: a finished playout is worth (1 - margin) x its win share + margin x
               evaluate_nb of the finished game (0 = the win share only)
  [P_WORLDS]   mcts: 0 = a fresh world (determinization and chance seed) per iteration; W > 0
               = W world seeds drawn once per decision, the k-th visit of every root child
               played in world k mod W (common worlds at the root), and the final move the
               root child whose playouts beat the policy's first choice's on their shared
               worlds by the largest summed margin (the policy's first choice if none does)
  [F_CANDIDATES], [F_MARGIN]  flatmc's slots 2 and 3: candidates (0 = every legal option,
               each on its own worlds; k > 0 = the rollout policy's k first choices, every one
               played out on the same worlds, ties to the policy's preference) and margin
  [P_NPLAYERS] hidden: the number of players (returns_nb needs it)
  [P_ROLL_PARAMS:]  hidden: the rollout policy's own parameter row (its defaults)

Compiled once per game and cached on disk: `build_search` rebinds the generic kernels below
to the game's functions with the game key in their closure (numba's cache index keys on the
closure's contents, not on globals), exactly like the harness's kernels.
"""
from __future__ import annotations

import importlib
import math

import numpy as np
from numba import njit

from sim.harness import instantiate, source_token
from sim.rng import init_streams_nb, mix64_nb, next_u64_nb, randint_nb

from strategies.search_catalog import (  # noqa: F401  (ids, slots, the catalog: no numba)
    FLATMC, F_CANDIDATES, F_MARGIN, MCTS, N_SEARCH_PARAMS, P_BUDGET, P_C, P_CANDIDATES,
    P_DEPTH, P_MARGIN, P_NPLAYERS, P_RANKED, P_ROLL_PARAMS, P_ROLLOUT, P_TREE, P_WIDEN,
    GENERIC_SUFFIX, P_WORLDS, SEARCH_BASE, catalog_for, search_catalog,
)

MAX_SEATS = 16                    # size of the per-seat result buffers (>= any game's players)
ILLEGAL = -1
STREAM_SALT2 = np.uint64(0x8CB92BA72F3D8DD7)


# ---------------------------------------------------------------------------------------
# Generic kernels. Each `_make_*` returns a function whose closure holds only the game key;
# `build_search` rebuilds it over a globals dict naming that game's model functions.
# Names used as globals below: is_over_nb, to_move_nb, decision_nb, legal_nb, context_nb,
# apply_nb, default_keep_nb, returns_nb, evaluate_nb, determinize_nb, choose_builtin_nb,
# STATE_DTYPE, MAX_OPTIONS, CTX_LEN, KEEP_LEN, and the per-game kernels built before.
# ---------------------------------------------------------------------------------------

def _make_prepare_copy(token):
    def prepare_copy_nb(tables, s, w, seat, seed):
        """w <- a determinization of s for `seat` drawn from `seed`: the hidden information
        redrawn and every random stream reseeded (chance by determinize_nb, the strategy
        streams here: the other seats' future random choices are not the seat's to know)."""
        _ = token
        w[0] = s
        init_streams_nb(w[0].streams, mix64_nb(np.uint64(seed) ^ STREAM_SALT2))
        determinize_nb(tables, w[0], seat, np.uint64(seed))
    return prepare_copy_nb


def _make_fresh_world(token):
    def fresh_world_nb(tables, s, w, seat, seed, ctx, keep, ctx2, keep2):
        """The start of every rollout (flatmc) and iteration (mcts): w <- the determinization
        of s for `seat` drawn from `seed` (drawn from the seat's own stream), ctx2 / keep2 <-
        the decision's ctx / keep."""
        _ = token
        prepare_copy_nb(tables, s, w, seat, seed)
        for j in range(ctx.shape[0]):
            ctx2[j] = ctx[j]
        for j in range(keep.shape[0]):
            keep2[j] = keep[j]
    return fresh_world_nb


def _make_playout(token):
    def playout_nb(tables, w, seat, n_players, rollout_id, rparams, max_steps, margin, opts,
                   ctx, keep, out, trace, tn):
        """Play the copy w on with the rollout policy for every seat, at most max_steps
        decisions (< 0: to the end). Writes each seat's value into out[:n_players]: the win
        share when the game ended (with margin > 0: (1 - margin) x the win share + margin x
        evaluate_nb of the finished game, which ranks the wins and losses by their lead),
        else evaluate_nb's heuristic. Returns the decisions played."""
        _ = token
        steps = 0
        while not is_over_nb(w):
            if max_steps >= 0 and steps >= max_steps:
                break
            p = to_move_nb(w)
            d = decision_nb(w)
            n = legal_nb(tables, w, opts)
            context_nb(tables, w, ctx, keep)
            i = choose_builtin_nb(rollout_id, rparams, tables, w, p, d, opts, n, ctx, keep)
            if i < 0 or i >= n:
                i = 0
            apply_nb(tables, w, opts[i], keep, trace, tn)
            steps += 1
        if is_over_nb(w):
            for q in range(out.shape[0]):
                out[q] = 0.0
            returns_nb(tables, w, n_players, out)
            if margin > 0.0:
                for q in range(n_players):
                    out[q] = (1.0 - margin) * out[q] + margin * evaluate_nb(tables, w, q)
        else:
            for q in range(n_players):
                out[q] = evaluate_nb(tables, w, q)
        return steps
    return playout_nb


def _make_flatmc(token):
    def flatmc_nb(params, tables, s, seat, options, n_options, ctx, keep):
        """Flat Monte Carlo (module docstring). Returns an index into options[:n_options]."""
        _ = token
        k = int(params[P_BUDGET])
        if k < 1:
            k = 1
        rollout_id = int(params[P_ROLLOUT])
        n_players = int(params[P_NPLAYERS])
        rparams = params[P_ROLL_PARAMS:].copy()
        w = np.empty(1, dtype=STATE_DTYPE)
        opts = np.zeros(MAX_OPTIONS, np.int64)
        ctx2 = np.zeros(CTX_LEN, np.int64)
        keep2 = np.zeros(KEEP_LEN, np.float64)
        out = np.zeros(MAX_SEATS, np.float64)
        trace = np.zeros((0, 6), np.int64)
        tn = np.zeros(1, np.int64)
        cand = int(params[F_CANDIDATES])
        margin = params[F_MARGIN]
        if cand <= 0:
            # every option, each on worlds of its own
            best = 0
            best_v = -1.0
            for i in range(n_options):
                total = 0.0
                for _r in range(k):
                    fresh_world_nb(tables, s, w, seat, next_u64_nb(s.streams, 1 + seat), ctx,
                                   keep, ctx2, keep2)
                    default_keep_nb(tables, w[0], keep2)
                    apply_nb(tables, w[0], options[i], keep2, trace, tn)
                    playout_nb(tables, w[0], seat, n_players, rollout_id, rparams, -1, margin,
                               opts, ctx2, keep2, out, trace, tn)
                    total += out[seat]
                v = total / k
                if v > best_v:
                    best_v = v
                    best = i
            return best
        if cand > n_options:
            cand = n_options
        # the rollout policy's `cand` first choices, in its order of preference (its choice,
        # then its choice among the options left, ...), asked on one determinization
        pick = np.zeros(cand, np.int64)      # indices into options, best first
        left = np.zeros(MAX_OPTIONS, np.int64)
        left_at = np.zeros(MAX_OPTIONS, np.int64)
        m = n_options
        for j in range(m):
            left[j] = options[j]
            left_at[j] = j
        fresh_world_nb(tables, s, w, seat, next_u64_nb(s.streams, 1 + seat), ctx, keep, ctx2,
                       keep2)
        for r in range(cand):
            jm = choose_builtin_nb(rollout_id, rparams, tables, w[0], seat, decision_nb(s),
                                   left, m, ctx2, keep2)
            if jm < 0 or jm >= m:
                jm = 0
            pick[r] = left_at[jm]
            for j in range(jm, m - 1):
                left[j] = left[j + 1]
                left_at[j] = left_at[j + 1]
            m -= 1
        # common random numbers: every candidate plays out from the same k worlds, so their
        # difference measures the move, not the luck of the worlds
        sums = np.zeros(cand, np.float64)
        for _r in range(k):
            seed = next_u64_nb(s.streams, 1 + seat)
            for r in range(cand):
                fresh_world_nb(tables, s, w, seat, seed, ctx, keep, ctx2, keep2)
                default_keep_nb(tables, w[0], keep2)
                apply_nb(tables, w[0], options[pick[r]], keep2, trace, tn)
                playout_nb(tables, w[0], seat, n_players, rollout_id, rparams, -1, margin, opts,
                           ctx2, keep2, out, trace, tn)
                sums[r] += out[seat]
        best = 0
        for r in range(1, cand):
            if sums[r] > sums[best]:    # ties go to the policy's preference
                best = r
        return pick[best]
    return flatmc_nb


def _make_expand(token):
    def expansion_nb(rollout_id, rparams, tables, w0, p, d, opts, n, child_of, n_new,
                     untried, untried_at, ranked, rs, ctx2, keep2):
        """The option to add as a child of the node (index into opts): ranked, the rollout
        policy's choice among the untried options (children come in its order of
        preference: its k first choices with candidates = k); else the policy's option if
        untried, otherwise a random untried one."""
        _ = token
        if ranked:
            m = 0
            for j in range(n):
                if child_of[j] == -1:
                    untried[m] = opts[j]
                    untried_at[m] = j
                    m += 1
            jm = choose_builtin_nb(rollout_id, rparams, tables, w0, p, d, untried, m, ctx2,
                                   keep2)
            if jm < 0 or jm >= m:
                jm = randint_nb(rs, 0, m)
            return untried_at[jm]
        jj = choose_builtin_nb(rollout_id, rparams, tables, w0, p, d, opts, n, ctx2, keep2)
        if jj < 0 or jj >= n or child_of[jj] != -1:
            jj = random_untried_nb(rs, child_of, n, n_new)
        return jj
    return expansion_nb


def _make_mcts(token):
    def mcts_nb(params, tables, s, seat, options, n_options, ctx, keep):
        """SO-ISMCTS (module docstring). Returns an index into options[:n_options]."""
        _ = token
        iters = int(params[P_BUDGET])
        if iters < 1:
            iters = 1
        rollout_id = int(params[P_ROLLOUT])
        depth = int(params[P_DEPTH])
        margin = params[P_MARGIN]
        worlds = int(params[P_WORLDS])
        n_players = int(params[P_NPLAYERS])
        rparams = params[P_ROLL_PARAMS:].copy()
        tree = new_tree_nb(iters + 1)     # node 0 is the root (the seat's present decision)
        parent, first, nxt, code, mover, dkind, visits, avail, value = tree
        n_nodes = 1
        path = np.zeros(iters + 1, np.int64)
        w = np.empty(1, dtype=STATE_DTYPE)
        opts = np.zeros(MAX_OPTIONS, np.int64)
        per_option = np.zeros((3, MAX_OPTIONS), np.int64)    # descend_nb's work rows
        ctx2 = np.zeros(CTX_LEN, np.int64)
        keep2 = np.zeros(KEEP_LEN, np.float64)
        out = np.zeros(MAX_SEATS, np.float64)
        trace = np.zeros((0, 6), np.int64)
        tn = np.zeros(1, np.int64)
        # the search's own choices (ties, expansion order) come from a local stream seeded
        # from the seat's stream: reproducible, and independent of the rollout's draws
        rs = np.zeros(1, np.uint64)
        rs[0] = next_u64_nb(s.streams, 1 + seat)
        # worlds > 0: W world seeds drawn once; the root's step (selection, expansion in the
        # policy's order) is taken in world 0, then the iteration continues in world k mod W
        # where k counts the chosen root child's earlier visits: every root child's k-th
        # playout starts from the same world (common random numbers, as flatmc's candidates)
        n_w = worlds if worlds > 0 else 1
        wseeds = np.zeros(n_w, np.uint64)
        wr = np.empty(1, dtype=STATE_DTYPE)
        it_child = np.full(iters, -1, np.int64)    # worlds > 0: each iteration's root child
        it_val = np.zeros(iters, np.float64)       # and the seat's value of its playout
        if worlds > 0:
            for j in range(worlds):
                wseeds[j] = next_u64_nb(s.streams, 1 + seat)
            fresh_world_nb(tables, s, wr, seat, wseeds[0], ctx, keep, ctx2, keep2)
        for _it in range(iters):
            iteration_world_nb(tables, s, w, wr, seat, worlds, ctx, keep, ctx2, keep2)
            n_nodes, n_path, steps = descend_nb(params, rparams, tables, s, w, wr, seat,
                                                wseeds, tree, n_nodes, path, rs, opts,
                                                per_option, ctx, keep, ctx2, keep2, trace, tn)
            # simulation
            left = -1
            if depth > 0:
                left = depth - steps
                if left < 0:
                    left = 0
            playout_nb(tables, w[0], seat, n_players, rollout_id, rparams, left, margin, opts,
                       ctx2, keep2, out, trace, tn)
            backpropagate_nb(path, n_path, visits, value, mover, out)
            if n_path > 1:
                it_child[_it] = path[1]
                it_val[_it] = out[seat]
        if worlds > 0:
            return _paired_choice_nb(options, n_options, seat, first, nxt, code, mover, visits,
                                     it_child, it_val, iters)
        return most_visited_nb(options, n_options, seat, first, nxt, code, mover, visits,
                               value)
    return mcts_nb


def _make_descend(token):
    def descend_nb(params, rparams, tables, s, w, wr, seat, wseeds, tree, n_nodes, path, rs,
                   opts, per_option, ctx, keep, ctx2, keep2, trace, tn):
        """Selection and expansion: one iteration's way down `tree` (new_tree_nb's arrays,
        n_nodes of them in use), its moves played on the world w[0]. At each decision: the
        node's children legal in this world; if the node may grow, a new child (expansion_nb)
        and the way down ends there, else the best of them by UCB1. The way down also ends
        with the game, `depth` or `tree` decisions below the root (read from params, as the
        other settings), or when no child is legal here and none may be added. With fixed
        worlds the root's move continues in the chosen root child's own world.
        path[:n_path] = the nodes passed, the root first; per_option: three work rows of
        MAX_OPTIONS (allocated once per decision, not per iteration: a game's MAX_OPTIONS
        may be thousands). Returns (n_nodes, n_path, steps)."""
        _ = token
        parent, first, nxt, code, mover, dkind, visits, avail, value = tree
        rollout_id = int(params[P_ROLLOUT])
        c = params[P_C]
        depth = int(params[P_DEPTH])
        widen = params[P_WIDEN]
        ranked = params[P_RANKED] > 0.0
        cand = int(params[P_CANDIDATES])
        tree_depth = int(params[P_TREE])
        worlds = int(params[P_WORLDS])
        cap = parent.shape[0]
        child_of = per_option[0]
        untried = per_option[1]       # ranked: the untried options' codes
        untried_at = per_option[2]    # and their indices in opts
        node = 0
        n_path = 1
        path[0] = 0
        steps = 0
        expanded = False
        while not is_over_nb(w[0]) and not expanded:
            if depth > 0 and steps >= depth:
                break
            if tree_depth > 0 and steps >= tree_depth:
                break
            p = to_move_nb(w[0])
            d = decision_nb(w[0])
            n = legal_nb(tables, w[0], opts)
            context_nb(tables, w[0], ctx2, keep2)
            n_new = legal_children_nb(first, nxt, mover, dkind, code, avail, node, p, d, opts,
                                      n, child_of)
            if may_grow_nb(n, n_new, n_nodes, cap, widen, cand, visits[node]):
                choice = expansion_nb(rollout_id, rparams, tables, w[0], p, d, opts, n,
                                      child_of, n_new, untried, untried_at, ranked, rs, ctx2,
                                      keep2)
                add_child_nb(parent, first, nxt, code, mover, dkind, avail, node, n_nodes,
                             opts[choice], p, d)
                node = n_nodes
                n_nodes += 1
                expanded = True
            else:
                choice = ucb_choice_nb(child_of, n, visits, value, avail, c)
                if choice == -1:     # no child legal here yet and none may be added
                    break
                node = child_of[choice]
            path[n_path] = node
            n_path += 1
            cc = opts[choice]
            if worlds > 0 and steps == 0:
                # the chosen root child's next world (its k-th visit: world k mod W)
                root_child_world_nb(tables, s, w, wr, seat, wseeds[int(visits[node]) % worlds],
                                    cc, opts, ctx, keep, ctx2, keep2)
            default_keep_nb(tables, w[0], keep2)
            apply_nb(tables, w[0], cc, keep2, trace, tn)
            steps += 1
        return n_nodes, n_path, steps
    return descend_nb


def _make_iteration_world(token):
    def iteration_world_nb(tables, s, w, wr, seat, worlds, ctx, keep, ctx2, keep2):
        """The world an iteration starts in: with fixed worlds, world 0 (its copy, with the
        decision's own context and keep values); else a fresh redraw of what the seat
        cannot see, seeded from its stream."""
        _ = token
        if worlds > 0:
            w[0] = wr[0]
            for j in range(ctx.shape[0]):
                ctx2[j] = ctx[j]
            for j in range(keep.shape[0]):
                keep2[j] = keep[j]
        else:
            fresh_world_nb(tables, s, w, seat, next_u64_nb(s.streams, 1 + seat), ctx, keep,
                           ctx2, keep2)
    return iteration_world_nb


def _make_root_child_world(token):
    def root_child_world_nb(tables, s, w, wr, seat, seed, option, opts, ctx, keep, ctx2,
                            keep2):
        """With fixed worlds: the world `seed` in which the root child chosen by `option`
        goes on. The seat's own options depend only on what it sees, so `option` is legal
        there for a game that keeps the contract; if not, the iteration stays in world 0."""
        _ = token
        fresh_world_nb(tables, s, w, seat, seed, ctx, keep, ctx2, keep2)
        if not is_legal_nb(tables, w[0], opts, option):
            w[0] = wr[0]
        context_nb(tables, w[0], ctx2, keep2)
    return root_child_world_nb


def _make_is_legal(token):
    def is_legal_nb(tables, w0, opts, option):
        """Whether `option` is among the legal options of the state (opts: a work array)."""
        _ = token
        n = legal_nb(tables, w0, opts)
        for j in range(n):
            if opts[j] == option:
                return True
        return False
    return is_legal_nb


# --- the tree of mcts_nb: game-independent steps on its arrays ---------------------------
@njit(cache=True, error_model="numpy")
def new_tree_nb(cap):
    """An empty tree of `cap` nodes, as the arrays (parent, first child, next sibling, option
    code of the edge into the node, seat that chose it, decision kind it answered, visits,
    availability: times it was legal when its parent was visited, summed value of the seat
    that moved into it)."""
    parent = np.full(cap, -1, np.int64)
    first = np.full(cap, -1, np.int64)
    nxt = np.full(cap, -1, np.int64)
    code = np.zeros(cap, np.int64)
    mover = np.zeros(cap, np.int64)
    dkind = np.zeros(cap, np.int64)
    visits = np.zeros(cap, np.float64)
    avail = np.zeros(cap, np.float64)
    value = np.zeros(cap, np.float64)
    return parent, first, nxt, code, mover, dkind, visits, avail, value


@njit(cache=True, error_model="numpy")
def legal_children_nb(first, nxt, mover, dkind, code, avail, node, p, d, opts, n, child_of):
    """child_of[j] = the child of `node` reached by seat p answering decision d with opts[j],
    -1 when untried; every child legal here gets one more availability (ISMCTS: UCB counts
    the visits of the parent in which the child could be chosen). Returns the untried count."""
    for j in range(n):
        child_of[j] = -1
    ch = first[node]
    while ch != -1:
        if mover[ch] == p and dkind[ch] == d:
            for j in range(n):
                if opts[j] == code[ch]:
                    child_of[j] = ch
                    avail[ch] += 1.0
                    break
        ch = nxt[ch]
    n_new = 0
    for j in range(n):
        if child_of[j] == -1:
            n_new += 1
    return n_new


@njit(cache=True, error_model="numpy")
def may_grow_nb(n, n_new, n_nodes, cap, widen, cand, node_visits):
    """Whether the node gets a new child: an untried option and room in the tree, within
    progressive widening (at most ceil(widen sqrt(visits + 1)) children) and the candidate
    limit (at most `cand` children)."""
    grow = n_new > 0 and n_nodes < cap
    if grow and widen > 0.0:
        limit = math.ceil(widen * math.sqrt(node_visits + 1.0))
        if limit < 1.0:
            limit = 1.0
        grow = (n - n_new) < limit
    if grow and cand > 0:
        grow = (n - n_new) < cand
    return grow


@njit(cache=True, error_model="numpy")
def random_untried_nb(rs, child_of, n, n_new):
    """A uniformly random untried option (index j with child_of[j] == -1) from the search's
    own stream."""
    pick = randint_nb(rs, 0, n_new)
    for j in range(n):
        if child_of[j] == -1:
            if pick == 0:
                return j
            pick -= 1
    return 0


@njit(cache=True, error_model="numpy")
def add_child_nb(parent, first, nxt, code, mover, dkind, avail, node, nd, option, p, d):
    """Node `nd` becomes the first child of `node`: the edge of seat p answering decision d
    with `option`, legal once so far."""
    parent[nd] = node
    code[nd] = option
    mover[nd] = p
    dkind[nd] = d
    avail[nd] = 1.0
    nxt[nd] = first[node]
    first[node] = nd


@njit(cache=True, error_model="numpy")
def ucb_choice_nb(child_of, n, visits, value, avail, c):
    """UCB1 over the children legal here (availability-based, ISMCTS): the index j of the
    best, an unvisited child first; -1 when none is legal here."""
    choice = -1
    best_u = -1e300
    for j in range(n):
        ch = child_of[j]
        if ch == -1:
            continue
        if visits[ch] > 0.0:
            u = value[ch] / visits[ch] + c * math.sqrt(math.log(avail[ch]) / visits[ch])
        else:
            u = 1e300
        if u > best_u:
            best_u = u
            choice = j
    return choice


@njit(cache=True, error_model="numpy")
def backpropagate_nb(path, n_path, visits, value, mover, out):
    """Every node of the path gets the visit, and the value of the seat that moved into it."""
    for k in range(n_path):
        nd = path[k]
        visits[nd] += 1.0
        if nd != 0:
            value[nd] += out[mover[nd]]


@njit(cache=True, error_model="numpy")
def most_visited_nb(options, n_options, seat, first, nxt, code, mover, visits, value):
    """The move: the root child with the most visits among the real options; equal visits
    are broken by the mean (which is < 1, so it never outweighs one visit)."""
    best = 0
    best_n = -1.0
    for i in range(n_options):
        ch = first[0]
        while ch != -1:
            if code[ch] == options[i] and mover[ch] == seat:
                sc = visits[ch]
                if visits[ch] > 0.0:
                    sc += 0.5 * value[ch] / visits[ch]
                if sc > best_n:
                    best_n = sc
                    best = i
                break
            ch = nxt[ch]
    return best


@njit(cache=True, error_model="numpy")
def _paired_choice_nb(options, n_options, seat, first, nxt, code, mover, visits, it_child,
                      it_val, iters):
    """mcts's move with worlds > 0: the policy's first choice (the first root child made,
    node index smallest) unless another root child beats it on their shared worlds. A root
    child's k-th visit was played in world k mod W, so the first m = min(visits of both)
    playouts of two children share their worlds; a child's score is the sum of its first m
    values minus the sum of the policy child's first m values. The child with the largest
    score > 0 is played (equal scores: the earlier child), else the policy's first choice.
    Returns an index into options[:n_options]."""
    pol = -1
    ch = first[0]
    while ch != -1:
        if mover[ch] == seat and (pol == -1 or ch < pol):
            pol = ch
        ch = nxt[ch]
    if pol == -1:
        return 0
    best_ch = pol
    best_sc = 0.0
    ch = first[0]
    while ch != -1:
        if ch != pol and mover[ch] == seat and visits[ch] > 0.0:
            m = visits[ch] if visits[ch] < visits[pol] else visits[pol]
            sc = 0.0
            na = 0.0
            npol = 0.0
            for it in range(iters):
                if it_child[it] == ch and na < m:
                    sc += it_val[it]
                    na += 1.0
                elif it_child[it] == pol and npol < m:
                    sc -= it_val[it]
                    npol += 1.0
            if sc > best_sc or (sc == best_sc and sc > 0.0 and ch < best_ch):
                best_sc = sc
                best_ch = ch
        ch = nxt[ch]
    for i in range(n_options):
        if best_ch != -1 and code[best_ch] == options[i]:
            return i
    return 0


def _make_bench(token):
    def bench_rollouts_nb(tables, s, seat, n_players, rollout_id, rparams, n, seed,
                          determinize, wins):
        """scripts/bench_search.py: n rollouts from copies of s (each reseeded, and
        determinized for `seat` when `determinize`), the rollout policy in every seat;
        wins[:n_players] += the win shares. Returns the decisions played."""
        _ = token
        w = np.empty(1, dtype=STATE_DTYPE)
        opts = np.zeros(MAX_OPTIONS, np.int64)
        ctx = np.zeros(CTX_LEN, np.int64)
        keep = np.zeros(KEEP_LEN, np.float64)
        out = np.zeros(MAX_SEATS, np.float64)
        trace = np.zeros((0, 6), np.int64)
        tn = np.zeros(1, np.int64)
        rs = np.zeros(1, np.uint64)
        rs[0] = np.uint64(seed)
        steps = 0
        for _k in range(n):
            sd = next_u64_nb(rs, 0)
            if determinize:
                prepare_copy_nb(tables, s, w, seat, sd)
            else:
                w[0] = s
                init_streams_nb(w[0].streams, sd)
            steps += playout_nb(tables, w[0], seat, n_players, rollout_id, rparams, -1, 0.0,
                                opts, ctx, keep, out, trace, tn)
            for q in range(n_players):
                wins[q] += out[q]
        return steps
    return bench_rollouts_nb


def _make_choose(token):
    def search_choose_nb(sid, params, tables, s, seat, decision, options, n_options, ctx, keep):
        """The harness's entry for ids >= SEARCH_BASE: an index into options[:n_options], or
        -1 (counted illegal by the harness) for an id that is no search player. Writes the
        game's default keep values (the search does not search over them)."""
        _ = token
        if sid != FLATMC and sid != MCTS:
            return ILLEGAL
        default_keep_nb(tables, s, keep)
        if n_options <= 1:
            return 0
        if sid == FLATMC:
            i = flatmc_nb(params, tables, s, seat, options, n_options, ctx, keep)
        else:
            i = mcts_nb(params, tables, s, seat, options, n_options, ctx, keep)
        default_keep_nb(tables, s, keep)
        return i
    return search_choose_nb


@njit(cache=True, error_model="numpy")
def _no_keep_nb(tables, s, keep):
    """default_keep_nb of a game whose decisions have no keep values."""
    return None


_JIT = dict(cache=True, error_model="numpy")
_BUILT: dict = {}
_BENCH: dict = {}     # game key -> the globals its kernels were built on


def _state_dtype(model):
    dt = getattr(model, "STATE_DTYPE", None)
    if dt is None:
        enums = importlib.import_module(model.__name__.rsplit(".", 1)[0] + ".enums")
        dt = enums.STATE_DTYPE
    return dt


def _rebind(maker, token, g, name, inline="never"):
    """maker(token)'s function on globals g, jitted with the disk cache under a per-game
    qualname (its own index file per game; the token in the closure keys the entry)."""
    return instantiate(maker(token), token, g, f"{name}__{token}", inline=inline)


def _source_token(game_key: str, *objects) -> str:
    """The harness's token of the game (sim.harness.source_token), marked as the search
    players': a game defined elsewhere (the tests' games) must not load stale code."""
    return source_token(game_key, *objects) + "-search"


def build_search(game_key: str, model, choose_builtin):
    """The compiled `search_choose_nb(sid, params, tables, s, seat, decision, options,
    n_options, ctx, keep) -> index` of one game, built on its forward model `model` (the
    module sim.games.<game>.model, or any object with the contract's functions) and its
    built-ins' `choose_builtin_nb` (the rollout policies). One per game key per process;
    cached on disk per game key."""
    key = str(game_key)
    if key in _BUILT:
        return _BUILT[key]
    token = _source_token(key, model, choose_builtin)
    g = dict(globals())
    for fname in ("is_over_nb", "to_move_nb", "decision_nb", "legal_nb", "context_nb",
                  "apply_nb", "returns_nb", "evaluate_nb", "determinize_nb"):
        g[fname] = getattr(model, fname)
    g["default_keep_nb"] = getattr(model, "default_keep_nb", _no_keep_nb)
    g["choose_builtin_nb"] = choose_builtin
    g["STATE_DTYPE"] = _state_dtype(model)
    g["MAX_OPTIONS"] = int(model.MAX_OPTIONS)
    g["CTX_LEN"] = max(1, int(getattr(model, "CTX_LEN", 1)))
    g["KEEP_LEN"] = max(1, int(getattr(model, "KEEP_LEN", 1)))
    g["prepare_copy_nb"] = _rebind(_make_prepare_copy, token, g, "prepare_copy_nb")
    g["fresh_world_nb"] = _rebind(_make_fresh_world, token, g, "fresh_world_nb")
    g["playout_nb"] = _rebind(_make_playout, token, g, "playout_nb")
    g["flatmc_nb"] = _rebind(_make_flatmc, token, g, "flatmc_nb")
    g["expansion_nb"] = _rebind(_make_expand, token, g, "expansion_nb")
    g["is_legal_nb"] = _rebind(_make_is_legal, token, g, "is_legal_nb")
    g["iteration_world_nb"] = _rebind(_make_iteration_world, token, g, "iteration_world_nb")
    g["root_child_world_nb"] = _rebind(_make_root_child_world, token, g,
                                       "root_child_world_nb")
    # inlined: a call per iteration passing some twenty arrays cost Sunset's mcts 2.5%
    g["descend_nb"] = _rebind(_make_descend, token, g, "descend_nb", inline="always")
    g["mcts_nb"] = _rebind(_make_mcts, token, g, "mcts_nb")
    choose = _rebind(_make_choose, token, g, "search_choose_nb")
    _BENCH[key] = g
    _BUILT[key] = choose
    return choose


# --- cost estimate: the runner's chunk size (sim/runner.py default_chunk_size) ----------------
FALLBACK_SECONDS_PER_PLAYOUT = 0.004   # s of a 2-player game per playout per decision, for a
#                                        game that declares no measurement (Sunset's mcts at
#                                        400 iterations: about 1.3 s a game)
GUESSED_OPTIONS = 10                   # flatmc over every legal option: options per decision


def playouts_per_decision(sid: int, row) -> float:
    """A search player's playouts per decision: mcts its iterations, flatmc its rollouts per
    candidate times the candidates (GUESSED_OPTIONS when it plays out every legal option)."""
    budget = max(1.0, float(row[P_BUDGET]))
    if int(sid) == MCTS:
        return budget
    cand = float(row[F_CANDIDATES])
    return budget * (cand if cand > 0 else GUESSED_OPTIONS)


def estimated_seconds_per_game(catalog: list, prepared) -> float | None:
    """A rough cost of one game of `prepared` on one worker: for each search seat, the time
    a game took in the nearest measurement of the game's shipped player (its catalog entry's
    `measured`), scaled by the playouts per decision and the number of players; for a game
    that measured none, FALLBACK_SECONDS_PER_PLAYOUT per playout. A function of the
    configuration only (the chunk size it sets is part of the run id). None when no seat plays
    a search player."""
    shipped = {int(e["id"]): e for e in catalog
               if e.get("search") and not str(e["name"]).endswith(GENERIC_SUFFIX)}
    n = int(prepared.n_players)
    total = None
    for sid, row in zip(np.asarray(prepared.strategy_ids), np.asarray(prepared.strategy_params)):
        entry = shipped.get(int(sid))
        if entry is None:
            continue
        playouts = playouts_per_decision(sid, row)
        measured = sorted(entry.get("measured", ()), key=lambda m: (abs(m.players - n), m.players))
        if measured:
            m = measured[0]
            ref = np.array([p[1] for p in entry["params"]] + [0.0] * N_SEARCH_PARAMS)
            secs = m.seconds_per_game * playouts / playouts_per_decision(sid, ref) * n / m.players
        else:
            secs = FALLBACK_SECONDS_PER_PLAYOUT * playouts * n / 2
        total = (total or 0.0) + secs
    return total


def search_choose_for(spec):
    """The compiled search dispatcher of a template game (sim/compiled_game.py)."""
    return build_search(spec.name, spec.model(), spec.choose_builtin())


def mcts_of(game_key: str, model, choose_builtin):
    """The compiled mcts_nb of a game (sim/split_compile.py compiles it in a helper process
    while the search loop compiles flatmc here)."""
    build_search(game_key, model, choose_builtin)
    return _BENCH[str(game_key)]["mcts_nb"]


def bench_kernel(game_key: str, model, choose_builtin):
    """The compiled bench_rollouts_nb of a game (scripts/bench_search.py)."""
    build_search(game_key, model, choose_builtin)
    g = _BENCH[str(game_key)]
    if "bench_rollouts_nb" not in g:
        g["bench_rollouts_nb"] = _rebind(_make_bench, _source_token(str(game_key), model,
                                                                    choose_builtin), g,
                                         "bench_rollouts_nb")
    return g["bench_rollouts_nb"]
