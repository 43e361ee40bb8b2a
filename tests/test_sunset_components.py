"""Sunset Over Water component file: the shipped default and the loader's error messages."""
from __future__ import annotations

import hashlib
import re

import numpy as np
import pytest

from sim.game_api import ComponentError, Components
from sim.games.sunset import enums as E
from sim.games.sunset.components import (BOX_COMMISSIONS, BOX_DAILY_GOALS, BOX_INSPIRATION,
                                         BOX_LANDSCAPES, BOX_PLANNING_PER_COLOUR,
                                         BOX_RANGER_STATIONS, DEFAULT_PATH,
                                         default_components_text, load_components)
from tests.sunset_helpers import card_tables

FEATURES = ["mountain", "flower", "waterfall", "forest", "lake"]


@pytest.fixture(scope="module")
def default() -> Components:
    return load_components()


def write(tmp_path, text, name="my.toml"):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return str(p)


def edit(old: str, new: str, text: str | None = None) -> str:
    text = default_components_text() if text is None else text
    assert text.count(old) == 1, f"edit target not unique: {old!r}"
    return text.replace(old, new)


def errors_of(tmp_path, text) -> tuple[str, list]:
    path = write(tmp_path, text)
    with pytest.raises(ComponentError) as exc:
        load_components(path)
    lines = exc.value.lines
    assert lines, "a ComponentError must carry at least one line"
    for line in lines:
        assert "\n" not in line
        assert line.startswith(path + ": "), line
    return path, lines


# --- the shipped default -----------------------------------------------------------------
def test_default_loads_with_box_counts(default):
    t = card_tables(default.tables)
    assert default.game == "sunset"
    assert default.path == "<default>"
    assert default.text == default_components_text()
    assert default.sha256 == hashlib.sha256(default.text.encode("utf-8")).hexdigest()
    assert t.landscape_features.shape == (BOX_LANDSCAPES, E.N_FEATURES) == (60, 5)
    assert t.commission_frames.shape == (BOX_COMMISSIONS, E.MAX_FRAMES) == (30, 4)
    assert len(t.goal_kind) == BOX_DAILY_GOALS == 7
    assert len(t.plan_wake) == BOX_PLANNING_PER_COLOUR == E.N_PLAN == 8
    assert len(t.ranger_cells) == BOX_RANGER_STATIONS == 4
    assert len(t.inspiration_feature) == BOX_INSPIRATION == 5
    assert default.data["counts"] == {"landscapes": 60, "commissions": 30, "goals": 7,
                                      "planning": 8, "ranger_cells": 4, "inspiration": 5}


def test_tables_are_one_record_padded_past_the_cards(default):
    """The loader builds the kernels' record itself: one TABLES_DTYPE element, every card
    array 0 past the file's cards (commission frames: NO_FRAME)."""
    rec = default.tables
    assert rec.shape == (1,) and rec.dtype.descr == E.TABLES_DTYPE.descr
    assert E.pack_tables(rec) is rec
    r = rec[0]
    counts = {"landscape_features": r.n_land, "landscape_n_features": r.n_land,
              "commission_n_frames": r.n_comm, "commission_points": r.n_comm,
              "goal_kind": r.n_goal, "goal_param": r.n_goal, "goal_points": r.n_goal,
              "ranger_cells": r.n_ranger, "inspiration_feature": r.n_insp,
              "band_from": r.n_band, "band_to": r.n_band, "band_effect": r.n_band,
              "band_param": r.n_band}
    for name, n in counts.items():
        assert 0 < n < len(r[name]) and not r[name][n:].any(), name
    assert (r.commission_frames[r.n_comm:] == E.NO_FRAME).all()
    assert r.landscape_n_features[:r.n_land].all() and r.plan_wake.all()


def test_default_says_it_is_a_reconstruction():
    head = default_components_text()[:600]
    assert "RECONSTRUCTION" in head
    assert "balance components sunset" in head


def test_default_feature_facts(default):
    t = card_tables(default.tables)
    assert default.card_names["feature"] == FEATURES
    assert default.data["game"]["features"] == FEATURES
    n = t.landscape_n_features
    assert n.min() >= 1 and n.max() <= 3                       # 1 to 3 features per card
    assert t.landscape_features.max() == 1                     # distinct features on a card
    assert (t.landscape_features.sum(axis=1) == n).all()
    per_feature = t.landscape_features.sum(axis=0)
    assert per_feature.max() - per_feature.min() <= 2          # balanced
    assert set(np.unique(n)) == {1, 2, 3}


def test_landscape_mask_is_derived_from_the_features(default):
    """The one field not read from the file: each landscape's features as a bitmask (bit f =
    feature f), what the rules and players look up at every decision; 0 past the cards. An
    override of a card's features changes it with them."""
    t = card_tables(default.tables)
    shows = t.landscape_features > 0
    assert (t.landscape_mask == (shows * (1 << np.arange(E.N_FEATURES))).sum(axis=1)).all()
    assert not default.tables[0].landscape_mask[t.landscape_mask.size:].any()
    changed = load_components(overrides=('landscapes[0].features=["lake", "mountain"]',))
    assert changed.tables[0].landscape_mask[0] == (1 << 4) | (1 << 0)


def test_default_commissions(default):
    t = card_tables(default.tables)
    nf = t.commission_n_frames
    assert nf.min() >= 1 and nf.max() <= E.MAX_FRAMES
    for i in range(len(nf)):
        row = t.commission_frames[i]
        assert (row[:nf[i]] != E.NO_FRAME).all() and (row[nf[i]:] == E.NO_FRAME).all()
    assert (t.commission_points >= 0).all()
    assert (t.commission_frames == E.ANY_FEATURE).any()
    assert 4 in t.commission_points                            # the rulebook's 4-Renown card
    # the documented reconstruction formula: 1 per frame, +1 per specific frame,
    # +1 when two or more frames ask for the same feature
    for i in range(len(nf)):
        frames = t.commission_frames[i, :nf[i]]
        spec = frames[frames != E.ANY_FEATURE]
        pair = int(len(spec) > len(set(spec.tolist())))
        assert t.commission_points[i] == nf[i] + len(spec) + pair
    # so, with equal frames, more specific frames never pay less
    specific = ((t.commission_frames >= 0) & (t.commission_frames < E.N_FEATURES)).sum(axis=1)
    for i in range(len(nf)):
        for j in range(len(nf)):
            if nf[i] == nf[j] and specific[i] > specific[j]:
                assert t.commission_points[i] >= t.commission_points[j]
    # every feature on (about) the same number of commission cards (solo inspiration bonus)
    cards_with = [(t.commission_frames == f).any(axis=1).sum() for f in range(E.N_FEATURES)]
    assert max(cards_with) - min(cards_with) <= 1


def test_default_goals(default):
    t = card_tables(default.tables)
    assert (t.goal_points == 2).all()
    goals = default.data["goals"]
    assert goals[0]["text"] == "Be the last person to move horizontally."
    assert t.goal_kind[0] == E.GOAL_MOVE_HORIZONTAL
    assert all(k in range(len(E.GOAL_KIND_NAMES)) for k in t.goal_kind)
    assert len(t.goal_kind) >= t.days
    for g, kind, param in zip(goals, t.goal_kind, t.goal_param):
        if g["kind"] == "paint_feature":
            assert param == FEATURES.index(g["param"])
        elif g["kind"] in ("hike_at_least", "paint_at_least", "sell_at_least"):
            assert param == g["param"] >= 1


def test_default_planning(default):
    t = card_tables(default.tables)
    wake = t.plan_wake
    assert wake.min() == 5 * 60 and wake.max() == 12 * 60 + 45
    assert (np.diff(wake) > 0).all()
    assert (np.diff(t.plan_move) >= 0).all() and (np.diff(t.plan_paint) >= 0).all()
    assert t.plan_move[-1] > t.plan_move[0] and t.plan_paint[-1] > t.plan_paint[0]
    assert ((t.plan_move >= 1) & (t.plan_move <= 4)).all()
    assert ((t.plan_paint >= 1) & (t.plan_paint <= 4)).all()
    assert (t.plan_dirs > 0).all() and (t.plan_dirs < 256).all()
    # each solo band holds some cards
    for lo, hi in ((300, 465), (480, 645), (660, 765)):
        assert ((wake >= lo) & (wake <= hi)).any()
    # "Dawn": horizontal = E and W
    assert t.plan_dirs[0] == (1 << E.DIR_E) | (1 << E.DIR_W)
    assert default.card_names["planning"][0] == "Dawn"


def test_default_solo_and_rules(default):
    t = card_tables(default.tables)
    assert sorted(t.ranger_cells.tolist()) == [6, 8, 16, 18]
    assert E.CENTER not in t.ranger_cells
    assert sorted(t.inspiration_feature.tolist()) == [0, 1, 2, 3, 4]
    assert t.band_from.tolist() == [300, 480, 660]
    assert t.band_to.tolist() == [465, 645, 765]
    assert t.band_effect.tolist() == [E.WAKE_REFILL_WILDERNESS, E.WAKE_DISCARD_COMMISSIONS,
                                      E.WAKE_DISCARD_COMMISSIONS]
    assert t.band_param.tolist() == [0, 1, 2]
    assert t.days == 6 and t.solo_days == 8
    assert t.row_extra == 1 and t.solo_row == 3
    assert t.features_per_point == 2
    assert t.wake_tie == E.WAKE_TIE_RANDOM
    assert t.return_home_bonus == 2 and t.inspiration_points == 1
    assert t.empty_deck_refill == 0
    assert t.stay_on_shared_card == E.SHARED_STAY_MUST_LEAVE


def test_card_names_and_data(default):
    names = default.card_names
    assert len(names["landscape"]) == 60 and len(set(names["landscape"])) == 60
    assert len(names["commission"]) == 30 and len(set(names["commission"])) == 30
    assert len(names["goal"]) == 7 and len(names["planning"]) == 8
    assert len(names["inspiration"]) == 5
    assert names["landscape"][0] == default.data["landscapes"][0]["name"]
    assert default.data["planning"][0]["wake"] == "5:00"
    assert default.data["solo"]["ranger_cells"] == [6, 8, 16, 18]
    assert default.data["solo"]["bands"][1]["from"] == "8:00"


def test_copy_of_default_loads_from_a_path(tmp_path, default):
    path = write(tmp_path, default_components_text())
    c = load_components(path)
    assert c.path == path
    assert c.sha256 == default.sha256
    assert c.tables.tobytes() == default.tables.tobytes()


def test_edits_change_the_tables(tmp_path):
    text = edit('wake_tie = "random"', 'wake_tie = "seat"')
    text = edit('{ name = "Lakeside Study", frames = ["lake"], points = 2 }',
                '{ name = "Lakeside Study", frames = ["lake", "?"], points = 3 }', text)
    text = edit('ranger_cells = ["1,1", "1,3", "3,1", "3,3"]', 'ranger_cells = [6, "1,3", [3, 1], 18]', text)
    t = card_tables(load_components(write(tmp_path, text)).tables)
    assert t.wake_tie == E.WAKE_TIE_SEAT
    assert t.commission_frames[4].tolist() == [4, E.ANY_FEATURE, E.NO_FRAME, E.NO_FRAME]
    assert t.commission_points[4] == 3
    assert t.ranger_cells.tolist() == [6, 8, 16, 18]


def test_prototype_counts_may_differ(tmp_path):
    text = edit("landscapes = 60 ", "landscapes = 59 ")
    text = edit('  { name = "Crescent Tarn", features = ["lake"] },\n', "", text)
    c = load_components(write(tmp_path, text))
    assert len(card_tables(c.tables).landscape_n_features) == 59 == c.tables[0].n_land


# --- malformed files ----------------------------------------------------------------------
def test_missing_file(tmp_path):
    path = str(tmp_path / "nope.toml")
    with pytest.raises(ComponentError) as exc:
        load_components(path)
    assert len(exc.value.lines) == 1 and exc.value.lines[0].startswith(path + ": ")


def test_missing_field(tmp_path):
    text = edit('{ name = "Sunrise", wake = "7:30", hike = ["diagonal"], move = 2, paint = 2 }',
                '{ name = "Sunrise", wake = "7:30", hike = ["diagonal"], move = 2 }')
    path, lines = errors_of(tmp_path, text)
    assert lines == [f"{path}: planning[2] \"Sunrise\": missing field 'paint'"]


def test_unknown_feature(tmp_path):
    text = edit('{ name = "Misty Peak", features = ["mountain", "lake"] }',
                '{ name = "Misty Peak", features = ["mountian", "lake"] }')
    path, lines = errors_of(tmp_path, text)
    assert lines == [f"{path}: landscapes[29] \"Misty Peak\": features[0]: unknown feature "
                     f"'mountian' (known: mountain, flower, waterfall, forest, lake)"]


def test_unknown_frame_feature(tmp_path):
    text = edit('frames = ["mountain", "?", "?", "?"]', 'frames = ["mountain", "any", "?", "?"]')
    path, lines = errors_of(tmp_path, text)
    assert len(lines) == 1
    assert lines[0].startswith(f'{path}: commissions[29] "Summit Collection": frames[1]: unknown feature \'any\'')


def test_wrong_count(tmp_path):
    text = edit('  { name = "Crescent Tarn", features = ["lake"] },\n', "")
    path, lines = errors_of(tmp_path, text)
    assert lines == [f"{path}: landscapes: expected 60 cards, found 59 (counts.landscapes = 60)"]


def test_negative_points(tmp_path):
    text = edit('{ name = "Lakeside Study", frames = ["lake"], points = 2 }',
                '{ name = "Lakeside Study", frames = ["lake"], points = -3 }')
    path, lines = errors_of(tmp_path, text)
    assert lines == [f'{path}: commissions[4] "Lakeside Study": points must be >= 0, got -3']


def test_bad_toml_syntax(tmp_path):
    text = edit('{ name = "Poppy Field", features = ["flower"] },',
                '{ name = "Poppy Field", features = ["flower"] ,')
    path, lines = errors_of(tmp_path, text)
    assert len(lines) == 1
    assert re.fullmatch(re.escape(path) + r": line \d+, column \d+: .+", lines[0]), lines[0]


def test_unknown_key(tmp_path):
    text = edit('{ name = "Dawn", wake = "5:00", hike = ["horizontal"], move = 1, paint = 1 }',
                '{ name = "Dawn", wake = "5:00", hike = ["horizontal"], move = 1, paint = 1, colour = "red" }')
    path, lines = errors_of(tmp_path, text)
    assert lines == [f"{path}: planning[0] \"Dawn\": unknown field 'colour' "
                     f"(known: name, wake, hike, move, paint)"]


def test_unknown_section(tmp_path):
    text = default_components_text() + "\n[extras]\nx = 1\n"
    path, lines = errors_of(tmp_path, text)
    assert len(lines) == 1 and "unknown section 'extras'" in lines[0]


def test_unknown_rules_key(tmp_path):
    text = edit("days = 6 ", "days = 6\nnights = 6 ")
    path, lines = errors_of(tmp_path, text)
    assert len(lines) == 1 and lines[0].startswith(f"{path}: rules: unknown field 'nights'")


@pytest.mark.parametrize("wake, fragment", [
    ('"25:00"', "between 0:00 and 23:59"),
    ('"6h15"', 'like "7:45"'),
    ('615', "in quotes"),
    ('"6:75"', "between 0:00 and 23:59"),
])
def test_bad_wake_time(tmp_path, wake, fragment):
    text = edit('wake = "6:15"', f"wake = {wake}")
    path, lines = errors_of(tmp_path, text)
    assert len(lines) == 1
    assert lines[0].startswith(f'{path}: planning[1] "First Light": wake must be a time')
    assert fragment in lines[0]


def test_unknown_direction(tmp_path):
    text = edit('hike = ["vertical"]', 'hike = ["N", "NNE"]')
    path, lines = errors_of(tmp_path, text)
    assert len(lines) == 1
    assert lines[0].startswith(f'{path}: planning[1] "First Light": hike[1]: unknown direction \'NNE\'')


def test_empty_directions(tmp_path):
    text = edit('hike = ["vertical"]', "hike = []")
    path, lines = errors_of(tmp_path, text)
    assert lines == [f'{path}: planning[1] "First Light": hike must have at least 1 entry, got 0']


def test_duplicate_ranger_cell(tmp_path):
    text = edit('ranger_cells = ["1,1", "1,3", "3,1", "3,3"]', 'ranger_cells = ["1,1", "1,3", "3,1", 6]')
    path, lines = errors_of(tmp_path, text)
    assert lines == [f'{path}: solo.ranger_cells[3]: duplicate cell "1,1" (also solo.ranger_cells[0])']


def test_ranger_cell_centre_and_outside(tmp_path):
    text = edit('ranger_cells = ["1,1", "1,3", "3,1", "3,3"]', 'ranger_cells = ["1,1", "2,2", "3,1", "3,5"]')
    path, lines = errors_of(tmp_path, text)
    assert len(lines) == 2
    assert lines[0].startswith(f"{path}: solo.ranger_cells[1]: ") and "centre" in lines[0]
    assert lines[1].startswith(f"{path}: solo.ranger_cells[3]: ") and "outside" in lines[1]


def test_duplicate_card_name(tmp_path):
    text = edit('{ name = "Still Pond", features = ["lake"] }', '{ name = "Mirror Lake", features = ["lake"] }')
    path, lines = errors_of(tmp_path, text)
    assert lines == [f'{path}: landscapes[17] "Mirror Lake": duplicate name (also landscapes[16])']


def test_goal_params(tmp_path):
    text = edit('kind = "hike_at_least", param = 3', 'kind = "hike_at_least", param = 0')
    text = edit('param = "waterfall"', 'param = "river"', text)
    text = edit('kind = "move_vertical"', 'kind = "move_sideways"', text)
    path, lines = errors_of(tmp_path, text)
    assert len(lines) == 3
    assert lines[0].startswith(f'{path}: goals[1] "Switchback": kind: unknown goal kind \'move_sideways\'')
    assert lines[1].startswith(f'{path}: goals[3] "Long Trek": param: ')
    assert lines[2].startswith(f'{path}: goals[6] "Chasing Waterfalls": param: unknown feature \'river\'')


def test_bands_overlap_and_effects(tmp_path):
    text = edit('to = "7:45"', 'to = "8:15"')
    text = edit('effect = "discard_commissions", param = 2', 'effect = "discard_everything", param = 2', text)
    path, lines = errors_of(tmp_path, text)
    assert len(lines) == 2
    assert any(l.startswith(f'{path}: solo.bands[2] "Late Morning": effect: unknown effect') for l in lines)
    assert any(l.startswith(f'{path}: solo.bands[1] "Mid Morning": overlaps solo.bands[0]') for l in lines)


def test_rules_values(tmp_path):
    text = edit("days = 6 ", "days = 0 ")
    text = edit('wake_tie = "random"', 'wake_tie = "coin"', text)
    text = edit('empty_deck_refill = "leave_empty"', 'empty_deck_refill = "reshuffle"', text)
    text = edit("solo_days = 8 ", "solo_days = 9 ", text)
    path, lines = errors_of(tmp_path, text)
    assert lines == [
        f"{path}: rules.days must be >= 1, got 0",
        f"{path}: rules.solo_days must be <= 8, got 9",
        f"{path}: rules.wake_tie must be one of 'random', 'seat', got 'coin'",
        f"{path}: rules.empty_deck_refill must be one of 'leave_empty', got 'reshuffle'",
    ]


def test_capacity_checks(tmp_path):
    text = edit("planning = 8 ", "planning = 9 ")
    text = edit("landscapes = 60 ", "landscapes = 20 ", text)
    text = edit("goals = 7 ", "goals = 5 ", text)
    text = edit('frames = ["?", "?", "?", "?"]', 'frames = ["?", "?", "?", "?", "?"]', text)
    path, lines = errors_of(tmp_path, text)
    assert f"{path}: counts.landscapes must be >= 25, got 20" in lines
    assert any(l.startswith(f"{path}: counts.planning must be 8") for l in lines)
    assert f'{path}: commissions[25] "Sketchbook": frames must have at most 4 entries, got 5' in lines
    assert f"{path}: goals: expected 5 cards, found 7 (counts.goals = 5)" in lines
    assert any(l.startswith(f"{path}: counts.goals must be >= rules.days = 6") for l in lines)


def test_not_enough_commissions_for_a_full_row(tmp_path):
    text = edit("commissions = 30 ", "commissions = 5 ")
    path, lines = errors_of(tmp_path, text)
    assert f"{path}: commissions: expected 5 cards, found 30 (counts.commissions = 5)" in lines
    assert any(l.startswith(f"{path}: counts.commissions must be >= 6") for l in lines)


def test_wrong_types(tmp_path):
    text = edit('{ name = "Grand Tour", frames = ["mountain", "flower", "waterfall", "forest"], points = 8 }',
                '{ name = "Grand Tour", frames = ["mountain", "flower", "waterfall", "forest"], points = 8.5 }')
    text = edit("features_per_point = 2 ", "features_per_point = true ", text)
    text = edit('{ name = "Noon", wake = "12:45", hike = ["any"], move = 4, paint = 4 }', '"Noon"', text)
    path, lines = errors_of(tmp_path, text)
    assert f'{path}: commissions[24] "Grand Tour": points must be a whole number, got 8.5' in lines
    assert f"{path}: rules.features_per_point must be a whole number, got true" in lines
    assert f"{path}: planning[7] must be a table {{ ... }}, got 'Noon'" in lines


def test_several_problems_give_several_lines(tmp_path):
    text = edit('{ name = "Lakeside Study", frames = ["lake"], points = 2 }',
                '{ name = "Lakeside Study", frames = ["lake"], points = -3 }')
    text = edit('{ name = "Misty Peak", features = ["mountain", "lake"] }',
                '{ name = "Misty Peak", features = ["mountian", "lake"] }', text)
    text = edit('wake = "6:15"', 'wake = "6:99"', text)
    text = edit('ranger_cells = ["1,1", "1,3", "3,1", "3,3"]', 'ranger_cells = ["1,1", "1,1", "3,1", "3,3"]', text)
    text = edit('  { name = "Crescent Tarn", features = ["lake"] },\n', "", text)
    path, lines = errors_of(tmp_path, text)
    assert len(lines) == 5, lines
    joined = "\n".join(lines)
    for fragment in ('landscapes[28] "Misty Peak"', "landscapes: expected 60 cards, found 59",
                     'commissions[4] "Lakeside Study": points must be >= 0, got -3',
                     'planning[1] "First Light": wake', "solo.ranger_cells[1]: duplicate cell"):
        assert fragment in joined


def test_missing_sections(tmp_path):
    text = edit("[counts]\n", "[countz]\n")
    path, lines = errors_of(tmp_path, text)
    assert f"{path}: missing table [counts]" in lines
    assert any("unknown section 'countz'" in l for l in lines)


def test_default_path_is_the_shipped_file():
    with open(DEFAULT_PATH, encoding="utf-8") as f:
        assert f.read() == default_components_text()


def test_counts_above_engine_capacity(tmp_path):
    from sim.games.sunset import enums as E
    text = edit("goals = 7 ", f"goals = {E.MAX_GOAL + 1} ")
    text = edit("commissions = 30 ", f"commissions = {E.MAX_COMM + 1} ", text)
    path, lines = errors_of(tmp_path, text)
    assert any(l.startswith(f"{path}: counts.goals must be <= {E.MAX_GOAL}") for l in lines), lines
    assert any(l.startswith(f"{path}: counts.commissions must be <= {E.MAX_COMM}") for l in lines), lines
