"""``xlshuffle certificate``: one self-contained page of a draw's result to publish or print.

``xlshuffle certificate R [--input IN] [--title TEXT] -o CERT.html`` draws ``R`` again from
its input (and follows its rounds back to the draw), then writes the page of
:func:`xlshuffle.filedraw.certificate.certificate`.
"""

from __future__ import annotations

import argparse
import os
from typing import Any

from ..common.files import write_atomically
from ..common.targets import check_writable

__all__ = ["register"]


def register(subparsers: Any) -> None:
    """Add ``certificate`` to the ``xlshuffle`` parser."""
    p = subparsers.add_parser(
        "certificate",
        help="write a draw's certificate: one page to publish or print",
        description="Write one self-contained HTML page (it loads nothing; print it to PDF "
        "from the browser) with the draw's list digest, seed and commitment, the winners "
        "and reserves by prize, every substitution of its rounds with its reason, and how "
        "to check it. The draw is done again from its input first, as verify does.",
    )
    p.add_argument("record", metavar="R", help="the draw's record, or its last round's")
    p.add_argument("-o", "--output", required=True, metavar="CERT.html", help="the page")
    p.add_argument("--input", metavar="IN", help="the list drawn (default: the record's input)")
    p.add_argument("--title", help="the page's heading (default: 'Draw of LIST')")
    p.set_defaults(func=cmd_certificate)


def cmd_certificate(args: argparse.Namespace) -> int:
    import json

    from ..filedraw.certificate import certificate, check_title
    from . import UsageError

    check_title(args.title)
    if os.path.abspath(args.output) == os.path.abspath(args.record):
        raise UsageError(f"{args.output} is the record: write the page to another file")
    check_writable(args.output)
    src = args.input
    if src is None:
        with open(args.record, encoding="utf-8") as fh:
            first = json.load(fh)
        src = str(first.get("input", ""))
    if not os.path.isfile(src):
        raise UsageError(f"{src}: the list drawn is not here: give it with --input IN")
    page = certificate(args.record, src, title=args.title)
    write_atomically(args.output, page.encode("utf-8"))
    print(f"{args.output}: the certificate of {args.record}")
    return 0
