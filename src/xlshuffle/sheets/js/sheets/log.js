/**
 * A locked draw as a Draw log row, as xlshuffle.lock.log writes it in Excel: the
 * same columns, the input and output hashes of the same serialisation of the cells, the
 * formula and the command line that draw the same result again.
 */

import { UTF8, sha256, toHex } from "../protocol/bytes.js";
import { PROTOCOL } from "../protocol/stream.js";
import { numberText } from "../protocol/seeds.js";
import { isDate, isEmpty, serial } from "./cells.js";

/** The columns of the Draw log sheet, in order (its header row). */
export const LOG_COLUMNS = [
  "time (UTC)",
  "sheet",
  "range",
  "mode",
  "k",
  "hands",
  "output",
  "seed",
  "seed from",
  "protocol",
  "version",
  "input sha256",
  "output sha256",
  "formula",
  "command line",
  "restored (UTC)",
  "reserves",
  "tickets",
  "method",
  "new sheets",
  "options",
];

/** Between the names in the log's "new sheets": a character no sheet name may hold. */
export const SHEET_SEPARATOR = " / ";

/** The tag and canonical text of one cell value. */
export function cellText(value) {
  if (isEmpty(value)) return ["e", ""];
  if (typeof value === "boolean") return ["b", value ? "TRUE" : "FALSE"];
  if (typeof value === "string") return ["s", value];
  if (isDate(value)) return ["n", numberText(serial(value))];
  if (typeof value === "number") return ["n", numberText(value)];
  return ["s", String(value)];
}

/** SHA-256 (hex) of a grid's canonical bytes: "RxC\n", tag, UTF-8 length, ":", text... */
export function valuesSha256(grid) {
  const width = grid.length ? grid[0].length : 0;
  const parts = [`${grid.length}x${width}\n`];
  for (const row of grid) {
    for (const value of row) {
      const [tag, t] = cellText(value);
      parts.push(`${tag}${UTF8.encode(t).length}:${t}`);
    }
    parts.push("\n");
  }
  return toHex(sha256(UTF8.encode(parts.join(""))));
}

const PLAIN_SHEET = /^[A-Za-z_][A-Za-z0-9_.]*$/;
const CELL_LIKE = /^(?:[A-Za-z]{1,3}[0-9]+|[RrCc][0-9]*([RrCc][0-9]*)?)$/;

export function sheetRef(sheet) {
  if (PLAIN_SHEET.test(sheet) && !CELL_LIKE.test(sheet)) return sheet;
  return "'" + sheet.replace(/'/g, "''") + "'";
}

function formulaText(value) {
  return '"' + value.replace(/"/g, '""') + '"';
}

/** Python's shlex.quote. */
export function shellQuote(value) {
  if (value === "") return "''";
  if (/^[\w@%+=:,./-]+$/.test(value)) return value;
  return "'" + value.replace(/'/g, "'\"'\"'") + "'";
}

/**
 * The log row of a draw d: {mode, sheet, address, book, seed, seedFrom, version, time,
 * rows, output, outputAddress, k, hands, reserves, tickets, ticketsLetter}, and for a
 * design (designs.js) {formulaText, commandText, newSheets, options}.
 */
export function logRow(d) {
  const ref = `${sheetRef(d.sheet)}!${d.address}`;
  const seed = formulaText(d.seed);
  const none = (x) => (x === null || x === undefined ? "" : String(x));
  let formula, argv;
  const where = [d.book, "--sheet", d.sheet, "--range", d.address];
  if (d.mode === "shuffle") {
    formula = `=SHUFFLE(${ref}, ${seed})`;
    argv = ["shuffle", ...where];
  } else if (d.mode === "winners") {
    formula = `=SAMPLE(${ref}, ${d.k}, ${seed})`;
    argv = ["sample", ...where, "-k", String(d.k)];
  } else if (d.mode === "groups") {
    formula = `=GROUPS(${ref}, ${d.k}, ${seed})`;
    argv = ["groups", ...where, "-k", String(d.k)];
  } else if (d.mode === "raffle") {
    const tickets = d.tickets ? `${sheetRef(d.sheet)}!${d.tickets}` : "";
    formula = `=SAMPLE(${ref}, ${d.k}, ${seed}, ${tickets}, ${d.reserves || 0})`;
    argv = ["sample", ...where, "--no-header", "-k", String(d.k)];
    if (d.tickets) argv.push("--weights", d.ticketsLetter);
    if (d.reserves) argv.push("--reserves", String(d.reserves));
  } else {
    formula = `=DEAL(${d.k}, ${d.hands}, ${seed}, ${ref})`;
  }
  let command;
  if (d.formulaText) {
    // a design (teams, orders, allocation): its own formula and command line
    formula = d.formulaText;
    command = d.commandText;
  } else if (d.mode === "deal") {
    const n = d.rows.length * d.rows[0].length;
    command =
      `xlshuffle deal --cards ${d.k} --hands ${d.hands} --deck ${n} ` +
      `--seed ${shellQuote(d.seed)}`;
  } else {
    command = ["xlshuffle", ...argv, "--seed", d.seed].map(shellQuote).join(" ");
  }
  return [
    d.time,
    d.sheet,
    d.address,
    d.mode,
    none(d.k),
    none(d.hands),
    d.outputAddress,
    d.seed,
    d.seedFrom,
    PROTOCOL,
    d.version,
    valuesSha256(d.rows),
    valuesSha256(d.output),
    formula,
    command,
    "",
    none(d.reserves),
    d.tickets || "",
    d.mode === "raffle" ? (d.tickets ? "weighted" : "random") : "",
    (d.newSheets || []).join(SHEET_SEPARATOR),
    d.options || "",
  ];
}
