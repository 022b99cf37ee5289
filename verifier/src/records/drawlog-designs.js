/**
 * Draw log rows of the designs that write new sheets: orders and allocation lists.
 */

import { allocationList } from "../protocol/allocation.js";
import { balancedOrders, personOrder } from "../protocol/orders.js";
import { pyStrip, range } from "../protocol/python.js";
import { parseRef } from "../read/a1.js";
import { showValue } from "../read/values.js";
import {
  boxName,
  compareBlock,
  gridOf,
  sheetBlock,
  shellWords,
  valuesSha256,
} from "./drawlog-rows.js";
import { fail } from "./verdict.js";

/**
 * The Draw log rows of the designs that write new sheets: `orders` (the selected items,
 * the IDs the options name; sections 13-14) and `allocation` (the options of xlshuffle
 * allocate; section 15). Returns [what the log's output sha256 hashes, checks, table].
 */
export async function lockedDesign(entry, book, sheet, box) {
  const seed = entry.seed,
    restored = entry["restored (UTC)"] !== "";
  const added = entry["new sheets"].split(" / ").filter((x) => x !== "");
  let out;
  try {
    out = parseRef(entry.output.replace(/\$/g, ""));
  } catch (e) {
    fail("the Draw log row's output is not one block of cells: " + e.message);
  }
  const sheets = [];
  const checked = [];
  let expected, table;
  if (entry.mode === "orders") {
    const where = boxName(entry.sheet, box);
    const items = gridOf(sheet.cells, box);
    if ((await valuesSha256(items)) !== entry["input sha256"])
      fail(
        `the values in ${where} are not the items the draw read: their SHA-256 is not the log's input sha256 (changed since the draw, or another workbook)`,
      );
    if (items.length > 1 && items[0].length > 1)
      fail(`the items ${where} are not one column or one row`);
    const pool = items.flat();
    const m = /^ids (.+?)(, balanced)?$/.exec(entry.options);
    if (!m)
      fail(
        `the Draw log row's options ${JSON.stringify(entry.options)} do not name the IDs' cells`,
      );
    const at = sheetBlock(m[1]);
    if (!book.sheets.includes(at.sheet))
      fail(`the workbook has no sheet ${JSON.stringify(at.sheet)}, where the IDs were (${m[1]})`);
    const people = gridOf((await book.cells(at.sheet)).cells, at.box).flat();
    const ids = people.map((v, i) => {
      if (v === undefined || pyStrip(v.slice(2)) === "")
        fail(
          `the ID ${i + 1} of ${m[1]} is empty: the draw refuses blank IDs, so the IDs changed since`,
        );
      return v[0] === "b" ? "s:" + v.slice(2) : v; // TRUE and FALSE as the texts the cells show
    });
    const n = pool.length,
      k = entry.k === "" ? n : Number(entry.k);
    if (!Number.isInteger(k) || k < 0 || k > n)
      fail(`the log's k ${entry.k} does not fit ${n} items`);
    const orders = m[2]
      ? await balancedOrders(n, ids.length, k, seed)
      : await Promise.all(ids.map((id) => personOrder(n, k, seed, id.slice(2))));
    expected = [["s:ID", ...range(k).map((i) => "n:" + (i + 1))]].concat(
      ids.map((id, j) => [id, ...orders[j].map((i) => pool[i])]),
    );
    if (added.length) sheets.push([added[0], out, expected]);
    checked.push(`the items ${where} are what the draw read`, `the IDs are read from ${m[1]}`);
    table = ids.map((id, j) => [
      showValue(id).replace(/^"|"$/g, ""),
      orders[j].map((i) => showValue(pool[i]).replace(/^"|"$/g, "")).join(", "),
    ]);
  } else {
    const words = shellWords(entry.options);
    const o = { strata: [] };
    for (let i = 0; i < words.length; i += 2) {
      const [flag, value] = [words[i], words[i + 1]];
      if (value === undefined) fail(`the Draw log row's options end at ${flag}`);
      if (flag === "--arms") o.arms = value.split(",");
      else if (flag === "--ratio") o.ratio = value.split(":").map(Number);
      else if (flag === "--n") o.n = Number(value);
      else if (flag === "--block-sizes") o.sizes = value.split(",").map(Number);
      else if (flag === "--strata") {
        const eq = value.indexOf("=");
        o.strata.push([value.slice(0, eq), value.slice(eq + 1).split(",")]);
      } else fail(`the Draw log row's options hold ${flag}, which allocate does not take`);
    }
    if (!o.arms || !o.ratio || !Number.isInteger(o.n) || !o.sizes)
      fail(
        `the Draw log row's options ${JSON.stringify(entry.options)} do not give the arms, ratio, n and block sizes`,
      );
    let rows;
    try {
      rows = await allocationList(seed, o.arms, o.ratio, o.n, o.sizes, o.strata);
    } catch (e) {
      fail(`the Draw log row's options: ${e.message}`);
    }
    const names = o.strata.map(([name]) => "s:" + name);
    expected = [["s:Seq", ...names, "s:Block", "s:BlockSize", "s:Arm"]].concat(
      rows.map(([seq, combo, block, size, arm]) => [
        "n:" + seq,
        ...combo.map((v) => "s:" + v),
        "n:" + block,
        "n:" + size,
        "s:" + arm,
      ]),
    );
    const codes = [["s:Seq", ...names, "s:Code"]].concat(
      rows.map(([seq, combo, , , , code]) => [
        "n:" + seq,
        ...combo.map((v) => "s:" + v),
        "s:" + code,
      ]),
    );
    if (added.length) sheets.push([added[0], out, expected]);
    if (added.length > 1)
      sheets.push([added[1], { r1: 1, c1: 1, r2: codes.length, c2: codes[0].length }, codes]);
    checked.push(`the options ${entry.options} draw ${rows.length} rows`);
    table = rows
      .slice(0, 200)
      .map(([seq, combo, block, size, arm]) => [
        `${combo.length ? combo.join(" ") + " " : ""}#${seq}`,
        `${arm} (block ${block} of size ${size})`,
      ]);
  }
  if (!restored) {
    for (const [name, where, grid] of sheets) {
      if (!book.sheets.includes(name))
        fail(
          `the workbook has no sheet ${JSON.stringify(name)}, which the draw added: give the workbook saved after the draw`,
        );
      compareBlock((await book.cells(name)).cells, where, grid, name, seed);
      checked.push(`the sheet ${JSON.stringify(name)} holds exactly what the seed draws`);
    }
  }
  return { expected, checked, table };
}
