/**
 * Excel's A1 notation (1-based) and the key of a cell in a sheet's Map.
 */

export function columnIndex(letters) {
  let n = 0;
  for (const ch of letters) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n; // 1-based
}

export function columnLetters(n) {
  let s = "";
  while (n > 0) {
    const r = (n - 1) % 26;
    s = String.fromCharCode(65 + r) + s;
    n = (n - 1 - r) / 26;
  }
  return s;
}

export function parseRef(ref) {
  const m = /^\$?([A-Z]{1,3})\$?(\d+)(?::\$?([A-Z]{1,3})\$?(\d+))?$/.exec(ref || "");
  if (!m) throw new Error("not an A1 range: " + ref);
  const c1 = columnIndex(m[1]),
    r1 = +m[2];
  return { r1, c1, r2: m[4] ? +m[4] : r1, c2: m[3] ? columnIndex(m[3]) : c1 };
}

/** A cell's key in a sheet's Map: row and column (both 1-based) in one number. */
export function cellKey(r, c) {
  return r * 20000 + c;
}

export function keyRow(key) {
  return Math.floor(key / 20000);
}

export function keyColumn(key) {
  return key % 20000;
}
