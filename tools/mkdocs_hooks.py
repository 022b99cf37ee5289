"""MkDocs hooks of the documentation site (mkdocs.yml ``hooks:``).

The pages link files outside ``docs/`` the way GitHub shows them (``../workbooks/raffle.xlsx``,
``../verifier/index.html``): on the site such a link goes to the file in the repository. A
link to a file the repository does not hold fails the build, as a broken link between pages
does under ``--strict``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from mkdocs.exceptions import PluginError

OUTSIDE = re.compile(r"\]\((\.\./[^)\s#]+)(#[^)\s]*)?\)")


def on_page_markdown(markdown: str, *, page: Any, config: Any, files: Any) -> str:
    docs = Path(config["docs_dir"]).resolve()
    root = docs.parent
    base = (docs / page.file.src_path).parent
    blob = config["repo_url"].rstrip("/") + "/blob/main/"

    def to_repository(match: re.Match[str]) -> str:
        target = (base / match[1]).resolve()
        if not target.is_relative_to(root) or not target.exists():
            raise PluginError(
                f"{page.file.src_path}: the link {match[1]} names no file of the repository: "
                "fix the path or remove the link"
            )
        return f"]({blob}{target.relative_to(root).as_posix()}{match[2] or ''})"

    return OUTSIDE.sub(to_repository, markdown)
