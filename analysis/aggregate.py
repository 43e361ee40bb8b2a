"""One streaming pass over a run's Parquet chunks: every sum the report needs.

Only the columns the report uses are read (pyarrow, one chunk file at a time), the rows of a
chunk are viewed as a (games x seats) grid, and everything is accumulated into fixed-size
numpy arrays: counts, sums, sums of squares, integer histograms, per-card sums computed from
the bitmask columns with vectorised bit operations (no Python loop over rows). Memory is
bounded by one chunk, whatever the number of games.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass, field

import numpy as np

from analysis.metadata import needed_columns


class IntHistogram:
    """Counts of integer values per group (rows = groups), growing its value range."""

    def __init__(self, n_groups: int):
        self.n_groups = n_groups
        self.lo = 0
        self.counts = np.zeros((n_groups, 0), dtype=np.int64)

    def add(self, group: np.ndarray, values: np.ndarray) -> None:
        if values.size == 0:
            return
        v = np.asarray(values)
        if not np.issubdtype(v.dtype, np.integer):
            v = np.floor(v.astype(float)).astype(np.int64)  # non-integer scores: unit bins
        v = v.astype(np.int64, copy=False)
        vmin, vmax = int(v.min()), int(v.max())
        if self.counts.shape[1] == 0:
            self.lo = vmin
            self.counts = np.zeros((self.n_groups, vmax - vmin + 1), dtype=np.int64)
        hi = self.lo + self.counts.shape[1] - 1
        if vmin < self.lo or vmax > hi:
            new_lo, new_hi = min(self.lo, vmin), max(hi, vmax)
            grown = np.zeros((self.n_groups, new_hi - new_lo + 1), dtype=np.int64)
            grown[:, self.lo - new_lo:self.lo - new_lo + self.counts.shape[1]] = self.counts
            self.counts, self.lo = grown, new_lo
        width = self.counts.shape[1]
        idx = np.asarray(group, dtype=np.int64) * width + (v - self.lo)
        self.counts += np.bincount(idx.ravel(), minlength=self.n_groups * width).reshape(
            self.n_groups, width)

    @property
    def values(self) -> np.ndarray:
        return np.arange(self.lo, self.lo + self.counts.shape[1])

    def grow_groups(self, n_groups: int) -> None:
        if n_groups > self.n_groups:
            extra = np.zeros((n_groups - self.n_groups, self.counts.shape[1]), dtype=np.int64)
            self.counts = np.vstack([self.counts, extra])
            self.n_groups = n_groups


@dataclass
class CardSums:
    n: int
    taken: np.ndarray                 # rows (seat-games) that took the card
    games_taken: np.ndarray           # games in which at least one seat took it
    win_taken: np.ndarray             # sum of win shares over those rows
    score_taken: np.ndarray
    score_sq_taken: np.ndarray
    taken_by_strategy: np.ndarray     # strategies x cards (grown with strategies)
    days: np.ndarray | None           # cards x 16: rows that took it on day/round v (0 = never)


@dataclass
class GroupSums:
    """Per-group (seat or strategy) sums over rows."""
    n: np.ndarray
    win: np.ndarray
    score: np.ndarray
    score_sq: np.ndarray
    rank: np.ndarray
    components: np.ndarray            # groups x components
    score_min: np.ndarray | None = None
    score_max: np.ndarray | None = None
    games: np.ndarray | None = None   # games in which the group sat (a strategy: any seat)

    @classmethod
    def zeros(cls, groups: int, n_components: int) -> "GroupSums":
        z = lambda: np.zeros(groups)  # noqa: E731
        return cls(n=np.zeros(groups, dtype=np.int64), win=z(), score=z(), score_sq=z(),
                   rank=z(), components=np.zeros((groups, n_components)),
                   score_min=np.full(groups, np.inf), score_max=np.full(groups, -np.inf),
                   games=np.zeros(groups, dtype=np.int64))

    def grow(self, groups: int) -> None:
        k = groups - len(self.n)
        if k <= 0:
            return
        for name, fill in (("n", 0), ("win", 0), ("score", 0), ("score_sq", 0), ("rank", 0),
                           ("score_min", np.inf), ("score_max", -np.inf), ("games", 0)):
            a = getattr(self, name)
            setattr(self, name, np.concatenate([a, np.full(k, fill, dtype=a.dtype)]))
        self.components = np.vstack([self.components, np.zeros((k, self.components.shape[1]))])


@dataclass
class RunAggregates:
    players: int
    meta: dict
    columns: list
    strategies: list = field(default_factory=list)     # global strategy names, by code
    n_rows: int = 0
    n_games: int = 0
    seat: GroupSums | None = None
    strat: GroupSums | None = None
    seat_strategy: np.ndarray | None = None            # seats x strategies: rows
    score_by_seat: IntHistogram | None = None
    score_by_strategy: IntHistogram | None = None
    margin: IntHistogram | None = None                 # 1 group: winner minus runner-up
    length: IntHistogram | None = None                 # groups = end reasons (game level)
    end_reason_counts: dict = field(default_factory=dict)
    tie_games: int = 0                                 # games whose win was shared
    all_tied_games: int = 0                            # games where every seat tied
    h2h_ahead: np.ndarray | None = None                # strategies x strategies
    h2h_pairs: np.ndarray | None = None
    # per-game sums of squares of the head-to-head counts (a = ahead, b = pairs, per game):
    # the interval of the pooled ratio is taken over games, the independent units
    h2h_aa: np.ndarray | None = None
    h2h_bb: np.ndarray | None = None
    h2h_ab: np.ndarray | None = None
    h2h_games: np.ndarray | None = None                # games in which the two met
    choices: np.ndarray | None = None                  # per strategy: decisions with 2+ options
    orders: dict = field(default_factory=dict)         # ((strategy, rank) per seat) -> games
    cards: list = field(default_factory=list)          # CardSums per card type
    files: int = 0
    # log column `illegal`: strategy decisions that were not legal (replaced by option 0)
    illegal: np.ndarray | None = None                  # per strategy: illegal decisions
    illegal_rows: np.ndarray | None = None             # per strategy: seat-games with any

    # -------------------------------------------------------------------------------------
    def _strategy_codes(self, dictionary) -> np.ndarray:
        codes = []
        for name in dictionary:
            name = str(name)
            if name not in self.strategies:
                self.strategies.append(name)
            codes.append(self.strategies.index(name))
        s = len(self.strategies)
        self.strat.grow(s)
        self.score_by_strategy.grow_groups(s)
        if self.seat_strategy.shape[1] < s:
            self.seat_strategy = _grow2(self.seat_strategy, self.players, s)
            self.h2h_ahead = _grow2(self.h2h_ahead, s, s)
            self.h2h_pairs = _grow2(self.h2h_pairs, s, s)
            for name in ("h2h_aa", "h2h_bb", "h2h_ab", "h2h_games"):
                setattr(self, name, _grow2(getattr(self, name), s, s))
            for c in self.cards:
                c.taken_by_strategy = _grow2(c.taken_by_strategy, s, c.n)
        return np.asarray(codes, dtype=np.int64)

    def add_table(self, table) -> None:
        """Fold one chunk (a pyarrow Table with the needed columns) into the sums: the
        (games x seats) grids, then per seat and strategy, per end reason, head-to-head and
        finishing orders, per card (its sections below)."""
        P = self.players
        n = table.num_rows
        if n == 0:
            return
        if n % P:
            raise ValueError(f"a chunk has {n} rows, not a multiple of {P} seats")
        G = n // P
        grid = self._grid_reader(table, G, P)
        strat = self._strategy_grid(table, grid.order, G, P)
        win, score, score_raw, rank, comp = self._outcome_grids(grid, G, P)
        self.n_rows += n
        self.n_games += G
        self._add_seats_and_strategies(grid, strat, win, score, score_raw, rank, comp, G, P)
        self._add_game_shape(grid, G)
        if P > 1:
            self._add_finishes(strat, win, score, rank, G, P)
        self._add_cards(grid, win, score, strat, G, P)

    @staticmethod
    def _grid_reader(table, G: int, P: int):
        """grid(name, dtype=None): a column as a (games x seats) array, rows put in (game,
        seat) order when the chunk holds them otherwise (`grid.order`: that permutation or
        None). A chunk that does not hold every seat of each of its games is refused."""
        col = lambda name: table.column(name).to_numpy()  # noqa: E731
        seat = col("seat").astype(np.int64)
        game = col("game").astype(np.int64)
        order = None
        expected = np.tile(np.arange(P), G)
        if not np.array_equal(seat, expected) or (G > 1 and np.any(np.diff(game[::P]) < 0)):
            order = np.lexsort((seat, game))
            seat = seat[order]
            game = game[order]
            if not np.array_equal(seat, expected) or not np.all(game.reshape(G, P) == game[::P, None]):
                raise ValueError("a chunk does not hold every seat of each of its games")

        def grid(name, dtype=None):
            a = col(name)
            if order is not None:
                a = a[order]
            if dtype is not None:
                a = a.astype(dtype, copy=False)
            return a.reshape(G, P)

        grid.order = order
        return grid

    def _outcome_grids(self, grid, G: int, P: int):
        """(win, score, score as logged, rank, score components) grids; rank and win are
        derived from the score when the logs lack them."""
        score = grid("score", np.float64) if "score" in self.columns else np.zeros((G, P))
        score_raw = grid("score") if "score" in self.columns else np.zeros((G, P), np.int64)
        if "rank" in self.columns:
            rank = grid("rank", np.int64)
        else:  # 1 + seats strictly ahead
            rank = 1 + (score[:, None, :] > score[:, :, None]).sum(axis=2)
        if "win" in self.columns:
            win = grid("win", np.float64)
        else:
            best = score.max(axis=1, keepdims=True)
            top = score == best
            win = top / top.sum(axis=1, keepdims=True)
        comps = self.meta["score_components"]
        comp = (np.stack([grid(c, np.float64) for c in comps], axis=2) if comps
                else np.zeros((G, P, 0)))
        return win, score, score_raw, rank, comp

    def _add_seats_and_strategies(self, grid, strat, win, score, score_raw, rank, comp,
                                  G: int, P: int) -> None:
        """Per seat and per strategy: wins, scores, ranks, components, who sat where,
        illegal decisions and choices, games played."""
        seat_idx = np.broadcast_to(np.arange(P), (G, P))
        _add_group(self.seat, seat_idx, win, score, rank, comp, P)
        _add_group(self.strat, strat, win, score, rank, comp, len(self.strategies))
        self.seat_strategy += np.bincount((seat_idx * len(self.strategies) + strat).ravel(),
                                          minlength=P * len(self.strategies)).reshape(P, -1)
        self.score_by_seat.add(seat_idx, score_raw)
        self.score_by_strategy.add(strat, score_raw)
        S = len(self.strategies)
        if "illegal" in self.columns:
            ill = grid("illegal", np.int64)
            for name, w in (("illegal", ill), ("illegal_rows", (ill > 0).astype(np.int64))):
                cur = getattr(self, name)
                cur = np.zeros(S, np.int64) if cur is None else np.pad(cur, (0, S - len(cur)))
                cur += np.bincount(strat.ravel(), weights=w.ravel(), minlength=S).astype(np.int64)
                setattr(self, name, cur)
        if "choices" in self.columns:
            cur = np.zeros(S, np.int64) if self.choices is None else np.pad(
                self.choices, (0, S - len(self.choices)))
            cur += np.bincount(strat.ravel(), weights=grid("choices", np.int64).ravel(),
                               minlength=S).astype(np.int64)
            self.choices = cur
        present = np.zeros((G, S), dtype=bool)
        present[np.repeat(np.arange(G), P), strat.ravel()] = True
        self.strat.games += present.sum(axis=0)
        self.seat.games += G

    def _add_game_shape(self, grid, G: int) -> None:
        """How games end (end reason counts) and how long they last, per end reason."""
        reason = grid("end_reason", np.int64)[:, 0] if "end_reason" in self.columns else np.zeros(G, np.int64)
        for r, k in zip(*np.unique(reason, return_counts=True)):
            self.end_reason_counts[int(r)] = self.end_reason_counts.get(int(r), 0) + int(k)
        if self.meta.get("length_column"):
            length = grid(self.meta["length_column"])[:, 0]
            nr = int(reason.max()) + 1 if reason.size else 1
            if reason.min() < 0:
                raise ValueError("negative end_reason codes")
            self.length.grow_groups(nr)
            self.length.add(reason, length)

    def _add_finishes(self, strat, win, score, rank, G: int, P: int) -> None:
        """Margin of victory, shared wins, head-to-head and the finishing orders of the
        strategies (Plackett-Luce input)."""
        S = len(self.strategies)
        srt = np.sort(score, axis=1)
        self.margin.add(np.zeros(G, np.int64), srt[:, -1] - srt[:, -2])
        shared = win.max(axis=1) < 1.0 - 1e-9
        self.tie_games += int(shared.sum())
        self.all_tied_games += int(np.all(rank == rank[:, :1], axis=1).sum())
        self._add_head_to_head(strat, rank, G, P)
        base = S * P
        if base ** P < 2 ** 62:
            key = np.zeros(G, dtype=np.int64)
            for p in range(P - 1, -1, -1):
                key = key * base + strat[:, p] * P + np.clip(rank[:, p] - 1, 0, P - 1)
            for k, c in zip(*np.unique(key, return_counts=True)):
                t = []
                k = int(k)
                for _ in range(P):
                    t.append(((k % base) // P, k % P + 1))
                    k //= base
                t = tuple(t)
                self.orders[t] = self.orders.get(t, 0) + int(c)

    def _strategy_grid(self, table, order, G: int, P: int) -> np.ndarray:
        """(games x seats) global strategy codes of a chunk (its dictionary column mapped to
        this aggregation's names)."""
        import pyarrow as pa

        if "strategy" in self.columns:
            chunk = table.column("strategy")
            if isinstance(chunk.type, pa.DictionaryType):
                chunk = chunk.combine_chunks()
                codes = self._strategy_codes(chunk.dictionary.to_pylist())
                local = chunk.indices.to_numpy(zero_copy_only=False).astype(np.int64)
                strat = codes[local]
            else:
                names = chunk.to_pylist()
                uniq = sorted(set(map(str, names)))
                codes = self._strategy_codes(uniq)
                strat = codes[np.searchsorted(np.asarray(uniq), np.asarray(list(map(str, names))))]
            if order is not None:
                strat = strat[order]
            strat = strat.reshape(G, P)
        else:
            self._strategy_codes(["(all)"])
            strat = np.zeros((G, P), dtype=np.int64)
        return strat

    def _add_cards(self, grid, win, score, strat, G: int, P: int) -> None:
        """Per card of every declared type: rows and games that took it, their win and score
        sums, takers per strategy, when it was taken (bit columns, vectorised)."""
        flat_win = win.ravel()
        flat_score = score.ravel()
        flat_strat = strat.ravel()
        fixed_seats = bool(np.all(strat == strat[:1]))     # each seat one strategy in this chunk
        flat_sq = flat_score * flat_score
        for card, sums in zip(self.meta["cards"], self.cards):
            bits = mask_bits(grid(card["mask_column"], np.int64).ravel(), sums.n)   # rows x cards, 0/1
            # einsum's own loops, not BLAS: no thread pool to oversubscribe on a busy machine
            per_seat = bits.reshape(G, P, sums.n).sum(axis=0, dtype=np.int64)       # seats x cards
            sums.taken += per_seat.sum(axis=0)
            # a card several seats can hold in one game (a marker, an action) counts once per game
            sums.games_taken += bits.reshape(G, P, sums.n).max(axis=1).sum(axis=0, dtype=np.int64)
            sums.win_taken += np.einsum("r,rc->c", flat_win, bits)
            sums.score_taken += np.einsum("r,rc->c", flat_score, bits)
            sums.score_sq_taken += np.einsum("r,rc->c", flat_sq, bits)
            if fixed_seats:
                for p in range(P):
                    sums.taken_by_strategy[strat[0, p]] += per_seat[p]
            else:
                for k in np.unique(flat_strat):
                    sums.taken_by_strategy[k] += bits[flat_strat == k].sum(axis=0, dtype=np.int64)
            if sums.days is not None:
                for k, dcol in enumerate(card["day_columns"]):
                    first = 16 * k
                    if first >= sums.n:
                        break
                    width = min(16, sums.n - first)
                    d = grid(dcol, np.int64).ravel()
                    nz = d != 0
                    sums.days[first:first + width, 0] += int(d.size - nz.sum())  # rows taking none
                    nib = mask_nibbles(d[nz])[:, :width]                         # rows x 16, 0..15
                    idx = nib.astype(np.int32) + (np.arange(width, dtype=np.int32) * 16)
                    sums.days[first:first + width] += np.bincount(
                        idx.ravel(), minlength=width * 16).reshape(width, 16)

    def _add_head_to_head(self, strat, rank, G: int, P: int) -> None:
        """Pooled head-to-head counts (seat pairs where strategy a finished ahead of b, ties
        1/2; seat pairs) and their per-game sums of squares, for the interval over games."""
        S = len(self.strategies)
        ahead_g = np.zeros(G * S * S)
        pairs_g = np.zeros(G * S * S)
        base = np.arange(G) * (S * S)
        for i in range(P):
            for j in range(P):
                if i == j:
                    continue
                ahead = (rank[:, i] < rank[:, j]) + 0.5 * (rank[:, i] == rank[:, j])
                key = base + strat[:, i] * S + strat[:, j]
                ahead_g += np.bincount(key, weights=ahead, minlength=G * S * S)
                pairs_g += np.bincount(key, minlength=G * S * S)
        a = ahead_g.reshape(G, S, S)
        b = pairs_g.reshape(G, S, S)
        self.h2h_ahead += a.sum(axis=0)
        self.h2h_pairs += b.sum(axis=0)
        self.h2h_aa += (a * a).sum(axis=0)
        self.h2h_bb += (b * b).sum(axis=0)
        self.h2h_ab += (a * b).sum(axis=0)
        self.h2h_games += (b > 0).sum(axis=0)


def mask_bits(mask: np.ndarray, n: int) -> np.ndarray:
    """(rows, n) uint8 0/1: bit c of each 64-bit mask (vectorised: bytes unpacked in C)."""
    b = np.ascontiguousarray(mask, dtype=np.int64).view(np.uint8).reshape(-1, 8)
    if not _LITTLE:
        b = b[:, ::-1]
    return np.unpackbits(b, axis=1, bitorder="little")[:, :n]


def mask_nibbles(packed: np.ndarray) -> np.ndarray:
    """(rows, 16) uint8: the sixteen 4-bit fields of each 64-bit value, lowest first."""
    b = np.ascontiguousarray(packed, dtype=np.int64).view(np.uint8).reshape(-1, 8)
    if not _LITTLE:
        b = b[:, ::-1]
    out = np.empty((b.shape[0], 16), dtype=np.uint8)
    out[:, 0::2] = b & 15
    out[:, 1::2] = b >> 4
    return out


_LITTLE = sys.byteorder == "little"


def _grow2(a: np.ndarray, rows: int, cols: int) -> np.ndarray:
    out = np.zeros((rows, cols), dtype=a.dtype)
    out[:a.shape[0], :a.shape[1]] = a
    return out


def _add_group(g: GroupSums, idx, win, score, rank, comp, n_groups) -> None:
    i = np.asarray(idx).ravel()
    bc = lambda w: np.bincount(i, weights=np.asarray(w, dtype=float).ravel(), minlength=n_groups)  # noqa: E731
    g.n += np.bincount(i, minlength=n_groups)
    g.win += bc(win)
    g.score += bc(score)
    g.score_sq += bc(score * score)
    g.rank += bc(rank)
    s = np.asarray(score, dtype=float).ravel()
    lo = np.full(n_groups, np.inf)
    hi = np.full(n_groups, -np.inf)
    np.minimum.at(lo, i, s)
    np.maximum.at(hi, i, s)
    g.score_min = np.minimum(g.score_min, lo)
    g.score_max = np.maximum(g.score_max, hi)
    for c in range(comp.shape[2]):
        g.components[:, c] += bc(comp[:, :, c])


def new_aggregates(players: int, meta: dict, columns: list) -> RunAggregates:
    agg = RunAggregates(players=players, meta=meta, columns=list(columns))
    nc = len(meta["score_components"])
    agg.seat = GroupSums.zeros(players, nc)
    agg.strat = GroupSums.zeros(0, nc)
    agg.seat_strategy = np.zeros((players, 0), dtype=np.int64)
    agg.score_by_seat = IntHistogram(players)
    agg.score_by_strategy = IntHistogram(0)
    agg.margin = IntHistogram(1)
    agg.length = IntHistogram(1)
    agg.h2h_ahead = np.zeros((0, 0))
    agg.h2h_pairs = np.zeros((0, 0))
    agg.h2h_aa = np.zeros((0, 0))
    agg.h2h_bb = np.zeros((0, 0))
    agg.h2h_ab = np.zeros((0, 0))
    agg.h2h_games = np.zeros((0, 0))
    for card in meta["cards"]:
        n = len(card["names"])
        agg.cards.append(CardSums(
            n=n, taken=np.zeros(n, dtype=np.int64), games_taken=np.zeros(n, dtype=np.int64),
            win_taken=np.zeros(n),
            score_taken=np.zeros(n), score_sq_taken=np.zeros(n),
            taken_by_strategy=np.zeros((0, n), dtype=np.int64),
            days=np.zeros((n, 16), dtype=np.int64) if card["day_columns"] else None))
    return agg


def aggregate_logs(logs, players: int, meta: dict, available: list[str] | None = None,
                   progress: bool = False, manifest_strategies: list | None = None) -> RunAggregates:
    """Stream the logs once, a chunk at a time, reading only the needed columns. `logs` is
    handed in (sim.run_folder.Logs: `columns`, `len()`, `tables(columns)`): this layer reads
    no file."""
    available = list(logs.columns) if available is None else available
    cols = needed_columns(meta, available)
    read = list(dict.fromkeys(["game", "seat", *cols]))
    agg = new_aggregates(players, meta, cols)
    if manifest_strategies:  # stable order: the seats' strategies as the manifest lists them
        agg._strategy_codes(list(dict.fromkeys(str(s) for s in manifest_strategies)))
    bar = None
    if progress:
        try:
            from tqdm import tqdm
            bar = tqdm(total=len(logs), unit="chunk", desc="report", file=sys.stderr,
                       dynamic_ncols=True)
        except ImportError:  # pragma: no cover
            bar = None
    try:
        for table in logs.tables(read):
            agg.add_table(table)
            agg.files += 1
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    return agg
