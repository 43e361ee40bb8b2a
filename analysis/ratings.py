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

Prior: `prior` virtual games per ordered pair of strategies (default 0.01 each way) keep
the estimates finite when a strategy never loses or never wins; negligible against real
games.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np


@dataclass
class PLFit:
    theta: np.ndarray          # centred log-strengths
    se: np.ndarray             # standard errors of theta
    cov: np.ndarray
    iterations: int
    converged: bool
    n_orders: int              # distinct weighted orders used

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


def fit_plackett_luce(orders, n_items: int, prior: float = 0.01, max_iter: int = 10000,
                      tol: float = 1e-10) -> PLFit:
    """Fit Plackett-Luce strengths to weighted orders [(tuple of item ids, weight)].

    Orders may have any length >= 2 and repeat items. Returns centred log-strengths with
    standard errors (see the module docstring).
    """
    data = [(tuple(int(x) for x in o), float(w)) for o, w in orders if len(o) >= 2 and w > 0]
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
    cov = np.linalg.pinv(info, hermitian=True)
    se = np.sqrt(np.maximum(np.diag(cov), 0.0))
    return PLFit(theta=theta, se=se, cov=cov, iterations=it, converged=converged,
                 n_orders=len(data))
