"""Byte-level workbook engine (placeholder; replaced when merged)."""
