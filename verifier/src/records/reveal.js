/**
 * The live reveal of a committed draw (verifier/reveal.html): the commitment, the list and
 * the revealed values checked as the verifier checks them (section 17: the commitment hash,
 * the list digest, the seed of step 4), then the committed sample drawn from them, its
 * winners and reserves in draw order, each with its prize, place, role and ID. Nothing here
 * depends on time or on the person at the keyboard: the result is fixed before it is shown.
 */

import { commitSeed, commitmentHash, listDigest, revealedValue } from "../protocol/commit.js";
import { canonicalId, exclusionDigest } from "../protocol/exclusions.js";
import { pyStrip, range } from "../protocol/python.js";
import { deal } from "../protocol/shuffles.js";
import { PROTOCOL } from "../protocol/stream.js";
import { cellKey, columnLetters } from "../read/a1.js";
import { textRows } from "../read/celltexts.js";
import { baseName, decodeText } from "../read/files.js";
import { parseList, sniffDelimiter } from "../read/lists.js";
import { plain } from "../read/values.js";
import { openWorkbook } from "../read/workbook.js";
import { isZip } from "../read/zip.js";
import { drawPlan } from "./drawplan.js";
import { committedBody } from "./committed.js";
import { excludedIds } from "./exclusion.js";
import { loadFiles } from "./matching.js";
import { selectionOf } from "./moves.js";
import { targetOfSelection } from "./selection.js";
import { Verdict, fail } from "./verdict.js";

/** The request's methods the reveal draws, and the record's name of each. */
const METHODS = { random: "random", ticket: "ticket", rivest: "rivest" };

/** The revealed values: a text is one value, or several separated by "/" (as Excel's log). */
function valuesOf(reveal) {
  const values = Array.isArray(reveal) ? reveal.map(String) : String(reveal ?? "").split("/");
  if (!values.some((v) => pyStrip(v) !== "")) fail("no revealed value was given");
  return values;
}

/** The commitment's body, hash and (given a draw's record) the record, from its text. */
async function commitmentOf(text) {
  let value;
  try {
    value = JSON.parse(String(text ?? ""));
  } catch (e) {
    fail(`the commitment is not JSON (${e.message})`);
  }
  const c = committedBody(value);
  if (!c) fail("the text is no commitment (give commitment.json, or the draw's record)");
  if (c.body.protocol !== PROTOCOL || c.body.commitment_version !== 2)
    fail(
      `a commitment of version ${JSON.stringify(c.body.commitment_version)} (${c.body.protocol}): the reveal page draws version 2 commitments of ${PROTOCOL} (xlshuffle commit)`,
    );
  const hash = await commitmentHash(c.body);
  if (c.sha256 !== null && hash !== c.sha256)
    fail(
      `the commitment was changed since it was made: it hashes to ${hash}, it names ${c.sha256}`,
    );
  return { ...c, hash };
}

/**
 * The committed list among the files: its rows as the digest takes them ({head, data}: rows
 * of texts), and textOf(i, column), labels and letters for the draw. With `keepBlank`
 * (--keep-blank-rows, a workbook's), the blank rows stay in place and are no entrants: the
 * data are the other rows, numbered 0..m-1 as the draw numbers its entrants.
 */
async function readList(body, file, keepBlank = false) {
  if (isZip(file.bytes)) {
    const target = targetOfSelection(String(body.list.selection || ""));
    if (!target)
      fail(
        `the commitment's selection ${JSON.stringify(body.list.selection)} is not one this page reads`,
      );
    const sel = selectionOf({ target });
    const head = body.list.header ? 1 : 0;
    const book = await openWorkbook(file.bytes);
    if (!book.sheets.includes(body.list.sheet))
      fail(`${file.name} has no sheet ${JSON.stringify(body.list.sheet)}, the committed list's`);
    const [sheet, texts] = [await book.cells(body.list.sheet), await book.texts(body.list.sheet)];
    const valued = (r) =>
      sel.columns.some((c) => plain(sheet.cells.get(cellKey(r, c))) !== undefined);
    const rows = range(sel.r2 - sel.r1 + 1 - head)
      .map((i) => sel.r1 + head + i)
      .filter((r) => !keepBlank || valued(r));
    const headRows = textRows(texts, head ? [sel.r1] : [], sel.columns);
    return {
      head: headRows,
      data: textRows(texts, rows, sel.columns),
      textOf: (i, c) => {
        const v = plain(sheet.cells.get(cellKey(rows[i], sel.columns[c])));
        return v === undefined ? "" : v.slice(2);
      },
      labels: head ? sel.columns.map((_, j) => headRows[0][j] ?? "") : null,
      letters: sel.columns.map(columnLetters),
    };
  }
  const text = decodeText(file.bytes).replace(/^\ufeff/, "");
  const records = parseList(text, sniffDelimiter(file.name, text));
  while (records.length && records[records.length - 1].raw === "") records.pop(); // blank lines at the end
  const trim = (cells) => {
    const out = cells.slice();
    while (out.length && out[out.length - 1] === "") out.pop();
    return out;
  };
  const head = body.list.header ? 1 : 0;
  const data = records.slice(head);
  const width = Math.max(0, ...records.map((r) => r.cells.length));
  return {
    head: records.slice(0, head).map((r) => trim(r.cells)),
    data: data.map((r) => trim(r.cells)),
    textOf: (i, c) => data[i].cells[c] ?? "",
    labels: head ? records[0].cells : null,
    letters: range(width).map((j) => columnLetters(j + 1)),
  };
}

/** The column a committed option names, by header text or letters, as xlshuffle finds it. */
function findColumn(list, given, option) {
  const text = pyStrip(String(given));
  if (list.labels) {
    const found = list.labels.flatMap((label, j) => (pyStrip(label) === text ? [j] : []));
    if (found.length > 1) fail(`${option} ${given}: ${found.length} columns have this header`);
    if (found.length) return { column: given, index: found[0] };
  }
  const j = list.letters.indexOf(text.toUpperCase());
  if (j < 0) fail(`${option} ${given}: the committed list has no such column`);
  return { column: given, index: j };
}

/**
 * Section 10 for a committed --exclude: the exclusion list the commitment pinned, found among
 * the files by its SHA-256, read as `sample --exclude` reads it, its digest checked against
 * the pin; the record's exclusion ({column, index, digest, ids, rows}) on this list.
 */
async function exclusionOf(body, w, loaded, list, idColumn) {
  const pin = (body.inputs || []).find((p) => p && p.option === "--exclude");
  if (!pin)
    fail("the committed draw leaves out an exclusion list that the commitment does not pin");
  const file = loaded.find((f) => f.sha === pin.sha256);
  if (!file) {
    const named = loaded.find((f) => f.name === baseName(pin.file));
    fail(
      named
        ? `${named.name} is not the exclusion list the commitment pinned: its SHA-256 is ${named.sha}, the pin's ${pin.sha256}`
        : `give the exclusion list the commitment pinned, ${baseName(pin.file)} (SHA-256 ${pin.sha256})`,
    );
  }
  if (!idColumn) fail("the committed draw leaves out IDs but names no ID column (--id)");
  const ids = excludedIds(file, w.id);
  const digest = await exclusionDigest(ids);
  if (pin.holds && pin.holds.digest !== undefined && pin.holds.digest !== digest)
    fail(
      `${file.name} has the exclusion digest ${digest}, the commitment's pin ${pin.holds.digest}`,
    );
  const out = new Set(ids.map(canonicalId).filter((t) => t !== ""));
  const rows = range(list.data.length).filter((i) =>
    out.has(canonicalId(list.textOf(i, idColumn.index))),
  );
  return { column: idColumn.column, index: idColumn.index, digest, ids: out.size, rows };
}

/** The record's target.draw that the committed request `w` asks for, on this list. */
function drawOf(w, list) {
  if (!(w.method in METHODS) || (w.amount !== null && w.amount !== undefined))
    fail(
      `the committed draw is by --method ${w.method}, an audit's selection: the reveal page shows the winners of a raffle or a ticket draw`,
    );
  const column = (name, option) =>
    w[name] === null || w[name] === undefined ? null : findColumn(list, w[name], option);
  const d = {
    method:
      w.method === "random" && (w.weights || w.one_entry_per_id) ? "weighted" : METHODS[w.method],
    k: w.k ?? null,
    reserves: w.reserves || 0,
    weights: column("weights", "--weights"),
    strata: column("strata", "--strata"),
    id: column("id", "--id"),
    amount: null,
    exclusion: null,
    allocation:
      w.total !== null && w.total !== undefined
        ? { total: w.total }
        : w.counts
          ? { counts: w.counts }
          : null,
  };
  if (w.one_entry_per_id === true) d.one_entry_per_id = true;
  if (w.all_of_small_strata === true) d.all_of_small_strata = true;
  if (w.rate !== undefined && w.rate !== null) d.rate = w.rate;
  if (w.weight_scale !== undefined && w.weight_scale !== null) d.weight_scale = w.weight_scale;
  if (w.prizes !== undefined && w.prizes !== null)
    d.prizes = w.prizes.map(([prize, count, reserves]) => ({ prize, count, reserves }));
  return d;
}

/**
 * Check the commitment, the list and the revealed values, and draw the committed sample:
 * {ok, message, winners: [{prize, place, role, id}] in draw order (with `stratum` when the
 * draw has strata), shown: what the screen keeps in view, rows: each one's data row, list}.
 * Any mismatch: ok false, one line, and no winner at all.
 */
export async function prepareReveal({ commitment, files = [], reveal } = {}) {
  try {
    return await prepared(commitment, files, reveal);
  } catch (e) {
    const why = e instanceof Verdict ? e.message : String(e && e.message ? e.message : e);
    return { ok: false, message: `Refused: ${why}. Nothing is revealed.`, winners: [] };
  }
}

async function prepared(commitment, files, reveal) {
  const c = await commitmentOf(commitment);
  const { body, hash } = c;
  let seed;
  try {
    seed = commitSeed(hash, valuesOf(reveal));
  } catch (e) {
    fail(`the revealed value: ${e.message}`);
  }
  const values = valuesOf(reveal).map(revealedValue);
  if (c.record) {
    // the draw's record holds the values it was drawn with: another value is not the draw's
    if (c.record.seed !== seed)
      fail(
        `the revealed value ${values.map((v) => JSON.stringify(v)).join(" / ")} is not the one the draw's record holds (${(c.record.reveal || []).map((v) => JSON.stringify(v)).join(" / ")})`,
      );
  }
  const req = body.draw && body.draw.request;
  if (!req || req.kind !== "sample" || !req.sample)
    fail(
      `the commitment is to a ${req ? req.kind : "draw"}: the reveal page shows the winners of a sample (check a shuffle or groups with the verifier)`,
    );
  const keepBlank = Boolean(req.region && req.region.keep_blank_rows);
  const loaded = await loadFiles(files);
  if (!loaded.length) fail(`give the committed list (${baseName(body.list.file)})`);
  // the committed list: by its name first, then any file whose rows have the committed digest
  const named = baseName(body.list.file);
  const order = [...loaded].sort((a, b) => (b.name === named) - (a.name === named));
  let list = null,
    file = null,
    first = null;
  for (const f of order) {
    let got;
    try {
      got = await readList(body, f, keepBlank);
    } catch (e) {
      if (!(e instanceof Verdict))
        fail(`${f.name} cannot be read as a list or workbook (${e.message})`);
      throw e;
    }
    const digest = await listDigest(got.head.concat(got.data));
    if (digest === body.list.sha256 && got.data.length === body.list.rows) {
      [list, file] = [got, f];
      break;
    }
    first =
      first ||
      `${f.name} is not the committed list: its ${got.data.length} rows have the list digest ${digest}, the commitment's ${body.list.rows} rows ${body.list.sha256}`;
  }
  if (!list) fail(first);
  const o = req.sample,
    w = o.draw;
  const n = list.data.length;
  let drawn,
    extraHeader = [],
    extra = [],
    idColumn = null,
    strataOf = null;
  if (!w) {
    if (!Number.isInteger(o.k) || o.k < 0 || o.k > n)
      fail(`the committed draw of -k ${o.k} does not fit ${n} rows`);
    drawn = await deal(range(n), o.k, seed);
  } else {
    const d = drawOf(w, list);
    idColumn = d.id;
    if (w.exclude !== null && w.exclude !== undefined)
      d.exclusion = await exclusionOf(body, w, loaded, list, idColumn);
    const plan = await drawPlan(
      { seed, input: body.list.file, target: { draw: d } },
      n,
      list.textOf,
    );
    ({ drawn, extraHeader, extra } = plan);
    if (d.strata) strataOf = plan.strataOf;
  }
  const at = (name) => extraHeader.indexOf(name);
  const counted = new Map();
  const winners = drawn.map((row, p) => {
    const key = strataOf ? strataOf[p] : null;
    counted.set(key, (counted.get(key) || 0) + 1);
    const cell = (name) => (at(name) >= 0 ? extra[p][at(name)] : null);
    const one = {
      prize: cell("Prize"),
      place: Number(cell("Place") ?? cell("Rank") ?? counted.get(key)),
      role: cell("Role") ?? "winner",
      id: idColumn ? list.textOf(row, idColumn.index) : list.textOf(row, 0),
    };
    if (strataOf) one.stratum = key;
    return one;
  });
  const won = winners.filter((x) => x.role === "winner").length;
  const prizes = w && w.prizes ? w.prizes.length : 0;
  const message =
    `Checked: the commitment hashes to ${hash} (compare it with the hash published before the draw); ` +
    `${file.name} is the committed list (${n} rows, list digest ${body.list.sha256}); ` +
    `the seed is ${seed} (section 17, step 4). ` +
    `${won} winner(s) and ${winners.length - won} reserve(s)${prizes ? ` of ${prizes} prize(s)` : ""} to reveal.`;
  return {
    ok: true,
    message,
    winners,
    shown: { hash, beacon: String(body.beacon ?? ""), values, seed, list: file.name },
    rows: drawn,
    list,
    idColumn: idColumn ? idColumn.column : null,
  };
}

/** The heading a drawn place is revealed under: its prize (or its reserves), or its stratum. */
export function groupOf(w) {
  const stratum = w.stratum === undefined || w.stratum === null ? "" : String(w.stratum);
  if (w.prize !== null && w.prize !== undefined)
    return w.role === "winner" ? String(w.prize) : `Reserves for ${w.prize}`;
  const what = w.role === "winner" ? "Winners" : "Reserves";
  return stratum ? `${what} in ${stratum}` : what;
}

/**
 * What the screen shows at each press of Next, from the fixed result: each group's heading
 * alone, then its names one at a time ([{heading, shown: indexes into winners}]).
 */
export function revealSteps(winners) {
  const steps = [];
  let heading = null,
    shown = [];
  winners.forEach((w, i) => {
    if (groupOf(w) !== heading) {
      heading = groupOf(w);
      shown = [];
      steps.push({ heading, shown });
    }
    shown = [...shown, i];
    steps.push({ heading, shown });
  });
  return steps;
}
