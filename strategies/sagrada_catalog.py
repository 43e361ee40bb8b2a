"""The built-in players of Sagrada as the toolkit lists them: ids, parameter slots and
CATALOG (names, descriptions, parameters and defaults). Plain Python, no numba: `balance
strategies sagrada` and a run's preparation read it without compiling anything; the players
themselves are in strategies/sagrada.py, which imports these names.
"""
from __future__ import annotations

RANDOM, GREEDY, PLANNER = 0, 1, 2

P_FILL = 0         # value of filling an open space (an open space costs 1 point at the end)
P_PRIVATE = 1      # weight of a private-colour die's pips
P_PUBLIC = 2       # weight of public objective progress (partial credit, see value_nb)
P_DEAD = 3         # planner: cost of each open space the placement makes unfillable
P_RESTRICTED = 4   # planner: bonus for using a restricted space (blank ones stay easy)
P_TOKEN = 5        # planner: value of a favor token kept (tools cost 1 or 2)
P_TOOL_MARGIN = 6  # planner: a tool must beat the plain move by this much more than its cost
P_WIN_TOKENS = 7   # planner window choice: weight of the favor tokens (difficulty)
P_WIN_RESTRICT = 8 # planner window choice: cost per restricted space
P_WIN_PRIVATE = 9  # planner window choice: value per space restricted to its private colour
P_PASS = 10        # planner: pass rather than place a die worth less than this
P_TARGET = 11      # planner, solo: value per pip of a die kept off the round track (the target)
P_WIN_PUBLIC = 12  # planner window choice: weight of the public objectives' fit
P_SOLO_CARD = 13   # planner, solo: value of keeping a tool card (each is used once) for later
P_PLIERS_LATER = 14  # planner: share of a second draft's worth expected on the second turn anyway
P_PRIV_TRAIL = 15  # planner, solo: weight of the pips of the private colour behind in pips
N_PARAMS = 16

CATALOG = [
    {"name": "random", "id": RANDOM,
     "description": "Uniformly random legal choice at every decision (window side, draft and "
                    "cell, tool cards and their arguments, ending the turn).",
     "params": []},
    {"name": "greedy", "id": GREEDY,
     "description": "Best immediate placement by a score estimate (its private colour's pips, "
                    "progress on the public objectives, +1 for filling a space); takes the "
                    "window side with the most favor tokens (solo, where there are none: the "
                    "easiest side); never uses tools, never passes "
                    "while a die can be placed.",
     "params": [("fill", 1.0, "value of filling an open space, per point of the empty-space penalty"),
                ("private", 1.0, "weight of a private-colour die's pips"),
                ("public", 1.0, "weight of public objective progress")]},
    {"name": "planner", "id": PLANNER,
     "description": "Values its private objective and the public objectives like greedy, and "
                    "keeps future placements open (penalises open spaces it makes unfillable, "
                    "prefers restricted spaces); chooses its window from favor tokens (not in "
                    "solo), restrictions, its private colour and the public objectives; uses "
                    "any of the 12 tool cards when the gain beats what it costs (tokens; solo: "
                    "the card and the paying die); solo, plays against the target: leaves low "
                    "dice to the round track.",
     "params": [("fill", 1.0, "value of filling an open space, per point of the empty-space penalty"),
                ("private", 1.0, "weight of a private-colour die's pips"),
                ("public", 1.0, "weight of public objective progress"),
                ("dead", 2.0, "cost of each open space made unfillable, per point of the "
                                 "empty-space penalty"),
                ("restricted", 1.2, "bonus for placing on a restricted space"),
                ("token", 1.2, "value of a favor token kept"),
                ("tool_margin", 0.5, "extra gain a tool must bring beyond its cost"),
                ("win_tokens", 1.0, "window choice: weight of favor tokens"),
                ("win_restrict", 0.6, "window choice: cost per restricted space"),
                ("win_private", 0.8, "window choice: value per space of its private colour"),
                ("pass", -1.0, "pass rather than place a die worth less than this"),
                ("target", 1.0, "solo: value per pip of a die kept off the round track (the "
                                "target): drafted, spent on a tool, swapped away"),
                ("win_public", 0.25, "window choice: weight of the public objectives' fit "
                                    "(lines the restrictions spoil, set values and colours)"),
                ("solo_card", 3.0, "solo: value of keeping a tool card for a later turn"),
                ("pliers_later", 0.5, "Running Pliers: share of a second draft's worth the seat "
                                      "expects on its second turn anyway (multiplayer)"),
                ("priv_trail", 0.2, "solo: weight of the pips of the private colour behind "
                                    "(only the better private objective counts)")]},
]
