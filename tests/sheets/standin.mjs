// Runs the Apps Script file of `xlshuffle extension sheets` under Node, with small stand-ins
// for the Apps Script globals it uses (Utilities, SpreadsheetApp), as tests/sheets_script.py
// asks: `node standin.mjs FILE.gs` reads one JSON job on stdin and writes its results.
//
// A job: {"digest": "utilities" | "javascript", "calls": [[NAME, [args...]], ...],
//         "book": {"name", "sheets": {name: rows}, "active": [sheet, row, col, rows, cols],
//                  "names": {"SEED": [sheet, row, col]}},
//         "menu": [[FUNCTION, [answers to its prompts...]], ...],
//         "internals": [[MODULE, NAME, [args...]], ...]}
// Values in JSON: {"$date": "2026-01-01T12:00:00"} is a Date of that local wall-clock time
// (Sheets hands a date cell over as a Date of the script's time zone), {"$omitted": true} an
// argument left out (undefined). Results come back the same way; a call that throws gives
// {"$error": message}.
import { createHash, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import vm from "node:vm";

const decode = (v) => {
  if (Array.isArray(v)) return v.map(decode);
  if (v && typeof v === "object") {
    if ("$date" in v) return new Date(v.$date);
    if ("$omitted" in v) return undefined;
  }
  return v;
};
const pad = (n, w = 2) => String(n).padStart(w, "0");
const encode = (v) => {
  if (Array.isArray(v)) return v.map(encode);
  if (v instanceof Date)
    return {
      $date:
        `${v.getFullYear()}-${pad(v.getMonth() + 1)}-${pad(v.getDate())}T` +
        `${pad(v.getHours())}:${pad(v.getMinutes())}:${pad(v.getSeconds())}.${pad(v.getMilliseconds(), 3)}`,
    };
  if (v === undefined) return { $omitted: true };
  if (typeof v === "bigint") return String(v);
  return v;
};

const job = JSON.parse(readFileSync(0, "utf8"));
const log = { digests: 0, alerts: [], menu: [], numberFormats: [] };

// Utilities: computeDigest takes and gives signed bytes (Java's byte[]).
const Utilities = {
  DigestAlgorithm: { SHA_256: "SHA_256" },
  computeDigest(algorithm, bytes) {
    if (algorithm !== "SHA_256") throw new Error("stand-in: SHA_256 only");
    if (!Array.isArray(bytes) || bytes.some((b) => !Number.isInteger(b) || b < -128 || b > 127))
      throw new Error("stand-in: computeDigest takes an array of signed bytes");
    log.digests++;
    const digest = createHash("sha256")
      .update(Uint8Array.from(bytes, (b) => b & 255))
      .digest();
    return Array.from(digest, (b) => (b > 127 ? b - 256 : b));
  },
  getUuid: () => randomUUID(),
};

// SpreadsheetApp: a spreadsheet of sheets holding values; a text written with a leading
// apostrophe is stored without it, as Sheets keeps it as text.
const letters = (n) => {
  let s = "";
  for (; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
};
class Sheet {
  constructor(book, name, rows) {
    this.book = book;
    this.name = name;
    this.cells = rows.map((r) => r.map(decode));
  }
  getName() {
    return this.name;
  }
  activate() {
    this.book.active = this;
    return this;
  }
  getLastColumn() {
    return this.cells.reduce((last, r) => {
      const found = r.findLastIndex((v) => v !== "" && v !== undefined);
      return Math.max(last, found + 1);
    }, 0);
  }
  getLastRow() {
    let last = 0;
    this.cells.forEach((r, i) => {
      if (r.some((v) => v !== "" && v !== undefined)) last = i + 1;
    });
    return last;
  }
  getRange(row, column, rows = 1, columns = 1) {
    if (typeof row === "string") {
      // A1 notation: one cell or one block
      const [first, last = first] = row.replace(/\$/g, "").split(":");
      const at = (a1) => {
        const [, letters, digits] = /^([A-Z]+)(\d+)$/.exec(a1);
        const c = [...letters].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0);
        return [Number(digits), c];
      };
      const [r1, c1] = at(first),
        [r2, c2] = at(last);
      return new Range(this, r1, c1, r2 - r1 + 1, c2 - c1 + 1);
    }
    return new Range(this, row, column, rows, columns);
  }
  get(r, c) {
    const row = this.cells[r - 1];
    const v = row ? row[c - 1] : undefined;
    return v === undefined ? "" : v;
  }
  set(r, c, v) {
    while (this.cells.length < r) this.cells.push([]);
    const row = this.cells[r - 1];
    while (row.length < c) row.push("");
    row[c - 1] = typeof v === "string" && v.startsWith("'") ? v.slice(1) : v;
  }
}
class Range {
  constructor(sheet, row, column, rows, columns) {
    Object.assign(this, { sheet, row, column, rows, columns });
  }
  getSheet() {
    return this.sheet;
  }
  getRow() {
    return this.row;
  }
  getColumn() {
    return this.column;
  }
  getNumRows() {
    return this.rows;
  }
  getNumColumns() {
    return this.columns;
  }
  getA1Notation() {
    const first = letters(this.column) + this.row;
    if (this.rows === 1 && this.columns === 1) return first;
    return `${first}:${letters(this.column + this.columns - 1)}${this.row + this.rows - 1}`;
  }
  getValues() {
    return Array.from({ length: this.rows }, (_, r) =>
      Array.from({ length: this.columns }, (_, c) => this.sheet.get(this.row + r, this.column + c)),
    );
  }
  getValue() {
    return this.sheet.get(this.row, this.column);
  }
  setValues(values) {
    if (values.length !== this.rows || values.some((r) => r.length !== this.columns))
      throw new Error(`stand-in: setValues of the wrong shape for ${this.getA1Notation()}`);
    values.forEach((r, i) => r.forEach((v, j) => this.sheet.set(this.row + i, this.column + j, v)));
    return this;
  }
  setValue(value) {
    this.sheet.set(this.row, this.column, value);
    return this;
  }
  clearContent() {
    for (let r = 0; r < this.rows; r++)
      for (let c = 0; c < this.columns; c++) this.sheet.set(this.row + r, this.column + c, "");
    return this;
  }
  setNumberFormat(format) {
    log.numberFormats.push([this.sheet.name, this.getA1Notation(), format]);
    return this;
  }
}
class Book {
  constructor(spec) {
    this.name = spec.name || "Book";
    this.sheets = Object.entries(spec.sheets || { Sheet1: [] }).map(
      ([n, rows]) => new Sheet(this, n, rows),
    );
    this.spec = spec;
  }
  getName() {
    return this.name;
  }
  getSheets() {
    return this.sheets.slice();
  }
  getSheetByName(name) {
    return this.sheets.find((s) => s.name === name) || null;
  }
  // as in Apps Script, a sheet inserted becomes the active one
  insertSheet(name, index) {
    const sheet = new Sheet(this, name, []);
    this.sheets.splice(index, 0, sheet);
    this.active = sheet;
    return sheet;
  }
  deleteSheet(sheet) {
    this.sheets = this.sheets.filter((s) => s !== sheet);
  }
  getActiveSheet() {
    return this.active || this.sheets[0];
  }
  getActiveRange() {
    if (!this.spec.active) return null;
    const [name, ...at] = this.spec.active;
    return this.getSheetByName(name).getRange(...at);
  }
  getRangeByName(name) {
    const at = (this.spec.names || {})[name];
    if (!at) return null;
    const [sheet, ...cell] = at;
    return this.getSheetByName(sheet).getRange(...cell);
  }
}
const book = new Book(job.book || {});
let answers = [];
const ui = {
  ButtonSet: { OK: "OK", OK_CANCEL: "OK_CANCEL" },
  Button: { OK: "OK", CANCEL: "CANCEL" },
  createMenu(title) {
    const menu = {
      addItem(label, fn) {
        log.menu.push([title, label, fn]);
        return menu;
      },
      addSeparator: () => menu,
      addToUi() {},
    };
    return menu;
  },
  prompt() {
    const answer = answers.shift();
    return {
      getSelectedButton: () => (answer === null ? "CANCEL" : "OK"),
      getResponseText: () => (answer === null ? "" : String(answer)),
    };
  },
  alert(title, message) {
    log.alerts.push(message);
  },
};
const SpreadsheetApp = { getUi: () => ui, getActiveSpreadsheet: () => book };

const globals = { console, SpreadsheetApp };
if (job.digest !== "javascript") globals.Utilities = Utilities;
const context = vm.createContext(globals);
vm.runInContext(readFileSync(process.argv[2], "utf8"), context, { filename: "xlshuffle.gs" });

const results = (job.calls || []).map(([name, args]) => {
  try {
    return encode(context[name](...decode(args)));
  } catch (exc) {
    return { $error: String(exc.message) };
  }
});
const menu = (job.menu || []).map(([name, given]) => {
  answers = given.slice();
  try {
    return encode(context[name]());
  } catch (exc) {
    return { $error: String(exc.message) };
  }
});
// internals: [[module, name, args]], a Fraction as {"$frac": [num, den]}, a 50-digit
// decimal as {"$dec": text} both ways: the audit arithmetic's steps, for the tests
const modules = job.internals ? vm.runInContext("xlshuffleModules", context) : {};
const internal = (v) => {
  if (Array.isArray(v)) return v.map(internal);
  if (v && typeof v === "object" && "$frac" in v)
    return new modules["sheets/exact.js"].Fraction(BigInt(v.$frac[0]), BigInt(v.$frac[1]));
  if (v && typeof v === "object" && "$dec" in v) return modules["sheets/decimals.js"].decOf(v.$dec);
  return v;
};
const internals = (job.internals || []).map(([path, name, args]) => {
  try {
    const found = modules[path][name](...internal(args));
    return found instanceof modules["sheets/decimals.js"].Dec
      ? { $dec: String(found) }
      : encode(found);
  } catch (exc) {
    return { $error: String(exc.message) };
  }
});
const sheets = Object.fromEntries(book.sheets.map((s) => [s.name, encode(s.cells)]));
process.stdout.write(JSON.stringify({ results, menu, internals, sheets, log }));
