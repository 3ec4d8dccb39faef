"""Auditable randomness for timelines (ruling E19): every draw is HMAC-SHA256(game secret, entry id).

A game gets a secret when it is created. Its SHA-256 (the *commitment*) is published at the start; the
secret itself is revealed when the game ends, and anyone can recompute every draw with ``draw``. Because a
draw depends only on the secret and the entry, replays and reverted phases reproduce it exactly.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping

_SECRET_BYTES = 32
_FLOAT_BITS = 53  # a double holds 53 bits of mantissa: every value k / 2**53 is exact


def new_secret() -> str:
    """A fresh game secret, as 64 hex digits."""
    return secrets.token_hex(_SECRET_BYTES)


def commitment(secret: str) -> str:
    """What is published when the game starts: the SHA-256 of the secret, hex."""
    return hashlib.sha256(secret.encode()).hexdigest()


def verify(secret: str, published: str) -> bool:
    """Whether a revealed secret matches the commitment published at the start."""
    return hmac.compare_digest(commitment(secret), published.lower())


def draw(secret: str, entry_id: str) -> float:
    """A uniform number in [0, 1) fixed by the secret and the entry id."""
    if not secret:
        raise ValueError("a random draw needs the game's secret")
    digest = hmac.new(secret.encode(), entry_id.encode(), hashlib.sha256).digest()
    return (int.from_bytes(digest[:8], "big") >> (64 - _FLOAT_BITS)) / (1 << _FLOAT_BITS)


def year_for(u: float, chance: Mapping[int, int]) -> int:
    """The year a draw ``u`` picks from cumulative percentages such as {1902: 25, 1903: 75, 1904: 100}.

    Cumulative reading (E19): the entry has fired by year Y with the probability listed for Y, so it
    fires in the first year whose percentage exceeds ``100 * u``.
    """
    for year in sorted(chance):
        if 100 * u < chance[year]:
            return year
    raise ValueError(f"chances {dict(chance)} never reach 100 %")


def exact_year(chance: Mapping[int, int]) -> int:
    """Exact mode: the first year whose cumulative chance reaches 75 % (the seed's "75 %" row)."""
    for year in sorted(chance):
        if chance[year] >= 75:
            return year
    raise ValueError(f"chances {dict(chance)} never reach 75 %")
