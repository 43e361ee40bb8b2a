"""The built-in players of Sunset Over Water as the toolkit lists them: ids, parameter slots and
CATALOG (names, descriptions, parameters and defaults). Plain Python, no numba: `balance
strategies sunset` and a run's preparation read it without compiling anything; the players
themselves are in strategies/sunset.py, which imports these names.
"""
from __future__ import annotations

RANDOM, GREEDY, PLANNER = 0, 1, 2

# Parameters: one vector per seat; each built-in reads its own slots (names below).
P_LANDSCAPE = 0   # weight of a painting's end-of-game value (features / features-per-point)
P_COMPLETE = 1    # weight of the points of a commission a painting completes
P_PROGRESS = 2    # weight of partial progress towards a commission (planner)
P_TOMORROW = 3    # weight of the revealed top commission, available tomorrow (planner)
P_GOAL = 4        # weight of the daily goal's points
P_CONTEST = 5     # how much a later wake-up discounts a plan (others paint first) (planner)
P_HOME = 6        # solo: weight of the return-home bonus (last day; planner: also the day before)
N_PARAMS = 7

CATALOG = [
    {"name": "random", "id": RANDOM,
     "description": "Uniformly random legal choice at every decision (planning card, hike, "
                    "paintings, sales); the paintings that pay for a sale are the engine's "
                    "default (those with the fewest features).",
     "params": []},
    {"name": "greedy", "id": GREEDY,
     "description": "Best immediate gain: each decision maximises the points it can bank today "
                    "(commissions completed now, the daily goal, the end value of paintings; solo: "
                    "the inspiration bonus of a commission, the return-home bonus on the last "
                    "day), with no look-ahead; always sells its most valuable commission first.",
     "params": [("landscape", 1.0, "weight of a painting's end-of-game value"),
                ("complete", 1.0, "weight of the points of a commission a painting completes now"),
                ("progress", 0.0, "(unused by greedy)"),
                ("tomorrow", 0.0, "(unused by greedy)"),
                ("goal", 1.0, "weight of the daily goal's points when a hike meets it"),
                ("contest", 0.0, "(unused by greedy)"),
                ("home", 1.0, "solo: weight of the return-home bonus when the last day's hike "
                              "can end on the centre")]},
    {"name": "planner", "id": PLANNER,
     "description": "Pursues commissions across days: values paintings by the progress they make "
                    "towards the visible commissions (and tomorrow's revealed one), chooses its "
                    "planning card weighing how many rivals will wake up before it, keeps the "
                    "paintings other commissions need when it sells; solo: counts the inspiration "
                    "bonus in a commission's value and heads home for the return-home bonus "
                    "(keeping a last planning card that can reach the centre).",
     "params": [("landscape", 1.0, "weight of a painting's end-of-game value"),
                ("complete", 1.0, "weight of the points of a commission a painting completes"),
                ("progress", 0.7, "weight of partial progress towards a commission"),
                ("tomorrow", 0.5, "weight of progress towards the revealed top commission"),
                ("goal", 0.8, "weight of the daily goal's points"),
                ("contest", 0.35, "share of a plan's value lost per rival waking earlier"),
                ("home", 1.0, "solo: weight of the return-home bonus (last day, and the "
                              "day before: ending where the last card reaches the centre)")]},
]
