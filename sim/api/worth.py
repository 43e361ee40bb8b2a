"""`card_worth`: every card's worth by counterfactual play (docs/card-worth.md).

    r = card_worth("sunset", players=4, strategies="greedy", scan_games=2000, states=1000)
    r.table        # one row per card: chosen rate, advantage in win share and score, parity
    r.verdicts     # the sentences (reports/card_worth.py)
    r.report(path) # HTML + Markdown

sim/counterfactual.py samples and plays, analysis/card_worth.py measures, reports/card_worth.py
words it. The CLI: `balance cards GAME --counterfactual` (scripts/cli_cards.py).
"""
from __future__ import annotations

import os
import time
from collections import Counter
from dataclasses import dataclass, field

from sim import folder_lock
from sim.api.common import check_common, echo_to, overrides, strategy_list
from sim.api.folders import claim_root, result_root
from sim.game_api import ToolkitError

# plain `balance cards` stays quick (a few minutes at most on 2 cores for the shipped games,
# warm kernels): intervals of about +/-6 pp of win share; --games / --states / --playons for
# narrower ones (docs/card-worth.md, "Design of the sampling")
DEFAULT_SCAN_GAMES = 1000
DEFAULT_STATES = 300
DEFAULT_PLAYONS = 1
DEFAULT_OFFSETS = (-2, 2)
MOST_PLAYONS = 8      # times `playons` at most, for a card with few sampled states


@dataclass
class WorthResult:
    """.rows (dicts, analysis/card_worth.py), .table (DataFrame), .verdicts (lines)."""
    path: str
    rows: list
    header: dict
    seconds: float
    notes: list = field(default_factory=list)

    @property
    def table(self):
        """One row per card, tidy: each (estimate, low, high) of a row (`win`, `score`,
        `slope`) as X, X_low, X_high columns, the values played as text ("4, 6, 8")."""
        import pandas as pd
        from analysis.tables import tidy
        return tidy(pd.DataFrame([{**r, "values_played": ", ".join(
            f"{v:g}" for v in r.get("values_played") or [])} for r in self.rows]))

    @property
    def verdicts(self) -> list:
        from reports.card_worth import verdict_lines
        return verdict_lines(self.rows)

    def document(self):
        from reports.card_worth import worth_document
        return worth_document(self.rows, {**self.header, "notes": self.notes})

    def report(self, path: str | None = None, formats=("html", "md")) -> dict:
        from reports.designer import write_document
        return write_document(self.document(), path or os.path.join(self.path, "report"),
                              formats)


def _offsets(values) -> tuple:
    if values is None:
        return DEFAULT_OFFSETS
    if isinstance(values, str):
        text = values.strip()
        if text in ("", "none"):
            return ()
        try:
            return tuple(float(v) for v in text.split(","))
        except ValueError:
            raise ToolkitError(f"--offsets: comma-separated numbers, got {values!r}") from None
    return tuple(float(v) for v in values)


def _num(v: float):
    return int(v) if float(v).is_integer() else float(v)


def _value_configs(spec, load, cards: list, offsets: tuple) -> tuple[list, dict, dict]:
    """(components list: [current, then one per (card, offset) the file accepts],
    {(t, c): [config index per w]}, {(t, c): [value per w]})."""
    comps = [load(())]
    idx, vals = {}, {}
    for t, card in enumerate(cards):
        for c in range(len(card["names"])):
            v = float(card["values"][c]) if c < len(card.get("values", [])) else None
            idx[(t, c)], vals[(t, c)] = [0], [v]
            if not card.get("value_path") or v is None:
                continue
            for d in offsets:
                w = v + d
                try:
                    comps.append(load((f"{card['value_path'].format(i=c)}={_num(w)}",)))
                except ToolkitError:
                    continue          # a value the component file refuses (e.g. below 0)
                idx[(t, c)].append(len(comps) - 1)
                vals[(t, c)].append(w)
    return comps, idx, vals


def _check_suggestions(rows: list, cards: list, load) -> None:
    """A suggested value must be one the component file accepts: the nearest whole value for
    a card whose values are whole. Otherwise the suggestion is dropped and the row says why
    (`parity_refused`: the value tried; `parity_nearest`: the nearest whole value is the
    card's own)."""
    paths = {c["type"]: c.get("value_path") for c in cards}
    whole = {c["type"]: all(float(v).is_integer() for v in c.get("values", [])) for c in cards}
    for row in rows:
        s = row.get("suggested")
        if s is None or not paths.get(row["type"]):
            continue
        v = int(round(s)) if whole[row["type"]] else s
        if float(v) == row["value"]:
            row["suggested"], row["parity_nearest"] = None, v   # parity within half a point
            continue
        try:
            load((f"{paths[row['type']].format(i=row['card'])}={_num(v)}",))
        except ToolkitError:
            row["suggested"], row["parity_refused"] = None, v
            continue
        row["suggested"] = float(v)


def sample_text(scan_games: int, states: int, playons: int) -> str:
    """The sample size in words (every card-worth output says it)."""
    default = (int(scan_games), int(states), int(playons)) == (
        DEFAULT_SCAN_GAMES, DEFAULT_STATES, DEFAULT_PLAYONS)
    return (f"sample: {int(scan_games):,} games scanned, at most {int(states):,} sampled "
            f"decisions per card, {int(playons)} play-on(s) per state and branch"
            + (" (the defaults of `balance cards`, chosen to stay quick: intervals of about "
               "+/-6 pp of win share; --games, --states and --playons narrow them)"
               if default else ""))


@dataclass
class WorthMeasure:
    """What `measure_worth` found: .rows (analysis/card_worth.py worth_table), .scan (the scan
    rows), .chosen (the sampled states), .valid (per state: 1 replayed), .scan_seconds."""
    rows: list
    scan: object
    chosen: object
    valid: object
    scan_seconds: float


def measure_worth(spec, prepared, cards: list, load, scan_games: int, states: int,
                  playons: int, offsets: tuple, seed: int, workers=None,
                  progress: bool = False, echo=None) -> WorthMeasure:
    """Every card of `cards` (report_metadata() card entries with a mask column): its
    advantage by counterfactual play on states sampled from `scan_games` games of `prepared`
    (built-in players), at most `states` per card, `playons` per state; its parity value from
    its value moved by each of `offsets` (`load(overrides)`: the Components with those
    overrides). The one measurement behind `card_worth` and the ladder's card verdicts."""
    import numpy as np
    from analysis.card_worth import playons_for, select_states, worth_table
    from sim import counterfactual as cf
    say = echo_to(echo)
    t0 = time.perf_counter()
    cf.check_players(prepared)
    names = [str(n) for n in getattr(prepared, "strategy_names", ())]
    masks = [c["mask_column"] for c in cards]
    comps, cfg_idx, cfg_vals = _value_configs(spec, load, cards, offsets)
    say(f"card worth: scanning {scan_games:,} games of {', '.join(dict.fromkeys(names))} "
        f"({prepared.n_players} players) for decisions where a card is an option...")
    scan = cf.scan(spec, prepared, masks, 0, int(scan_games), workers=workers,
                   progress=progress)
    t_scan = time.perf_counter() - t0
    chosen = select_states(scan, int(states), seed)
    width = max(len(v) for v in cfg_idx.values())
    configs = np.full((len(chosen), width), -1, np.int64)
    for r, (t, c) in enumerate(zip(chosen[:, 3], chosen[:, 4])):
        ix = cfg_idx[(int(t), int(c))]
        configs[r, :len(ix)] = ix
    keys = [(int(t), int(c)) for t, c in zip(chosen[:, 3], chosen[:, 4])]
    counts = Counter(keys)
    per_card = playons_for(counts, int(states), int(playons), int(playons) * MOST_PLAYONS)
    k_state = np.array([per_card[k] for k in keys], np.int64)
    say(f"card worth: {len(chosen):,} sampled states, {int(k_state.sum()):,} play-ons "
        f"({playons} per state, more for a card with fewer states), under {width} value(s) "
        f"per card, 2 branches each...")
    outcomes, valid = cf.play_states(spec, prepared, comps, chosen, configs, masks,
                                     k_state, workers=workers, progress=progress)
    rows = worth_table(scan, chosen, outcomes, valid, cards, cfg_vals, seed=seed)
    _check_suggestions(rows, cards, load)
    return WorthMeasure(rows, scan, chosen, valid, t_scan)


@folder_lock.scoped
def card_worth(game: str, players: int | None = None, strategies=None, seed: int = 1,
               set=None, out: str | None = None, *, only=None, components=None,
               variants=None, workers=None, scan_games: int = DEFAULT_SCAN_GAMES,
               states: int = DEFAULT_STATES, playons: int = DEFAULT_PLAYONS, offsets=None,
               progress: bool = False, echo=None, overwrite: bool = False,
               assign=None) -> WorthResult:
    """Every card's advantage by counterfactual play on states sampled from `scan_games`
    games of these players (at most `states` per card), `playons` play-ons per state; the
    parity value from the card's value moved by each of `offsets` on the same states.
    The result folder follows the sweep's rules (designer.json, --overwrite)."""
    from sim import counterfactual as cf
    from sim.registry import get_game

    say = echo_to(echo)
    t0 = time.perf_counter()
    spec = get_game(game)
    set_ = overrides(set)
    n_players = check_common(spec, players, scan_games, seed, components, variants,
                             workers=workers)
    problems = [f"--{k}: must be at least 1, got {v}" for k, v in
                (("states", states), ("playons", playons)) if int(v) < 1]
    if problems:
        raise ToolkitError(problems)
    if assign:
        raise ToolkitError("--assign: a card assigned at random is not a choice, so its "
                           "advantage over the seat's alternative is not defined; its effect "
                           "under random assignment is the takers' share (`balance cards "
                           "--takers --assign ...`, or `balance run --assign ...`)")
    offs = _offsets(offsets)
    names = strategy_list(spec, strategies)
    base = spec.load_components(components, tuple(set_))
    meta = getattr(spec, "report_metadata", lambda c: {})(base) or {}
    cards = _cards_measured(spec, meta, only)
    prepared = spec.prepare(base, n_players, names, seed, variants)
    cf.check_players(prepared)

    def load(ov):
        return spec.load_components(components, tuple(set_) + tuple(ov))

    root, _ = result_root(out, spec, "worth")
    plan = {"kind": "worth", "game": spec.name, "players": n_players, "strategies": names,
            "only": only if only is None or isinstance(only, str) else ",".join(only),
            "games": int(scan_games), "states": int(states), "playons": int(playons),
            "offsets": list(offs), "seed": seed, "components": components,
            "overrides": list(set_), "variants": variants}
    claim_root(root, plan, overwrite)
    m = measure_worth(spec, prepared, cards, load, scan_games, states, playons, offs, seed,
                      workers=workers, progress=progress, echo=say)
    rows, scan, chosen, valid, t_scan = (m.rows, m.scan, m.chosen, m.valid, m.scan_seconds)
    seconds = time.perf_counter() - t0
    header, notes = _worth_header(spec, n_players, names, seed, scan_games, states, playons,
                                  offs, set_, base, scan, chosen, valid, t_scan, seconds,
                                  workers)
    _record_worth(root, plan, rows, chosen, seconds)
    return WorthResult(path=root, rows=rows, header=header, seconds=seconds, notes=notes)


def _cards_measured(spec, meta: dict, only) -> list:
    """The game's cards with a mask column (what counterfactual play can measure), those of
    `only` (types, a list or comma text); one ToolkitError line for an unknown type."""
    cards = [c for c in meta.get("cards", []) if c.get("mask_column")]
    types = [c["type"] for c in cards]
    if only is not None:
        want = [t.strip() for t in (only if isinstance(only, str) else ",".join(only))
                .split(",") if t.strip()]
        bad = [t for t in want if t not in types]
        if bad or not want:
            raise ToolkitError(f"--only: unknown card type(s) {', '.join(bad) or '(none)'}; "
                               f"this game's: {', '.join(types) or '(none)'}")
        cards = [c for c in cards if c["type"] in want]
    if not cards:
        raise ToolkitError(f"{spec.name}: the game declares no card with a mask column "
                           f"(report_metadata() cards)")
    return cards


def _worth_header(spec, n_players, names, seed, scan_games, states, playons, offs, set_, base,
                  scan, chosen, valid, t_scan, seconds, workers):
    """(what was played and measured, the notes of the sample and the run time)."""
    header = {"game": spec.name, "title": spec.title, "players": n_players,
              "strategies": names, "seed": seed, "scan_games": int(scan_games),
              "states_per_card": int(states), "playons": int(playons),
              "most_playons": MOST_PLAYONS,
              "offsets": list(offs), "overrides": list(set_),
              "components": base.path, "decisions": int(len(scan)),
              "sampled": int(len(chosen)), "scan_seconds": round(t_scan, 1),
              "seconds": round(seconds, 1), "workers": workers or os.cpu_count()}
    notes = [sample_text(scan_games, states, playons),
             f"run time {seconds:.0f} s (scan {t_scan:.0f} s; workers: "
             f"{workers or os.cpu_count()})"]
    lost = int((valid != 1).sum())
    if lost:
        notes.append(f"{lost:,} of {len(valid):,} sampled states could not be replayed to the "
                     f"scanned decision and were left out (a defect to report)")
    return header, notes


def _record_worth(root: str, plan: dict, rows: list, chosen, seconds: float) -> None:
    """The result folder's plan with the result: what a resume and the report read."""
    from sim import designer
    designer.write_plan(root, {**plan, "result": {
        "seconds": round(seconds, 1), "sampled": int(len(chosen)),
        "cards": [{k: r[k] for k in ("type", "card", "name", "value", "verdict", "suggested")}
                  | {"win": list(r["win"]), "score": list(r["score"]),
                     "chosen_rate": r["chosen_rate"], "states": r["states"]}
                  for r in rows]}})


def advantage_at_values(spec, prepared, card: dict, cid: int, value_components: list,
                        scan_games: int, states: int, playons: int, seed: int,
                        workers=None, progress: bool = False) -> dict:
    """Card `cid` of type `card` (a report_metadata() card entry with a mask column): its
    sampled states from `scan_games` games of `prepared` (at most `states`, one per game),
    each played on under every Components of `value_components` (the same states, the same
    chance). Returns the per-state differences {"win", "score"} [state, value], how often it
    was an option and chosen (a description of play), the states sampled and left out."""
    import numpy as np
    from analysis.card_worth import select_states
    from sim import counterfactual as cf
    cf.check_players(prepared)
    masks = [card["mask_column"]]
    rows = cf.scan(spec, prepared, masks, 0, int(scan_games), workers=workers,
                   progress=progress)
    rows = rows[rows[:, 4] == int(cid)] if len(rows) else rows
    chosen = select_states(rows, int(states), seed)
    n_values = len(value_components)
    configs = np.tile(np.arange(n_values, dtype=np.int64), (len(chosen), 1))
    out = {"options": int(len(rows)),
           "chosen_rate": float(rows[:, 5].mean()) if len(rows) else float("nan"),
           "sampled": int(len(chosen))}
    if len(chosen) == 0:
        out.update(win=np.zeros((0, n_values)), score=np.zeros((0, n_values)), lost=0)
        return out
    o, valid = cf.play_states(spec, prepared, value_components, chosen, configs, masks,
                              int(playons), workers=workers, progress=progress)
    o = o[valid == 1]
    out.update(win=np.nanmean(o[..., 0] - o[..., 1], axis=2),
               score=np.nanmean(o[..., 2] - o[..., 3], axis=2), lost=int((valid != 1).sum()))
    return out
