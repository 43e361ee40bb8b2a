"""Strategy ratings for games of any number of players: the Plackett-Luce model.

Each strategy i has a strength gamma_i = exp(theta_i). A finishing order (first place to
last) of the seats' strategies has probability

    prod_k  gamma_{a_k} / sum_{s >= k} gamma_{a_s}

(the winner is "chosen" among all seats, then second place among the rest, ...). With two
players this is the Bradley-Terry model. Two seats playing the same strategy are two
instances of the same item (both carry gamma_i).

Fitting: the MM algorithm of Hunter (2004), "MM algorithms for generalized Bradley-Terry
models", Annals of Statistics 32(1), section 5, on *weighted distinct orders*: a run of ten
million games has only a few hundred distinct finishing orders of strategies, so the logs are
reduced to (order, count) pairs and every iteration costs microseconds. Why not `choix`
(the maintained library, used in the tests as the reference for the estimates): it takes one
Python tuple per game (10 million of them), has no weights, no ties and no standard errors.

Ties: a tied block of k seats is expanded into its k! orders, each with weight 1/k! (the
average over tie-breaks).

Standard errors: from the Fisher information of theta = log gamma,
    I = sum over orders (weight) sum over stages k < m of (diag(pi) - pi pi^T),
pi being the stage's choice probabilities aggregated per strategy (for this model the observed
and expected information coincide). The strengths are identified up to a constant: we report
theta centred to mean zero, whose covariance is the Moore-Penrose pseudo-inverse of I.

Prior: `prior` virtual games per ordered pair of strategies (RATING_PRIOR = 1, one virtual
game each way: add-one smoothing) keep the estimates finite when a strategy never loses or
never wins; negligible against the thousands of real games of any run worth rating. The one
value serves the report, `compare` and the API (docs/architecture.md).

Estimability: the maximum-likelihood strengths exist only when, for every split of the
strategies into two groups, some strategy of each group finished ahead of some strategy of
the other in the real games (Hunter 2004, Assumption 1; Zermelo / Ford for paired data): the
"finished ahead of" graph is strongly connected. Otherwise (one strategy won every game, one
never finished ahead of anyone ...) the maximum-likelihood estimate does not exist:
`PLFit.estimable` is False, `why` says what happened as a code (WHY_CODES; the items it names
in `why_items`; reports/notes.py writes the words), and `se` / `cov` (the
maximum-likelihood uncertainty) are nan, never a reassuring 0.000.

The prior-regularised fit (the posterior mode under the prior's virtual games) exists in
every case, and so does its curvature: `se_prior` / `cov_prior` are the standard errors and
covariance of the penalised log-likelihood (the prior's virtual games counted like real ones;
a Laplace approximation of the posterior). When the fit is estimable they equal `se` / `cov`.
When it is not, they are finite and honest about what they say: a strategy that never won is
held at a finite strength only by its one virtual win, so its rating is pulled towards the
others (the real gap is this large or larger) and its interval is that of the regularised
estimate. Callers that show them must say so (the skill ladder does: analysis/ladder.py);
callers comparing freely chosen strategies (the run report, `compare`) show no ratings then.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np


RATING_PRIOR = 1.0   # virtual games per ordered pair of strategies: the one prior

# why the real orders do not identify the strengths (PLFit.why) and the items it names
# (PLFit.why_items): "no-game" (i) played no game against another item; "never-behind" (i)
# finished ahead of every other item in every game; "never-ahead" (i) never finished ahead
# of another; "split" (i, j): groups that never finished behind each other, i never ahead
# of j even through others. reports/notes.py (why_text) writes the words.
WHY_CODES = ("no-game", "never-behind", "never-ahead", "split")


@dataclass
class PLFit:
    theta: np.ndarray          # centred log-strengths
    se: np.ndarray             # standard errors of theta
    cov: np.ndarray
    iterations: int
    converged: bool
    n_orders: int              # distinct weighted orders used
    estimable: bool = True     # the real orders identify the strengths (module docstring)
    why: str = ""              # if not: what happened, a code of WHY_CODES
    why_items: tuple = ()      # the items (indices) the code names
    se_prior: np.ndarray | None = None    # the prior-regularised fit's (always finite with
    cov_prior: np.ndarray | None = None   # a prior > 0; = se / cov when estimable)

    def win_probability(self, i: int, j: int) -> float:
        """P(i finishes ahead of j) in a two-seat comparison under the model."""
        return float(1.0 / (1.0 + math.exp(self.theta[j] - self.theta[i])))


def expand_ties(strategies, ranks, weight: float = 1.0):
    """[(order tuple of strategy ids, weight)] for one game: seats sorted by rank, tied blocks
    expanded into all their orders with equal weights summing to `weight`."""
    strategies = list(strategies)
    ranks = list(ranks)
    blocks = []
    for r in sorted(set(ranks)):
        blocks.append([strategies[i] for i in range(len(ranks)) if ranks[i] == r])
    out = {}  # repeated strategies in a block give equal orders: their weights add up
    total = 1
    for b in blocks:
        total *= math.factorial(len(b))
    for combo in itertools.product(*[list(itertools.permutations(b)) for b in blocks]):
        order = tuple(x for part in combo for x in part)
        out[order] = out.get(order, 0.0) + weight / total
    return list(out.items())


def not_estimable(orders, n_items: int) -> tuple[str, tuple]:
    """Why the real orders cannot identify Plackett-Luce strengths, as (code of WHY_CODES,
    items it names); ("", ()) when they can: the "finished ahead of" graph of the items is
    strongly connected."""
    ahead = np.zeros((n_items, n_items), dtype=bool)
    for o, w in orders:
        if w <= 0:
            continue
        o = [int(x) for x in o]
        for k in range(len(o) - 1):
            for m in range(k + 1, len(o)):
                if o[k] != o[m]:
                    ahead[o[k], o[m]] = True
    present = sorted({int(x) for o, w in orders if w > 0 for x in o})
    if len(present) < n_items:
        missing = [i for i in range(n_items) if i not in present]
        return "no-game", (missing[0],)
    never_behind = [i for i in range(n_items) if not ahead[:, i].any()]
    if never_behind:
        return "never-behind", (never_behind[0],)
    never_ahead = [i for i in range(n_items) if not ahead[i].any()]
    if never_ahead:
        return "never-ahead", (never_ahead[0],)
    # reachability: every item must reach every other through "finished ahead of"
    reach = ahead | np.eye(n_items, dtype=bool)
    for _ in range(n_items):
        nxt = reach | ((reach.astype(np.int64) @ reach.astype(np.int64)) > 0)
        if (nxt == reach).all():
            break
        reach = nxt
    if not reach.all():
        i, j = map(int, np.argwhere(~reach)[0])
        return "split", (i, j)
    return "", ()


def fit_plackett_luce(orders, n_items: int, prior: float = RATING_PRIOR, max_iter: int = 10000,
                      tol: float = 1e-10) -> PLFit:
    """Fit Plackett-Luce strengths to weighted orders [(tuple of item ids, weight)].

    Orders may have any length >= 2 and repeat items. Returns centred log-strengths with
    standard errors (see the module docstring).
    """
    data = [(tuple(int(x) for x in o), float(w)) for o, w in orders if len(o) >= 2 and w > 0]
    why, why_items = not_estimable(data, n_items) if n_items > 1 else ("", ())
    if prior > 0 and n_items > 1:
        for i in range(n_items):
            for j in range(n_items):
                if i != j:
                    data.append(((i, j), prior))
    if n_items < 2 or not data:
        raise ValueError("Plackett-Luce needs at least two items and one order")
    # stage structure: for order o and stage k, the multiset o[k:]; winner o[k]
    wins = np.zeros(n_items)
    stage_counts = []      # (weight, counts vector of the stage's remaining items)
    for o, w in data:
        counts = np.bincount(np.asarray(o), minlength=n_items).astype(float)
        for k in range(len(o) - 1):
            wins[o[k]] += w
            stage_counts.append((w, counts.copy()))
            counts[o[k]] -= 1.0
    W = np.array([w for w, _ in stage_counts])
    C = np.array([c for _, c in stage_counts])            # stages x items
    gamma = np.ones(n_items)
    converged = False
    it = 0
    for it in range(1, max_iter + 1):
        denom = C @ gamma                                   # stage totals
        # Hunter's MM update: gamma_i = wins_i / sum_stages w * count_i / total
        new = wins / ((W / denom) @ C)
        new /= np.exp(np.mean(np.log(new)))
        if np.max(np.abs(np.log(new) - np.log(gamma))) < tol:
            gamma = new
            converged = True
            break
        gamma = new
    theta = np.log(gamma)
    theta -= theta.mean()
    gamma = np.exp(theta)
    # Fisher information of theta
    P = C * gamma                                           # stages x items
    P /= P.sum(axis=1, keepdims=True)
    info = np.diag((W[:, None] * P).sum(axis=0)) - (P * W[:, None]).T @ P
    cov = _centred_inverse(info)
    se = np.sqrt(np.maximum(np.diag(cov), 0.0))
    se_prior, cov_prior = se.copy(), cov.copy()
    if why:   # no maximum-likelihood estimate: its uncertainty is not shown as if it existed
        se = np.full(n_items, np.nan)
        cov = np.full_like(cov, np.nan)
    if prior <= 0:   # nothing regularises: the prior-regularised fit is the plain one
        se_prior, cov_prior = se.copy(), cov.copy()
    return PLFit(theta=theta, se=se, cov=cov, iterations=it, converged=converged,
                 n_orders=len(data), estimable=not why, why=why, why_items=why_items,
                 se_prior=se_prior,
                 cov_prior=cov_prior)


def _centred_inverse(info: np.ndarray) -> np.ndarray:
    """The Moore-Penrose inverse of a Plackett-Luce information matrix, whose null space is
    the constant direction (strengths are identified up to a constant): with u = 1/sqrt(n),
    pinv(I) = inv(I + u u^T) - u u^T. Computed so, not with np.linalg.pinv: rounding leaves
    the constant direction an eigenvalue of ~1e-14 instead of 0, which pinv's cut-off may
    keep and invert into a covariance of 1e13 (seen with two items, one never winning)."""
    n = info.shape[0]
    u = np.full((n, 1), 1.0 / math.sqrt(n))
    proj = np.eye(n) - u @ u.T
    info = proj @ ((info + info.T) / 2) @ proj          # exactly singular along u
    try:
        return np.linalg.inv(info + u @ u.T) - u @ u.T
    except np.linalg.LinAlgError:   # more null directions (no prior, groups that never met)
        return np.linalg.pinv(info, hermitian=True)
