"""ladder: the skill ladder of a game as a library call (scripts/cli_ladder.py only parses,
calls and prints). Named `ladders` like `runs` / `games`, so that the
module never shadows the function `sim.api.ladder`.

What is measured: analysis/ladder.py; the table, plot and document: reports/ladder.py; the
plays: sim/designer.py (run_configs) and sim/rotation.py.

The result folder works like compare / sweep (sim/api/designer.py, sim/api/folders.py): one
ordinary sub-run per level (`point-NN`: the level in one seat, the reference in the others,
seats rotated), `verdict-base` / `verdict-top` (the game's default strategy, then the
strongest level, in every seat: the report's verdicts at both), the plan `designer.json` with
the toolkit's marker, the mcts budgets as a variants file the toolkit writes and owns
(`ladder_variants.toml`, its SHA-256 in the plan), and `report/` (written by `.report()`).
The same call resumes; another one needs overwrite=True, which removes only the toolkit's own
files; a folder of other files is refused.
"""
from __future__ import annotations

import math
import os
from dataclasses import dataclass

from sim.api.common import check_common, echo_to, overrides
from sim.api.folders import claim_root, result_root
from sim import folder_lock, limits
from sim.limits import MAX_SEARCH_BUDGET
from sim.game_api import ToolkitError

BUILTIN_LEVELS = ("random", "greedy", "planner")
DEFAULT_BUDGETS = None     # the game's own mcts iterations: the one level `mcts` as shipped
DEFAULT_GAMES = 2000
DEFAULT_CARD_STATES = 300  # sampled decisions per card for the card verdicts (= balance cards)
VARIANTS_NAME = "ladder_variants.toml"


def parse_budgets(budgets) -> list:
    """The mcts budgets, sorted, without repeats: a list of whole numbers or the CLI's comma
    text ('50,200,800'); one line per mistake, in the CLI's words."""
    parts = str(budgets).split(",") if isinstance(budgets, str) else list(budgets)
    out = []
    for part in parts:
        text = str(part).strip()
        try:
            v = int(text)     # 50 or '50'; never 50.5 or True (their texts are not whole)
        except ValueError:
            raise ToolkitError(f"--budgets: '{text}' is not a whole number of iterations "
                               f"(e.g. --budgets 50,200,800)") from None
        if v < 1:
            raise ToolkitError(f"--budgets: iterations must be at least 1, got {v}")
        if v > MAX_SEARCH_BUDGET:
            raise ToolkitError(f"--budgets: at most {MAX_SEARCH_BUDGET:,} iterations per "
                               f"decision (the toolkit's limit), got {v:,}")
        if v not in out:
            out.append(v)
    if not out:
        raise ToolkitError("--budgets: give at least one budget, e.g. --budgets 50,200,800")
    return sorted(out)


def levels_of(spec, rollout: str | None, reference: str | None):
    """(built-in levels, reference) of a game; ToolkitError when the game has no search
    players or a named strategy is unknown."""
    catalog = spec.strategy_catalog()
    names = [e["name"] for e in catalog]
    plain = [e["name"] for e in catalog if not e.get("search")]
    if "mcts" not in names:
        raise ToolkitError(f"{spec.name}: no search players (the game is not on the forward-model "
                           f"template yet), so it has no ladder")
    default = spec.default_strategy_name()
    declared = tuple(getattr(spec, "skill_levels", ()) or ())
    unknown = [n for n in declared if n not in plain]
    if unknown:
        raise ToolkitError(f"{spec.name}: skill_levels names {', '.join(unknown)}, not a built-in "
                           f"(built-ins: {', '.join(plain)})")
    builtin = list(declared) or [n for n in BUILTIN_LEVELS if n in plain]
    if not declared and default in plain and default not in builtin:
        builtin.append(default)
    if "random" not in builtin and plain:
        builtin.insert(0, plain[0])
    if rollout is not None and rollout not in plain:
        raise ToolkitError(f"--rollout: '{rollout}' is not a built-in of {spec.name} "
                           f"(built-ins: {', '.join(plain)})")
    if reference is None:
        reference = (declared[-1] if declared
                     else "planner" if "planner" in plain else default)
    elif reference not in plain:
        raise ToolkitError(f"--reference: '{reference}' is not a built-in of {spec.name} "
                           f"(built-ins: {', '.join(plain)})")
    if reference not in builtin:
        builtin.append(reference)
    return builtin, reference


def shipped_mcts(spec) -> dict:
    """The game's `mcts` as shipped: its parameters by name (the game's own defaults where it
    declares them, strategies/search.py catalog_for), the rollout policy by its name."""
    catalog = spec.strategy_catalog()
    entry = next(e for e in catalog if e["name"] == "mcts")
    by_id = {float(e["id"]): e["name"] for e in catalog if not e.get("search")}
    out = {}
    for pname, default, *_ in entry["params"]:
        out[pname] = (by_id[float(default)] if pname in entry.get("strategy_params", ())
                      else float(default))
    return out


def _toml_value(v) -> str:
    if isinstance(v, str):
        return f'"{v}"'
    return str(int(v)) if float(v).is_integer() else repr(float(v))


def variants_text(budgets: list, params: dict) -> str:
    """The variants file of the mcts levels: the game's mcts as shipped (`params`, written out
    in full so the file says what was played), one variant per budget (iterations)."""
    from analysis.ladder import mcts_level
    lines = ["# written by `balance ladder`: the mcts levels of the ladder (do not edit)"]
    for b in budgets:
        body = {**params, "iterations": int(b)}
        shown = ", ".join(f"{k} = {_toml_value(v)}" for k, v in body.items())
        lines += [f'[variants."{mcts_level(b)}"]', 'base = "mcts"', f"params = {{ {shown} }}",
                  f'description = "the game\'s mcts with {int(b)} iterations per decision, '
                  f'{params["rollout"]} rollouts"', ""]
    return "\n".join(lines)


def _chunk(games: int, rot: int, seconds_per_game: float | None = None) -> int:
    """About ten chunks per sub-run (a search game is slow: the progress bar moves), whole
    rotations each, and no longer than the runner's chunks of slow players (sim/runner.py
    default_chunk_size: `seconds_per_game`, the slowest configuration's estimate) so that
    every worker gets work; fixed by the plan, so the same call resumes."""
    from sim.runner import default_chunk_size
    chunk = max(rot, int(math.ceil(games / rot / 10.0)) * rot)
    if seconds_per_game is not None:
        chunk = min(chunk, max(rot, default_chunk_size(games, seconds_per_game) // rot * rot))
    return chunk


def _slowest(spec, configs: list) -> float | None:
    """The largest estimated seconds per game of the configurations (None: none is slow)."""
    from sim.runner import seconds_per_game
    costs = [c for c in (seconds_per_game(spec, x["prepared"]) for x in configs) if c]
    return max(costs) if costs else None


@dataclass
class LadderResult:
    """The ladder of `ladder(...)`.

    .table (DataFrame, one row per level, weakest first: level, budget, games, win_share,
    win_low, win_high, rating, rating_se, rating_low, rating_high, elo), .verdict_table
    (DataFrame, analysis.ladder.compare_verdicts: the seat and start-position verdicts with
    the default strategy and with the strongest level, the card verdicts by counterfactual
    play with the default strategy and with the strongest built-in level; or None), .depth, .steps, .strongest, .reference, .levels, .verdicts and
    .notes (plain lines), .games (per level, whole seat rotations), .seatings, .verdict_games,
    .path (the result folder; .temporary: True when out=None made it), .manifest (of the
    first sub-run), .analysis
    (analysis.ladder.LadderResult); .table_text() (the terminal table), .document(),
    .report(path)."""
    path: str
    analysis: object
    manifest: dict
    games: int
    seatings: int
    verdict_games: int
    rollout: str
    budgets: list
    temporary: bool = False
    card_note: str | None = None     # what the card verdicts played, in words

    @property
    def table(self):
        return self.analysis.table

    @property
    def verdict_table(self):
        return self.analysis.verdict_table

    @property
    def depth(self) -> int:
        return self.analysis.depth

    @property
    def steps(self) -> list:
        return self.analysis.steps

    @property
    def strongest(self) -> str:
        return self.analysis.strongest

    @property
    def reference(self) -> str:
        return self.analysis.reference

    @property
    def levels(self) -> list:
        return self.analysis.levels

    @property
    def verdicts(self) -> list:
        return self.analysis.verdicts

    @property
    def notes(self) -> list:
        return self.analysis.notes

    def table_text(self) -> str:
        from reports.ladder import ladder_table_text
        return ladder_table_text(self.analysis)

    def document(self):
        from reports.ladder import ladder_document
        return ladder_document(self.analysis, self.manifest,
                               {"games": self.games, "seatings": self.seatings,
                                "verdict_games": self.verdict_games, "rollout": self.rollout,
                                "card_worth": self.card_note})

    def report(self, path: str | None = None, formats=("html", "md")) -> dict:
        """Write the report (HTML and/or Markdown, and the plot ladder.png) into `path`
        (default: FOLDER/report, where the CLI writes it); returns {'html': file, 'md': file,
        'png': file} of what was written."""
        from reports.ladder import write_ladder
        path = path or os.path.join(self.path, "report")
        with folder_lock.scope():
            folder_lock.keep(path)
            return write_ladder(self.document(), path, formats)


@folder_lock.scoped
def ladder(game: str, players: int | None = None, games: int = DEFAULT_GAMES, seed: int = 1,
           set=None, out: str | None = None, *, budgets=DEFAULT_BUDGETS,
           rollout: str | None = None,
           reference: str | None = None, verdict_games: int | None = None, components=None,
           workers=None, overwrite: bool = False, progress: bool = False,
           echo=None, assign=None, card_states: int = DEFAULT_CARD_STATES) -> LadderResult:
    """The skill ladder: the game's built-ins (random, greedy, planner and its default
    strategy, those it has) and the game's mcts as shipped (its own defaults, strategies/
    search.py) at each of `budgets` (iterations per decision, a list or '50,200,800'; default:
    the shipped iterations only, so the level is `mcts` exactly) with `rollout` (default: the
    shipped rollout policy), each level in one seat against `reference` (default planner,
    else the default strategy) in the others, seats rotated, the same deals for every level;
    `games` per level (rounded up to whole rotations). Then `verdict_games` (default
    `games`, 0 skips them) with the default strategy in every seat and with the strongest
    level in every seat: which of the report's seat verdicts hold; and each card's advantage
    by counterfactual play (`balance cards`' estimand: `verdict_games` games scanned, at most
    `card_states` sampled decisions per card, 0 skips it) with the default strategy and with
    the strongest built-in level (counterfactual play needs built-in players): which card
    verdicts hold. out=None: a temporary folder.
    `assign`: choices assigned at random in every run of the ladder (sim/assign.py)."""
    from analysis.ladder import analyse_ladder, mcts_level
    from reports.ladder import ladder_verdict_lines, strongest_line
    from sim import designer
    from sim import run_folder as rf
    from sim.registry import get_game
    from sim.rotation import whole_rotations
    from sim.runner import read_logs

    say = echo_to(echo)
    spec = get_game(game)
    set_ = overrides(set)
    verdict_games = games if verdict_games is None else verdict_games
    n_players, builtin, reference, shipped, budgets, assigned = _checked_settings(
        spec, players, games, seed, components, workers, verdict_games, card_states, rollout,
        reference, budgets, assign)
    rollout = rollout or shipped["rollout"]
    levels = builtin + [mcts_level(b) for b in budgets]
    comp = spec.load_components(components, set_)
    text = variants_text(budgets, {**shipped, "rollout": rollout})
    root, temporary = result_root(out, spec, "ladder")
    vpath = os.path.join(root, VARIANTS_NAME)
    plan = _ladder_plan(spec, n_players, levels, reference, budgets, rollout, games,
                        verdict_games, seed, components, set_, text, assigned, card_states)
    claim_root(root, plan, overwrite)
    if not os.path.isfile(vpath):     # ours (its SHA-256 is in the plan; checked on a resume)
        with open(vpath, "w", encoding="utf-8") as fh:
            fh.write(text)
    configs = _level_configs(spec, comp, n_players, levels, reference, seed, vpath, root,
                             assigned)
    rot = len(configs[0]["prepared"].rotation)
    n_games = whole_rotations(games, configs[0]["prepared"])
    say(f"ladder: {spec.title}, {n_players} players: {', '.join(levels)}; each level against "
        f"{n_players - 1} x {reference}, {n_games:,} games in {rot} seatings (the same deals for "
        f"every level)")
    designer.run_configs(spec, configs, n_games, seed, root, workers=workers, progress=progress,
                         by="strategy",
                         chunk_size=_chunk(n_games, rot, _slowest(spec, configs)))
    cols = ["game", "seat", "strategy", "rank", "win"]
    by_level = {c["level"]: read_logs(c["dir"], columns=cols) for c in configs}
    res = analyse_ladder(spec.name, n_players, reference, levels, by_level)
    res.verdicts = ladder_verdict_lines(res)
    res.strongest = strongest = str(res.table.iloc[-1]["level"])
    res.verdicts.append(strongest_line(res, mcts_level(int(shipped["iterations"])) if
                                       rollout == shipped["rollout"] else None, spec.title))
    card_note = _verdict_runs(spec, comp, set_, components, n_players, res, builtin, root,
                              vpath, verdict_games, card_states, seed, workers, progress, say,
                              assigned)
    manifest = rf.load_manifest_file(configs[0]["dir"])[0] or {}
    designer.write_plan(root, {**plan, "result": {"games": n_games, "depth": res.depth,
                                                  "strongest": strongest}})
    return LadderResult(root, res, manifest, n_games, rot, verdict_games, rollout, budgets,
                        temporary, card_note)


def _ladder_plan(spec, n_players, levels, reference, budgets, rollout, games, verdict_games,
                 seed, components, set_, text, assigned, card_states) -> dict:
    """The result folder's plan: what a resume must match (sim/designer.py claim_root)."""
    from sim import run_folder as rf
    plan = {"kind": "ladder", "game": spec.name, "players": n_players, "levels": levels,
            "reference": reference, "budgets": budgets, "rollout": rollout,
            "games": games, "verdict_games": verdict_games, "seed": seed,
            "components": components, "overrides": list(set_),
            "ladder_variants": {"file": VARIANTS_NAME,
                                "sha256": rf.sha256_bytes(text.encode("utf-8"))}}
    if assigned:   # a plan without assignment stays as it was
        plan["assign"] = [f"{n}=random" for n in assigned]
    if card_states != DEFAULT_CARD_STATES:   # a plan of the default stays as it was
        plan["card_states"] = int(card_states)
    return plan


def _level_configs(spec, comp, n_players, levels, reference, seed, vpath, root,
                   assigned) -> list:
    """One configuration per level but the reference: the level in one seat, the reference
    in the others, seats rotated; each in its folder `point-NN`."""
    from sim import designer, rotation
    from sim.assign import with_assignment
    configs = []
    for name in levels:
        if name == reference:
            continue
        p = spec.prepare(comp, n_players, [name] + [reference] * (n_players - 1), seed, vpath)
        configs.append({"prepared": with_assignment(spec, rotation.rotated(p), assigned),
                        "level": name,
                        "dir": designer.sub_dir(root, "point", len(configs))})
    return configs


def _checked_settings(spec, players, games, seed, components, workers, verdict_games,
                      card_states, rollout, reference, budgets, assign):
    """(players, built-in levels, reference, the shipped mcts, budgets, assigned choices),
    every bad setting said at once: one ToolkitError with a line per problem."""
    from sim.assign import parse_assign
    problems = []
    n_players = None
    try:
        n_players = check_common(spec, players, games, seed, components, workers=workers)
    except ToolkitError as exc:
        problems.extend(exc.lines)
    if n_players is not None and n_players < 2:
        problems.append("ladder: --players must be at least 2 (a level is measured against an "
                        "opponent)")
    problems += limits.problems(
        lambda: limits.count(verdict_games, "--verdict-games", 0, limits.MAX_GAMES))
    problems += limits.problems(
        lambda: limits.count(card_states, "--card-states", 0, limits.MAX_GAMES))
    shipped, builtin = None, []
    try:
        builtin, reference = levels_of(spec, rollout, reference)
        shipped = shipped_mcts(spec)
    except ToolkitError as exc:
        problems.extend(exc.lines)
    if budgets is None and shipped is not None:   # mcts as shipped: one level
        budgets = [int(shipped["iterations"])]
    try:
        budgets = parse_budgets(budgets) if budgets is not None else []
    except ToolkitError as exc:
        problems.extend(exc.lines)
    assigned = []
    try:
        assigned = parse_assign(spec, assign)
    except ToolkitError as exc:
        problems.extend(exc.lines)
    if problems:
        raise ToolkitError(problems)
    return n_players, builtin, reference, shipped, budgets, assigned


def _verdict_runs(spec, comp, set_, components, n_players, res, builtin, root, vpath,
                  verdict_games, card_states, seed, workers, progress, say, assigned):
    """The ladder's verdict runs: `verdict_games` games with the default strategy in every
    seat and with the strongest level in every seat, and the cards' counterfactual advantage
    at both: res.verdict_table and res.verdicts say which of the report's verdicts hold.
    Returns the note saying what the card rows played (None: no card rows)."""
    from analysis.ladder import compare_verdicts
    from reports.build import analyse_run
    from reports.ladder import verdict_change_lines
    from sim import designer
    from sim.assign import with_assignment
    strongest = res.strongest
    base_name = spec.default_strategy_name()
    if verdict_games > 0 and strongest != base_name:
        vconf = [{"prepared": with_assignment(spec, spec.prepare(comp, n_players, [name], seed,
                                                                 vpath), assigned),
                  "dir": os.path.join(root, kind)}
                 for kind, name in (("verdict-base", base_name), ("verdict-top", strongest))]
        say(f"verdicts: {verdict_games:,} games with {base_name} in every seat, then with "
            f"{strongest} (the strongest level) in every seat")
        designer.run_configs(spec, vconf, verdict_games, seed, root, workers=workers,
                             progress=progress, by="seat",
                             chunk_size=_chunk(verdict_games, 1, _slowest(spec, vconf)))
        worth = _card_worth_levels(spec, comp, set_, components, n_players, res, builtin,
                                   base_name, verdict_games, card_states, seed, workers,
                                   progress, say, assigned)
        res.verdict_table = compare_verdicts(analyse_run(vconf[0]["dir"]),
                                             analyse_run(vconf[1]["dir"]), base_name, strongest,
                                             worth=worth)
        res.verdicts += verdict_change_lines(res.verdict_table)
        return (f"card verdicts: {verdict_games:,} games scanned per level, at most "
                f"{card_states:,} sampled decisions per card, by counterfactual play "
                f"with {worth[2]} and with {worth[3]} in every seat" if worth else None)
    if verdict_games > 0:
        res.notes.append(f"The strongest level is the game's default strategy ({base_name}): "
                         f"the report's verdicts are already those of the strongest level.")
    else:
        res.notes.append("Verdict runs skipped (--verdict-games 0).")
    return None


def _card_worth_levels(spec, comp, set_, components, n_players, res, builtin, base_name,
                       verdict_games, card_states, seed, workers, progress, say, assigned):
    """(card-worth rows with the default strategy, with the strongest built-in level, their
    names) for the ladder's card verdicts, or None with a note in res.notes saying why not."""
    from analysis.ladder import budget_of
    from sim.api.worth import measure_worth
    meta = getattr(spec, "report_metadata", lambda c: {})(comp) or {}
    cards = [c for c in meta.get("cards", []) if c.get("mask_column")]
    if not cards or card_states == 0 or spec.model() is None:
        if cards and card_states == 0:
            res.notes.append("Card verdicts skipped (--card-states 0).")
        return None
    if assigned:
        res.notes.append("Card verdicts not compared: with --assign a card assigned at random is "
                         "not a choice, so its advantage over the seat's alternative is not "
                         "defined.")
        return None
    rated = [lv for lv in res.table["level"] if budget_of(lv) is None and lv in builtin]
    top = rated[-1]      # the table is sorted by rating: the strongest built-in level last
    if top == base_name:
        res.notes.append(f"Card verdicts not compared: a card's verdict is its advantage by "
                         f"counterfactual play, which needs built-in players, and the default "
                         f"strategy ({base_name}) is already the strongest built-in level; "
                         f"`balance cards {spec.name} --strategies {base_name}` gives them.")
        return None
    if top != res.strongest:
        res.notes.append(f"Card verdicts compare {base_name} with {top}, the strongest built-in "
                         f"level (counterfactual play needs built-in players; the strongest "
                         f"level, {res.strongest}, is a search player).")

    def load(ov):
        return spec.load_components(components, tuple(set_) + tuple(ov))

    rows = []
    for name in (base_name, top):
        prepared = spec.prepare(comp, n_players, [name], seed)
        say(f"card verdicts: each card's advantage by counterfactual play with {name} in "
            f"every seat")
        rows.append(measure_worth(spec, prepared, cards, load, verdict_games, card_states, 1,
                                  (), seed, workers=workers, progress=progress,
                                  echo=say).rows)
    return rows[0], rows[1], base_name, top
