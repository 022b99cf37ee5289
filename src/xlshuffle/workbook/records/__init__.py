"""The draw record and what it keeps so that a draw can be checked and undone.

- :mod:`.record`: the JSON record (format, versions, reading and writing);
- :mod:`.fingerprint`: a compact account of the drawn rows, checked by a restore;
- :mod:`.rowdigest`: rows compared without what a draw rewrites by design (verify);
- :mod:`.formulatext`: moved formulas compared with their translations (verify).
"""
