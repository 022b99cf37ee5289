"""Byte-level reading of .xlsx workbooks: parts, cells and values, without openpyxl."""
