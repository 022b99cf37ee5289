"""A draw's certificate: one self-contained page to publish or print (``xlshuffle
certificate``), the result of a draw and of its rounds, and how anyone checks it.

The page is built from the record (and the records of the rounds before it), with the
draw done again from its input as ``verify`` does it, so a certificate never shows what the
records do not hold: the list's SHA-256, the seed and where it came from (a commitment's
hash, the public source and the revealed values), every winner and reserve by prize, every
substitution with its reason, and the commands and the page that check it. It loads
nothing: no script, no font, no picture; its print styles make a PDF of it the browser's
print.
"""

from __future__ import annotations

import html
import json
import os
from typing import Any

from ..draw.errors import OptionError
from ..draw.raffle import RESERVE, WINNER
from ..tabledraw.rounds import REPLACED, Placed, Standing
from .rounds import standing

__all__ = ["certificate", "check_title"]

_STYLE = """
body { font: 16px/1.45 system-ui, sans-serif; max-width: 52rem; margin: 2rem auto;
  padding: 0 1rem; color: #111; }
h1 { font-size: 1.7rem; margin-bottom: .2rem; } h2 { font-size: 1.2rem; margin-top: 1.8rem; }
table { border-collapse: collapse; width: 100%; } th, td { text-align: left;
  padding: .3rem .5rem; border-bottom: 1px solid #ccc; vertical-align: top; }
code, .hash { font-family: ui-monospace, monospace; font-size: .9em; word-break: break-all; }
.replaced td { color: #666; text-decoration: line-through; } .note { color: #444; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; }
dt { font-weight: 600; } dd { margin: 0; }
@media print { body { margin: 0; max-width: none; } h2 { break-after: avoid; }
  tr { break-inside: avoid; } }
"""


def _e(value: object) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def certificate(record_path: str, src: str, *, title: str | None = None) -> str:
    """The certificate page (HTML text) of the record at ``record_path`` (a sample's, or
    the last round's), its draw done again from ``src`` (the list it read).

    Raises
    ------
    XlshuffleError
        A record that is not a sample of a list with an ID column, a chain that does not
        hold, an input that is not the recorded one.
    """
    with open(record_path, encoding="utf-8") as fh:
        record = json.load(fh)
    now = standing(record, record_path, src)
    chain = _chain(record, record_path)
    draw = chain[0]
    name = title or f"Draw of {os.path.basename(str(draw.get('input', '')))}"
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(name)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{_e(name)}</h1>",
        f"<p>Drawn {_e(draw.get('time_utc'))} (UTC) by xlshuffle {_e(draw.get('tool_version'))}"
        f" under {_e(draw.get('protocol'))}.</p>",
        _facts(draw),
        _results(now),
        _rounds(chain[1:]),
        _checking(record_path, draw),
        "</body></html>",
    ]
    return "\n".join(p for p in parts if p) + "\n"


def _chain(record: dict[str, Any], where: str) -> list[dict[str, Any]]:
    """The draw's record first, then each round's (checked by :func:`standing` already)."""
    out = [record]
    path = where
    while out[0].get("command") == "redraw":
        link = out[0]["previous"]
        path = os.path.join(os.path.dirname(path), os.path.basename(str(link["file"])))
        with open(path, encoding="utf-8") as fh:
            out.insert(0, json.load(fh))
    return out


def _facts(draw: dict[str, Any]) -> str:
    rows = [
        (
            "List",
            f"{_e(os.path.basename(str(draw.get('input'))))}, "
            f"{_e(sum(p['size'] for p in draw['target']['draw']['parts']))} entrants",
        ),
        ("List SHA-256", f'<span class="hash">{_e(draw.get("input_sha256"))}</span>'),
        ("Seed", f"<code>{_e(draw.get('seed'))}</code>"),
        ("Method", _e(draw["target"]["draw"].get("method"))),
    ]
    committed = draw.get("commitment")
    if isinstance(committed, dict):
        body = committed.get("body") or {}
        rows[2:2] = [
            ("Commitment", f'<span class="hash">{_e(committed.get("sha256"))}</span>'),
            ("Public source", _e(body.get("beacon"))),
            ("Revealed", _e(" / ".join(map(str, draw.get("reveal") or [])))),
        ]
    items = "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in rows)
    return f"<h2>The draw</h2><dl>{items}</dl>"


def _by_prize(now: Standing) -> list[Placed]:
    """The drawn entrants prize by prize (in the table's order): the winners by place, the
    winners replaced, then the reserves by rank."""
    prizes: dict[str | None, int] = {}
    for p in now.placed:
        prizes.setdefault(p.prize, len(prizes))
    roles = {WINNER: 0, REPLACED: 1, RESERVE: 2}
    return sorted(now.placed, key=lambda p: (prizes[p.prize], roles.get(p.role, 3), p.place))


def _results(now: Standing) -> str:
    head = (["Prize"] if now.prizes else []) + ["Place", "Role", "ID", "Note"]
    lines = []
    for p in _by_prize(now):
        cells = ([_e(p.prize)] if now.prizes else []) + [_e(p.place), _e(p.role), _e(p.id)]
        cells.append(f'<span class="note">{_e(p.note)}</span>')
        css = ' class="replaced"' if p.role == REPLACED else ""
        lines.append(f"<tr{css}>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    header = "".join(f"<th>{h}</th>" for h in head)
    return (
        "<h2>Winners and reserves</h2><p>Prize by prize, in the order they were drawn: the "
        "winners by place, any winner replaced (struck through, with the reason), then the "
        "reserves by rank.</p><table><thead><tr>"
        + header
        + "</tr></thead><tbody>"
        + "".join(lines)
        + "</tbody></table>"
    )


def _rounds(rounds: list[dict[str, Any]]) -> str:
    if not rounds:
        return ""
    items = []
    for n, r in enumerate(rounds, 1):
        given = r["given_to"]
        how = _fresh(r) if r.get("fresh") is not None else f"reserve {_e(given['reserve'])}"
        items.append(
            f"<li>Round {n} ({_e(r.get('time_utc'))}): {_e(r['replace']['id'])} replaced "
            f"&mdash; {_e(r['reason'])}. The place went to {_e(given['id'])}, {how}. Record "
            "SHA-256 of the one before: "
            f'<span class="hash">{_e(r["previous"]["sha256"])}</span></li>'
        )
    return "<h2>Substitutions</h2><ol>" + "".join(items) + "</ol>"


def _fresh(r: dict[str, Any]) -> str:
    """How a fresh round drew its entrant (protocol section 19): from how many, with which
    commitment, public source, revealed value and seed."""
    fresh = r["fresh"]
    body = fresh["commitment"]["body"]
    return (
        f"drawn afresh from the {_e(r['given_to']['pool'])} entrants not yet drawn, with the "
        "round's commitment "
        f'<span class="hash">{_e(fresh["commitment"]["sha256"])}</span> (published before '
        f"the draw; public source: {_e(body.get('beacon'))}; revealed: "
        f"{_e(' / '.join(map(str, fresh.get('reveal') or [])))}; seed "
        f"<code>{_e(fresh.get('seed'))}</code>)"
    )


def _checking(record_path: str, draw: dict[str, Any]) -> str:
    name = os.path.basename(record_path)
    src = os.path.basename(str(draw.get("input")))
    return (
        "<h2>How to check this draw</h2><ol>"
        f"<li>Get the list <code>{_e(src)}</code> and check its SHA-256 against the one above "
        "(<code>sha256sum</code>, or the verifier page).</li>"
        f"<li>Run <code>xlshuffle verify {_e(name)} --input {_e(src)}</code>: it draws "
        "again from the seed and checks every record of the chain.</li>"
        "<li>Or open xlshuffle's verifier page (<code>verifier/index.html</code>, from disk, "
        "no network) and give it the record and the list.</li>"
        "<li>Entrants: on the verifier page, type your ID to see your place, or your ticket "
        "in a ticket draw.</li></ol>"
    )


def check_title(title: str | None) -> None:
    """Refuse a title with a line break (it is the page's heading)."""
    if title is not None and ("\n" in title or "\r" in title):
        raise OptionError("--title: give one line")
