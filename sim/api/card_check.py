"""The run report's card check and the takers' response check: games played again from a
run folder (the facade's job: analysis/ measures what is handed to it, docs/architecture.md).

    worth_check(run_dir, analysis, games)     each flagged or never-taken card's
                                              counterfactual advantage from the run's own
                                              games (the estimand: docs/card-worth.md)
    response_check(run_dir, analysis, games)  the flagged cards played again at value -1 and
                                              +1 on the run's own seeds (`balance cards
                                              --takers`, a description of play)
    checker(games)                            worth_check bound to `games`, as
                                              analysis.balance.analyse_folder takes it
"""
from __future__ import annotations

import functools
import os

from analysis.card_check import flagged_cards, log_columns, measure, worth_cards
from analysis.findings import Note
from sim.cards import REPORT_CHECK_CARDS, REPORT_CHECK_GAMES, plan_steps

# sampled decisions per checked card at most (one per game)
REPORT_WORTH_STATES = 300


def checker(games: int):
    """The report's card check for analyse_folder(card_checker=...): None when games is 0."""
    return functools.partial(worth_check, games=int(games)) if games > 0 else None


def read_config_logs(dirs: list, meta: dict) -> list:
    """The logs of each folder of `dirs`, the columns the card measures read."""
    from sim.runner import read_logs
    return [read_logs(d, columns=log_columns(meta)) for d in dirs]


def response_check(run_dir: str, analysis, games: int = REPORT_CHECK_GAMES,
                   max_cards: int = REPORT_CHECK_CARDS, workers: int | None = 1,
                   progress: bool = False, cards: list | None = None) -> tuple[dict, list]:
    """Play the flagged cards of a run at value -1 and +1 on the run's first `games` seeds
    (same strategies, players, components, overrides, variants), in a temporary folder that
    is removed afterwards. Returns ({type: {card: step}}, notes). `cards`: [(type, index)]
    to check instead of the flagged ones. One worker by default: a report stays a report."""
    import tempfile

    from analysis.metadata import game_metadata
    from sim.assign import with_assignment
    from sim.designer import run_configs
    from sim.run_folder import open_run

    want = list(cards) if cards is not None else flagged_cards(analysis)
    if not want or games <= 0 or analysis.solo:  # solo flags compare scores, not take rates
        return {}, []
    notes = []
    folder = open_run(run_dir)
    manifest, spec = folder.manifest, folder.spec
    if spec is None:
        return {}, []
    if manifest.get("user_strategies"):
        return {}, [Note("card-check-user-strategies")]
    meta = game_metadata(spec, folder.components)
    if not any(c.get("value_path") for c in meta.get("cards", [])):
        return {}, []
    if len(want) > max_cards:
        notes.append(Note("card-check-limited", {"checked": max_cards, "flagged": len(want)}))
        want = want[:max_cards]
    comp = manifest["components"]
    copy = os.path.join(run_dir, comp["copy"])
    run_ov = tuple(comp.get("overrides") or ())
    vf = manifest.get("variants_file")
    variants = os.path.join(run_dir, vf["copy"]) if vf else None

    def load(ov):
        return spec.load_components(copy, run_ov + tuple(ov))

    steps, configs = plan_steps(meta, load, only=set(want))
    if not steps:
        return {}, notes
    n = int(min(games, int(manifest.get("games") or games)))
    players = int(manifest["players"])
    names = list(manifest["strategy_names"])
    # the choices the run assigned at random stay assigned in its replays
    assigned = dict((manifest.get("config") or {}).get("assigned") or {})
    with tempfile.TemporaryDirectory(prefix="balance-cardcheck-") as tmp:
        cfgs = [{"dir": os.path.join(tmp, f"point-{k:02d}"),
                 "prepared": with_assignment(spec, spec.prepare(load(ov), players, names,
                                                                int(manifest["seed"]), variants),
                                             assigned)}
                for k, ov in enumerate(configs)]
        run_configs(spec, cfgs, n, int(manifest["seed"]), tmp, workers=workers,
                    progress=progress)
        logs = read_config_logs([c["dir"] for c in cfgs], meta)
    measure(steps, logs, meta)
    out: dict = {}
    for s in steps:
        out.setdefault(s["type"], {})[s["card"]] = s
    return out, notes



def worth_check(run_dir: str, analysis, games: int = REPORT_CHECK_GAMES,
                max_cards: int = REPORT_CHECK_CARDS, workers: int | None = 1,
                progress: bool = False, cards: list | None = None) -> tuple[dict, list]:
    """The counterfactual advantage of the run's flagged and never-taken cards (worth_cards):
    decision states sampled from the run's own first `games` games (same seed, players,
    components, overrides, variants: game g is the run's game g), at most REPORT_WORTH_STATES
    per card, each played on taking the card and taking the seat's best alternative. Returns
    ({type: {card: worth row (analysis.card_worth.worth_table)}}, notes). Not checked: a run
    that assigned a choice at random (the kernels replay chosen choices), plays user or
    search strategies, or a game not on the forward-model template. Played in a process of
    its own: a crash of the compiled kernels (Lowlands at 4 players, docs/card-worth.md
    "Known problems") costs the check, never the report. One worker."""
    from joblib.externals.loky import ProcessPoolExecutor
    from joblib.externals.loky.process_executor import TerminatedWorkerError

    from sim.run_folder import open_run

    want = list(cards) if cards is not None else worth_cards(analysis)
    if not want or games <= 0 or analysis.solo:
        return {}, []
    folder = open_run(run_dir)
    manifest, spec = folder.manifest, folder.spec
    if spec is None or spec.model() is None or manifest.get("assigned"):
        return {}, []
    if manifest.get("user_strategies"):
        return {}, [Note("card-check-user-strategies")]
    try:
        # an executor of its own, shut down after: loky's reusable one is joblib's too, and
        # one made outside joblib lacks what joblib's next Parallel expects of it
        with ProcessPoolExecutor(max_workers=1) as executor:
            return executor.submit(_worth_check, spec, manifest, run_dir, want, games,
                                   max_cards).result()
    except TerminatedWorkerError:
        return {}, [Note("card-check-crashed", {"game": manifest.get("game")})]


def _worth_check(spec, manifest: dict, run_dir: str, want: list, games: int,
                 max_cards: int) -> tuple[dict, list]:
    import numpy as np

    from analysis.card_worth import select_states, worth_table
    from analysis.metadata import game_metadata
    from sim import counterfactual as cf
    from sim.game_api import ToolkitError

    comp = manifest["components"]
    copy = os.path.join(run_dir, comp["copy"])
    vf = manifest.get("variants_file")
    variants = os.path.join(run_dir, vf["copy"]) if vf else None
    components = spec.load_components(copy, tuple(comp.get("overrides") or ()))
    meta = game_metadata(spec, components)
    types = [c for c in meta.get("cards", []) if c.get("mask_column")
             and any(t == c["type"] for t, _ in want)]
    want = [(t, c) for t, c in want if any(x["type"] == t for x in types)]
    if not want:
        return {}, []
    notes = []
    if len(want) > max_cards:
        notes.append(Note("card-check-limited", {"checked": max_cards, "flagged": len(want)}))
        want = want[:max_cards]
    prepared = spec.prepare(components, int(manifest["players"]),
                            list(manifest["strategy_names"]), int(manifest["seed"]), variants)
    try:
        cf.check_players(prepared)
    except ToolkitError:
        return {}, [Note("card-check-user-strategies")]
    n = int(min(games, int(manifest.get("games") or games)))
    masks = [c["mask_column"] for c in types]
    scan = cf.scan(spec, prepared, masks, 0, n, workers=1)
    index = {c["type"]: t for t, c in enumerate(types)}
    keep = np.zeros(len(scan), bool)
    for ty, c in want:
        keep |= (scan[:, 3] == index[ty]) & (scan[:, 4] == c)
    chosen = select_states(scan[keep], REPORT_WORTH_STATES, int(manifest["seed"]))
    configs = np.zeros((len(chosen), 1), np.int64)
    if len(chosen):
        outcomes, valid = cf.play_states(spec, prepared, [components], chosen, configs, masks,
                                         1, workers=1)
    else:
        outcomes, valid = np.zeros((0, 1, 1, 4)), np.zeros(0, np.int64)
    rows = worth_table(scan, chosen, outcomes, valid, types, {}, seed=int(manifest["seed"]))
    out: dict = {}
    for row in rows:
        if (row["type"], row["card"]) in want:
            row["scan_games"] = n
            out.setdefault(row["type"], {})[row["card"]] = row
    return out, notes
