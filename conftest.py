"""Root conftest: runs before anything imports xlwings, for the tests and the doctests.

xlwings' decorators are no-ops on Linux unless XLWINGS_ON_SERVER is set before the first
``import xlwings``; with it (and the noncommercial licence key) the real Office.js
custom-function machinery runs, which is what the Excel tests drive.
"""

import os

os.environ.setdefault("XLWINGS_ON_SERVER", "true")
os.environ.setdefault("XLWINGS_LICENSE_KEY", "noncommercial")
