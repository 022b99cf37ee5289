"""Write src/xlshuffle/sheets/xlshuffle.gs, the Apps Script file of `xlshuffle extension
sheets`, from the verifier's protocol modules and src/xlshuffle/sheets/js/
(``xlshuffle.sheets.build`` says how).

The output depends only on the sources and xlshuffle's version, so
``tests/test_sheets_script.py`` compares it with the committed file.

    python tools/make_sheets.py          # write it
    python tools/make_sheets.py --check  # exit 1 if it is stale
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from xlshuffle import __version__
from xlshuffle.sheets import FILE
from xlshuffle.sheets.build import render
from xlshuffle.sheets.modules import BuildError

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "verifier" / "src"
OUT = ROOT / "src" / "xlshuffle" / "sheets" / FILE


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").partition("\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the file is stale")
    args = parser.parse_args(argv)
    try:
        text = render(SRC, version=__version__)
    except BuildError as exc:
        print(f"Error: {exc}", file=sys.stderr)
        return 2
    current = OUT.read_text(encoding="utf-8") if OUT.exists() else None
    if current != text:
        if args.check:
            print(
                f"stale: {OUT.relative_to(ROOT)}: run python tools/make_sheets.py", file=sys.stderr
            )
            return 1
        OUT.write_text(text, encoding="utf-8", newline="\n")
        print(f"wrote {OUT.relative_to(ROOT)}")
    print(f"{OUT.relative_to(ROOT)}: {len(text.encode('utf-8')):,} bytes, up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
