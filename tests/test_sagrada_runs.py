"""Sagrada through the real SPEC, runner and command line: reproducibility, replay, overrides,
variants, the report metadata, and the strength order of the built-in players (95% Wilson
intervals excluding parity)."""
from __future__ import annotations

from sim.stats import wilson_interval
from scripts.cli import main
from sim import runner
from sim.games.sagrada import SPEC
from tests.spec_runs import SpecRuns, comp_fixture


comp = comp_fixture(SPEC)
RUNS = SpecRuns(SPEC)
prep, play = RUNS.prep, RUNS.play


def test_same_seed_same_logs_any_workers_and_chunks(comp, tmp_path):
    a = RUNS.same_logs_any_workers_and_chunks(comp, tmp_path, ["planner", "greedy", "random"], 120)
    assert a.groupby("game")["win"].sum().eq(1.0).all() and a["illegal"].sum() == 0


def test_replay_matches_the_logs(comp, tmp_path, capsys):
    p = prep(comp, ["planner", "random"], seed=5)
    play(p, tmp_path / "r", 10)
    df = runner.read_logs(str(tmp_path / "r"))
    lines = SPEC.replay(p, 4)
    assert lines[0].startswith("Sagrada, game 4")
    for seat in (0, 1):
        score = int(df[(df.game == 4) & (df.seat == seat)]["score"].iloc[0])
        assert any(ln.startswith(f"seat {seat + 1} (") and f"score {score} " in ln for ln in lines)
    assert sum("-- round" in ln for ln in lines) == 10


def test_cli_run_with_an_override(comp, tmp_path, capsys):
    rc = main(["run", "sagrada", "--players", "2", "--games", "50", "--strategies", "greedy",
               "--seed", "2", "--out", str(tmp_path / "c"), "--no-progress",
               "--set", "rules.rounds=5"])
    assert rc == 0
    df = runner.read_logs(str(tmp_path / "c"))
    assert (df["placed"] <= 10).all()   # 5 rounds: at most 10 dice each
    assert "Sagrada" in capsys.readouterr().out


def test_report_metadata_names_existing_columns(comp):
    meta, _ = RUNS.check_report_metadata(comp)
    assert [c["type"] for c in meta["cards"]] == ["window", "tool", "public", "private"]


def test_variant_parameters_reach_the_engine(comp, tmp_path):
    vfile = tmp_path / "v.toml"
    vfile.write_text('[variants.careless]\nbase = "planner"\nparams = { dead = 0.0, restricted = 0.0 }\n')
    p = prep(comp, ["careless", "planner"], seed=3, variants=str(vfile))
    play(p, tmp_path / "v", 400)
    df = runner.read_logs(str(tmp_path / "v"))
    empty = df.groupby("seat")["empty_cells"].mean()
    assert empty[0] > empty[1]       # not minding open spaces leaves more of them


def seat_swapped(comp, a, b, n, seed):
    """Win share of a against b over 2n 2-player games (a in seat 0 for n, seat 1 for n)."""
    from sim.games.sagrada.enums import pack_tables
    from tests.sagrada_helpers import play_records
    T = pack_tables(comp.tables)
    wins = 0.0
    for k, names in enumerate(([a, b], [b, a])):
        p = prep(comp, names, seed=seed)
        win = play_records(T, 2, seed + k, 0, n, p.strategy_ids, p.strategy_params)["win"]
        wins += win.reshape(n, 2)[:, names.index(a)].sum()
    return wins, 2 * n


def test_greedy_beats_random_and_planner_beats_greedy(comp):
    wins, n = seat_swapped(comp, "greedy", "random", 1000, 21)
    low, high = wilson_interval(wins, n)
    assert low > 0.5, f"greedy vs random: {wins / n:.3f} [{low:.3f}, {high:.3f}]"
    wins, n = seat_swapped(comp, "planner", "greedy", 2000, 23)
    low, high = wilson_interval(wins, n)
    assert low > 0.5, f"planner vs greedy: {wins / n:.3f} [{low:.3f}, {high:.3f}]"


def test_four_seats_strength_order(comp):
    """planner, greedy, greedy, random in all four seat rotations; parity is 1/4."""
    from sim.games.sagrada.enums import pack_tables
    from tests.sagrada_helpers import play_records
    T = pack_tables(comp.tables)
    base = ["planner", "greedy", "greedy", "random"]
    wins = {"planner": 0.0, "greedy": 0.0, "random": 0.0}
    seats = dict.fromkeys(wins, 0)
    n = 600
    for r in range(4):
        names = base[r:] + base[:r]
        p = prep(comp, names, seed=31)
        win = play_records(T, 4, 31 + r, 0, n, p.strategy_ids, p.strategy_params)["win"]
        w = win.reshape(n, 4)
        for s, name in enumerate(names):
            wins[name] += w[:, s].sum()
            seats[name] += n
    iv = {k: wilson_interval(wins[k], seats[k]) for k in wins}
    msg = ", ".join(f"{k} {wins[k] / seats[k]:.3f} [{iv[k][0]:.3f}, {iv[k][1]:.3f}]" for k in wins)
    assert iv["planner"][0] > iv["greedy"][1] and iv["greedy"][0] > iv["random"][1], msg
    assert iv["planner"][0] > 0.25 and iv["random"][1] < 0.25, msg


def test_replay_shows_turns_rerolled_values_and_the_flux_remover_dice(comp):
    """`balance replay`: a marker before every turn (as many as the game's turns), each die's
    new value after Glazing Hammer, and for Flux Remover the die returned to the bag, the die
    drawn, the value chosen and where that die went."""
    import re
    from sim.games.sagrada.enums import pack_tables
    from tests.sagrada_helpers import play_records
    T = pack_tables(comp.tables)
    p = prep(comp, ["random"] * 4, seed=5)
    colour = "(red|yellow|green|blue|purple)"
    seen_hammer = seen_flux = 0
    for game in range(80):
        lines = SPEC.replay(p, game)
        out = play_records(T, 4, 5, game, 1, p.strategy_ids, p.strategy_params)
        turns = [ln for ln in lines if re.fullmatch(r"  > seat \d \(random\), (first|second) turn", ln)]
        assert len(turns) == out[0]["length"]
        for i, ln in enumerate(lines):
            m = re.fullmatch(r"    re-rolls the (\d+) dice of the pool:", ln)
            if m:
                seen_hammer += 1
                k = int(m.group(1))
                assert all(re.fullmatch(rf"    {colour} die: [1-6] -> [1-6]", x)
                           for x in lines[i + 1:i + 1 + k]), lines[i:i + 1 + k]
            m = re.fullmatch(rf"    returns {colour} [1-6] to the bag; draws a {colour} die", ln)
            if m:
                seen_flux += 1
                drawn = m.group(2)
                m2 = re.fullmatch(rf"    sets the drawn {drawn} die to ([1-6])", lines[i + 1])
                assert m2, lines[i:i + 3]
                v = m2.group(1)
                assert (lines[i + 2].startswith(f"    places {drawn} {v} on ")
                        or lines[i + 2] == f"    {drawn} {v} cannot be placed: back to the pool")
    assert seen_hammer >= 3 and seen_flux >= 3, (seen_hammer, seen_flux)
