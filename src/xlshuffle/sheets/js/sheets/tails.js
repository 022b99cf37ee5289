/**
 * The tails and upper bounds of the audit models, as draw/tails.py computes them, step for
 * step: binomial and hypergeometric tails as whole numbers (BigInt), compared exactly; the
 * Clopper-Pearson bound by Newton steps in 50-digit decimals (decimals.js), rounded up to
 * 30 digits and checked with exact fractions; the Poisson factors (the regularized
 * incomplete gamma function, Stirling's series for ln Gamma) in 50-digit decimals with
 * the same operations in the same order, so that every digit is Python's.
 *
 * The floating-point screens (a clear "no" settled before the exact test) are this
 * file's own: they decide nothing, so they need not be Python's bits, only as safe.
 */

import {
  Dec,
  ONE,
  ZERO,
  absDec,
  add,
  dec,
  decOf,
  div,
  exp,
  gt,
  le,
  ln,
  lt,
  mul,
  neg,
  plus,
  powInt,
  roundUp,
  sqrt,
  sub,
  unitOf,
} from "./decimals.js";
import { Fraction } from "./exact.js";

export const DIGITS = 30;
export const EXACT_CHECK = 2000000;
const PREC = 50;

/** C(n, k), by a product tree. */
export function comb(n, k) {
  n = BigInt(n);
  k = BigInt(k);
  if (k < 0n || k > n) return 0n;
  if (k > n - k) k = n - k;
  const product = (lo, hi) => {
    // lo * (lo + 1) * ... * hi
    if (lo > hi) return 1n;
    if (hi - lo < 16n) {
      let p = 1n;
      for (let i = lo; i <= hi; i++) p *= i;
      return p;
    }
    const mid = (lo + hi) / 2n;
    return product(lo, mid) * product(mid + 1n, hi);
  };
  return product(n - k + 1n, n) / product(1n, k);
}

// ------------------------------------------------------------------ exact tails

/** [S, q] with P(X <= x) = S / q**n for X ~ Binomial(n, p), p = a/q. */
function binomialSum(x, n, p) {
  const a = p.num,
    q = p.den,
    b = q - a;
  const top = Math.min(x, n);
  if (top < 0) return [0n, q];
  const N = BigInt(n);
  // sum_i C(n, i) a**i b**(top - i): from i = top down, times b each step
  let c = comb(n, top);
  let inner = 0n;
  let apow = a ** BigInt(top);
  let bpow = 1n;
  for (let i = top; i >= 0; i--) {
    inner += c * apow * bpow;
    if (i === 0) break;
    // C(n, i - 1) = C(n, i) * i / (n - i + 1)
    c = (c * BigInt(i)) / (N - BigInt(i) + 1n);
    apow = a === 0n ? (i - 1 === 0 ? 1n : 0n) : apow / a;
    bpow *= b;
  }
  return [inner * b ** BigInt(n - top), q];
}

/** P(X <= x) of the binomial model in floating point: a screen, never a decision. */
function binomialCdfFloat(x, n, p) {
  const top = Math.min(x, n);
  const lp = Math.log(p),
    lq = Math.log1p(-p);
  const logs = [];
  let lc = 0; // ln C(n, i)
  for (let i = 0; i <= top; i++) {
    logs.push(lc + i * lp + (n - i) * lq);
    lc += Math.log((n - i) / (i + 1));
  }
  const most = Math.max(...logs);
  return Math.exp(most) * logs.reduce((sum, v) => sum + Math.exp(v - most), 0);
}

/** Whether P(X <= x) < alpha for X ~ Binomial(n, p), in integers. A floating-point
 * estimate settles the clear "no" first (more than 1.001 alpha), so that a plan that
 * walks thousands of sizes makes one exact sum, not thousands (Python makes them all). */
export function binomialBelow(x, n, p, alpha) {
  if (x >= 0 && binomialCdfFloat(x, n, p.toNumber()) > alpha.toNumber() * 1.001 + 1e-300)
    return false;
  const [s, q] = binomialSum(x, n, p);
  return s * alpha.den < alpha.num * q ** BigInt(n);
}

function hyperSum(x, population, errors, n) {
  const good = population - errors;
  const lo = Math.max(0, n - good),
    hi = Math.min(x, errors, n);
  if (lo > hi) return 0n;
  let ce = comb(errors, lo);
  let cg = comb(good, n - lo);
  let total = 0n;
  for (let i = lo; i <= hi; i++) {
    total += ce * cg;
    if (i === hi) break;
    // C(errors, i + 1) and C(good, n - i - 1)
    ce = (ce * BigInt(errors - i)) / BigInt(i + 1);
    const m = n - i; // C(good, m - 1) = C(good, m) * m / (good - m + 1)
    cg = (cg * BigInt(m)) / BigInt(good - m + 1);
  }
  return total;
}

/** ln C(a, b) in floating point, as a sum of logs (no cancellation of large lgammas). */
function lnCombFloat(a, b) {
  if (b > a - b) b = a - b;
  let total = 0;
  for (let j = 1; j <= b; j++) total += Math.log((a - b + j) / j);
  return total;
}

/** P(X <= x) of the hypergeometric model in floating point: a screen, never a decision. */
function hyperCdfFloat(x, population, errors, n) {
  const good = population - errors;
  const lo = Math.max(0, n - good),
    hi = Math.min(x, errors, n);
  if (lo > hi) return 0;
  const total = lnCombFloat(population, n);
  let ce = lnCombFloat(errors, lo),
    cg = lnCombFloat(good, n - lo);
  const logs = [];
  for (let i = lo; i <= hi; i++) {
    logs.push(ce + cg - total);
    ce += Math.log((errors - i) / (i + 1));
    cg += Math.log((n - i) / (good - n + i + 1));
  }
  const top = Math.max(...logs);
  return Math.exp(top) * logs.reduce((s, v) => s + Math.exp(v - top), 0);
}

/** Whether P(X <= x) <= alpha in the hypergeometric model, in integers. */
export function hypergeometricAtMost(x, population, errors, n, alpha) {
  if (hyperCdfFloat(x, population, errors, n) > alpha.toNumber() * 1.001 + 1e-300) return false;
  const s = hyperSum(x, population, errors, n);
  return s * alpha.den <= alpha.num * comb(population, n);
}

/** The largest K with P(X <= k) > 1 - confidence (tails.py's hypergeometric_upper). */
export function hypergeometricUpper(k, n, population, confidence) {
  const alpha = new Fraction(1n).sub(confidence);
  let lo = k,
    hi = population;
  if (!hypergeometricAtMost(k, population, hi, n, alpha)) return hi;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (hypergeometricAtMost(k, population, mid, n, alpha)) hi = mid;
    else lo = mid;
  }
  return lo;
}

// ------------------------------------------------------------------ binomial bound

/** A Fraction as a Decimal (tails.py's _decimal), rounded to prec digits. */
export function decimalOf(f, prec = PREC) {
  return div(dec(f.num), dec(f.den), prec);
}

function fractionOf(d) {
  return d.e >= 0 ? new Fraction(d.c * 10n ** BigInt(d.e)) : new Fraction(d.c, 10n ** BigInt(-d.e));
}

function binomialSign(k, n, p, alpha) {
  const [s, q] = binomialSum(k, n, fractionOf(p));
  const left = s * alpha.den,
    right = alpha.num * q ** BigInt(n);
  return left > right ? 1 : left < right ? -1 : 0;
}

function binomialTail(k, n, p) {
  const q = sub(ONE, p);
  if (k < n / 2) {
    let term = powInt(q, n);
    let total = term;
    for (let i = 0; i < k; i++) {
      term = div(mul(div(mul(term, dec(n - i)), dec(i + 1)), p), q);
      total = add(total, term);
    }
    return total;
  }
  let term = powInt(p, n);
  let upper = term;
  for (let i = n; i > k + 1; i--) {
    term = div(mul(div(mul(term, dec(i)), dec(n - i + 1)), q), p);
    upper = add(upper, term);
  }
  return sub(ONE, upper);
}

const TOL = new Dec(1n, -(DIGITS + 8));
const HALF = decOf("0.5");
const TWO = dec(2);

function binomialRoot(k, n, alpha) {
  let lo = ZERO,
    hi = ONE;
  let p = div(dec(k + 1), dec(n + 1));
  const scale = mul(dec(n), dec(comb(n - 1, k)));
  for (let i = 0; i < 400; i++) {
    const f = sub(binomialTail(k, n, p), alpha);
    if (f.sign() > 0) lo = p;
    else hi = p;
    if (f.sign() === 0 || le(sub(hi, lo), mul(hi, TOL))) break;
    const slope = mul(mul(neg(scale), powInt(p, k)), powInt(sub(ONE, p), n - k - 1));
    let step = slope.sign() !== 0 ? sub(p, div(f, slope)) : div(add(lo, hi), TWO);
    if (!(lt(lo, step) && lt(step, hi))) step = div(add(lo, hi), TWO);
    const done = le(absDec(sub(step, p)), mul(p, TOL));
    p = step;
    if (done) break;
  }
  return p;
}

const nextUp = (v) => roundUp(add(v, unitOf(v)));
const nextDown = (v) => roundUp(sub(v, unitOf(v)));

/** The one-sided Clopper-Pearson upper bound, 30 digits rounded up (binomial_upper). */
export function binomialUpper(k, n, confidence) {
  if (k >= n) return ONE;
  const alpha = new Fraction(1n).sub(confidence);
  let hi = roundUp(binomialRoot(k, n, decimalOf(alpha)));
  if (n * (Math.min(k, n - k) + 1) > EXACT_CHECK) return hi;
  while (binomialSign(k, n, hi, alpha) > 0) hi = nextUp(hi);
  for (;;) {
    const lower = nextDown(hi);
    if (!(lower.sign() > 0 && binomialSign(k, n, lower, alpha) <= 0)) break;
    hi = lower;
  }
  return hi;
}

// ------------------------------------------------------------------ Poisson / gamma

const PI = decOf("3.14159265358979323846264338327950288419716939937510582097494");
const BERNOULLI = [
  [1n, 6n],
  [-1n, 30n],
  [1n, 42n],
  [-1n, 30n],
  [5n, 66n],
  [-691n, 2730n],
  [7n, 6n],
  [-3617n, 510n],
  [43867n, 798n],
  [-174611n, 330n],
  [854513n, 138n],
  [-236364091n, 2730n],
  [8553103n, 6n],
  [-23749461029n, 870n],
  [8615841276005n, 14322n],
];
const STIRLING_FROM = dec(40);
let halfLn2Pi = null;

function lnGamma(a) {
  let shift = ONE;
  while (lt(a, STIRLING_FROM)) {
    shift = mul(shift, a);
    a = add(a, ONE);
  }
  if (halfLn2Pi === null) halfLn2Pi = div(ln(mul(TWO, PI)), TWO);
  let total = add(sub(mul(sub(a, HALF), ln(a)), a), halfLn2Pi);
  let power = a;
  const square = mul(a, a);
  BERNOULLI.forEach(([num, den], i) => {
    const j = BigInt(i + 1);
    const below = mul(mul(mul(dec(den), dec(2n * j)), dec(2n * j - 1n)), power);
    total = add(total, div(dec(num), below));
    power = mul(power, square);
  });
  return sub(total, ln(shift));
}

const TINY = new Dec(1n, -(PREC + 2));

function gammaP(s, z) {
  if (z.sign() <= 0) return ZERO;
  let term = ONE,
    total = ONE;
  for (let k = 1; ; k++) {
    term = div(mul(term, z), add(s, dec(k)));
    total = add(total, term);
    if (gt(add(s, dec(k)), z) && le(term, mul(total, TINY))) break;
  }
  return mul(exp(sub(sub(mul(s, ln(z)), z), lnGamma(add(s, ONE)))), total);
}

/** P(G <= z) for G ~ Gamma(shape, 1), 50 digits (gamma_cdf): Fractions in, a Dec out. */
export function gammaCdf(shape, z) {
  return plus(gammaP(decimalOf(shape), decimalOf(z)));
}

/** ln Gamma(x) in floating point (Stirling's series past 10): for the screen only. */
function lnGammaFloat(x) {
  let shift = 0;
  while (x < 10) {
    shift += Math.log(x);
    x += 1;
  }
  const x2 = x * x;
  const series =
    1 / (12 * x) - 1 / (360 * x * x2) + 1 / (1260 * x2 * x2 * x) - 1 / (1680 * x2 * x2 * x2 * x);
  return (x - 0.5) * Math.log(x) - x + 0.5 * Math.log(2 * Math.PI) + series - shift;
}

function gammaPFloat(s, z) {
  let term = 1,
    total = 1;
  for (let k = 1; ; k++) {
    term *= z / (s + k);
    total += term;
    if (s + k > z && term <= total * 1e-17) break;
  }
  return Math.exp(s * Math.log(z) - z - lnGammaFloat(s + 1)) * total;
}

/** Whether P(G <= z) > level (gamma_cdf_above): a clear "no" in floating point first. */
export function gammaCdfAbove(shape, z, level) {
  const s = shape.toNumber(),
    x = z.toNumber(),
    c = level.toNumber();
  if (x > 0 && s < 1e6 && x < 1e6 && gammaPFloat(s, x) < c - 1e-9) return false;
  // tails.py compares with _decimal(level) outside its context: Python's default, 28 digits
  return gt(gammaCdf(shape, z), decimalOf(level, 28));
}

/** The z with P(G <= z) = confidence, 30 digits rounded up (gamma_quantile). */
export function gammaQuantile(shape, confidence) {
  const s = decimalOf(shape);
  const c = decimalOf(confidence);
  let lo = ZERO,
    hi = add(add(s, mul(dec(10), sqrt(s))), dec(50));
  while (lt(gammaP(s, hi), c)) [lo, hi] = [hi, mul(TWO, hi)];
  let z = lt(lo, s) && lt(s, hi) ? s : div(add(lo, hi), TWO);
  for (let i = 0; i < 400; i++) {
    const f = sub(gammaP(s, z), c);
    if (f.sign() < 0) lo = z;
    else hi = z;
    if (f.sign() === 0 || le(sub(hi, lo), mul(hi, TOL))) break;
    const density = exp(sub(sub(mul(sub(s, ONE), ln(z)), z), lnGamma(s)));
    let step = density.sign() > 0 ? sub(z, div(f, density)) : div(add(lo, hi), TWO);
    if (!(lt(lo, step) && lt(step, hi))) step = div(add(lo, hi), TWO);
    const done = le(absDec(sub(step, z)), mul(z, TOL));
    z = step;
    if (done) break;
  }
  return roundUp(z);
}

/** The Poisson confidence factor U(k) = qgamma(confidence, k + 1) (poisson_factor). */
export function poissonFactor(k, confidence) {
  return gammaQuantile(new Fraction(BigInt(k + 1)), confidence);
}
