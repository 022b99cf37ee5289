"""What a draw takes: the sheet, the rows and columns, the header, and where the data is.

- :mod:`.select`: a selection from the options (``--range``, ``--table``, ``--columns``...);
- :mod:`.layout` and :mod:`.layout_rows`: where the data is when nothing says so;
- :mod:`.keep`: ``--keep-blank-rows``;
- :mod:`.suggest`: layout refusals and the options they suggest, each tried first.
"""
