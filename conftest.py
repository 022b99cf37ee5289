"""Root conftest: runs before anything imports xlwings, for the tests and the doctests.

xlwings' decorators are no-ops on Linux unless XLWINGS_ON_SERVER is set before the first
``import xlwings``; with it (and the noncommercial licence key) the real Office.js
custom-function machinery runs, which is what the Excel tests drive.
"""

import os

os.environ.setdefault("XLWINGS_ON_SERVER", "true")
os.environ.setdefault("XLWINGS_LICENSE_KEY", "noncommercial")

from hypothesis import HealthCheck, settings

# Hypothesis profiles: "dev" for quick local runs, "ci" (chosen when CI is set) for more examples.
settings.register_profile("dev", max_examples=100, deadline=None)
settings.register_profile(
    "ci", max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("ci" if os.environ.get("CI") else os.environ.get("HYPOTHESIS_PROFILE", "dev"))
