"""`--set PATH=VALUE`: change one field of a component file without editing it.

PATH walks the parsed file: table keys joined by dots, list items by [index] (0-based, the
card ids of the file), e.g. `commissions[12].points`, `rules.wake_tie`, `planning[0].hike`,
`solo.bands[1].param`. A list whose items have a `name` (every card list of every game) can
also be indexed by that name: `goals["Gallery Day"].points`, or without quotes when the name
has no `]` or `"` and is not a number: `goals[Gallery Day].points`. The name must match
exactly; an unknown name is an error listing the near matches (difflib), a name that several
items carry is an error listing their indices. `resolve_override` turns a name into its index
(`goals[5].points=1`): the run manifest records both what was asked and what it resolved to. VALUE is a TOML value (`5`, `"seat"`, `["N", "S"]`, `true`); a bare
word that is not valid TOML is taken as a string (`rules.wake_tie=seat`).

Only existing fields can be set: a path naming a key or an index the file does not have is an
error naming the path and what exists there. The new value then goes through the game's
normal validation, so a value that is not allowed is reported like a bad file. Overrides are
recorded in the run manifest and folded into the component hash.
"""
from __future__ import annotations

import copy
import difflib
import re
from typing import Any

from sim.game_api import ComponentError

try:
    import tomllib
except ModuleNotFoundError:  # pragma: no cover - Python 3.10
    import tomli as tomllib

_STEP = re.compile(r"\s*(?:\.?\s*([A-Za-z_][A-Za-z0-9_\-]*)|\[\s*(-?\d+)\s*\]"
                   r'|\[\s*"((?:[^"\\]|\\.)*)"\s*\]|\[([^\]"]+)\])')


class Name(str):
    """A list item addressed by its `name` field (`goals["Gallery Day"]`), resolved against
    the file by `resolve_steps`."""


def parse_path(path: str) -> list:
    """'commissions[12].points' -> ['commissions', 12, 'points'];
    'goals["Gallery Day"].points' -> ['goals', Name('Gallery Day'), 'points']."""
    steps: list = []
    pos = 0
    text = path.strip()
    if not text:
        raise ValueError("empty path")
    while pos < len(text):
        m = _STEP.match(text, pos)
        if not m or m.end() == pos or (not steps and m.group(0).lstrip().startswith(".")):
            raise ValueError(f"cannot read '{text[pos:]}' in path '{path}'")
        if m.group(1) is not None:
            steps.append(m.group(1))
        elif m.group(2) is not None:
            steps.append(int(m.group(2)))
        elif m.group(3) is not None:
            steps.append(Name(re.sub(r"\\(.)", r"\1", m.group(3))))
        else:
            name = m.group(4).strip()
            if not name:
                raise ValueError(f"empty name in brackets in path '{path}'")
            steps.append(Name(name))
        pos = m.end()
    if not isinstance(steps[0], str) or isinstance(steps[0], Name):
        raise ValueError(f"path '{path}' must start with a name")
    return steps


def split_assignment(spec: str) -> tuple[str, str]:
    """'goals["A=B"].points=1' -> ('goals["A=B"].points', '1'): the first '=' outside
    brackets and quotes (a card name may contain '=')."""
    depth, quoted, i = 0, False, 0
    while i < len(spec):
        c = spec[i]
        if quoted:
            if c == "\\":
                i += 1
            elif c == '"':
                quoted = False
        elif c == '"' and depth:
            quoted = True
        elif c == "[":
            depth += 1
        elif c == "]":
            depth = max(0, depth - 1)
        elif c == "=" and not depth:
            return spec[:i], spec[i + 1:]
        i += 1
    raise ValueError("expected PATH=VALUE, e.g. commissions[12].points=5")


def _names_of(node: Any) -> list | None:
    """The `name` of each item of a list of named tables, or None if it is not one."""
    if not isinstance(node, list) or not node:
        return None
    if not all(isinstance(x, dict) and isinstance(x.get("name"), str) for x in node):
        return None
    return [str(x["name"]) for x in node]


def _near(name: str, names: list) -> list:
    seen = list(dict.fromkeys(names))
    close = difflib.get_close_matches(name, seen, n=5, cutoff=0.5)
    folded = [n for n in seen if n.casefold() == name.casefold() or
              name.casefold() in n.casefold()]
    return list(dict.fromkeys(folded + close))[:5]


def resolve_steps(data: Any, steps: list) -> list:
    """`steps` with every Name replaced by the index of the item carrying that name in `data`
    (a parsed component file: plain dicts and lists, or a tomlkit document). Raises
    ValueError: an unknown name (with the near matches), a name several items carry, or a
    name used on something that is not a list of named tables. Other missing keys and
    indices are left for the caller to report."""
    out: list = []
    node: Any = data
    for step in steps:
        if isinstance(step, Name):
            here = _show_path(out) or "the file"
            names = _names_of(node)
            if names is None:
                raise ValueError(f"{here} is not a list of named items: address it by "
                                 f"[index] ({_describe(node)})")
            hits = [i for i, n in enumerate(names) if n == step]
            if not hits:
                near = _near(step, names)
                hint = (f"; near matches: {', '.join(f'{n!r} ([{names.index(n)}])' for n in near)}"
                        if near else f"; names there: {', '.join(names[:8])}"
                        + (", ..." if len(names) > 8 else ""))
                raise ValueError(f"no item named {str(step)!r} in {here}{hint}")
            if len(hits) > 1:
                raise ValueError(f"{len(hits)} items are named {str(step)!r} in {here} "
                                 f"({', '.join(f'[{i}]' for i in hits)}): address one by its index")
            step = hits[0]
        out.append(step)
        try:
            node = node[step]
        except (KeyError, IndexError, TypeError):
            node = None  # the caller reports the missing key or index with its context
    return out


def resolve_path(data: Any, path: str) -> str:
    """'goals[Gallery Day].points' -> 'goals[5].points' against the parsed file `data`."""
    steps = parse_path(path)
    if not any(isinstance(s, Name) for s in steps):
        return path.strip()
    return _show_path(resolve_steps(data, steps))


def resolve_override(data: Any, spec: str) -> str:
    """'goals[Gallery Day].points=1' -> 'goals[5].points=1' against the parsed file `data`
    (an override without names comes back unchanged). ValueError as resolve_steps."""
    path, value = split_assignment(spec)
    steps = parse_path(path)
    if not any(isinstance(s, Name) for s in steps):
        return spec
    return f"{_show_path(resolve_steps(data, steps))}={value.strip()}"


def parse_value(text: str) -> Any:
    """A TOML value; a bare word that is not TOML is a string."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_\-]*", text.strip()):
            return text.strip()
        raise ValueError(f"cannot read the value '{text}' (use TOML: 5, \"text\", [1, 2], true)")


def parse_override(spec: str, data: Any = None) -> tuple[list, Any]:
    """(steps, value) of 'PATH=VALUE'; with `data` (the parsed file) names become indices."""
    path, value = split_assignment(spec)
    steps = parse_path(path)
    if data is not None:
        steps = resolve_steps(data, steps)
    return steps, parse_value(value)


def _show_path(steps: list) -> str:
    out = ""
    for s in steps:
        if isinstance(s, Name):
            out += f"[{_quote(s)}]"
        else:
            out += f"[{s}]" if isinstance(s, int) else (f".{s}" if out else s)
    return out


def _quote(name: str) -> str:
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _describe(node: Any) -> str:
    if isinstance(node, dict):
        keys = ", ".join(sorted(map(str, node))) or "none"
        return f"fields there: {keys}"
    if isinstance(node, list):
        return f"{len(node)} items there (0..{len(node) - 1})"
    return f"{type(node).__name__} there"


def resolve_overrides(raw: dict, overrides: list, source: str) -> list:
    """Each override with its names turned into indices (`goals[5].points=1`), for the
    manifest. Raises ComponentError with one line per override that names no item."""
    out, problems = [], []
    for spec in overrides:
        try:
            out.append(resolve_override(raw, spec))
        except ValueError as exc:
            problems.append(f"{source}: --set {spec}: {exc}")
    if problems:
        raise ComponentError(problems)
    return out


def apply_overrides(raw: dict, overrides: list, source: str) -> dict:
    """A copy of the parsed file `raw` with each override applied (names resolved against
    `raw`). Raises ComponentError with one line per bad override, naming the file (`source`)
    and the path."""
    if not overrides:
        return raw
    data = copy.deepcopy(raw)
    problems = []
    for spec in overrides:
        try:
            steps, value = parse_override(spec, raw)  # names: as the file was written
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


def rewrite_components(text: str, assignments, header: str = "") -> str:
    """The component file `text` with each 'PATH=VALUE' of `assignments` written in, its
    comments and layout kept (tomlkit); card names in paths are resolved against the file as
    written. `header` (comment lines) goes first. Used by `tune` for its suggested file."""
    import tomlkit
    doc = tomlkit.parse(text)
    as_written = tomllib.loads(text)
    for spec_text in assignments:
        steps, v = parse_override(spec_text, as_written)
        node = doc
        for step in steps[:-1]:
            node = node[step]
        node[steps[-1]] = v
    return header + tomlkit.dumps(doc)
