"""The workbook engine: draws on saved .xlsx/.xlsm/.xltx/.xltm files, losing nothing.

Only the drawn sheet's part is rewritten, as bytes: moved rows and cells keep their XML
with only their references changed, formulas are translated as Excel translates a sorted
formula, and every other part of the package is copied byte for byte. The record of each
draw lists the parts that changed.

Start with :func:`shuffle_workbook` (``shuffle_workbook("in.xlsx", "out.xlsx", seed=2026)``);
its docstring has a worked example.

Needs the ``xlsx`` extra (openpyxl's formula translator): ``pip install 'xlshuffle[xlsx]'``.
"""

from ..common.record import DrawRecord, load_records
from .api import (
    SampleResult,
    restore_workbook,
    sample_request,
    sample_workbook,
    shuffle_request,
    shuffle_workbook,
)
from .groups import groups_request, groups_workbook
from .inmemory import shuffle_worksheet
from .limits import LIMITS, Limits, raised
from .verification.check import verify_record
from .verification.raffle import verify_draw_workbook

__all__ = [
    "LIMITS",
    "DrawRecord",
    "Limits",
    "SampleResult",
    "groups_request",
    "groups_workbook",
    "load_records",
    "raised",
    "restore_workbook",
    "sample_request",
    "sample_workbook",
    "shuffle_request",
    "shuffle_workbook",
    "shuffle_worksheet",
    "verify_draw_workbook",
    "verify_record",
]
