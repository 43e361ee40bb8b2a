"""What a run's analysis found, as data: one `Finding` per verdict or flag.

The analysis layer (analysis/balance.py) decides; it does not write sentences. Each verdict
line and each flag of the balance report is a Finding: what kind of statement it is, about
whom, the statistic with its interval, the reference it was tested against, the Holm-adjusted
p-value and the verdict code. reports/findings.py turns a Finding into the sentence the
terminal, Markdown and HTML print, and `sim.api` hands the findings to Python as a DataFrame
(`Run.findings()`).

Kinds (`kind`), their subjects and verdict codes (docs/report.md has the definitions):

  seat            "Seat 1" ...          favoured / disadvantaged / fair  (value: win share)
  headline        "<label> <value>"     favoured / disadvantaged / fair: a grouping fixed
                                        before play, the start position (value: win share)
  association     "<label> <value>"     more wins / fewer wins / no association: seats grouped
                                        after the game (a route, a chosen window); never a flag
  outcome         "<label> <value>"     ""  a game-level outcome (value: its share of games)
  seat-order      "seats"               ""  (the fairness question is not seat 1: seats come second)
  start-note      "seats"               the start declaration's "how" (seat 1 / chosen ...): why
                                        the seat numbers are the start positions, or why none
  seating         "seats"               rotated / confounded  (why seat shares can be read or not)
  solo            strategy              "solo"  (value: mean score)
  all-tied        "seats"               "all tied"
  strategy        strategy              above / below / level with / almost never wins
  single-strategy strategy              ""  (every seat plays it: nothing to compare)
  dominance       strategy              dominates  (value: win share; closest match-up in detail)
  ties            "shared wins"         shared / none  (value: share of games with a shared win)
  shape           "games"               ""  (length and end reasons in detail)
  card            "<Type> '<name>'"     over-performs / under-performs / never taken / never happened
  card-more       card label            over-perform / under-perform  (how many more, not listed)
  card-never      card label            never taken / never happened  (how many, which)
  card-none       card label            ""  (no card of the type stands out)
  illegal         strategy              "illegal decisions"

`effect`, `effect_low`, `effect_high`, `unit` and `games_to_halve` are the flag table's
columns (the effect beyond the reference: percentage points of win share "pp", "points",
"share"). `detail` holds what a sentence needs beyond the numbers (names, counts, a label).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field

NAN = float("nan")


@dataclass(frozen=True)
class Finding:
    kind: str                         # see the module docstring
    subject: str                      # who or what it is about
    verdict: str = ""                 # the verdict code
    statistic: str = ""               # what `value` is (win_share, takers_win_share, ...)
    value: float = NAN
    low: float = NAN                  # the interval of `value`
    high: float = NAN
    reference: float = NAN            # what `value` is tested against (the fair share ...)
    reference_low: float = NAN
    reference_high: float = NAN
    p_holm: float = NAN               # Holm-adjusted p-value of the test, if one was made
    effect: float | None = None       # the flag's effect and its interval (None: no number)
    effect_low: float | None = None
    effect_high: float | None = None
    unit: str = ""                    # of the effect: "pp", "points", "share", ""
    games_to_halve: int | None = None
    detail: dict = field(default_factory=dict, hash=False, compare=True)

    def get(self, key: str, default=None):
        return self.detail.get(key, default)

    def row(self) -> dict:
        """One row of the findings table (sim.api Run.findings): the fields, detail left out."""
        d = asdict(self)
        d.pop("detail")
        return d


FIELDS = [k for k in Finding.__dataclass_fields__ if k != "detail"]


@dataclass(frozen=True)
class Note:
    """A remark on the method or the input, as data: `code` says which remark, `detail` its
    numbers and names. reports/notes.py writes the sentence (note_text). Codes:

      ratings-fit            iterations, converged, orders, games, prior, confidence
      ratings-no-orders      (no finishing orders recorded)
      ratings-not-estimable  why (a PLFit.why code), names (of PLFit.why_items), games
      ratings-solo           (one seat)
      ratings-single         strategy (every seat plays it)
      unregistered-game      game (the run's game is not registered: generic sections only)
      missing-score-component, missing-length-column    column (not in the logs; left out)
      cards-no-names         label
      cards-missing-mask     label, column
      cards-too-many         label, cards (more than a 64-bit mask holds)
      cards-missing-days     label, columns (no timing)
      cards-too-few-days     label, days, cards (no timing)
      cards-unknown-kind     label, kind (read as a card)
      breakdown-missing-column  label, column
      values-pooled          values (rarer values of a breakdown pooled as "other")
      card-check-user-strategies   (card response not checked)
      card-check-limited     checked, flagged (only the strongest flagged cards checked)
      card-check-crashed     game (the counterfactual card check's kernel crashed)
    """
    code: str
    detail: dict = field(default_factory=dict, hash=False, compare=True)

    def get(self, key: str, default=None):
        return self.detail.get(key, default)
