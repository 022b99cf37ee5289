"""Moved: the batch functions of xlshuffle 0.1 live in :mod:`xlshuffle.workbook`.

This module keeps ``from xlshuffle.batch import shuffle_workbook`` working. Since 0.2 the
functions write files with the lossless workbook engine, so ``allow_loss`` is gone (nothing
is lost any more) and the draw record lists ``parts`` instead of ``lost``.
"""

from .workbook import (
    DrawRecord,
    SampleResult,
    groups_workbook,
    restore_workbook,
    sample_workbook,
    shuffle_workbook,
    verify_record,
)

__all__ = [
    "DrawRecord",
    "SampleResult",
    "groups_workbook",
    "restore_workbook",
    "sample_workbook",
    "shuffle_workbook",
    "verify_record",
]
