/**
 * Exact rationals in BigInt (Python's Fraction), and the exact value of what a cell holds:
 * a number by its shortest repr, as draw/auditplan.py's number() reads a float
 * (Fraction(Decimal(repr(x)))), a text as Decimal() reads it, "95%" as 95/100.
 */

import { pythonFloatRepr } from "../protocol/python.js";

function gcd(a, b) {
  a = a < 0n ? -a : a;
  b = b < 0n ? -b : b;
  while (b) [a, b] = [b, a % b];
  return a;
}

export class Fraction {
  constructor(num, den = 1n) {
    num = BigInt(num);
    den = BigInt(den);
    if (den === 0n) throw new Error("a fraction over 0");
    if (den < 0n) [num, den] = [-num, -den];
    const g = gcd(num, den) || 1n;
    this.num = num / g;
    this.den = den / g;
  }

  add(o) {
    return new Fraction(this.num * o.den + o.num * this.den, this.den * o.den);
  }

  sub(o) {
    return new Fraction(this.num * o.den - o.num * this.den, this.den * o.den);
  }

  mul(o) {
    return new Fraction(this.num * o.num, this.den * o.den);
  }

  div(o) {
    return new Fraction(this.num * o.den, this.den * o.num);
  }

  cmp(o) {
    const a = this.num * o.den,
      b = o.num * this.den;
    return a < b ? -1 : a > b ? 1 : 0;
  }

  sign() {
    return this.num > 0n ? 1 : this.num < 0n ? -1 : 0;
  }

  /** The smallest whole number at least this (math.ceil). */
  ceil() {
    const q = this.num / this.den;
    return this.num > 0n && q * this.den !== this.num ? q + 1n : q;
  }

  toNumber() {
    return Number(this.num) / Number(this.den);
  }
}

export const frac = (n, d = 1n) => new Fraction(n, d);

/** Python's Decimal(text) for a finite number, or null (digits, "_" between them). */
export function decimalText(text) {
  const m = /^([+-]?)((?:\d(?:_?\d)*)?)(?:\.((?:\d(?:_?\d)*)?))?(?:[eE]([+-]?\d(?:_?\d)*))?$/.exec(
    text,
  );
  if (!m || !(m[2] || m[3])) return null;
  const whole = m[2].replace(/_/g, ""),
    part = (m[3] || "").replace(/_/g, "");
  const exponent = BigInt((m[4] || "0").replace(/_/g, "")) - BigInt(part.length);
  let value = new Fraction(BigInt(whole + part || "0"));
  if (exponent > 1000000n || exponent < -1000000n) return null;
  const scale = 10n ** (exponent < 0n ? -exponent : exponent);
  value = exponent < 0n ? value.div(new Fraction(scale)) : value.mul(new Fraction(scale));
  return m[1] === "-" ? new Fraction(-value.num, value.den) : value;
}

/** A finite number exactly as Python reads its float: Fraction(Decimal(repr(x))). */
export function ofNumber(x) {
  if (Number.isInteger(x) && Number.isSafeInteger(x)) return new Fraction(BigInt(x));
  return decimalText(pythonFloatRepr(x));
}
