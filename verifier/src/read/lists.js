/**
 * CSV/TSV lists: records of fields, and each record's raw text; tables written as xlshuffle writes them.
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

/**
 * Rows as the CSV (or, with a tab, TSV) xlshuffle writes a table: Python's csv writer with
 * "\n" line ends and minimal quoting (a field holding the delimiter, a quote or a line
 * break quoted, its quotes doubled; a row of one empty field written `""`).
 */
export function csvText(rows, delimiter = ",") {
  const special = [delimiter, '"', "\n", "\r"];
  const field = (f) =>
    special.some((c) => f.includes(c)) ? '"' + f.replaceAll('"', '""') + '"' : f;
  return rows
    .map((row) => {
      const fields = row.map((f) => (f === null || f === undefined ? "" : String(f)));
      if (fields.length === 1 && fields[0] === "") return '""\n';
      return fields.map(field).join(delimiter) + "\n";
    })
    .join("");
}

/**
 * A list's delimiter, as xlshuffle reads it: a tab for .tsv and .tab; otherwise a comma,
 * unless the first line holds more ";" than "," (Excel writes ";" where the decimal
 * separator is a comma).
 */
export function sniffDelimiter(name, text) {
  if (/\.(tsv|tab)$/i.test(name)) return "\t";
  const line = text.split("\n", 1)[0];
  return line.split(";").length > line.split(",").length ? ";" : ",";
}
