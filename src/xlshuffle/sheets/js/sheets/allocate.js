/**
 * ALLOCATE: a permuted-block allocation list for a trial (protocol section 15), with
 * xlshuffle.excel.allocate's arguments: arms, ratio and block sizes as a range or one text
 * ("A,B", "2:1", "3,6"), strata as "site=North,South;sex=F,M" or a range with one factor
 * per row.
 */

import { allocationList } from "../protocol/allocation.js";
import { canonicalId } from "../protocol/exclusions.js";
import { Mistake, count, isEmpty, listed, rows, show } from "./cells.js";

/** The most rows a list may have per combination (xlshuffle.draw.allocate's MAX_ROWS). */
const MAX_ROWS = 1000000;
const EXAMPLE = 'write them as "site=North,South;sex=F,M"';

function whole(name, cell) {
  if (typeof cell === "string" && /^\s*\d+\s*$/.test(cell)) return Number(cell.trim());
  if (typeof cell === "number" && Number.isInteger(cell)) return cell;
  throw new Mistake(`${name} must hold whole numbers, not ${show(cell)}`);
}

function parts(name, value, sep, numbers = true) {
  let cells = listed(name, value).filter((c) => !isEmpty(c));
  if (!cells.length) throw new Mistake(`${name} has only empty cells: fill it, or leave it out`);
  if (cells.length === 1 && typeof cells[0] === "string" && cells[0].includes(sep)) {
    cells = cells[0].split(sep).map((p) => p.trim());
    if (!cells.every((c) => c))
      throw new Mistake(`${name} has an empty item: separate the items with '${sep}'`);
  }
  return numbers ? cells.map((c) => whole(name, c)) : cells;
}

function values(name, given) {
  if (given.length === 1 && typeof given[0] === "string") {
    const out = given[0].split(",").map((v) => v.trim());
    if (!out.every((v) => v))
      throw new Mistake(
        `strata: stratum '${name}' has an empty value: separate its values with ',', ` +
          "as in site=North,South",
      );
    return out;
  }
  return given;
}

function strataOf(value) {
  const grid = rows("strata", value, { values: true });
  const filled = grid.map((row) => row.filter((c) => !isEmpty(c)));
  let factors;
  if (filled.some((row) => row.some((c) => typeof c === "string" && c.includes("=")))) {
    factors = [];
    for (const cell of filled.flat()) {
      if (typeof cell !== "string")
        throw new Mistake(`strata: ${show(cell)} is not NAME=V1,V2: ${EXAMPLE}`);
      for (const spec of cell.split(/[;\n]/).map((s) => s.trim())) {
        if (!spec) continue;
        const at = spec.indexOf("=");
        const name = at < 0 ? "" : spec.slice(0, at).trim();
        const rest = at < 0 ? "" : spec.slice(at + 1);
        if (!name || !rest.trim())
          throw new Mistake(`strata: ${show(spec)} is not NAME=V1,V2: ${EXAMPLE}`);
        factors.push([name, values(name, [rest])]);
      }
    }
  } else {
    factors = filled
      .filter((row) => row.length)
      .map((row) => {
        const [name, ...given] = row.map((c) => (c === true ? "TRUE" : c === false ? "FALSE" : c));
        if (!given.length)
          throw new Mistake(
            `strata: the stratum ${show(name)} has no values: put them in the cells right of ` +
              `its name, or ${EXAMPLE}`,
          );
        return [String(name).trim(), values(name, given)];
      });
  }
  // a value is its canonical text (section 10), as the list and its label hold it
  factors = factors.map(([name, given]) => [name, given.map(canonicalId)]);
  const names = factors.map(([name]) => name);
  names.forEach((name, i) => {
    if (names.indexOf(name) < i)
      throw new Mistake(`strata: the stratum '${name}' is given twice: give each stratum once`);
  });
  return factors;
}

function gcd(a, b) {
  while (b) [a, b] = [b, a % b];
  return a;
}

/**
 * ALLOCATE's options as the command line takes them ({arms, ratio, n, blockSizes, strata}:
 * canonical texts and whole numbers) and its rows [seq, combination, block, size, arm,
 * code]: what the function and the menu's allocation list both write.
 */
export function allocation(arms, n, seed, ratio, blockSizes, strata) {
  const given = (v) => v !== undefined && !isEmpty(v);
  const names = parts("arms", arms, ",", false);
  const total = count("n", n, { most: MAX_ROWS });
  const r = given(ratio) ? parts("ratio", ratio, ":") : names.map(() => 1);
  if (r.length !== names.length)
    throw new Mistake(
      `ratio has ${r.length} numbers but there are ${names.length} arms: give one per arm`,
    );
  let sizes;
  if (given(blockSizes)) sizes = parts("block_sizes", blockSizes, ",");
  else {
    const unit = r.reduce((a, b) => a + b, 0) / (r.reduce(gcd, 0) || 1);
    sizes = [2 * unit, 4 * unit];
  }
  const factors = given(strata) ? strataOf(strata) : [];
  let list;
  try {
    list = allocationList(seed, names, r, total, sizes, factors);
  } catch (exc) {
    throw new Mistake(exc.message);
  }
  const options = {
    arms: names.map(canonicalId),
    ratio: r,
    n: total,
    blockSizes: sizes,
    strata: factors.map(([name, values]) => [name, [...new Set(values)]]),
  };
  return { options, rows: list };
}

export function allocate(arms, n, seed, ratio, blockSizes, strata) {
  const { rows: list } = allocation(arms, n, seed, ratio, blockSizes, strata);
  return list.map(([seq, combo, block, size, arm]) => [seq, ...combo, block, size, arm]);
}
