"""A workbook draw checked against its record: the draw done again from the seed, the
files compared with what it gives.

- :mod:`.check`: :func:`~.check.verify_record`, the check of any workbook record (start
  here): a shuffle's rows, or the check of its kind below;
- :mod:`.rows`: a shuffle's output rows against the input's, by digest, then by value;
- :mod:`.formulas`: moved formulas read as their input formulas translated;
- :mod:`.groups`: a groups draw's column, and balanced teams dealt again;
- :mod:`.raffle`: a raffle or an audit drawn again from its input;
- :mod:`.winners`: the winners a sample printed, as the user saved them.
"""
