"""Grand Surfers (Dongmin River, print-and-play, version 5): a dexterity race, 2-4 players,
simulated with a model of the flick (aim + noise whose spread is each seat's skill).

Where each rule lives: docs/games/grand-surfers.md.
"""
from __future__ import annotations

from sim.compiled_game import CompiledGameSpec
from sim.game_api import Components, Measured, SearchDefault
from sim.game_contract import GameContract


class SurfersContract(GameContract):
    """Where each piece of the game lives (sim/game_contract.py; checked at registration).
    Each engine piece is imported when the game is first played: a listing imports no numpy."""

    def model(self):
        from sim.games.surfers import model
        return model

    def components(self):
        from sim.games.surfers import components
        return components

    def tables(self):
        from sim.games.surfers.enums import pack_tables
        return pack_tables

    def new_state(self):
        from sim.games.surfers.nb import new_state
        return new_state

    def trace(self):
        from sim.games.surfers.trace import format_trace
        return format_trace

    def positions(self):
        from sim.games.surfers import positions
        return positions

    def snapshot(self):
        from sim.games.surfers import snapshot
        return snapshot

    # the players, by module name (the engine does not import strategies/)
    strategies = "strategies.surfers"
    catalog = "strategies.surfers_catalog"
    # data
    test_vary = "rules.duo_points=2..3"
    rule_tests = ("tests/test_surfers_rules.py",)
    docs_page = "docs/games/grand-surfers.md"


class SurfersSpec(CompiledGameSpec):
    contract = SurfersContract()
    name = "surfers"
    aliases = ("grand-surfers", "grand_surfers")
    title = "Grand Surfers"
    min_players = 2
    max_players = 4
    default_strategy = "racer"      # gains the most lines each turn: the plain baseline player
    # the ladder: rider, the strongest built-in (56.8% against racer at 2 players), is its top
    skill_levels = ("random", "racer", "rider")
    # mcts as shipped: 400 iterations, random rollouts, against rider, the strongest built-in
    # (docs/search-players.md); flatmc: 16 rider rollouts on each of rider's 3 first choices,
    # on common worlds
    search_defaults = {
        "mcts": SearchDefault(
            params={"iterations": 400, "rollout": "random"},
            measured=(
                Measured(players=2, against="rider", games=200, wins=132,
                         seconds_per_game=0.81, date="2026-11-30",
                         where="shared machine under load, the code of issue 14; the time per "
                               "game re-measured on 2026-12-01 over 8 games, load average 11",
                         command="balance run surfers --players 2 --strategies mcts,rider "
                         "--rotate-seats --games 200 --seed 1 --workers 1"),
                Measured(players=4, against="rider", games=200, wins=87,
                         seconds_per_game=0.75, date="2026-11-30",
                         where="shared machine under load, the code of issue 14; the time per "
                               "game re-measured on 2026-12-01 over 8 games, load average 11",
                         command="balance run surfers --players 4 --strategies "
                         "mcts,rider,rider,rider --rotate-seats --games 200 --seed 1 "
                         "--workers 1"))),
        "flatmc": SearchDefault(
            params={"rollouts": 16, "rollout": "rider", "candidates": 3},
            measured=(
                Measured(players=2, against="rider", games=300, wins=213,
                         seconds_per_game=0.16, date="2026-12-01",
                         where="shared 2-core machine, load average 9-12",
                         command="balance run surfers --players 2 --strategies flatmc,rider "
                         "--rotate-seats --games 300 --seed 1 --workers 1"),
                Measured(players=4, against="rider", games=100, wins=52,
                         seconds_per_game=0.42, date="2026-12-01",
                         where="shared 2-core machine, load average 12-13",
                         command="balance run surfers --players 4 --strategies "
                         "flatmc,rider,rider,rider --rotate-seats --games 100 --seed 1 "
                         "--workers 1"))),
    }
    description = ("Flick a die onto the wave sheet and race two surfers to the beach: push, "
                   "boost, draw channels, outrun the Great Wave (skill: [flick] spread per seat)")

    @property
    def end_reason_names(self) -> tuple:
        """The enums' END_REASON_NAMES, imported on first use (numpy)."""
        from sim.games.surfers.enums import END_REASON_NAMES
        return END_REASON_NAMES

    def assignable(self) -> dict:
        """No choice to assign: the players' decisions (aim, act, move, boost) are moves of
        play, not components."""
        return {}

    def report_metadata(self, components: Components | None = None) -> dict:
        """What the balance report can show through its card sections (analysis/metadata.py):
        each "card" is a yes/no fact about a seat in a game, and the report compares the win
        share of the seats where it holds against the others:
          actions used (value 1 each), finish cells reached (value: the cell's score),
          skill against the table (steadier / as steady / shakier than the other seats' mean
          spread: how much skill decides the race), the fastest marker (its points; its win
          share against not holding it is the marker's value), surfers lost (to the wave, to
          the tide, none lost: how often the wave eliminates surfers)."""
        from sim.games.surfers.enums import ACTION_NAMES, END_REASON_NAMES
        comp = components or self.load_components()
        t = comp.tables[0]
        names = comp.card_names
        return {
            "cards": [
                {"type": "action", "label": "Actions used", "names": list(ACTION_NAMES),
                 "values": [1] * len(ACTION_NAMES), "mask_column": "actions_mask",
                 "unit": ""},   # used or not: the value means nothing
                {"type": "finish", "label": "Finish cells reached", "names": list(names["finish"]),
                 "values": [int(v) for v in t.finish_score[:t.n_finish]], "mask_column": "finish_mask",
                 "unit": "points", "value_path": "finish[{i}].score"},
                {"type": "skill", "label": "Skill against the table",
                 "names": ["steadier than the others", "as steady as the others",
                           "shakier than the others"],
                 "values": [1, 0, -1], "mask_column": "edge_mask",
                 "kind": "outcome", "unit": ""},   # not a card: a fact about the seat's game
                {"type": "fastest", "label": "Fastest marker", "names": ["fastest marker"],
                 "values": [int(t.fastest_points)], "mask_column": "fastest_mask", "unit": "points"},
                {"type": "lost", "label": "Surfers lost",
                 "names": ["lost a surfer to the wave", "lost a surfer to the tide",
                           "lost no surfer"],
                 "values": [0, 0, 0], "mask_column": "lost_mask",
                 "kind": "outcome", "unit": ""},
            ],
            "score_components": ["pts_fastest", "pts_duo", "pts_cells"],
            "length_column": "length", "length_unit": "turns",
            "end_reason_names": list(END_REASON_NAMES),
            # seat 1 always flicks first (in the rulebook whoever folded the wave sheet
            # starts; the model seats that player first): the seat number is the start position
            "start": {"column": None, "how": "seat 1", "leads": False,
                      "note": "seat 1 always starts (the rulebook: whoever folded the wave sheet "
                              "begins), so the seat number is the start position"},
            # the questions, answered by the generic report (analysis/breakdowns.py)
            "breakdowns": [
                {"column": "spread", "label": "Flick spread",
                 "question": "How much does skill decide the race? Seats by their own flick "
                             "spread (0 = perfect aim; set per seat with flick.spread)."},
                {"column": "out_wave", "label": "Surfers lost to the wave", "unit": "count",
                 "grouping": "after",
                 "question": "How often does the wave eliminate surfers, and what does it cost?"},
            ],
            "per_strategy": [
                {"column": "pushes", "label": "Pushes"},
                {"column": "boosts", "label": "Boosts"},
                {"column": "rides", "label": "Channel rides"},
                {"column": "channels_up", "label": "Channels drawn up"},
                {"column": "reflicks", "label": "Re-flicks"},
                {"column": "progress", "label": "Progress (lines gained)"},
            ],
        }

    # `balance calibrate surfers` (scripts/cli_calibrate.py): hit rate by spread and distance
    def calibration_rows(self, components: Components) -> int:
        """Rows of the wave sheet (the distances a measured accuracy may name)."""
        return int(components.tables[0].wave_rows)

    def calibration_max_spread(self) -> float:
        """The largest flick spread `--spreads` may name."""
        from sim.games.surfers.calibrate import MAX_SPREAD
        return float(MAX_SPREAD)

    def calibrate(self, components: Components, spreads=(), measured=(), check: int = 0) -> list:
        from sim.games.surfers.calibrate import DEFAULT_SPREADS, report_lines
        return report_lines(components, tuple(spreads) or DEFAULT_SPREADS, measured, check)


SPEC = SurfersSpec()
