/**
 * A record's draw drawn again and held against its permutation, and the results a person
 * reads: winners, orders, groups and teams.
 */

import { range } from "../protocol/python.js";
import { deal, permutation } from "../protocol/shuffles.js";
import { baseName } from "../read/files.js";
import { fail } from "./verdict.js";

/** Compare two lists of numbers; the first difference as a sentence, or null. */
export function firstDifference(got, want, what, nameOf = null) {
  const show = (i) => {
    if (i === undefined) return "nothing";
    const name = nameOf && Number.isInteger(i) ? nameOf(i) : "";
    return `data row ${i + 1}${name ? ` (${name})` : ""}`;
  };
  for (let i = 0; i < Math.max(got.length, want.length); i++) {
    if (got[i] !== want[i]) {
      const g = show(got[i]);
      const w = show(want[i]);
      return `${what}: at position ${i + 1} the seed draws ${g}, the record says ${w}`;
    }
  }
  return null;
}

export function shortRow(cells, limit = 4) {
  const shown = cells
    .slice(0, limit)
    .map((c) => (c === null || c === undefined ? "" : String(c)))
    .join(" · ");
  return cells.length > limit ? shown + " · …" : shown;
}

/** Recompute the permutation a record of shuffle/sample/groups describes; compare it. */
export async function redraw(rec, n) {
  const seed = rec.seed;
  if (typeof seed !== "string" || seed === "") fail("the record has no seed text");
  if (rec.command === "sample") {
    const k = rec.k;
    if (!Number.isInteger(k) || k < 0) fail("the record's k is not a count");
    if (k > n) fail(`the record draws ${k} rows of ${n}`);
    return deal(range(n), k, seed);
  }
  // a restore puts back what the shuffle moved: its permutation is the shuffle's inverse
  if (rec.command === "restore") return inverseOf(await permutation(n, seed));
  return permutation(n, seed);
}

/** The inverse of a permutation: inverseOf(p)[p[i]] === i. */
export function inverseOf(perm) {
  const out = new Array(perm.length);
  perm.forEach((item, p) => {
    out[item] = p;
  });
  return out;
}

export function checkPermutation(rec, drawn, nameOf = null) {
  const stated = rec.permutation;
  if (!Array.isArray(stated)) fail("the record has no permutation");
  const diff = firstDifference(
    drawn,
    stated,
    `the seed ${JSON.stringify(rec.seed)} does not give the record's order`,
    nameOf,
  );
  if (diff) fail(diff);
}

export function describe(rec) {
  if (rec.command === "restore")
    return `restore of the shuffled ${baseName(rec.input)} (the inverse of the shuffle with seed ${JSON.stringify(rec.seed)})`;
  const what = {
    shuffle: "shuffle",
    sample: `draw of ${rec.k}`,
    groups: `split into ${rec.k} groups`,
  }[rec.command];
  return `${what} of ${baseName(rec.input)} with seed ${JSON.stringify(rec.seed)}`;
}

/** The result a person reads: winners, order or groups, with the rows' first cells as names. */
export function resultTable(rec, drawn, rowsOf) {
  const rows = [];
  if (rec.command === "groups") {
    const k = rec.k;
    const teams = Array.from({ length: k }, () => []);
    drawn.forEach((item, p) => teams[p % k].push(item));
    teams.forEach((items, g) =>
      rows.push([
        `group ${g + 1}`,
        items
          .sort((a, b) => a - b)
          .map((i) => rowsOf(i))
          .join("; "),
      ]),
    );
  } else {
    const label = rec.command === "sample" ? "winner" : "position";
    drawn.forEach((item, p) =>
      rows.push([`${label} ${p + 1}`, `data row ${item + 1}: ${rowsOf(item)}`]),
    );
  }
  return rows;
}

export function teamTable(k, teams, rowsOf) {
  return range(k).map((t) => [
    `team ${t + 1}`,
    teams
      .map((x, i) => [x, i])
      .filter(([x]) => x === t + 1)
      .map(([, i]) => rowsOf(i))
      .join("; "),
  ]);
}

export function balanceSummary(balance) {
  if (!balance) return "";
  const avoid = balance.avoid ? ` avoiding ${baseName(balance.avoid.file)}` : "";
  return `, balanced by ${balance.names.join(", ")}${avoid}`;
}

/** The data row indexes (0-based) of a record's kept rows ("7", "12-13": sheet rows). */
export function keptRows(kept, first) {
  const out = new Set();
  for (const span of kept) {
    const [a, b] = span.split("-").map(Number);
    for (let r = a; r <= (b || a); r++) out.add(r - first);
  }
  return out;
}

/**
 * --keep-blank-rows: the rows kept in place stay, the others are drawn as a list of their own
 * (a shuffle, or the deal of a sample), spread back over their positions.
 */
export async function redrawAround(rec, n, kept) {
  const moving = range(n).filter((i) => !kept.has(i));
  const drawn = await redraw(rec, moving.length);
  if (rec.command === "sample") return drawn.map((j) => moving[j]);
  return spreadOver(drawn, n, moving);
}

/** A permutation of the free rows as one of all n data rows, the kept rows in place. */
export function spreadOver(perm, n, free) {
  const full = range(n);
  free.forEach((pos, j) => {
    full[pos] = free[perm[j]];
  });
  return full;
}
