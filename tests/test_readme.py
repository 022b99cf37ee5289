"""The README's Python examples run and print what the README says."""

from __future__ import annotations

import doctest
import re

from support import ROOT


def test_readme_python_examples() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.DOTALL)
    assert blocks, "the README should show the Python API"
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for k, block in enumerate(blocks):
        runner.run(parser.get_doctest(block, {}, f"README block {k + 1}", "README.md", 0))
    result = runner.summarize(verbose=False)
    assert result.attempted > 5
    assert result.failed == 0
