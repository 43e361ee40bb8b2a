"""The game over time (docs/report.md): per-round snapshots of a sample of a run's
games, recorded by replaying them.

Why a replay and not a hook in the play loop: the main job (sim/harness.py's kernels) stays
byte for byte what it was, so recording costs it nothing, and no edit of the harness
recompiles every game. A game is fully determined by (run seed, game index, seating): the
loop below is the harness's `play_on_nb` step for step (the same deal, the same answers of
the same players, the same assigned draws), driven from Python through the game's own
compiled functions, with the game's `snapshot_nb` read after every decision. The replayed
game's log record is compared with the one the run logged (`check_against_logs`): a replay
that does not reproduce the logged game is an error, never a silent curve.

A game declares its snapshot in its contract (`snapshot="sim.games.<game>.snapshot"`): a
module defining ROWS ((name, label, scope, unit), scope "seat" or "game"), PERIOD (the word
for one round: "day", "round", "turn"), `period_nb(s)` (the round being played, 0-based) and
`snapshot_nb(tables, s, n_players, out)` (out[seat, k] = quantity ROWS[k]; a per-game
quantity is written for every seat). Round r of the frame is the state when the period
counter first reads r (0 = after the set-up): after r periods; the last row of a game is its
final state (round = last period + 1 when the game ends inside a period, as when the last
period ends the game without the counter moving on).

Output (tidy, long form): `rounds` one row per (game, round, seat) with the ROWS columns,
and `decisions` one row per decision (game, step, round, seat, decision, options: the number
of legal options offered, the branching factor). The same (seed, games) give the same frames
whatever the run's workers or chunk size: the frames depend on nothing else.
"""
from __future__ import annotations

import json

import numpy as np

from sim.game_api import ToolkitError

SNAPSHOT_FOLDER = "snapshots"
ROUNDS_FILE = "rounds.parquet"
DECISIONS_FILE = "decisions.parquet"
DEFAULT_SNAPSHOT_GAMES = 200


def snapshot_module(spec):
    """The game's snapshot module, or a ToolkitError when it declares none."""
    contract = getattr(spec, "contract", None)
    if contract is None or not contract.offers("snapshot"):
        raise ToolkitError(f"{spec.name} declares no per-round snapshot (its contract's "
                           f"`snapshot` piece; docs/report.md, 'The game over time')")
    return contract.snapshot()


def row_names(module) -> list:
    return [str(r[0]) for r in module.ROWS]


class _Replayer:
    """The compiled pieces of one game and configuration, and the scratch arrays of the loop
    (one per process: the arrays are reused from game to game)."""

    def __init__(self, spec, prepared):
        from sim.harness import SEARCH_BASE
        self.spec = spec
        self.model = spec.model()
        self.snap = snapshot_module(spec)
        self.choose = spec.choose_builtin()
        self.n_builtin = spec.n_builtin()
        self.search_base = SEARCH_BASE
        self.prepared = prepared
        self.tables = spec.pack_tables(prepared.components)
        self.state = spec.new_state()
        m = self.model
        self.options = np.zeros(int(m.MAX_OPTIONS), np.int64)
        self.ctx = np.zeros(max(int(m.CTX_LEN), 1), np.int64)
        self.keep = np.zeros(max(int(m.KEEP_LEN), 1), np.float64)
        self.no_trace = np.zeros((0, 6), np.int64)
        self.tn = np.zeros(1, np.int64)
        self.astream = np.zeros(1, np.uint64)
        self.width = len(self.snap.ROWS)
        self._decide = {}

    def _other(self, one):
        """The harness's dispatcher for ids play_on_nb does not answer itself (search
        players, user functions, unknown ids), compiled for this seating's players."""
        key = tuple(one.user_strategies), bool((np.asarray(one.strategy_ids) >= self.search_base).any())
        if key not in self._decide:
            self._decide[key] = self.spec._run_kernels(one).decide
        return self._decide[key]

    def game(self, game_index: int):
        """(snapshots int64[k, seats, width], round of each snapshot, decisions int64[d, 4]
        (round, seat, decision, options), the record rows) of one game of the run."""
        from sim.rng import assign_stream_nb, game_seed_nb, randint_nb
        from sim.rotation import deal_of, seated
        prepared = self.prepared
        deal, seating = deal_of(prepared, game_index)
        one = seated(prepared, seating) if prepared.rotation else prepared
        m, snap, choose = self.model, self.snap, self.choose
        T = self.tables[0]
        s = self.state[0]
        n_players = int(prepared.n_players)
        sids = np.asarray(one.strategy_ids, np.int64)
        params = np.ascontiguousarray(one.strategy_params, np.float64)
        assigned = self._assigned(one)
        options, ctx, keep, tn, astream = self.options, self.ctx, self.keep, self.tn, self.astream
        illegal = np.zeros(n_players, np.int64)
        choices = np.zeros(n_players, np.int64)
        seed = np.uint64(game_seed_nb(np.uint64(prepared.seed), deal))
        assign_stream_nb(astream, seed)
        m.setup_nb(T, s, n_players, seed, self.no_trace, tn)
        frames, rounds, decisions = [], [], []
        out = np.zeros((n_players, self.width), np.int64)
        snap.snapshot_nb(T, s, n_players, out)
        frames.append(out.copy())
        rounds.append(0)
        period = int(snap.period_nb(s))
        fresh = True        # the last snapshot is of the current state
        while not m.is_over_nb(s):
            seat = int(m.to_move_nb(s))
            dec = int(m.decision_nb(s))
            n = int(m.legal_nb(T, s, options))
            m.context_nb(T, s, ctx, keep)
            sid = int(sids[seat])
            drawn = 0 <= dec < assigned.shape[0] and assigned[dec] != 0
            if drawn:
                i = int(randint_nb(astream, 0, n))
            elif 0 <= sid < self.n_builtin:
                i = int(choose(sid, params[seat], T, s, seat, dec, options, n, ctx, keep))
                if i >= n:
                    i = -1
            else:
                i = int(self._other(one)(sids, params, T, s, seat, dec, options, n, ctx, keep))
            if n > 1 and not drawn:
                choices[seat] += 1
            if i < 0:
                illegal[seat] += 1
                i = 0
            decisions.append((period + 1, seat, dec, n))
            m.apply_nb(T, s, options[i], keep, self.no_trace, tn)
            now = int(snap.period_nb(s))
            fresh = now != period
            if fresh:
                snap.snapshot_nb(T, s, n_players, out)
                frames.append(out.copy())
                rounds.append(now)
                period = now
        if not fresh:
            snap.snapshot_nb(T, s, n_players, out)    # the game ended inside a period
            frames.append(out.copy())
            rounds.append(period + 1)
        rec = m.RECORD.empty(n_players)
        m.record_nb(T, s, n_players, deal, rec, 0)
        rec["game"] = game_index
        for p in range(n_players):
            rec[p]["illegal"] = illegal[p]
            rec[p]["choices"] = choices[p]
        return (np.stack(frames), np.asarray(rounds, np.int64),
                np.asarray(decisions, np.int64).reshape(-1, 4), rec)

    def _assigned(self, one):
        if not getattr(one, "assigned", None):
            from sim.harness import NO_ASSIGNMENT
            return NO_ASSIGNMENT
        from sim.assign import decisions
        from sim.harness import assigned_flags
        return assigned_flags(decisions(self.spec, one.assigned))


MAX_SNAPSHOTS = 256        # rounds of one game the compiled replay holds (more: the Python one)
MAX_DECISIONS = 16384      # decisions of one game the compiled replay holds


def _template(token):
    """The compiled replay of one game with built-in players: play_on_nb of sim/harness.py
    with the snapshot read after every decision (the same loop as `_Replayer.game`).
    Globals: the model's functions, choose_builtin, N_BUILTIN, period_nb, snapshot_nb."""

    def snapshot_game_nb(tables_rec, state_rec, n_players, seed, deal, sids, params,
                         assigned, frames, rounds, decisions, rec, illegal, choices):
        """Returns (snapshots, decisions) taken, or (-1, -1) when the game outgrew the
        buffers."""
        token
        tables = tables_rec[0]
        s = state_rec[0]
        options = np.zeros(MAX_OPTIONS, np.int64)
        ctx = np.zeros(max(CTX_LEN, 1), np.int64)
        keep = np.zeros(max(KEEP_LEN, 1), np.float64)
        no_trace = np.zeros((0, 6), np.int64)
        tn = np.zeros(1, np.int64)
        astream = np.zeros(1, np.uint64)
        assign_stream_nb(astream, seed)
        setup_nb(tables, s, n_players, seed, no_trace, tn)
        illegal[:] = 0
        choices[:] = 0
        snapshot_nb(tables, s, n_players, frames[0])
        rounds[0] = 0
        k = 1
        d = 0
        period = period_nb(s)
        fresh = True        # the last snapshot is of the current state
        while not is_over_nb(s):
            seat = to_move_nb(s)
            dec = decision_nb(s)
            n = legal_nb(tables, s, options)
            context_nb(tables, s, ctx, keep)
            sid = sids[seat]
            drawn = dec >= 0 and dec < assigned.shape[0] and assigned[dec] != 0
            if drawn:
                i = randint_nb(astream, 0, n)
            elif sid >= 0 and sid < N_BUILTIN:
                i = choose_builtin(sid, params[seat], tables, s, seat, dec, options, n, ctx,
                                   keep)
                if i >= n:
                    i = -1
            else:
                i = -1
            if n > 1 and not drawn:
                choices[seat] += 1
            if i < 0:
                illegal[seat] += 1
                i = 0
            if d >= decisions.shape[0] or k >= frames.shape[0]:
                return -1, -1
            decisions[d, 0] = period + 1
            decisions[d, 1] = seat
            decisions[d, 2] = dec
            decisions[d, 3] = n
            d += 1
            apply_nb(tables, s, options[i], keep, no_trace, tn)
            now = period_nb(s)
            fresh = now != period
            if fresh:
                snapshot_nb(tables, s, n_players, frames[k])
                rounds[k] = now
                k += 1
                period = now
        if not fresh:
            if k >= frames.shape[0]:
                return -1, -1
            snapshot_nb(tables, s, n_players, frames[k])   # the game ended inside a period
            rounds[k] = period + 1
            k += 1
        record_nb(tables, s, n_players, deal, rec, 0)
        return k, d

    return {"snapshot_game_nb": snapshot_game_nb}


_COMPILED: dict = {}


def compiled_replay(spec):
    """The compiled replay kernel of a game (built-in players only), cached on disk in a
    folder of its own keyed on the game's kernel files, its snapshot module and this file."""
    if spec.name in _COMPILED:
        return _COMPILED[spec.name]
    from sim import compile_cache
    from sim.harness import instantiate, kernel_group, source_token
    from sim.rng import assign_stream_nb, randint_nb
    model, snap, choose = spec.model(), snapshot_module(spec), spec.choose_builtin()
    label, files = kernel_group(spec.name, (model, choose))
    group = (f"{label}+snapshot", compile_cache.closure(list(files) + [snap.__file__, __file__]))
    token = source_token(spec.name, model, choose, snap) + "-snapshot"
    glb = {"np": np, "assign_stream_nb": assign_stream_nb, "randint_nb": randint_nb,
           "N_BUILTIN": int(spec.n_builtin()), "choose_builtin": choose,
           "period_nb": snap.period_nb, "snapshot_nb": snap.snapshot_nb}
    for name in ("setup_nb", "is_over_nb", "to_move_nb", "decision_nb", "legal_nb",
                 "context_nb", "apply_nb", "record_nb"):
        glb[name] = getattr(model, name)
    for name in ("MAX_OPTIONS", "CTX_LEN", "KEEP_LEN"):
        glb[name] = int(getattr(model, name))
    kernel = instantiate(_template(token)["snapshot_game_nb"], token, glb,
                         f"snapshot_game_nb__{token}", cache=True, group=group)
    _COMPILED[spec.name] = kernel
    return kernel


def _compiled_game(replayer, kernel, game_index: int):
    """`_Replayer.game` through the compiled kernel, or None when the game outgrew its
    buffers (the caller replays it in Python)."""
    from sim.rng import game_seed_nb
    from sim.rotation import deal_of, seated
    prepared = replayer.prepared
    deal, seating = deal_of(prepared, game_index)
    one = seated(prepared, seating) if prepared.rotation else prepared
    n_players = int(prepared.n_players)
    frames = np.zeros((MAX_SNAPSHOTS, n_players, replayer.width), np.int64)
    rounds = np.zeros(MAX_SNAPSHOTS, np.int64)
    decisions = np.zeros((MAX_DECISIONS, 4), np.int64)
    rec = replayer.model.RECORD.empty(n_players)
    illegal = np.zeros(n_players, np.int64)
    choices = np.zeros(n_players, np.int64)
    seed = np.uint64(game_seed_nb(np.uint64(prepared.seed), deal))
    k, d = kernel(replayer.tables, replayer.state, n_players, seed, deal,
                  np.asarray(one.strategy_ids, np.int64),
                  np.ascontiguousarray(one.strategy_params, np.float64),
                  replayer._assigned(one), frames, rounds, decisions, rec, illegal, choices)
    if k < 0:
        return None
    rec["game"] = game_index
    rec["illegal"] = illegal
    rec["choices"] = choices
    return frames[:k].copy(), rounds[:k].copy(), decisions[:d].copy(), rec


def builtin_only(prepared) -> bool:
    """Every seat of every seating plays a built-in (the compiled replay applies)."""
    return not prepared.user_strategies and bool(
        (np.asarray(prepared.strategy_ids) >= 0).all()
        and (np.asarray(prepared.strategy_ids) < 1000).all())


def record_games(spec, prepared, games, compiled: bool = True) -> dict:
    """The snapshot frames of the run's games `games` (indices), as numpy columns:
    {"rounds": {...}, "decisions": {...}, "records": RECORD rows}. Depends only on the
    configuration and the indices."""
    replayer = _Replayer(spec, prepared)
    kernel = compiled_replay(spec) if compiled and builtin_only(prepared) else None
    names = row_names(replayer.snap)
    n_players = int(prepared.n_players)
    r_cols = {k: [] for k in ("game", "round", "seat", *names)}
    d_cols = {k: [] for k in ("game", "step", "round", "seat", "decision", "options")}
    records = []
    for g in (int(x) for x in games):
        done = _compiled_game(replayer, kernel, g) if kernel is not None else None
        frames, rounds, decs, rec = done if done is not None else replayer.game(g)
        k = len(rounds)
        r_cols["game"].append(np.full(k * n_players, g, np.int64))
        r_cols["round"].append(np.repeat(rounds, n_players))
        r_cols["seat"].append(np.tile(np.arange(n_players, dtype=np.int64), k))
        flat = frames.reshape(k * n_players, -1)
        for j, name in enumerate(names):
            r_cols[name].append(flat[:, j])
        d = len(decs)
        d_cols["game"].append(np.full(d, g, np.int64))
        d_cols["step"].append(np.arange(d, dtype=np.int64))
        for j, name in enumerate(("round", "seat", "decision", "options")):
            d_cols[name].append(decs[:, j])
        records.append(rec)
    cat = lambda cols: {k: (np.concatenate(v) if v else np.zeros(0, np.int64))
                        for k, v in cols.items()}
    return {"rounds": cat(r_cols), "decisions": cat(d_cols),
            "records": np.concatenate(records) if records else None}


def check_against_logs(out_dir: str, records) -> None:
    """The replayed games must be the logged ones: every logged column of their rows equal.
    A difference is an error (the snapshot would not describe the run)."""
    import glob
    import os

    import pyarrow.dataset as ds
    games = np.unique(records["game"])
    files = sorted(glob.glob(os.path.join(out_dir, "chunks", "chunk-*.parquet")))
    table = ds.dataset(files, format="parquet").to_table(
        filter=ds.field("game").isin(games.tolist()))
    logged = table.to_pandas().sort_values(["game", "seat"], kind="stable")
    if len(logged) != len(records):
        raise ToolkitError(f"{out_dir}: the logs hold {len(logged)} rows of the {len(games)} "
                           f"snapshot games, the replay {len(records)}")
    for name in logged.columns:
        if name in ("strategy",) or name not in records.dtype.names:
            continue
        if not np.array_equal(logged[name].to_numpy(), records[name]):
            raise ToolkitError(f"{out_dir}: the replayed games differ from the logged ones in "
                               f"'{name}': snapshots not written (report this as a bug)")


def _owned(path: str) -> bool:
    """A snapshot file this toolkit wrote (its Parquet metadata says so)."""
    import pyarrow.parquet as pq
    try:
        meta = pq.read_schema(path).metadata or {}
    except Exception:       # not Parquet at all: not ours
        return False
    return b"balance.rows" in meta


def write_snapshots(spec, prepared, out_dir: str, n_games: int, total: int,
                    run_id: str = "") -> dict:
    """Replay the first `n_games` games of the run in `out_dir` (all `total` of them when it
    has fewer) and write snapshots/rounds.parquet and snapshots/decisions.parquet (tidy; with
    the seat's strategy and win share from the replayed record). Returns {"games",
    "seconds" (the replay and its check against the logs), "warm_seconds" (loading or
    compiling the replay kernel), "rounds", "decisions"} (the two paths)."""
    import os
    import time

    import pyarrow as pa
    import pyarrow.parquet as pq

    n = min(int(n_games), int(total))
    start = time.perf_counter()
    if builtin_only(prepared):
        compiled_replay(spec)     # loaded (or compiled) apart from the replay's own time
    record_games(spec, prepared, range(min(n, 1)))
    warm = time.perf_counter() - start
    start = time.perf_counter()
    got = record_games(spec, prepared, range(n))
    check_against_logs(out_dir, got["records"])
    seconds = time.perf_counter() - start
    rec = got["records"]
    strategy = _strategies_of(prepared, rec)
    lookup = {(int(g), int(s)): i for i, (g, s) in enumerate(zip(rec["game"], rec["seat"]))}
    rows = got["rounds"]
    at = np.array([lookup[(int(g), int(s))] for g, s in zip(rows["game"], rows["seat"])],
                  dtype=np.int64) if len(rows["game"]) else np.zeros(0, np.int64)
    snap = snapshot_module(spec)
    rounds = dict(rows)
    rounds["strategy"] = strategy[at] if len(at) else np.zeros(0, object)
    rounds["win"] = np.asarray(rec["win"], np.float64)[at] if len(at) else np.zeros(0)
    rounds["position"] = _positions(spec, prepared, rec)[at] if len(at) else np.zeros(0, np.int64)
    meta = {"period": str(snap.PERIOD), "game": spec.name, "games": str(n), "run_id": run_id,
            "rows": json.dumps([[str(x) for x in r] for r in snap.ROWS])}
    folder_out = os.path.join(out_dir, SNAPSHOT_FOLDER)
    for file in (ROUNDS_FILE, DECISIONS_FILE):
        there = os.path.join(folder_out, file)
        if os.path.exists(there) and not _owned(there):
            raise ToolkitError(f"{there}: not a snapshot file of this toolkit; not overwritten "
                               f"(move it away)")
    os.makedirs(folder_out, exist_ok=True)
    paths = {}
    for name, cols, file in (("rounds", rounds, ROUNDS_FILE),
                             ("decisions", got["decisions"], DECISIONS_FILE)):
        table = pa.table({k: pa.array(v) for k, v in cols.items()})
        table = table.replace_schema_metadata({f"balance.{k}": v for k, v in meta.items()})
        path = os.path.join(folder_out, file)
        tmp = path + ".tmp"
        pq.write_table(table, tmp)
        os.replace(tmp, path)
        paths[name] = path
    return {"games": n, "seconds": seconds, "warm_seconds": warm, **paths}


def _strategies_of(prepared, rec) -> np.ndarray:
    """The strategy name that sat in each replayed row's seat (rotation included)."""
    from sim.rotation import deal_of, seated
    out = []
    for g, s in zip(rec["game"], rec["seat"]):
        one = seated(prepared, deal_of(prepared, int(g))[1]) if prepared.rotation else prepared
        out.append(str(one.strategy_names[int(s)]))
    return np.asarray(out, dtype=object)


def _positions(spec, prepared, rec) -> np.ndarray:
    """Each replayed row's start position (the game's fairness question: its declared start
    column, 1 = first), or its seat number (1-based) for a game without a start player."""
    start = (spec.report_metadata(prepared.components).get("start") or {}).get("column")
    if start and start in rec.dtype.names:
        return np.asarray(rec[start], np.int64) + 1     # the logs count from 0
    return np.asarray(rec["seat"], np.int64) + 1


def _run_id(out_dir: str) -> str:
    import json
    import os
    try:
        with open(os.path.join(out_dir, "manifest.json"), encoding="utf-8") as fh:
            return str(json.load(fh).get("run_id", ""))
    except (OSError, ValueError):
        return ""


def read_snapshots(out_dir: str):
    """(rounds, decisions, meta) of a run folder's snapshots as pandas DataFrames and a dict
    (rows: [(name, label, scope, unit)], period), or None when the run recorded none (or only
    snapshots of another run id: an earlier configuration of the folder)."""
    import os

    import pyarrow.parquet as pq
    folder = os.path.join(out_dir, SNAPSHOT_FOLDER)
    r_path, d_path = os.path.join(folder, ROUNDS_FILE), os.path.join(folder, DECISIONS_FILE)
    if not (os.path.isfile(r_path) and os.path.isfile(d_path)):
        return None
    r_table = pq.read_table(r_path)
    raw = {k.decode(): v.decode() for k, v in (r_table.schema.metadata or {}).items()}
    if raw.get("balance.run_id") != _run_id(out_dir):
        return None     # snapshots of an earlier configuration of the folder (--overwrite)
    meta = {"period": raw.get("balance.period", "round"),
            "rows": [tuple(r) for r in json.loads(raw.get("balance.rows", "[]"))]}
    return r_table.to_pandas(), pq.read_table(d_path).to_pandas(), meta
