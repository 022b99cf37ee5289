"""The options a workbook refusal suggests, read from its message as the workbook functions'
keyword arguments, so that a test can draw with each of them."""

from __future__ import annotations

import re
import shlex

_OPTION = re.compile(
    r"--sheet (?:'[^']*'|\"'\"|[^\s,;()'\"])+|--(?:range|table|columns) [^\s,;()]+"
    r"|--(?:header|no-header|keep-blank-rows)\b"
)


def suggestions(message: str) -> list[dict[str, object]]:
    """The option sets a refusal names (options one space apart go together), as keyword
    arguments of the workbook functions."""
    groups: list[list[str]] = []
    end = -2
    for m in _OPTION.finditer(message):
        if m.start() == end + 1 and groups:
            groups[-1].append(m[0])
        else:
            groups.append([m[0]])
        end = m.end()
    keys = {"--range": "cells", "--table": "table", "--columns": "columns", "--sheet": "sheet"}
    out = []
    for group in groups:
        kwargs: dict[str, object] = {}
        for option in group:
            name, _, value = option.partition(" ")
            if name == "--sheet":
                kwargs["sheet"] = shlex.split(value)[0]  # quoted as a shell would take it
            elif name in keys:
                kwargs[keys[name]] = value
            elif name == "--keep-blank-rows":
                kwargs["keep_blank_rows"] = True
            else:
                kwargs["header"] = name == "--header"
        out.append(kwargs)
    return out
