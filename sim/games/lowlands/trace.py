"""Turn a replayed Lowlands game's event trace into readable lines (`balance replay`)."""
from __future__ import annotations

from sim.games.lowlands import enums as E


def cell_name(k: int) -> str:
    return f"{'ABCD'[k // E.COLS]}{k % E.COLS + 1}"


def edge_name(e: int) -> str:
    if e < E.N_HEDGES:
        r, c = divmod(e, E.COLS)
        return f"above {'ABCDE'[r]}{c + 1}" if r < E.ROWS else f"below D{c + 1}"
    r, c = divmod(e - E.N_HEDGES, E.COLS + 1)
    return f"left of {'ABCD'[r]}{c + 1}" if c < E.COLS else f"right of {'ABCD'[r]}{E.COLS}"


def format_trace(prepared, game_index, events, rec, state) -> list:
    names = prepared.components.card_names["tile"]
    who = prepared.strategy_names
    seat = lambda p: f"seat {int(p) + 1} ({who[int(p)]})"  # noqa: E731
    lines = [f"Lowlands, game {game_index}, {prepared.n_players} players, seed {prepared.seed}"]
    steps = ("turn of the tide", "work I", "upkeep I", "work II", "upkeep II", "high tide")
    for ev, a, b, c, d, e in (tuple(int(x) for x in row) for row in events):
        if ev == E.EV_STAGE:
            lines.append(f"-- stage {a + 1}: {steps[b]}")
        elif ev == E.EV_FLOOD:
            lines.append(f"flood card {a}: {b} wave pieces on the board")
        elif ev == E.EV_PLACE:
            lines.append(f"{seat(a)}: farmer {c} on {E.ACTION_NAMES[b]} (value {d}, {e} coins)")
        elif ev == E.EV_BUILD:
            lines.append(f"{seat(a)}: builds {names[b]} on {cell_name(c)}, pays {d} resource cards")
        elif ev == E.EV_DIKE:
            mode = "supports the dike" if d == E.DIKE_SUPPORT else "builds the dike"
            lines.append(f"{seat(a)}: {mode} with {c} {E.RES_NAMES[b]} ({e} segments)")
        elif ev == E.EV_FENCE:
            what = ("puts a moved fence", "builds a fence", "picks up a fence", "places a free fence")[c]
            lines.append(f"{seat(a)}: {what} {edge_name(b)}")
        elif ev == E.EV_SHEEP:
            lines.append(f"{seat(a)}: {'buys' if b == 0 else 'sells'} {d} sheep (row {c + 1}) at {e}")
        elif ev == E.EV_CARDS:
            lines.append(f"{seat(a)}: takes {bin(b).count('1')} face-up and {c} deck cards")
        elif ev == E.EV_ASK:
            lines.append(f"{seat(a)}: asks {seat(b)} for dike support ({c} resources)")
        elif ev == E.EV_TOKEN:
            what = f"{d} coins" if c == 0 else "its other bonus"
            lines.append(f"{seat(a)}: progress token {b + 1}: {what}")
        elif ev == E.EV_HIGH:
            lines.append(f"high tide: the dike {'holds' if a else 'BREAKS'} ({b} waves, {c} segments)")
        elif ev == E.EV_ESCAPE:
            lines.append(f"{seat(a)}: {b} sheep escape from open pastures")
        elif ev == E.EV_UPKEEP:
            lines.append(f"{seat(a)}: income {c} cards, {d} coins")
        elif ev == E.EV_DISCARD:
            lines.append(f"{seat(a)}: discards a {E.RES_NAMES[b]} card (hand limit)")
        elif ev == E.EV_FARMHAND:
            fr = "the income board" if b == E.N_ACTIONS else E.ACTION_NAMES[b]
            lines.append(f"{seat(a)}: farmhand from {fr} to {E.ACTION_NAMES[c]}")
        elif ev == E.EV_TRADE:
            where = "at the upkeep (Auction House / Fodder Silo)" if b == 0 else "at the Market Hall"
            lines.append(f"{seat(a)}: sells {c} and buys {d} sheep {where}, {e:+d} coins")
        elif ev == E.EV_INCOME:
            got = ("a card" if c >= 0 else "no card (none left)") if b == 0 else "a coin"
            lines.append(f"{seat(a)}: income choice: {got}")
        elif ev == E.EV_BREED:
            lines.append(f"{seat(a)}: {b} lambs born ({c} sheep)")
        elif ev == E.EV_MARKET:
            lines.append(f"  market row {a + 1}: {b} sheep, {c} empty -> {d} sheep, {e} empty")
        elif ev == E.EV_END:
            lines.append(f"storm surge: the dike {'BREAKS' if a else 'holds'}")
    for p in range(prepared.n_players):
        lines.append(f"{seat(p)}: score {int(rec['score'][p])}, rank {int(rec['rank'][p])} "
                     f"(dike {int(rec['pts_dike'][p])}, sheep {int(rec['pts_sheep'][p])}, "
                     f"shields {int(rec['pts_shields'][p])}, coins {int(rec['pts_coins'][p])}, "
                     f"cards {int(rec['pts_cards'][p])}, '!' {int(rec['pts_bonus'][p])})")
    return lines
