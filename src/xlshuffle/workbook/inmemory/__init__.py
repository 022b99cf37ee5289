"""Draws on an openpyxl worksheet held in memory, by the engine's rules.

- :mod:`.worksheet`: :func:`shuffle_worksheet`, the draw;
- :mod:`.rules`: the selection and the refusals, read from what openpyxl holds.
"""

from .worksheet import shuffle_worksheet

__all__ = ["shuffle_worksheet"]
