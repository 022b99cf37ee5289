/**
 * The record of a draw on a workbook (.xlsx).
 */

import { range } from "../protocol/python.js";
import { permutation, shuffleFrom } from "../protocol/shuffles.js";
import { Stream } from "../protocol/stream.js";
import { balancedTeamsDrawn } from "../protocol/teams.js";
import { cellKey, columnLetters, keyColumn, keyRow } from "../read/a1.js";
import { textRows } from "../read/celltexts.js";
import { baseName } from "../read/files.js";
import { plain, showValue } from "../read/values.js";
import { openWorkbook } from "../read/workbook.js";
import { isZip } from "../read/zip.js";
import { checkCommitment } from "./commitment.js";
import { drawPlan, drawSummary, planTable } from "./drawplan.js";
import { matchFiles } from "./matching.js";
import {
  compareFormulas,
  compareSheets,
  groupColumn,
  lineMove,
  selectionOf,
  shuffleMove,
} from "./moves.js";
import {
  balanceSummary,
  checkPermutation,
  describe,
  firstDifference,
  inverseOf,
  keptRows,
  redraw,
  redrawAround,
  resultTable,
  shortRow,
  spreadOver,
  teamTable,
} from "./replay.js";
import { compareTable } from "./tables.js";
import { TICKET_FIELD } from "./ticketplan.js";
import { cannot, fail } from "./verdict.js";

/**
 * The record of a draw on a workbook, with its files; `outputOptional`: the output is checked
 * when given (a round's chain checks the draw from its input alone).
 */
export async function verifyWorkbook(rec, files, { outputOptional = false } = {}) {
  const balance = rec.target.balance;
  if (rec.target.kept && rec.mode !== "rows")
    cannot(
      `rows kept in place (--keep-blank-rows) in a ${rec.command} by ${rec.mode}, which xlshuffle does not draw`,
    );
  if (rec.command !== "shuffle" && rec.command !== "restore" && rec.mode !== "rows")
    cannot(`a ${rec.command} by ${rec.mode} is unknown to this page`);
  if (rec.target.kind === "columns" && rec.mode !== "rows")
    cannot(`a shuffle --by ${rec.mode} of chosen columns is not supported by this page yet`);
  const { input, output, loaded } = await matchFiles(rec, files);
  if (!input)
    fail("no input file was given: give the workbook the draw read (" + baseName(rec.input) + ")");
  const extra = loaded.filter((f) => f !== input && f !== output);
  if (!isZip(input.bytes)) fail(`the input ${input.name} is not an .xlsx workbook`);
  if (rec.input_sha256 && input.sha !== rec.input_sha256) {
    fail(
      `the input ${input.name} is not the workbook the draw read: its SHA-256 is ${input.sha}, the record says ${rec.input_sha256}`,
    );
  }
  const sel = selectionOf(rec);
  const head = rec.header ? 1 : 0;
  const first = sel.r1 + head;
  const book = await openWorkbook(input.bytes);
  const sheet = await book.cells(rec.sheet);
  const width = sel.columns.length,
    height = sel.r2 - sel.r1 + 1 - head;
  if (rec.rows !== undefined && rec.rows !== sel.r2 - sel.r1 + 1)
    fail(
      `the record's selection ${rec.target.ref} has ${sel.r2 - sel.r1 + 1} rows, the record says ${rec.rows}`,
    );
  const valueAt = (r, c) => sheet.cells.get(cellKey(r, c));
  const textOf = (i, col) => {
    const v = plain(valueAt(first + i, sel.columns[col]));
    return v === undefined ? "" : v.slice(2);
  };
  // --keep-blank-rows: the data rows (0-based) that are entrants; the kept rows stay and get nothing
  const keptSet = rec.target.kept ? keptRows(rec.target.kept, first) : new Set();
  if ([...keptSet].some((i) => i < 0 || i >= height))
    fail(`the record's kept rows ${rec.target.kept.join(", ")} are not inside the data rows`);
  const free = range(height).filter((i) => !keptSet.has(i));
  let committed = [];
  if (rec.commitment) {
    // section 17: the selection's rows as texts (the header, then the rows not kept in place)
    let texts;
    try {
      texts = await book.texts(rec.sheet);
    } catch (e) {
      cannot(`the list digest of ${input.name}: ${e.message}: use xlshuffle verify`);
    }
    const kept = rec.target.kept ? keptRows(rec.target.kept, first) : new Set();
    const data = range(height)
      .filter((i) => !kept.has(i))
      .map((i) => first + i);
    committed = await checkCommitment(
      rec,
      textRows(texts, head ? [sel.r1] : [], sel.columns),
      textRows(texts, data, sel.columns),
    );
  }
  let drawn = null,
    plan = null,
    lines = null,
    teams = null,
    restoredAround = 0;
  if (balance) {
    // the teams are dealt over the rows not kept in place; teams[j] is free[j]'s team
    const m = free.length;
    if (!Number.isInteger(rec.k) || rec.k < 1 || rec.k > m)
      fail(`the record's number of teams ${rec.k} does not fit ${m} people`);
    const labels = free.map((i) => balance.columns.map((c) => textOf(i, c.index)));
    const before = balance.avoid ? balance.avoid.before : null;
    if (before && before.length !== m)
      fail(`the record's earlier split lists ${before.length} people, the selection has ${m}`);
    const got = await balancedTeamsDrawn(labels, rec.k, rec.seed, before);
    teams = got.team;
    if (balance.avoid && balance.avoid.repeats !== got.repeats)
      fail(
        `the teams drawn again put ${got.repeats} earlier pairs together, the record says ${balance.avoid.repeats}`,
      );
    drawn = await permutation(m, rec.seed); // the record keeps step 1 of the first candidate
    if (m !== height) drawn = spreadOver(drawn, height, free);
    checkPermutation(rec, drawn);
  } else if (rec.target.draw) {
    // the entrants are the rows not kept in place; the plan numbers them 0..m-1
    const among = free.length === height ? rec : amongEntrants(rec, free);
    plan = await drawPlan(
      among,
      free.length,
      (i, c) => textOf(free[i], c),
      rec.target.draw.exclusion && extra.length === 1 ? extra[0] : null,
      (i) => free[i] + 1,
    );
    plan.drawn = plan.drawn.map((i) => free[i]);
    drawn = plan.drawn;
    checkPermutation(
      rec,
      drawn,
      rec.mode === "rows"
        ? (i) =>
            shortRow(
              sel.columns
                .slice(0, 2)
                .map((c) => showValue(plain(valueAt(first + i, c))).replace(/^"|"$/g, "")),
              2,
            )
        : null,
    );
  } else if (rec.mode === "within-rows" || rec.mode === "within-columns") {
    lines =
      rec.mode === "within-rows"
        ? await redrawLines(rec, height, width)
        : await redrawLines(rec, width, height);
  } else if (rec.target.kept) {
    drawn = await redrawAround(rec, height, keptRows(rec.target.kept, first));
    checkPermutation(
      rec,
      drawn,
      rec.mode === "rows"
        ? (i) =>
            shortRow(
              sel.columns
                .slice(0, 2)
                .map((c) => showValue(plain(valueAt(first + i, c))).replace(/^"|"$/g, "")),
              2,
            )
        : null,
    );
  } else {
    const n = { rows: height, columns: width, cells: height * width }[rec.mode];
    drawn = await redraw(rec, n);
    if (
      rec.command === "restore" &&
      rec.mode === "rows" &&
      Array.isArray(rec.permutation) &&
      drawn.some((item, p) => item !== rec.permutation[p])
    ) {
      // the restore of a shuffle with --keep-blank-rows: its record does not list the kept
      // rows, which are the selection's blank rows (they stayed in place in the shuffled file)
      const blank = new Set(
        range(height).filter((i) => sel.columns.every((c) => valueAt(first + i, c) === undefined)),
      );
      if (blank.size) {
        const around = await redrawAround(rec, height, blank);
        if (around.every((item, p) => item === rec.permutation[p])) {
          drawn = around;
          restoredAround = blank.size;
        }
      }
    }
    checkPermutation(
      rec,
      drawn,
      rec.mode === "rows"
        ? (i) =>
            shortRow(
              sel.columns
                .slice(0, 2)
                .map((c) => showValue(plain(valueAt(first + i, c))).replace(/^"|"$/g, "")),
              2,
            )
        : null,
    );
  }
  const checked =
    rec.command === "restore"
      ? [
          `the record's order is the inverse of the order the seed gives${restoredAround ? ` over the rows other than the ${restoredAround} blank row(s), kept in place (--keep-blank-rows; the restore record does not list them)` : ""}`,
          "the input is the shuffled workbook the restore read",
        ]
      : [
          ...committed,
          "the seed gives the recorded order",
          "the input is the workbook the draw read",
        ];
  const name = (item) =>
    shortRow(sel.columns.map((c) => showValue(valueAt(first + item, c)).replace(/^"|"$/g, "")));
  if (rec.output && (output || !outputOptional)) {
    if (!output)
      fail(
        "no output file was given: give the workbook the draw wrote (" + baseName(rec.output) + ")",
      );
    if (!isZip(output.bytes) && rec.command === "sample") {
      // winners of a workbook written as a CSV/TSV list
      const delimiter = /\.(tsv|tab)$/i.test(output.name) ? "\t" : ",";
      // the cells as sample writes them to a list: dates in ISO 8601, numbers as Python prints them
      let texts;
      try {
        texts = await book.texts(rec.sheet);
      } catch (e) {
        cannot(`the texts of ${input.name}'s cells: ${e.message}: use xlshuffle verify`);
      }
      const text = (r, c) => texts.get(cellKey(r, c)) || "";
      const headCells = sel.columns.map((c) => (head ? text(sel.r1, c) : columnLetters(c)));
      const table = [plan ? [...headCells, ...plan.extraHeader] : ["Rank", ...headCells]].concat(
        drawn.map((item, p) => {
          const cells = sel.columns.map((c) => text(first + item, c));
          return plan ? [...cells, ...plan.extra[p]] : [String(p + 1), ...cells];
        }),
      );
      await compareTable(table, output, delimiter);
      checked.push(`${output.name} holds exactly the drawn rows`);
      return {
        message: `Verified: ${plan ? drawSummary(rec, plan) : describe(rec)} (${rec.selection}). Checked: ${checked.join("; ")}.`,
        table: plan ? planTable(plan, name) : resultTable(rec, drawn, name),
        plan,
      };
    }
    if (!isZip(output.bytes)) fail(`the output ${output.name} is not an .xlsx workbook`);
    const outBook = await openWorkbook(output.bytes);
    const outSheet = await outBook.cells(rec.sheet);
    const expected = new Map();
    let move = null;
    if (rec.command === "sample") {
      // the drawn sheet stays as it was; the winners go to a new sheet
      compareSheets(sheet.cells, outSheet.cells, rec.sheet, output.name);
      const added = outBook.sheets.filter((x) => !book.sheets.includes(x));
      if (added.length !== 1)
        fail(
          `the output ${output.name} should hold one new sheet of winners; it has ${added.length}`,
        );
      const winners = await outBook.cells(added[0]);
      const headCells = sel.columns.map((c) =>
        head ? valueAt(sel.r1, c) : "s:" + columnLetters(c),
      );
      const rank = plan ? [] : ["s:Rank"];
      headCells.concat(plan ? plan.extraHeader.map((t) => "s:" + t) : []).forEach((v, j) => {
        if (v !== undefined) expected.set(cellKey(1, rank.length + j + 1), v);
      });
      if (!plan) expected.set(cellKey(1, 1), "s:Rank");
      drawn.forEach((item, p) => {
        const row = (plan ? [] : ["n:" + (p + 1)]).concat(
          sel.columns.map((c) => valueAt(first + item, c)),
        );
        if (plan)
          plan.extra[p].forEach((x, j) => {
            // Rank and Hits are numbers; a draw ticket is text, even one of decimal digits only
            const text = plan.extraHeader[j] === TICKET_FIELD || !/^\d+$/.test(x);
            row.push((text ? "s:" : "n:") + x);
          });
        row.forEach((v, j) => {
          if (v !== undefined) expected.set(cellKey(p + 2, j + 1), v);
        });
      });
      compareSheets(expected, winners.cells, added[0], output.name, true);
      checked.push(
        `the sheet ${JSON.stringify(added[0])} holds exactly the drawn rows and ${JSON.stringify(rec.sheet)} is unchanged`,
      );
    } else {
      if (rec.command === "groups") {
        for (const [key, v] of sheet.cells) expected.set(key, v);
        const col = groupColumn(sheet.cells, outSheet.cells, sel, first);
        const kept = rec.target.kept ? keptRows(rec.target.kept, first) : new Set();
        let q = 0;
        if (teams) teams.forEach((t, j) => expected.set(cellKey(first + free[j], col), "n:" + t));
        else {
          drawn.forEach((item) => {
            if (!kept.has(item))
              expected.set(cellKey(first + item, col), "n:" + ((q++ % rec.k) + 1));
          });
        }
        if (head) {
          const label = outSheet.cells.get(cellKey(sel.r1, col));
          if (label !== undefined) expected.set(cellKey(sel.r1, col), label);
        }
      } else {
        move = lines ? lineMove(rec, sel, first, lines) : shuffleMove(rec, sel, drawn);
        for (const [key, v] of sheet.cells) {
          const [r2, c2] = move(keyRow(key), keyColumn(key));
          expected.set(cellKey(r2, c2), v);
        }
      }
      compareSheets(expected, outSheet.cells, rec.sheet, output.name);
      checked.push(
        rec.command === "restore"
          ? "every value of the output sheet is where the restore puts it back"
          : "every value of the output sheet is where the draw puts it",
      );
      if (move && !(rec.output_sha256 && output.sha === rec.output_sha256)) {
        // saved again or edited since: a formula's text may have changed while its value
        // (dropped by the program that saved it, or kept) did not
        // (the formulas are read again only here, not on the quick way of an untouched output)
        const { compared, skipped } = compareFormulas(
          await book.withFormulas(rec.sheet),
          await outBook.withFormulas(rec.sheet),
          move,
          rec.sheet,
          output.name,
        );
        if (compared) {
          checked.push(
            `each of the ${compared} moved formulas reads as its input formula moved to its new cell` +
              (skipped ? ` (${skipped} others not read here: xlshuffle verify reads them)` : ""),
          );
        }
      }
      if (rec.command === "restore" && extra.length === 1 && isZip(extra[0].bytes)) {
        // the original workbook, before the shuffle: the restored sheet must hold its values
        const original = extra[0];
        const origSheet = await (await openWorkbook(original.bytes)).cells(rec.sheet);
        compareSheets(
          origSheet.cells,
          outSheet.cells,
          rec.sheet,
          output.name,
          false,
          `the original ${original.name} holds`,
          "the restored",
        );
        checked.push(`every value of the output sheet is the original ${original.name}'s`);
      }
      if (rec.command === "shuffle" && extra.length === 1 && isZip(extra[0].bytes)) {
        // a third file with a shuffle's record: the workbook xlshuffle restore wrote from the output
        const restored = extra[0];
        const back = await (await openWorkbook(restored.bytes)).cells(rec.sheet);
        compareSheets(
          sheet.cells,
          back.cells,
          rec.sheet,
          restored.name,
          false,
          `the original ${input.name} holds`,
          "the restored",
        );
        checked.push(
          `every value of ${restored.name}'s sheet ${JSON.stringify(rec.sheet)}, the restored workbook, is the original ${input.name}'s`,
        );
      }
    }
    if (rec.output_sha256 && output.sha !== rec.output_sha256) {
      checked.push(
        "(the output's bytes differ from the recorded SHA-256, its values do not: it was saved again)",
      );
    }
  }
  let table = [];
  if (teams) table = teamTable(rec.k, teams, (j) => name(free[j]));
  else if (plan) table = planTable(plan, name);
  else if (rec.mode === "rows") {
    const kept = rec.target.kept ? keptRows(rec.target.kept, first) : new Set();
    table = resultTable(
      rec,
      rec.command === "groups" ? drawn.filter((i) => !kept.has(i)) : drawn,
      name,
    );
  }
  return {
    message: `Verified: ${plan ? drawSummary(rec, plan) : describe(rec)}${balanceSummary(balance)} (${rec.selection}). Checked: ${checked.join("; ")}.`,
    table,
    plan,
  };
}

/** The permutations of a shuffle --by within-rows / within-columns: one per line (section 7). */
async function redrawLines(rec, lines, size) {
  const stream = await Stream.ofSeed(rec.seed);
  const out = [];
  for (let i = 0; i < lines; i++) out.push(await shuffleFrom(stream, range(size)));
  if (rec.command === "restore")
    out.forEach((perm, i) => {
      out[i] = inverseOf(perm);
    });
  const stated = rec.permutation;
  if (!Array.isArray(stated) || stated.length !== lines)
    fail(
      `the record lists ${Array.isArray(stated) ? stated.length : 0} permutations, the selection has ${lines} ${rec.mode === "within-rows" ? "rows" : "columns"}`,
    );
  out.forEach((perm, i) => {
    const diff = firstDifference(
      perm,
      stated[i] || [],
      `the seed ${JSON.stringify(rec.seed)} does not give the record's order of ${rec.mode === "within-rows" ? "data row" : "column"} ${i + 1}`,
    );
    if (diff) fail(diff.replace(/data row (\d+)/g, "item $1"));
  });
  return out;
}

/**
 * A sample's target.draw with its excluded rows numbered among the entrants (the rows not
 * kept in place), as the draw numbered them; a row kept in place cannot have been excluded.
 */
function amongEntrants(rec, free) {
  const d = rec.target.draw;
  if (!d.exclusion || !Array.isArray(d.exclusion.rows)) return rec;
  const where = new Map(free.map((row, i) => [row, i]));
  const rows = d.exclusion.rows.map((r) => {
    if (!where.has(r))
      fail(
        `the record leaves out data row ${r + 1}, which is a blank row kept in place, not an entrant`,
      );
    return where.get(r);
  });
  return { ...rec, target: { ...rec.target, draw: { ...d, exclusion: { ...d.exclusion, rows } } } };
}
