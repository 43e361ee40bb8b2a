"""Dice: the built-in players, in plain Python (listing them compiles nothing)."""

RANDOM, GREEDY = 0, 1
CATALOG = [
    {"name": "random", "id": RANDOM, "description": "a uniformly random legal card",
     "params": []},
    {"name": "greedy", "id": GREEDY,
     "description": "plays its highest card (the lowest kind among equals)", "params": []},
]
N_PARAMS = 1
