/**
 * The worksheet functions for Sheets, as xlshuffle.excel defines them: the same arguments
 * in the same order, the same results for the same values and seed. Each takes its
 * arguments as Sheets hands them over and returns what Sheets spills (an array of rows)
 * or one value; a mistake throws a Mistake saying what to change.
 */

import { canonicalId } from "../protocol/exclusions.js";
import { numberText } from "../protocol/seeds.js";
import { balancedOrders, personOrder } from "../protocol/orders.js";
import { deal, dealHands, groups, shuffleGrid, standardDeck } from "../protocol/shuffles.js";
import { balancedTeams } from "../protocol/teams.js";
import { ticket, ticketId } from "../protocol/ticketdraws.js";
import {
  MAX_CELLS,
  Mistake,
  count,
  firstColumn,
  flag,
  isEmpty,
  isRow,
  itemsOf,
  labels,
  listed,
  oneCell,
  option,
  perItem,
  rows,
  seedOf,
  show,
  text,
} from "./cells.js";
import { allocate } from "./allocate.js";
import { AUDIT_FUNCTIONS } from "./auditing.js";
import { freshSeed } from "./fresh.js";
import { raffle, ticketRaffle, tickets, uniqueIds } from "./raffle.js";
import { audit, byStrata, cents, cutoffOf, weightsOf } from "./samples.js";
import { shuffleText } from "./text.js";

const SHEET_ROWS = 1048576;
const SHEET_COLUMNS = 18278;

/** The seed of a draw: the cell's, or a fresh one when it is empty. */
function seeded(value) {
  const seed = seedOf(value);
  return seed === null ? freshSeed() : seed;
}

const MODES = {
  rows: "rows",
  columns: "columns",
  cells: "cells",
  withinrows: "within-rows",
  withincolumns: "within-columns",
};

function gridMode(by) {
  const key = by.toLowerCase().replace(/[\s_-]+/g, "");
  if (!(key in MODES))
    throw new Mistake(
      `unknown mode '${by}': use one of rows, columns, cells, within-rows, within-columns`,
    );
  return MODES[key];
}

function SHUFFLE(data, seed, by, header) {
  const grid = rows("data", data);
  const given = option("by", by, "rows, columns, cells, within rows, within columns");
  const mode = given === null ? (isRow(grid) ? "columns" : "rows") : gridMode(given);
  const keep = flag("header", header);
  const s = seeded(seed);
  if (!keep) return shuffleGrid(grid, mode, s);
  if (grid.length < 2) throw new Mistake("header is TRUE but data has only one row");
  return [grid[0].slice(), ...shuffleGrid(grid.slice(1), mode, s)];
}

function SHUFFLESTR(value, seed, unit) {
  const u = option("unit", unit, "letters, words");
  return shuffleText(text("text", value), seeded(seed), u);
}

function deckOf(value) {
  if (value === undefined || isEmpty(value)) return standardDeck(0, 1);
  const grid = rows("deck", value);
  if (grid.length === 1 && grid[0].length === 1 && typeof grid[0][0] === "number") {
    const n = count("deck", grid[0][0]);
    return Array.from({ length: n }, (_, i) => i + 1);
  }
  const cards = grid.flat();
  if (cards.every(isEmpty))
    throw new Mistake("deck has only empty cells: leave it empty for 52 cards, or fill it");
  return cards;
}

function DEAL(cards, hands, seed, deckArg) {
  const c = count("cards", cards, { most: SHEET_ROWS, why: " (the rows of a sheet)" });
  const h = count("hands", hands, {
    dflt: 1,
    most: SHEET_COLUMNS,
    why: " (the columns of a sheet)",
  });
  if (c * h > SHEET_ROWS)
    throw new Mistake(
      `cannot deal ${c} cards to ${h} hands: that is ${c * h} cards and DEAL deals at most ` +
        `${SHEET_ROWS}; deal fewer cards or hands`,
    );
  const deck = deckOf(deckArg);
  if (c * h > deck.length)
    throw new Mistake(
      `cannot deal ${c} cards to ${h} hands: that is ${c * h} cards and the deck has ` +
        `${deck.length}; deal fewer, or use a bigger deck`,
    );
  const dealt = dealHands(deck, c, h, seeded(seed));
  return Array.from({ length: c }, (_, r) => dealt.map((hand) => hand[r]));
}

function sampleMethod(value) {
  const t = option("method", value, "random, ticket, rivest");
  const how = t === null ? "random" : t.trim().toLowerCase();
  if (!["random", "ticket", "rivest"].includes(how))
    throw new Mistake(`unknown method '${t}': use random, ticket or rivest`);
  return how;
}

function SAMPLE(data, k, seed, weights, reserves, exclude, ids, method) {
  const grid = rows("data", data, { values: true });
  const n = count("k", k);
  const extra = count("reserves", reserves, { dflt: 0, least: 0 });
  const how = sampleMethod(method);
  const given = (v) => v !== undefined && !isEmpty(v);
  if (how === "rivest" && given(weights))
    throw new Mistake(
      'method "rivest" gives one ticket per row: leave weights empty, or use method "ticket"',
    );
  if (how === "random" && !given(exclude) && given(ids))
    throw new Mistake(
      'ids is read with exclude or with method "ticket": give one, or leave ids empty',
    );
  const [size, noun] = itemsOf(grid);
  if (how !== "random") return ticketSample(grid, n, seed, { weights, extra, exclude, ids, how });
  if (n + extra > size && !given(weights) && !given(exclude))
    throw new Mistake(
      `cannot draw ${n} from ${size} items: k must be at most ${size}; draw fewer or add items`,
    );
  const s = seeded(seed);
  if (!given(weights) && extra === 0 && !given(exclude)) {
    if (isRow(grid)) return [deal(grid[0], n, s)];
    return deal(grid, n, s);
  }
  const across = isRow(grid);
  const items = across ? grid[0].map((cell) => [cell]) : grid;
  const w = given(weights)
    ? tickets("weights", perItem("weights", weights, size, noun), noun)
    : null;
  let idCells = null,
    excluded = null;
  if (given(exclude)) {
    excluded = listed("exclude", exclude);
    idCells = labels(
      "ids",
      given(ids) ? perItem("ids", ids, size, noun) : firstColumn(grid),
      noun,
      true,
    );
    uniqueIds(idCells, noun);
  }
  const { picked, roles } = raffle(items.length, n, s, {
    weights: w,
    reserves: extra,
    ids: idCells,
    excluded,
  });
  const out = picked.map((i, p) => (roles ? [...items[i], ...roles[p]] : items[i].slice()));
  return across ? out[0].map((_, c) => out.map((r) => r[c])) : out;
}

function SAMPLEBY(data, k, strataArg, seed, weights, reserves) {
  const grid = rows("data", data, { values: true });
  const n = count("k", k);
  const [size, noun] = itemsOf(grid);
  const labelCells = labels("strata", perItem("strata", strataArg, size, noun), noun, false);
  const given = weights !== undefined && !isEmpty(weights);
  const w = given ? weightsOf(perItem("weights", weights, size, noun), noun) : null;
  const extra = count("reserves", reserves, { dflt: 0, least: 0 });
  const across = isRow(grid);
  const items = across ? grid[0].map((cell) => [cell]) : grid;
  const drawn = byStrata(labelCells, n, seeded(seed), { weights: w, reserves: extra });
  const out = drawn.map(([i, role]) => [...items[i], ...role]);
  return across ? out[0].map((_, c) => out.map((r) => r[c])) : out;
}

const AUDIT_METHODS = {
  systematic: "systematic",
  mus: "mus",
  monetaryunit: "mus",
  cell: "cell",
};

function AUDITSAMPLE(data, k, seed, method, amounts, topStratum) {
  const grid = rows("data", data, { values: true });
  const n = count("k", k, { most: SHEET_ROWS, why: " (the rows of a sheet)" });
  const given = amounts !== undefined && !isEmpty(amounts);
  const t = option("method", method, "systematic, mus, cell");
  let how = given ? "mus" : "systematic";
  if (t !== null) {
    how = AUDIT_METHODS[t.toLowerCase().replace(/-/g, " ").split(/\s+/).join("")];
    if (!how)
      throw new Mistake(
        `unknown method '${t}': use systematic, or mus or cell (monetary-unit sampling) with ` +
          "amounts",
      );
    if (how !== "systematic" && !given)
      throw new Mistake(`method "${how}" needs amounts: a column of money amounts, one per row`);
    if (how === "systematic" && given)
      throw new Mistake(
        'amounts are read by method "mus" or "cell" only: leave amounts empty for a ' +
          'systematic selection, or use "mus"',
      );
  }
  const [size, noun] = itemsOf(grid);
  const across = isRow(grid);
  const items = across ? grid[0].map((cell) => [cell]) : grid;
  const perRow = how === "systematic" ? null : perItem("amounts", amounts, size, noun);
  const cutoff = cutoffOf(oneCell("top_stratum", topStratum), how);
  const money = perRow === null ? null : cents(perRow, noun);
  const picked = audit(size, n, seeded(seed), money, { cells: how === "cell", cutoff, noun });
  const out = picked.map(([i, extra]) => [...items[i], ...extra]);
  return across ? out[0].map((_, c) => out.map((r) => r[c])) : out;
}

/** SAMPLE by tickets (section 18): each row's own ticket from the seed and its ID. */
function ticketSample(grid, n, seed, { weights, extra, exclude, ids, how }) {
  const given = (v) => v !== undefined && !isEmpty(v);
  const [size, noun] = itemsOf(grid);
  const across = isRow(grid);
  const items = across ? grid[0].map((cell) => [cell]) : grid;
  const w = given(weights) ? perItem("weights", weights, size, noun) : null;
  const texts =
    w === null ? null : w.map((cell) => (typeof cell === "number" ? numberText(cell) : cell));
  const excluded = given(exclude) ? listed("exclude", exclude) : null;
  const found = given(ids) ? perItem("ids", ids, size, noun) : firstColumn(grid);
  const idCells = labels("ids", found, noun, false);
  uniqueIds(idCells, noun);
  const s = seeded(seed);
  const {
    picked,
    roles,
    tickets: drawn,
  } = ticketRaffle(idCells, n, s, {
    weights: texts,
    reserves: extra,
    excluded,
    method: how,
  });
  const out = picked.map((i, p) => [...items[i], ...(roles ? roles[p] : []), drawn[p]]);
  return across ? out[0].map((_, c) => out.map((r) => r[c])) : out;
}

function balanceNames(value) {
  const found = listed("balance", value).filter((c) => !isEmpty(c));
  if (!found.length)
    throw new Mistake("balance has only empty cells: name a column, or leave balance out");
  return found.map((cell) => {
    if (typeof cell === "string") return cell.trim();
    if (typeof cell !== "number")
      throw new Mistake(`balance must name columns by header text or number, not ${show(cell)}`);
    return count("balance", cell);
  });
}

function headerIndex(textGiven, heads) {
  if (heads === null) return null;
  const found = heads.flatMap((h, j) => (h.toLowerCase() === textGiven.toLowerCase() ? [j] : []));
  if (found.length > 1)
    throw new Mistake(
      `balance: ${found.length} columns are headed '${textGiven}': name the column by its number`,
    );
  return found.length ? found[0] : null;
}

function needHeader(textGiven, heads) {
  const j = headerIndex(textGiven, heads);
  if (j === null)
    throw new Mistake(
      `balance: no column is headed '${textGiven}': name the column by its header text or its number`,
    );
  return j;
}

function balanceColumns(names, heads, width) {
  const out = [];
  for (const item of names) {
    if (typeof item === "number") {
      if (item > width)
        throw new Mistake(
          `balance: column ${item} is past the ${width} column(s) of the data: give a number ` +
            `from 1 to ${width}, or a header text`,
        );
      out.push(item - 1);
      continue;
    }
    const j = headerIndex(item, heads);
    if (j === null && item.includes(","))
      out.push(...item.split(",").map((part) => needHeader(part.trim(), heads)));
    else out.push(j === null ? needHeader(item, heads) : j);
  }
  if (new Set(out).size < out.length)
    throw new Mistake("balance names one column twice: name each column once");
  return out;
}

function cellValue(cell) {
  if (typeof cell === "boolean") return cell ? "TRUE" : "FALSE";
  return isEmpty(cell) ? null : cell;
}

function GROUPS(data, k, seed, balance) {
  const grid = rows("data", data, { values: true });
  const n = count("k", k);
  if (balance === undefined || isEmpty(balance)) {
    if (isRow(grid)) return [groups(grid[0].length, n, seeded(seed))];
    return groups(grid.length, n, seeded(seed)).map((g) => [g]);
  }
  const names = balanceNames(balance);
  const header = names.some((x) => typeof x === "string");
  const heads = grid[0].map((cell) => canonicalId(cellValue(cell)));
  const cols = balanceColumns(names, header ? heads : null, grid[0].length);
  const people = header ? grid.slice(1) : grid;
  if (!people.length)
    throw new Mistake("data holds only its header row: select the header and the rows below it");
  const values = people.map((row) => cols.map((c) => cellValue(row[c])));
  const teams = balancedTeams(values, n, seeded(seed));
  return [...(header ? [["Group"]] : []), ...teams.map((g) => [g])];
}

function line(name, value) {
  const grid = rows(name, value, { values: true });
  if (grid.length > 1 && grid[0].length > 1)
    throw new Mistake(
      `${name} is ${grid.length} rows by ${grid[0].length} columns: give one column or one row`,
    );
  return grid.flat();
}

function ORDERS(items, ids, seed, k, balanced) {
  const pool = line("items", items);
  const people = labels("ids", line("ids", ids), "cell", false);
  const n = pool.length;
  const places = count("k", k, { dflt: n, least: 0, most: n, why: " (the number of items)" });
  const s = seeded(seed);
  const seen = new Set();
  people.forEach((id, i) => {
    const key = canonicalId(id);
    if (seen.has(key))
      throw new Mistake(
        `ids, cell ${i + 1}: the ID '${key}' is listed twice: give each person one ID`,
      );
    seen.add(key);
  });
  const orders = flag("balanced", balanced)
    ? balancedOrders(n, people.length, places, s)
    : people.map((id) => personOrder(n, places, s, id));
  return people.map((id, i) => [id, ...orders[i].map((x) => pool[x])]);
}

function TICKET(ids, seed, number) {
  const s = seedOf(seed);
  if (s === null || (typeof s === "string" && !s.trim()))
    throw new Mistake("a ticket needs a seed: give the seed of the draw it belongs to");
  const nth = count("number", number, { dflt: 0, least: 0 });
  const one = (value) => {
    if (isEmpty(value) || (typeof value === "string" && !value.trim())) return "";
    const id = typeof value === "boolean" ? (value ? "TRUE" : "FALSE") : value;
    try {
      return ticket(s, ticketId(id), nth);
    } catch (exc) {
      throw new Mistake(`ids: '${value}': ${exc.message}`);
    }
  };
  if (!Array.isArray(ids)) return one(oneCell("ids", ids, false));
  const grid = rows("ids", ids);
  if (grid.length * grid[0].length > MAX_CELLS) throw new Mistake("ids has too many cells");
  return grid.map((row) => row.map(one));
}

function ALLOCATE(arms, n, seed, ratio, blockSizes, strata) {
  return allocate(arms, n, seeded(seed), ratio, blockSizes, strata);
}

/** The functions by their names in the sheet. */
export const FUNCTIONS = {
  SHUFFLE,
  SHUFFLESTR,
  DEAL,
  SAMPLE,
  SAMPLEBY,
  AUDITSAMPLE,
  GROUPS,
  ORDERS,
  ALLOCATE,
  TICKET,
  ...AUDIT_FUNCTIONS,
};
