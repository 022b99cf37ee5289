/**
 * Python's decimal at 50 significant digits (draw/tails.py's CONTEXT), in BigInt, so that
 * SAMPLESIZE and UPPERLIMIT compute in Sheets the digits they compute in Python.
 *
 * A Dec is c * 10**e (c a BigInt). Every operation gives what CPython's decimal (libmpdec)
 * gives in that context: the exact result rounded half-even to 50 digits for +, -, *, /
 * and sqrt; ln and exp correctly rounded (found by Ziv's strategy: fixed-point series with
 * a bound on their error, widened until both ends of the bound round alike); and x**n for
 * a whole n as libmpdec computes it, by squaring and multiplying at 50 + digits(n) + 2
 * digits and rounding once more at the end, which is not always the correctly rounded
 * power (about one in 3,000 differ in the last digit), so it is copied, not improved.
 * Results beyond the context's exponents (10**-1000000 to 10**1000000) are refused: the
 * audit figures never come near them.
 *
 * Rejected: a correctly rounded power (differs from Python's now and then, and every
 * later digit of a Newton step would follow), floating point (see draw/tails.py).
 */

export const PREC = 50;
const EMAX = 1000000;
const EMIN = -1000000;

const POW10 = [1n];
export function pow10(n) {
  if (n < 4096) {
    while (POW10.length <= n) POW10.push(POW10[POW10.length - 1] * 10n);
    return POW10[n];
  }
  return 10n ** BigInt(n);
}

/** The decimal digits of a > 0n. */
export function digitsOf(a) {
  const f = Number(a);
  if (f < 1e300) {
    let d = Math.floor(Math.log10(f)) + 1;
    if (a >= pow10(d)) d += 1;
    else if (d > 1 && a < pow10(d - 1)) d -= 1;
    return d;
  }
  return a.toString().length;
}

const abs = (a) => (a < 0n ? -a : a);

export class Dec {
  constructor(c, e) {
    this.c = c;
    this.e = e;
  }

  /** The exponent of the leading digit (Python's adjusted()); 0 for zero. */
  adjusted() {
    return this.c === 0n ? 0 : this.e + digitsOf(abs(this.c)) - 1;
  }

  sign() {
    return this.c > 0n ? 1 : this.c < 0n ? -1 : 0;
  }

  toString() {
    if (this.c === 0n) return "0";
    const s = abs(this.c).toString();
    const neg = this.c < 0n ? "-" : "";
    if (this.e >= 0) return neg + s + "0".repeat(this.e);
    const point = s.length + this.e;
    if (point > 0) return `${neg}${s.slice(0, point)}.${s.slice(point)}`;
    return `${neg}0.${"0".repeat(-point)}${s}`;
  }
}

export const ZERO = new Dec(0n, 0);
export const ONE = new Dec(1n, 0);

/** A whole number (number or BigInt), exactly (as Decimal(int)). */
export function dec(n) {
  return new Dec(BigInt(n), 0);
}

/** A decimal text such as "0.5" or "-1.25E-3", exactly (as Decimal("...")). */
export function decOf(text) {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m || (m[2] + (m[3] || "")).length === 0) throw new Error(`not a decimal: ${text}`);
  const fraction = m[3] || "";
  const c = BigInt(m[2] + fraction || "0");
  return new Dec(m[1] === "-" ? -c : c, Number(m[4] || 0) - fraction.length);
}

/** c * 10**e rounded half-even to prec digits; sticky: a nonzero part was left off below. */
export function rounded(c, e, prec = PREC, sticky = false) {
  if (c === 0n) return ZERO;
  const neg = c < 0n;
  let a = neg ? -c : c;
  let d = digitsOf(a);
  if (sticky && d <= prec) {
    a *= pow10(prec + 1 - d);
    e -= prec + 1 - d;
    d = prec + 1;
  }
  if (d > prec) {
    const drop = d - prec;
    const p = pow10(drop);
    let q = a / p;
    const r = a % p;
    const half = p / 2n;
    if (r > half || (r === half && (sticky || (q & 1n) === 1n))) q += 1n;
    a = q;
    e += drop;
    if (a === pow10(prec)) {
      a = pow10(prec - 1);
      e += 1;
    }
    d = prec;
  }
  const adjusted = e + d - 1;
  if (adjusted > EMAX || adjusted < EMIN)
    throw new Error("a figure beyond 10**1000000 either way: outside the audit arithmetic");
  return new Dec(neg ? -a : a, e);
}

export function plus(a, prec = PREC) {
  return rounded(a.c, a.e, prec);
}

export function neg(a) {
  return rounded(-a.c, a.e);
}

export function absDec(a) {
  return rounded(abs(a.c), a.e);
}

export function add(a, b, prec = PREC) {
  if (a.c === 0n) return rounded(b.c, b.e, prec);
  if (b.c === 0n) return rounded(a.c, a.e, prec);
  let [x, y] = a.e >= b.e ? [a, b] : [b, a];
  // y far below every digit that can decide the rounding: a tiny of its sign rounds alike
  const floor = Math.min(x.e, x.adjusted() - prec - 1) - 1;
  if (y.adjusted() < floor) y = new Dec(y.c < 0n ? -1n : 1n, floor);
  if (x.e > y.e) x = new Dec(x.c * pow10(x.e - y.e), y.e);
  else if (y.e > x.e) y = new Dec(y.c * pow10(y.e - x.e), x.e);
  return rounded(x.c + y.c, x.e, prec);
}

export function sub(a, b, prec = PREC) {
  return add(a, new Dec(-b.c, b.e), prec);
}

export function mul(a, b, prec = PREC) {
  return rounded(a.c * b.c, a.e + b.e, prec);
}

export function div(a, b, prec = PREC) {
  if (b.c === 0n) throw new Error("division by zero");
  if (a.c === 0n) return ZERO;
  let num = abs(a.c),
    den = abs(b.c);
  const shift = prec + 2 - (digitsOf(num) - digitsOf(den));
  if (shift >= 0) num *= pow10(shift);
  else den *= pow10(-shift);
  const q = num / den;
  const sticky = num % den !== 0n;
  const negative = a.c < 0n !== b.c < 0n;
  return rounded(negative ? -q : q, a.e - b.e - shift, prec, sticky);
}

/** -1, 0 or 1 as a < b, a == b, a > b, exactly. */
export function cmp(a, b) {
  const sa = a.sign(),
    sb = b.sign();
  if (sa !== sb) return sa < sb ? -1 : 1;
  if (sa === 0) return 0;
  const aa = a.adjusted(),
    ab = b.adjusted();
  if (aa !== ab) return (aa < ab ? -1 : 1) * sa;
  const e = Math.min(a.e, b.e);
  const x = a.c * pow10(a.e - e),
    y = b.c * pow10(b.e - e);
  return x < y ? -1 : x > y ? 1 : 0;
}

export const lt = (a, b) => cmp(a, b) < 0;
export const le = (a, b) => cmp(a, b) <= 0;
export const gt = (a, b) => cmp(a, b) > 0;

/** a**n for a whole n >= 0, as libmpdec's _mpd_qpow_int computes it (see above). */
export function powInt(a, n) {
  if (n === 0) return ONE;
  if (a.c === 0n) return ZERO;
  if (cmp(absDec(a), ONE) === 0) return a.c < 0n && n % 2 === 1 ? neg(ONE) : ONE;
  const work = PREC + String(n).length + 2;
  let r = a;
  let bit = 1;
  while (bit * 2 <= n) bit *= 2;
  for (bit /= 2; bit >= 1; bit /= 2) {
    r = mul(r, r, work);
    if (Math.floor(n / bit) % 2 === 1) r = mul(r, a, work);
  }
  return plus(r);
}

function isqrt(n) {
  if (n < 2n) return n;
  let x = 1n << BigInt(Math.ceil(n.toString(2).length / 2)); // at least the root
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}

/** The square root of a >= 0, correctly rounded. */
export function sqrt(a) {
  if (a.c === 0n) return ZERO;
  if (a.c < 0n) throw new Error("the square root of a negative number");
  let c = a.c,
    e = a.e;
  let s = Math.max(0, 2 * (PREC + 2) - digitsOf(c));
  if ((e - s) % 2 !== 0) s += 1;
  c *= pow10(s);
  e -= s;
  const r = isqrt(c);
  return rounded(r, e / 2, PREC, r * r !== c);
}

// ------------------------------------------------------------------ ln and exp (Ziv)

/** atanh(1/x) * 10**w for a whole x >= 2, to a few units. */
function atanhInverse(x, w) {
  const one = pow10(w);
  const x2 = BigInt(x) * BigInt(x);
  let power = one / BigInt(x);
  let total = power;
  for (let k = 3n; power > 0n; k += 2n) {
    power /= x2;
    total += power / k;
  }
  return total;
}

const CONSTANTS = new Map();

/** [ln 2, ln 10] * 10**w, to within a unit (computed with 10 digits more). */
function logConstants(w) {
  if (!CONSTANTS.has(w)) {
    const guard = pow10(10);
    const ln2 = 2n * atanhInverse(3, w + 10);
    const ln10 = 3n * ln2 + 2n * atanhInverse(9, w + 10);
    CONSTANTS.set(w, [ln2 / guard, ln10 / guard]);
  }
  return CONSTANTS.get(w);
}

/** 2 atanh(u) for u = num/den * 10**w, |u| <= 0.2, in units of 10**-w. */
function atanhSeries(u, w) {
  const one = pow10(w);
  const u2 = (u * u) / one;
  let power = u;
  let total = u;
  for (let k = 3n; power !== 0n; k += 2n) {
    power = (power * u2) / one;
    total += power / k;
  }
  return 2n * total;
}

/** Round the value in [lo, hi] * 10**e to prec digits, or null when the ends round apart. */
function settled(lo, hi, e) {
  if (lo <= 0n !== hi <= 0n) return null;
  const a = rounded(lo, e),
    b = rounded(hi, e);
  return cmp(a, b) === 0 ? a : null;
}

/** Fixed point: the value of a Dec times 10**w, truncated toward zero. */
function fixed(a, w) {
  const shift = a.e + w;
  return shift >= 0 ? a.c * pow10(shift) : a.c / pow10(-shift);
}

/** e**a, correctly rounded. */
export function exp(a) {
  if (a.c === 0n) return ONE;
  const x = Number(a.toString());
  if (Math.abs(x) > 2.4e6) throw new Error("exp beyond the context's exponents");
  const q = Math.round(x / Math.LN10);
  for (let w = PREC + 14; w < PREC + 600; w += 24) {
    const [, ln10] = logConstants(w + 8);
    // r = a - q ln 10, |r| < 1.2 (10**-(w+8) units, then w)
    const r = (fixed(a, w + 8) - BigInt(q) * ln10) / pow10(8);
    const one = pow10(w);
    const m = 8;
    const small = r / 256n;
    let term = one,
      sum = one;
    for (let k = 1n; term !== 0n; k += 1n) {
      term = (term * small) / one / k;
      sum += term;
    }
    for (let i = 0; i < m; i++) sum = (sum * sum) / one;
    const error = 1000000n;
    const found = settled(sum - error, sum + error, q - w);
    if (found) return found;
  }
  throw new Error("exp: the digits did not settle");
}

/** The natural logarithm of a > 0, correctly rounded. */
export function ln(a) {
  if (a.c <= 0n) throw new Error("the logarithm of a number that is not positive");
  if (cmp(a, ONE) === 0) return ZERO;
  const nearOne = cmp(a, decOf("0.5")) > 0 && cmp(a, dec(2)) < 0;
  const extra = nearOne ? Math.max(0, -sub(a, ONE, 10).adjusted()) : 0;
  for (let w = PREC + 14 + extra; w < PREC + 600 + extra; w += 24) {
    let value;
    if (nearOne) {
      const x = fixed(a, w + 4);
      const one = pow10(w + 4);
      const u = ((x - one) * one) / (x + one);
      value = atanhSeries(u, w + 4) / pow10(4);
    } else {
      const d = digitsOf(a.c);
      const exponent = a.e + d - 1; // a = m * 10**exponent, 1 <= m < 10
      const one = pow10(w + 4);
      const mantissa = fixed(new Dec(a.c, 1 - d), w + 4);
      const j = Math.round(Math.log2(Number(mantissa / pow10(w - 11)) / 1e15));
      const t = mantissa / (1n << BigInt(j));
      const u = ((t - one) * one) / (t + one);
      const [ln2, ln10] = logConstants(w + 12);
      const logs = (BigInt(j) * ln2 + BigInt(exponent) * ln10) / pow10(8);
      value = (atanhSeries(u, w + 4) + logs) / pow10(4);
    }
    const error = 1000n;
    const found = settled(value - error, value + error, -w);
    if (found) return found;
  }
  throw new Error("ln: the digits did not settle");
}

// ------------------------------------------------------------------ digits and floats

/** One unit in the 30th significant digit of a > 0 (tails.py's _unit). */
export function unitOf(a, digits = 30) {
  return new Dec(1n, a.adjusted() - digits + 1);
}

/** a rounded up (toward +infinity) to 30 significant digits; 0 for a <= 0 (_round_up). */
export function roundUp(a, digits = 30) {
  if (a.c <= 0n) return ZERO;
  const e = a.adjusted() - digits + 1;
  if (a.e >= e) return a;
  const p = pow10(e - a.e);
  const q = a.c / p;
  return new Dec(a.c % p === 0n ? q : q + 1n, e);
}

/** The nearest double (Python's float(Decimal)), ties to even. */
export function toNumber(a) {
  if (a.c === 0n) return 0;
  const negative = a.c < 0n;
  const c = abs(a.c);
  let value;
  if (a.e >= 0) value = Number(c * pow10(a.e));
  else {
    const den = pow10(-a.e);
    // a quotient of 64 bits or more, its last bit set when inexact: one rounding to 53
    const shift = Math.max(0, 66 - (c.toString(2).length - den.toString(2).length));
    const num = c << BigInt(shift);
    let q = num / den;
    if (num % den !== 0n) q |= 1n;
    value = Number(q);
    for (let s = shift; s > 0; s -= Math.min(s, 1000)) value /= 2 ** Math.min(s, 1000);
  }
  return negative ? -value : value;
}
