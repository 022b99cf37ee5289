"""Write docs/reference/cli.md, the command-line reference, from the parser itself.

Every subcommand of ``xlshuffle`` (and the subcommands of ``plan``, ``evaluate`` and
``extension``) gets a section: its one-line help, its description, a synopsis, and a table
of its arguments by group (as ``--help`` groups them) with each one's help and default.
``tests/test_cli_reference.py`` holds the committed page equal to what this writes, so the
page cannot drift from the parser: change an option's help, run this tool, commit both.

The page is written from the parser's actions, not from argparse's formatted help, whose
line wrapping follows the terminal and whose layout changes between Python versions.

    python tools/make_cli_reference.py          # write docs/reference/cli.md
    python tools/make_cli_reference.py --check  # exit 1 if it is stale
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path

from xlshuffle.cli import build_parser

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "reference" / "cli.md"

HEAD = """\
# Command line

<!-- Written by tools/make_cli_reference.py from xlshuffle's parser: do not edit by hand. -->

Every command of `xlshuffle`, with every option, as the parser defines them: this page is
written from the parser by `tools/make_cli_reference.py`, and a test holds it equal, so it
says what `xlshuffle COMMAND --help` says. The guides show the commands at work.

Exit codes: 0 done, 1 a failure (one `Error: ...` line on stderr naming the file, cell or
option and how to fix it), 2 a usage error (one line naming the help to read).
"""


def _subcommands(
    parser: argparse.ArgumentParser,
) -> Iterator[tuple[str, str, argparse.ArgumentParser]]:
    """(name, one-line help, parser) of each subcommand of ``parser``, in --help's order."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {choice.dest: choice.help or "" for choice in action._choices_actions}
            for name, sub in action.choices.items():
                yield name, helps.get(name, ""), sub


def _cell(text: str) -> str:
    """Text for a Markdown table cell: one line, its pipes escaped."""
    return " ".join(text.split()).replace("|", "\\|")


def _metavar(action: argparse.Action) -> str:
    if action.metavar is not None:
        return action.metavar if isinstance(action.metavar, str) else " ".join(action.metavar)
    if action.choices is not None and not isinstance(action, argparse._SubParsersAction):
        return "{" + ",".join(str(c) for c in action.choices) + "}"
    return action.dest.upper() if action.option_strings else action.dest


def _shape(action: argparse.Action) -> str:
    """The argument as the user writes it: ``--id COL``, ``-k K``, ``IN [IN ...]``."""
    if action.nargs == 0:
        value = ""
    else:
        name = _metavar(action)
        value = {
            None: name,
            "?": f"[{name}]",
            "*": f"[{name} ...]",
            "+": f"{name} [{name} ...]",
        }.get(action.nargs, name)  # type: ignore[call-overload]
        if isinstance(action.nargs, int):
            value = " ".join([name] * action.nargs)
    if not action.option_strings:
        return value
    return ", ".join(f"{option} {value}".strip() for option in action.option_strings)


def _help(action: argparse.Action, prog: str) -> str:
    text = action.help or ""
    if "%" in text:
        text = text % {**vars(action), "prog": prog}
    default = action.default
    shown = default not in (None, False, argparse.SUPPRESS, [], "") and not isinstance(
        action, (argparse._StoreTrueAction, argparse._VersionAction, argparse._HelpAction)
    )
    if shown and "default" not in text:
        text += f" (default: `{default}`)"
    if action.required and action.option_strings:
        text += " (required)"
    return text


def _synopsis(parser: argparse.ArgumentParser) -> str:
    words = [parser.prog]
    for action in parser._actions:
        if not action.option_strings and not isinstance(action, argparse._SubParsersAction):
            words.append(_shape(action))
        elif isinstance(action, argparse._SubParsersAction):
            words.append("COMMAND ...")
    if any(a.option_strings and a.help != argparse.SUPPRESS for a in parser._actions):
        words.append("[options]")
    return " ".join(words)


def _tables(parser: argparse.ArgumentParser) -> list[str]:
    lines: list[str] = []
    for group in parser._action_groups:
        shown = [
            a
            for a in group._group_actions
            if a.help != argparse.SUPPRESS and not isinstance(a, argparse._SubParsersAction)
        ]
        if not shown:
            continue
        lines += ["", f"*{group.title}*", ""]
        if group.description:
            lines += [_cell(group.description), ""]
        lines += ["| argument | what it does |", "| --- | --- |"]
        for action in shown:
            shape = _shape(action).replace("|", "\\|")
            lines.append(f"| `{shape}` | {_cell(_help(action, parser.prog))} |")
    return lines


def _section(name: str, summary: str, parser: argparse.ArgumentParser, depth: int) -> list[str]:
    lines = ["", f"{'#' * depth} `{parser.prog}`", ""]
    if summary:
        lines += [_cell(summary[0].upper() + summary[1:]) + ".", ""]
    if parser.description and parser.description.strip() != summary.strip():
        lines += [_cell(parser.description), ""]
    lines += ["```text", _synopsis(parser), "```"]
    lines += _tables(parser)
    if parser.epilog:
        lines += ["", _cell(parser.epilog)]
    for sub_name, sub_summary, sub in _subcommands(parser):
        lines += _section(sub_name, sub_summary, sub, depth + 1)
    return lines


def render() -> str:
    parser = build_parser()
    lines = [HEAD.rstrip("\n"), "", "## Commands", ""]
    for name, summary, _ in _subcommands(parser):
        anchor = f"xlshuffle-{name}"
        lines.append(f"- [`{name}`](#{anchor}): {_cell(summary)}")
    lines += ["", "## `xlshuffle`", "", _cell(parser.description or ""), ""]
    lines += ["```text", "xlshuffle COMMAND ... [options]", "```"]
    lines += _tables(parser)
    if parser.epilog:
        lines += ["", _cell(parser.epilog)]
    for name, summary, sub in _subcommands(parser):
        lines += _section(name, summary, sub, 3)
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the page is stale")
    args = parser.parse_args(argv)
    text = render()
    if args.check:
        if PAGE.read_text(encoding="utf-8") != text:
            print(f"{PAGE.relative_to(ROOT)} is stale: run python tools/make_cli_reference.py")
            return 1
        return 0
    PAGE.parent.mkdir(parents=True, exist_ok=True)
    PAGE.write_text(text, encoding="utf-8", newline="\n")
    print(f"wrote {PAGE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
