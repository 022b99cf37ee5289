/**
 * Arguments as Sheets hands them to a custom function: a range is an array of rows, one
 * cell its value (a number, a text, a boolean, a Date), a blank cell "" and an omitted
 * argument undefined. Each reader checks one argument and gives what the protocol takes,
 * or throws a Mistake whose message names the argument and says what to change: the
 * readers of xlshuffle.excel.arguments, for Sheets' values.
 */

import { numberText } from "../protocol/seeds.js";

/** A mistake in the arguments: the message says what to change. */
export class Mistake extends Error {}

/** The most rows and cells a result may have: a sheet's (Sheets allows 10 million cells). */
export const MAX_CELLS = 10000000;
const MAX_WHOLE = 2 ** 53;

const ERROR_TEXTS = new Set([
  "#NULL!",
  "#DIV/0!",
  "#VALUE!",
  "#REF!",
  "#NAME?",
  "#NUM!",
  "#N/A",
  "#ERROR!",
]);

export function isEmpty(value) {
  return value === undefined || value === null || value === "";
}

export function isDate(value) {
  return Object.prototype.toString.call(value) === "[object Date]";
}

const EPOCH = Date.UTC(1899, 11, 30);

/**
 * A date cell's serial number. Sheets hands a date over as a Date of the script's time
 * zone: its wall-clock reading there is the cell's (so set the script's time zone to the
 * spreadsheet's, as the docs say). Whole milliseconds, as Excel and xlshuffle keep them.
 */
export function serial(date) {
  const wall = Date.UTC(
    date.getFullYear(),
    date.getMonth(),
    date.getDate(),
    date.getHours(),
    date.getMinutes(),
    date.getSeconds(),
    date.getMilliseconds(),
  );
  const days = Math.floor((wall - EPOCH) / 86400000);
  const ms = wall - EPOCH - days * 86400000;
  return ms === 0 ? days : days + ms / 86400000;
}

/** A short description of a value for a message. */
export function show(value) {
  if (isEmpty(value)) return "empty";
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (typeof value === "string")
    return value.length <= 40 ? `'${value}'` : `'${value.slice(0, 40)}...'`;
  if (typeof value === "number") return numberText(value);
  if (Array.isArray(value)) return "a range";
  if (isDate(value)) return "a date";
  return "a " + typeof value;
}

/** The error code a cell shows ("#N/A"...), or null for any other value. */
export function errorText(value) {
  if (typeof value === "string" && value.length < 16) {
    const code = value.trim().toUpperCase();
    if (ERROR_TEXTS.has(code)) return code;
  }
  return null;
}

/** A one-cell argument; a range (more than one cell) or an error text is a mistake. */
export function oneCell(name, value, optional = true) {
  if (Array.isArray(value)) {
    if (value.length === 1 && Array.isArray(value[0]) && value[0].length === 1)
      return oneCell(name, value[0][0], optional);
    throw new Mistake(`${name} must be one cell, not a range: point it at a single cell`);
  }
  const code = errorText(value);
  if (code !== null) {
    const hint = optional ? `, or leave ${name} empty for the default` : "";
    throw new Mistake(`${name} shows the error ${code}: fix that cell${hint}`);
  }
  return value;
}

/** A seed cell as the protocol takes it (a date as its serial number); empty is null. */
export function seedOf(value) {
  const v = oneCell("seed", value);
  if (isEmpty(v)) return null;
  if (typeof v === "boolean")
    throw new Mistake("the seed must be a number, a text or a date, not TRUE or FALSE");
  if (isDate(v)) return serial(v);
  if (typeof v === "number" && !Number.isFinite(v))
    throw new Mistake("the seed must be a finite number");
  return v;
}

/** A whole number from least (1 or 0) to most, or the default when empty. */
export function count(name, value, { dflt = null, most = MAX_WHOLE, why = "", least = 1 } = {}) {
  const v = oneCell(name, value, dflt !== null);
  if (isEmpty(v)) {
    if (dflt === null)
      throw new Mistake(`${name} is empty: give a whole number of ${least} or more`);
    return dflt;
  }
  if (typeof v !== "number" || !Number.isInteger(v))
    throw new Mistake(`${name} must be a whole number of ${least} or more, not ${show(v)}`);
  if (v < least) {
    const empty = least === 1 ? ": the result would be empty" : "";
    throw new Mistake(`${name} must be ${least} or more, not ${show(v)}${empty}`);
  }
  if (v > most) throw new Mistake(`${name} must be at most ${most}${why}, not ${show(v)}`);
  return v;
}

/** TRUE or FALSE (1 and 0 too); empty is FALSE. */
export function flag(name, value) {
  const v = oneCell(name, value);
  if (isEmpty(v)) return false;
  if (typeof v === "boolean") return v;
  if (v === 0 || v === 1) return v === 1;
  throw new Mistake(`${name} must be TRUE or FALSE, not ${show(v)}`);
}

/** The text of a one-cell option, or null when empty. */
export function option(name, value, choices) {
  const v = oneCell(name, value);
  if (isEmpty(v)) return null;
  if (typeof v !== "string") throw new Mistake(`${name} must be one of ${choices}, not ${show(v)}`);
  return v;
}

/** One cell as its text in General format (a date as its serial number). */
export function text(name, value) {
  const v = oneCell(name, value, false);
  if (isEmpty(v)) return "";
  if (typeof v === "string") return v;
  if (typeof v === "boolean") return v ? "TRUE" : "FALSE";
  if (isDate(v)) return numberText(serial(v));
  if (typeof v === "number" && Number.isFinite(v)) return numberText(v);
  throw new Mistake(`${name} must be one cell with text or a number, not ${show(v)}`);
}

/** A range argument as an array of rows (one cell as one row of one cell). */
export function rows(name, data, { values = false } = {}) {
  if (data === undefined) throw new Mistake(`${name} is missing: select the cells to draw from`);
  const grid = Array.isArray(data) ? data.map((r) => (Array.isArray(r) ? r : [r])) : [[data]];
  if (!grid.length || !grid[0].length)
    throw new Mistake(`${name} is an empty range: select at least one cell`);
  const width = grid[0].length;
  let filled = !values;
  grid.forEach((row, r) => {
    if (row.length !== width)
      throw new Mistake(
        `${name}: row ${r + 1} has ${row.length} cells but row 1 has ${width}: ` +
          "every row must have the same number of cells",
      );
    for (const cell of row) if (!isEmpty(cell)) filled = true;
  });
  if (!filled)
    throw new Mistake(`${name} has only empty cells: select the cells that hold the values`);
  return grid;
}

/** Whether a range is a single row of several cells (its cells are then the items). */
export function isRow(grid) {
  return grid.length === 1 && grid[0].length > 1;
}

/** How many items a range holds, and what one is called. */
export function itemsOf(grid) {
  return isRow(grid) ? [grid[0].length, "cell"] : [grid.length, "row"];
}

/** The first column of data (a row's cells): the IDs when ids is left empty. */
export function firstColumn(grid) {
  return isRow(grid) ? grid[0].slice() : grid.map((r) => r[0]);
}

/** One value per item (n of them), from one column or one row. */
export function perItem(name, value, n, noun) {
  const grid = rows(name, value);
  if (grid.length > 1 && grid[0].length > 1)
    throw new Mistake(
      `${name} is ${grid.length} rows by ${grid[0].length} columns: give one column ` +
        `(or one row) with a cell for each ${noun} of data`,
    );
  const cells = grid.flat();
  if (cells.length !== n)
    throw new Mistake(
      `${name} has ${cells.length} cells but data has ${n} ${noun}s: give one ${name} ` +
        `cell for each ${noun} of data`,
    );
  return cells;
}

/** The cells of a range, row by row (exclude's IDs). */
export function listed(name, value) {
  return rows(name, value).flat();
}

/** Stratum labels or IDs: TRUE and FALSE as texts; an empty one refused unless blank. */
export function labels(name, cells, noun, blank) {
  return cells.map((cell, i) => {
    if (typeof cell === "boolean") return cell ? "TRUE" : "FALSE";
    if (isDate(cell)) return serial(cell);
    if (!blank && (isEmpty(cell) || (typeof cell === "string" && !cell.trim())))
      throw new Mistake(
        `${name}, ${noun} ${i + 1} is empty: give every ${noun} a text or a number`,
      );
    return isEmpty(cell) ? null : cell;
  });
}
