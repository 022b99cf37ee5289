/**
 * Draw and lock in Sheets: draw once on the selection, write plain values, and log how
 * to replay it on the Draw log sheet, as xlshuffle's draw-and-lock commands do in Excel
 * (docs/excel.md, "Draw and lock"). Each command reads the active range, takes the seed
 * from the named range SEED when it is filled (else a fresh one), draws with the same
 * functions as the formulas, writes the result and appends the log row.
 */

import { numberText } from "../protocol/seeds.js";
import { permutation } from "../protocol/shuffles.js";
import { PROTOCOL } from "../protocol/stream.js";
import { Mistake, isDate, isEmpty, serial } from "./cells.js";
import { freshSeed } from "./fresh.js";
import { FUNCTIONS } from "./functions.js";
import { LOG_COLUMNS, SHEET_SEPARATOR, logRow, valuesSha256 } from "./log.js";

const { DEAL, GROUPS, SAMPLE, SHUFFLE } = FUNCTIONS;

export const LOG_SHEET = "Draw log";

/** The xlshuffle version the file was built from (set by the build). */
export const VERSION = "XLSHUFFLE_VERSION";

export function columnLetters(n) {
  let out = "";
  for (; n > 0; n = Math.floor((n - 1) / 26)) out = String.fromCharCode(65 + ((n - 1) % 26)) + out;
  return out;
}

export function a1(row, column, rows, columns) {
  const first = columnLetters(column) + row;
  if (rows === 1 && columns === 1) return first;
  return `${first}:${columnLetters(column + columns - 1)}${row + rows - 1}`;
}

/** The seed of a locked draw and where it came from: the SEED cell, or fresh. */
export function seedOfBook(book) {
  const named = book.getRangeByName("SEED");
  if (named) {
    const value = named.getValue();
    if (!isEmpty(value)) {
      if (typeof value === "boolean")
        throw new Mistake("the SEED cell holds TRUE or FALSE: give a text or a number");
      const text = isDate(value)
        ? numberText(serial(value))
        : typeof value === "number"
          ? numberText(value)
          : String(value);
      return [text, `SEED cell ${named.getSheet().getName()}!${named.getA1Notation()}`];
    }
  }
  return [freshSeed(), "fresh (Apps Script)"];
}

/** A text written as text: the apostrophe keeps "=1+1", "007" or "TRUE" the text it was. */
export function asWritten(value) {
  return typeof value === "string" && value !== "" ? "'" + value : value;
}

export function selection(book, least) {
  const range = book.getActiveRange();
  if (!range) throw new Mistake("select the list first (its rows, without the header row)");
  const values = range.getValues();
  if (values.length * values[0].length < least)
    throw new Mistake(`select at least ${least} cells: the list, without its header row`);
  return range;
}

export function now() {
  return new Date().toISOString().replace(/\.\d+Z$/, "Z");
}

export function logDraw(book, row) {
  let log = book.getSheetByName(LOG_SHEET);
  if (!log) {
    log = book.insertSheet(LOG_SHEET, book.getSheets().length);
    log.getRange(1, 1, 1, LOG_COLUMNS.length).setNumberFormat("@").setValues([LOG_COLUMNS]);
  }
  // plain text (@): the seed's digits, the time and the formula stay the texts they are
  const at = log.getLastRow() + 1;
  log.getRange(at, 1, 1, row.length).setNumberFormat("@").setValues([row]);
}

/**
 * Draw on the selection: mode "shuffle" (in place), or "winners", "raffle", "deal",
 * "groups" (right of the selection, into empty cells). args: {k, hands, reserves, tickets}.
 */
export function lockedDraw(book, mode, args = {}) {
  const range = selection(book, 2);
  const sheet = range.getSheet();
  const rows = range.getValues();
  const [seed, seedFrom] = seedOfBook(book);
  const top = range.getRow(),
    left = range.getColumn();
  let output,
    tickets = null,
    ticketsLetter = null;
  if (mode === "shuffle") output = SHUFFLE(rows, seed, "rows");
  else if (mode === "winners") output = SAMPLE(rows, args.k, seed);
  else if (mode === "groups") output = GROUPS(rows, args.k, seed);
  else if (mode === "deal") output = DEAL(args.k, args.hands, seed, rows);
  else if (mode === "raffle") {
    let weights;
    if (args.tickets) {
      const c = ticketsColumn(sheet, top, left, rows[0].length, args.tickets);
      weights = rows.map((r) => [r[c]]);
      tickets = a1(top, left + c, rows.length, 1);
      ticketsLetter = columnLetters(left + c);
    }
    output = SAMPLE(rows, args.k, seed, weights, args.reserves || 0);
  } else throw new Mistake(`unknown draw ${mode}`);
  let target;
  if (mode === "shuffle") target = range;
  else {
    target = sheet.getRange(top, left + rows[0].length, output.length, output[0].length);
    const taken = target.getValues().some((r) => r.some((v) => !isEmpty(v)));
    if (taken)
      throw new Mistake(
        `the cells ${target.getA1Notation()} right of the selection are not empty: ` +
          "clear them or move the list; nothing is overwritten",
      );
  }
  target.setValues(output.map((r) => r.map(asWritten)));
  const d = {
    mode,
    sheet: sheet.getName(),
    address: range.getA1Notation(),
    book: book.getName() + ".xlsx",
    seed,
    seedFrom,
    version: VERSION,
    time: now(),
    rows,
    output,
    outputAddress: target.getA1Notation(),
    k: mode === "shuffle" ? null : args.k,
    hands: mode === "deal" ? args.hands : null,
    reserves: mode === "raffle" ? args.reserves || 0 : null,
    tickets,
    ticketsLetter,
  };
  logDraw(book, logRow(d));
  return d;
}

/** The selection's column (0-based) of the tickets: by its header just above, or its letters. */
function ticketsColumn(sheet, top, left, width, name) {
  const wanted = String(name).trim().toLowerCase();
  if (top > 1) {
    const heads = sheet.getRange(top - 1, left, 1, width).getValues()[0];
    const found = heads.findIndex((h) => String(h).trim().toLowerCase() === wanted);
    if (found >= 0) return found;
  }
  for (let c = 0; c < width; c++) if (columnLetters(left + c).toLowerCase() === wanted) return c;
  throw new Mistake(
    `no selected column is headed or lettered '${name}': name the tickets column by its ` +
      "header (in the row above the selection) or its letters",
  );
}

/** Write a fresh seed, as text, into the one selected cell. */
export function lockedSeed(book) {
  const range = book.getActiveRange();
  if (!range || range.getNumRows() !== 1 || range.getNumColumns() !== 1)
    throw new Mistake("select one cell for the seed");
  const seed = freshSeed();
  range.setNumberFormat("@").setValue(seed);
  return seed;
}

const MODES = ["shuffle", "winners", "raffle", "deal", "groups", "teams", "orders", "allocation"];
/** The sheets each mode adds, as designs.js names them. */
const ADDED = { orders: /^Orders( [0-9]+)?$/, allocation: /^Allocation( codes)?( [0-9]+)?$/ };

/**
 * Refuse, before anything changes, to delete a sheet the draw could not have added (a log
 * row is editable) or one that holds more than the draw wrote there.
 */
function checkAdded(book, mode, time, names, height, width) {
  const widths = [width, width - 2]; // the list or orders; the codes: Block, BlockSize, Arm -> Code
  names.forEach((name, i) => {
    if (!ADDED[mode] || !ADDED[mode].test(name) || i >= widths.length)
      throw new Mistake(
        `the ${mode} draw at ${time} cannot have added the sheet '${name.slice(0, 40)}' its ` +
          "log row names: nothing was restored",
      );
    const sheet = book.getSheetByName(name);
    if (!sheet) return; // deleted already
    const [rows, columns] = [sheet.getLastRow(), sheet.getLastColumn()];
    if (rows !== height || columns !== widths[i])
      throw new Mistake(
        `the sheet '${name}' holds more than the draw at ${time} wrote there (it uses ` +
          `${a1(1, 1, rows, columns)}): nothing was restored; delete it yourself`,
      );
  });
}
const BLOCK = /^\$?[A-Z]{1,3}\$?[0-9]{1,7}(?::\$?[A-Z]{1,3}\$?[0-9]{1,7})?$/;

/**
 * Restore the last draw: the newest row of the Draw log not yet restored. A shuffle gets
 * its rows back in their first order (the seed's permutation, inverted, checked against
 * the input sha256); winners, raffles, deals, groups and teams are cleared; the sheets
 * that orders and allocation lists added are deleted. Refused when the
 * output cells no longer hold what the draw wrote (the output sha256). Returns the cells.
 */
export function restoreLast(book) {
  const log = book.getSheetByName(LOG_SHEET);
  if (!log) throw new Mistake(`there is no '${LOG_SHEET}' sheet: no draw to restore`);
  const rows = log.getRange(1, 1, Math.max(log.getLastRow(), 1), LOG_COLUMNS.length).getValues();
  const at = (name) => LOG_COLUMNS.indexOf(name);
  const text = (row, name) => String(row[at(name)] ?? "");
  let index = -1;
  for (let i = rows.length - 1; i > 0; i--) {
    if (text(rows[i], "time (UTC)") && !text(rows[i], "restored (UTC)")) {
      index = i;
      break;
    }
  }
  if (index < 0) throw new Mistake(`the '${LOG_SHEET}' sheet lists no draw to restore`);
  const row = rows[index];
  const where = `row ${index + 1} of '${LOG_SHEET}'`;
  const mode = text(row, "mode");
  const output = text(row, "output");
  if (text(row, "protocol") !== PROTOCOL || !MODES.includes(mode) || !BLOCK.test(output))
    throw new Mistake(
      `${where} is not a draw this script can restore (mode '${mode}', output '${output}')`,
    );
  const added = text(row, "new sheets").split(SHEET_SEPARATOR).filter(Boolean);
  const home = added.length ? added[0] : text(row, "sheet");
  const sheet = book.getSheetByName(home);
  if (!sheet) throw new Mistake(`the sheet '${home}' of ${where} is gone: nothing was restored`);
  const target = sheet.getRange(output);
  const current = target.getValues();
  if (valuesSha256(current) !== text(row, "output sha256"))
    throw new Mistake(
      `${sheet.getName()}!${output} changed since the draw at ${text(row, "time (UTC)")} ` +
        "(its values no longer match the log's output sha256): nothing was restored",
    );
  const time = text(row, "time (UTC)");
  checkAdded(book, mode, time, added, target.getNumRows(), target.getNumColumns());
  if (mode === "shuffle") {
    const before = new Array(current.length);
    permutation(current.length, text(row, "seed")).forEach((item, p) => {
      before[item] = current[p];
    });
    if (valuesSha256(before) !== text(row, "input sha256"))
      throw new Mistake(
        `undoing the draw at ${text(row, "time (UTC)")} does not give the logged input back ` +
          "(input sha256 differs): nothing was restored",
      );
    target.setValues(before.map((r) => r.map(asWritten)));
  } else if (!added.length) {
    target.clearContent();
  }
  log
    .getRange(index + 1, at("restored (UTC)") + 1)
    .setNumberFormat("@")
    .setValue(now());
  for (const name of added) {
    const gone = book.getSheetByName(name);
    if (gone) book.deleteSheet(gone);
  }
  return `${sheet.getName()}!${output}`;
}
