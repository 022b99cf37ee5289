"""The binary expansion of e, exactly, from Python's integers: SP 800-22's test data.

SP 800-22's worked examples for its longer tests run on "the first 1,000,000 binary
digits in the expansion of e" (sts-2.1.2's ``data/data.e``): its integer part 10 and then
its fraction, ``10.1011011111100001...``. Here ``e = sum 1/k!`` is summed exactly as a
fraction (binary splitting) and scaled by ``2**n``: no floating point, no file, and no
code shared with what it checks.
"""

from __future__ import annotations

import math
from functools import cache

__all__ = ["e_bits"]


def _split(a: int, b: int) -> tuple[int, int]:
    """``sum(a! / k! for k in a+1..b)`` as ``(p, q)`` with ``q = (a+1) (a+2) .. b``."""
    if b - a == 1:
        return 1, b
    mid = (a + b) // 2
    p1, q1 = _split(a, mid)
    p2, q2 = _split(mid, b)
    return p1 * q2 + p2, q1 * q2


@cache
def e_bits(count: int) -> bytes:
    """The first ``count`` binary digits of e (from its integer part ``10``), as bytes 0
    and 1.

    >>> "".join(map(str, e_bits(20)))
    '10101101111110000101'
    """
    fraction = count - 2  # digits after the point
    terms = 2
    # the series' tail after term K is below 2 / (K + 1)!: make it below 2**-(fraction + 64)
    while math.lgamma(terms + 2) / math.log(2) < fraction + 65:
        terms *= 2
    p, q = _split(0, terms)  # sum(1/k! for k in 1..terms) = p / q
    # floor(e * 2**(fraction + 64)) is this or one more (the tail is below 1 at that
    # scale); one more changes the top bits only through a carry across 64 ones
    guarded = ((p + q) << (fraction + 64)) // q
    assert guarded & (2**64 - 1) != 2**64 - 1
    scaled = guarded >> 64
    digits = bin(scaled)[2:]
    assert len(digits) == count
    return digits.encode().translate(bytes.maketrans(b"01", b"\x00\x01"))
