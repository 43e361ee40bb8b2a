"""Play a range of Lowlands' sampled counterfactual states in one process: the reproducer of
the branch kernel's crash (docs/card-worth.md, "Known problems": a record view of a freed
array, fixed 2026-12-01), kept to check the branch kernel on many 4-player states.

    python -m scripts.lowlands_cf_crash scan STATES.npy         # 200 games, 4 players, greedy
    python -m scripts.lowlands_cf_crash play STATES.npy A B     # the states A..B-1 (sorted by
                                                                #   game, step), 1 play-on each

`play` prints "ok ...". Before the fix the states 125-156 of the scan of seed 1 crashed
together (exit code 139) although each quarter of them passed alone.
"""
from __future__ import annotations

import sys

import numpy as np


def main(argv: list) -> int:
    from analysis.card_worth import select_states
    from sim import counterfactual as cf
    from sim.registry import get_game
    spec = get_game("lowlands")
    comp = spec.load_components()
    prepared = spec.prepare(comp, 4, ["greedy"], 1, None)
    masks = [c["mask_column"] for c in spec.report_metadata(comp)["cards"]
             if c.get("mask_column")]
    if argv[0] == "scan":
        scan = cf.scan(spec, prepared, masks, 0, 200, workers=2)
        np.save(argv[1], select_states(scan, 100, 1))
        return 0
    chosen = np.load(argv[1])
    a, b = int(argv[2]), int(argv[3])
    states = chosen[np.lexsort((chosen[:, 1], chosen[:, 0]))][a:b]
    _, valid = cf.branches_chunk(spec, prepared, [comp], states,
                                 np.zeros((len(states), 1), np.int64), masks,
                                 np.ones(len(states), np.int64))
    print("ok", a, b, int((valid == 1).sum()), "replayed,", int((valid == -1).sum()), "not")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
