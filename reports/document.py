"""The report as a format-neutral document: sections of paragraphs, lists, tables and figures.

Verdicts first (plain words), then the evidence (figures and tables), then what was run (from
the manifest) and the method. reports/html.py and reports/markdown.py render it.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from sim import formatting as F
from analysis.metadata import component_name
from analysis.balance import BalanceAnalysis, fmt_p, num, pct, pct_interval
from reports.figures import Figure, make_figures
from reports.findings import card_lines, flag_kind, flag_text, seating_line, verdict_lines
from reports.notes import note_lines, note_text


@dataclass
class Table:
    headers: list
    rows: list
    caption: str = ""
    sortable: bool = True        # the HTML sorts it by a column and filters its rows


@dataclass
class Folded:
    """Blocks shown folded (HTML <details>): the long lists a reader opens on demand."""
    summary: str
    blocks: list


@dataclass
class Section:
    title: str
    anchor: str
    blocks: list = field(default_factory=list)   # str | list[str] | Table | Figure | Folded
                                                 # | KeyPoint (reports/first_screen.py)
    kind: str = ""               # "played" (under the title), "summary" (the first screen)


@dataclass
class Document:
    title: str
    subtitle: str
    sections: list


# the one formatting module (sim/formatting.py): the terminal shows the same strings
_p = F.p_value
_interval = F.interval
_signed = F.signed


def h2h_cells(share, low, high, pairs) -> list:
    """Rows of the head-to-head table (analysis.tables.head_to_head_rows), as the terminal
    prints them too (reports/terminal.py)."""
    from analysis.tables import head_to_head_rows
    return [[r.strategy, r.versus, F.share(r.ahead), F.interval(r.low, r.high), F.count(r.pairs)]
            for r in head_to_head_rows(share, low, high, pairs).itertuples()]


def rating_cells(table) -> list:
    return [[r.strategy, F.theta(r.theta), F.num(r.se, 3), F.theta_interval(r.low, r.high)]
            for r in table.itertuples()]


def _fig_map(figures):
    return {f.key: f for f in figures}


def _section_verdicts(a: BalanceAnalysis, figs: dict, conf: int, m: dict,
                  build_seconds: float | None) -> list:
    """Verdicts."""
    out = []
    from reports.assignment import run_line
    s = Section("Verdicts", "verdicts", [verdict_lines(a)])
    told = run_line(m)
    if told:
        s.blocks.insert(0, told)
    lines = s.blocks.pop(-1)
    s.blocks.append(Folded(f"The {len(lines)} verdict{'s' if len(lines) != 1 else ''} in "
                           f"words", [lines]))
    if a.flags:
        rows = []
        for f in a.flags:
            lo, hi = f.effect_low, f.effect_high
            if f.effect is None:
                eff = iv = "-"
            elif f.unit == "pp":
                eff, iv = _signed(f.effect) + " pp", _interval(lo, hi, suffix=" pp")
            elif f.unit == "share":
                eff, iv = pct(f.effect), _interval(lo, hi, suffix="%")
            else:
                eff, iv = f"{f.effect:+.2f}", _interval(lo, hi, scale=1.0, digits=2)
            rows.append([flag_kind(f), flag_text(f), eff, iv,
                         f"{f.games_to_halve:,}" if f.games_to_halve else "-"])
        s.blocks.append(Folded(
            f"The {len(rows)} flag{'s' if len(rows) != 1 else ''}: everything that stands out "
            f"beyond its uncertainty",
            [Table(["kind", "what", "effect", f"{conf}% interval",
                    "more games to halve the interval"], rows,
                   "pp = percentage points of win share. Halving an interval takes "
                   "four times the games, i.e. three times as many more.")]))
    else:
        s.blocks.append("Nothing stands out beyond its uncertainty.")
    out.append(s)
    return out


def _section_seats(a: BalanceAnalysis, figs: dict, conf: int, m: dict,
                  build_seconds: float | None) -> list:
    """Seats."""
    out = []
    s = Section("Seat fairness", "seats", [])
    if a.solo:
        s.blocks.append("One seat: no seat comparison.")
    else:
        if "seats" in figs:
            s.blocks.append(figs["seats"])
        rows = [[r.label, r.strategies, f"{int(r.games):,}", F.share(r.win_share),
                 F.interval(r.win_low, r.win_high), F.share(r.fair), _p(r.p_holm),
                 r.verdict, F.mean_se(r.score_mean, r.score_se), F.num(r.rank_mean)]
                for r in a.seats.itertuples()]
        s.blocks.append(Table(["seat", "strategy", "games", "win share", f"{conf}% Wilson",
                               "fair share", "Holm p", "verdict", "mean score ± s.e.",
                               "mean rank"], rows,
                              "Win share: wins with ties split; test: two-sided score test against "
                              "the fair share, Holm-adjusted across seats."))
        if a.seating is not None:  # rotated (clean seat shares) or confounded (no verdict)
            s.blocks.append(seating_line(a))
    out.append(s)
    return out


def _section_strategies(a: BalanceAnalysis, figs: dict, conf: int, m: dict,
                  build_seconds: float | None) -> list:
    """Strategies."""
    out = []
    s = Section("Strategy strength", "strategies", [])
    if a.solo:
        s.blocks.append("One seat: no strategy comparison.")
    elif a.single_strategy:
        s.blocks.append(f"Every seat plays {a.strategies[0]}: no strategy comparison.")
    else:
        if "strategies" in figs:
            s.blocks.append(figs["strategies"])
        rows = [[r.strategy, r.seats, f"{int(r.rows):,}", F.share(r.win_share),
                 F.interval(r.win_low, r.win_high), _p(r.p_holm),
                 F.mean_se(r.score_mean, r.score_se), F.num(r.rank_mean)]
                for r in a.strategy_table.itertuples()]
        s.blocks.append(Table(["strategy", "seats", "seat-games", "win share", f"{conf}% Wilson",
                               "Holm p vs fair", "mean score ± s.e.", "mean rank"], rows))
        if "matchups" in figs:
            s.blocks.append(figs["matchups"])
        if a.h2h is not None and a.h2h_low is not None:
            s.blocks.append(Table(["strategy", "versus", "finishes ahead", f"{conf}% interval",
                                   "seat pairs"], h2h_cells(a.h2h, a.h2h_low, a.h2h_high,
                                                            a.h2h_pairs),
                                  "Head-to-head: the share of seat pairs (one seat each, every "
                                  "game where they met) in which the first strategy finished "
                                  "ahead of the second, ties counting 1/2; interval over games."))
        if a.ratings is not None:
            if "ratings" in figs:
                s.blocks.append(figs["ratings"])
            rows = [[r.strategy, F.theta(r.theta), F.num(r.se, 3),
                     F.theta_interval(r.low, r.high),
                     f"{pct(r.p_ahead)} ({_interval(r.p_ahead_low, r.p_ahead_high)}) vs {r.versus}"]
                    for r in a.ratings.itertuples()]
            s.blocks.append(Table(["strategy", "log strength", "s.e.", f"{conf}% interval",
                                   "finishes ahead of"], rows, note_text(a.rating_note)))
        else:
            s.blocks.append(f"No ratings: {note_text(a.rating_note)}.")
    if getattr(a, "illegal", None) is not None:  # only when some decision was not legal
        rows = [[r.strategy, f"{r.decisions:,}", f"{r.seat_games:,} of {r.of_seat_games:,}"]
                for r in a.illegal.itertuples()]
        s.blocks.append(Table(["strategy", "illegal decisions (replaced)", "seat-games affected"],
                              rows, "A strategy's answer that is not one of the legal options "
                              "is counted (log column illegal) and replaced by the first legal "
                              "option; the game goes on."))
    out.append(s)
    return out


def _section_scores(a: BalanceAnalysis, figs: dict, conf: int, m: dict,
                  build_seconds: float | None) -> list:
    """Scores."""
    out = []
    s = Section("Scores", "scores", [])
    if "scores" in figs:
        s.blocks.append(figs["scores"])
    vals, counts = a.score_hist_strategy
    rows = []
    from analysis.balance import _hist_stats
    for name, c in zip(a.strategies, counts):
        st = _hist_stats(vals, c)
        rows.append([name, f"{st['n']:,}", num(st["mean"]), num(st["sd"]), num(st["min"], 0),
                     num(st["p10"], 0), num(st["median"], 0), num(st["p90"], 0), num(st["max"], 0)])
    s.blocks.append(Table(["strategy", "seat-games", "mean", "s.d.", "min", "10%", "median",
                           "90%", "max"], rows, "Final scores by strategy."))
    if "components" in figs:
        s.blocks.append(figs["components"])
    if a.components is not None:
        rows = [[idx] + [num(v) for v in r] for idx, r in zip(a.components.index,
                                                               a.components.to_numpy())]
        from reports.figures import component_label
        s.blocks.append(Table(["strategy"] + [component_label(c) for c in a.components.columns],
                              rows, "Mean points per game from each source, by strategy."))
    if not a.solo:
        if "margin" in figs:
            s.blocks.append(figs["margin"])
        if a.all_tied_rate == 1.0:
            s.blocks.append("Every game ended with all seats tied.")
        else:
            s.blocks.append(f"Shared wins: {pct(a.tie_rate, 2)} of games; games where every seat "
                            f"tied: {pct(a.all_tied_rate, 2)}.")
    out.append(s)
    return out


def _section_shape(a: BalanceAnalysis, figs: dict, conf: int, m: dict,
                  build_seconds: float | None) -> list:
    """Game shape."""
    out = []
    s = Section("Game shape", "shape", [])
    if "length" in figs:
        s.blocks.append(figs["length"])
    rows = [[r.reason, f"{int(r.games):,}", pct(r.share, 2), _interval(r.low, r.high, digits=2)]
            for r in a.end_reasons.itertuples()]
    s.blocks.append(Table(["how the game ended", "games", "share", f"{conf}% Wilson"], rows))
    if a.length:
        L = a.length
        rows = [["all games", f"{L['n']:,}", num(L["mean"], 1), num(L["sd"], 1), num(L["min"], 0),
                 num(L["median"], 0), num(L["max"], 0)]]
        for name, st in L["by_reason"].items():
            rows.append([name, f"{st['n']:,}", num(st["mean"], 1), num(st["sd"], 1),
                         num(st["min"], 0), num(st["median"], 0), num(st["max"], 0)])
        s.blocks.append(Table(["games", "count", "mean length", "s.d.", "min", "median", "max"],
                              rows, f"Length in {L['unit'] or L['column']}."))
    else:
        s.blocks.append("This game declares no length column.")
    out.append(s)
    return out


def _section_over_time(a: BalanceAnalysis, figs: dict, conf: int, m: dict,
                       build_seconds: float | None) -> list:
    """The game over time: present when the run recorded snapshots (reports/over_time.py)."""
    from reports.over_time import section_blocks
    blocks = section_blocks(a.run_dir, Table) if a.run_dir else None
    return [Section("The game over time", "over-time", blocks)] if blocks else []


def _section_cards(a: BalanceAnalysis, figs: dict, conf: int, m: dict,
                  build_seconds: float | None) -> list:
    """Cards (and outcomes: yes/no facts that are not cards, in their own sections)."""
    from reports.assignment import origin
    out = []
    for k, sec in enumerate(a.cards):
        outcome = sec.kind == "outcome"
        title = f"Outcomes: {sec.label}" if outcome else sec.label
        s = Section(title, f"{'outcomes' if outcome else 'cards'}-{sec.type}", [])
        told = None if outcome else origin(m, card_type=sec.type)
        if told:
            s.blocks.insert(0, told)
        if f"cards-{sec.type}" in figs:
            s.blocks.append(figs[f"cards-{sec.type}"])
        if f"timing-{sec.type}" in figs:
            s.blocks.append(figs[f"timing-{sec.type}"])
        points = sec.unit == "points"
        show_value = bool(sec.unit) and not outcome
        rows = []
        for r in sec.table.itertuples():
            never = r.taken == 0
            row = [r.name]
            if show_value:
                row.append(num(r.value, 0))
            row += [f"{int(r.taken):,}", pct(r.taken_share_games),
                    ("never happened" if outcome else "never taken") if never else
                    pct_interval(r.win_taken, r.win_taken_low, r.win_taken_high),
                    pct_interval(r.win_not, r.win_not_low, r.win_not_high),
                    "-" if never else f"{_signed(r.vs_peers)} ({_interval(r.vs_peers_low, r.vs_peers_high)})",
                    "-" if never else num(r.score_taken, 1)]
            if points:
                row.append(num(r.points_per_game, 2))
            if not outcome:
                row.append("-" if never or math.isnan(r.mean_day) else num(r.mean_day, 2))
            row += [r.top_taker or "-", r.flag or ""]
            rows.append(row)
        if outcome:
            headers = ["outcome", "seat-games", "games it happened in", "win share when it happened",
                       "when not", "vs the other outcomes (pp)", "mean score when it happened",
                       "most often for", "flag"]
        else:
            headers = (["card"] + ([f"value ({sec.unit})"] if show_value else [])
                       + ["times taken", "games taken in", "win share when taken", "when not",
                          "vs other cards (pp)", "mean score when taken"]
                       + (["points per game"] if points else [])
                       + [f"mean {sec.time_unit}", "taken most by", "flag"])
        if a.solo:
            headers[headers.index("win share when it happened" if outcome else
                                  "win share when taken")] += " (solo: always 1)"
        what = "outcomes" if outcome else sec.label.lower()
        caption = (f"Intervals at {conf}%: Wilson for shares, Newcombe for the difference "
                   f"with the seats of the other {what}.")
        if points:
            caption += " Points per game: the card's value times the times it was taken, per game."
        elif show_value:
            caption += f" Value: the card's {sec.unit} (not points)."
        s.blocks.append(Table(headers, rows, caption))
        lines = card_lines(sec)
        if lines:
            s.blocks.append(Folded(f"The verdicts on the {what} in words ({len(lines)})",
                                   [lines]))
        out.append(s)
    return out


def _breakdown_table(a: BalanceAnalysis, b) -> Table:
    """A breakdown's table as its grouping allows (analysis/breakdowns.py): a game-level
    outcome shows its share of games and no test; the others their test, if headline."""
    game = b.headline and b.grouping == "game"
    tested = b.headline and not game
    head = ([b.label + (f" ({b.unit})" if b.unit else ""), "seats"]
            + (["games (95%)"] if game else ["win share (95%)"]) + ["mean score (95%)"]
            + (["p (Holm)", "verdict"] if tested else []))
    rows = [[r.value, f"{int(r.rows):,}",
             pct_interval(r.game_share, r.game_low, r.game_high) if game
             else pct_interval(r.win_share, r.win_low, r.win_high),
             f"{num(r.mean_score, 2)} ({num(r.score_low, 2)} to {num(r.score_high, 2)})"]
            + ([fmt_p(r.p_holm), r.verdict] if tested else []) for r in b.table.itertuples()]
    caption = (f"Every seat of every game, grouped by its '{b.column}'."
               + (f" {note_text(b.note)}." if b.note else ""))
    if game:
        caption += (" A game-level outcome: every seat of a game has the same value, so each "
                    "value wins exactly its fair share; the answer is its share of games.")
    elif tested and b.grouping == "before":
        caption += (f" Fixed before play: each value's win share is tested against the fair "
                    f"share {pct(1 / a.players)}, Holm's correction across the values.")
    elif tested:
        caption += (f" Grouped after the game by what happened in it: each value's win share "
                    f"is compared with the fair share {pct(1 / a.players)} (Holm's correction "
                    f"across the values), an association, not an effect of the value.")
    return Table(head, rows, caption)


def _section_breakdowns(a: BalanceAnalysis, figs: dict, conf: int, m: dict,
                  build_seconds: float | None) -> list:
    """Game-specific breakdowns (declared by the game: analysis/breakdowns.py)."""
    out = []
    from reports.figures import breakdown_figures
    bfigs = {f.key: f for f in breakdown_figures(a)}
    from reports.assignment import origin
    for b in a.breakdowns:
        s = Section(b.label, f"{'by' if b.kind == 'breakdown' else 'mean'}-{b.column}", [])
        if b.question:
            s.blocks.append(b.question)
        told = origin(m, column=b.column) if b.kind == "breakdown" else None
        if told:
            s.blocks.append(told)
        if b.kind == "breakdown":
            if f"breakdown-{b.column}" in bfigs:
                s.blocks.append(bfigs[f"breakdown-{b.column}"])
            s.blocks.append(_breakdown_table(a, b))
        else:
            s.blocks.append(Table(
                ["strategy", "seats", f"mean {b.label.lower()} (95%)"],
                [[r.value, f"{int(r.rows):,}", f"{num(r.mean, 2)} ({num(r.low, 2)} to {num(r.high, 2)})"]
                 for r in b.table.itertuples()], f"Mean of '{b.column}' per seat, by strategy."))
        out.append(s)
    return out


def _section_what_was_run(a: BalanceAnalysis, figs: dict, conf: int, m: dict,
                  build_seconds: float | None) -> list:
    """What was run."""
    out = []
    s = Section("What was run", "run", [])
    comp = m.get("components") or {}
    timings = m.get("timings") or {}
    rows = [["game", f"{m.get('title', '')} ({m.get('game', '?')})"],
            ["variant", str(m.get("variant", "-"))],
            ["players", str(m.get("players", "?"))],
            ["games", f"{int(m.get('games', a.n_games)):,} (in the logs: {a.n_games:,})"],
            ["seed", str(m.get("seed", "?"))],
            ["run id", str(m.get("run_id", "?"))],
            ["status", str(m.get("status", "?"))],
            ["component file", f"{comp.get('path', '?')} (sha256 {comp.get('sha256', '?')})"]]
    if comp.get("overrides") or m.get("overrides"):
        rows.append(["component overrides", str(comp.get("overrides") or m.get("overrides"))])
    rot = (m.get("config") or {}).get("rotation")
    rows.append(["seats", f"rotated (--rotate-seats): {len(rot)} seatings, each deal played "
                          f"under every one; game g is deal g // {len(rot)} under seating "
                          f"g % {len(rot)} + 1" if rot else "fixed: each strategy kept the seat "
                          "it was given"])
    for done in m.get("assigned") or []:
        rows.append([f"{done['choice']}", f"assigned at random (--assign {done['choice']}=random): "
                                          f"{done['what']}"])
    rows += [["chunks", f"{m.get('n_chunks', '?')} of {m.get('chunk_size', '?')} games"],
             ["toolkit version", str(m.get("package_version", "?"))],
             ["python / numba / numpy", f"{m.get('python', '?')} / {m.get('numba', '?')} / {m.get('numpy', '?')}"],
             ["created", str(m.get("created", "?"))],
             ["command line", " ".join(map(str, m.get("command_line") or []))],
             ["time taken", _time_taken(m, timings)]]
    if build_seconds is not None:
        rows.append(["report built in", f"{build_seconds:.1f} s"])
    s.blocks.append(Table(["", ""], rows, sortable=False))
    changes = played_changes(a)
    if changes is not None and len(changes):
        s.blocks.append(Table(["what", "field", "shipped", "played"],
                              [[_changed_item(r), r.field, r.shipped, r.played]
                               for r in changes.itertuples()],
                              "Every value of the component file played that differs from the "
                              "game's shipped file (--set or a user's file)."))
    srows = []
    for p, info in enumerate(m.get("strategies") or []):
        params = ", ".join(f"{k}={v:g}" if isinstance(v, (int, float)) else f"{k}={v}"
                           for k, v in (info.get("params") or {}).items())
        srows.append([f"Seat {p + 1}", str(info.get("name", "?")), str(info.get("base", "")),
                      params or "-", str(info.get("source", ""))])
    if srows:
        s.blocks.append(Table(["seat", "strategy", "base", "parameters", "source"], srows,
                              "Strategies and their parameters" +
                              (", in the seats as given (seating 1); with the seats rotated "
                               "each sat in every seat in turn." if rot else ".")))
    out.append(s)
    return out


def _section_method(a: BalanceAnalysis, figs: dict, conf: int, m: dict,
                  build_seconds: float | None) -> list:
    """Method."""
    out = []
    notes = [
        f"Win share: a seat's wins with ties split (1/k each for k tied winners), over its games; "
        f"{conf}% Wilson score intervals.",
        "Seat test: two-sided score test of the win share against the fair share 1/players; "
        "p-values adjusted across seats with Holm's step-down method. 'Favoured' or "
        "'disadvantaged' means the adjusted p-value is below 0.05.",
        "Seat fairness and strategy strength are measured apart only when each strategy sits in "
        "each seat equally often (`balance run --rotate-seats`) or one strategy plays every "
        "seat; when each seat keeps its own strategy the report gives no seat verdict and marks "
        "the strategy verdicts as including their seats' advantage.",
        "Strategy ratings: Plackett-Luce strengths fitted with the MM algorithm of Hunter (2004) "
        "on the finishing orders (ties: every tie-break, equally weighted), standard errors from "
        "the Fisher information, one virtual game each way per pair of strategies as a prior.",
        "Cards: a row is one seat in one game. 'Win share when taken' is over the rows that took "
        "the card; the comparison with the other cards of the type uses Newcombe's hybrid score "
        "interval for a difference of proportions. A card is flagged only when that interval "
        "excludes zero and the difference is at least 5 percentage points (solo: a score "
        "difference of at least 0.1 standard deviation, Welch interval). The baseline of every "
        "card verdict (run report, sweep, tune, `balance cards`) is the takers of the other "
        "cards of its type. A flag is an association; whether the players respond to the card's "
        "value is measured by replaying the flagged cards one point down and one point up on "
        "the run's own seeds (common random numbers, `balance report --card-check`): 'do not "
        "respond' when the take rate's change per point lies within +/-0.5 pp, interval "
        "included.",
        "More games to halve an interval: intervals shrink as 1/sqrt(games), so halving one "
        "takes four times the games.",
    ]
    notes += [f"Note: {n}" for n in note_lines(a.notes)]
    out.append(Section("Method", "method", [notes]))
    return out


def played_changes(a: BalanceAnalysis):
    """The component values the run changed from the shipped file (analysis/played.py),
    None when not known (the game is not registered here)."""
    from analysis.played import run_component_changes
    return run_component_changes(a.component_texts, a.meta)


def _changed_item(r) -> str:
    return component_name(r.item, r.kind) if r.item else r.section


def change_text(r) -> str:
    """"Barn (tile): shields 2 -> 3" for a card, "rules.start_handicap: 1 -> 0" otherwise."""
    where = f"{component_name(r.item, r.kind)}: {r.field}" if r.item else r.field
    return f"{where} {r.shipped} -> {r.played}" if r.item else f"{where}: {r.shipped} -> {r.played}"


SHOWN_CHANGES = 6   # changes listed under the title; all of them in "What was run"


def played_lines(a: BalanceAnalysis, m: dict) -> list:
    """What was played, in three or four lines under the title: the game and the games, the
    players with their parameters, what was changed from the shipped components."""
    from analysis.played import player_groups
    rot = (m.get("config") or {}).get("rotation")
    lines = [f"{m.get('title') or m.get('game', '?')}, {a.players} player"
             f"{'s' if a.players != 1 else ''}, {a.n_games:,} games (seed {m.get('seed', '?')}"
             f"{', seats rotated' if rot else ''}{', incomplete run' if m.get('status') != 'complete' else ''})."]
    players = []
    for r in player_groups(m).itertuples():
        where = f"seat{'s' if r.count > 1 else ''} {r.seats}"
        players.append(f"{r.strategy} in {where}" + (f" ({r.parameters})" if r.parameters else ""))
    if players:
        lines.append("Players: " + "; ".join(players) + ".")
    changes = played_changes(a)
    comp = m.get("components") or {}
    source = comp.get("path") or "?"
    sets = list(comp.get("overrides") or [])
    how = ([f"--set {x}" for x in sets] if sets else []) + (
        [f"the file {source}"] if source != "<default>" else [])
    if changes is None:
        lines.append("Components: " + ("the game's shipped file" if source == "<default>" else
                                       f"the file {source}")
                     + " (not compared: the game is not registered here).")
    elif not len(changes):
        lines.append("Components: the game's shipped file, unchanged.")
    else:
        shown = [change_text(r) for r in changes.head(SHOWN_CHANGES).itertuples()]
        more = len(changes) - len(shown)
        lines.append(f"Changed from the shipped components ({', '.join(how) or 'a user file'}): "
                     + "; ".join(shown) + (f"; {more} more (see What was run)" if more else "")
                     + ".")
    return lines


def _section_played(a: BalanceAnalysis, figs: dict, conf: int, m: dict,
                    build_seconds: float | None) -> list:
    """What was played: under the title."""
    return [Section("What was played", "played", [played_lines(a, m)], kind="played")]


def _section_summary(a: BalanceAnalysis, figs: dict, conf: int, m: dict,
                     build_seconds: float | None) -> list:
    """The first screen: the answers, each with its interval and a small chart."""
    from reports.first_screen import key_points
    return [Section("At a glance", "summary", key_points(a), kind="summary")]


SECTIONS = [_section_played, _section_summary, _section_verdicts, _section_seats, _section_strategies, _section_scores,
            _section_shape, _section_over_time, _section_cards, _section_breakdowns, _section_what_was_run,
            _section_method]


def build_document(a: BalanceAnalysis, figures: list[Figure] | None = None,
                   build_seconds: float | None = None) -> Document:
    figs = _fig_map(figures if figures is not None else make_figures(a))
    m = a.manifest
    conf = int(round(a.confidence * 100))
    title = f"Balance report: {m.get('title') or m.get('game') or 'run'}"
    strat_text = ", ".join(m.get("strategy_names") or a.strategies)
    subtitle = (f"{a.n_games:,} games, {a.players} player{'s' if a.players != 1 else ''} "
                f"({strat_text}), seed {m.get('seed', '?')}, run {m.get('run_id', '?')}")
    sections = []
    for part in SECTIONS:   # in reading order: verdicts first, then the evidence
        sections.extend(part(a, figs, conf, m, build_seconds))
    return Document(title, subtitle, sections)


def _time_taken(m: dict, timings: dict) -> str:
    sessions = m.get("sessions") or []
    play = sum(float(x.get("play_seconds") or 0) for x in sessions) if sessions else timings.get("play_seconds")
    comp = sum(float(x.get("compile_seconds") or 0) for x in sessions) if sessions else timings.get("compile_seconds")
    gps = timings.get("games_per_second")
    parts = []
    if play is not None:
        parts.append(f"play {float(play):.1f} s")
    if comp is not None:
        parts.append(f"compile/warm-up {float(comp):.1f} s")
    if gps:
        parts.append(f"{F.rate(gps)} games/s on {F.workers(timings.get('workers', '?'))}")
    if len(sessions) > 1:
        parts.append(f"{len(sessions)} sessions (resumed)")
    return ", ".join(parts) or "-"

