"""Formulas moved the way Excel moves them when it sorts rows.

Only :mod:`.translate` (``FormulaMover``, ``FormulaMoveError``) is used outside this
sub-package; :mod:`.lex` (the cheap shape key) and :mod:`.shapes` (translated formulas as
cached templates, from openpyxl's tokens) are its parts.
"""
