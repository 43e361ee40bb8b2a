"""Measuring the card steps that sim/cards.py plans: the takers' sensitivity table of
`balance cards --takers` (`measure`, from logs handed in), and which cards the run report's
card check looks at (`flagged_cards`, `worth_cards`). The plays themselves (the response
check, each card's counterfactual advantage from the run's own games) are the facade's:
sim/api/card_check.py, so that this layer takes frames and returns findings
(docs/architecture.md, tests/test_layering.py).
"""
from __future__ import annotations



def measure(steps: list, configs_logs: list, meta: dict, confidence: float = 0.95) -> list:
    """Per step: the paired change per point (take rate, takers' win share, gap to the
    baseline) and the gap at the current values (configs_logs[0]). Adds keys to each step."""
    from analysis.cards import card_sums, paired_step, per_game, points_to_parity, \
        response_word, taker_gap
    cards = {c["type"]: c for c in meta.get("cards", [])}
    per = {}

    def pg(k, t):
        if (k, t) not in per:
            per[(k, t)] = per_game(configs_logs[k], cards[t])
        return per[(k, t)]

    base_gap = {t: taker_gap(*card_sums(configs_logs[0], c), confidence) for t, c in cards.items()}
    base_pg = {t: pg(0, t) for t in cards}
    for s in steps:
        t, c = s["type"], s["card"]
        step = paired_step(pg(s["low_config"], t), pg(s["high_config"], t), c,
                           float(s["high"] - s["low"]), confidence)
        g = base_gap[t]
        s.update({
            "games": int(len(base_pg[t]["games"])),
            "take_rate": float(base_pg[t]["any"][:, c].mean()),
            "share": float(g["share"][c]), "base": float(g["base"][c]),
            "gap": (float(g["gap"][c]), float(g["gap_low"][c]), float(g["gap_high"][c])),
            "take": step["take"], "share_slope": step["share"], "gap_slope": step["gap"],
            "response": response_word(step["take"][1], step["take"][2]),
            "values": f"{s['low']} and {s['high']}",
        })
        for k in ("take", "share_slope", "gap_slope"):
            s[k] = tuple(float(x) for x in s[k])
        p = points_to_parity(s["gap"], s["gap_slope"])
        s["to_parity"] = None if p is None else float(p)
    return steps


def log_columns(meta: dict) -> list:
    return ["game", "seat", "win"] + [c["mask_column"] for c in meta.get("cards", [])]


# ---------------------------------------------------------------------------------------
# balance report: check the flagged cards of a run
# ---------------------------------------------------------------------------------------
def flagged_cards(analysis) -> list:
    """[(card type, index)] of the over/under-performing cards, strongest first."""
    out = []
    for sec in analysis.cards:
        t = sec.table
        rows = t[t["flag"].isin(["over-performs", "under-performs"])]
        for r in rows.itertuples():
            out.append((abs(float(r.vs_peers)), sec.type, int(r.card)))
    return [(ty, c) for _, ty, c in sorted(out, key=lambda x: -x[0])]


# ---------------------------------------------------------------------------------------
# balance report: each flagged card's worth by counterfactual play (docs/card-worth.md)
# ---------------------------------------------------------------------------------------
# a card never taken in fewer games says little about the card or the players: not checked
# (and a short run's report stays quick)
NEVER_TAKEN_MIN_GAMES = 200


def worth_cards(analysis) -> list:
    """[(card type, index)] a report checks: the over/under-performing cards, strongest first,
    then, in a run of NEVER_TAKEN_MIN_GAMES games or more, the cards these players never took
    (is the card weak, or do the players miss it?)."""
    out = flagged_cards(analysis)
    if analysis.n_games < NEVER_TAKEN_MIN_GAMES:
        return out
    for sec in analysis.cards:
        t = sec.table
        out += [(sec.type, int(r.card)) for r in t[t["flag"] == "never taken"].itertuples()]
    return out
