"""A griffe extension of the documentation site (mkdocs.yml): doctests in a docstring's prose
shown as code.

numpydoc puts examples under an ``Examples`` heading, and mkdocstrings shows those as code.
Many of xlshuffle's docstrings show a short session in their prose instead (a module's
overview, a one-paragraph function); Markdown would read its ``>>>`` as nested quotes and its
``[...]`` output as links. Here each such session, up to the blank line that ends it, is fenced
as a ``pycon`` block before the docstring is parsed. The sources are not changed.
"""

from __future__ import annotations

from typing import Any

import griffe


def fence(text: str) -> str:
    """``text`` with each run of lines that starts at a ``>>>`` line and ends before a blank
    line fenced, up to an ``Examples`` heading (numpydoc's own, shown as code already)."""
    lines = text.splitlines()
    out: list[str] = []
    fenced = False
    for n, line in enumerate(lines):
        if line.strip() == "Examples" and lines[n + 1 : n + 2] == ["--------"]:
            out += ["```"] if fenced else []
            return "\n".join(out + lines[n:])
        if fenced and not line.strip():
            out.append("```")
            fenced = False
        elif not fenced and line.startswith(">>>"):
            out.append("```pycon")
            fenced = True
        out.append(line)
    out += ["```"] if fenced else []
    return "\n".join(out)


class DoctestBlocks(griffe.Extension):
    def on_instance(self, *, node: Any, obj: griffe.Object, agent: Any, **kwargs: Any) -> None:
        if obj.docstring is not None and ">>>" in obj.docstring.value:
            obj.docstring.value = fence(obj.docstring.value)
