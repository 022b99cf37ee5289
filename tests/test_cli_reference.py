"""docs/reference/cli.md is what tools/make_cli_reference.py writes from the parser now, so
the command-line reference cannot drift from the command line."""

from __future__ import annotations

import argparse
import importlib.util
import re
from typing import Any

from xlshuffle.cli import build_parser

from support import ROOT

PAGE = ROOT / "docs" / "reference" / "cli.md"


def _tool() -> Any:
    spec = importlib.util.spec_from_file_location(
        "make_cli_reference", ROOT / "tools" / "make_cli_reference.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_page_is_what_the_tool_writes() -> None:
    assert PAGE.read_text(encoding="utf-8") == _tool().render(), (
        "docs/reference/cli.md is stale: run python tools/make_cli_reference.py and commit it"
    )


def test_every_command_and_option_is_on_the_page() -> None:
    """Every option that ``xlshuffle COMMAND --help`` prints (argparse's own formatter, not
    the tool's walk) is in that command's section of the page."""
    text = PAGE.read_text(encoding="utf-8")
    commands = _commands(build_parser())
    assert re.findall(r"^- \[`([a-z]+)`\]", text, flags=re.MULTILINE) == list(commands)
    for command, sub in commands.items():
        start = text.index(f"### `xlshuffle {command}`")
        end = text.find("\n### ", start + 1)
        section = text[start : end if end > 0 else len(text)]
        help_lines = sub.format_help()
        options = set(re.findall(r"^ +(?:-\w(?: \S+)?, )?(--[a-z][\w-]*)", help_lines, re.M))
        missing = {o for o in options if f"`{o}" not in section and f", {o}" not in section}
        assert not missing, (command, missing)


def _commands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    raise AssertionError("the parser has no subcommands")


def test_each_command_is_added_by_the_module_the_table_names() -> None:
    """main() builds the parser of the named command's module alone: the table of which
    module adds which command is what each module's ``register`` adds, and a parser built
    for one command parses it as the whole parser does."""
    import xlshuffle.cli as cli

    listed = [name for _, names in cli._COMMANDS for name in names]
    assert sorted(listed) == sorted(_commands(build_parser()))
    for module, names in cli._COMMANDS:
        parser = cli.Parser(prog="xlshuffle")
        sub = parser.add_subparsers(dest="command", parser_class=cli.Parser)
        importlib.import_module(module).register(sub)
        assert sorted(sub.choices) == sorted(names), module
        for name in names:
            assert _commands(build_parser(name)).keys() == set(names)
    whole = build_parser().parse_args(["shuffle", "in.xlsx", "--seed", "7", "-o", "out.xlsx"])
    alone = build_parser("shuffle").parse_args(
        ["shuffle", "in.xlsx", "--seed", "7", "-o", "out.xlsx"]
    )
    assert vars(whole) == vars(alone)
