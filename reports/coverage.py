"""The card coverage of `balance strategies GAME --coverage` (analysis/coverage.py) as
terminal lines: a header saying what was read, then one row per strategy and card type."""
from __future__ import annotations

from sim import formatting as fmt

HEADERS = ["strategy", "card type", "cards", "taken", "coverage", "seat-games",
           "never taken"]
NEVER_SHOWN = 5          # card names listed per row; the rest counted


def _never(text: str) -> str:
    """The first NEVER_SHOWN names of a `never` cell (analysis/coverage.py), the rest counted."""
    from analysis.coverage import NEVER_SEPARATOR
    names = [n for n in str(text or "").split(NEVER_SEPARATOR) if n]
    if not names:
        return "-"
    shown = ", ".join(names[:NEVER_SHOWN])
    more = len(names) - NEVER_SHOWN
    return shown + (f" and {more} more" if more > 0 else "")


def coverage_text(res) -> str:
    """The header and the table of a sim.api.coverage.CoverageResult."""
    if res.games is not None:
        head = (f"Card coverage: {res.title}, {res.players} players, each strategy in every "
                f"seat, {res.games:,} games each: the share of each card type's cards that "
                f"the strategy's seats ever took.")
    else:
        head = (f"Card coverage: {res.title}, {res.players} players, the games of the run "
                f"{res.source}: the share of each card type's cards that each strategy's "
                f"seats ever took.")
    t = res.table
    if t.empty:
        return head + "\n(the game declares no card types in its logs)"
    rows = [[r.strategy, r.label, str(r.cards), str(r.taken), fmt.share(r.coverage, 1),
             fmt.count(r.seat_games), _never(r.never)] for r in t.itertuples()]
    widths = [max(len(h), *(len(row[k]) for row in rows)) for k, h in enumerate(HEADERS)]
    lines = [head, ""]
    lines.append("  ".join(h.ljust(w) for h, w in zip(HEADERS, widths)).rstrip())
    lines.append("  ".join("-" * w for w in widths))
    for row in rows:
        lines.append("  ".join(v.ljust(w) for v, w in zip(row, widths)).rstrip())
    lines.append("")
    lines.append("A card counts as covered once any seat of the strategy took it in any game "
                 "read, so coverage grows with the games; a card never taken gets no verdict "
                 "worth the name in the balance report.")
    return "\n".join(lines)
