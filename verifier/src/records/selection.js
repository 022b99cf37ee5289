/**
 * A selection as xlshuffle names it in records and commitments (`Sheet!A1:C7`,
 * `Sheet!A,C (rows 1-7)`, `table T (Sheet!A1:B5)`), as a record's target.
 */

/** The target ({kind, ref, columns, table}) a selection text names, or null if none. */
export function targetOfSelection(text) {
  let m;
  if ((m = /^table (.+) \((.*)!([A-Z]+\d+:[A-Z]+\d+)\)$/.exec(text)))
    return { kind: "table", ref: m[3], columns: null, table: m[1] };
  if ((m = /^(.*)!([A-Z]{1,3}(?:,[A-Z]{1,3})*) \(rows (\d+)-(\d+)\)$/.exec(text))) {
    const cols = m[2].split(",");
    return {
      kind: "columns",
      ref: `${cols[0]}${m[3]}:${cols[cols.length - 1]}${m[4]}`,
      columns: m[2],
      table: null,
    };
  }
  if ((m = /^(.*)!([A-Z]+\d+(?::[A-Z]+\d+)?)$/.exec(text)))
    return { kind: "range", ref: m[2], columns: null, table: null };
  return null;
}
