"""The ``xlshuffle`` command line.

``main(argv=None) -> int`` is a plain function (tests call it directly). Exceptions are
mapped to exit codes in one place, :func:`main`: usage errors exit 2, failures exit 1,
and a user mistake is one ``Error: ...`` line on stderr, never a traceback.

Every subcommand is registered the same way: a module of this package listed in
``_COMMANDS`` adds it with ``register(subparsers)``. Those that need an optional
dependency (``cli.batch``, ``cli.fairness``) import it only when they run, so
``xlshuffle --help`` works with the core alone and a missing extra is reported with the
command that installs it.

The command line is the top layer: it may import every other part of xlshuffle, and no
part imports it.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence
from typing import IO, Any, NoReturn

from .. import __version__
from ..draw.errors import OptionError, SeedError, SizeError, XlshuffleError
from ..draw.seed import Seed

__all__ = ["UsageError", "main"]

# The modules that add the subcommands, each with ``register(subparsers)``, in the order
# ``--help`` lists them, and the subcommands each adds (tests/test_cli_reference.py holds
# the table to what they add): a command line names its subcommand first, and only that
# module is imported (the others, with what they import, take a fifth of a small run's
# start). A module that is not present is skipped. Each must import without its optional
# dependency and import it when it runs.
_COMMANDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("xlshuffle.cli.basics", ("deal", "lines", "seed")),
    ("xlshuffle.cli.orders", ("orders",)),
    ("xlshuffle.cli.batch", ("groups", "restore", "sample", "shuffle", "verify")),
    ("xlshuffle.cli.fairness", ("fairness",)),
    ("xlshuffle.cli.allocate", ("allocate",)),
    ("xlshuffle.cli.commit", ("commit", "draw")),
    ("xlshuffle.cli.tickets", ("tickets",)),
    ("xlshuffle.cli.rounds", ("redraw",)),
    ("xlshuffle.cli.certificate", ("certificate",)),
    ("xlshuffle.cli.sql", ("sql",)),
    ("xlshuffle.cli.audit", ("evaluate", "plan")),
    ("xlshuffle.cli.extension", ("extension",)),
)

# Optional dependency -> the extra that installs it, for the "not installed" message.
_EXTRAS = {"openpyxl": "xlsx", "matplotlib": "plot", "xlwings": "excel", "duckdb": "duckdb"}

Handler = Callable[[argparse.Namespace], int]


class UsageError(Exception):
    """A command line that does not make sense: printed as one line, exit code 2."""


class Parser(argparse.ArgumentParser):
    """The parser of the command and of every subcommand (and of theirs): a mistake is one
    line naming the help to read (exit code 2), never argparse's usage dump."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see '{self.prog} --help')")


def seed_note(seed: Seed, err: IO[str]) -> None:
    """Tell the user on stderr which seed an unseeded run drew, so it can be replayed."""
    if seed.fresh:
        print(f"xlshuffle: seed {seed} (replay with --seed {seed})", file=err)


def seed_of(args: argparse.Namespace) -> Seed:
    """The seed ``--seed`` (and ``--exact-seed``) give: the command line's one reader of
    a seed (a fresh one without ``--seed``)."""
    return Seed.typed(args.seed, exact=args.exact_seed)


# --------------------------------------------------------------------------- parser


def add_seed(p: argparse.ArgumentParser, what: str) -> None:
    """Add ``--seed`` and ``--exact-seed`` to a subcommand: a command-line seed is text."""
    p.add_argument(
        "--seed",
        help=f"seed text; same seed, same {what} (default: a fresh seed, printed on stderr). "
        "It is taken as text: --seed 42 gives the draw of =SHUFFLE(r, 42) and of "
        '=SHUFFLE(r, 42.0) in Excel, --seed 42.0 that of =SHUFFLE(r, "42.0"). A seed that '
        "starts or ends with white space or holds a control character is refused (a copied "
        "seed carries them by accident, and they make another seed)",
    )
    p.add_argument(
        "--exact-seed",
        action="store_true",
        help="take --seed exactly as given, spaces and control characters included",
    )


def _whole(text: str, least: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < least:
        raise argparse.ArgumentTypeError(f"expected {least} or more, got {value}")
    return value


def whole_number(text: str) -> int:
    return _whole(text, 0)


def one_or_more(text: str) -> int:
    """A count whose 0 would deal nothing (empty hands, no deck): refused, not obeyed."""
    return _whole(text, 1)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """Return the parser of the ``xlshuffle`` command, with every installed subcommand, or
    with those of the module that adds ``command`` (a subcommand's name) alone."""
    parser = Parser(
        prog="xlshuffle",
        description="Fair, reproducible shuffles, deals and draws (draw protocol v1).",
        epilog="Without --seed a fresh seed is drawn and printed on stderr for replay. A "
        "--seed is text: --seed 42 replays =SHUFFLE(r, 42) (and 42.0), --seed 42.0 replays "
        '=SHUFFLE(r, "42.0").',
    )
    parser.add_argument("--version", action="version", version=f"xlshuffle {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)

    for name, commands in _COMMANDS:
        if command is not None and command not in commands:
            continue
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            continue
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line and return its exit code (0 ok, 1 failure, 2 usage error)."""
    _tolerate_undecodable_names()
    try:
        argv = list(sys.argv[1:] if argv is None else argv)
        if any(token.startswith("--commitment") for token in argv):
            from .committed import as_committed_draw

            argv = as_committed_draw(argv)
        named = argv[0] if argv and any(argv[0] in names for _, names in _COMMANDS) else None
        args = parse_command(build_parser(named), argv)
        if args is None:
            return 2
        handler: Handler = args.func
        return handler(args)
    except SystemExit as exc:  # --help and --version
        return exc.code if isinstance(exc.code, int) else 0
    except (*_USAGE, ModuleNotFoundError, XlshuffleError, OSError, MemoryError) as exc:
        code = _exit_code(exc)
        if code is None:
            raise
        return code
    except KeyboardInterrupt:
        print("Error: interrupted", file=sys.stderr)
        return 130


def parse_command(
    parser: argparse.ArgumentParser, argv: Sequence[str] | None
) -> argparse.Namespace | None:
    """The parsed arguments, or None when no command was given (the help is printed)."""
    args, extra = parser.parse_known_args(argv)
    if getattr(args, "func", None) is None:
        if extra:
            parser.error(f"unrecognized arguments: {' '.join(extra)}")
        parser.print_help(sys.stderr)
        return None
    if getattr(args, "extra_ok", False):  # commit: the committed draw's own options
        args.extra = extra
    elif extra:  # name the subcommand's help, where the options it takes are listed
        _subparser(parser, args.command).error(f"unrecognized arguments: {' '.join(extra)}")
    return args


def _exit_code(exc: BaseException) -> int | None:
    """Print the one line ``exc`` deserves and return the exit code, or None for an
    error that is a bug (to be raised with its traceback)."""
    if isinstance(exc, _USAGE):
        print(f"Error: {exc}", file=sys.stderr)
        return 2
    if isinstance(exc, ModuleNotFoundError):
        top = (exc.name or "").partition(".")[0]
        if top not in _EXTRAS:
            return None
        print(
            f"Error: this command needs {top}, which is not installed: "
            f"pip install 'xlshuffle[{_EXTRAS[top]}]' (from a checkout: "
            f"pip install '.[{_EXTRAS[top]}]')",
            file=sys.stderr,
        )
        return 1
    if isinstance(exc, BrokenPipeError):  # `xlshuffle lines big.txt | head`
        _silence_stdout()
        return 0
    if isinstance(exc, MemoryError):  # a cap on the address space (ulimit -v) meets a large input
        print(
            "Error: out of memory: this needs more than the process may use (see 'ulimit "
            "-v'): ask for less (a smaller input, fewer cards), or allow more memory",
            file=sys.stderr,
        )
        return 1
    print(f"Error: {_describe(exc)}", file=sys.stderr)
    return 1


def _tolerate_undecodable_names() -> None:
    """Let stdout print a file name that is not UTF-8 (``b"caf\\xe9.xlsx"``, held as a lone
    surrogate) as ``caf\\udce9.xlsx`` where its encoding is strict (a UTF-8 locale, or
    PYTHONIOENCODING), as stderr always does, instead of failing after the work is done."""
    if getattr(sys.stdout, "errors", None) == "strict" and hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="backslashreplace")


def _silence_stdout() -> None:
    import contextlib
    import os

    with contextlib.suppress(OSError, ValueError):  # stdout may be gone already
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def _subparser(parser: argparse.ArgumentParser, command: str) -> argparse.ArgumentParser:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            found: argparse.ArgumentParser = action.choices[command]
            return found
    return parser  # pragma: no cover - every command is a subcommand


# what exits 2: the command line (or an option a file cannot take) is at fault
_USAGE = (UsageError, SeedError, OptionError, SizeError)


def failure(exc: BaseException) -> dict[str, Any]:
    """The result of a file that could not be drawn: one line, and whether the fault is
    the command line's (exit 2) rather than the file's (exit 1)."""
    return {"ok": False, "error": _describe(exc), "usage": isinstance(exc, _USAGE)}


def _describe(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.filename is not None:
        reason = exc.strerror or str(exc)
        return f"{exc.filename}: {reason}"
    return str(exc)
