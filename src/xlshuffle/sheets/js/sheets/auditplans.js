/**
 * Audit planning and evaluation, as draw/auditplan.py and draw/auditeval.py define them:
 * the smallest sample whose upper limit stays below the tolerable rate (a walk up from a
 * size every plan needs, binomial, Poisson or hypergeometric), the upper limit after the
 * sample (Clopper-Pearson, Poisson factors, the hypergeometric bound) and the Stringer
 * bound of a monetary-unit sample. Rates are exact fractions; the figures are tails.js's,
 * so each is Python's to the last digit. Mistakes carry Python's words.
 */

import { pyStrip, pythonFloatRepr } from "../protocol/python.js";
import { Mistake } from "./cells.js";
import { ZERO, add, dec, div, mul, sub } from "./decimals.js";
import { Fraction, decimalText } from "./exact.js";
import {
  binomialBelow,
  binomialUpper,
  decimalOf,
  gammaCdfAbove,
  hypergeometricAtMost,
  hypergeometricUpper,
  poissonFactor,
} from "./tails.js";

export const MAX_SAMPLE = 10000;
export const MODELS = ["binomial", "poisson", "hypergeometric"];

const NOT_PRINTABLE = /[\p{C}\p{Z}]/u;

/** Python's repr of a text. */
export function pyRepr(text) {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) {
    const code = ch.codePointAt(0);
    if (ch === quote || ch === "\\") out += "\\" + ch;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (ch !== " " && NOT_PRINTABLE.test(ch)) {
      const hex = code.toString(16);
      if (code < 0x100) out += "\\x" + hex.padStart(2, "0");
      else if (code < 0x10000) out += "\\u" + hex.padStart(4, "0");
      else out += "\\U" + hex.padStart(8, "0");
    } else out += ch;
  }
  return out + quote;
}

/** auditplan.py's _show: a text by its repr (40 characters at most), a number as str(). */
function showCore(value) {
  if (typeof value === "string")
    return value.length <= 40 ? pyRepr(value) : pyRepr(value.slice(0, 40)).slice(0, -1) + "...'";
  if (typeof value === "number") return pythonFloatRepr(value);
  return String(value);
}

/** Python's format(float(f), "g"). */
function formatG(f) {
  const x = f.toNumber();
  if (x === 0) return "0";
  const [mantissa, power] = x.toExponential(5).split("e");
  const e = Number(power);
  const strip = (t) => (t.includes(".") ? t.replace(/0+$/, "").replace(/\.$/, "") : t);
  if (e < -4 || e >= 6)
    return `${strip(mantissa)}e${e < 0 ? "-" : "+"}${String(Math.abs(e)).padStart(2, "0")}`;
  return strip(x.toFixed(Math.max(0, 5 - e)));
}

/** Any finite number exactly (auditplan.number): a number, or a text such as "25%". */
export function number(name, value, example) {
  if (typeof value === "boolean")
    throw new Mistake(
      `${name} must be a number, not ${value ? "True" : "False"}: write ${example}`,
    );
  if (typeof value === "number") {
    if (!Number.isFinite(value))
      throw new Mistake(`${name} must be a finite number, not ${value}: write ${example}`);
    return decimalText(pythonFloatRepr(value));
  }
  let text = pyStrip(value);
  const percent = text.endsWith("%");
  if (percent) text = pyStrip(text.slice(0, -1));
  const found = decimalText(text);
  if (found === null)
    throw new Mistake(`${name} must be a number, not ${pyRepr(value)}: write ${example}`);
  return percent ? found.div(new Fraction(100n)) : found;
}

/** A rate in [0, 1) ((0, 1) unless zero), exactly (auditplan.rate). */
export function rate(name, value, zero = false) {
  const found = number(name, value, "a rate such as 0.95 or 95%");
  const s = found.sign();
  const atLeastOne = found.cmp(new Fraction(1n)) >= 0;
  if (s < 0 || (s === 0 && !zero) || atLeastOne) {
    const low = zero ? "0 or more" : "more than 0";
    const plain = typeof value === "string" ? pyStrip(value) : showCore(value);
    const hint = atLeastOne ? `: for ${plain} percent, write ${plain}%` : "";
    throw new Mistake(
      `${name} must be ${low} and less than 1 (0.05 or 5%), not ${showCore(value)}${hint}`,
    );
  }
  return found;
}

/** A model by name, any case, outer spaces ignored (auditplan.model_of). */
export function modelOf(value) {
  const text = pyStrip(value).toLowerCase();
  if (MODELS.includes(text)) return text;
  throw new Mistake(`unknown model ${pyRepr(value)}: use ${MODELS.join(", ")}`);
}

const thousands = (n) => n.toLocaleString("en-US");

// ------------------------------------------------------------------ planning

function firstCandidate(model, alpha, r) {
  if (model === "hypergeometric") return 1;
  const estimate =
    model === "poisson"
      ? -Math.log(alpha.toNumber()) / r.toNumber()
      : Math.log(alpha.toNumber()) / Math.log1p(-r.toNumber());
  if (!Number.isFinite(estimate) || estimate > 2 * MAX_SAMPLE) return 2 * MAX_SAMPLE;
  return Math.max(1, Math.floor(estimate * (1 - 1e-9)) - 1);
}

/** The smallest sample size of an attribute test (attribute_sample_size's sample_size). */
export function sampleSize({ confidence, tolerable, expected, population, model }) {
  model = modelOf(model);
  const c = rate("confidence", confidence);
  const r = rate("tolerable rate", tolerable);
  const e = rate("expected rate", expected, true);
  if (e.cmp(r) >= 0)
    throw new Mistake(
      `the expected rate (${formatG(e)}) must be less than the tolerable rate ` +
        `(${formatG(r)}): a sample cannot show a rate below its tolerable one if more ` +
        "errors than that are expected",
    );
  if (population === null && model === "hypergeometric")
    throw new Mistake("the hypergeometric model needs the population's size: give it");
  const limit = population === null ? MAX_SAMPLE : Math.min(MAX_SAMPLE, population);
  const alpha = new Fraction(1n).sub(c);
  const kPop = population === null ? 0 : Number(r.mul(new Fraction(BigInt(population))).ceil());
  for (let n = firstCandidate(model, alpha, r); n <= limit; n++) {
    const en = e.mul(new Fraction(BigInt(n)));
    const x = model === "poisson" ? en : new Fraction(en.ceil());
    if (x.cmp(new Fraction(BigInt(n))) >= 0) continue;
    let ok;
    if (model === "binomial") ok = binomialBelow(Number(x.num), n, r, alpha);
    else if (model === "poisson")
      ok = gammaCdfAbove(new Fraction(1n).add(x), r.mul(new Fraction(BigInt(n))), c);
    else
      ok = Number(x.num) < kPop && hypergeometricAtMost(Number(x.num), population, kPop, n, alpha);
    if (ok) return n;
  }
  const where = population !== null && limit === population ? "the population" : "max_size";
  throw new Mistake(
    `no sample of at most ${thousands(limit)} items (the size of ${where}) meets the plan: ` +
      "raise the tolerable rate, lower the expected rate or the confidence",
  );
}

// ------------------------------------------------------------------ evaluation

/** The upper deviation limit after k deviations in n items (attribute_upper_limit). */
export function attributeUpperLimit({
  sampleSize: n,
  deviations: k,
  confidence,
  population,
  model,
}) {
  model = modelOf(model);
  if (k > n) throw new Mistake(`${k} deviations cannot be found in a sample of ${n} items`);
  const c = rate("confidence", confidence);
  if (model === "hypergeometric") {
    if (population === null)
      throw new Mistake("the hypergeometric model needs the population's size: give it");
    if (n > population)
      throw new Mistake(`a sample of ${n} items cannot come from a population of ${population}`);
    return div(dec(hypergeometricUpper(k, n, population, c)), dec(population));
  }
  if (model === "binomial") return binomialUpper(k, n, c);
  return div(poissonFactor(k, c), dec(n));
}

/** The Stringer bound as a rate of the book value (stringer_bound). */
export function stringerBound(taintings, { sampleSize: n, confidence, model }) {
  const c = rate("confidence", confidence);
  const one = new Fraction(1n);
  const ranked = taintings
    .map((t) => number("tainting", t, "a proportion such as 0.25"))
    .filter((t) => t.sign() > 0)
    .map((t) => (t.cmp(one) > 0 ? one : t))
    .sort((a, b) => b.cmp(a));
  if (ranked.length > n)
    throw new Mistake(`${ranked.length} misstated hits cannot be found in a sample of ${n}`);
  const factors = [];
  for (let i = 0; i <= ranked.length; i++)
    factors.push(model === "poisson" ? poissonFactor(i, c) : mul(binomialUpper(i, n, c), dec(n)));
  let sum = ZERO;
  ranked.forEach((t, i) => {
    sum = add(sum, mul(sub(factors[i + 1], factors[i]), decimalOf(t)));
  });
  return div(add(factors[0], sum), dec(n));
}
