"""xlshuffle's functions in Google Sheets: one self-contained Apps Script file.

The file (:func:`script`) is built from JavaScript (:mod:`xlshuffle.sheets.build`): the
browser verifier's protocol modules, in their synchronous form, and the Sheets modules of
``js/``; the package keeps the built file, which ``xlshuffle extension sheets -o FILE.gs``
writes. Pasted into *Extensions > Apps Script*, it gives the custom functions ``SHUFFLE``,
``SHUFFLESTR``, ``DEAL``, ``SAMPLE``, ``SAMPLEBY``, ``AUDITSAMPLE``, ``GROUPS``, ``ORDERS``,
``ALLOCATE``, ``TICKET``, ``SAMPLESIZE`` and ``UPPERLIMIT`` with
xlshuffle.excel's arguments and results, and a menu ``xlshuffle`` whose commands draw on
the selection, write plain values and log the draw on a ``Draw log`` sheet (docs/sheets.md).

>>> text = script()
>>> "function SHUFFLE(data, seed, by, header)" in text, "function onOpen()" in text
(True, True)
"""

from __future__ import annotations

import json
from importlib import resources

from ..common.files import write_atomically

__all__ = ["FILE", "manifest", "script", "write_manifest", "write_script"]

#: The built Apps Script file, beside this module.
FILE = "xlshuffle.gs"


def script() -> str:
    """The Apps Script file: the custom functions and the draw-and-lock menu."""
    return resources.files(__name__).joinpath(FILE).read_text(encoding="utf-8")


def manifest() -> str:
    """An Apps Script manifest (``appsscript.json``) for the file: the V8 runtime, the
    scopes the menu needs (this spreadsheet, its dialogs), UTC as the script's time zone
    (set it to the spreadsheet's, so that date cells read as they show)."""
    body = {
        "timeZone": "Etc/UTC",
        "dependencies": {},
        "exceptionLogging": "STACKDRIVER",
        "runtimeVersion": "V8",
        "oauthScopes": [
            "https://www.googleapis.com/auth/spreadsheets.currentonly",
            "https://www.googleapis.com/auth/script.container.ui",
        ],
    }
    return json.dumps(body, indent=2) + "\n"


def write_script(output: str) -> list[str]:
    """Write :func:`script` to ``output`` (all at once, or not at all); the files it holds."""
    write_atomically(output, script().encode("utf-8"))
    return [FILE]


def write_manifest(output: str) -> list[str]:
    """Write :func:`manifest` to ``output``; the files it holds."""
    write_atomically(output, manifest().encode("utf-8"))
    return ["appsscript.json"]
