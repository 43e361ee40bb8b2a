"""What a run played, against what the game ships: the settings of its component file that
differ from the shipped one (whether they came from `--set` or from a user's file), by card
name, and its players with their parameters.

    component_changes(shipped_text, played_text, kinds) -> DataFrame
        one row per changed value: section, item, kind, field, shipped, played
    run_component_changes(texts, meta) -> DataFrame | None   (texts: (shipped, played); None: not known)
    player_groups(manifest) -> DataFrame   seat, strategy, parameters (text), seats (count)

The component copy a run keeps (components.toml) is the effective file, `--set` written in
(sim/runner.py), so one diff against the shipped file says everything that was changed.
"""
from __future__ import annotations

import tomllib

import pandas as pd

CHANGE_COLUMNS = ["section", "item", "kind", "field", "shipped", "played"]
MISSING = "(none)"


def _named(items) -> bool:
    return isinstance(items, list) and items and all(isinstance(x, dict) and "name" in x
                                                     for x in items)


def _walk(shipped, played, path: list, out: list, kinds: dict, item: str = "",
          section: str = "") -> None:
    if isinstance(shipped, dict) and isinstance(played, dict):
        for key in list(dict.fromkeys([*shipped, *played])):
            _walk(shipped.get(key, MISSING), played.get(key, MISSING), path + [str(key)], out,
                  kinds, item, section or str(key))
        return
    if _named(shipped) and _named(played):
        before = {str(x["name"]): x for x in shipped}
        after = {str(x["name"]): x for x in played}
        for name in list(dict.fromkeys([*before, *after])):
            _walk(before.get(name, MISSING), after.get(name, MISSING), [], out, kinds, name,
                  path[-1] if path else section)
        return
    if shipped != played:
        out.append({"section": section, "item": item,
                    "kind": kinds.get(section, section) if item else "",
                    "field": ".".join(path) if path else "(the whole entry)",
                    "shipped": _show(shipped), "played": _show(played)})


def _show(v) -> str:
    if isinstance(v, dict) and "name" in v:
        return str(v["name"])
    return str(v)


def component_changes(shipped_text: str, played_text: str, kinds: dict | None = None):
    """Every value of the played component file that differs from the shipped one. Lists of
    named entries (cards, tiles) are matched by name; `kinds` names a list's entries ({"tiles":
    "tile"}) so that a change reads "Barn (tile): shields 2 -> 3"."""
    out: list = []
    _walk(tomllib.loads(shipped_text), tomllib.loads(played_text), [], out, kinds or {})
    return pd.DataFrame(out, columns=CHANGE_COLUMNS)


def card_kinds(meta: dict) -> dict:
    """{component list: card type} from the cards a game declares with a value_path
    ("tiles[{i}].shields" -> {"tiles": "tile"})."""
    out = {}
    for card in (meta or {}).get("cards") or []:
        path = card.get("value_path") or ""
        if "[" in path:
            out[path.split("[", 1)[0]] = str(card.get("type") or "")
    return out


def run_component_changes(texts, meta: dict | None = None):
    """The changes of a run's component copy against its game's shipped file; `texts` is
    (shipped, played) as the caller read them (sim.run_folder.RunFolder.component_texts), None
    when not known (the game is not registered here: nothing to compare with)."""
    if texts is None:
        return None
    try:
        return component_changes(texts[0], texts[1], card_kinds(meta or {}))
    except tomllib.TOMLDecodeError:
        return None


def _params_text(params: dict) -> str:
    return ", ".join(f"{k}={v:g}" if isinstance(v, (int, float)) and not isinstance(v, bool)
                     else f"{k}={v}" for k, v in (params or {}).items())


def player_groups(manifest: dict) -> pd.DataFrame:
    """The players as played: one row per distinct strategy (with its parameters), the seats
    it sat in (1-based, as given) and how many."""
    rows: dict = {}
    for seat, info in enumerate(manifest.get("strategies") or []):
        key = (str(info.get("name", "?")), _params_text(info.get("params") or {}))
        rows.setdefault(key, []).append(seat + 1)
    return pd.DataFrame([{"strategy": k[0], "parameters": k[1],
                          "seats": ", ".join(map(str, v)), "count": len(v)}
                         for k, v in rows.items()],
                        columns=["strategy", "parameters", "seats", "count"])
