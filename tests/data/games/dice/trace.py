"""Dice: `balance replay` lines from the events the model traced."""
from __future__ import annotations

from .model import EV_DRAW, EV_PLAY, EV_REVEAL, EV_TIE, EV_WIN


def format_trace(prepared, game_index, events, rec, state) -> list:
    names = prepared.components.card_names["card"]
    lines = [f"game {game_index}"]
    for ev in events:
        kind, a, b, c = (int(x) for x in ev[:4])
        who = f"seat {a} ({prepared.strategy_names[a]})" if a >= 0 else ""
        if kind == EV_PLAY:
            lines.append(f"{who} plays a card face down")
        elif kind == EV_REVEAL:
            lines.append(f"{who} reveals {names[b]} ({c} points)")
        elif kind == EV_WIN:
            lines.append(f"{who} wins the round: +{b} points")
        elif kind == EV_TIE:
            lines.append(f"a tie for the highest card ({b} points): nobody scores")
        elif kind == EV_DRAW:
            lines.append(f"{who} draws {names[b]}")
    lines += [f"seat {s} ({prepared.strategy_names[s]}): score {rec['score'][s]}, "
              f"rank {rec['rank'][s]}" for s in range(prepared.n_players)]
    return lines
