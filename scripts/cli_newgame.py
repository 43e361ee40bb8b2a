"""`balance new-game NAME [--out DIR]`: write a working minimal game, DIR/NAME/, to grow into
your own (docs/adding-a-game.md, "From the scaffold to your game").

The game is a package outside the toolkit: 2-4 players, one card type in its component file,
`random` and `greedy` players, rule tests and a docs page. The toolkit finds it through the
game path (`balance --game-path DIR ...` or BALANCE_GAME_PATH=DIR). Registered into
scripts/cli.py by `add_commands`, like scripts/cli_designer.py.
"""
from __future__ import annotations

import importlib.util
import keyword
import os
import re

from sim.game_api import ToolkitError

TEMPLATE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "new_game_template")
TEMPLATE_SUFFIX = ".tmpl"


def add_commands(sub, _int) -> dict:
    s = sub.add_parser("new-game", help="write a working minimal game to start your own from")
    s.add_argument("name", help="the game's name: lower case letters, digits and _ "
                                "(also its package name)")
    s.add_argument("--out", default=".",
                   help="the folder to write the game's package into (default: here); the "
                        "game path to give later commands")
    s.add_argument("--title", default=None, help="the game's title (default: from the name)")
    return {"new-game": cmd_new_game}


def check_name(name: str) -> None:
    from sim.registry import list_games
    if not re.fullmatch(r"[a-z][a-z0-9_]*", name) or keyword.iskeyword(name):
        raise ToolkitError(f"new-game: '{name}' is not a usable name: lower case letters, digits "
                           f"and _, starting with a letter (it is also the package's name)")
    taken = {a for g in list_games() for a in (g.name, *g.aliases)}
    if name in taken:
        raise ToolkitError(f"new-game: a game named '{name}' is already known; choose another "
                           f"name")
    if importlib.util.find_spec(name) is not None:
        raise ToolkitError(f"new-game: '{name}' is already the name of an importable Python "
                           f"module; choose another name")


def rendered(template: str, fields: dict) -> str:
    for key, value in fields.items():
        template = template.replace("{{" + key + "}}", value)
    return template


def write_new_game(name: str, out: str, title: str | None = None) -> list:
    """Write out/name/ from the templates; returns the paths written. Refuses a folder that
    exists (the tool never overwrites a file it did not write)."""
    check_name(name)
    parent = os.path.abspath(out)
    target = os.path.join(parent, name)
    if os.path.exists(target):
        raise ToolkitError(f"new-game: {target} already exists; choose another --out or name")
    fields = {"NAME": name, "TITLE": title or name.replace("_", " ").title(),
              "CLASS": "".join(part.title() for part in name.split("_")),
              "PARENT": os.path.relpath(parent) if parent != os.getcwd() else "."}
    os.makedirs(target)
    written = []
    for template in sorted(os.listdir(TEMPLATE_DIR)):
        if not template.endswith(TEMPLATE_SUFFIX):
            continue
        path = os.path.join(target, template[:-len(TEMPLATE_SUFFIX)])
        with open(os.path.join(TEMPLATE_DIR, template), encoding="utf-8") as fh:
            text = rendered(fh.read(), fields)
        with open(path, "x", encoding="utf-8") as fh:
            fh.write(text)
        written.append(path)
    return written


def cmd_new_game(args, out) -> int:
    written = write_new_game(args.name, args.out, args.title)
    folder = os.path.dirname(written[0])
    path = os.path.relpath(os.path.dirname(folder))
    print(f"wrote {len(written)} files to {os.path.relpath(folder)}/:", file=out)
    for p in written:
        print(f"  {os.path.basename(p)}", file=out)
    print(f"next:\n  balance --game-path {path} run {args.name} --players 3 --games 2000\n"
          f"  BALANCE_GAME_PATH={path} python -m pytest {os.path.relpath(folder)}/test_rules.py\n"
          f"then make it your game: docs/adding-a-game.md, \"From the scaffold to your game\"",
          file=out)
    return 0
