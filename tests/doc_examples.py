"""The examples of a documentation page as the tests run them: :func:`steps` reads its
console blocks, :func:`same` compares what a command printed with what the page shows."""

from __future__ import annotations

import re


def steps(text: str) -> list[tuple[str, list[str]]]:
    steps: list[tuple[str, list[str]]] = []
    for block in re.findall(r"```console\n(.*?)```", text, flags=re.DOTALL):
        for line in block.splitlines():
            if line.startswith("$ "):
                steps.append((line[2:], []))
            elif steps:
                steps[-1][1].append(line)
    return steps


def same(got: list[str], expected: list[str]) -> bool:
    """Line by line; a line the page ends with '...' matches any ending."""
    if len(got) != len(expected):
        return False
    return all(
        g.startswith(e[:-3]) if e.endswith("...") else g == e
        for g, e in zip(got, expected, strict=True)
    )
