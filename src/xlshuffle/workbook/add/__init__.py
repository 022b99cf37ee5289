"""Draws that move nothing and add something new: ``sample`` adds a sheet of winners (or
writes them as CSV), ``groups`` adds a group column.

- :mod:`.sheetxml`: a sample's new sheet built from the drawn rows' own cells, and the
  group column's cells;
- :mod:`.datarows`: the selection's data rows as a table of values (the entrants);
- :mod:`.plain_sample`: a plain sample's winners and the table it prints or writes;
- :mod:`.raffle`: raffles and audits on a workbook's rows (tickets, reserves, exclusions,
  strata), through :mod:`xlshuffle.tabledraw`;
- :mod:`.teams`: balanced teams, and an earlier groups draw dealt again from its record.
"""
