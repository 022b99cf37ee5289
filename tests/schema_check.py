"""docs/record.schema.json as the tests check records against it: :func:`errors` lists
what a record breaks (empty when it validates)."""

from __future__ import annotations

import json
from typing import Any

import jsonschema

from support import ROOT

SCHEMA = json.loads((ROOT / "docs" / "record.schema.json").read_text(encoding="utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def errors(data: Any) -> list[str]:
    return [
        f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in VALIDATOR.iter_errors(data)
    ]
