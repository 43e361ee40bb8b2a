"""`--set PATH=VALUE`: change one field of a component file without editing it.

PATH walks the parsed file: table keys joined by dots, list items by [index] (0-based, the
card ids of the file), e.g. `commissions[12].points`, `rules.wake_tie`, `planning[0].hike`,
`solo.bands[1].param`. VALUE is a TOML value (`5`, `"seat"`, `["N", "S"]`, `true`); a bare
word that is not valid TOML is taken as a string (`rules.wake_tie=seat`).

Only existing fields can be set: a path naming a key or an index the file does not have is an
error naming the path and what exists there. The new value then goes through the game's
normal validation, so a value that is not allowed is reported like a bad file. Overrides are
recorded in the run manifest and folded into the component hash.
"""
from __future__ import annotations

import copy
import re
from typing import Any

from sim.game_api import ComponentError

try:
    import tomllib
except ModuleNotFoundError:  # pragma: no cover - Python 3.10
    import tomli as tomllib

_STEP = re.compile(r"\s*(?:\.?\s*([A-Za-z_][A-Za-z0-9_\-]*)|\[\s*(-?\d+)\s*\])")


def parse_path(path: str) -> list:
    """'commissions[12].points' -> ['commissions', 12, 'points']."""
    steps: list = []
    pos = 0
    text = path.strip()
    if not text:
        raise ValueError("empty path")
    while pos < len(text):
        m = _STEP.match(text, pos)
        if not m or m.end() == pos or (not steps and m.group(0).lstrip().startswith(".")):
            raise ValueError(f"cannot read '{text[pos:]}' in path '{path}'")
        steps.append(m.group(1) if m.group(1) is not None else int(m.group(2)))
        pos = m.end()
    if not isinstance(steps[0], str):
        raise ValueError(f"path '{path}' must start with a name")
    return steps


def parse_value(text: str) -> Any:
    """A TOML value; a bare word that is not TOML is a string."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_\-]*", text.strip()):
            return text.strip()
        raise ValueError(f"cannot read the value '{text}' (use TOML: 5, \"text\", [1, 2], true)")


def parse_override(spec: str) -> tuple[list, Any]:
    if "=" not in spec:
        raise ValueError("expected PATH=VALUE, e.g. commissions[12].points=5")
    path, value = spec.split("=", 1)
    return parse_path(path), parse_value(value)


def _show_path(steps: list) -> str:
    out = ""
    for s in steps:
        out += f"[{s}]" if isinstance(s, int) else (f".{s}" if out else s)
    return out


def _describe(node: Any) -> str:
    if isinstance(node, dict):
        keys = ", ".join(sorted(map(str, node))) or "none"
        return f"fields there: {keys}"
    if isinstance(node, list):
        return f"{len(node)} items there (0..{len(node) - 1})"
    return f"{type(node).__name__} there"


def apply_overrides(raw: dict, overrides: list, source: str) -> dict:
    """A copy of the parsed file `raw` with each override applied. Raises ComponentError with
    one line per bad override, naming the file (`source`) and the path."""
    if not overrides:
        return raw
    data = copy.deepcopy(raw)
    problems = []
    for spec in overrides:
        try:
            steps, value = parse_override(spec)
        except ValueError as exc:
            problems.append(f"{source}: --set {spec}: {exc}")
            continue
        node: Any = data
        ok = True
        for i, step in enumerate(steps):
            last = i == len(steps) - 1
            here = _show_path(steps[:i]) or "the file"
            if isinstance(step, str):
                if not isinstance(node, dict) or step not in node:
                    problems.append(f"{source}: --set {spec}: no field '{step}' in {here} "
                                    f"({_describe(node)})")
                    ok = False
                    break
            else:
                if not isinstance(node, list) or not -len(node) <= step < len(node):
                    problems.append(f"{source}: --set {spec}: no item [{step}] in {here} "
                                    f"({_describe(node)})")
                    ok = False
                    break
            if last:
                node[step] = value
            else:
                node = node[step]
        if not ok:
            continue
    if problems:
        raise ComponentError(problems)
    return data
