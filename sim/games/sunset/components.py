"""Sunset Over Water: the component file (TOML), its validation, and the compiled tables.

The shipped default (`default_components.toml`, beside this module) is a RECONSTRUCTION: no
public card list exists. A designer copies it (`balance components sunset > mine.toml`),
edits it, and runs with `--components mine.toml`. Nothing about the cards is hard-coded in
the engine: every number arrives through the tables record (enums.TABLES_DTYPE), built here.

Public API:
    DEFAULT_PATH                              path of the shipped default file
    default_components_text() -> str          its text
    load_components(path=None) -> Components  read + validate a file (ComponentError otherwise)
    components_from_text(text, path) -> Components   same, from text already read

Validation collects every problem and raises one ComponentError with one line per problem,
each naming the file, the card (`commissions[12] "Lakeside Study"`) or field
(`rules.days`), and what is wrong. Card indices in messages are 0-based card ids (file order).
"""
from __future__ import annotations

import datetime
import re
from pathlib import Path
from typing import Annotated, Any, Optional

import numpy as np
from pydantic import (AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field,
                      ValidationInfo, field_validator, model_validator)

from sim.component_file import (  # the error lines and checks every game's loader shares
    Collector as _Collector, check_count as _check_count,
    check_duplicate_names as _check_duplicate_names, check_keys as _check_keys, show as _show,
    validate_list as _validate_list, counts_of, file_sha256, one_of, parse, rule_option, text_of,
    validate_whole,
)
from sim.game_api import Components
from sim.games.sunset import enums as E

GAME = "sunset"
DEFAULT_PATH = str(Path(__file__).with_name("default_components.toml"))

# --- facts of the box (docs: shared/rules/sunset-over-water-components.md) ------------------
# These are the real counts and the [counts] of the shipped file. A prototype may differ: the
# loader validates the card lists against the file's own [counts], not against these.
BOX_LANDSCAPES = 60
BOX_COMMISSIONS = 30
BOX_DAILY_GOALS = 7
BOX_PLANNING_PER_COLOUR = 8
BOX_RANGER_STATIONS = 4
BOX_INSPIRATION = 5
MAX_LANDSCAPE_FEATURES = 3       # "each card shows 1 to 3 of them"

ANY_FRAME = "?"
DIR_GROUPS = {
    "orthogonal": ("N", "E", "S", "W"),
    "diagonal": ("NE", "SE", "SW", "NW"),
    "horizontal": ("E", "W"),
    "vertical": ("N", "S"),
    "any": E.DIR_NAMES,
}
MAX_DAYS = E.N_PLAN - E.PLAN_DRAW + 1     # multiplayer: 3 drawn, 2 returned -> 6 days with 8 cards
MAX_SOLO_DAYS = E.N_PLAN                  # solo: one card played per day, none returned
MAX_MINUTES = 23 * 60 + 59
GOALS_WITHOUT_PARAM = ("move_horizontal", "move_vertical", "move_diagonal", "no_hike")
GOAL_COUNT_LIMITS = {                     # param upper bounds: more could never be met
    "hike_at_least": E.MAX_MOVE,
    "paint_at_least": E.MAX_PATH,
    "sell_at_least": E.MAX_ROW,
}
WAKE_TIE_CODES = {"random": E.WAKE_TIE_RANDOM, "seat": E.WAKE_TIE_SEAT}
EMPTY_DECK_REFILL_CODES = {"leave_empty": 0}
SHARED_STAY_CODES = {"must_leave": E.SHARED_STAY_MUST_LEAVE, "may_stay": E.SHARED_STAY_MAY_STAY}
TOP_LISTS = ("landscapes", "commissions", "goals", "planning")
TOP_TABLES = ("game", "counts", "rules", "solo")
SOLO_LISTS = ("ranger_cells", "inspiration", "bands")


# --- small validators -------------------------------------------------------------------
def _features_ctx(info: ValidationInfo) -> Optional[list]:
    ctx = info.context or {}
    return ctx.get("features")


def _known_features_text(known) -> str:
    return ", ".join(known)


def _check_feature(value: str, info: ValidationInfo) -> str:
    known = _features_ctx(info)
    if known is not None and value not in known:
        raise ValueError(f"unknown feature {value!r} (known: {_known_features_text(known)})")
    return value


def _check_frame(value: str, info: ValidationInfo) -> str:
    known = _features_ctx(info)
    if known is not None and value != ANY_FRAME and value not in known:
        raise ValueError(f"unknown feature {value!r} (known: {_known_features_text(known)}, "
                         f"or {ANY_FRAME!r} for any)")
    return value


def parse_time(value: Any) -> int:
    """'H:MM' (or a TOML local time) -> minutes after midnight; ValueError otherwise."""
    if isinstance(value, datetime.time):
        if value.second or value.microsecond:
            raise ValueError(f"must be a time \"H:MM\" without seconds, got {value}")
        return value.hour * 60 + value.minute
    if not isinstance(value, str):
        raise ValueError(f"must be a time in quotes like \"7:45\", got {_show(value)}")
    m = re.fullmatch(r"\s*(\d{1,2}):(\d{2})\s*", value)
    if not m:
        raise ValueError(f"must be a time \"H:MM\" like \"7:45\", got {value!r}")
    h, mi = int(m.group(1)), int(m.group(2))
    if h > 23 or mi > 59:
        raise ValueError(f"must be a time between 0:00 and 23:59, got {value!r}")
    return h * 60 + mi


def format_time(minutes: int) -> str:
    return f"{minutes // 60}:{minutes % 60:02d}"


def _norm_time(value: Any) -> str:
    return format_time(parse_time(value))


def _norm_direction(value: Any) -> Any:
    if isinstance(value, str):
        if value.strip().upper() in E.DIR_NAMES:
            return value.strip().upper()
        if value.strip().lower() in DIR_GROUPS:
            return value.strip().lower()
        raise ValueError(f"unknown direction {value!r} (known: {', '.join(E.DIR_NAMES)}, "
                         f"or a group: {', '.join(DIR_GROUPS)})")
    return value  # not text: the str type check reports it


def _norm_cell(value: Any) -> Any:
    """A ranger cell as "row,col", [row, col] or a cell index -> cell index."""
    if isinstance(value, bool):
        raise ValueError(f"must be \"row,col\" or a cell index, got {value!r}")
    if isinstance(value, int):
        if not 0 <= value < E.N_CELLS:
            raise ValueError(f"cell {value} is outside the {E.GRID}x{E.GRID} grid "
                             f"(cells 0..{E.N_CELLS - 1})")
        cell = value
    else:
        if isinstance(value, str):
            m = re.fullmatch(r"\s*(-?\d+)\s*,\s*(-?\d+)\s*", value)
            if not m:
                raise ValueError(f"must be \"row,col\" (0-based) or a cell index, got {value!r}")
            r, c = int(m.group(1)), int(m.group(2))
        elif (isinstance(value, list) and len(value) == 2
              and all(isinstance(x, int) and not isinstance(x, bool) for x in value)):
            r, c = value
        else:
            raise ValueError(f"must be \"row,col\" (0-based) or a cell index, got {_show(value)}")
        if not (0 <= r < E.GRID and 0 <= c < E.GRID):
            raise ValueError(f"cell ({r},{c}) is outside the {E.GRID}x{E.GRID} grid "
                             f"(rows and columns 0..{E.GRID - 1})")
        cell = r * E.GRID + c
    if cell == E.CENTER:
        raise ValueError(f"cell {_cell_text(cell)} is the centre, where the artist starts; "
                         f"a ranger station cannot go there")
    return cell


def _cell_text(cell: int) -> str:
    return f"\"{cell // E.GRID},{cell % E.GRID}\""


Text = Annotated[str, Field(min_length=1)]
FeatureName = Annotated[str, AfterValidator(_check_feature)]
FrameName = Annotated[str, AfterValidator(_check_frame)]
WakeTime = Annotated[str, BeforeValidator(_norm_time)]
Direction = Annotated[str, BeforeValidator(_norm_direction)]
RangerCell = Annotated[int, BeforeValidator(_norm_cell)]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


# --- the file's models ------------------------------------------------------------------
class GameSection(_Model):
    features: list[Text] = Field(description="feature names, codes 0..4 in order")

    @field_validator("features")
    @classmethod
    def _five_distinct(cls, v: list) -> list:
        if len(v) != E.N_FEATURES:
            raise ValueError(f"must name exactly {E.N_FEATURES} features, got {len(v)}")
        dup = sorted({f for f in v if v.count(f) > 1})
        if dup:
            raise ValueError(f"feature names must be distinct; repeated: {', '.join(map(repr, dup))}")
        if ANY_FRAME in v:
            raise ValueError(f"{ANY_FRAME!r} is reserved for 'any feature' and cannot be a feature name")
        return v


class CountsSection(_Model):
    # upper bounds: the capacities of the compiled state (enums.MAX_*), fixed so that a
    # prototype with another card count needs no recompile
    landscapes: int = Field(ge=E.N_CELLS, le=E.MAX_LAND, description="landscape cards (>= 25: a 5x5 wilderness)")
    commissions: int = Field(ge=1, le=E.MAX_COMM)
    goals: int = Field(ge=1, le=E.MAX_GOAL)
    planning: int = Field(description=f"planning cards per colour (the engine holds exactly {E.N_PLAN})")
    ranger_cells: int = Field(ge=0, le=min(E.N_CELLS - 1, E.MAX_RANGER))
    inspiration: int = Field(ge=1, le=E.MAX_INSP)

    @field_validator("planning")
    @classmethod
    def _n_plan(cls, v: int) -> int:
        if v != E.N_PLAN:
            raise ValueError(f"must be {E.N_PLAN} (the engine's planning deck size, N_PLAN), got {v}")
        return v


class RulesSection(_Model):
    days: int = Field(ge=1, le=MAX_DAYS)
    solo_days: int = Field(ge=1, le=MAX_SOLO_DAYS)
    row_extra: int = Field(ge=0, le=E.MAX_ROW - E.MAX_PLAYERS)
    solo_row: int = Field(ge=1, le=E.MAX_ROW)
    features_per_point: int = Field(ge=1)
    wake_tie: str
    return_home_bonus: int = Field(ge=0)
    inspiration_points: int = Field(ge=0)
    empty_deck_refill: str
    # Optional so that component files written before this option existed still load; the
    # default is the rulebook's literal reading (docs: "Rule options").
    stay_on_shared_card: str = "must_leave"

    @field_validator("wake_tie", "empty_deck_refill", "stay_on_shared_card")
    @classmethod
    def _one_of_the_codes(cls, v: str, info) -> str:
        codes = {"wake_tie": WAKE_TIE_CODES, "empty_deck_refill": EMPTY_DECK_REFILL_CODES,
                 "stay_on_shared_card": SHARED_STAY_CODES}[info.field_name]
        return rule_option(v, codes)


class Landscape(_Model):
    name: Text
    features: list[FeatureName] = Field(min_length=1, max_length=MAX_LANDSCAPE_FEATURES)

    @field_validator("features")
    @classmethod
    def _distinct(cls, v: list) -> list:
        dup = sorted({f for f in v if v.count(f) > 1})
        if dup:
            raise ValueError(f"feature {dup[0]!r} listed twice (a landscape shows each feature at most once)")
        return v


class Commission(_Model):
    name: Text
    frames: list[FrameName] = Field(min_length=1, max_length=E.MAX_FRAMES)
    points: int = Field(ge=0)


class Goal(_Model):
    name: Text
    text: Text
    kind: str
    param: Any = None
    points: int = Field(ge=0)

    @field_validator("kind")
    @classmethod
    def _kind(cls, v: str) -> str:
        return one_of(v, E.GOAL_KIND_NAMES, "goal kind")

    @model_validator(mode="after")
    def _param(self, info: ValidationInfo) -> "Goal":
        k, p = self.kind, self.param
        if k in GOALS_WITHOUT_PARAM:
            if p is not None:
                raise ValueError(f"param: kind {k!r} takes no param, got {_show(p)}")
        elif k in GOAL_COUNT_LIMITS:
            hi = GOAL_COUNT_LIMITS[k]
            if isinstance(p, bool) or not isinstance(p, int) or not 1 <= p <= hi:
                raise ValueError(f"param: kind {k!r} needs a whole number 1..{hi}, got {_show(p)}")
        elif k == "paint_feature":
            known = _features_ctx(info)
            if not isinstance(p, str):
                raise ValueError(f"param: kind 'paint_feature' needs a feature name, got {_show(p)}")
            if known is not None and p not in known:
                raise ValueError(f"param: unknown feature {p!r} (known: {_known_features_text(known)})")
        return self


class PlanningCard(_Model):
    name: Optional[Text] = None       # optional; defaults to "wake H:MM"
    wake: WakeTime
    hike: list[Direction] = Field(min_length=1)
    move: int = Field(ge=0, le=E.MAX_MOVE)
    paint: int = Field(ge=0, le=E.MAX_PATH)

    @model_validator(mode="after")
    def _default_name(self) -> "PlanningCard":
        if self.name is None:
            self.name = f"wake {self.wake}"
        return self


class Inspiration(_Model):
    name: Text
    feature: FeatureName


class Band(_Model):
    name: Text
    from_: WakeTime = Field(alias="from")
    to: WakeTime
    effect: str
    param: int = Field(default=0, ge=0)

    @field_validator("effect")
    @classmethod
    def _effect(cls, v: str) -> str:
        return one_of(v, E.WAKE_EFFECT_NAMES, "effect")

    @model_validator(mode="after")
    def _check(self) -> "Band":
        if parse_time(self.from_) > parse_time(self.to):
            raise ValueError(f"starts after it ends ({self.from_} > {self.to})")
        if self.effect == "discard_commissions":
            if not 1 <= self.param <= E.MAX_ROW:
                raise ValueError(f"param: 'discard_commissions' needs 1..{E.MAX_ROW} "
                                 f"commissions to discard, got {self.param}")
        elif self.param != 0:
            raise ValueError(f"param: effect {self.effect!r} takes no param, got {self.param}")
        return self


class SoloSection(_Model):
    ranger_cells: list[RangerCell]
    inspiration: list[Inspiration]
    bands: list[Band]


class SunsetComponentFile(_Model):
    """The whole file (used once every part has validated)."""
    landscapes: list[Landscape]
    commissions: list[Commission]
    goals: list[Goal]
    planning: list[PlanningCard]
    game: GameSection
    counts: CountsSection
    rules: RulesSection
    solo: SoloSection


# --- loading ----------------------------------------------------------------------------
def default_components_text() -> str:
    """The shipped default component file, exactly as on disk."""
    return Path(DEFAULT_PATH).read_text(encoding="utf-8")


def load_components(path: str | None = None, overrides: tuple = ()) -> Components:
    """Read and validate a component file (the shipped default when `path` is None), with
    `--set PATH=VALUE` overrides applied before validation (sim/overrides.py).

    Raises ComponentError with one line per problem, each naming the file and the card or field.
    """
    text, label = text_of(path, DEFAULT_PATH)
    return components_from_text(text, label, overrides)


def components_from_text(text: str, path: str = "<text>", overrides: tuple = ()) -> Components:
    """Validate component-file text; `path` names the file in messages and in Components.path.
    `overrides`: `PATH=VALUE` strings applied to the parsed file before validation."""
    label, raw, resolved = parse(text, path, DEFAULT_PATH, overrides)

    col = _Collector(label, raw)
    _check_keys(col, raw, (), TOP_LISTS, TOP_TABLES, "section")

    # [game] first: the feature names every card refers to.
    game = col.validate(GameSection, raw["game"], ("game",), {}) if "game" in raw else None
    ctx = {"features": list(game.features) if game is not None else None}
    if "counts" in raw:
        col.validate(CountsSection, raw["counts"], ("counts",), ctx)
    counts = counts_of(raw)  # each well-typed count, even if another count is wrong
    rules = col.validate(RulesSection, raw["rules"], ("rules",), ctx) if "rules" in raw else None
    _validate_cards(col, raw, counts, ctx)
    solo_raw = raw.get("solo")
    if isinstance(solo_raw, dict):
        _validate_solo(col, solo_raw, counts, ctx)
    elif "solo" in raw:
        col.add(("solo",), f"must be a table [solo], got {_show(solo_raw)}")
    if rules is not None:
        _check_deck_sizes(col, rules, counts)

    # Everything validated part by part: the whole model now validates (safety net).
    model = validate_whole(col, SunsetComponentFile, raw, ctx)

    return Components(
        game=GAME,
        path=path,
        text=text,
        sha256=file_sha256(text, resolved),
        data=model.model_dump(by_alias=True),
        tables=build_tables(model),
        card_names=_card_names(model),
        overrides=list(overrides), overrides_resolved=resolved,
    )


CARD_LISTS = {"landscapes": Landscape, "commissions": Commission, "goals": Goal,
              "planning": PlanningCard}


def _validate_cards(col: _Collector, raw: dict, counts, ctx: dict) -> None:
    """The four card lists: each card, the list's length against its [counts] entry, and
    distinct names."""
    for key, model in CARD_LISTS.items():
        if key not in raw:
            continue
        _validate_list(col, raw[key], (key,), model, ctx)
        _check_count(col, raw[key], (key,), counts.get(key), key)
        _check_duplicate_names(col, raw[key], (key,))


def _validate_solo(col: _Collector, solo_raw: dict, counts, ctx: dict) -> None:
    """[solo]: its ranger cells, inspiration cards and wake-up bands."""
    _check_keys(col, solo_raw, ("solo",), SOLO_LISTS, (), "key")
    if "ranger_cells" in solo_raw:
        _validate_ranger_cells(col, solo_raw["ranger_cells"], counts)
    if "inspiration" in solo_raw:
        _validate_list(col, solo_raw["inspiration"], ("solo", "inspiration"), Inspiration, ctx)
        _check_count(col, solo_raw["inspiration"], ("solo", "inspiration"),
                     counts.get("inspiration"), "inspiration")
        _check_duplicate_names(col, solo_raw["inspiration"], ("solo", "inspiration"))
    if "bands" in solo_raw:
        _validate_bands(col, solo_raw["bands"], ctx)


def _validate_ranger_cells(col: _Collector, cells, counts) -> None:
    """Each cell on the grid, off the centre, listed once; as many as [counts] says."""
    if not isinstance(cells, list):
        col.add(("solo", "ranger_cells"), f"must be a list [...] of cells, got {_show(cells)}")
    else:
        seen: dict = {}
        for i, c in enumerate(cells):
            try:
                cell = _norm_cell(c)
            except ValueError as exc:
                col.add(("solo", "ranger_cells", i), str(exc))
                continue
            if cell in seen:
                col.add(("solo", "ranger_cells", i),
                        f"duplicate cell {_cell_text(cell)} (also solo.ranger_cells[{seen[cell]}])")
            else:
                seen[cell] = i
    _check_count(col, cells, ("solo", "ranger_cells"), counts.get("ranger_cells"), "ranger_cells")


def _validate_bands(col: _Collector, raw_bands, ctx: dict) -> None:
    """The wake-up bands: each band, distinct names, at most the engine's capacity, and no
    two overlapping."""
    bands = _validate_list(col, raw_bands, ("solo", "bands"), Band, ctx)
    _check_duplicate_names(col, raw_bands, ("solo", "bands"))
    if isinstance(raw_bands, list) and len(raw_bands) > E.MAX_BAND:
        col.add(("solo", "bands"), f"at most {E.MAX_BAND} bands (the engine's capacity), "
                                   f"found {len(raw_bands)}")
    spans = sorted((parse_time(b.from_), parse_time(b.to), i) for i, b in bands)
    for (f0, t0, i0), (f1, t1, i1) in zip(spans, spans[1:]):
        if f1 <= t0:
            col.add(("solo", "bands", i1),
                    f"overlaps solo.bands[{i0}] ({format_time(f1)}-{format_time(t1)} vs "
                    f"{format_time(f0)}-{format_time(t0)})")


def _check_deck_sizes(col: _Collector, rules: RulesSection, counts) -> None:
    """Enough commissions for the longest row plus the revealed card, and a daily goal for
    every day."""
    row = max(E.MAX_PLAYERS + rules.row_extra, rules.solo_row)
    if counts.commissions is not None and counts.commissions < row + 1:
        col.add(("counts", "commissions"),
                f"must be >= {row + 1} (the longest commission row, {row} cards, "
                f"plus the revealed card), got {counts.commissions}")
    if counts.goals is not None and counts.goals < rules.days:
        col.add(("counts", "goals"),
                f"must be >= rules.days = {rules.days} (one daily goal per day), got {counts.goals}")


# --- compiled tables ----------------------------------------------------------------------
def _dir_mask(hike: list) -> int:
    mask = 0
    for d in hike:
        for name in DIR_GROUPS.get(d, (d,)):
            mask |= 1 << E.DIR_NAMES.index(name)
    return mask


def build_tables(m: SunsetComponentFile) -> np.recarray:
    """The kernels' tables, a 1-element recarray of E.TABLES_DTYPE (kernels take element 0),
    straight from the validated file: card id = position in the file; the card counts are
    within the capacities (CountsSection and the bands' check)."""
    rec = np.zeros(1, E.TABLES_DTYPE).view(np.recarray)
    t = rec[0]
    fcode = {f: i for i, f in enumerate(m.game.features)}
    _fill_landscapes(t, m.landscapes, fcode)
    _fill_commissions(t, m.commissions, fcode)
    _fill_goals(t, m.goals, fcode)
    _fill_planning(t, m.planning)
    _fill_solo(t, m.solo, fcode)
    r = m.rules
    for name in ("days", "solo_days", "row_extra", "solo_row", "features_per_point",
                 "return_home_bonus", "inspiration_points"):
        t[name] = getattr(r, name)
    t.wake_tie = WAKE_TIE_CODES[r.wake_tie]
    t.empty_deck_refill = EMPTY_DECK_REFILL_CODES[r.empty_deck_refill]
    t.stay_on_shared_card = SHARED_STAY_CODES[r.stay_on_shared_card]
    return rec


def _fill_landscapes(t, cards: list, fcode: dict) -> None:
    t.n_land = len(cards)
    for i, card in enumerate(cards):
        for f in card.features:
            t.landscape_features[i, fcode[f]] += 1
        t.landscape_n_features[i] = len(card.features)
        t.landscape_mask[i] = sum(1 << f for f in range(E.N_FEATURES)
                                  if t.landscape_features[i, f] > 0)


def _fill_commissions(t, cards: list, fcode: dict) -> None:
    """Frames as feature codes (a "?" frame: ANY_FEATURE), NO_FRAME past a card's frames and
    past the last card."""
    t.n_comm = len(cards)
    t.commission_frames[:] = E.NO_FRAME
    for i, card in enumerate(cards):
        for j, f in enumerate(card.frames):
            t.commission_frames[i, j] = E.ANY_FEATURE if f == ANY_FRAME else fcode[f]
        t.commission_n_frames[i] = len(card.frames)
        t.commission_points[i] = card.points


def _fill_goals(t, goals: list, fcode: dict) -> None:
    """A goal's param: the feature code (paint_feature), the count (the *_at_least kinds),
    0 for the kinds without one."""
    t.n_goal = len(goals)
    for i, g in enumerate(goals):
        t.goal_kind[i] = E.GOAL_KIND_NAMES.index(g.kind)
        if g.kind == "paint_feature":
            t.goal_param[i] = fcode[g.param]
        elif g.kind in GOAL_COUNT_LIMITS:
            t.goal_param[i] = int(g.param)
        t.goal_points[i] = g.points


def _fill_planning(t, cards: list) -> None:
    for i, card in enumerate(cards):
        t.plan_wake[i] = parse_time(card.wake)
        t.plan_dirs[i] = _dir_mask(card.hike)
        t.plan_move[i] = card.move
        t.plan_paint[i] = card.paint


def _fill_solo(t, solo: SoloSection, fcode: dict) -> None:
    t.n_ranger = len(solo.ranger_cells)
    t.ranger_cells[:t.n_ranger] = solo.ranger_cells
    t.n_insp = len(solo.inspiration)
    for i, card in enumerate(solo.inspiration):
        t.inspiration_feature[i] = fcode[card.feature]
    t.n_band = len(solo.bands)
    for i, b in enumerate(solo.bands):
        t.band_from[i] = parse_time(b.from_)
        t.band_to[i] = parse_time(b.to)
        t.band_effect[i] = E.WAKE_EFFECT_NAMES.index(b.effect)
        t.band_param[i] = b.param


def _card_names(m: SunsetComponentFile) -> dict:
    return {
        "landscape": [c.name for c in m.landscapes],
        "commission": [c.name for c in m.commissions],
        "goal": [g.name for g in m.goals],
        "planning": [p.name for p in m.planning],
        "inspiration": [c.name for c in m.solo.inspiration],
        "band": [b.name for b in m.solo.bands],
        "feature": list(m.game.features),
    }
