/**
 * Draw and lock for the designs: balanced teams, per-person orders, allocation lists, as
 * xlshuffle.lock.designs does in Excel. Each draws through the function's own code
 * (GROUPS with balance, ORDERS, ALLOCATE), writes plain values and logs the row Excel
 * logs: the same formula and command line. Teams go right of the selection; orders and
 * allocation lists go on new sheets (Orders, Allocation and Allocation codes, numbered
 * when taken), which "restore the last draw" deletes.
 */

import { allocation } from "./allocate.js";
import { Mistake, count, flag, isEmpty } from "./cells.js";
import { FUNCTIONS } from "./functions.js";
import { asWritten, columnLetters, logDraw, now, seedOfBook, selection, VERSION } from "./lock.js";
import { cellText, logRow, sheetRef, shellQuote } from "./log.js";

const { GROUPS, ORDERS } = FUNCTIONS;
const MAX_CELLS = 10000000;

/** A prompt's answer as text ("" for nothing), as Excel's form fields are read. */
function answer(value) {
  return value === undefined || value === null ? "" : cellText(value)[1].trim();
}

const ref = (sheet, address) => `${sheetRef(sheet.getName())}!${address}`;

/** The cells right of the selection, refused unless empty. */
function beside(range, height, width) {
  const target = range
    .getSheet()
    .getRange(range.getRow(), range.getColumn() + range.getNumColumns(), height, width);
  if (target.getValues().some((r) => r.some((v) => !isEmpty(v))))
    throw new Mistake(
      `the cells ${target.getA1Notation()} right of the selection are not empty: ` +
        "clear them or move the list; nothing is overwritten",
    );
  return target;
}

function draw(book, fields) {
  return { book: book.getName() + ".xlsx", version: VERSION, time: now(), ...fields };
}

// ------------------------------------------------------------------ teams

/** The selected columns (0-based) that given names: headers of the row above, or letters. */
function balanceColumns(range, given) {
  const sheet = range.getSheet();
  const left = range.getColumn(),
    width = range.getNumColumns();
  const heads =
    range.getRow() > 1
      ? sheet
          .getRange(range.getRow() - 1, left, 1, width)
          .getValues()[0]
          .map((v) => answer(v))
      : [];
  const same = (a, b) => a.toLowerCase() === b.toLowerCase();
  const whole = heads.some((h) => same(h, given));
  const parts = whole ? [given] : given.split(",").map((p) => p.trim());
  const out = [];
  for (const part of parts) {
    const found = heads.flatMap((h, j) => (part && same(h, part) ? [j] : []));
    if (found.length > 1)
      throw new Mistake(
        `balance: ${found.length} selected columns are headed '${part}': name the ` +
          "column by its letter instead",
      );
    const letter = /^[A-Za-z]{1,3}$/.test(part)
      ? [...part.toUpperCase()].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0)
      : 0;
    if (found.length) out.push(found[0]);
    else if (letter >= left && letter < left + width) out.push(letter - left);
    else {
      const shown =
        heads
          .filter((h) => h)
          .map((h) => `'${h}'`)
          .join(", ")
          .slice(0, 120) || "nothing";
      throw new Mistake(
        `balance: no selected column is headed or lettered '${part}' (the row above ` +
          `the selection holds ${shown}): name the columns by header or letter, ` +
          "separated by commas",
      );
    }
  }
  if (new Set(out).size < out.length)
    throw new Mistake("balance names one column twice: name each column once");
  return out;
}

/** Team numbers 1..k right of the selection, balanced by the columns balance names. */
export function lockedTeams(book, args) {
  const n = count("k", args.k);
  const given = answer(args.balance);
  if (!given)
    throw new Mistake(
      "balance is empty: name the column(s) to balance by (header or letter, such as " +
        "Gender), or use assign groups",
    );
  const range = selection(book, 2);
  const sheet = range.getSheet();
  const rows = range.getValues();
  const cols = balanceColumns(range, given);
  const [seed, seedFrom] = seedOfBook(book);
  const output = GROUPS(rows, n, seed, [cols.map((c) => c + 1)]);
  const target = beside(range, output.length, 1);
  target.setValues(output);
  const letters = cols.map((c) => columnLetters(range.getColumn() + c));
  const numbers = cols.map((c) => String(c + 1));
  const arg = numbers.length === 1 ? numbers[0] : `{${numbers.join(",")}}`;
  const address = range.getA1Notation();
  const file = book.getName() + ".xlsx";
  const d = draw(book, {
    mode: "teams",
    sheet: sheet.getName(),
    address,
    seed,
    seedFrom,
    rows,
    output,
    outputAddress: target.getA1Notation(),
    k: n,
    options: `balance ${letters.join(", ")}`,
    formulaText: `=GROUPS(${ref(sheet, address)}, ${n}, ${quoted(seed)}, ${arg})`,
    commandText:
      `xlshuffle groups ${shellQuote(file)} --sheet ${shellQuote(sheet.getName())} ` +
      `--range ${address} --no-header -k ${n} ` +
      letters.map((l) => `--balance ${l}`).join(" ") +
      ` --seed ${shellQuote(seed)} -o teams.xlsx`,
  });
  logDraw(book, logRow(d));
  return d;
}

function quoted(text) {
  return '"' + text.replace(/"/g, '""') + '"';
}

// ------------------------------------------------------------------ new sheets

/** A new sheet after the others, named base ("base 2", ... when taken); the sheet that
 * was active stays active. */
function newSheet(book, base, active) {
  const taken = new Set(book.getSheets().map((s) => s.getName().toLowerCase()));
  let name = base;
  for (let i = 2; taken.has(name.toLowerCase()); i++) name = `${base} ${i}`;
  const sheet = book.insertSheet(name, book.getSheets().length);
  if (active) active.activate();
  return sheet;
}

function put(sheet, grid) {
  const target = sheet.getRange(1, 1, grid.length, grid[0].length);
  target.setValues(grid.map((r) => r.map(asWritten)));
  return target.getA1Notation();
}

const BLOCK = /^\$?[A-Za-z]{1,3}\$?[0-9]{1,7}(?::\$?[A-Za-z]{1,3}\$?[0-9]{1,7})?$/;

/** The IDs' cells: a named range (IDS) or an address (E2:E31, or 'Sign-up'!A2:A31). */
function idsRange(book, sheet, given) {
  const named = book.getRangeByName(given);
  if (named) return named;
  const at = given.lastIndexOf("!");
  const where = at < 0 ? "" : given.slice(0, at).replace(/^'|'$/g, "").replace(/''/g, "'");
  const address = given.slice(at + 1).trim();
  const on = where ? book.getSheetByName(where) : sheet;
  if (!on || !BLOCK.test(address))
    throw new Mistake(
      `ids: no name or range '${given.slice(0, 60)}': define the name IDS for the IDs' ` +
        "cells, or give their address, such as E2:E31 or 'Sign-up'!A2:A31",
    );
  return on.getRange(address.replace(/\$/g, "").toUpperCase());
}

/** Each person's own order of the selected items on a new sheet Orders (=ORDERS). */
export function lockedOrders(book, args) {
  const range = selection(book, 1);
  const sheet = range.getSheet();
  const items = range.getValues();
  if (items.length > 1 && items[0].length > 1)
    throw new Mistake(
      `the selection ${range.getA1Notation()} has several rows and columns: select the ` +
        "items, one column or one row",
    );
  const where = idsRange(book, sheet, answer(args.ids) || "IDS");
  if (where.getNumRows() * where.getNumColumns() > MAX_CELLS)
    throw new Mistake(
      `ids: ${where.getA1Notation()} has more than 10,000,000 cells: give only the IDs`,
    );
  const people = where.getValues();
  const places = answer(args.k) === "" ? undefined : args.k;
  let balanced = args.balanced;
  if (typeof balanced === "string" && ["TRUE", "FALSE"].includes(balanced.trim().toUpperCase()))
    balanced = balanced.trim().toUpperCase() === "TRUE";
  const yes = flag("balanced", balanced);
  const [seed, seedFrom] = seedOfBook(book);
  const rows = ORDERS(items, people, seed, places, yes);
  const m = rows[0].length - 1;
  const grid = [["ID", ...Array.from({ length: m }, (_, i) => i + 1)], ...rows];
  const idsRef = ref(where.getSheet(), where.getA1Notation());
  const added = newSheet(book, "Orders", sheet);
  const output = put(added, grid);
  const address = range.getA1Notation();
  const d = draw(book, {
    mode: "orders",
    sheet: sheet.getName(),
    address,
    seed,
    seedFrom,
    rows: items,
    output: grid,
    outputAddress: output,
    k: places === undefined ? null : m,
    newSheets: [added.getName()],
    options: `ids ${idsRef}` + (yes ? ", balanced" : ""),
    formulaText:
      `=ORDERS(${ref(sheet, address)}, ${idsRef}, ${quoted(seed)}, ` +
      `${places === undefined ? "" : m}, ${yes ? "TRUE" : "FALSE"})`,
    commandText:
      "xlshuffle orders items.txt --ids ids.txt" +
      (places === undefined ? "" : ` -k ${m}`) +
      (yes ? " --balanced" : "") +
      ` --seed ${shellQuote(seed)} -o orders.csv`,
  });
  logDraw(book, logRow(d));
  return d;
}

/** The options of `xlshuffle allocate` that draw this list (without the seed). */
function allocateOptions(o) {
  const words = ["--arms", o.arms.join(","), "--ratio", o.ratio.join(":")];
  words.push("--n", String(o.n), "--block-sizes", o.blockSizes.join(","));
  for (const [name, values] of o.strata) words.push("--strata", `${name}=${values.join(",")}`);
  return words.map(shellQuote).join(" ");
}

/**
 * A permuted-block allocation list on a new sheet Allocation (Seq, the strata, Block,
 * BlockSize, Arm) and its concealment codes on Allocation codes (Seq, the strata, Code),
 * as =ALLOCATE and `xlshuffle allocate ... --codes-only` write them. args: {arms, n,
 * ratio, blockSizes, strata}, texts as ALLOCATE takes them; empty ones its defaults.
 */
export function lockedAllocation(book, args) {
  const given = [args.arms, args.ratio, args.blockSizes, args.strata].map(answer);
  const [seed, seedFrom] = seedOfBook(book);
  const opt = (t) => (t === "" ? undefined : t);
  const { options, rows } = allocation(
    opt(given[0]),
    args.n,
    seed,
    opt(given[1]),
    opt(given[2]),
    opt(given[3]),
  );
  const names = options.strata.map(([name]) => name);
  const grid = [
    ["Seq", ...names, "Block", "BlockSize", "Arm"],
    ...rows.map(([seq, combo, block, size, arm]) => [seq, ...combo, block, size, arm]),
  ];
  const codes = [
    ["Seq", ...names, "Code"],
    ...rows.map(([seq, combo, , , , code]) => [seq, ...combo, code]),
  ];
  const active = book.getActiveSheet ? book.getActiveSheet() : null;
  const listed = newSheet(book, "Allocation", active);
  const output = put(listed, grid);
  const concealed = newSheet(book, "Allocation codes", active);
  put(concealed, codes);
  const call = [quoted(given[0]), String(options.n), quoted(seed)];
  call.push(...given.slice(1).map((g) => (g ? quoted(g) : "")));
  while (!call[call.length - 1]) call.pop();
  const d = draw(book, {
    mode: "allocation",
    sheet: listed.getName(),
    address: output,
    seed,
    seedFrom,
    rows: [],
    output: grid,
    outputAddress: output,
    k: options.n,
    newSheets: [listed.getName(), concealed.getName()],
    options: allocateOptions(options),
    formulaText: `=ALLOCATE(${call.join(", ")})`,
    commandText:
      `xlshuffle allocate ${allocateOptions(options)} --seed ${shellQuote(seed)} ` +
      "-o list.csv --codes-only codes.csv",
  });
  logDraw(book, logRow(d));
  return d;
}
