"""What a draw record keeps so that a draw can be checked and undone (the record itself is
:mod:`xlshuffle.common.record`, shared with the list engine):

- :mod:`.fingerprint`: a compact account of the drawn rows, checked by a restore;
- :mod:`.rowdigest`: rows compared without what a draw rewrites by design (verify);
- :mod:`.formulatext`: moved formulas compared with their translations (verify).
"""
