"""``python -m xlshuffle``: the same command line as the ``xlshuffle`` script."""

from __future__ import annotations

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
