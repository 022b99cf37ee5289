"""The worksheet functions called as Excel calls them, for every test of the Excel layer.

The root conftest sets XLWINGS_ON_SERVER before xlwings is imported, so ``@xw.func`` is
the real decorator of xlwings Server and Lite, and :func:`call` sends the same JSON body
Excel's Office.js runtime POSTs. :func:`refusal` is the one-line error a bad call must give;
:func:`texts` is a result as the CSV of the sheet shows it.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
import xlwings as xw
from xlwings.server import custom_functions_call

from xlshuffle import excel as udfs

VECTOR_42 = [9, 10, 4, 5, 7, 6, 1, 2, 8, 3]  # shuffle of 1..10, seed 42 (draw protocol v1)

# How Office.js hands over an error cell (allowErrorForDataTypeAny) ...
DIV0_IN = {"type": "Error", "basicValue": "#DIV/0!", "errorType": "Div0"}
NA_IN = {"type": "Error", "basicValue": "#N/A", "errorType": "NotAvailable"}
# ... and how xlwings sends an error back to Excel.
DIV0_OUT = {"type": "Error", "errorType": "Div0"}
NA_OUT = {"type": "Error", "errorType": "NotAvailable"}


def call(name: str, *args: Any) -> Any:
    """Evaluate ``=NAME(args...)`` as Excel does: one 2D list (or None) per argument."""
    body = {
        "client": "Office.js",
        "func_name": name,
        "args": list(args),
        "caller_address": "[Book1.xlsx]Sheet1!C1",
        "session_id": "test",
        "culture_info_name": "en-US",
        "date_format": "M/d/yyyy",
        "version": xw.__version__,
        "runtime": "1.4",
    }
    return asyncio.run(custom_functions_call(body, udfs))


def cell(value: Any) -> list[list[Any]]:
    return [[value]]


def column(values: list[Any]) -> list[list[Any]]:
    return [[v] for v in values]


def refusal(name: str, *args: Any) -> str:
    """The message of the XlwingsError that ``=NAME(args...)`` gives, checked for form."""
    started = time.perf_counter()
    with pytest.raises(xw.XlwingsError) as info:
        call(name, *args)
    assert time.perf_counter() - started < 1.0
    message = str(info.value)
    assert type(info.value) is xw.XlwingsError
    assert message.startswith(f"{name}: ")
    assert "\n" not in message
    assert len(message) <= 300
    message.encode("utf-8")  # no lone surrogate in the message itself
    return message


def text(value: Any) -> str:
    """A cell as the CSV the sheet saves shows it (General format)."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return "" if value is None else str(value)


def texts(rows: list[list[Any]]) -> list[list[str]]:
    return [[text(v) for v in row] for row in rows]
