"""Lowlands: the component file (TOML), its validation, and the compiled tables.

The shipped default (`default_components.toml`) holds every count and rule of the rulebook
and a labelled reconstruction of every value that is not public (see
docs/games/lowlands-components.md). Validation collects every problem and raises one
ComponentError with one line per problem, naming the file, the tile (`tiles[3] "Feeding
Trough": cost`) or field (`rules.hand_limit`) and what is wrong.
"""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from sim.component_file import (Collector, check_count, check_duplicate_names,
                                check_keys, file_sha256, one_of, parse, text_of, validate_list,
                                validate_whole)
from sim.game_api import Components
from sim.games.lowlands import enums as E

GAME = "lowlands"
DEFAULT_PATH = str(Path(__file__).with_name("default_components.toml"))
TOP_LISTS = ("tiles", "floods", "farms")
TOP_TABLES = ("dike", "prices", "market", "income", "counts", "rules")
Text = Annotated[str, Field(min_length=1)]
NonNeg = Annotated[int, Field(ge=0)]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Tile(_Model):
    name: Text
    kind: str
    value: int = Field(ge=1, le=12)
    cost: list[NonNeg] = Field(min_length=E.N_RES, max_length=E.N_RES)
    shields: int = Field(ge=0)
    terrain: str
    effect: str
    param: int = Field(ge=0)
    cap_in: int = Field(ge=0)
    cap_out: int = Field(ge=0)
    # the sheep-trading tiles' numbers (Auction House, Market Hall, Fodder Silo); 0 elsewhere
    count: int = Field(default=0, ge=0, le=E.TRADE_MAX)
    buy_price: int = Field(default=0, ge=0)
    sell_price: int = Field(default=0, ge=0)

    @field_validator("kind")
    @classmethod
    def _kind(cls, v):
        return one_of(v, E.KIND_NAMES, "kind")

    @field_validator("terrain")
    @classmethod
    def _terrain(cls, v):
        return v if v == "" else one_of(v, E.TERRAIN_NAMES, "terrain")

    @field_validator("effect")
    @classmethod
    def _effect(cls, v):
        return one_of(v, E.EFFECT_NAMES, "effect")

    @model_validator(mode="after")
    def _param(self):
        if self.effect == "discount" and self.param >= E.N_RES:
            raise ValueError(f"param: effect 'discount' needs the resource type 0..2 "
                             f"(wood, clay, stone), got {self.param}")
        if self.effect in ("auction_house", "market_hall", "fodder_silo") and self.count < 1:
            raise ValueError(f"count: effect {self.effect!r} needs the sheep it trades per use "
                             f"(count = 1..{E.TRADE_MAX}), got {self.count}")
        return self


class Farm(_Model):
    name: Text
    rows: list[str] = Field(min_length=E.ROWS, max_length=E.ROWS)

    @field_validator("rows")
    @classmethod
    def _rows(cls, v):
        for r, row in enumerate(v):
            cells = row.split()
            if len(cells) != E.COLS:
                raise ValueError(f"row {r + 1} {row!r} must have {E.COLS} cells separated by "
                                 f"spaces, has {len(cells)}")
            for c in cells:
                if c != "." and (not set(c) <= set(E.TERRAIN_LETTERS) or len(set(c)) != len(c)):
                    raise ValueError(f"row {r + 1}: unknown cell {c!r} (use . for plain, B bush, "
                                     f"T tree, L lake, two letters for two terrains)")
        return v


class Token(_Model):
    space: int = Field(ge=1, le=E.MAX_TRACK - 1)
    coins: int = Field(ge=0)
    alternative: str

    @field_validator("alternative")
    @classmethod
    def _alt(cls, v):
        return one_of(v, E.TOKEN_ALT_NAMES, "alternative")


class Dike(_Model):
    layers: list[Annotated[list[Annotated[int, Field(ge=1)]], Field(min_length=2, max_length=2)]] = Field(min_length=1)
    layer_width: int = Field(ge=1)
    site_length: int = Field(ge=1, le=15)
    track_length: int = Field(ge=4, le=E.MAX_TRACK)
    wrap_to: int = Field(ge=0)
    wrap_points: int = Field(ge=0)
    progress_tokens: list[Token] = Field(max_length=E.MAX_TOKENS)

    @model_validator(mode="after")
    def _check(self):
        for i, (n, length) in enumerate(self.layers):
            if n * length != self.layer_width:
                raise ValueError(f"layers[{i}]: {n} segments of length {length} cover {n * length} "
                                 f"wave spaces, the layer is {self.layer_width} wide")
        if sum(n for n, _ in self.layers) > E.MAX_SEGMENTS:
            raise ValueError(f"more than {E.MAX_SEGMENTS} segments, more than the engine holds")
        if self.wrap_to >= self.track_length:
            raise ValueError(f"wrap_to {self.wrap_to} must be a space before track_length {self.track_length}")
        for t in self.progress_tokens:
            if t.space >= self.track_length:
                raise ValueError(f"a progress token on space {t.space}, past the track (length {self.track_length})")
        spaces = [t.space for t in self.progress_tokens]
        if len(set(spaces)) != len(spaces):
            raise ValueError(f"two progress tokens on one space: {spaces}")
        return self


class Prices(_Model):
    sheep: list[NonNeg] = Field(min_length=1, max_length=E.MAX_PRICE)
    dike: list[NonNeg] = Field(min_length=1, max_length=E.MAX_PRICE)

    @model_validator(mode="after")
    def _same(self):
        if len(self.sheep) != len(self.dike):
            raise ValueError(f"sheep has {len(self.sheep)} positions, dike {len(self.dike)}: one track, same length")
        return self


Row = Annotated[list[NonNeg], Field(min_length=2, max_length=2)]


class Market(_Model):
    players2: list[Row] = Field(min_length=1, max_length=E.MAX_ROWS)
    players3: list[Row] = Field(min_length=1, max_length=E.MAX_ROWS)
    players4: list[Row] = Field(min_length=1, max_length=E.MAX_ROWS)


class Income(_Model):
    fences: list[str] = Field(max_length=E.MAX_INCOME)
    buildings: list[str] = Field(max_length=E.MAX_INCOME)

    @field_validator("fences", "buildings")
    @classmethod
    def _icons(cls, v):
        for x in v:
            one_of(x, E.INCOME_NAMES, "income icon")
        return v


class CountsSection(_Model):
    tiles: int = Field(ge=1, le=E.MAX_TILES)
    facilities: NonNeg
    action_buildings: NonNeg
    sheep_buildings: NonNeg
    storm_buildings: NonNeg
    floods: int = Field(ge=1, le=E.MAX_FLOOD)
    farms: int = Field(ge=1, le=E.N_LAYOUTS_MAX)
    wood: NonNeg
    clay: NonNeg
    stone: NonNeg


class RulesSection(_Model):
    farmer_values: list[Annotated[int, Field(ge=1, le=9)]] = Field(min_length=E.N_FARMERS, max_length=E.N_FARMERS)
    hand_limit: int = Field(ge=0)
    start_coins: NonNeg
    start_cards: NonNeg
    non_start_bonus: NonNeg
    start_sheep: NonNeg
    start_pasture: list[Annotated[list[int], Field(min_length=2, max_length=2)]]
    fences: int = Field(ge=0, le=E.N_EDGES)
    farmhands: int = Field(ge=0, le=4)
    max_buildings: NonNeg
    max_storm_buildings: NonNeg
    reuse_cost: NonNeg
    max_farmhands_sheep: NonNeg
    max_farmhands_other: NonNeg
    breed_per: int = Field(ge=1)
    farmer_plus: NonNeg
    storm_display_extra: int = Field(ge=0, le=1)
    display_per_kind: int = Field(ge=0, le=E.MAX_DISPLAY)
    cards_per_point: int = Field(ge=1)
    exchange_rate: int = Field(ge=1)
    price_start: NonNeg
    two_player_support: Literal["opponent", "none"]
    first_game: bool
    border_is_fence: bool
    same_resource_after_segment: bool
    shuffle_progress_tokens: bool
    auction_house_sells_to: Literal["supply", "market"] = "supply"
    corner_pens: Literal["exactly_one", "one_more"] = "exactly_one"
    terrain_under_buildings: Literal["counts", "hidden"] = "counts"

    @field_validator("start_pasture")
    @classmethod
    def _cells(cls, v):
        for r, c in v:
            if not (0 <= r < E.ROWS and 0 <= c < E.COLS):
                raise ValueError(f"cell [{r}, {c}] is off the {E.ROWS} x {E.COLS} farm")
        return v


class LowlandsComponentFile(_Model):
    tiles: list[Tile]
    floods: list[Annotated[int, Field(ge=0, le=12)]]
    farms: list[Farm]
    dike: Dike
    prices: Prices
    market: Market
    income: Income
    counts: CountsSection
    rules: RulesSection


def default_components_text() -> str:
    return Path(DEFAULT_PATH).read_text(encoding="utf-8")


def load_components(path: str | None = None, overrides: tuple = ()) -> Components:
    """Read and validate a component file (the shipped default when `path` is None), with
    `--set PATH=VALUE` overrides applied before validation (sim/overrides.py)."""
    text, label = text_of(path, DEFAULT_PATH)
    return components_from_text(text, label, overrides)


def pasture_fences(cells) -> list:
    """The edges around a set of (row, col) cells: its boundary, where fences stand."""
    inside = {r * E.COLS + c for r, c in cells}
    edges = []
    for k in sorted(inside):
        for d in range(4):
            if E.CELL_NB[k, d] not in inside:
                edges.append(int(E.CELL_EDGE[k, d]))
    return edges


def components_from_text(text: str, path: str = "<text>", overrides: tuple = ()) -> Components:
    label, raw, resolved = parse(text, path, DEFAULT_PATH, overrides)
    col = Collector(label, raw)
    check_keys(col, raw, (), TOP_LISTS, TOP_TABLES, "section")
    sections = {"dike": Dike, "prices": Prices, "market": Market, "income": Income,
                "counts": CountsSection, "rules": RulesSection}
    valid = {}
    for key, model in sections.items():
        if key in raw:
            valid[key] = col.validate(model, raw[key], (key,), {})
    counts = valid.get("counts")
    if "tiles" in raw:
        tiles = validate_list(col, raw["tiles"], ("tiles",), Tile, {})
        check_count(col, raw["tiles"], ("tiles",), counts.tiles if counts else None, "tiles")
        check_duplicate_names(col, raw["tiles"], ("tiles",))
        if counts is not None and len(tiles) == len(raw["tiles"]):
            for kind, key in zip(E.KIND_NAMES, ("facilities", "action_buildings", "sheep_buildings",
                                                "storm_buildings")):
                n = sum(1 for _, t in tiles if t.kind == kind)
                if n != getattr(counts, key):
                    col.add(("tiles",), f"{n} tiles of kind {kind!r}, counts.{key} = {getattr(counts, key)}")
        rules = valid.get("rules")
        if rules is not None and len(tiles) == len(raw["tiles"]):
            n_storm = sum(1 for _, t in tiles if t.kind == "storm")
            if n_storm > E.MAX_DISPLAY or n_storm < E.MAX_PLAYERS + rules.storm_display_extra:
                col.add(("tiles",), f"{n_storm} storm buildings: a 4-player game lays out "
                                    f"{E.MAX_PLAYERS + rules.storm_display_extra} (at most {E.MAX_DISPLAY})")
    if "floods" in raw:
        if not isinstance(raw["floods"], list):
            col.add(("floods",), "must be a list [...] of flood values")
        else:
            for i, v in enumerate(raw["floods"]):
                if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 12:
                    col.add(("floods", i), f"must be a whole number 0..12, got {v!r}")
            check_count(col, raw["floods"], ("floods",), counts.floods if counts else None, "floods")
    if "farms" in raw:
        validate_list(col, raw["farms"], ("farms",), Farm, {})
        check_count(col, raw["farms"], ("farms",), counts.farms if counts else None, "farms")
        check_duplicate_names(col, raw["farms"], ("farms",))
    rules, prices = valid.get("rules"), valid.get("prices")
    if rules is not None and prices is not None and rules.price_start >= len(prices.sheep):
        col.add(("rules", "price_start"), f"position {rules.price_start} is off the "
                                          f"{len(prices.sheep)}-position price track")
    if rules is not None and rules.fences < len(pasture_fences(rules.start_pasture)):
        col.add(("rules", "fences"), f"{rules.fences} fences, but the starting pasture needs "
                                     f"{len(pasture_fences(rules.start_pasture))}")
    if rules is not None and rules.fences - len(pasture_fences(rules.start_pasture)) > E.MAX_INCOME:
        col.add(("rules", "fences"), f"more than {E.MAX_INCOME} fences on the income board")
    if counts is not None and counts.wood + counts.clay + counts.stone > E.MAX_RES_CARDS:
        col.add(("counts",), f"more than {E.MAX_RES_CARDS} resource cards")
    if counts is not None and rules is not None:
        need = E.MAX_PLAYERS * rules.start_cards + E.DISPLAY_CARDS
        if counts.wood + counts.clay + counts.stone < need:
            col.add(("counts",), f"{counts.wood + counts.clay + counts.stone} resource cards, "
                                 f"a 4-player set-up deals {need}")
    if "farms" in raw and rules is not None and isinstance(raw["farms"], list) and len(raw["farms"]) < 1:
        col.add(("farms",), "needs at least one farm")
    model = validate_whole(col, LowlandsComponentFile, raw, {})
    return Components(game=GAME, path=path, text=text, sha256=file_sha256(text, resolved),
                      data=model.model_dump(), tables=build_tables(model),
                      card_names={"tile": [t.name for t in model.tiles],
                                  "resource": list(E.RES_NAMES)},
                      overrides=list(overrides), overrides_resolved=resolved)


def build_tables(m: LowlandsComponentFile) -> np.recarray:
    """The validated file -> a 1-element TABLES_DTYPE record array (kernels take [0])."""
    rec = E.new_tables()
    t = rec[0]
    n = len(m.tiles)
    t.n_tiles = n
    for i, x in enumerate(m.tiles):
        t.tile_kind[i] = E.KIND_NAMES.index(x.kind)
        t.tile_value[i] = x.value
        t.tile_cost[i, :] = x.cost
        t.tile_shields[i] = x.shields
        t.tile_terrain[i] = 0 if x.terrain == "" else 1 << E.TERRAIN_NAMES.index(x.terrain)
        t.tile_effect[i] = E.EFFECT_NAMES.index(x.effect)
        t.tile_param[i] = x.param
        t.tile_cap_in[i] = x.cap_in
        t.tile_cap_out[i] = x.cap_out
        t.tile_count[i] = x.count
        t.tile_buy[i] = x.buy_price
        t.tile_sell[i] = x.sell_price
        t.effect_tiles[t.tile_effect[i]] |= 1 << i
    t.n_flood = len(m.floods)
    for i, v in enumerate(m.floods):
        t.flood_value[i] = v
        t.flood_back_high[i] = 1 if v >= 4 else 0
    k = 0
    for layer, (ns, length) in enumerate(m.dike.layers):
        for _ in range(ns):
            t.segment_layer[k] = layer + 1
            t.segment_length[k] = length
            k += 1
    t.n_segments = k
    t.layer_width = m.dike.layer_width
    t.n_layers = len(m.dike.layers)
    t.n_price = len(m.prices.sheep)
    t.price_sheep[:t.n_price] = m.prices.sheep
    t.price_dike[:t.n_price] = m.prices.dike
    t.n_tokens = len(m.dike.progress_tokens)
    for i, tok in enumerate(m.dike.progress_tokens):
        t.token_space[i] = tok.space
        t.token_coins[i] = tok.coins
        t.token_alt[i] = E.TOKEN_ALT_NAMES.index(tok.alternative)
    for np_, rows in ((2, m.market.players2), (3, m.market.players3), (4, m.market.players4)):
        t.n_market_rows[np_] = len(rows)
        for r, (b, s) in enumerate(rows):
            t.market_buy[np_, r] = b
            t.market_sell[np_, r] = s
    t.n_res_cards[:] = (m.counts.wood, m.counts.clay, m.counts.stone)
    t.farmer_values[:] = m.rules.farmer_values
    t.n_layouts = len(m.farms)
    for i, f in enumerate(m.farms):
        for r, row in enumerate(f.rows):
            for c, cell in enumerate(row.split()):
                bits = 0
                for ch in cell:
                    bits |= E.TERRAIN_LETTERS.get(ch, 0)
                t.layout_terrain[i, r * E.COLS + c] = bits
    for e in pasture_fences(m.rules.start_pasture):
        t.start_fences[e] = 1
    t.n_fence_income = m.rules.fences - len(pasture_fences(m.rules.start_pasture))
    for i, x in enumerate(m.income.fences):
        t.fence_income[i] = E.INCOME_NAMES.index(x)
    for i, x in enumerate(m.income.buildings):
        t.building_income[i] = E.INCOME_NAMES.index(x)
    for name in E.DIKE_RULES:
        t[name] = getattr(m.dike, name)
    for name in E.NUMBER_RULES:
        t[name] = int(getattr(m.rules, name))
    for name, codes in E.RULE_OPTIONS.items():
        t[name] = codes[getattr(m.rules, name)]
    return rec
