"""`balance cards GAME`: the sensitivity table. Every card whose value the game declares as a
component field is played one point lower and one point higher on the same games (common
random numbers), and the table gives, per point of value, the change in how often it is
taken and in its takers' win share against the takers of the other cards of its type, with
95% intervals, and the value change that would bring each card to parity.

The library call is sim.api.cards (sim/api/designer.py): sim/cards.py plans, sim/designer.py
plays (every configuration's chunks in one worker pool, --precision stopping),
analysis/card_check.py and analysis/cards.py measure, reports/cards.py reports.
The result folder follows the sweep's rules (designer.json marker, sub-runs point-NN, report/;
--overwrite removes only the toolkit's files). Registered into scripts/cli.py by add_commands.
"""
from __future__ import annotations



def add_commands(sub, _int) -> dict:
    from scripts.cli_designer import _common
    s = sub.add_parser("cards", help="the sensitivity table: every card's value one point "
                                     "down and up, on the same games")
    _common(s, _int, "games per configuration (default 20000; with --precision the first batch)")
    s.add_argument("--only", default=None, metavar="TYPES",
                   help="comma-separated card types to play (default: every type with a value "
                        "field, e.g. commission,goal)")
    return {"cards": cmd_cards}


def cmd_cards(args, out) -> int:
    from scripts.cli_designer import _common_kwargs, _out_folder, _print_result
    from sim.api import cards
    kw = _common_kwargs(args, 20_000)
    kw["out"] = _out_folder(args, args.game, "cards")
    r = cards(args.game, only=args.only, precision=args.precision, max_games=args.max_games,
              echo=out, **kw)
    files = r.report()
    _print_result(r.document().sections[0].blocks[0], r.notes, files, out)
    return 0
