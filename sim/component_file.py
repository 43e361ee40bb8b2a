"""Shared machinery of the component-file loaders: pydantic errors turned into one line per
problem naming the file, the card (by index and name) or field, and what is wrong; checks every
game's file needs (unknown keys, card counts, duplicate names, TOML syntax errors)."""
from __future__ import annotations

import re
import typing
from typing import Annotated, Any, Optional

from pydantic import BaseModel, ValidationError


def show(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, dict):
        return "a table {...}"
    if isinstance(v, list):
        return "a list [...]" if v else "an empty list []"
    s = repr(v)
    return s if len(s) <= 60 else s[:57] + "..."


def where(root: Any, loc: tuple) -> str:
    """('commissions', 12, 'points') -> 'commissions[12] "Lakeside Study": points'."""
    out, node, after_item = "", root, False
    for k in loc:
        if isinstance(k, int):
            out += f"[{k}]"
            node = node[k] if isinstance(node, list) and 0 <= k < len(node) else None
            after_item = isinstance(node, dict)
            if after_item and isinstance(node.get("name"), str):
                out += f' "{node["name"]}"'
        else:
            out += (": " if after_item else "." if out else "") + str(k)
            after_item = False
            node = node.get(k) if isinstance(node, dict) else None
    return out


def model_at(model: Any, loc: tuple) -> Any:
    """The pydantic model class describing the value at `loc` inside `model`, if any."""
    for k in loc:
        if isinstance(k, int):
            continue
        if not (isinstance(model, type) and issubclass(model, BaseModel)):
            return None
        field = None
        for fname, f in model.model_fields.items():
            if (f.alias or fname) == k:
                field = f
        if field is None:
            return None
        model = field.annotation
        while typing.get_origin(model) in (list, typing.Union, Annotated):
            args = [a for a in typing.get_args(model) if a is not type(None)]
            model = args[0] if args else None
    return model if isinstance(model, type) and issubclass(model, BaseModel) else None


def field_names(model: Any) -> list:
    return [f.alias or n for n, f in model.model_fields.items()]


def translate(err: dict, model: Any) -> tuple[tuple, str]:
    """A pydantic error -> (loc of the thing to name, message)."""
    t, loc, inp = err["type"], tuple(err["loc"]), err.get("input")
    ctx = err.get("ctx") or {}
    if t == "missing":
        return loc[:-1], f"missing field {loc[-1]!r}"
    if t == "extra_forbidden":
        sub = model_at(model, loc[:-1])
        known = f" (known: {', '.join(field_names(sub))})" if sub is not None else ""
        return loc[:-1], f"unknown field {loc[-1]!r}{known}"
    if t in ("value_error", "assertion_error"):
        msg = str(ctx.get("error", err["msg"]))
        # validators phrase "param: ..." for a field a model validator checks
        if msg.startswith("param: "):
            return loc + ("param",), msg[len("param: "):]
        return loc, msg
    if t == "greater_than_equal":
        return loc, f"must be >= {ctx.get('ge')}, got {show(inp)}"
    if t == "less_than_equal":
        return loc, f"must be <= {ctx.get('le')}, got {show(inp)}"
    if t == "string_too_short":
        return loc, "must not be empty"
    if t == "too_short":
        n = ctx.get("min_length")
        return loc, f"must have at least {n} entr{'y' if n == 1 else 'ies'}, got {ctx.get('actual_length')}"
    if t == "too_long":
        n = ctx.get("max_length")
        return loc, f"must have at most {n} entr{'y' if n == 1 else 'ies'}, got {ctx.get('actual_length')}"
    if t in ("int_type", "int_parsing", "int_from_float"):
        return loc, f"must be a whole number, got {show(inp)}"
    if t in ("string_type", "string_sub_type"):
        return loc, f"must be text in quotes, got {show(inp)}"
    if t == "list_type":
        return loc, f"must be a list [...], got {show(inp)}"
    if t in ("model_type", "model_attributes_type", "dict_type"):
        return loc, f"must be a table {{ ... }}, got {show(inp)}"
    if t == "literal_error":
        return loc, f"must be one of {ctx.get('expected')}, got {show(inp)}"
    return loc, f"{err['msg']}, got {show(inp)}"


def one_of(value: str, known, what: str) -> str:
    """`value` if it is one of the names `known`; else the field's error line
    "unknown <what> 'value' (known: a, b, ...)" (pydantic validators raise it as ValueError)."""
    if value not in known:
        raise ValueError(f"unknown {what} {value!r} (known: {', '.join(known)})")
    return value


def rule_option(value: str, codes) -> str:
    """A named rule option's `value` if it is one of `codes` (value -> engine code); else
    "must be one of 'a', 'b', got 'value'"."""
    if value not in codes:
        raise ValueError(f"must be one of {', '.join(map(repr, codes))}, got {value!r}")
    return value


class Collector:
    def __init__(self, label: str, raw: Any):
        self.label, self.raw, self.lines = label, raw, []

    def add(self, loc: tuple, msg: str) -> None:
        place = where(self.raw, loc)
        if not place:
            line = f"{self.label}: {msg}"
        elif msg.startswith("must "):
            line = f"{self.label}: {place} {msg}"
        else:
            line = f"{self.label}: {place}: {msg}"
        if line not in self.lines:
            self.lines.append(line)

    def validate(self, model: Any, value: Any, loc: tuple, ctx: dict) -> Any:
        try:
            return model.model_validate(value, context=ctx)
        except ValidationError as exc:
            for err in exc.errors(include_url=False):
                sub_loc, msg = translate(err, model)
                self.add(loc + sub_loc, msg)
            return None


class Counts(dict):
    """counts.<key> -> the file's number, or None when absent or not a whole number."""
    def __getattr__(self, key: str) -> Optional[int]:
        return self.get(key)


def check_keys(col: Collector, table: dict, loc: tuple, lists: tuple, tables: tuple,
                what: str) -> None:
    known = lists + tables
    for k in table:
        if k not in known:
            col.add(loc, f"unknown {what} {k!r} (known: {', '.join(known)})")
    for k in lists:
        if k not in table:
            col.add(loc, f"missing list {k!r}")
    for k in tables:
        if k not in table:
            col.add(loc, f"missing table [{'.'.join(map(str, loc + (k,)))}]")


def validate_list(col: Collector, raw_list: Any, loc: tuple, model: Any, ctx: dict) -> list:
    """Validate each card alone (so one bad card does not hide the others): [(id, card)]."""
    if not isinstance(raw_list, list):
        col.add(loc, f"must be a list [...] of cards, got {show(raw_list)}")
        return []
    out = []
    for i, item in enumerate(raw_list):
        card = col.validate(model, item, loc + (i,), ctx)
        if card is not None:
            out.append((i, card))
    return out


def check_count(col: Collector, raw_list: Any, loc: tuple, expected: Optional[int],
                 counts_key: str) -> None:
    if expected is None or not isinstance(raw_list, list):
        return
    if len(raw_list) != expected:
        col.add(loc, f"expected {expected} cards, found {len(raw_list)} "
                     f"(counts.{counts_key} = {expected})")


def check_duplicate_names(col: Collector, raw_list: Any, loc: tuple) -> None:
    if not isinstance(raw_list, list):
        return
    first: dict = {}
    for i, item in enumerate(raw_list):
        name = item.get("name") if isinstance(item, dict) else None
        if not isinstance(name, str):
            continue
        if name in first:
            col.add(loc + (i,), f"duplicate name (also {loc[-1]}[{first[name]}])")
        else:
            first[name] = i


def toml_error(label: str, text: str, exc: Exception) -> str:
    msg = str(exc)
    m = re.fullmatch(r"(.*) \(at line (\d+), column (\d+)\)", msg, flags=re.S)
    if m:
        return f"{label}: line {m.group(2)}, column {m.group(3)}: {m.group(1)}"
    m = re.fullmatch(r"(.*) \(at end of document\)", msg, flags=re.S)
    if m:
        lines = text.splitlines() or [""]
        return f"{label}: line {len(lines)}, column {len(lines[-1]) + 1}: {m.group(1)} (at end of file)"
    return f"{label}: {msg}"


def read_text(path) -> tuple[str, str]:
    """(text, label) of a component file, or ComponentError naming the file and what is wrong."""
    from pathlib import Path

    from sim.game_api import ComponentError
    label = str(path)
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise ComponentError(f"{label}: no such file")
    except IsADirectoryError:
        raise ComponentError(f"{label}: is a directory, not a component file")
    except OSError as exc:
        raise ComponentError(f"{label}: cannot read the file: {exc.strerror or exc}")
    try:
        return data.decode("utf-8"), label
    except UnicodeDecodeError as exc:
        raise ComponentError(f"{label}: not UTF-8 text (byte {exc.start}): save the file as UTF-8")


DEFAULT_LABEL = "<default>"   # the `path` a loader gives for the game's shipped default file


def text_of(path, default_path: str) -> tuple[str, str]:
    """(text, label) of the component file at `path`; for `path` None, the game's shipped
    default file (`default_path`) labelled DEFAULT_LABEL."""
    from pathlib import Path
    if path is None:
        return Path(default_path).read_text(encoding="utf-8"), DEFAULT_LABEL
    return read_text(path)


def parse(text: str, path: str, default_path: str, overrides) -> tuple[str, dict, list]:
    """The first step of every game's loader: (label, raw, resolved). `label` names the file in
    messages (the default file's real path for DEFAULT_LABEL); `raw` is the parsed TOML with the
    `PATH=VALUE` overrides applied; `resolved` the overrides with names turned into indices
    (what the run manifest keeps). A TOML syntax error is one ComponentError line."""
    from sim.game_api import ComponentError
    from sim.overrides import apply_overrides, resolve_overrides
    try:  # Python >= 3.11
        import tomllib
    except ModuleNotFoundError:  # pragma: no cover - Python 3.10
        import tomli as tomllib
    label = default_path if path == DEFAULT_LABEL else path
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ComponentError(toml_error(label, text, exc))
    resolved = resolve_overrides(raw, list(overrides), label)  # names -> indices, for the manifest
    raw = apply_overrides(raw, resolved, label)
    from sim.limits import check_numbers
    check_numbers(raw, label)   # before a game converts a number to 64 bits (overflow)
    return label, raw, resolved


def counts_of(raw: dict) -> Counts:
    """The [counts] numbers usable for the card-list checks: each well-typed count is kept even
    if another count is wrong (that one is reported by the section's own validation)."""
    raw_counts = raw.get("counts") if isinstance(raw.get("counts"), dict) else {}
    return Counts({k: v for k, v in raw_counts.items()
                   if isinstance(v, int) and not isinstance(v, bool) and v >= 0})


def validate_whole(col: Collector, model: Any, raw: dict, ctx: dict) -> Any:
    """After the part-by-part checks: raise their lines if any, else validate the whole file
    against `model` (a safety net: a failure here means a part check is missing)."""
    from sim.game_api import ComponentError
    if col.lines:
        raise ComponentError(col.lines)
    whole = col.validate(model, raw, (), ctx)
    if whole is None:  # pragma: no cover - a check above is missing
        raise ComponentError(col.lines)
    return whole


def file_sha256(text: str, resolved: list) -> str:
    """The identity of a component file as played: its text and the resolved overrides."""
    import hashlib
    return hashlib.sha256("\n".join([text, *resolved]).encode("utf-8")).hexdigest()


def effective_text(text: str, overrides, label: str) -> str:
    """The component file as played: `text` with the `--set` overrides written into it
    (tomlkit keeps the designer's comments and layout), headed by one comment line naming the
    source file and the overrides. Without overrides, `text` itself.

    The overrides are applied by sim/overrides.py on the tomlkit document, so a path is read
    exactly as `--set` reads it; the result, loaded with no overrides, gives the same data as
    `text` loaded with them (tests/test_effective_components.py)."""
    overrides = list(overrides or ())
    if not overrides:
        return text
    import tomlkit

    from sim.overrides import apply_overrides
    doc = apply_overrides(tomlkit.parse(text), overrides, label)
    one_line = lambda s: " ".join(str(s).split())  # noqa: E731 - a comment is one line
    header = (f"# balance: the component file as played: {one_line(label)} with "
              f"--set {'; --set '.join(one_line(o) for o in overrides)}\n")
    return header + tomlkit.dumps(doc)
