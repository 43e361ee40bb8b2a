"""A run's balance analysis: tables, verdicts and flags, from one streaming pass over its
logs (analysis.aggregate). Verdicts and flags are data (analysis/findings.py `Finding`);
reports/findings.py writes them as sentences.

    analyse_folder(folder) -> BalanceAnalysis   (folder: a checked run folder, sim/run_folder.py)

Sections (see docs/report.md for every definition): seat fairness (win share per seat with a
Wilson interval, a test against the fair share 1/players with Holm's correction across
seats), strategy strength (win shares, head-to-head matrix, Plackett-Luce ratings), scores
(distributions, components, margin of victory, ties), game shape (length, how games end),
cards (for every card type the game declares: how often taken, win share when taken against
when not, against the other cards of its type, points delivered, when taken) and flags
(everything that stands out beyond its uncertainty).

Seats are shown numbered from 1 (log column `seat` + 1).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from analysis.aggregate import RunAggregates, aggregate_logs
from analysis.cards import taker_gap
from analysis.findings import Finding, Note
from analysis.metadata import component_name, game_metadata, normalise, value_text
from analysis.tables import dominant, head_to_head, win_table
from analysis.tables import ratings as rating_table
from analysis.ratings import RATING_PRIOR  # noqa: F401  (the one prior, kept for callers)
from sim.stats import (games_to_halve, holm, mean_difference, newcombe_difference,
                            proportion_test, wilson_interval, z_value)
from sim.game_api import ToolkitError

ALPHA = 0.05
CARD_MIN_WIN_EFFECT = 0.05        # flag a card only if its win-share gap is >= 5 points
CARD_VERDICTS = 3                 # card verdicts shown first: the strongest few each way
CARD_MIN_SCORE_EFFECT_SD = 0.10   # solo: a score gap of >= 0.1 standard deviation
TIE_FLAG = 0.2                    # flag shared wins when at least a fifth of the games end so


@dataclass
class CardSection:
    type: str
    label: str
    time_unit: str
    table: pd.DataFrame
    days: np.ndarray | None          # cards x 16 (0 = not taken)
    never_taken: list
    findings: list = field(default_factory=list)   # its verdicts (Finding), in reading order
    unit: str = "points"             # what a value is (analysis/metadata.py value_text)
    kind: str = "card"               # "card" or "outcome" (not a card: its own section)


@dataclass
class BalanceAnalysis:
    run_dir: str
    manifest: dict
    meta: dict
    notes: list
    confidence: float
    n_games: int
    players: int
    solo: bool
    strategies: list
    seats: pd.DataFrame
    strategy_table: pd.DataFrame
    single_strategy: bool
    strategies_fixed_to_seats: bool
    h2h: pd.DataFrame | None
    h2h_pairs: pd.DataFrame | None
    ratings: pd.DataFrame | None
    rating_note: Note | None     # how the ratings were fitted, or why not (reports/notes.py)
    score_hist_seat: tuple           # (values, counts seats x values)
    score_hist_strategy: tuple       # (values, counts strategies x values)
    components: pd.DataFrame | None  # strategies x components: mean points
    component_seats: pd.DataFrame | None
    margin: dict
    tie_rate: float | None
    all_tied_rate: float | None
    length: dict | None
    end_reasons: pd.DataFrame
    cards: list
    findings: list                   # the verdicts, in reading order (analysis/findings.py)
    flags: list                      # the findings that stand out (Finding), flag-table order
    aggregates: RunAggregates | None = None
    breakdowns: list = field(default_factory=list)   # analysis/breakdowns.py
    # seat fairness is measurable when every seat plays one strategy or the strategies were
    # rotated over the seats (each in each seat equally often); otherwise a seat's win share
    # mixes the seat with its strategy: no seat verdict is given (seat_note says why)
    seats_rotated: bool = False
    seat_confounded: bool = False
    seating: Finding | None = None   # kind "seating": rotated or confounded (reports say why)
    illegal: pd.DataFrame | None = None  # strategies with illegal decisions (replaced by option 0)
    h2h_low: pd.DataFrame | None = None   # the head-to-head interval (analysis/tables.py)
    h2h_high: pd.DataFrame | None = None
    # (the game's shipped component file, the run's copy) as text, None when not known: what
    # the report's "What was played" compares (analysis/played.py run_component_changes)
    component_texts: tuple | None = None


# --- helpers ------------------------------------------------------------------------------
# the one formatting module (sim/formatting.py), under the short names the report
# modules use
from sim.formatting import num  # noqa: E402,F401
from sim.formatting import p_text as fmt_p  # noqa: E402
from sim.formatting import share as pct  # noqa: E402
from sim.formatting import share_interval as pct_interval  # noqa: E402


def seat_label(seat: int) -> str:
    return f"Seat {int(seat) + 1}"


def _hist_stats(values: np.ndarray, counts: np.ndarray) -> dict:
    n = int(counts.sum())
    if n == 0:
        return {"n": 0, "mean": float("nan"), "sd": float("nan"), "min": float("nan"),
                "p10": float("nan"), "median": float("nan"), "p90": float("nan"), "max": float("nan")}
    v = values.astype(float)
    mean = float((v * counts).sum() / n)
    var = float(((v - mean) ** 2 * counts).sum() / max(n - 1, 1))
    cum = np.cumsum(counts)
    q = lambda f: float(v[np.searchsorted(cum, f * n, side="left")])  # noqa: E731
    nz = np.nonzero(counts)[0]
    return {"n": n, "mean": mean, "sd": math.sqrt(var), "min": float(v[nz[0]]), "p10": q(0.1),
            "median": q(0.5), "p90": q(0.9), "max": float(v[nz[-1]])}


# --- the analysis of one run folder ---------------------------------------------------------
def analyse_folder(folder, progress: bool = False, metadata: dict | None = None,
                   confidence: float = 0.95, card_checker=None) -> BalanceAnalysis:
    """Analyse a checked run folder (sim.run_folder.RunFolder, opened by the caller: its
    manifest, its logs, the run's own component file); this layer reads no file.
    `metadata` overrides what the game declares (tests, unknown games).
    `card_checker(run_dir, analysis, progress=...)` -> (results, notes): the flagged and
    never-taken cards get their counterfactual advantage (the facade's
    sim/api/card_check.py `checker(games)`: it plays games, which this layer does not), and
    their verdicts say it; None: the verdicts say it was not measured."""
    run_dir = folder.path
    manifest = folder.manifest
    notes = list(folder.notes)
    metadata_from_game = metadata is None
    if metadata is None:
        # the run's own component file (its checked copy), never the game's default
        spec, comp = folder.spec, folder.components
        if spec is None:
            notes.append(Note("unregistered-game", {"game": manifest.get("game")}))
        metadata = game_metadata(spec, comp)
    available = folder.logs.columns
    for need in ("game", "seat"):
        if need not in available:
            raise ToolkitError(f"{run_dir}: the logs have no '{need}' column")
    if "score" not in available and "win" not in available:
        raise ToolkitError(f"{run_dir}: the logs have neither a 'score' nor a 'win' column")
    meta, meta_notes = normalise(metadata, available)
    notes.extend(meta_notes)
    players = int(manifest.get("players") or 0)
    if players < 1:
        raise ToolkitError(f"{run_dir}: the manifest gives no player count")
    try:
        agg = aggregate_logs(folder.logs, players, meta, available, progress=progress,
                             manifest_strategies=manifest.get("strategy_names"))
    except ValueError as exc:
        raise ToolkitError(f"{run_dir}: the logs cannot be read ({exc})") from None
    if agg.n_games == 0:
        raise ToolkitError(f"{run_dir}: the logs hold no games")
    first_notes = list(notes)
    analysis = derive(agg, manifest, meta, notes, confidence, run_dir)
    if card_checker is not None and metadata_from_game:
        response, check_notes = card_checker(run_dir, analysis, progress=progress)
        if response:
            analysis = derive(agg, manifest, meta, first_notes + check_notes, confidence,
                              run_dir, response)
        else:
            analysis.notes.extend(check_notes)
    analysis.component_texts = folder.component_texts()
    from analysis.breakdowns import compute, declared, headline_tests
    by_value, per_strategy, bd_notes = declared(metadata, available, players)
    analysis.notes.extend(bd_notes)
    analysis.breakdowns = compute(folder.logs, by_value, per_strategy, confidence)
    # nothing to test alone or when every game ended all tied (every share is 1/players)
    testable = not analysis.solo and analysis.all_tied_rate != 1.0
    from analysis.metadata import start_declaration
    _headline_verdicts(analysis, headline_tests(analysis.breakdowns, players if testable else 1,
                                                ALPHA),
                       start_declaration(metadata, available, players))
    return analysis


def _headline_verdicts(a: BalanceAnalysis, heads: list, start: dict | None = None) -> None:
    """Verdict lines (and flags) for the game's headline breakdowns, tested by
    analysis.breakdowns.headline_tests as their grouping allows: a grouping fixed before play
    (the start position) is favoured / disadvantaged / fair; one made after the game (a route,
    a chosen window) an association; a game-level outcome its share of games. The fairness
    question (the start position when the game declares it leads) opens the verdicts; the seat
    verdicts then come second, after the game's note on why; other headline questions follow
    the seat and strategy lines. `start`: the game's start declaration
    (analysis.metadata.start_declaration); without a start column its note follows the seat
    verdicts (the seat number is the start position, or there is none)."""
    fair = 1.0 / a.players
    halve = games_to_halve(a.n_games)
    lead, later = [], []
    # a grouping by a choice the run assigned at random is fixed before play: an experiment
    randomised = set(assigned_columns(a.manifest))
    for b in heads:
        lines = lead if b.fairness else later
        unit = f" ({b.unit})" if b.unit else ""
        for r in b.table.itertuples():
            subject = f"{b.label}{unit} {r.value}"
            if b.grouping == "game":   # the same for every seat: its share of games
                lines.append(Finding("outcome", subject, "", "game_share", r.game_share,
                                     r.game_low, r.game_high,
                                     detail={"column": b.column, "games": int(round(r.games)),
                                             "mean_score": r.mean_score}))
                continue
            kind = ("headline" if b.grouping == "before" or b.column in randomised
                    else "association")
            ok = r.verdict not in ("fair", "no association")
            f = Finding(kind, subject, str(r.verdict), "win_share",
                        r.win_share, r.win_low, r.win_high, fair, p_holm=r.p_holm,
                        **(_pp_effect(r.win_share, r.win_low, r.win_high, fair, halve)
                           if ok else {}),
                        detail={"column": b.column})
            lines.append(f)
            if ok and kind == "headline":   # an association is described, never flagged
                a.flags.append(f)
    if lead:
        notes = [b.seat_note for b in heads if b.fairness and b.seat_note]
        a.findings[:0] = lead + [Finding("seat-order", "seats",
                                         detail={"note": notes[0] if notes else ""})]
    elif start and start.get("column") is None and start.get("note") and not a.solo:
        at = next((i + 1 for i, f in reversed(list(enumerate(a.findings)))
                   if f.kind in ("seat", "seating", "all-tied")), 0)
        a.findings.insert(at, Finding("start-note", "seats", start["how"],
                                      detail={"note": start["note"]}))
    a.findings.extend(later)


def _pp_effect(share, lo, hi, fair, halve) -> dict:
    """A flag's effect: percentage points of win share beyond the fair share."""
    return {"effect": share - fair, "effect_low": lo - fair, "effect_high": hi - fair,
            "unit": "pp", "games_to_halve": halve}


def assigned_choices(manifest: dict) -> list:
    """The choices the run assigned at random (manifest `assigned`, sim/assign.py)."""
    return [a.get("choice") for a in (manifest or {}).get("assigned") or []
            if isinstance(a, dict)]


def assigned_columns(manifest: dict) -> list:
    """The log columns that record a choice the run assigned at random."""
    return [c for a in (manifest or {}).get("assigned") or [] if isinstance(a, dict)
            for c in a.get("columns", [])]


# --- derivation ---------------------------------------------------------------------------
@dataclass
class _Derivation:
    """What every section of `derive` reads; the sections add to `verdicts` and `flags`."""
    agg: RunAggregates
    manifest: dict
    meta: dict
    confidence: float
    P: int
    G: int
    solo: bool
    fair: float
    names: list
    S: int
    used: np.ndarray
    z: float
    halve: int
    seat_strats: list
    fixed: bool
    used_names: list
    single: bool
    rotated: bool
    confounded: bool
    seating: Finding | None
    verdicts: list = field(default_factory=list)
    flags: list = field(default_factory=list)


def _derivation(agg: RunAggregates, manifest: dict, meta: dict, confidence: float) -> _Derivation:
    """Who sat where: one strategy per seat, rotated, or confounded (seat_note says which)."""
    P = agg.players
    solo = P == 1
    names = list(agg.strategies)
    S = len(names)
    used = agg.strat.n > 0
    seat_strats = [[names[s] for s in range(S) if agg.seat_strategy[p, s] > 0] for p in range(P)]
    fixed = all(len(x) == 1 for x in seat_strats)
    used_names = [names[s] for s in range(S) if used[s]]
    single = len(used_names) == 1
    rotated = not single and not solo and _balanced_over_seats(agg.seat_strategy[:, used])
    confounded = not single and not solo and not rotated
    return _Derivation(agg, manifest, meta, confidence, P, agg.n_games, solo, 1.0 / P, names, S,
                       used, z_value(confidence), games_to_halve(agg.n_games), seat_strats,
                       fixed, used_names, single, rotated, confounded,
                       _seating(fixed, rotated, confounded, seat_strats, manifest))


def _derive_seats(d: _Derivation):
    """Seat fairness: win shares, the test against the fair share (Holm), the verdicts."""
    agg, P, G, solo, fair, confidence = d.agg, d.P, d.G, d.solo, d.fair, d.confidence
    z, halve, verdicts, flags = d.z, d.halve, d.verdicts, d.flags
    seat_strats, used_names = d.seat_strats, d.used_names
    rotated, confounded, seating = d.rotated, d.confounded, d.seating
    n = agg.seat.n.astype(float)
    wt = win_table(agg.seat, range(P), confidence)          # the one win-share definition
    share, lo, hi = (wt[c].to_numpy() for c in ("win_share", "win_low", "win_high"))
    zs, p = proportion_test(agg.seat.win, n, fair) if not solo else (np.full(P, np.nan),) * 2
    p_holm = holm(p)
    mean = agg.seat.score / np.maximum(n, 1)
    var = np.maximum(agg.seat.score_sq - n * mean * mean, 0) / np.maximum(n - 1, 1)
    seats = pd.DataFrame({
        "seat": np.arange(P), "label": [seat_label(i) for i in range(P)],
        "strategies": [", ".join(x) for x in seat_strats], "games": agg.seat.n,
        "wins": agg.seat.win, "win_share": share, "win_low": lo, "win_high": hi,
        "fair": fair, "z": zs, "p": p, "p_holm": p_holm,
        "score_mean": mean, "score_sd": np.sqrt(var), "score_se": np.sqrt(var / np.maximum(n, 1)),
        "rank_mean": agg.seat.rank / np.maximum(n, 1),
    })
    seats["verdict"] = ""
    all_tied_rate = agg.all_tied_games / G if not solo else None
    tie_rate = agg.tie_games / G if not solo else None

    if solo:
        st = _hist_stats(agg.score_by_seat.values, agg.score_by_seat.counts[0])
        se = st["sd"] / math.sqrt(st["n"]) if st["n"] > 1 else float("nan")
        verdicts.append(Finding("solo", used_names[0] if used_names else "one strategy", "solo",
                                "mean_score", st["mean"], st["mean"] - z * se,
                                st["mean"] + z * se, detail={"min": st["min"], "max": st["max"]}))
        seats.loc[:, "verdict"] = "solo"
    elif all_tied_rate == 1.0:
        verdicts.append(Finding("all-tied", "seats", "all tied", detail={"players": P}))
        seats.loc[:, "verdict"] = "all tied"
    elif confounded:
        # the caution IS the verdict: a seat's share here is as much its strategy's strength
        seats.loc[:, "verdict"] = "confounded"
        verdicts.append(seating)
    else:
        for i in range(P):
            ok = not math.isnan(p_holm[i]) and p_holm[i] < ALPHA
            word = ("favoured" if share[i] > fair else "disadvantaged") if ok else "fair"
            seats.loc[i, "verdict"] = word
            f = Finding("seat", seat_label(i), word, "win_share", share[i], lo[i], hi[i], fair,
                        p_holm=p_holm[i],
                        **(_pp_effect(share[i], lo[i], hi[i], fair, halve) if ok else {}))
            verdicts.append(f)
            if ok:
                flags.append(f)
        if rotated:
            verdicts.append(seating)
    return seats, tie_rate, all_tied_rate


def _derive_strategies(d: _Derivation):
    """Strategy strength: win shares, head-to-head, ratings, dominance."""
    agg, P, solo, fair, names, S = d.agg, d.P, d.solo, d.fair, d.names, d.S
    used, confidence, halve, verdicts, flags = d.used, d.confidence, d.halve, d.verdicts, d.flags
    used_names = d.used_names
    single, rotated, confounded = d.single, d.rotated, d.confounded
    sn = agg.strat.n.astype(float)
    st_t = win_table(agg.strat, names, confidence)
    s_share, s_lo, s_hi = (st_t[c].to_numpy() for c in ("win_share", "win_low", "win_high"))
    s_mean = agg.strat.score / np.maximum(sn, 1)
    s_var = np.maximum(agg.strat.score_sq - sn * s_mean * s_mean, 0) / np.maximum(sn - 1, 1)
    sz, sp = (proportion_test(agg.strat.win, sn, fair) if not solo and not single
              else (np.full(S, np.nan), np.full(S, np.nan)))
    sp_holm = holm(np.where(used, sp, np.nan))
    strategy_table = pd.DataFrame({
        "strategy": names, "seats": ["every seat, rotated" if rotated else
                                     ", ".join(seat_label(p) for p in range(P)
                                               if agg.seat_strategy[p, s] > 0) for s in range(S)],
        "rows": agg.strat.n, "wins": agg.strat.win, "win_share": s_share,
        "win_low": s_lo, "win_high": s_hi, "fair": fair, "p_holm": sp_holm,
        "score_mean": s_mean, "score_sd": np.sqrt(s_var),
        "score_se": np.sqrt(s_var / np.maximum(sn, 1)), "rank_mean": agg.strat.rank / np.maximum(sn, 1),
    })[used].reset_index(drop=True)

    h2h = h2h_pairs = h2h_low = h2h_high = None
    ratings = None
    rating_note = None
    if solo:
        rating_note = Note("ratings-solo")
    elif single:
        rating_note = Note("ratings-single", {"strategy": used_names[0]})
        verdicts.append(Finding("single-strategy", used_names[0]))
    else:
        idx = [s for s in range(S) if used[s]]
        # the one head-to-head definition (pooled, interval over games) and the one rating fit
        h2h, h2h_low, h2h_high, h2h_pairs, _ = head_to_head(agg, idx, used_names, confidence)
        ratings, rating_note = rating_table(agg, idx, used_names, confidence)
        order = np.argsort(-strategy_table["win_share"].to_numpy(), kind="stable")
        # confounded: the seats were not rotated, so a strategy's share includes its seats'
        conf = {"seats": "", "confounded": bool(confounded)}
        for k in order:
            r = strategy_table.iloc[k]
            ok = not math.isnan(r.p_holm) and r.p_holm < ALPHA
            word = ("above" if r.win_share > fair else "below") if ok else "level with"
            verdicts.append(Finding("strategy", r.strategy, word, "win_share", r.win_share,
                                    r.win_low, r.win_high, fair, p_holm=r.p_holm,
                                    detail={**conf, "seats": r.seats}))
        dom = dominant(h2h, h2h_low, h2h_high)
        if dom is not None:
            name, worst, wlo, whi = dom
            top = strategy_table.set_index("strategy").loc[name]
            f = Finding("dominance", name, "dominates", "win_share", top.win_share, top.win_low,
                        top.win_high, fair, p_holm=top.p_holm,
                        **_pp_effect(top.win_share, top.win_low, top.win_high, fair, halve),
                        detail={**conf, "closest": worst, "closest_low": wlo,
                                "closest_high": whi})
            verdicts.append(f)
            flags.append(f)
        for k in range(len(strategy_table)):
            r = strategy_table.iloc[k]
            if (not math.isnan(r.p_holm) and r.p_holm < ALPHA and r.win_high < fair / 4):
                flags.append(Finding("strategy", r.strategy, "almost never wins", "win_share",
                                     r.win_share, r.win_low, r.win_high, fair, p_holm=r.p_holm,
                                     **_pp_effect(r.win_share, r.win_low, r.win_high, fair,
                                                  halve),
                                     detail={**conf, "seats": r.seats}))
    return strategy_table, h2h, h2h_pairs, h2h_low, h2h_high, ratings, rating_note


def _derive_scores(d: _Derivation, tie_rate, all_tied_rate):
    """Scores: components per strategy and seat, margin of victory, shared wins."""
    agg, P, G, solo, used, confidence = d.agg, d.P, d.G, d.solo, d.used, d.confidence
    halve, verdicts, flags, used_names = d.halve, d.verdicts, d.flags, d.used_names
    n = agg.seat.n.astype(float)
    sn = agg.strat.n.astype(float)
    meta = d.meta
    comps = meta["score_components"]
    components = component_seats = None
    if comps:
        components = pd.DataFrame(agg.strat.components[used] / sn[used][:, None],
                                  index=used_names, columns=comps)
        component_seats = pd.DataFrame(agg.seat.components / np.maximum(n, 1)[:, None],
                                       index=[seat_label(i) for i in range(P)], columns=comps)
    margin = {}
    if not solo:
        margin = _hist_stats(agg.margin.values, agg.margin.counts[0])
        margin["values"] = agg.margin.values
        margin["counts"] = agg.margin.counts[0]
        if all_tied_rate != 1.0:
            tlo, thi = (float(x) for x in wilson_interval(agg.tie_games, G, confidence))
            flagged = tie_rate is not None and tie_rate >= TIE_FLAG
            f = Finding("ties", "shared wins", "shared" if tie_rate else "none", "tie_share",
                        tie_rate, tlo, thi,
                        **({"effect": tie_rate, "effect_low": tlo, "effect_high": thi,
                            "unit": "share", "games_to_halve": halve} if flagged else {}),
                        detail={"median_lead": margin["median"]})
            verdicts.append(f)
            if flagged:
                flags.append(f)
    return components, component_seats, margin


def _derive_shape(d: _Derivation):
    """Game shape: how games end, how long they last."""
    agg, G, confidence, verdicts = d.agg, d.G, d.confidence, d.verdicts
    meta = d.meta
    reason_names = meta["end_reason_names"]
    rn = lambda k: (reason_names[k] if 0 <= k < len(reason_names) else f"reason {k}")  # noqa: E731
    keys = sorted(agg.end_reason_counts)
    counts = np.array([agg.end_reason_counts[k] for k in keys], dtype=float)
    elo, ehi = wilson_interval(counts, np.full(len(keys), G), confidence)
    end_reasons = pd.DataFrame({"code": keys, "reason": [rn(k) for k in keys], "games": counts.astype(np.int64),
                                "share": counts / G, "low": elo, "high": ehi})
    length = None
    if meta.get("length_column") and agg.length.counts.shape[1]:
        vals = agg.length.values
        total = agg.length.counts.sum(axis=0)
        length = {"column": meta["length_column"], "unit": meta.get("length_unit") or "",
                  "values": vals, "counts": total, "by_reason": {}, **_hist_stats(vals, total)}
        for k in keys:
            if k < agg.length.counts.shape[0]:
                length["by_reason"][rn(k)] = _hist_stats(vals, agg.length.counts[k])
                length["by_reason"][rn(k)]["counts"] = agg.length.counts[k]
    if length or len(end_reasons):
        verdicts.append(Finding(
            "shape", "games", statistic="mean_length" if length else "",
            value=length["mean"] if length else float("nan"),
            low=length["p10"] if length else float("nan"),
            high=length["p90"] if length else float("nan"),
            detail={"unit": (length["unit"] or length["column"]) if length else "",
                    "end_reasons": [(r.reason, r.share) for r in end_reasons.itertuples()]}))
    return end_reasons, length


def _derive_cards(d: _Derivation, card_response: dict | None) -> list:
    """Cards: one section per declared card type (its verdicts join the run's)."""
    agg, G, solo, names, used, confidence = d.agg, d.G, d.solo, d.names, d.used, d.confidence
    halve, verdicts, flags = d.halve, d.verdicts, d.flags
    meta, manifest = d.meta, d.manifest
    cards = []
    for card, sums in zip(meta["cards"], agg.cards):
        sec = _card_section(card, sums, agg, G, solo, confidence, names, used, halve, flags,
                            response=(card_response or {}).get(card["type"]),
                            game=str(manifest.get("game") or ""),
                            assigned=card["type"] in assigned_choices(manifest))
        cards.append(sec)
        verdicts.extend(sec.findings)
    return cards


def _derive_illegal(d: _Derivation):
    """Illegal decisions: said first, flagged."""
    agg, verdicts, flags = d.agg, d.verdicts, d.flags
    illegal = illegal_table(agg)
    for r in (illegal.itertuples() if illegal is not None else ()):
        f = Finding("illegal", r.strategy, "illegal decisions", "illegal_decisions",
                    float(r.decisions), detail={"decisions": int(r.decisions),
                                                "seat_games": int(r.seat_games),
                                                "of_seat_games": int(r.of_seat_games)})
        verdicts.insert(0, f)
        flags.insert(0, f)
    return illegal


def derive(agg: RunAggregates, manifest: dict, meta: dict, notes: list,
           confidence: float = 0.95, run_dir: str = "",
           card_response: dict | None = None) -> BalanceAnalysis:
    """`card_response`: {card type: {card index: its counterfactual worth row
    (sim/api/card_check.py worth_check)}} for the cards whose advantage was measured.
    The sections run in reading order; each adds its verdicts and flags."""
    d = _derivation(agg, manifest, meta, confidence)
    seats, tie_rate, all_tied_rate = _derive_seats(d)
    strategy_table, h2h, h2h_pairs, h2h_low, h2h_high, ratings, rating_note = \
        _derive_strategies(d)
    components, component_seats, margin = _derive_scores(d, tie_rate, all_tied_rate)
    end_reasons, length = _derive_shape(d)
    cards = _derive_cards(d, card_response)
    illegal = _derive_illegal(d)
    P, G, solo, used = d.P, d.G, d.solo, d.used
    used_names, single, fixed = d.used_names, d.single, d.fixed
    rotated, confounded, seating = d.rotated, d.confounded, d.seating
    verdicts, flags = d.verdicts, d.flags
    # order: seat/strategy verdicts first (as built), card verdicts after
    return BalanceAnalysis(
        illegal=illegal,
        run_dir=run_dir, manifest=manifest, meta=meta, notes=notes, confidence=confidence,
        n_games=G, players=P, solo=solo, strategies=used_names, seats=seats,
        strategy_table=strategy_table, single_strategy=single, strategies_fixed_to_seats=fixed,
        seats_rotated=rotated, seat_confounded=confounded, seating=seating,
        h2h=h2h, h2h_pairs=h2h_pairs, h2h_low=h2h_low, h2h_high=h2h_high, ratings=ratings, rating_note=rating_note,
        score_hist_seat=(agg.score_by_seat.values, agg.score_by_seat.counts),
        score_hist_strategy=(agg.score_by_strategy.values, agg.score_by_strategy.counts[used]),
        components=components, component_seats=component_seats, margin=margin,
        tie_rate=tie_rate, all_tied_rate=all_tied_rate, length=length, end_reasons=end_reasons,
        cards=cards, findings=verdicts, flags=flags, aggregates=agg)


ROTATION_TOLERANCE = 0.01   # a strategy's seat-games may differ by 1% across seats (a partial run)


def _balanced_over_seats(counts: np.ndarray) -> bool:
    """seats x strategies row counts: does each strategy sit in each seat equally often?
    Exactly so in a complete run with --rotate-seats; within ROTATION_TOLERANCE in a partial
    one (every chunk holds every seating within one game)."""
    if counts.size == 0 or counts.shape[1] < 2:
        return False
    c = counts.astype(float)
    return bool(np.all(c.min(axis=0) > 0) and
                np.all(c.max(axis=0) - c.min(axis=0) <= ROTATION_TOLERANCE * c.mean(axis=0)))


def _seating(fixed: bool, rotated: bool, confounded: bool, seat_strats: list,
             manifest: dict) -> Finding | None:
    """Whether the seat shares can be read as seat fairness (reports/findings.py says why in
    words): rotated, confounded (each seat kept its strategy, or the strategies were spread
    unevenly), or None (one strategy in every seat: nothing to say)."""
    if rotated:
        n_rot = len((manifest.get("config") or {}).get("rotation") or [])
        return Finding("seating", "seats", "rotated", detail={"seatings": n_rot})
    if not confounded:
        return None
    return Finding("seating", "seats", "confounded",
                   detail={"fixed": bool(fixed),
                           "seat_strategies": [(seat_label(p), x[0] if x else "")
                                               for p, x in enumerate(seat_strats)]})


def illegal_table(agg: RunAggregates) -> pd.DataFrame | None:
    """Strategies whose decisions were not all legal: decisions replaced, seat-games affected
    (None when every decision was legal or the logs have no `illegal` column)."""
    if agg.illegal is None or not agg.illegal.any():
        return None
    rows = [(agg.strategies[s], int(agg.illegal[s]), int(agg.illegal_rows[s]), int(agg.strat.n[s]))
            for s in range(len(agg.illegal)) if agg.illegal[s] > 0]
    return pd.DataFrame(rows, columns=["strategy", "decisions", "seat_games", "of_seat_games"])


def _card_section(card, sums, agg: RunAggregates, G: int, solo: bool, confidence: float,
                  names, used, halve: int, flags: list, response: dict | None = None,
                  game: str = "", assigned: bool = False) -> CardSection:
    """One card type: its table (numbers per card), then its findings (flags and verdicts).
    `assigned`: the run assigned this choice at random (its comparisons are experiments)."""
    table, gap = _card_table(card, sums, agg, G, confidence, names, used)
    findings = _card_findings(card, table, gap, agg, G, solo, halve, flags, response, game,
                              assigned)
    never = [card["names"][c] for c in range(sums.n) if table["taken"][c] == 0]
    return CardSection(type=card["type"], label=card["label"], time_unit=card["time_unit"],
                       table=table, days=sums.days, never_taken=never, findings=findings,
                       unit=card.get("unit", "points"), kind=card.get("kind", "card"))


def _card_table(card, sums, agg: RunAggregates, G: int, confidence: float, names, used):
    """(the card table, the taker gap of analysis.cards.taker_gap): per card how often taken,
    its takers' win share and score against the others', when taken, by whom."""
    nrows = agg.n_rows
    taken = sums.taken.astype(float)
    values = np.asarray(card["values"], dtype=float)
    total_win = float(agg.seat.win.sum())
    total_score = float(agg.seat.score.sum())
    not_n = nrows - taken
    win_t, win_n = sums.win_taken, total_win - sums.win_taken
    wt, wt_lo, wt_hi = (win_t / np.where(taken > 0, taken, np.nan),
                        *wilson_interval(win_t, taken, confidence))
    wn, wn_lo, wn_hi = (win_n / np.where(not_n > 0, not_n, np.nan),
                        *wilson_interval(win_n, not_n, confidence))
    eff, eff_lo, eff_hi = newcombe_difference(win_t, taken, win_n, not_n, confidence)
    # the verdicts' baseline: the takers of the other cards of the same type (analysis/cards.py,
    # the one definition the sweep, tune and `balance cards` use too)
    gap = taker_gap(win_t, taken, confidence)
    peers_n = gap["base_n"]
    rel, rel_lo, rel_hi = gap["gap"], gap["gap_low"], gap["gap_high"]
    sc_t = sums.score_taken / np.where(taken > 0, taken, np.nan)
    sc_n = (total_score - sums.score_taken) / np.where(not_n > 0, not_n, np.nan)
    sd, sd_lo, sd_hi = mean_difference(sums.score_taken, sums.score_sq_taken, taken,
                                       sums.score_taken.sum() - sums.score_taken,
                                       sums.score_sq_taken.sum() - sums.score_sq_taken, peers_n,
                                       confidence)
    mean_day = np.full(sums.n, np.nan)
    if sums.days is not None:
        dv = np.arange(16)
        tk = sums.days[:, 1:].sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            mean_day = (sums.days[:, 1:] * dv[1:]).sum(axis=1) / np.where(tk > 0, tk, np.nan)
    tbs = sums.taken_by_strategy[:, :]
    top_taker = []
    for c in range(sums.n):
        if taken[c] == 0:
            top_taker.append("")
            continue
        col = tbs[:, c] / np.maximum(agg.strat.n, 1)
        s = int(np.argmax(np.where(used[:len(col)], col, -1)))
        top_taker.append(f"{names[s]} ({pct(col[s])} of its games)")
    table = pd.DataFrame({
        "card": np.arange(sums.n), "name": card["names"], "value": values,
        "taken": sums.taken, "taken_share_games": sums.games_taken / G,
        "win_taken": wt, "win_taken_low": wt_lo, "win_taken_high": wt_hi,
        "win_not": wn, "win_not_low": wn_lo, "win_not_high": wn_hi,
        "effect": eff, "effect_low": eff_lo, "effect_high": eff_hi,
        "vs_peers": rel, "vs_peers_low": rel_lo, "vs_peers_high": rel_hi,
        "score_taken": sc_t, "score_not": sc_n,
        "score_vs_peers": sd, "score_vs_peers_low": sd_lo, "score_vs_peers_high": sd_hi,
        # points delivered only for values that are points (not tokens, tool numbers ...)
        "points_delivered": values * taken if card.get("unit", "points") == "points" else np.nan,
        "points_per_game": (values * taken / G if card.get("unit", "points") == "points"
                            else np.nan),
        "mean_day": mean_day, "top_taker": top_taker,
    })
    table["flag"] = ""
    return table, gap


def _card_findings(card, table: pd.DataFrame, gap: dict, agg: RunAggregates, G: int,
                   solo: bool, halve: int, flags: list, response: dict | None,
                   game: str, assigned: bool = False) -> list:
    """The card type's findings: each card that over- or under-performs beyond its interval
    and the minimum effect (its flag; the strongest few each way are verdicts), the cards
    never taken; the table's `flag` column is filled in. Flags are appended to `flags`."""
    label = card["label"]
    singular = label[:-1] if label.endswith("s") else label
    never_word = "never happened" if card.get("kind") == "outcome" else "never taken"
    nrows = agg.n_rows
    total_score = float(agg.seat.score.sum())
    total_sq = float(agg.seat.score_sq.sum())
    taken = table["taken"].to_numpy(float)
    values = table["value"].to_numpy(float)
    wt, wt_lo, wt_hi = (table[c].to_numpy() for c in ("win_taken", "win_taken_low",
                                                      "win_taken_high"))
    rel, rel_lo, rel_hi = (table[c].to_numpy() for c in ("vs_peers", "vs_peers_low",
                                                         "vs_peers_high"))
    sd, sd_lo, sd_hi = (table[c].to_numpy() for c in ("score_vs_peers", "score_vs_peers_low",
                                                      "score_vs_peers_high"))
    sc_t = table["score_taken"].to_numpy()
    never = [card["names"][c] for c in range(len(table)) if taken[c] == 0]
    notes = []
    flagged = []
    score_sd = math.sqrt(max(total_sq / nrows - (total_score / nrows) ** 2, 0.0)) if nrows else 0.0
    for c in range(len(table)):
        nm = card["names"][c]
        # what the card is, for the sentence: "(9 points)" (analysis/metadata.py value_text)
        about = {"value_text": value_text(card.get("unit", "points"), values[c]),
                 "label": label, "game": game, "assigned": assigned, "choice": card["type"],
                 "name": nm, "type": card["type"]}
        subject = component_name(nm, card["type"])   # "Barn (tile)"
        if taken[c] == 0:
            table.loc[c, "flag"] = never_word
            flags.append(Finding("card", subject, never_word, "taken", 0.0,
                                 detail={**about, "games": G,
                                         "response": (response or {}).get(c)}))
            continue
        if solo:
            e, l, h = sd[c], sd_lo[c], sd_hi[c]
            big = score_sd > 0 and abs(e) >= CARD_MIN_SCORE_EFFECT_SD * score_sd
            unit = "points"
            stat = dict(statistic="takers_score", value=sc_t[c], reference=sc_t[c] - e)
        else:
            e, l, h = rel[c], rel_lo[c], rel_hi[c]
            big = abs(e) >= CARD_MIN_WIN_EFFECT
            unit = "pp"
            stat = dict(statistic="takers_win_share", value=wt[c], low=wt_lo[c], high=wt_hi[c],
                        reference=gap["base"][c], reference_low=gap["base_low"][c],
                        reference_high=gap["base_high"][c])
            # its counterfactual advantage (sim/api/card_check.py worth_check), if measured
            about["response"] = (response or {}).get(c)
        if math.isnan(l) or not big:
            continue
        if l > 0:
            word = "over-performs"
        elif h < 0:
            word = "under-performs"
        else:
            continue
        table.loc[c, "flag"] = word
        f = Finding("card", subject, word, **stat, effect=e, effect_low=l, effect_high=h,
                    unit=unit, games_to_halve=halve, detail={**about, "solo": solo})
        flags.append(f)
        flagged.append(f)
    for sign, word in ((1, "over-perform"), (-1, "under-perform")):
        side = sorted([f for f in flagged if f.effect * sign > 0], key=lambda f: -abs(f.effect))
        notes.extend(side[:CARD_VERDICTS])
        if len(side) > CARD_VERDICTS:
            notes.append(Finding("card-more", label, word, "cards", len(side) - CARD_VERDICTS))
    if never:
        notes.append(Finding("card-never", label, never_word, "cards", len(never),
                             detail={"names": never, "of": len(table), "games": G}))
    if not notes:
        notes.append(Finding("card-none", label, detail={"singular": singular,
                                                         "of": len(table)}))
    return notes
