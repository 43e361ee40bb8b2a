"""What a run assigned at random and what its players chose (sim/assign.py), in words.

A comparison of a choice's outcomes (a window's win share, the win share by window
difficulty) means two things: with the choice assigned at random (`--assign window=random`)
it is an experiment, the effect of the component; with the players choosing it is an
association, mixed with who chooses what. The manifest records the assignment
(`assigned`); the game declares which choices can be assigned (`GameSpec.assignable()`).
"""
from __future__ import annotations


def assigned(manifest: dict) -> list:
    """The manifest's assigned choices: [{"choice", "how", "what", "columns"}]."""
    return [a for a in (manifest or {}).get("assigned") or [] if isinstance(a, dict)]


def _declared(manifest: dict) -> dict:
    """The game's assignable choices ({} when the game is not registered here)."""
    try:
        from sim.registry import get_game
        return get_game(str(manifest.get("game"))).assignable()
    except Exception:   # a folder of a game this install does not know: say nothing
        return {}


def run_line(manifest: dict) -> str | None:
    """One line on the run's assignment: which choices were assigned at random, which were
    the players'; None for a game with no assignable choice."""
    done = assigned(manifest)
    names = [a["choice"] for a in done]
    chosen = sorted(n for n in _declared(manifest) if n not in names)
    if not done and not chosen:
        return None
    parts = [f"{a['choice']} assigned at random ({a['what']}): its outcomes measure the "
             f"component (an experiment)" for a in done]
    if chosen:
        parts.append(f"{', '.join(chosen)} chosen by the players: its outcomes mix the "
                     f"component with who chooses it (an association; --assign "
                     f"{chosen[0]}=random makes it an experiment)")
    text = "; ".join(parts)
    return text[0].upper() + text[1:] + "."


def origin(manifest: dict, column: str = "", card_type: str = "") -> str | None:
    """For a breakdown by `column` or a card section of `card_type`: whether the choice
    behind it was assigned at random in this run or made by the players (None: neither)."""
    for a in assigned(manifest):
        if column in a.get("columns", []) or card_type == a["choice"]:
            return (f"The {a['choice']} was assigned at random in this run ({a['what']}): "
                    f"this comparison is an experiment, the effect of the {a['choice']} itself.")
    for name, d in _declared(manifest).items():
        if column in d.get("columns", []) or card_type == name:
            return (f"The {name} was chosen by the players in this run: this comparison mixes "
                    f"the {name} with who chooses it (an association); --assign {name}=random "
                    f"measures the {name} itself.")
    return None
