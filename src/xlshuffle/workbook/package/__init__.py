"""The package around the sheets: the zip container and the parts that list the sheets.

- :mod:`.zipread`: the zip read with bounds (members, inflating, checksums);
- :mod:`.zipwrite`: the zip written so that every member that is not changed keeps its bytes;
- :mod:`.parts`: content types, relationships, the workbook part, sheets and defined names;
- :mod:`.readwrite`: the input read once, and the output put in place atomically (backups,
  in-place writes, dry runs).
"""
