/**
 * What Python does that the protocol and xlshuffle's files follow: a float's
 * shortest repr, white space, order by code point, splitlines, range.
 */

/** Python's shortest round-trip repr of a finite float that is not integral. */
export function pythonFloatRepr(x) {
  const [mantissa, exponent] = x.toExponential().split("e");
  const e = parseInt(exponent, 10);
  const sign = x < 0 ? "-" : "";
  const digits = mantissa.replace("-", "").replace(".", "");
  if (e < -4 || e >= 16) {
    const m = digits.length > 1 ? digits[0] + "." + digits.slice(1) : digits;
    return sign + m + "e" + (e < 0 ? "-" : "+") + String(Math.abs(e)).padStart(2, "0");
  }
  if (e >= 0) {
    if (digits.length <= e + 1) return sign + digits + "0".repeat(e + 1 - digits.length) + ".0";
    return sign + digits.slice(0, e + 1) + "." + digits.slice(e + 1);
  }
  return sign + "0." + "0".repeat(-e - 1) + digits;
}

/** Section 10: canonical ID text. */
export const PY_SPACE =
  "[\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";

const PY_STRIP = new RegExp("^" + PY_SPACE + "+|" + PY_SPACE + "+$", "g");

export function pyStrip(text) {
  return text.replace(PY_STRIP, "");
}

export function compareCodePoints(a, b) {
  const x = Array.from(a),
    y = Array.from(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i].codePointAt(0) - y[i].codePointAt(0);
    if (d) return d;
  }
  return x.length - y.length;
}

/** Python's str.splitlines. */
export function pySplitLines(text) {
  // eslint-disable-next-line no-control-regex -- Python splits lines at \x1c-\x1e too
  const lines = text.split(/\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/);
  if (lines.length && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

export function range(n) {
  return Array.from({ length: n }, (_, i) => i);
}
