"""Choices assigned at random instead of made by the players: an experiment, not an observation.

A game declares which of its choices can be assigned (`GameSpec.assignable()`: a name, the
decision kind, what it assigns, the log columns it decides). A run given `assign=
{"window": "random"}` (`--assign window=random`) plays every decision of that kind with a
legal option drawn uniformly by the harness from its own stream (sim/harness.py), never by
the seat's strategy; so who holds which window no longer depends on who chose it, and a
window's win share measures the window. The assignment is part of the run's configuration:
the manifest records it, a resume with another assignment is refused, reports say it.
"""
from __future__ import annotations

import dataclasses

from sim.game_api import GameSpec, Prepared, ToolkitError

HOWS = ("random",)   # how a choice can be assigned


def parse_assign(spec: GameSpec, assign) -> list:
    """`assign` (None, a dict {name: "random"}, a 'NAME=random' text or a list of them) as
    the sorted list of assigned choice names; one line per bad item, naming the valid ones."""
    if not assign:
        return []
    if isinstance(assign, str):
        assign = [assign]
    if isinstance(assign, dict):
        items = [(str(k), str(v)) for k, v in assign.items()]
    else:
        items = []
        for text in assign:
            name, sep, how = str(text).partition("=")
            items.append((name.strip(), how.strip() if sep else ""))
    valid = spec.assignable()
    problems, names = [], []
    for name, how in items:
        if name not in valid:
            offer = (f"valid: {', '.join(sorted(valid))}" if valid else
                     f"{spec.name} declares no assignable choice")
            problems.append(f"--assign {name}: unknown choice of {spec.name} ({offer})")
        elif how not in HOWS:
            problems.append(f"--assign {name}={how}: unknown way to assign a choice "
                            f"(valid: {', '.join(HOWS)}; write --assign {name}=random)")
        elif name not in names:
            names.append(name)
    if problems:
        raise ToolkitError(problems)
    return sorted(names)


def with_assignment(spec: GameSpec, prepared: Prepared, assign) -> Prepared:
    """`prepared` with the choices of `assign` assigned at random."""
    names = parse_assign(spec, assign)
    return dataclasses.replace(prepared, assigned=names) if names else prepared


def decisions(spec: GameSpec, names) -> list:
    """The decision codes of the assigned choices `names`."""
    valid = spec.assignable()
    return [int(valid[n]["decision"]) for n in names]


def manifest_record(spec: GameSpec, names) -> list:
    """What the manifest keeps of an assignment: per choice its name, how, what and columns
    (the reports read it from there, without the game)."""
    valid = spec.assignable()
    return [{"choice": n, "how": "random", "what": str(valid[n]["what"]),
             "columns": list(valid[n].get("columns", []))} for n in names]
