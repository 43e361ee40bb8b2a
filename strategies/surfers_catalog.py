"""The built-in players of Grand Surfers as the toolkit lists them: ids, parameter slots and
CATALOG (names, descriptions, parameters and defaults). Plain Python, no numba: `balance
strategies surfers` and a run's preparation read it without compiling anything; the players
themselves are in strategies/surfers.py, which imports these names.
"""
from __future__ import annotations

RANDOM, RACER, BLOCKER, BUILDER, RIDER = 0, 1, 2, 3, 4

P_PROGRESS = 0     # value of a line gained by one's own surfer
P_BEACH = 1        # bonus for bringing a surfer to the beach (on top of its lines)
P_PUSH = 2         # value of pushing an opponent's surfer
P_KILL = 3         # value of putting an opponent's surfer out (push into tide / under the wave)
P_OWN_CHAN = 4     # channel drawing: value per line an arrow may carry one's own surfers up
P_HOSTILE = 5      # channel drawing: value per line an arrow carries opponents down
P_REAR = 6         # move choice: bonus per line for moving a surfer close to the wave
P_PATIENCE = 7     # 0..1: how much less a line is worth to a surfer safe from the wave (rider)
P_MARGIN = 8       # lines above the wave a surfer counts as safe (rider)
N_PARAMS = 9

_PARAMS = [("progress", "value of a line gained by one's own surfer"),
           ("beach", "bonus for bringing a surfer to the beach"),
           ("push", "value of pushing an opponent's surfer"),
           ("kill", "value of putting an opponent's surfer out of the game"),
           ("own_channel", "channel: value per line it may carry one's own surfers up"),
           ("hostile", "channel: value per line it carries opponents down"),
           ("rear", "bonus for moving the surfer nearest the wave (per line of danger)"),
           ("patience", "0..1: how much less a line is worth to a surfer safe from the wave"),
           ("margin", "lines above the wave a surfer counts as safe")]


def _params(*values):
    return [(name, float(v), help_) for (name, help_), v in zip(_PARAMS, values)]


CATALOG = [
    {"name": "random", "id": RANDOM,
     "description": "Aims at a uniformly random wave cell; uniformly random legal choice at "
                    "every decision (action, surfer and column, boost).",
     "params": []},
    {"name": "racer", "id": RACER,
     "description": "Re-aims every flick where its own hand gives the turn the best expected "
                    "worth (the move kept, pips +/-1, an arrow that pays); takes the action "
                    "and the move that gain the most lines, the beach first; pushes when it "
                    "is on the way.",
     "params": _params(1.0, 3.0, 0.5, 1.5, 0.3, 0.2, 0.3)},
    {"name": "blocker", "id": BLOCKER,
     "description": "Races, but values pushes and knock-outs highly and arrows that carry "
                    "opponents down (so it aims at channel cells when one pays).",
     "params": _params(1.0, 3.0, 2.5, 6.0, 0.2, 2.0, 0.3)},
    {"name": "builder", "id": BUILDER,
     "description": "Channel builder: values upward arrows ahead of its own surfers (so it "
                    "aims at channel cells when one pays), then races on them.",
     "params": _params(1.0, 3.0, 0.5, 1.5, 2.0, 0.2, 0.3)},
    {"name": "rider", "id": RIDER,
     "description": "Rides the wave to the last, the game's own advice: races until the wave "
                    "starts, then keeps its surfers a safe margin above the wave and slows "
                    "down (aims for 1/2 cells, pips -1) so that it reaches the beach late and "
                    "takes Grand; hurries a surfer the wave is catching up with.",
     "params": _params(1.0, 0.0, 0.5, 1.5, 0.3, 0.2, 0.3, 0.9, 3.0)},
]
