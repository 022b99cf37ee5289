"""The fairness lab: the classic shuffles, fair and biased, measured exactly and by sampling.

Pure standard library, except :mod:`xlshuffle.lab.plots`, which needs matplotlib and is
imported only by whoever draws the figures (``xlshuffle fairness --plot``).

Modules
-------
classic
    The specimens: eleven classic shuffles, fair and biased, and the registry
    :data:`~xlshuffle.lab.classic.ALGORITHMS` that describes them.
fairness
    The measurements and the whole lab's JSON report (``docs/fairness.md``).
raffles
    The raffle and audit draws' exact chances, beside the weighted draws people build by
    hand (``xlshuffle fairness --draws``).
designs
    The per-person and counterbalanced orders, block allocation lists and balanced teams,
    checked exactly (``xlshuffle fairness --designs``).
plots
    The lab's figures.

This package may import only :mod:`xlshuffle.draw`, :mod:`xlshuffle.common` and itself.
"""

__all__: list[str] = []
