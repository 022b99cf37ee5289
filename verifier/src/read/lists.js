/**
 * CSV/TSV lists: records of fields, and each record's raw text.
 */

/** Records of a delimited list: [{raw, cells}], the raw text without its line break. */
export function parseList(text, delimiter) {
  const out = [];
  let at = 0;
  const n = text.length;
  while (at < n) {
    const start = at,
      cells = [];
    let cell = "",
      quoted = false,
      field = true;
    for (;;) {
      if (at >= n) {
        cells.push(cell);
        break;
      }
      const ch = text[at];
      if (quoted) {
        if (ch === '"') {
          if (text[at + 1] === '"') {
            cell += '"';
            at += 2;
            continue;
          }
          quoted = false;
          at++;
          continue;
        }
        cell += ch;
        at++;
        continue;
      }
      if (ch === '"' && field) {
        quoted = true;
        field = false;
        at++;
        continue;
      }
      if (ch === delimiter) {
        cells.push(cell);
        cell = "";
        field = true;
        at++;
        continue;
      }
      if (ch === "\n" || ch === "\r") {
        cells.push(cell);
        break;
      }
      cell += ch;
      field = false;
      at++;
    }
    const raw = text.slice(start, at);
    if (text[at] === "\r" && text[at + 1] === "\n") at += 2;
    else if (at < n) at += 1;
    out.push({ raw, cells });
  }
  return out;
}
