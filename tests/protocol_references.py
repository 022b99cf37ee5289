"""The draw protocol's independent references, for the tests that check xlshuffle against them.

- :data:`VECTORS`: the known answers of tests/vectors/draw-v1.json (written by
  tools/make_vectors.py), with :func:`decode_seed` for their seeds;
- :func:`reference_blocks` / :func:`reference_namespace`: the python reference blocks of
  docs/draw-protocol.md, run in one namespace;
- :data:`MV`: tools/make_vectors.py itself, loaded as a module once it is checked never to
  import xlshuffle, with :func:`tenths` for the whole tickets it takes.

None of them imports xlshuffle: if xlshuffle disagrees with them, xlshuffle is wrong.
"""

from __future__ import annotations

import ast
import datetime as dt
import importlib.util
import json
import re
from decimal import Decimal
from types import ModuleType
from typing import Any

from support import ROOT

VECTORS: dict[str, Any] = json.loads(
    (ROOT / "tests" / "vectors" / "draw-v1.json").read_text(encoding="utf-8")
)


def decode_seed(spec: dict[str, Any]) -> object:
    kind, value = spec["type"], spec["value"]
    if kind == "date":
        return dt.date.fromisoformat(value)
    if kind == "datetime":
        return dt.datetime.fromisoformat(value)
    return value


def reference_blocks() -> list[str]:
    """The python blocks of docs/draw-protocol.md: steps 1-5, sections 8-12, 13-14, 15, 16,
    17, and the rules of sections 10-11 a caller asks for."""
    text = (ROOT / "docs" / "draw-protocol.md").read_text(encoding="utf-8")
    return re.findall(r"```python\n(.*?)```", text, flags=re.DOTALL)


def reference_namespace() -> dict[str, Any]:
    """Every reference block run, in order, in one namespace (later blocks use earlier ones)."""
    blocks = reference_blocks()
    # steps 1-5, sections 8-12, 13-14, 15, 16, 17, then sections 10-11's rules (one entry
    # per ID, small strata taken whole): one block per later addition
    assert len(blocks) >= 7, "docs/draw-protocol.md should hold its python reference blocks"
    namespace: dict[str, Any] = {}
    for number, block in enumerate(blocks, 1):
        exec(compile(block, f"draw-protocol.md block {number}", "exec"), namespace)
    return namespace


def _make_vectors() -> ModuleType:
    path = ROOT / "tools" / "make_vectors.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    names += [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    assert not [n for n in names if n.startswith("xlshuffle")], "the oracle must stay independent"
    spec = importlib.util.spec_from_file_location("make_vectors_oracle", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


MV = _make_vectors()


def tenths(values: list[Any]) -> list[int]:
    """Ticket counts with one decimal place as whole tenths (the oracle takes integers)."""
    return [int(Decimal(str(v)) * 10) for v in values]
