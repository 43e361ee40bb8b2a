"""Lowlands (Das tiefe Land, Feuerland Spiele 2018): 2-4 players.

Where each rule lives: docs/games/lowlands.md. The engine is written on the game template
(model.py); the GameSpec on the platform's harness is added when the harness is merged.
"""
