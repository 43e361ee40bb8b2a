"""A card's worth by counterfactual play (issue 19, items 3 and 4), on the planted toy card
game (tests/toycards.py): Hidden Gem (6 points) is never taken by the shipped `fan` player
but wins when taken; Fool's Gold (3 points, like the plain cards) is the fan's favourite and
gives no advantage."""

import numpy as np
import pytest

from analysis.card_worth import select_states, suggested_value
from scripts.cli import main
from sim import counterfactual as cf
from sim import registry
from tests.toycards import SPEC as CARDS

GEM, FOOL = 4, 5


@pytest.fixture
def cards_registry(monkeypatch):
    monkeypatch.setattr(registry, "GAMES", {})
    monkeypatch.setattr(registry, "_ALIASES", {})
    monkeypatch.setattr(registry, "_load_errors", {})
    monkeypatch.setattr(registry, "_loaded", True)
    registry._register(CARDS)
    return CARDS


@pytest.fixture(scope="module")
def worth():
    from sim.api.worth import card_worth
    reg = pytest.MonkeyPatch()
    for name, value in (("GAMES", {}), ("_ALIASES", {}), ("_load_errors", {}), ("_loaded", True)):
        reg.setattr(registry, name, value)
    registry._register(CARDS)
    try:
        yield card_worth("toycards", players=4, strategies="fan", scan_games=300, states=250,
                         playons=2, offsets=(-3, 3), workers=1)
    finally:
        reg.undo()


def _row(r, card):
    return next(x for x in r.rows if x["card"] == card)


def test_a_card_never_taken_that_wins_when_taken_is_not_chosen_with_a_positive_advantage(worth):
    gem = _row(worth, GEM)
    assert gem["options"] > 100 and gem["chosen_rate"] == 0.0
    assert gem["win"][1] > 0 and gem["score"][0] == pytest.approx(3.0)   # 6 points against 3
    assert gem["verdict"] == "not-chosen-helps"
    line = next(v for v in worth.verdicts if "Hidden Gem (card, 6 points)" in v)
    assert "is not chosen by these players" in line and "the players miss it" in line
    # its value is played at 3, 6 and 9 on the same states: no advantage at the plain's 3
    assert 2.0 <= gem["parity"] <= 4.0


def test_a_card_the_players_love_without_advantage_is_reported_as_such(worth):
    fool = _row(worth, FOOL)
    assert fool["chosen_rate"] > 0.9 and fool["states"] > 100
    assert fool["verdict"] == "no-advantage"
    assert fool["win"][0] == 0.0 and fool["score"][0] == 0.0
    line = next(v for v in worth.verdicts if "Fool's Gold (card, 3 points)" in v)
    assert "no advantage beyond the interval" in line
    assert "A description of play: chosen in" in line
    assert fool["suggested"] is None


def test_cards_never_suggests_raising_a_card_whose_advantage_is_already_positive(worth):
    helping = [r for r in worth.rows if r["win"][1] > 0]
    assert helping                      # the gem, at least
    for r in helping:
        assert r["suggested"] is None or r["suggested"] < r["value"], r
    assert _row(worth, GEM)["suggested"] < 6
    # whatever the fitted line says: a parity value above a helping card's value is refused
    row = {"win": (0.1, 0.05, 0.15), "value": 4.0, "parity": 7.0}
    assert suggested_value(row) is None
    assert suggested_value({**row, "parity": 2.5}) == 2.5
    assert suggested_value({"win": (-0.1, -0.15, -0.05), "value": 4.0, "parity": 3.0}) is None
    assert suggested_value({"win": (0.01, -0.02, 0.04), "value": 4.0, "parity": 3.0}) is None


def test_the_worth_does_not_depend_on_the_chunking():
    comp = CARDS.load_components()
    prep = CARDS.prepare(comp, 3, ["fan", "greedy", "random"], 5)
    a = cf.scan(CARDS, prep, ["cards_mask"], 0, 40, workers=1, chunk=7)
    b = cf.scan(CARDS, prep, ["cards_mask"], 0, 40, workers=1, chunk=40)
    assert np.array_equal(a, b) and len(a) > 50
    states = select_states(a, 10, 5)
    assert len(np.unique(states[:, [0, 3, 4]], axis=0)) == len(states)   # one per game, card
    configs = np.zeros((len(states), 1), np.int64)
    o1, v1 = cf.play_states(CARDS, prep, [comp], states, configs, ["cards_mask"], 2,
                            workers=1, chunk=3)
    o2, v2 = cf.play_states(CARDS, prep, [comp], states, configs, ["cards_mask"], 2,
                            workers=1, chunk=500)
    assert np.array_equal(o1, o2, equal_nan=True) and np.array_equal(v1, v2) and (v1 == 1).all()


def test_the_command_line_prints_the_verdicts(cards_registry, capsys, tmp_path):
    code = main(["cards", "toycards", "--counterfactual", "--games", "60", "--states", "40",
                 "--offsets", "none", "--workers", "1", "--no-progress",
                 "--out", str(tmp_path / "w")])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "Hidden Gem (card, 6 points) is not chosen by these players" in out
    # the command prints the verdicts of the library call with the same arguments
    from sim.api import card_worth
    r = card_worth("toycards", scan_games=60, states=40, offsets="none", workers=1)
    assert r.verdicts and all(line in out for line in r.verdicts)
    assert (tmp_path / "w" / "report" / "report.md").is_file()
    assert main(["cards", "toycards", "--takers", "--states", "40"]) == 2
    assert "not with --takers" in capsys.readouterr().err


def test_plain_cards_is_the_counterfactual_advantage_and_never_suggests_raising_a_helping_card(
        cards_registry, capsys, tmp_path):
    """`balance cards` without a flag: the verdicts are the counterfactual advantage (the
    takers' share only as a description of play), it says its sample size, and it never
    suggests a higher value for a card whose advantage is above 0 beyond its interval."""
    import json
    code = main(["cards", "toycards", "--strategies", "fan", "--games", "200", "--states", "150",
                 "--offsets=-3,3", "--workers", "1", "--no-progress",
                 "--out", str(tmp_path / "plain")])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "Hidden Gem (card, 6 points) is not chosen by these players" in out and \
        "miss it" in out
    assert "sample: 200 games scanned, at most 150 sampled decisions per card" in out
    plan = json.loads((tmp_path / "plain" / "designer.json").read_text())
    assert plan["kind"] == "worth"
    rows = plan["result"]["cards"]
    helping = [r for r in rows if r["win"][1] > 0]
    assert any(r["name"] == "Hidden Gem" for r in helping)
    for r in helping:
        assert r["suggested"] is None or r["suggested"] < r["value"], r
    gem = next(r for r in rows if r["name"] == "Hidden Gem")
    assert gem["suggested"] is not None and gem["suggested"] < 6      # parity near the plain 3
    # the defaults are said too, and an assigned choice is refused with its reason
    assert main(["cards", "toycards", "--assign", "card=random", "--games", "20"]) == 2
    assert "not a choice" in capsys.readouterr().err


def test_a_card_with_few_states_gets_more_playons_up_to_a_cap():
    from analysis.card_worth import playons_for
    k = playons_for({"often": 1000, "rare": 150, "once": 1}, 600, 4, 32)
    assert k == {"often": 4, "rare": 16, "once": 32}


def test_parity_is_where_the_paired_advantage_line_crosses_zero():
    from analysis.card_worth import parity
    rng = np.random.default_rng(3)
    values = np.array([4.0, 2.0, 6.0])
    noise = rng.normal(0, 0.3, (400, 1))           # a state's own worth, shared by its values
    diffs = 0.05 * (values[None, :] - 3.0) + noise
    p = parity(values, diffs, seed=1, confidence=0.95)
    expected = 3.0 - noise.mean() / 0.05          # the states' mean worth shifts the line
    assert p["parity"] == pytest.approx(expected, abs=1e-9)
    assert p["parity_low"] < expected < p["parity_high"]
    assert p["slope"][0] == pytest.approx(0.05)      # paired: each state's own worth cancels


def test_tune_card_parity_finds_where_the_advantage_is_zero_on_the_same_states(
        cards_registry, tmp_path):
    """`tune --objective card-parity` measures the card's counterfactual advantage at every
    value on the same sampled states: Hidden Gem (6 points, the plain cards 3) reaches parity
    at about 3, and a range above its value is never suggested (it already helps)."""
    import json
    import os
    from sim.api import tune
    r = tune("toycards", ["cards[4].points=2..6"], objective="card-parity", players=4,
             strategies="fan", games=200, workers=1, out=str(tmp_path / "t"))
    adv = {t["label"]: t["advantage"] for t in r.trials_list}
    assert adv["cards[4].points=6"][1] > 0                  # the current value helps
    assert r.best["label"] == "cards[4].points=3"
    lo, hi = adv["cards[4].points=3"][1:]
    assert lo <= 0 <= hi
    assert r.suggested and "cards[4].points=3" in open(r.suggested).read()
    plan = json.loads((tmp_path / "t" / "designer.json").read_text())
    assert 2.5 <= plan["result"]["parity"] <= 3.5
    assert "sampled decision states" in r.trials_list[0]["unit"]
    up = tune("toycards", ["cards[4].points=7..9"], objective="card-parity", players=4,
              strategies="fan", games=200, workers=1, out=str(tmp_path / "u"))
    assert up.suggested is None and up.best["baseline"]
    assert not os.path.exists(tmp_path / "u" / "suggested_components.toml")
    assert "No value in the range brings its advantage closer to 0" in up.decision


def test_the_report_says_a_never_taken_card_would_help_the_players_miss_it(cards_registry,
                                                                           tmp_path):
    """The run report's card check is the counterfactual advantage (issue 19): the fan never
    takes Hidden Gem; the report's flag says it is not chosen by these players and would
    help (the players miss it), from states sampled in the run's own games."""
    from reports.build import analyse_run
    from reports.findings import flag_text
    from sim.api import run
    r = run("toycards", players=4, strategies="fan", games=300, workers=1,
            out=str(tmp_path / "run"))
    a = r.analysis(card_check=300)      # the facade plays the check (sim/api/card_check.py)
    gem = next(f for f in a.flags if f.kind == "card" and f.subject.startswith("Hidden Gem ("))
    assert gem.verdict == "never taken"
    text = flag_text(gem)
    assert "by counterfactual play it is not chosen by these players" in text
    assert "it would help: the players miss it" in text
    assert gem.get("response")["win"][1] > 0
    # without the check the same flag only says it was never taken
    plain = analyse_run(r.path)
    gem0 = next(f for f in plain.flags if f.kind == "card" and f.subject.startswith("Hidden Gem ("))
    assert flag_text(gem0).endswith("was never taken in 300 games")


def test_the_ladder_compares_card_verdicts_by_counterfactual_play(cards_registry, tmp_path):
    """Issue 19, item 3: the ladder's card verdicts are each card's advantage by
    counterfactual play at two built-in levels (the default `fan` and the strongest built-in),
    never the takers' lead; Hidden Gem, which fan never takes, helps at both levels."""
    from sim import ladder
    r = ladder("toycards", players=2, games=40, budgets=[4], verdict_games=200,
               card_states=150, seed=5, workers=1, out=str(tmp_path / "lad"))
    rated = [lv for lv in r.table["level"] if not str(lv).startswith("mcts")]
    top = rated[-1]
    assert top != "fan"       # greedy takes the 6-point gem: stronger than the fan
    vt = r.verdict_table.set_index("verdict")
    gem = vt.loc["Hidden Gem (card)"]
    assert (gem["level_base"], gem["level_top"]) == ("fan", top)
    assert gem["verdict_base"] == "not chosen, helps"
    assert gem["effect_base_low"] > 0 and gem["effect_top_low"] > 0
    seats = [v for v in vt.index if "fairness" in v]
    assert seats and set(vt.index) - set(seats) <= {
        f"{n} (card)" for n in ("Plain A", "Plain B", "Plain C", "Plain D", "Hidden Gem",
                                "Fool's Gold")}
    assert r.card_note and "counterfactual play with fan and with " + top in r.card_note
    md = open(r.report()["md"]).read()
    assert r.card_note in md and "Hidden Gem (card)" in md
