"""What every game gives the rest of the toolkit.

The runner, the command line and the analysis know games only through this interface; a new
game is a subpackage of `sim.games` exposing `SPEC`, an instance of a `GameSpec` subclass,
and one line in `sim.registry`.

Flow of a run:
    spec.load_components(path)             -> Components (validated; ComponentError otherwise)
    spec.prepare(components, n_players, strategy_names, seed)
                                           -> Prepared (picklable; shipped to every worker)
    spec.play_chunk(prepared, first, n)    -> dict of equal-length numpy columns, one row per
                                              (game, seat), games first..first+n-1 in order,
                                              seats 0..players-1 within a game
    spec.replay(prepared, game_index)      -> list of text lines, a turn-by-turn trace
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any


class ToolkitError(Exception):
    """An error a user can fix: printed as one line (or one line per problem), exit code 2."""

    def __init__(self, message: str | list[str]):
        self.lines = [message] if isinstance(message, str) else list(message)
        super().__init__("\n".join(self.lines))


class ComponentError(ToolkitError):
    """A component file that does not validate: one line per problem, each naming the file,
    the card or field, and what is wrong."""


@dataclass
class Components:
    """A validated component file."""
    game: str
    path: str               # where it came from ("<default>" for the shipped file)
    text: str               # the exact text loaded (hashed into the manifest)
    sha256: str
    data: dict              # the parsed, validated content (plain python)
    tables: Any             # the game's tables for the compiled rules: a one-element
                            # TABLES_DTYPE record array, built from the validated file
    card_names: dict = field(default_factory=dict)  # card type -> list of names, by id
    overrides: list = field(default_factory=list)   # `--set PATH=VALUE` applied (in the hash too)
    overrides_resolved: list = field(default_factory=list)  # the same, card names -> indices


@dataclass
class Prepared:
    """Everything a worker needs to play games of a run; must pickle."""
    game: str
    n_players: int
    seed: int
    components: Components
    strategy_names: list          # per seat, as shown (e.g. "greedy", "cautious", "bot" for my.py:bot)
    strategy_ids: Any             # int64[n_players]; built-ins >= 0, user strategies < 0, search
                                  # players >= sim.harness.SEARCH_BASE (dispatch: sim/harness.py)
    strategy_params: Any          # float64[n_players, n_params]
    strategy_info: list           # per seat: {"name", "base", "params": {name: value}, "source"}
    user_strategies: list = field(default_factory=list)  # [(path, function name)] for ids -1, -2...
    variant: str = "standard"
    # seat rotation (sim/rotation.py): the seatings played in turn, each a list giving for
    # every seat the index of the strategy (in the lists above) that sits there; None: the
    # strategies keep their seats
    rotation: list | None = None
    # choices assigned at random instead of made by the players (sim/assign.py): names from
    # the game's `assignable()`, sorted; empty: the players make every choice
    assigned: list = field(default_factory=list)


@dataclass(frozen=True)
class Measured:
    """One measurement behind a game's search defaults: the search player in one seat against
    `against` in every other seat, seats rotated (each deal under every seating). `wins` may
    be fractional (shared wins split). `seconds_per_game` is the play time of one game on one
    worker on the machine and date stated in `where`; `command` reproduces it."""
    players: int
    against: str
    games: int
    wins: float
    seconds_per_game: float
    date: str
    where: str = ""
    command: str = ""


@dataclass(frozen=True)
class SearchDefault:
    """A game's default parameters for one search player (`mcts` or `flatmc`,
    strategies/search.py): `params` by name (the rollout policy by the built-in's name), and
    the measurements that chose them (`measured`, each one a `Measured`). The generic
    defaults stay reachable as `<player>-generic`."""
    params: dict
    measured: tuple = ()
    note: str = ""


class GameSpec(ABC):
    name: str = ""            # command-line name, e.g. "sunset"
    aliases: tuple = ()       # other accepted names
    title: str = ""           # e.g. "Sunset Over Water"
    min_players: int = 1
    max_players: int = 4
    description: str = ""
    # the built-in strategy every seat plays when a command is given no --strategies
    # (run, sweep, tune; compare defaults to every built-in); each game declares its own
    default_strategy: str = ""
    # the game's own defaults of the search players, {"mcts": SearchDefault, "flatmc": ...}
    # (strategies/search.py); a player the game does not name keeps the generic defaults
    search_defaults: dict = {}
    # the built-in players of the skill ladder, weakest first (`balance ladder`); the last is
    # the ladder's default reference. Empty: random, greedy and planner, those the game has
    skill_levels: tuple = ()

    # -- components -------------------------------------------------------------------
    @abstractmethod
    def default_components_text(self) -> str:
        ...

    @abstractmethod
    def load_components(self, path: str | None = None, overrides: tuple = ()) -> Components:
        ...

    # -- strategies -------------------------------------------------------------------
    @abstractmethod
    def strategy_catalog(self) -> list:
        """Built-in strategies: list of dicts {name, id, description, params: [(name, default, help)]}."""
        ...

    @abstractmethod
    def prepare(self, components: Components, n_players: int, strategy_names: list,
                seed: int, variants_file: str | None = None) -> Prepared:
        ...

    # -- playing ----------------------------------------------------------------------
    @abstractmethod
    def columns(self) -> list:
        """[(column name, description)] of the rows play_chunk returns."""
        ...

    @abstractmethod
    def play_chunk(self, prepared: Prepared, first_game: int, n_games: int) -> dict:
        ...

    @abstractmethod
    def replay(self, prepared: Prepared, game_index: int) -> list:
        ...

    def variant_for(self, n_players: int) -> str:
        return "standard"

    def assignable(self) -> dict:
        """The choices a run may assign at random instead of letting the players make them
        (`--assign NAME=random`, sim/assign.py): {name: {"decision": the DEC_* code the
        harness then draws uniformly among the legal options, "what": what is assigned, in
        words, "columns": the log columns that record the choice's outcome}}. A game whose
        players choose no component declares none."""
        return {}

    def default_strategy_name(self) -> str:
        """The game's declared default strategy; a game that declares none plays its first
        built-in that is not `random`, else its first."""
        if self.default_strategy:
            return self.default_strategy
        names = [c["name"] for c in self.strategy_catalog()]
        if not names:
            raise ToolkitError(f"{self.name}: the game has no built-in strategy; name one with "
                               f"--strategies")
        return next((n for n in names if n != "random"), names[0])

    def estimated_seconds_per_game(self, prepared: Prepared) -> float | None:
        """A rough cost of one game of `prepared` on one worker when its players are slow
        (search players), else None: the runner then cuts the run into small chunks
        (sim/runner.py default_chunk_size). A function of the configuration only."""
        return None

    def model(self):
        """The game's forward model module (docs/adding-a-game.md), or None for a game that
        is not on the game template (the conformance test skips it)."""
        return None

    def compile_note(self, prepared: Prepared) -> str | None:
        """A line to show before the first games when playing `prepared` will compile code
        first (a long silent wait otherwise); None when the machine code is ready."""
        return None
