"""The built-in players of Lowlands as the toolkit lists them: ids, parameter slots and
CATALOG (names, descriptions, parameters and defaults). Plain Python, no numba: `balance
strategies lowlands` and a run's preparation read it without compiling anything; the players
themselves are in strategies/lowlands.py, which imports these names.
"""
from __future__ import annotations

RANDOM, GREEDY, PLANNER, DIKE, SHEPHERD = range(5)

P_CARD = 0        # points a resource card is worth when spent or gained
P_DIKE = 1        # weight of a dike point (times the current dike value)
P_SHEEP = 2       # weight of a sheep (times the current sheep value)
P_DANGER = 3      # planner: points per resource that closes the gap to the expected waves
P_BREED = 4       # planner: extra points per sheep bought early (lambs to come)
P_SUPPORT = 5     # share of the builder's +1 counted against answering a support request
P_TOKEN = 6       # value kept for a "farmer +2" token (not spent lightly)
N_PARAMS = 7

_GREEDY_PARAMS = [("card", 0.6, "points a resource card is worth"),
                  ("dike", 1.0, "weight of a dike point (x the dike value now)"),
                  ("sheep", 1.0, "weight of a sheep (x the sheep value now)"),
                  ("danger", 0.0, "(unused by greedy)"),
                  ("breed", 0.0, "(unused by greedy)"),
                  ("support", 0.0, "share of the builder's +1 counted against supporting"),
                  ("token", 1.0, "value kept for a farmer +2 token")]


def _planner_params(dike, sheep, danger):
    # card 0.8, breed 0 and support 0 were measured against greedy (2 players, seats
    # rotated, 800 games each): a higher card value and no breeding bonus play better
    return [("card", 0.8, "points a resource card is worth"),
            ("dike", dike, "weight of a dike point (x the dike value now)"),
            ("sheep", sheep, "weight of a sheep (x the sheep value now)"),
            ("danger", danger, "points per resource that closes the gap between the dike and "
                               "the waves expected at the final check (flood-card backs), last "
                               "stage only"),
            ("breed", 0.0, "extra points per sheep bought before the last stage (its lambs)"),
            ("support", 0.0, "share of the builder's +1 counted against answering support"),
            ("token", 1.0, "value kept for a farmer +2 token")]


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
     "description": "Weighs the dike against sheep: in the last stage pays into the dike when "
                    "the waves expected at the final check (from the flood cards' backs) would "
                    "break it, in proportion to the sheep it would lose; plans pastures towards "
                    "growing rectangles; buys sheep when their value beats the price and sells "
                    "when the price beats it; answers a support request when its own dike "
                    "points are worth more than the cards (less a share of the builder's +1); "
                    "asks the rival with the most cards and the fewest dike points.",
     "params": _planner_params(1.0, 1.0, 1.2)},
    {"name": "dike", "id": DIKE,
     "description": "The planner built for the dike route: dike points weigh double, sheep half.",
     "params": _planner_params(2.0, 0.5, 1.6)},
    {"name": "shepherd", "id": SHEPHERD,
     "description": "The planner built for the sheep route: sheep weigh 1.6x, dike points 0.4x.",
     "params": _planner_params(0.4, 1.6, 0.8)},
]
