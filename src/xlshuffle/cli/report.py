"""What the workbook subcommands print and write after the draws: one summary line per
file, a sample's CSV, ``--json`` records, and the ``--record`` file.

``--json`` prints one JSON document per file, each on one line: the record, or for a
``sample`` whose winners would go to stdout, ``{"record": ..., "winners": {"header":
[...], "rows": [[...], ...]}}`` (stdout then carries that document and nothing else)."""

from __future__ import annotations

import argparse
import csv
import io
import json
import re
import sys
from typing import Any, TextIO

from ..common.files import escape_undecodable, write_atomically
from ..common.request import DrawRequest
from ..filedraw.run import DrawResult
from .draws import draw_lines

__all__ = ["human_channel", "report", "write_record"]


def human_channel(args: argparse.Namespace, requests: list[DrawRequest]) -> TextIO:
    """Where the summary lines go: stderr when stdout carries JSON or a sample's CSV."""
    return sys.stderr if (args.json or csv_to_stdout(args, requests)) else sys.stdout


def csv_to_stdout(args: argparse.Namespace, requests: list[DrawRequest]) -> bool:
    return bool(
        args.command == "sample"
        and requests
        and requests[0].output.path is None
        and not args.in_place
    )


def report(
    args: argparse.Namespace, requests: list[DrawRequest], results: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Print each result (errors on stderr, a sample's CSV and ``--json`` records on
    stdout) and return the records of the draws that succeeded."""
    to_stdout = csv_to_stdout(args, requests) and not args.dry_run
    human = human_channel(args, requests)
    records = []
    for res in results:
        if not res["ok"]:
            print(f"Error: {res['error']}", file=sys.stderr)
            continue
        rec = res["record"]
        records.append(rec)
        print(summary_line(args.command, rec, args.dry_run), file=human)
        for line in [
            *draw_lines(rec),
            *(f"  {n}" for n in res.get("notes", ())),
            *balance_lines(rec),
        ]:
            print(line, file=human)
        exclusion = ((rec.get("target") or {}).get("draw") or {}).get("exclusion") or {}
        if exclusion.get("warning"):  # the record says it too; stderr, whatever else is printed
            print(f"Warning: {rec['input']}: --exclude: {exclusion['warning']}", file=sys.stderr)
        if not args.dry_run and res.get("unsaved", (0, None))[0]:
            print(unsaved_note(rec, *res["unsaved"]), file=sys.stderr)
        if args.json:
            doc = {"record": rec, "winners": winners_of(res)} if to_stdout else rec
            print(escape_undecodable(json.dumps(doc, ensure_ascii=False, separators=(",", ":"))))
        elif to_stdout:
            print_winners(res)
    return records


def unsaved_note(rec: dict[str, Any], count: int, first: str) -> str:
    """A sample's cells written empty: formulas without a saved value, which it copies
    as values (the draw itself is right; the winners' values are missing)."""
    cells = "1 cell was" if count == 1 else f"{count} cells were"
    return (
        f"{rec['input']}: {cells} written empty in {rec['output'] or 'stdout'}: formulas "
        f"without a saved value (a file written by a script), the first {first}: open and "
        f"save {rec['input']} in Excel or LibreOffice so its values are stored, then draw "
        "again"
    )


def outcome(request: DrawRequest, result: DrawResult, out: io.BytesIO) -> dict[str, Any]:
    """What :func:`report` needs of a draw that succeeded: its record, a workbook
    sample's table, the notes and the count of cells written empty, and a list's winners
    as written to ``out`` (to print on stdout, or inside ``--json``), when they had no
    file of their own."""
    done: dict[str, Any] = {"ok": True, "record": result.record, "notes": list(result.notes)}
    if result.table is not None:
        done["table"] = result.table
    if result.unsaved[0]:
        done["unsaved"] = result.unsaved
    if request.kind == "sample" and request.output.path is None and not request.output.dry_run:
        done["printed"] = out.getvalue()
    return done


def print_winners(res: dict[str, Any]) -> None:
    """A sample's winners on stdout: a workbook's as CSV, a list's records as they are."""
    if "table" in res:
        print_csv(res["table"])
    elif "printed" in res:
        sys.stdout.flush()
        sys.stdout.buffer.write(res["printed"])
        sys.stdout.buffer.flush()


def winners_of(res: dict[str, Any]) -> dict[str, Any]:
    """A sample's winners for ``--json``: the labels row (a list without a header has
    none: null) and the winners' rows in draw order. A workbook's numbers and booleans
    stay JSON numbers and booleans, other values are their text as the CSV shows them;
    a list's fields are its text."""
    from ..common.celltext import text_of

    if "table" in res:
        table = [[_json_value(v, text_of) for v in row] for row in res["table"]]
        return {"header": table[0], "rows": table[1:]}
    rec = res["record"]
    text = res.get("printed", b"").decode("utf-8-sig", "surrogateescape")
    delimiter = (rec.get("target") or {}).get("delimiter") or ","
    rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=False))
    header = rows.pop(0) if rec["header"] and rows else None
    return {"header": header, "rows": rows}


def _json_value(value: object, text_of: Any) -> object:
    if value is None or isinstance(value, (str, int, float)):
        return value
    return text_of(value)


def summary_line(command: str, rec: dict[str, Any], dry_run: bool) -> str:
    n = rec["rows"] - (1 if rec["header"] else 0)
    rows = f"{n} row{'' if n == 1 else 's'}"
    what = {
        "shuffle": f"{n} data row{'' if n == 1 else 's'} ({rec['mode']}) shuffled",
        "sample": f"{len(rec['permutation']) if _special(rec) else rec['k']} of {rows} drawn",
        "groups": f"{rows} put in {rec['k']} group{'' if rec['k'] == 1 else 's'}"
        + (f" of at most {rec['size']}" if rec.get("size") else ""),
    }[command]
    head = ", header kept" if rec["header"] else ""
    where = f"{what} in {rec['selection']}{head}, seed {rec['seed']}"
    if dry_run:
        return f"{rec['input']}: dry run, nothing written: {where}{rows_used(rec)}"
    target = rec["output"] or "stdout"
    backup = f" (backup {rec['backup']})" if rec["backup"] else ""
    return f"{rec['input']} -> {target}{backup}: {where}"


def balance_lines(rec: dict[str, Any]) -> list[str]:
    """Balanced teams' table: per team its size and each balancing value's count."""
    spec = (rec.get("target") or {}).get("balance")
    if not spec:
        return []
    heads = ["Team", "Size"]
    for name, counts in zip(spec["names"], spec["teams"][0]["counts"], strict=True):
        heads += [f"{name}={value or '(blank)'}" for value in counts]
    rows = [
        [str(t["team"]), str(t["size"]), *(str(x) for c in t["counts"] for x in c.values())]
        for t in spec["teams"]
    ]
    widths = [max(len(h), *(len(r[j]) for r in rows)) for j, h in enumerate(heads)]
    lines = [
        "  " + "  ".join(cell.rjust(w) for cell, w in zip(row, widths, strict=True))
        for row in [heads, *rows]
    ]
    avoided = spec.get("avoid")
    if avoided:
        again = avoided["repeats"]
        lines.append(
            f"  pairs together again from {avoided['file']}: {again}"
            + (" (the fewest of the candidates drawn)" if again else "")
        )
    return lines


def _special(rec: dict[str, Any]) -> bool:
    """Whether the record is of a raffle or an audit (its rows are not simply k)."""
    return bool((rec.get("target") or {}).get("draw"))


def rows_used(rec: dict[str, Any]) -> str:
    """``; header row 4, data rows 5-12; left out: rows 1-2 (title)``, for a dry run."""

    target = rec.get("target") or {}
    m = re.fullmatch(r"[A-Z]+(\d+)(?::[A-Z]+(\d+))?", str(target.get("ref") or ""))
    if m is None:
        return ""
    top, bottom = int(m[1]), int(m[2] or m[1])
    first = top + 1 if rec["header"] else top
    parts = [f"header row {top}"] if rec["header"] else []
    parts.append(
        "no data rows"
        if bottom < first
        else f"data row {first}"
        if bottom == first
        else f"data rows {first}-{bottom}"
    )
    text = "; " + ", ".join(parts)
    left_out = [
        f"row{'s' * ('-' in e['rows'])} {e['rows']} ({e['why']})"
        for e in target.get("excluded") or []
    ]
    kept = ", ".join(target.get("kept") or [])  # --keep-blank-rows
    return (
        text
        + (f"; left out: {', '.join(left_out)}" if left_out else "")
        + (f"; blank rows kept in place: {kept}" if kept else "")
    )


def print_csv(table: list[list[object]]) -> None:
    from ..common.celltext import text_of
    from ..tabledraw.winners import csv_text

    sys.stdout.write(csv_text([[text_of(v) for v in row] for row in table]))
    sys.stdout.flush()


def record_text(data: dict[str, Any] | list[dict[str, Any]]) -> str:
    """Indented JSON, with each permutation kept on one line (it can be a million long)."""
    items = data if isinstance(data, list) else [data]
    texts = []
    for rec in items:
        shown = dict(rec, permutation="\x00PERM\x00")
        text = json.dumps(shown, ensure_ascii=False, indent=2)
        perm = json.dumps(rec["permutation"], separators=(",", ":"))
        texts.append(text.replace('"\\u0000PERM\\u0000"', perm))
    if isinstance(data, list):
        return "[\n" + ",\n".join(texts) + "\n]\n"
    return texts[0] + "\n"


def write_record(path: str, data: dict[str, Any] | list[dict[str, Any]]) -> None:
    write_atomically(path, escape_undecodable(record_text(data)).encode("utf-8"))
