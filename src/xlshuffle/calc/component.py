"""The UNO component of the Calc add-in: ``org.xlshuffle.calc.Functions``.

LibreOffice's Python loader runs this file from the extension's root, with the extension's
``pythonpath/`` (xlshuffle's pure part) on ``sys.path``. It registers one implementation of
the service ``com.sun.star.sheet.AddIn`` whose methods are the interface
``org.xlshuffle.calc.XFunctions`` (``data/XFunctions.idl``): each hands its arguments to
:func:`xlshuffle.calc.call`. Only LibreOffice imports it (``uno`` exists nowhere else).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import unohelper
from org.xlshuffle.calc import XFunctions

from xlshuffle.calc import IMPLEMENTATION, NAMES, call

__all__ = ["Functions", "g_ImplementationHelper"]


class Functions(unohelper.Base, XFunctions):  # type: ignore[misc]
    """The add-in: one method per worksheet function, added below from :data:`NAMES`."""

    def __init__(self, ctx: Any) -> None:
        self.ctx = ctx


def _method(name: str) -> Callable[..., Any]:
    def method(self: Functions, *args: Any) -> Any:
        return call(name, *args)

    method.__name__ = method.__qualname__ = name
    return method


for _name in NAMES:
    setattr(Functions, _name, _method(_name))

# The loader looks for this name.
g_ImplementationHelper = unohelper.ImplementationHelper()
g_ImplementationHelper.addImplementation(Functions, IMPLEMENTATION, ("com.sun.star.sheet.AddIn",))
