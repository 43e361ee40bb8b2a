"""Sagrada: the component file (TOML), its validation, and the compiled tables.

The shipped default (`default_components.toml`) holds the REAL components of the base game
(24 window patterns, 10 public objectives, 5 private objectives, 12 tool cards, 90 dice),
from /work/shared/rules/sagrada-components.md. A designer copies it
(`balance components sagrada > mine.toml`), edits it and runs with `--components mine.toml`.

Validation collects every problem and raises one ComponentError with one line per problem,
each naming the file, the card (`windows[3] "Sun Catcher": grid`) or field (`rules.rounds`)
and what is wrong. The generic error wording (pydantic errors -> one line) is shared with
Sunset Over Water's loader.
"""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from sim.game_api import Components
from sim.games.sagrada import enums as E
from sim.component_file import counts_of, file_sha256, one_of, parse, text_of, validate_whole
from sim.component_file import Collector as _Collector
from sim.component_file import check_count as _check_count, check_duplicate_names as _check_duplicate_names
from sim.component_file import check_keys as _check_keys
from sim.component_file import validate_list as _validate_list

GAME = "sagrada"
DEFAULT_PATH = str(Path(__file__).with_name("default_components.toml"))

TOP_LISTS = ("windows", "public", "private", "tools")
TOP_TABLES = ("dice", "counts", "rules")
CELL_CHARS = "." + E.COLOUR_LETTERS + "123456"

Text = Annotated[str, Field(min_length=1)]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


def _colour(value: str) -> str:
    return one_of(value, E.COLOUR_NAMES, "colour")


class Window(_Model):
    name: Text
    card: int = Field(ge=1, description="physical card (1-based); its two sides share it")
    difficulty: int = Field(ge=0, le=20)
    grid: list[str] = Field(min_length=E.ROWS, max_length=E.ROWS)

    @field_validator("grid")
    @classmethod
    def _grid(cls, v: list) -> list:
        for r, row in enumerate(v):
            if len(row) != E.COLS:
                raise ValueError(f"row {r + 1} {row!r} must have {E.COLS} characters, has {len(row)}")
            bad = sorted({ch for ch in row if ch not in CELL_CHARS})
            if bad:
                raise ValueError(f"row {r + 1} {row!r}: unknown cell {bad[0]!r} (use . for blank, "
                                 f"{' '.join(E.COLOUR_LETTERS)} for a colour, 1-6 for a shade)")
        return v


class Public(_Model):
    name: Text
    kind: str
    points: int = Field(ge=0)
    values: Optional[list[int]] = None
    colours: Optional[list[str]] = None

    @field_validator("kind")
    @classmethod
    def _kind(cls, v: str) -> str:
        return one_of(v, E.OBJ_KIND_NAMES, "kind")

    @model_validator(mode="after")
    def _params(self) -> "Public":
        if self.kind == "shade_set":
            if not self.values:
                raise ValueError("kind 'shade_set' needs values = [...] (1..6)")
            if any(not 1 <= x <= E.N_VALUES for x in self.values) or len(set(self.values)) != len(self.values):
                raise ValueError(f"values must be distinct numbers 1..6, got {self.values}")
        elif self.values is not None:
            raise ValueError(f"kind {self.kind!r} takes no values")
        if self.kind == "colour_set":
            if not self.colours:
                raise ValueError("kind 'colour_set' needs colours = [...]")
            for c in self.colours:
                _colour(c)
            if len(set(self.colours)) != len(self.colours):
                raise ValueError(f"colours must be distinct, got {self.colours}")
        elif self.colours is not None:
            raise ValueError(f"kind {self.kind!r} takes no colours")
        return self


class Private(_Model):
    name: Text
    colour: str

    @field_validator("colour")
    @classmethod
    def _c(cls, v: str) -> str:
        return _colour(v)


class Tool(_Model):
    name: Text
    rule: int = Field(ge=1, le=E.N_TOOL_EFFECTS, description="the card's number, 1..12: its effect")
    colour: str

    @field_validator("colour")
    @classmethod
    def _c(cls, v: str) -> str:
        return _colour(v)


class DiceSection(_Model):
    red: int = Field(ge=0)
    yellow: int = Field(ge=0)
    green: int = Field(ge=0)
    blue: int = Field(ge=0)
    purple: int = Field(ge=0)


class CountsSection(_Model):
    windows: int = Field(ge=2, le=E.MAX_PATTERNS)
    public: int = Field(ge=1, le=E.MAX_PUBLIC)
    private: int = Field(ge=1, le=E.MAX_PRIVATE)
    tools: int = Field(ge=1, le=E.MAX_TOOLS)


class RulesSection(_Model):
    rounds: int = Field(ge=1, le=E.MAX_ROUNDS)
    dice_per_player: int = Field(ge=1)
    dice_extra: int = Field(ge=0)
    public_objectives: int = Field(ge=0, le=E.N_PUB_SLOTS)
    tool_cards: int = Field(ge=0, le=E.MAX_IN_PLAY)
    window_cards: int = Field(ge=1, le=E.MAX_DEAL)
    empty_penalty: int = Field(ge=0)
    token_points: int = Field(ge=0)
    tool_first_cost: int = Field(ge=0)
    tool_later_cost: int = Field(ge=0)
    pip_points: int = Field(ge=0)
    solo_dice: int = Field(ge=1, le=E.MAX_POOL)
    solo_public: int = Field(ge=0, le=E.N_PUB_SLOTS)
    solo_private: int = Field(ge=1, le=E.N_PRIV_SLOTS)
    solo_tools: int = Field(ge=0, le=E.MAX_IN_PLAY)
    solo_empty_penalty: int = Field(ge=0)


class SagradaComponentFile(_Model):
    windows: list[Window]
    public: list[Public]
    private: list[Private]
    tools: list[Tool]
    dice: DiceSection
    counts: CountsSection
    rules: RulesSection


# --- loading ----------------------------------------------------------------------------
def default_components_text() -> str:
    return Path(DEFAULT_PATH).read_text(encoding="utf-8")


def load_components(path: str | None = None, overrides: tuple = ()) -> Components:
    """Read and validate a component file (the shipped default when `path` is None), with
    `--set PATH=VALUE` overrides applied before validation (sim/overrides.py)."""
    text, label = text_of(path, DEFAULT_PATH)
    return components_from_text(text, label, overrides)


def components_from_text(text: str, path: str = "<text>", overrides: tuple = ()) -> Components:
    """Validate component-file text; `path` names the file in messages; `overrides`:
    `PATH=VALUE` strings applied to the parsed file before validation."""
    label, raw, resolved = parse(text, path, DEFAULT_PATH, overrides)

    col = _Collector(label, raw)
    _check_keys(col, raw, (), TOP_LISTS, TOP_TABLES, "section")
    dice = col.validate(DiceSection, raw["dice"], ("dice",), {}) if "dice" in raw else None
    if "counts" in raw:
        col.validate(CountsSection, raw["counts"], ("counts",), {})
    counts = counts_of(raw)
    rules = col.validate(RulesSection, raw["rules"], ("rules",), {}) if "rules" in raw else None

    models = {"windows": Window, "public": Public, "private": Private, "tools": Tool}
    valid = {}
    for key, model in models.items():
        if key not in raw:
            continue
        valid[key] = _validate_list(col, raw[key], (key,), model, {})
        _check_count(col, raw[key], (key,), counts.get(key), key)
        _check_duplicate_names(col, raw[key], (key,))

    _check_window_cards(col, raw, rules)
    if rules is not None:
        _check_rules_fit(col, raw, rules, dice)

    model = validate_whole(col, SagradaComponentFile, raw, {})
    return Components(game=GAME, path=path, text=text,
                      sha256=file_sha256(text, resolved),
                      data=model.model_dump(), tables=build_tables(model),
                      card_names=_card_names(model), overrides=list(overrides),
                      overrides_resolved=resolved)


def _check_window_cards(col, raw: dict, rules) -> None:
    """Every physical window card has exactly two sides, and there are enough cards to deal
    `rules.window_cards` to each of 4 players."""
    if not isinstance(raw.get("windows"), list):
        return
    sides: dict = {}
    for i, w in enumerate(raw["windows"]):  # raw: a window with another error still counts
        card = w.get("card") if isinstance(w, dict) else None
        if isinstance(card, int) and not isinstance(card, bool):
            sides.setdefault(card, []).append(i)
    for card, ids in sorted(sides.items()):
        if len(ids) != 2:
            where = ("windows", ids[-1])
            col.add(where, f"card {card} has {len(ids)} side(s) (windows "
                           f"{', '.join(str(i) for i in ids)}); every card has exactly 2")
    n_cards = len(sides)
    if rules is not None and n_cards and n_cards < E.MAX_PLAYERS * rules.window_cards:
        col.add(("rules", "window_cards"),
                f"{E.MAX_PLAYERS} players x {rules.window_cards} cards need "
                f"{E.MAX_PLAYERS * rules.window_cards} window cards, the file has {n_cards}")


def _check_rules_fit(col, raw: dict, rules, dice) -> None:
    """The rules fit the cards, the dice and the engine: enough private objectives, public
    objectives and tool cards to deal, a 4-player pool within the engine's, enough dice for
    every round and no more than the engine holds."""
    n_priv = len(raw["private"]) if isinstance(raw.get("private"), list) else None
    if n_priv is not None and n_priv < max(E.MAX_PLAYERS, rules.solo_private):
        col.add(("private",), f"needs at least {max(E.MAX_PLAYERS, rules.solo_private)} cards "
                              f"(one per player, {rules.solo_private} in solo), found {n_priv}")
    n_pub = len(raw["public"]) if isinstance(raw.get("public"), list) else None
    if n_pub is not None and n_pub < max(rules.public_objectives, rules.solo_public):
        col.add(("rules", "public_objectives"),
                f"{max(rules.public_objectives, rules.solo_public)} face up, but only "
                f"{n_pub} public objectives in the file")
    n_tool = len(raw["tools"]) if isinstance(raw.get("tools"), list) else None
    if n_tool is not None and n_tool < max(rules.tool_cards, rules.solo_tools):
        col.add(("rules", "tool_cards"),
                f"{max(rules.tool_cards, rules.solo_tools)} face up, but only {n_tool} "
                f"tool cards in the file")
    if E.MAX_PLAYERS * rules.dice_per_player + rules.dice_extra > E.MAX_POOL:
        col.add(("rules", "dice_per_player"),
                f"{E.MAX_PLAYERS} players draw {E.MAX_PLAYERS * rules.dice_per_player + rules.dice_extra}"
                f" dice a round, more than the engine's pool holds ({E.MAX_POOL})")
    if dice is not None:
        total = sum(dice.model_dump().values())
        need = rules.rounds * max(E.MAX_PLAYERS * rules.dice_per_player + rules.dice_extra,
                                  rules.solo_dice)
        if total > E.MAX_DICE:
            col.add(("dice",), f"{total} dice, more than the engine holds ({E.MAX_DICE})")
        elif total < need:
            col.add(("dice",), f"{total} dice, but {rules.rounds} rounds of a 4-player game "
                               f"draw {need}")


# rules copied as written into the tables' field of the same name (enums.TABLES_DTYPE)
NUMBER_RULES = tuple(RulesSection.model_fields)


def build_tables(m: SagradaComponentFile) -> np.recarray:
    """The kernels' tables, a 1-element recarray of E.TABLES_DTYPE, straight from the
    validated file (card ids are list indices, file order)."""
    counts = {"patterns": len(m.windows), "public": len(m.public), "private": len(m.private),
              "tools": len(m.tools), "dice": sum(m.dice.model_dump().values())}
    for what, n in counts.items():
        if n > E.CAPACITY[what]:
            raise ValueError(f"{what}: {n}, more than the engine holds ({E.CAPACITY[what]})")
    rec = np.zeros(1, E.TABLES_DTYPE).view(np.recarray)
    t = rec[0]
    t.n_patterns, t.n_public, t.n_private = counts["patterns"], counts["public"], counts["private"]
    t.n_tools, t.n_dice = counts["tools"], counts["dice"]
    _fill_windows(t, m.windows)
    _fill_public(t, m.public)
    colour = {c: i for i, c in enumerate(E.COLOUR_NAMES)}
    t.private_colour[:len(m.private)] = [colour[p.colour] for p in m.private]
    t.tool_effect[:len(m.tools)] = [tool.rule - 1 for tool in m.tools]
    t.tool_colour[:len(m.tools)] = [colour[tool.colour] for tool in m.tools]
    t.tool_number[:len(m.tools)] = [tool.rule for tool in m.tools]
    t.dice_per_colour[:] = [getattr(m.dice, c) for c in E.COLOUR_NAMES]
    for name in NUMBER_RULES:
        t[name] = getattr(m.rules, name)
    return rec


def _fill_windows(t, windows: list) -> None:
    """Each pattern side's restrictions (grid letters and digits) and difficulty; the
    physical cards (sorted by their number in the file) and the two sides of each."""
    t.pattern_colour[:len(windows)] = E.NO_COLOUR
    t.pattern_value[:len(windows)] = E.NO_VALUE
    for i, w in enumerate(windows):
        for r, row in enumerate(w.grid):
            for k, ch in enumerate(row):
                cell = r * E.COLS + k
                if ch in E.COLOUR_LETTERS:
                    t.pattern_colour[i, cell] = E.COLOUR_LETTERS.index(ch)
                elif ch.isdigit():
                    t.pattern_value[i, cell] = int(ch)
    card_id = {c: i for i, c in enumerate(sorted({w.card for w in windows}))}
    t.n_cards = len(card_id)
    t.card_sides[:len(card_id)] = -1
    for i, w in enumerate(windows):
        t.pattern_difficulty[i] = w.difficulty
        t.pattern_card[i] = card_id[w.card]
        sides = t.card_sides[card_id[w.card]]
        sides[0 if sides[0] < 0 else 1] = i


def _fill_public(t, public: list) -> None:
    """Each public objective's kind (OBJ_*), points, and the set kinds' parameter as a
    bitmask (shade_set: bit v-1 per value; colour_set: bit c per colour)."""
    colour = {c: i for i, c in enumerate(E.COLOUR_NAMES)}
    for i, o in enumerate(public):
        t.public_kind[i] = E.OBJ_KIND_NAMES.index(o.kind)
        t.public_points[i] = o.points
        if o.kind == "shade_set":
            t.public_mask[i] = sum(1 << (v - 1) for v in o.values)
        elif o.kind == "colour_set":
            t.public_mask[i] = sum(1 << colour[c] for c in o.colours)


def _card_names(m: SagradaComponentFile) -> dict:
    return {
        "window": [w.name for w in m.windows],
        "public": [o.name for o in m.public],
        "private": [p.name for p in m.private],
        "tool": [t.name for t in m.tools],
        "colour": list(E.COLOUR_NAMES),
    }
