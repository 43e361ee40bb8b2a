"""Lowlands component file: the shipped default holds every count of the rules; a bad file
gives one clear line per problem."""
import pytest

from sim.game_api import ComponentError
from sim.games.lowlands import components as C


def test_default_file_has_every_count_of_the_rules():
    comp = C.load_components()
    d = comp.data
    assert len(d["tiles"]) == 46
    kinds = [t["kind"] for t in d["tiles"]]
    assert (kinds.count("facility"), kinds.count("action"), kinds.count("sheep"),
            kinds.count("storm")) == (16, 12, 12, 6)
    assert sorted(d["floods"]) == [1, 1, 2, 2, 3, 3, 4, 4, 4, 5, 5, 6]
    assert d["counts"]["wood"] + d["counts"]["clay"] + d["counts"]["stone"] == 66
    assert sum(n for n, _ in d["dike"]["layers"]) == 13
    assert len(d["dike"]["progress_tokens"]) == 5
    t = comp.tables[0]
    assert t.n_segments == 13 and t.n_layers * t.layer_width == 36


def test_default_file_says_it_is_a_reconstruction_and_labels_each_guess():
    text = C.default_components_text()
    assert "RECONSTRUCTION" in text
    for key in ("site_length", "track_length", "sheep = [", "players3", "fences = [", "farms = ["):
        line = next(i for i, l in enumerate(text.splitlines()) if key in l)
        window = "\n".join(text.splitlines()[max(0, line - 8):line + 1])
        assert "[reconstructed]" in window, key


@pytest.mark.parametrize("override, expected", [
    ("tiles[0].kind=\"castle\"", 'tiles[0] "Bush Clearing": kind: unknown kind \'castle\''),
    ("tiles[3].cost=[1, 2]", 'tiles[3] "Feeding Trough": cost must have at least 3 entries'),
    ("rules.hand_limit=-1", "rules.hand_limit must be >= 0"),
    ("rules.price_start=20", "rules.price_start: position 20 is off the 9-position price track"),
    ("dike.site_length=0", "dike.site_length must be >= 1"),
    ("rules.two_player_support=\"maybe\"", "rules.two_player_support must be one of"),
    ("farms[1].rows=[\". . .\", \". . . . . .\", \". . . . . .\", \". . . . . .\"]",
     'farms[1] "Farm B": rows: row 1'),
])
def test_bad_component_file_gives_one_clear_line_per_problem(override, expected):
    with pytest.raises(ComponentError) as exc:
        C.load_components(overrides=(override,))
    lines = exc.value.lines
    assert any(expected in line for line in lines), lines
    assert all(line.startswith(C.DEFAULT_PATH) for line in lines)


def test_two_problems_give_two_lines():
    with pytest.raises(ComponentError) as exc:
        C.load_components(overrides=("rules.hand_limit=-1", "dike.wrap_points=-3"))
    assert len(exc.value.lines) == 2


def test_tile_count_per_kind_checked_against_counts():
    with pytest.raises(ComponentError) as exc:
        C.load_components(overrides=("counts.storm_buildings=5",))
    assert any("storm" in line for line in exc.value.lines)
