"""The core imports nothing outside the standard library (click's test_imports idea)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

PROBE = """
import json, sys
before = set(sys.modules)
{code}
print(json.dumps(sorted(set(sys.modules) - before)))
"""


def loaded_by(code: str) -> set[str]:
    out = subprocess.run(
        [sys.executable, "-c", PROBE.format(code=code)], capture_output=True, text=True, check=True
    ).stdout
    return {name.partition(".")[0] for name in json.loads(out.splitlines()[-1])}


def third_party(modules: set[str]) -> set[str]:
    stdlib = set(sys.stdlib_module_names) | {"xlshuffle"}
    return {m for m in modules if m not in stdlib and not m.startswith("_")}


@pytest.mark.parametrize(
    "code",
    [
        "import xlshuffle",
        "import xlshuffle; xlshuffle.shuffled(range(10), seed=1); xlshuffle.deal_hands(5, 2)",
        "import xlshuffle.cli; xlshuffle.cli.build_parser()",
        "from xlshuffle.cli import main; main(['deal', '--seed', '1'])",
        "import xlshuffle.draw, xlshuffle.common.files, xlshuffle.common.progress",
        "import xlshuffle.lab.classic, xlshuffle.lab.fairness",  # the lab minus its plots
    ],
)
def test_core_is_standard_library_only(code: str) -> None:
    assert third_party(loaded_by(code)) == set()


def test_text_loads_only_regex() -> None:
    assert third_party(loaded_by("import xlshuffle; xlshuffle.shuffle_text('abc', seed=1)")) == {
        "regex"
    }
