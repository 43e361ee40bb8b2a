"""Grand Surfers: the component file (TOML with the sheets drawn in plain text), its
validation, and the compiled tables.

No picture of the real sea sheet or wave sheet survives (the rulebook text only): the shipped
default (`default_components.toml`) is a RECONSTRUCTION, and says so at its top. A designer
copies it (`balance components surfers > mine.toml`), redraws the sheets and runs with
`--components mine.toml`. A sheet may also live in its own text file, named by the TOML
(`[sea] file = "sea.txt"`, relative to the TOML file).

Sheet format (docs/games/grand-surfers.md has the default drawn):

  sea sheet, one text line per sea line, the beach line first (top), the start side last:
      B ======        the beach line: label B, then one character per column:
                      '=' the column reaches the beach, '#' it does not
      4 o.o~o.        a sea line: its printed number (1-6, or '-' for none), a space, then
                      one character per cell: '.' square, 'o' circle, '~' tide, '#' no cell
  wave sheet, one text line per row, the farthest row first, the row at the start line last:
      '.' plain  'h' 1/2 cell  '+' pips +/-1  'R' re-flick  'U' channel up  'D' channel down
      'X' channel up or down  '#' a hole (not part of the sheet)

Validation collects every problem and raises one ComponentError with one line per problem,
naming the file, the sheet line or field, and what is wrong (an unknown character, a ragged
line, no path to the beach, a channel cell that is not a circle...).
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Optional

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, field_validator

from sim.game_api import ComponentError, Components
from sim.games.surfers import enums as E
from sim.component_file import file_sha256, parse, rule_option, text_of
from sim.component_file import Collector as _Collector, check_keys as _check_keys
from sim.component_file import validate_list as _validate_list

GAME = "surfers"
DEFAULT_PATH = str(Path(__file__).with_name("default_components.toml"))

TOP_LISTS = ("finish",)
TOP_TABLES = ("sea", "wave", "flick", "rules")
COL_LETTERS = "abcdefghijkl"

Text = Annotated[str, Field(min_length=1)]
Num = Annotated[float, Field(ge=0.0)]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class SeaSection(_Model):
    sheet: Optional[str] = None
    file: Optional[str] = None
    channels: list[str] = Field(default_factory=list,
                                description="pre-drawn arrows, e.g. \"2b>3c\" (line 2 column b up to line 3 column c)")


class WaveSection(_Model):
    sheet: Optional[str] = None
    file: Optional[str] = None


class Finish(_Model):
    name: Text
    score: int = Field(ge=0)
    holds: int = Field(ge=0, le=1, description="1 = one surfer, 0 = any number")


class NoiseSection(_Model):
    distance: Num
    distance_per_row: Num
    side: Num
    side_per_row: Num


class FlickSection(_Model):
    spread: list[Annotated[float, Field(ge=0.0, le=10.0)]] = Field(min_length=1, max_length=E.MAX_PLAYERS)
    noise: NoiseSection
    pips: list[Num] = Field(min_length=E.N_PIPS, max_length=E.N_PIPS)


class RulesSection(_Model):
    second_surfer_line: int = Field(ge=0, le=E.MAX_LINES)
    fastest_points: int = Field(ge=0)
    duo_points: int = Field(ge=0)
    lines_per_fold: int = Field(ge=1, le=E.MAX_LINES)
    fold_on_marker_turn: bool
    boost_min: int = Field(ge=1, le=6)
    boost_max: int = Field(ge=1, le=6)
    pips_change: int = Field(ge=1, le=5)
    max_reflicks: int = Field(ge=0, le=100)
    max_short_flicks: int = Field(ge=1, le=1000)
    max_boost_chain: int = Field(ge=1, le=100)
    turn_limit: int = Field(ge=1, le=100000)
    # rule options (named choices where the rulebook is silent or ambiguous; defaults documented
    # in docs/games/grand-surfers.md; optional so that older component files still load)
    boost_moves: str = "arriving"
    boost_loop: str = "no_revisit"
    second_surfer_reading: str = "above"
    tide_on_move: str = "harmless"

    @field_validator("boost_moves", "boost_loop", "second_surfer_reading", "tide_on_move")
    @classmethod
    def _named(cls, v: str, info) -> str:
        return rule_option(v, RULE_OPTIONS[info.field_name])


# rule option name -> {value: code}
RULE_OPTIONS = {"boost_moves": E.BOOST_MOVES, "boost_loop": E.BOOST_LOOPS,
                "second_surfer_reading": E.SECOND_READINGS, "tide_on_move": E.TIDE_ON_MOVE}


# --- sheets -------------------------------------------------------------------------------
def _sheet_lines(text: str) -> list[tuple[int, str]]:
    """(line number within the sheet text, 1-based; the line without trailing blanks) for
    every non-blank line."""
    return [(i + 1, ln.rstrip()) for i, ln in enumerate(text.splitlines()) if ln.strip()]


def cell_name(line: int, col: int) -> str:
    """0-based line (from the start) and column -> '3b' (rulebook-style line number 1-based)."""
    return f"{line + 1}{COL_LETTERS[col]}"


def _sheet_row(col: _Collector, where: tuple, head: str, cells: str, width: int, first: str,
               chars: dict, column, legend: str, out: np.ndarray) -> bool:
    """One drawn row of a sheet into `out` (its row of kind codes): as wide as the sheet's
    `first` line, every cell one of `chars`. Reports each problem, starting with `head` (the
    row as the designer wrote it), naming the column by `column(k)`; False if any."""
    if len(cells) != width:
        col.add(where, f"{head}: {len(cells)} cells, the {first} has {width}")
        return False
    ok = True
    for k, ch in enumerate(cells):
        if ch not in chars:
            col.add(where, f"{head}: unknown cell {ch!r} at column {column(k)} ({legend})")
            ok = False
        else:
            out[k] = chars[ch]
    return ok


def parse_sea(col: _Collector, text: str, where: tuple):
    """-> (cell_kind[n_lines, n_cols], labels[n_lines], beach_open[n_cols]) with line 0 nearest
    the start, or None after reporting the problems."""
    rows = _sheet_lines(text)
    ok = True
    if not rows:
        col.add(where, "the sea sheet is empty")
        return None
    first_no, first = rows[0]
    if not first.startswith("B "):
        col.add(where, f"sheet line {first_no} {first!r}: the first line must be the beach: "
                       f"'B ' then one '=' (open) or '#' (closed) per column")
        return None
    beach = first[2:]
    width = len(beach)
    if width == 0 or width > E.MAX_COLS:
        col.add(where, f"sheet line {first_no}: {width} columns; the engine holds 1..{E.MAX_COLS}")
        return None
    for k, ch in enumerate(beach):
        if ch not in "=#":
            col.add(where, f"sheet line {first_no} {first!r}: unknown beach cell {ch!r} at column "
                           f"{COL_LETTERS[k] if k < len(COL_LETTERS) else k + 1} (use = for beach, # for none)")
            ok = False
    sea = rows[1:]
    if not sea:
        col.add(where, "the sea sheet has a beach line but no sea lines")
        return None
    if len(sea) > E.MAX_LINES:
        col.add(where, f"{len(sea)} sea lines; the engine holds at most {E.MAX_LINES}")
        return None
    n = len(sea)
    kind = np.zeros((n, width), np.int64)
    labels = np.zeros(n, np.int64)
    for i, (no, ln) in enumerate(sea):
        line = n - 1 - i  # the last text line is line 0 (nearest the start)
        m = re.fullmatch(r"([1-6\-]) (.*)", ln)
        if not m:
            col.add(where, f"sheet line {no} {ln!r}: must start with the line's number (1-6, or - "
                           f"for none) and a space")
            ok = False
            continue
        labels[line] = 0 if m.group(1) == "-" else int(m.group(1))
        if not _sheet_row(col, where, f"sheet line {no} {ln!r}", m.group(2), width, "beach line",
                          E.SEA_CHARS, COL_LETTERS.__getitem__,
                          "use . square, o circle, ~ tide, # no cell", kind[line]):
            ok = False
    if not ok:
        return None
    open_ = np.array([1 if ch == "=" else 0 for ch in beach], np.int64)
    reach = [k for k in range(width) if open_[k] and (kind[:, k] != E.K_NONE).any()]
    if not reach:
        col.add(where, "no path to the beach: no column with cells has an open beach end ('=')")
        return None
    return kind, labels, open_


def parse_channels(col: _Collector, items: list, kind: np.ndarray, where: tuple) -> Optional[np.ndarray]:
    """Pre-drawn arrows "2b>3c" -> int64[n, 4] (line, col, line2, col2), checked like a drawn
    channel: circles only, the next line, at most one column sideways, one outgoing arrow per
    cell, no loop."""
    n_lines, n_cols = kind.shape
    out = []
    ok = True
    for i, text in enumerate(items):
        loc = where + (i,)
        m = re.fullmatch(r"\s*(\d+)([a-l])\s*>\s*(\d+)([a-l])\s*", text)
        if not m:
            col.add(loc, f"{text!r}: write an arrow as <line><column>><line><column>, e.g. \"2b>3c\"")
            ok = False
            continue
        l1, c1 = int(m.group(1)) - 1, COL_LETTERS.index(m.group(2))
        l2, c2 = int(m.group(3)) - 1, COL_LETTERS.index(m.group(4))
        bad = False
        for ln, cc in ((l1, c1), (l2, c2)):
            if not (0 <= ln < n_lines and 0 <= cc < n_cols):
                col.add(loc, f"{text!r}: cell {ln + 1}{COL_LETTERS[cc]} is not on the sheet "
                             f"({n_lines} lines, columns a-{COL_LETTERS[n_cols - 1]})")
                bad = True
            elif kind[ln, cc] != E.K_CIRCLE:
                col.add(loc, f"{text!r}: cell {cell_name(ln, cc)} is a {E.KIND_NAMES[kind[ln, cc]]}; "
                             f"channels connect circle cells only")
                bad = True
        if bad:
            ok = False
            continue
        if abs(l2 - l1) != 1 or abs(c2 - c1) > 1:
            col.add(loc, f"{text!r}: an arrow goes to the next line up or down, at most one column sideways")
            ok = False
            continue
        out.append((l1, c1, l2, c2, i))
    if not ok:
        return None
    nxt = {}
    for l1, c1, l2, c2, i in out:
        if (l1, c1) in nxt:
            col.add(where + (i,), f"{items[i]!r}: cell {cell_name(l1, c1)} already has an outgoing "
                                  f"arrow (one per cell)")
            return None
        nxt[(l1, c1)] = (l2, c2)
    for start in nxt:
        seen, c = set(), start
        while c in nxt:
            if c in seen:
                col.add(where, f"the channels form a closed loop through {cell_name(*c)}")
                return None
            seen.add(c)
            c = nxt[c]
    return np.array([o[:4] for o in out], np.int64).reshape(-1, 4)


def parse_wave(col: _Collector, text: str, where: tuple) -> Optional[np.ndarray]:
    """-> wave_kind[rows, cols] with row 0 at the start line, or None after reporting."""
    rows = _sheet_lines(text)
    if not rows:
        col.add(where, "the wave sheet is empty")
        return None
    if len(rows) > E.MAX_WAVE_ROWS:
        col.add(where, f"{len(rows)} rows; the engine holds at most {E.MAX_WAVE_ROWS}")
        return None
    width = len(rows[0][1].strip())
    if width == 0 or width > E.MAX_WAVE_COLS:
        col.add(where, f"{width} columns; the engine holds 1..{E.MAX_WAVE_COLS}")
        return None
    n = len(rows)
    kind = np.zeros((n, width), np.int64)
    ok = True
    for i, (no, ln) in enumerate(rows):
        cells = ln.strip()
        r = n - 1 - i
        if not _sheet_row(col, where, f"sheet line {no} {cells!r}", cells, width, "first row",
                          E.WAVE_CHARS, lambda k: k + 1,
                          "use . plain, h half, + pips, R re-flick, U up, D down, X either, # hole",
                          kind[r]):
            ok = False
    if not ok:
        return None
    if not (kind != E.W_NONE).any():
        col.add(where, "the wave sheet has no cell to land in")
        return None
    return kind


def _sheet_text(col: _Collector, sec: dict, where: tuple, base: Optional[Path], extra: list) -> Optional[str]:
    has_sheet, has_file = sec.get("sheet") is not None, sec.get("file") is not None
    if has_sheet == has_file:
        col.add(where, "give the sheet either drawn inline (sheet = \"\"\"...\"\"\") or as "
                       "file = \"name.txt\", not both / neither")
        return None
    if has_sheet:
        return sec["sheet"]
    p = Path(sec["file"])
    if not p.is_absolute() and base is not None:
        p = base / p
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        col.add(where + ("file",), f"cannot read {str(p)!r}: {exc.strerror or exc}")
        return None
    except UnicodeDecodeError:
        col.add(where + ("file",), f"{str(p)!r} is not UTF-8 text")
        return None
    extra.append(text)
    return text


def _inline_sheet_files(text: str, base: Path) -> str:
    """The component text with every `file = "x.txt"` line replaced by the sheet drawn inline,
    so that the copy a run keeps (and hashes) is self-contained."""
    def repl(m):
        p = Path(m.group(2))
        p = p if p.is_absolute() else base / p
        body = p.read_text(encoding="utf-8").rstrip("\n")
        return f'{m.group(1)}sheet = """\n{body}\n"""   # from {m.group(2)}'
    return re.sub(r'(?m)^([ \t]*)file\s*=\s*"([^"]*)"[ \t]*(#.*)?$', repl, text)


# --- the kernels' tables -------------------------------------------------------------------
# rules copied as written into the tables' field of the same name (enums.TABLES_DTYPE)
NUMBER_RULES = ("second_surfer_line", "fastest_points", "duo_points", "lines_per_fold",
                "boost_min", "boost_max", "pips_change", "max_reflicks", "max_short_flicks",
                "max_boost_chain", "turn_limit")


def build_tables(sea, channels: np.ndarray, wave: np.ndarray, finish: list,
                 flick: FlickSection, rules: RulesSection) -> np.recarray:
    """The kernels' tables, a 1-element recarray of E.TABLES_DTYPE, straight from the validated
    file: `sea` = parse_sea's (cell_kind, labels, beach_open), `channels` = parse_channels',
    `wave` = parse_wave's, `finish` the Finish cells best first."""
    rec = np.zeros(1, E.TABLES_DTYPE).view(np.recarray)
    t = rec[0]
    _fill_sea(t, *sea, channels)
    _fill_arrows(t, sea[0])
    t.wave_rows, t.wave_cols = wave.shape
    for row in range(wave.shape[0]):
        t.wave_kind[row * E.MAX_WAVE_COLS:row * E.MAX_WAVE_COLS + wave.shape[1]] = wave[row]
    t.n_finish = len(finish)
    t.finish_score[:len(finish)] = [f.score for f in finish]
    t.finish_holds[:len(finish)] = [f.holds for f in finish]
    _fill_flick(t, flick, wave)
    for name in NUMBER_RULES:
        t[name] = getattr(rules, name)
    t.fold_on_marker_turn = 1 if rules.fold_on_marker_turn else 0
    for name, codes in RULE_OPTIONS.items():
        t[name] = codes[getattr(rules, name)]
    return rec


def _fill_sea(t, kind: np.ndarray, labels: np.ndarray, beach_open: np.ndarray,
              channels: np.ndarray) -> None:
    """The sea sheet as cells (line * MAX_COLS + col): kinds, the next cell up and down each
    column, each column's lowest cell, the pre-drawn arrows."""
    nl, nc = kind.shape
    t.n_lines, t.n_cols, t.n_cells = nl, nc, nl * E.MAX_COLS
    for line in range(nl):
        t.cell_kind[line * E.MAX_COLS:line * E.MAX_COLS + nc] = kind[line]
    t.line_label[:nl] = labels
    t.up[:] = E.UP_BLOCKED
    t.below[:] = E.NO_CELL
    t.col_first[:] = -1
    for col in range(nc):
        cells = [line * E.MAX_COLS + col for line in range(nl) if kind[line, col] != E.K_NONE]
        if cells:
            t.col_first[col] = cells[0]
        for i, cell in enumerate(cells):
            top = E.UP_BEACH if beach_open[col] else E.UP_BLOCKED
            t.up[cell] = cells[i + 1] if i + 1 < len(cells) else top
            t.below[cell] = cells[i - 1] if i > 0 else E.NO_CELL
    t.n_channels = len(channels)
    for i, (l1, c1, l2, c2) in enumerate(channels):
        t.channels[i] = (l1 * E.MAX_COLS + c1, l2 * E.MAX_COLS + c2)


def _fill_arrows(t, kind: np.ndarray) -> None:
    """Every arrow the sheet's geometry allows (TABLES_DTYPE.arrows), by start line."""
    nl, nc = kind.shape
    n = 0
    for la in range(nl):
        for ca in range(nc):
            if kind[la, ca] != E.K_CIRCLE:
                continue
            for lb in (la + 1, la - 1):
                if not 0 <= lb < nl:
                    continue
                for cb in (ca - 1, ca, ca + 1):
                    if 0 <= cb < nc and kind[lb, cb] == E.K_CIRCLE:
                        t.arrows[n] = (la * E.MAX_COLS + ca, lb * E.MAX_COLS + cb)
                        n += 1
    t.n_arrows = n


def _fill_flick(t, flick: FlickSection, wave: np.ndarray) -> None:
    """Each seat's spread (the last one given repeats), the noise, the pip chances, and where
    each seat's aims land (aim_prob, and summed by the kind of cell: aim_kind)."""
    spread = list(flick.spread) + [flick.spread[-1]] * (E.MAX_PLAYERS - len(flick.spread))
    t.skill[:] = spread
    nz = flick.noise
    t.noise[:] = (nz.distance, nz.distance_per_row, nz.side, nz.side_per_row)
    weights = np.asarray(flick.pips, np.float64)
    cum = np.cumsum(weights / weights.sum())
    cum[-1] = 1.0
    t.pip_cum[:] = cum
    for seat in range(E.MAX_PLAYERS):
        ap = E.aim_probabilities(wave, t.skill[seat], t.noise)
        t.aim_prob[seat] = ap
        for k in range(E.N_WAVE_KINDS):
            cells = [w for w in range(E.MAX_WAVE) if t.wave_kind[w] == k and k != E.W_NONE]
            t.aim_kind[seat][:, k] = ap[:, cells].sum(axis=1) if cells else 0.0
        t.aim_kind[seat][:, E.W_NONE] = ap[:, E.AIM_OFF]


# --- loading ----------------------------------------------------------------------------
def default_components_text() -> str:
    return Path(DEFAULT_PATH).read_text(encoding="utf-8")


def load_components(path: str | None = None, overrides: tuple = ()) -> Components:
    """Read and validate a component file (the shipped default when `path` is None), with
    `--set PATH=VALUE` overrides applied before validation (sim/overrides.py)."""
    text, label = text_of(path, DEFAULT_PATH)
    return components_from_text(text, label, overrides)


def components_from_text(text: str, path: str = "<text>", overrides: tuple = ()) -> Components:
    """Validate component-file text; `path` names the file in messages (and is where sheet
    files are looked up from); `overrides`: `PATH=VALUE` strings applied before validation."""
    label, raw, resolved = parse(text, path, DEFAULT_PATH, overrides)
    base = Path(label).parent if label not in ("<text>",) else Path(".")

    col = _Collector(label, raw)
    _check_keys(col, raw, (), TOP_LISTS, TOP_TABLES, "section")
    sea_sec = col.validate(SeaSection, raw["sea"], ("sea",), {}) if "sea" in raw else None
    wave_sec = col.validate(WaveSection, raw["wave"], ("wave",), {}) if "wave" in raw else None
    flick = col.validate(FlickSection, raw["flick"], ("flick",), {}) if "flick" in raw else None
    rules = col.validate(RulesSection, raw["rules"], ("rules",), {}) if "rules" in raw else None
    finish = _validate_list(col, raw["finish"], ("finish",), Finish, {}) if "finish" in raw else []

    extra: list = []
    sea = channels = wave = None
    if sea_sec is not None:
        st = _sheet_text(col, sea_sec.model_dump(), ("sea",), base, extra)
        if st is not None:
            sea = parse_sea(col, st, ("sea", "sheet" if sea_sec.sheet is not None else "file"))
        if sea is not None:
            channels = parse_channels(col, sea_sec.channels, sea[0], ("sea", "channels"))
    if wave_sec is not None:
        wt = _sheet_text(col, wave_sec.model_dump(), ("wave",), base, extra)
        if wt is not None:
            wave = parse_wave(col, wt, ("wave", "sheet" if wave_sec.sheet is not None else "file"))
    if isinstance(raw.get("finish"), list):
        if not raw["finish"]:
            col.add(("finish",), "needs at least one finish cell")
        elif len(raw["finish"]) > E.MAX_FINISH:
            col.add(("finish",), f"{len(raw['finish'])} finish cells; the engine holds at most {E.MAX_FINISH}")
        elif len(finish) == len(raw["finish"]) and finish[-1][1].holds != 0:
            col.add(("finish", len(finish) - 1), "the last finish cell must hold any number (holds = 0): "
                                                 "surfers pushed down the finish need somewhere to go")
    if flick is not None and sum(flick.pips) <= 0:
        col.add(("flick", "pips"), "the pip weights must not all be 0")
    if rules is not None and rules.boost_max < rules.boost_min:
        col.add(("rules", "boost_max"), f"must be >= boost_min ({rules.boost_min}), got {rules.boost_max}")

    if col.lines:
        raise ComponentError(col.lines)
    tables = build_tables(sea, channels, wave, [f for _, f in finish], flick, rules)
    data = {"sea": sea_sec.model_dump(), "wave": wave_sec.model_dump(),
            "flick": flick.model_dump(), "rules": rules.model_dump(),
            "finish": [f.model_dump() for _, f in finish]}
    if extra:
        text = _inline_sheet_files(text, base)
    return Components(game=GAME, path=path, text=text,
                      sha256=file_sha256(text, resolved),
                      data=data, tables=tables,
                      card_names={"finish": [f.name for _, f in finish],
                                  "action": list(E.ACTION_NAMES)},
                      overrides=list(overrides), overrides_resolved=resolved)
