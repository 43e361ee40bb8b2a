"""Dice: the component file, read and validated (one error line per problem, naming the
file, the card or field, and what is wrong). Every number a designer may tune is here."""
from __future__ import annotations

import os

from pydantic import BaseModel, ConfigDict, Field

from sim.component_file import (Collector, check_duplicate_names, file_sha256, parse, text_of,
                                validate_list)
from sim.game_api import ComponentError, Components

from .model import MAX_CARDS, MAX_PLAYERS

DEFAULT_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                            "default_components.toml")


class Card(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1)
    points: int = Field(ge=0, le=1000)
    count: int = Field(ge=1, le=100)


class GameSection(BaseModel):
    model_config = ConfigDict(extra="forbid")
    rounds: int = Field(ge=1, le=100)
    hand_size: int = Field(ge=1, le=20)


def default_components_text() -> str:
    with open(DEFAULT_PATH, encoding="utf-8") as fh:
        return fh.read()


def load_components(path: str | None = None, overrides: tuple = ()) -> Components:
    """Read and validate a component file (the shipped default when `path` is None), with
    `--set PATH=VALUE` overrides applied before validation."""
    text, label = text_of(path, DEFAULT_PATH)
    label, raw, resolved = parse(text, label, DEFAULT_PATH, overrides)
    col = Collector(label, raw)
    for key in raw:
        if key not in ("game", "cards"):
            col.add((key,), "unknown section (the sections are [game] and [[cards]])")
    game = col.validate(GameSection, raw.get("game"), ("game",), {}) if "game" in raw else None
    if game is None and "game" not in raw:
        col.add(("game",), "missing section [game] (rounds, hand_size)")
    cards = validate_list(col, raw.get("cards", []), ("cards",), Card, {})
    if "cards" in raw:
        check_duplicate_names(col, raw["cards"], ("cards",))
    if not raw.get("cards"):
        col.add(("cards",), "needs at least one card ([[cards]] name, points, count)")
    elif isinstance(raw["cards"], list) and len(raw["cards"]) > MAX_CARDS:
        col.add(("cards",), f"{len(raw['cards'])} cards; the engine holds at most {MAX_CARDS}")
    if col.lines:
        raise ComponentError(col.lines)
    total = sum(card.count for _, card in cards)
    if game.hand_size * MAX_PLAYERS > total:
        raise ComponentError(f"{label}: [game] hand_size: {MAX_PLAYERS} hands of "
                             f"{game.hand_size} need {game.hand_size * MAX_PLAYERS} cards, "
                             f"the [[cards]] counts add up to {total}")
    tables = {"points": [card.points for _, card in cards],
              "count": [card.count for _, card in cards],
              "rounds": game.rounds, "hand_size": game.hand_size}
    return Components(game="dice", path=label, text=text,
                      sha256=file_sha256(text, resolved), data=raw, tables=tables,
                      card_names={"card": [card.name for _, card in cards]},
                      overrides=list(overrides), overrides_resolved=list(resolved))
