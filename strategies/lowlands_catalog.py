"""The built-in players of Lowlands as the toolkit lists them: ids, parameter slots and
CATALOG (names, descriptions, parameters and defaults). Plain Python, no numba: `balance
strategies lowlands` and a run's preparation read it without compiling anything; the players
themselves are in strategies/lowlands.py, which imports these names.

Every number the planner and its two routes weigh is a parameter here (a designer tunes it
with a variants file, docs/games/lowlands.md "Players"); the game's own numbers (prices,
tile effects, track, floods) are read from the component file.
"""
from __future__ import annotations

RANDOM, GREEDY, PLANNER, DIKE, SHEPHERD = range(5)

P_CARD = 0        # points a resource card is worth when spent or gained
P_DIKE = 1        # weight of a dike point (times its value)
P_SHEEP = 2       # weight of a sheep (times its value)
P_DANGER = 3      # planner: weight of the swing between the high tide holding and breaking
P_BREED = 4       # planner: weight of the lambs a sheep brings before the end (1 = all)
P_SUPPORT = 5     # share of the builder's +1 counted against answering a support request
P_TOKEN = 6       # value kept for a "farmer +2" token (not spent lightly)
P_DIKE_PACE = 7   # planner: resources each player pays into the dike per work phase
P_TIDE_SPREAD = 8  # planner: spread (resources) of the forecast of the high tide
P_HOLD_PRIOR = 9  # planner: chance a later stage's high tide holds
P_FINAL_BREAK = 10  # planner: chance the storm surge's check breaks the dike
P_DIKE_RATE = 11  # planner: own dike actions per work phase its route expects
P_FENCE_RATE = 12  # planner: own fence actions per work phase its route expects
P_BUILD_RATE = 13  # planner: own builds per work phase its route expects
P_SALE_RATE = 14  # planner: sheep sold by action per work phase its route expects
P_ROOM = 15       # planner: points of a sheep place its flock will not fill by breeding
P_FARMHAND_TO = 16  # planner: the action its farmhands go to (1 dike, 2 fence, 4 cards)
P_ANSWERED = 17   # planner: chance a support request it makes is answered (the builder's +1)
N_PARAMS = 18

_GREEDY_PARAMS = [("card", 0.6, "points a resource card is worth"),
                  ("dike", 1.0, "weight of a dike point (x the dike value now)"),
                  ("sheep", 1.0, "weight of a sheep (x the sheep value now)"),
                  ("danger", 0.0, "(unused by greedy)"),
                  ("breed", 0.0, "(unused by greedy)"),
                  ("support", 0.0, "share of the builder's +1 counted against supporting"),
                  ("token", 1.0, "value kept for a farmer +2 token")]


def _planner_params(dike=1.0, sheep=1.0, dike_rate=0.5, fence_rate=0.4, build_rate=0.5,
                    sale_rate=0.3, farmhand_to=1.0):
    return [("card", 0.8, "points a resource card is worth (spent, gained, or held)"),
            ("dike", dike, "weight of a dike point (x its value at the end, forecast)"),
            ("sheep", sheep, "weight of a sheep (x its value at the end, forecast)"),
            ("danger", 1.0, "weight of what the seat gains if this stage's high tide holds "
                            "rather than breaks (coins, breach tokens, the price move), times "
                            "the change in the chance it holds"),
            ("breed", 1.0, "weight of the lambs a sheep brings by the end (room permitting)"),
            ("support", 0.0, "share of the builder's +1 counted against answering support"),
            ("token", 1.0, "value kept for a farmer +2 token"),
            ("dike_pace", 1.0, "resources each player is expected to pay into the dike per "
                               "work phase (forecast of the high tide)"),
            ("tide_spread", 4.0, "spread in resources of the high-tide forecast (larger: "
                                 "less sure)"),
            ("hold_prior", 0.5, "chance that a later stage's high tide holds"),
            ("final_break", 0.5, "chance that the storm surge's check breaks the dike, before "
                                 "the last stage can be read"),
            ("dike_rate", dike_rate, "own dike actions per work phase the route expects (what "
                                     "dike tiles are worth to it)"),
            ("fence_rate", fence_rate, "own fence actions per work phase the route expects"),
            ("build_rate", build_rate, "own builds per work phase the route expects"),
            ("sale_rate", sale_rate, "sheep sold at the market per work phase the route "
                                     "expects (the Shearer)"),
            ("room", 0.3, "points of a sheep place its flock will not fill by breeding (it "
                          "can buy into it)"),
            ("farmhand_to", farmhand_to, "the action its farmhands go to: 1 dike, 2 fence, "
                                         "4 cards"),
            ("answered", 0.5, "chance that its own support request is answered (the "
                              "builder's +1 step)")]


CATALOG = [
    {"name": "random", "id": RANDOM,
     "description": "Uniformly random legal choice at every decision (its own stream).",
     "params": []},
    {"name": "greedy", "id": GREEDY,
     "description": "Best immediate gain: each farmer goes where its action banks the most "
                    "points now (dike points and sheep at today's values, tile shields, cards), "
                    "no look-ahead; pays the largest dike amount, always supports.",
     "params": _GREEDY_PARAMS},
    {"name": "planner", "id": PLANNER,
     "description": "Values every choice by what it adds to its final score: dike points and "
                    "sheep at the prices it forecasts for the end, the lambs its farm has room "
                    "for, the coins and breach tokens of the high tides it expects (flood "
                    "cards' backs, the dike's height, the dike payments to come), and each tile "
                    "by its effect over the rest of the game (end scoring, income, sheep places, "
                    "dike and flood effects, less its cards); plans pastures as growing "
                    "rectangles. Expects a mix of dike and fence actions.",
     "params": _planner_params()},
    {"name": "dike", "id": DIKE,
     "description": "The planner on the dike route: expects a dike action every work phase "
                    "(so it values the dike tiles by that many uses), few fence actions (the "
                    "fence tiles are worth less to it), and its farmhands go to the dike. "
                    "Choose it to ask whether dike points and the high-tide coins win, e.g. "
                    "when the floods run high.",
     "params": _planner_params(dike=1.0, sheep=1.0, dike_rate=1.0, fence_rate=0.15,
                               build_rate=0.4, sale_rate=0.2, farmhand_to=1.0)},
    {"name": "shepherd", "id": SHEPHERD,
     "description": "The planner on the sheep route: expects fence actions most work phases "
                    "(the fence and sheep tiles are worth more to it), its farmhands go to "
                    "fences, and it expects few dike actions of its own (the dike tiles are "
                    "worth less to it). Choose it to ask whether a flock and the market win, "
                    "e.g. when the dike holds.",
     "params": _planner_params(dike=1.0, sheep=1.0, dike_rate=0.15, fence_rate=0.8,
                               build_rate=0.5, sale_rate=0.6, farmhand_to=2.0)},
]
