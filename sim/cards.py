"""Plays cards one point up and one point down on common random numbers, to answer the causal
card questions (analysis/card_check.py measures; this module only plans, so that the engine
layer imports no analysis):

    `balance cards GAME`   every card whose value the game declares as a component field
                           (report_metadata() cards with a `value_path`) at value -1 and +1:
                           the sensitivity table (scripts/cli_cards.py)
    `balance report RUN`   the flagged cards of a run only, a bounded number of games
                           (response_check): does the flag come from the card's value?

Every configuration is an ordinary run with the SAME seed, so game k of each starts from the
same shuffles; only the one card value differs (`--set` overrides, sim/overrides.py). A value
one point down that the component file refuses (e.g. below 0) is replaced by the current
value: the step is then one-sided (current -> +1), and the table says so.
"""
from __future__ import annotations

import os

from sim.game_api import ToolkitError

# `balance report` bound: every flagged card (at most 40, strongest first) at value -1 and +1
# on the run's first 500 seeds: at most 80 x 500 = 40,000 games, one worker. On common random
# numbers a card the players ignore gives a take-rate change of exactly 0 in every game, so
# a few hundred games answer "do the players respond"; `balance cards` gives the full table.
REPORT_CHECK_GAMES = 500
REPORT_CHECK_CARDS = 40


def _num(v):
    v = float(v)
    return int(v) if v.is_integer() else v


def plan_steps(meta: dict, load, only: set | None = None) -> tuple[list, list]:
    """(steps, configs). `load(overrides)` loads the component file with extra overrides
    (raises ToolkitError when a value is refused). configs[0] is the current values (no extra
    override); each step names its low and high configuration."""
    configs = [[]]
    index = {(): 0}
    steps = []

    def cfg(ov: list) -> int:
        key = tuple(ov)
        if key not in index:
            index[key] = len(configs)
            configs.append(list(ov))
        return index[key]

    for card in meta.get("cards", []):
        path_t = card.get("value_path")
        if not path_t:
            continue
        for i, value in enumerate(card.get("values", [])):
            if only is not None and (card["type"], i) not in only:
                continue
            path = path_t.format(i=i)
            v = _num(value)
            ends = []
            for w in (v - 1, v + 1):
                ov = [f"{path}={w}"]
                try:
                    load(ov)
                    ends.append((w, ov))
                except ToolkitError:
                    ends.append((v, []))
            (lo, lo_ov), (hi, hi_ov) = ends
            if hi == lo:
                continue  # neither step is allowed: nothing to measure
            steps.append({"type": card["type"], "label": card["label"], "card": i,
                          "name": card["names"][i], "value": v,
                          "unit": card.get("unit", "points"), "path": path,
                          "low": lo, "high": hi, "low_config": cfg(lo_ov),
                          "high_config": cfg(hi_ov)})
    return steps, configs
