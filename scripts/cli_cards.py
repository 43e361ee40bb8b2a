"""`balance cards GAME`: every card's worth by counterfactual play (the estimand of every card
verdict, docs/card-worth.md): its advantage when taken against the seat's best alternative,
played on from sampled real decision states, with its parity value. The library call is
sim.api.card_worth (sim/api/worth.py). `--counterfactual` says the same explicitly.

`balance cards GAME --takers`: the sensitivity table, a description of play. Every card whose
value the game declares as a component field is played one point lower and one point higher
on the same games (common random numbers), and the table gives, per point of value, the
change in how often it is taken and in its takers' win share against the takers of the other
cards of its type. Who takes a card is not what the card is worth, so it suggests no value.
The library call is sim.api.cards (sim/api/designer.py): sim/cards.py plans, sim/designer.py
plays (every configuration's chunks in one worker pool, --precision stopping),
analysis/card_check.py and analysis/cards.py measure, reports/cards.py reports.
The result folder follows the sweep's rules (designer.json marker, sub-runs point-NN, report/;
--overwrite removes only the toolkit's files). Registered into scripts/cli.py by add_commands.
"""
from __future__ import annotations



def add_commands(sub, _int) -> dict:
    from scripts.cli_designer import _common
    from sim.api.worth import DEFAULT_SCAN_GAMES, DEFAULT_STATES
    s = sub.add_parser("cards", help="every card's advantage when taken, by counterfactual play "
                                     "(--takers: the takers' sensitivity table)")
    _common(s, _int, f"games scanned for decision states (default {DEFAULT_SCAN_GAMES}); with "
                     f"--takers: games per configuration (default 20000; with --precision the "
                     f"first batch)")
    s.add_argument("--only", default=None, metavar="TYPES",
                   help="comma-separated card types to play (default: every type with a value "
                        "field, e.g. commission,goal)")
    w = s.add_argument_group("card worth by counterfactual play (the default; docs/card-worth.md)")
    w.add_argument("--counterfactual", action="store_true",
                   help="each card's advantage when taken, against the seat's best "
                        "alternative, played on from real decision states (the default of "
                        "`cards`, said explicitly)")
    w.add_argument("--takers", action="store_true",
                   help="instead: the sensitivity table of the takers' win share, one point "
                        "down and up on the same games (a description of play)")
    w.add_argument("--states", type=_int("states"), default=None,
                   help=f"sampled decision states per card (default {DEFAULT_STATES})")
    w.add_argument("--playons", type=_int("playons"), default=None,
                   help="play-ons per state and branch (default 1)")
    w.add_argument("--offsets", default=None, metavar="D1,D2",
                   help="card value offsets played on the same states for the parity value "
                        "(default -2,2; 'none': no parity)")
    return {"cards": cmd_cards}


def cmd_worth(args, out) -> int:
    from scripts.cli_designer import _out_folder, _print_result
    from sim.api.worth import DEFAULT_PLAYONS, DEFAULT_SCAN_GAMES, DEFAULT_STATES, card_worth
    r = card_worth(args.game, players=args.players, strategies=args.strategies,
                   seed=args.seed, set=list(args.overrides), only=args.only,
                   components=args.components, variants=args.variants, workers=args.workers,
                   scan_games=args.games if args.games is not None else DEFAULT_SCAN_GAMES,
                   states=args.states if args.states is not None else DEFAULT_STATES,
                   playons=args.playons if args.playons is not None else DEFAULT_PLAYONS,
                   offsets=args.offsets, progress=not args.no_progress, echo=out,
                   out=_out_folder(args, args.game, "worth"), overwrite=args.overwrite,
                   assign=list(args.assign))
    files = r.report()
    _print_result(r.verdicts, r.notes, files, out)
    return 0


def cmd_cards(args, out) -> int:
    from scripts.cli_designer import _common_kwargs, _out_folder, _print_result
    from sim.api import cards
    from sim.game_api import ToolkitError
    if args.counterfactual and args.takers:
        raise ToolkitError("--counterfactual and --takers: choose one")
    if not args.takers:
        if args.precision is not None or args.max_games is not None:
            raise ToolkitError("--precision and --max-games apply to --takers only (the card "
                               "worth's sample is set by --games, --states and --playons)")
        return cmd_worth(args, out)
    extra = [f"--{n}" for n in ("states", "playons", "offsets") if getattr(args, n) is not None]
    if extra:
        raise ToolkitError(f"{', '.join(extra)}: not with --takers")
    kw = _common_kwargs(args, 20_000)
    kw["out"] = _out_folder(args, args.game, "cards")
    r = cards(args.game, only=args.only, precision=args.precision, max_games=args.max_games,
              echo=out, **kw)
    files = r.report()
    _print_result(r.document().sections[0].blocks[0], r.notes, files, out)
    return 0
