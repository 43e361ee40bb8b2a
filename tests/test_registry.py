import pytest

from sim import registry
from sim.game_api import ToolkitError


def test_unknown_game_lists_known_games():
    with pytest.raises(ToolkitError) as exc:
        registry.get_game("no-such-game")
    msg = str(exc.value)
    assert msg.startswith("unknown game 'no-such-game'; known games: ")
    assert "\n" not in msg


def test_toy_by_name_and_alias(toy_registry):
    assert registry.get_game("toy") is toy_registry
    assert registry.get_game("DICE") is toy_registry
    assert [g.name for g in registry.list_games()] == ["toy"]
    with pytest.raises(ToolkitError, match=r"^unknown game 'x'; known games: toy$"):
        registry.get_game("x")
