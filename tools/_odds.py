"""Parallel odds for random card pulls (``GET /v1/catalog/cards/random?includeParallels=true``).

For one picked card with candidate parallels (its set's full-set parallels plus the partial
parallels that list it):

1. Numbered parallels (print run ``n``) are rolled one by one from the rarest (smallest ``n``)
   to the most common, each succeeding with the boosted probability
   ``p(n) = min(MAX_NUMBERED, BOOST * n / BASE_PRINT_RUN)`` (BOOST 10, BASE_PRINT_RUN 10,000,
   cap 0.5: a /1 hits 1 in 1,000 pulls, a /50 1 in 20, instead of their real pack odds); the first
   success is returned.
2. Otherwise, if the card has unlimited parallels, one collective roll succeeds with
   ``UNLIMITED_ODDS`` (0.25) and one of them is chosen uniformly.
3. Otherwise the base card is returned.

So a numbered parallel i (in rarest-first order) comes out with probability
``p_i * prod_{j<i} (1 - p_j)``, each of U unlimited parallels with
``prod_j (1 - p_j) * 0.25 / U``, and the base card with the rest.
``set_rng`` swaps the random source (tests seed it).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol

BOOST = 10.0
BASE_PRINT_RUN = 10_000
MAX_NUMBERED = 0.5
UNLIMITED_ODDS = 0.25

_rng: random.Random = random.Random()


class _ParallelLike(Protocol):
    name: str
    numbered_to: int | None


def set_rng(rng: random.Random) -> None:
    """Internal hook: replace the random source (tests pass a seeded ``random.Random``)."""
    global _rng
    _rng = rng


def numbered_odds(n: int) -> float:
    return min(MAX_NUMBERED, BOOST * n / BASE_PRINT_RUN)


def roll(parallels: Sequence[Any], rng: random.Random | None = None) -> Any | None:
    """The parallel pulled for one card, or ``None`` for the base card."""
    rng = rng or _rng
    numbered = sorted((p for p in parallels if p.numbered_to), key=lambda p: (p.numbered_to, p.name))
    for p in numbered:
        if rng.random() < numbered_odds(p.numbered_to):
            return p
    unlimited = [p for p in parallels if not p.numbered_to]
    if unlimited and rng.random() < UNLIMITED_ODDS:
        return unlimited[rng.randrange(len(unlimited))]
    return None


def expected(parallels: Sequence[Any]) -> dict[Any, float]:
    """Exact pull probabilities per parallel (``None`` = base), for documentation and tests."""
    out: dict[Any, float] = {}
    miss = 1.0
    for p in sorted((p for p in parallels if p.numbered_to), key=lambda p: (p.numbered_to, p.name)):
        q = numbered_odds(p.numbered_to)
        out[p] = miss * q
        miss *= 1 - q
    unlimited = [p for p in parallels if not p.numbered_to]
    for p in unlimited:
        out[p] = miss * UNLIMITED_ODDS / len(unlimited)
    out[None] = miss * (1 - UNLIMITED_ODDS) if unlimited else miss
    return out
