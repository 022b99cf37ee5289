"""What a cell holds: Python values read from the raw bytes of the parts.

- :mod:`.cells`: a cell's value (numbers, text, booleans, errors, dates) and its text;
- :mod:`.strings`: the shared strings table, and the text of a string item;
- :mod:`.styles`: number formats, which styles show dates, and the date system;
- :mod:`.xmlread`: the expat parser every one of them reads with, and :class:`ValuesError`;
- :mod:`.reader`: :class:`~.reader.CellReader`, a workbook's cells read as values, which
  every draw that reads values uses.
"""
