"""Positions from text, per game: build a state by hand, drive the compiled rules on it and
read it back (the helpers the rule tests use, in the package so that a designer can check a
rule or a score from Python): sim.api.positions.sagrada (score_window ...), .sunset, .surfers.
Imported on demand: each module loads its game's kernels."""
