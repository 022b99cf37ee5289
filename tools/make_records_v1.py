"""Write genuine xlshuffle 0.1 draw records into tests/fixtures/records_v1/.

Run from the project root: ``.venv/bin/python tools/make_records_v1.py [COMMIT]``.

The records are made by running the OLD code, not imitated: the script checks out
``COMMIT`` (default :data:`OLD`, the last commit whose records have the 0.1 format: a
``selection`` text, ``lost``, no ``record_version``, ``unit``, ``target`` or ``parts``;
the next commit, eb45005, replaced openpyxl's save path) into a temporary
``git worktree`` outside the checkout, and runs ``python -m xlshuffle`` from its
``src`` folder (``PYTHONPATH``) in the fixture folder, so every path in a record is a
bare file name. 0.1 needs ``defusedxml`` besides openpyxl: when this interpreter lacks
it, pass a folder holding it in ``XLSHUFFLE_OLD_DEPS`` (for example one made with
``pip install --target DIR defusedxml``).

The inputs are two small workbooks: ``class.xlsx`` (written here with openpyxl: a sheet
named ``Class 7B`` with a header, six data rows and a formula column; and a table) and
``engine.xlsx`` (a copy of tests/fixtures/engine/shared_formulas.xlsx, a package not
written by openpyxl, so 0.1's output renumbers its styles and strings). Each draw writes
``NAME.json`` (the record) and its output; ``MANIFEST.txt`` lists the command lines.
``tests/test_records_v1.py`` checks that today's ``verify`` accepts them all.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "fixtures" / "records_v1"
OLD = "3a7ff7e4e4627f2ec559d30f686060fdb48d1338"

#: (record name, command line after ``xlshuffle``); ``{r}`` is the record file
DRAWS = [
    ("shuffle", "shuffle class.xlsx -o shuffle.xlsx --seed 42 --record {r}"),
    ("columns", "shuffle class.xlsx --columns A,C -o columns.xlsx --seed 7 --record {r}"),
    ("cells", "shuffle class.xlsx --range B2:C7 --by cells -o cells.xlsx --seed 3 --record {r}"),
    (
        "by_columns",
        "shuffle class.xlsx --range A1:B4 --by columns -o by_columns.xlsx --seed x --record {r}",
    ),
    (
        "table",
        "shuffle class.xlsx --sheet Teams --table Teams -o table.xlsx --seed 6 --record {r}",
    ),
    ("engine", "shuffle engine.xlsx -o engine.shuffled.xlsx --seed 11 --record {r}"),
    ("sample_csv", "sample class.xlsx -k 3 -o sample.csv --seed 9 --record {r}"),
    ("sample_sheet", "sample class.xlsx -k 2 -o sample.xlsx --seed 9 --record {r}"),
    ("groups", "groups class.xlsx -k 2 -o groups.xlsx --seed 4 --record {r}"),
]


def _inputs(folder: Path) -> None:
    import openpyxl
    from openpyxl.worksheet.table import Table

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Class 7B"
    ws.append(["name", "score", "double"])
    for i, name in enumerate(["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]):
        ws.append([name, 10 * i + 3, f"=B{i + 2}*2"])
    teams = wb.create_sheet("Teams")
    for row in [
        ["team", "city"],
        ["Owls", "Leeds"],
        ["Hawks", "York"],
        ["Kites", "Hull"],
        ["Rooks", "Bath"],
    ]:
        teams.append(row)
    teams.add_table(Table(displayName="Teams", ref="A1:B5"))
    wb.active = 0
    wb.save(folder / "class.xlsx")
    shutil.copyfile(
        ROOT / "tests" / "fixtures" / "engine" / "shared_formulas.xlsx", folder / "engine.xlsx"
    )


def main(commit: str = OLD) -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.iterdir():
        old.unlink()
    _inputs(OUT)
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "old"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), commit],
            check=True,
            capture_output=True,
        )
        try:
            paths = [str(tree / "src"), *filter(None, [os.environ.get("XLSHUFFLE_OLD_DEPS")])]
            env = dict(os.environ, PYTHONPATH=os.pathsep.join(paths))
            lines = [f"# made by tools/make_records_v1.py with xlshuffle at {commit}"]
            for name, command in DRAWS:
                argv = command.format(r=f"{name}.json").split()
                subprocess.run(
                    [sys.executable, "-m", "xlshuffle", *argv],
                    cwd=OUT,
                    env=env,
                    check=True,
                    stdout=subprocess.DEVNULL,
                )
                lines.append(f"xlshuffle {' '.join(argv)}")
            # a sample printed to stdout (no output in the record), saved by the user
            argv = ["sample", "class.xlsx", "-k", "3", "--seed", "9", "--record", "stdout.json"]
            with open(OUT / "winners.csv", "wb") as fh:
                subprocess.run(
                    [sys.executable, "-m", "xlshuffle", *argv],
                    cwd=OUT,
                    env=env,
                    check=True,
                    stdout=fh,
                )
            lines.append(f"xlshuffle {' '.join(argv)} > winners.csv")
        finally:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=True
            )
    (OUT / "MANIFEST.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {len(list(OUT.iterdir()))} files to {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
