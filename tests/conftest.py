"""Shared fixtures: the toy dice game registered as the only game, and a clean cwd."""
from __future__ import annotations

import pytest

from sim import registry
from tests.toygame import SPEC as TOY

# the shipped scaffold game (tests/data/games/dice/) brings its own rule tests, which import the
# game by its package name: tests/test_new_game.py runs them with its folder on the game path
collect_ignore_glob = ["data/*"]


@pytest.fixture
def toy_registry(monkeypatch):
    """sim.registry knows only the toy game (aliases: dice)."""
    monkeypatch.setattr(registry, "GAMES", {})
    monkeypatch.setattr(registry, "_ALIASES", {})
    monkeypatch.setattr(registry, "_load_errors", {})
    monkeypatch.setattr(registry, "_loaded", True)
    registry._register(TOY)
    return TOY


@pytest.fixture
def toy():
    return TOY


@pytest.fixture
def in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path
