"""What a commitment pins of the files beyond the list that a draw reads (``--exclude``,
``--strata-counts``, ``--avoid``; protocol section 17), and finding them again.

For each side file the commitment's ``inputs`` hold its option, base name, SHA-256 and what
the draw took from it as its record states it (:func:`pins`): a record that states anything
else is not the committed draw (:func:`pin_problems`). A committed draw reads again the
files whose content the commitment holds only by digest (:func:`side_files`); the strata
counts it holds themselves.
"""

from __future__ import annotations

import hashlib
import os
from typing import Any

from ..common.request import DrawRequest, SideFile
from ..draw.commit import canonical_json
from ..draw.errors import ListError

__all__ = ["missing_side_files", "pin_problems", "pins", "side_files"]

# the side files a committed draw reads again: the canonical request holds only their names
_READ_AGAIN = ("--exclude", "--avoid")


def pins(request: DrawRequest, record: dict[str, Any]) -> list[dict[str, Any]]:
    """What the commitment pins of each side file of ``request``: its option, base name,
    SHA-256, and what the draw (its dry run's ``record``) took from it."""
    return [
        {"option": f.option, "file": f.name, "sha256": f.sha256, "holds": _holds(f, record)}
        for f in request.side_files
    ]


def _holds(side: SideFile, record: dict[str, Any]) -> dict[str, Any]:
    target = record.get("target") or {}
    spec = target.get("draw") or {}
    if side.option == "--exclude":
        exclusion = spec.get("exclusion") or {}
        return {"ids": exclusion.get("ids"), "digest": exclusion.get("digest")}
    if side.option == "--strata-counts":
        return {"counts": (spec.get("allocation") or {}).get("counts")}
    if side.option == "--prizes":
        return {"prizes": spec.get("prizes")}
    avoid = (target.get("balance") or {}).get("avoid") or {}
    return {"before_sha256": hashlib.sha256(canonical_json(avoid.get("before"))).hexdigest()}


def pin_problems(body: dict[str, Any], record: dict[str, Any]) -> list[str]:
    """Where ``record`` took from a side file something else than the commitment pinned
    (empty when each agrees)."""
    problems = []
    for pin in body.get("inputs") or []:
        side = SideFile(pin["option"], str(pin["file"]), str(pin["sha256"]))
        got = _holds(side, record)
        if got != pin["holds"]:
            problems.append(
                f"{pin['option']} {pin['file']}: the draw took {_show(got)} from it, the "
                f"commitment pinned {_show(pin['holds'])}"
            )
    return problems


def _show(holds: dict[str, Any]) -> str:
    return ", ".join(
        f"{k} {str(v)[:16] if k.endswith(('digest', 'sha256')) else v}" for k, v in holds.items()
    )


def side_files(
    body: dict[str, Any], where: str, given: dict[str, str] | None = None
) -> tuple[SideFile, ...]:
    """The committed side files the draw reads again, found by name beside the commitment
    file ``where`` (or in the current folder, or at the path ``given`` names for the
    option), each refused unless its bytes are the committed ones. The strata counts and
    the prize table are not among them: the canonical request holds them itself."""
    out = []
    for pin in body.get("inputs") or []:
        option, name = pin["option"], os.path.basename(str(pin["file"]))
        if option not in _READ_AGAIN:
            continue
        path = _find(name, where, (given or {}).get(option))
        if path is None:
            raise ListError(
                f"{option} {name}: the committed draw reads this file, which is neither beside "
                f"{where} nor here: put it there, or name it with {option} PATH"
            )
        side = SideFile.read(option, path)
        if side.sha256 != pin["sha256"]:
            raise ListError(
                f"{path}: not the file the commitment pinned for {option} (its SHA-256 is "
                f"{side.sha256[:16]}..., the commitment's {str(pin['sha256'])[:16]}...): it "
                "changed after the commitment; draw with the file as it was committed"
            )
        out.append(side)
    return tuple(out)


def missing_side_files(
    body: dict[str, Any], where: str, given: dict[str, str] | None = None
) -> list[str]:
    """The side files the committed draw reads again that are neither beside ``where``,
    nor here, nor given (as ``--exclude april.txt``)."""
    return [
        f"{pin['option']} {os.path.basename(str(pin['file']))}"
        for pin in body.get("inputs") or []
        if pin["option"] in _READ_AGAIN
        and _find(os.path.basename(str(pin["file"])), where, (given or {}).get(pin["option"]))
        is None
    ]


def _find(name: str, where: str, given: str | None) -> str | None:
    if given is not None:
        return given
    for folder in (os.path.dirname(where), os.curdir):
        if os.path.isfile(os.path.join(folder, name)):
            return os.path.join(folder, name)
    return None
