"""Moving the drawn cells, and everything that points at them, inside one sheet part.

- :mod:`.plan`: the plan of every part a draw changes (start here);
- :mod:`.cells`: whole rows or single cells moved as bytes;
- :mod:`.block`: a block of columns moving with its rows, streamed (what :mod:`.cells`
  writes cell by cell, byte for byte);
- :mod:`.cellwrite`: one cell's XML rewritten for its new place, formulas included;
- :mod:`.anchors`: things that point at cells and travel with them (merges, hyperlinks,
  conditional formats, data validations, comments...), one table of kinds;
- :mod:`.refusals`: what cannot move correctly (merges across rows, array formulas,
  formulas that would leave the sheet, protection), refused before anything is written.
"""
