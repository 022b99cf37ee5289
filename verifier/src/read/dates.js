/**
 * Numbers shown as dates, times and durations: which cell formats show them (ECMA-376),
 * and their texts as Python (openpyxl's from_excel, timedelta) prints them.
 */

import { range } from "../protocol/python.js";
import { EXCEL_EPOCH } from "../protocol/seeds.js";
import { parseXml } from "./xml.js";

/** Built-in number formats that show dates or times (ECMA-376 Part 1, 18.8.30). */
const DATE_FORMAT_IDS = new Set([
  ...range(9).map((i) => 14 + i),
  ...range(10).map((i) => 27 + i),
  45,
  46,
  47,
  ...range(9).map((i) => 50 + i),
]);

const ELAPSED_FORMAT_IDS = new Set([46]); // [h]:mm:ss

/**
 * Whether a format code shows a date or time, and whether it is elapsed time: in its first
 * section, outside quoted text, \x escapes, _x spaces, *x fills and brackets, a letter of
 * d m y h s or A/P; [h] [hh] [m] [mm] [s] [ss] are elapsed time.
 */
export function formatKind(code) {
  let date = false,
    elapsed = false,
    i = 0;
  while (i < code.length) {
    const ch = code[i];
    if (ch === ";") break;
    if (ch === '"') {
      const close = code.indexOf('"', i + 1);
      if (close < 0) break;
      i = close + 1;
    } else if (ch === "\\" || ch === "_" || ch === "*") {
      i += 2;
    } else if (ch === "[") {
      const close = code.indexOf("]", i + 1);
      if (close < 0) break;
      if (["h", "hh", "m", "mm", "s", "ss"].includes(code.slice(i + 1, close).toLowerCase()))
        date = elapsed = true;
      i = close + 1;
    } else {
      if (
        "dmhysDMHYS".includes(ch) ||
        code.slice(i, i + 3) === "A/P" ||
        code.slice(i, i + 3) === "a/p"
      )
        date = true;
      i += 1;
    }
  }
  return { date, elapsed };
}

/** The cell formats (index of <cellXfs><xf>) that show dates, and those that show elapsed time. */
export function dateStyles(stylesXml) {
  const dates = new Set(),
    elapsed = new Set();
  if (!stylesXml) return { dates, elapsed };
  const root = parseXml(stylesXml, "the styles part").documentElement;
  const custom = new Map();
  const children = (node, local) => Array.from(node.children).filter((x) => x.localName === local);
  for (const list of children(root, "numFmts")) {
    for (const f of children(list, "numFmt"))
      custom.set(+f.getAttribute("numFmtId"), f.getAttribute("formatCode") || "");
  }
  let index = 0;
  for (const list of children(root, "cellXfs")) {
    for (const xf of children(list, "xf")) {
      const id = +(xf.getAttribute("numFmtId") || 0);
      const kind = custom.has(id)
        ? formatKind(custom.get(id))
        : { date: DATE_FORMAT_IDS.has(id), elapsed: ELAPSED_FORMAT_IDS.has(id) };
      if (kind.date) dates.add(index);
      if (kind.date && kind.elapsed) elapsed.add(index);
      index += 1;
    }
  }
  return { dates, elapsed };
}

/** Round half to even, as Python's round() of a float. */
function roundHalfEven(x) {
  const f = Math.floor(x),
    d = x - f;
  if (d > 0.5) return f + 1;
  if (d < 0.5) return f;
  return f % 2 === 0 ? f : f + 1;
}

const pad = (n, width = 2) => String(n).padStart(width, "0");

function clockText(h, m, s, us) {
  return `${pad(h)}:${pad(m)}:${pad(s)}` + (us ? "." + pad(us, 6) : "");
}

/**
 * The text of a serial number shown as a date or time (openpyxl's from_excel): a time when
 * 0 <= serial < 1, else a date and time; in the 1900 system serials below 60 are moved a day
 * (Excel's 1900-02-29 that never was). Outside the years 1-9999: "#VALUE!".
 */
export function serialText(x, date1904) {
  if (!Number.isFinite(x)) return "#VALUE!";
  let day = Math.floor(x);
  const fraction = x - day;
  const ms = roundHalfEven(fraction * 86400 * 1000);
  if (x >= 0 && x < 1 && ms < 86400000) {
    const s = Math.floor(ms / 1000);
    return clockText(Math.floor(s / 3600), Math.floor(s / 60) % 60, s % 60, (ms % 1000) * 1000);
  }
  if (x > 0 && x < 60 && !date1904) day += 1;
  const t = (date1904 ? Date.UTC(1904, 0, 1) : EXCEL_EPOCH) + day * 86400000 + ms;
  const d = new Date(t);
  const year = d.getUTCFullYear();
  if (!Number.isFinite(t) || Number.isNaN(year) || year < 1 || year > 9999) return "#VALUE!";
  return (
    `${pad(year, 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T` +
    clockText(d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds() * 1000)
  );
}

/**
 * Python's total_seconds() // 1 of a duration of `us` microseconds: the floor of us / 10^6
 * rounded to the nearest double, which is one more than the exact floor when that quotient
 * lies within half a double's spacing below the next whole number.
 */
function floorOfSeconds(us) {
  const M = 1000000n;
  const q = us >= 0n ? us / M : -((-us + M - 1n) / M); // the exact floor
  const next = q + 1n;
  if (next === 0n) return Number(q);
  const a = next < 0n ? -next : next;
  const k = a.toString(2).length - 1;
  const power = a === 1n << BigInt(k);
  const g = (next > 0n && power ? k - 53 : k - 52) - 1; // half the spacing is 2^g
  const d = next * M - us; // (next - us / 10^6) * 10^6, positive
  const near = g >= 0 ? d < (1n << BigInt(g)) * M : d * (1n << BigInt(-g)) < M;
  const tie = g >= 0 ? d === (1n << BigInt(g)) * M : d * (1n << BigInt(-g)) === M;
  if (tie)
    throw new Error(
      "a duration halfway between two doubles is rounded by Python in a way this page does not follow",
    );
  return Number(near ? next : q);
}

/** C's round(): half away from zero. */
function roundAway(x) {
  return Math.sign(x) * Math.floor(Math.abs(x) + 0.5);
}

/**
 * The text of a serial number shown as elapsed time ([h]:mm:ss), as Python prints the
 * duration openpyxl reads: timedelta(days=x) (CPython's exact rounding to microseconds),
 * its microseconds rounded to milliseconds, printed "1 day, 2:03:04.500000".
 */
export function durationText(literal) {
  const DAY = 86400000000n;
  let us;
  if (/^[+-]?\d+$/.test(literal)) us = BigInt(literal) * DAY;
  else {
    const d = Number(literal);
    if (!Number.isFinite(d) || Math.abs(d) > 999999999) return "#VALUE!";
    const whole = Math.trunc(d),
      fraction = d - whole;
    us = BigInt(whole) * DAY;
    if (fraction !== 0) {
      const part = 86400000000 * fraction,
        ip = Math.trunc(part),
        left = part - ip;
      us += BigInt(ip);
      if (left !== 0) {
        let rounded = roundAway(left);
        if (Math.abs(rounded - left) === 0.5) {
          const odd = Number(us & 1n);
          rounded = 2 * roundAway((left + odd) * 0.5) - odd;
        }
        us += BigInt(rounded);
      }
    }
  }
  const mod = (a, b) => ((a % b) + b) % b;
  let micro = mod(us, 1000000n);
  if (micro !== 0n) {
    const seconds = floorOfSeconds(us);
    let ms = micro / 1000n;
    const rest = micro % 1000n;
    if (rest > 500n || (rest === 500n && ms % 2n === 1n)) ms += 1n;
    us = BigInt(seconds) * 1000000n + ms * 1000n;
    micro = mod(us, 1000000n);
  }
  const days = (us - mod(us, DAY)) / DAY;
  if (days > 999999999n || days < -999999999n) return "#VALUE!";
  const secs = Number(mod(us, DAY) / 1000000n);
  const clock = `${Math.floor(secs / 3600)}:${pad(Math.floor(secs / 60) % 60)}:${pad(secs % 60)}`;
  return (
    (days ? `${days} day${days === 1n || days === -1n ? "" : "s"}, ` : "") +
    clock +
    (micro ? "." + pad(Number(micro), 6) : "")
  );
}

/** The text of a t="d" cell (ISO 8601), as Python's isoformat writes it again. */
export function isoCellText(literal) {
  const text = literal.replace(/[Zz]$/, "");
  const m =
    /^(?:(\d{4})-(\d{2})-(\d{2}))?(?:(T)?(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{3}|\d{6}))?)?(?:[+-]\d{2}:\d{2})?)?$/.exec(
      text,
    );
  if (!m || (!m[1] && !m[5]) || (m[1] && m[5] && !m[4])) {
    throw new Error(
      `a date cell holds ${JSON.stringify(literal.slice(0, 40))}, which this page does not read`,
    );
  }
  const clock = m[5] ? clockText(m[5], m[6], m[7] || "00", m[8] ? +m[8].padEnd(6, "0") : 0) : "";
  if (!m[1]) return clock;
  return `${m[1]}-${m[2]}-${m[3]}` + (clock ? "T" + clock : "");
}
