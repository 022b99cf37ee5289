/**
 * SAMPLESIZE and UPPERLIMIT: an audit sample's size before it is drawn, its upper limit
 * after, with xlshuffle.functions.auditing's arguments, readers and words. A rate is a
 * number (a cell formatted as 95% holds 0.95) or a text such as "95%"; the figures are
 * auditplans.js's, Python's to the last digit (UPPERLIMIT's the double nearest Python's
 * 50-digit decimal, as float() gives it).
 */

import { Mistake, errorText, isDate, isEmpty, oneCell, option, rows, show } from "./cells.js";
import { toNumber } from "./decimals.js";
import {
  MAX_SAMPLE,
  MODELS,
  attributeUpperLimit,
  modelOf,
  sampleSize,
  stringerBound,
} from "./auditplans.js";

const RATE = "a rate such as 95% or 0.95";
const MAX_WHOLE = 2 ** 53;

/** A value as xlshuffle.functions.arguments.show describes it (a date is a datetime there). */
function shown(value) {
  return isDate(value) ? "a datetime" : show(value);
}

/** arguments.count, with its words: a whole number from least to most. */
function whole(name, value, { least = 1, most = MAX_WHOLE } = {}) {
  const v = oneCell(name, value, false);
  if (isEmpty(v)) throw new Mistake(`${name} is empty: give a whole number of ${least} or more`);
  if (typeof v !== "number" || !Number.isInteger(v))
    throw new Mistake(`${name} must be a whole number of ${least} or more, not ${shown(v)}`);
  if (v < least) {
    const empty = least === 1 ? ": the result would be empty" : "";
    throw new Mistake(`${name} must be ${least} or more, not ${shown(v)}${empty}`);
  }
  if (v > most)
    throw new Mistake(`${name} must be at most ${most.toLocaleString("en-US")}, not ${shown(v)}`);
  return v;
}

function rateCell(name, value, optional = false) {
  const v = oneCell(name, value, optional);
  if (isEmpty(v)) {
    if (optional) return 0;
    throw new Mistake(`${name} is empty: give ${RATE}`);
  }
  if (typeof v !== "number" && typeof v !== "string")
    throw new Mistake(`${name} must be ${RATE}, not ${shown(v)}`);
  return v;
}

function modelCell(value, dflt) {
  const text = option("model", value, MODELS.join(", "));
  return text === null ? dflt : modelOf(text);
}

function populationCell(value) {
  const v = oneCell("population", value);
  return isEmpty(v) ? null : whole("population", v);
}

function SAMPLESIZE(confidence, tolerable, expected, population, model) {
  const how = modelCell(model, "binomial");
  return sampleSize({
    confidence: rateCell("confidence", confidence),
    tolerable: rateCell("tolerable", tolerable),
    expected: rateCell("expected", expected, true),
    population: populationCell(population),
    model: how,
  });
}

/** The deviations, when errors is one cell holding a whole number (0 or more). */
function countOf(grid) {
  if (grid.length !== 1 || grid[0].length !== 1) return null;
  const cell = grid[0][0];
  if (typeof cell === "boolean" || (Number.isInteger(cell) && cell >= 0))
    return whole("errors", cell, { least: 0 });
  return null;
}

/** Every non-empty cell of errors, row by row, as a tainting. */
function taintingsOf(grid) {
  const out = [];
  grid.flat().forEach((cell, i) => {
    const code = errorText(cell);
    if (code !== null)
      throw new Mistake(`errors, cell ${i + 1} shows the error ${code}: fix that cell`);
    if (isEmpty(cell)) return;
    if (typeof cell !== "number" && typeof cell !== "string")
      throw new Mistake(`errors, cell ${i + 1}: ${shown(cell)} is not a tainting`);
    out.push(cell);
  });
  return out;
}

function UPPERLIMIT(sampleSizeCell, errors, confidence, population, model) {
  const n = whole("sample_size", sampleSizeCell, { most: MAX_SAMPLE });
  const c = rateCell("confidence", confidence);
  const grid = rows("errors", errors === undefined ? "" : errors);
  const count = countOf(grid);
  if (count !== null) {
    const limit = attributeUpperLimit({
      sampleSize: n,
      deviations: count,
      confidence: c,
      population: populationCell(population),
      model: modelCell(model, "binomial"),
    });
    return toNumber(limit);
  }
  const taints = taintingsOf(grid);
  const how = modelCell(model, "poisson");
  if (how === "hypergeometric" || populationCell(population) !== null)
    throw new Mistake(
      'taintings take model "poisson" or "binomial" and no population: leave it empty',
    );
  return toNumber(stringerBound(taints, { sampleSize: n, confidence: c, model: how }));
}

/** The audit functions by their names in the sheet. */
export const AUDIT_FUNCTIONS = { SAMPLESIZE, UPPERLIMIT };
