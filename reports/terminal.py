"""Plain-text tables of a run summary, for the terminal."""
from __future__ import annotations

import math

import pandas as pd

from sim import formatting as F
from analysis.summary import Summary


def _fmt(v, spec: str) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "-"
    return format(v, spec)


def _table(headers: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h)
              for i, h in enumerate(headers)]
    line = lambda cells: "  ".join(c.rjust(w) if i else c.ljust(w)  # noqa: E731
                                   for i, (c, w) in enumerate(zip(cells, widths)))
    out = [line(headers), "  ".join("-" * w for w in widths)]
    out.extend(line(r) for r in rows)
    return out


def _win_rows(t: pd.DataFrame, label) -> list[list[str]]:
    rows = []
    for key, r in t.iterrows():
        # the report's cells (reports/document.py), from the same formatting module
        rows.append([label(key), F.count(r["rows"]), F.share(r["win_share"]),
                     F.interval(r["win_low"], r["win_high"]),
                     F.mean_se(r.get("score_mean"), r.get("score_se")),
                     F.num(r.get("rank_mean"))])
    return rows


def _score_rows(t: pd.DataFrame, label) -> list[list[str]]:
    rows = []
    for key, r in t.iterrows():
        rows.append([label(key), _fmt(int(r["rows"]), "d"), _fmt(r["score_mean"], ".2f"),
                     _fmt(r["score_se"], ".3f"), _fmt(r["score_sd"], ".2f"),
                     _fmt(r["score_min"], "g"), _fmt(r["score_max"], "g")])
    return rows


def _breakdown_lines(b, pct: int, m: dict | None = None) -> list[str]:
    """A game-declared breakdown (win share and mean score by a column's value) or
    per-strategy mean, as a table."""
    from reports.assignment import origin
    lines = [b.label + (f": {b.question}" if b.question else "")]
    told = origin(m or {}, column=b.column) if b.kind == "breakdown" else None
    if told:
        lines.append(told)
    if b.kind == "breakdown" and b.headline and "verdict" in b.table:   # tested: the start
        rows = [[str(r.value), F.count(r.rows), F.share(r.win_share), F.interval(r.win_low, r.win_high),
                 F.num(r.mean_score), F.p_text(r.p_holm).replace("p = ", "").replace("p ", ""),
                 str(r.verdict)] for r in b.table.itertuples()]
        lines.extend(_table([b.column, "rows", "win share", f"{pct}% Wilson", "mean score",
                             "p (Holm)", "verdict"], rows))
        if b.start and b.seat_note:
            lines.append(f"(fair share {F.share(1 / len(b.table))}; Holm across the positions; "
                         f"{b.seat_note})")
    elif b.kind == "breakdown":
        rows = [[str(r.value), F.count(r.rows), F.share(r.win_share), F.interval(r.win_low, r.win_high),
                 F.num(r.mean_score)] for r in b.table.itertuples()]
        lines.extend(_table([b.column, "rows", "win share", f"{pct}% Wilson", "mean score"], rows))
    else:
        rows = [[str(r.value), F.count(r.rows), F.num(r.mean),
                 F.interval(r.low, r.high, scale=1.0)] for r in b.table.itertuples()]
        lines.extend(_table(["strategy", "rows", f"mean {b.column}", f"{pct}% interval"], rows))
    return lines


# A user strategy that never wins is suspect only when it had real choices and enough games:
# a strategy whose true win share is 3% wins none of 100 seat-games 5% of the time.
SUSPECT_MIN_SEAT_GAMES = 100
SUSPECT_MIN_CHOICES = 5.0   # decisions with 2+ legal options per seat-game (log column `choices`)


def never_winning_user_strategies(summary: Summary, manifest: dict) -> list[str]:
    """A warning line per user strategy that won nothing in at least SUSPECT_MIN_SEAT_GAMES
    seat-games although it chose among 2+ legal options at least SUSPECT_MIN_CHOICES times per
    game on average: most often a built-in called with the user strategy's own all-zero
    parameter row (docs/formats.md). Multi-player runs only (a solo target may be out of reach)."""
    choices = summary.extra.get("choices") or {}
    users = {str(i.get("name")) for i in (manifest.get("strategies") or [])
             if str(i.get("source", "")).startswith("user:")}
    t = summary.strategies
    if summary.solo or t is None or "wins" not in t or not users or not choices:
        return []
    out = []
    for name, row in t.iterrows():
        name = str(name)
        per_game = choices.get(name)
        if (name in users and float(row["wins"]) == 0 and int(row["rows"]) >= SUSPECT_MIN_SEAT_GAMES
                and per_game is not None and per_game >= SUSPECT_MIN_CHOICES):
            out.append(f"warning: user strategy {name} won none of its {int(row['rows']):,} "
                       f"seat-games although it chose among 2 or more legal options "
                       f"{per_game:.1f} times per game: check its parameters (a built-in "
                       f"played with the strategy's own all-zero params row values nothing; "
                       f"see docs/formats.md)")
    return out


def _seat_start_lines(summary: Summary) -> list[str]:
    """Without a start position column (seat 1 always starts, or no start player), the seat
    numbers are the fairness question: each seat tested against the fair share, Holm across
    the seats (analysis.tables.fair_share_table), with the game's note."""
    from analysis.tables import fair_share_table
    start = summary.extra.get("start") or {}
    t = summary.seats
    if start.get("column") is not None or not start.get("note") or "wins" not in t:
        return []
    tested = fair_share_table(t["rows"], t["wins"], summary.n_players)
    words = ", ".join(f"seat {int(k) + 1} {v}" + ("" if v == "fair" else
                                                 f" ({F.p_text(p).replace('p ', 'Holm p ', 1)})")
                      for k, v, p in zip(t.index, tested["verdict"], tested["p_holm"]))
    return [f"Start position: {start['note']}. Against a fair {F.share(1 / summary.n_players)} "
            f"(Holm across the seats): {words}."]


def _win_headers(first: str, pct: int) -> list[str]:
    """The columns of a seat or strategy table: the same cells as the report's tables."""
    return [first, "rows", "win share", f"{pct}% Wilson", "mean score ± s.e.", "mean rank"]


def _header_lines(summary: Summary, m: dict) -> list[str]:
    """What was run: game, games, players, variant and seed; the run id and status; the
    timings; how strategies were assigned to seats (reports.assignment.run_line)."""
    from reports.assignment import run_line
    title = m.get("title") or m.get("game") or "run"
    lines = [f"{title}: {summary.n_games} games, {summary.n_players} "
             f"player{'s' if summary.n_players != 1 else ''}"
             + (f", variant {m['variant']}" if m.get("variant") else "")
             + (f", seed {m['seed']}" if "seed" in m else "")]
    if m.get("run_id"):
        lines.append(f"run id {m['run_id']}, status {m.get('status', '?')}")
    t = m.get("timings") or {}
    if t:
        gps = t.get("games_per_second")
        lines.append(f"compile/warm-up {_fmt(t.get('compile_seconds'), '.2f')} s, "
                     f"play {_fmt(t.get('play_seconds'), '.2f')} s, "
                     f"{F.rate(gps)} games/s on "
                     f"{F.workers(t.get('workers', '?'))}")
    told = run_line(m)
    if told:
        lines.append(told)
    return lines


def _solo_lines(summary: Summary) -> list[str]:
    """One player: no seat or strategy comparison exists, so the score statistics per
    strategy stand in for the win tables."""
    return ["Solo run: one player, so no seat or strategy comparison; score statistics "
            "instead (and the game's own solo lines below, if it declares any).",
            "",
            "By strategy",
            *_table(["strategy", "games", "mean score", "s.e.", "s.d.", "min", "max"],
                    _score_rows(summary.strategies, str))]


def _seat_lines(summary: Summary, m: dict, pct: int) -> list[str]:
    """The seat table with the start position (analysis/breakdowns.py) first when it is the
    game's fairness question, else right after the seats; then the seats tested against the
    fair share and what the seat rows measure (rotated seatings or fixed ones)."""
    lines: list[str] = []
    start = [b for b in summary.extra.get("breakdowns") or [] if getattr(b, "start", False)]
    if start and start[0].fairness:
        lines.extend(_breakdown_lines(start[0], pct))
        lines.append("")
    lines.append("By seat")
    lines.extend(_table(_win_headers("seat", pct),
                        _win_rows(summary.seats, lambda k: f"seat {int(k) + 1}")))
    if start and not start[0].fairness:
        lines.append("")
        lines.extend(_breakdown_lines(start[0], pct))
    lines.extend(_seat_start_lines(summary))
    rot = (m.get("config") or {}).get("rotation")
    if rot:
        lines.append(f"seats rotated ({len(rot)} seatings, each deal under every one): the "
                     f"seat rows measure the seats, the strategy rows average over the seats")
    elif len(set(m.get("strategy_names") or [])) > 1:
        lines.append("each seat kept its strategy: a seat's row mixes the seat with its "
                     "strategy (--rotate-seats measures them apart)")
    return lines


def _comparison_lines(comp: dict, pct: int) -> list[str]:
    """Head-to-head shares and Plackett-Luce ratings of the strategies (the report's cells,
    reports/document.py), or why the ratings cannot be estimated."""
    from reports.document import h2h_cells, rating_cells
    from reports.notes import note_text
    lines = ["", "Head-to-head (share of seat pairs where the first finished ahead, ties 1/2)"]
    lines.extend(_table(["strategy", "versus", "finishes ahead", f"{pct}% interval",
                         "seat pairs"], h2h_cells(comp["share"], comp["low"],
                                                  comp["high"], comp["pairs"])))
    lines.append("")
    if comp.get("ratings") is not None:
        lines.append("Plackett-Luce ratings")
        lines.extend(_table(["strategy", "log strength", "s.e.", f"{pct}% interval"],
                            rating_cells(comp["ratings"])))
    else:
        lines.append(f"No ratings: {note_text(comp.get('rating_note'))}.")
    return lines


def _strategy_lines(summary: Summary, m: dict, pct: int) -> list[str]:
    """The strategy table, their comparison when there are several, the share of shared
    wins and the warnings about user strategies that never won."""
    lines = ["", "By strategy"]
    lines.extend(_table(_win_headers("strategy", pct), _win_rows(summary.strategies, str)))
    if summary.comparison:
        lines.extend(_comparison_lines(summary.comparison, pct))
    if summary.tie_rate is not None:
        lines.append("")
        lines.append(f"games with a shared win: {F.share(summary.tie_rate)}")
    warnings = never_winning_user_strategies(summary, m)
    if warnings:
        lines.append("")
        lines.extend(warnings)
    return lines


def _illegal_lines(summary: Summary) -> list[str]:
    """The strategies that answered with an illegal option (each replaced by the first legal
    one): shown only when some decision was not legal."""
    illegal = summary.extra.get("illegal")
    if illegal is None or not len(illegal):
        return []
    rows = [[str(r.strategy), f"{int(r.decisions):,}", f"{int(r.seat_games):,} of {int(r.of_seat_games):,}"]
            for r in illegal.itertuples()]
    return ["", "Illegal answers (each replaced by the first legal option)",
            *_table(["strategy", "illegal decisions", "seat-games affected"], rows)]


def _game_breakdown_lines(summary: Summary, pct: int, m: dict) -> list[str]:
    """The game's own breakdowns (analysis/breakdowns.py), except the start position of a
    multi-player run, which stands with the seats."""
    lines: list[str] = []
    for b in summary.extra.get("breakdowns") or []:
        if getattr(b, "start", False) and not summary.solo:
            continue
        lines.append("")
        lines.extend(_breakdown_lines(b, pct, m))
    return lines


def _end_lines(summary: Summary) -> list[str]:
    """How the games ended: each end reason's count and share."""
    ends = summary.end_reasons
    if ends is None or not len(ends):
        return []
    rows = [[str(r.reason), F.count(r.games), F.share(r.share)] for r in ends.itertuples()]
    return ["", "Game end", *_table(["reason", "games", "share"], rows)]


def format_summary(summary: Summary, manifest: dict | None = None) -> str:
    """The run summary as plain text for the terminal: what was run, then the seats and the
    strategies (a solo run: score statistics), illegal answers, the game's own breakdowns and
    how the games ended. `manifest`: the run's manifest, for the header and the notes."""
    m = manifest or {}
    pct = int(round(summary.confidence * 100))
    lines = _header_lines(summary, m)
    lines.append("")
    if summary.solo:
        lines.extend(_solo_lines(summary))
    else:
        lines.extend(_seat_lines(summary, m, pct))
        lines.extend(_strategy_lines(summary, m, pct))
    lines.extend(_illegal_lines(summary))
    lines.extend(_game_breakdown_lines(summary, pct, m))
    lines.extend(_end_lines(summary))
    return "\n".join(lines)
