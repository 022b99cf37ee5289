/**
 * The record of `xlshuffle orders` (sections 13-14).
 */

import { balancedOrders, personOrder } from "../protocol/orders.js";
import { range } from "../protocol/python.js";
import { findFile, loadFiles } from "./matching.js";
import { compareTable, listValues, rangeTexts } from "./tables.js";
import { fail } from "./verdict.js";

export async function verifyOrders(rec, files) {
  const loaded = await loadFiles(files);
  const itemsFile = findFile(loaded, rec.items_sha256, rec.items, "items file");
  const items = rec.items_range
    ? await rangeTexts(itemsFile, rec.items_range)
    : await listValues(itemsFile, rec.items_column);
  const idsFile = findFile(loaded, rec.ids_sha256, rec.ids, "IDs file");
  const ids = rec.ids_range
    ? await rangeTexts(idsFile, rec.ids_range)
    : await listValues(idsFile, rec.ids_column);
  if (items.length !== rec.n)
    fail(`the items file holds ${items.length} items, the record says ${rec.n}`);
  if (ids.length !== rec.people)
    fail(`the IDs file holds ${ids.length} IDs, the record says ${rec.people}`);
  const k = rec.k === null || rec.k === undefined ? rec.n : rec.k;
  const orders = rec.balanced
    ? await balancedOrders(rec.n, ids.length, k, rec.seed)
    : await Promise.all(ids.map((id) => personOrder(rec.n, k, rec.seed, id)));
  const table = [["ID", ...range(k).map((i) => String(i + 1))]].concat(
    ids.map((id, j) => [id, ...orders[j].map((i) => items[i])]),
  );
  const output = findFile(loaded, rec.output_sha256, rec.output, "orders table", false);
  await compareTable(table, output);
  if (rec.output_sha256 && output.sha !== rec.output_sha256)
    fail(
      `${output.name} holds the orders but is not the file the draw wrote (SHA-256 ${output.sha}, the record says ${rec.output_sha256})`,
    );
  return {
    message:
      `Verified: ${rec.balanced ? "counterbalanced orders (section 14)" : "per-person orders (section 13)"}` +
      ` of ${rec.n} items for ${ids.length} people with seed ${JSON.stringify(rec.seed)}.` +
      ` Checked: the items and IDs are the files the draw read; every order in ${output.name} is what the seed draws.`,
    table: ids.map((id, j) => [id, orders[j].map((i) => items[i]).join(", ")]),
  };
}
