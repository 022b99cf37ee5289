"""Root conftest: runs before anything imports xlwings, for the tests and the doctests.

xlwings' decorators are no-ops on Linux unless XLWINGS_ON_SERVER is set before the first
``import xlwings``; with it (and the noncommercial licence key) the real Office.js
custom-function machinery runs, which is what the Excel tests drive.
"""

import os

os.environ.setdefault("XLWINGS_ON_SERVER", "true")
os.environ.setdefault("XLWINGS_LICENSE_KEY", "noncommercial")

from hypothesis import HealthCheck, settings

# Hypothesis profiles. The suite is deterministic ("dev", and "ci" when CI is set, with more
# examples): the same examples on every run, so a red run is the code's doing and repeats.
# "explore" draws new examples each run, many more of them: the way to hunt for new bugs
# (HYPOTHESIS_PROFILE=explore python -m pytest -m slow tests/test_wb_fuzz.py); turn each bug
# it finds into a fixed regression test.
settings.register_profile("dev", max_examples=100, deadline=None, derandomize=True)
settings.register_profile(
    "ci",
    max_examples=300,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "explore", max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("ci" if os.environ.get("CI") else os.environ.get("HYPOTHESIS_PROFILE", "dev"))

# The Calc add-in's component, its menu's protocol handler and the tests' UNO driver import
# LibreOffice's `uno`, which only the system's Python has: they cannot be collected for
# doctests here. tests/test_calc.py and tests/test_calc_lock.py run them.
collect_ignore = [
    "src/xlshuffle/calc/component.py",
    "src/xlshuffle/calc/dispatch.py",
    "tests/calc_driver.py",
]
