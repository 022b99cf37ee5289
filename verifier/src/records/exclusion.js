/**
 * An exclusion list given with a record (section 10): read as `sample --exclude` reads it,
 * and checked against the record.
 */

import { canonicalId, exclusionDigest } from "../protocol/exclusions.js";
import { pySplitLines, pyStrip, range } from "../protocol/python.js";
import { columnLetters } from "../read/a1.js";
import { extensionOf } from "../read/files.js";
import { parseList } from "../read/lists.js";
import { isZip, zipEntries } from "../read/zip.js";
import { cannot, fail } from "./verdict.js";

/** The delimiter of a table of IDs: the most frequent of , ; tab on its first non-blank line. */
function sniffDelimiter(lines) {
  const sample = lines.find((line) => pyStrip(line) !== "") || "";
  let best = ",",
    most = -1;
  for (const d of [",", ";", "\t"]) {
    const count = sample.split(d).length - 1;
    if (count > most) {
      best = d;
      most = count;
    }
  }
  return best;
}

/** A table of IDs read by its --id column: its header text, or its letters (find_column). */
function tableIds(name, lines, delimiter, idColumn) {
  if (!idColumn)
    fail(`${name}: a table of IDs is read by the --id column, and the record names none`);
  const rows = parseList(lines.join("\n"), delimiter)
    .map((r) => r.cells)
    .filter((row) => row.some((f) => pyStrip(f) !== ""));
  if (!rows.length) fail(`${name}: the table is empty: it lists no IDs`);
  const text = pyStrip(idColumn);
  const found = rows[0]
    .map((label, j) => [pyStrip(label), j])
    .filter(([label]) => label === text)
    .map(([, j]) => j);
  if (found.length > 1)
    fail(
      `${name}: ${found.length} columns are headed ${JSON.stringify(text)}: the draw cannot have read its IDs by --id ${idColumn}`,
    );
  let j = found.length ? found[0] : -1;
  if (j < 0) {
    const width = Math.max(...rows.map((row) => row.length));
    const letters = range(width).map((c) => columnLetters(c));
    j = letters.indexOf(text.toUpperCase());
  }
  if (j < 0)
    fail(
      `${name} has no column ${JSON.stringify(idColumn)} (the --id column of the draw), so it is not the exclusion list the draw read`,
    );
  return rows
    .slice(1)
    .filter((row) => j < row.length && pyStrip(row[j]) !== "")
    .map((row) => row[j]);
}

/**
 * The IDs an exclusion file lists, by the rules of xlshuffle's --exclude (read_excluded):
 * an earlier record's winners; a CSV/TSV list by the --id column's header text (or letters);
 * a text file whose first line names the --id column (alone, or among fields split by , ;
 * or a tab) by that column; else one ID a line (blank lines skipped). A workbook is left to
 * xlshuffle verify; a binary file, or delimited rows without the column, are refused.
 */
export function excludedIds(file, idColumn = null) {
  const bytes = file.bytes;
  const ext = extensionOf(file.name);
  if (isZip(bytes)) {
    let book = ext === "xlsx" || ext === "xlsm";
    try {
      book = book || zipEntries(bytes).has("xl/workbook.xml");
    } catch {
      /* not a readable zip */
    }
    if (book) {
      cannot(
        `the exclusion list ${file.name} is a workbook, which this page does not read yet: check the draw with xlshuffle verify --exclude ${file.name}`,
      );
    }
    fail(
      `${file.name} is a zip file that is not a workbook, not a list of IDs: xlshuffle refuses it as an exclusion list`,
    );
  }
  if (bytes.includes(0))
    fail(
      `${file.name} is a binary file (it holds NUL bytes), not a list of IDs: xlshuffle refuses it as an exclusion list`,
    );
  let text;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    fail(
      `${file.name} is not UTF-8 text, not a list of IDs: xlshuffle refuses it as an exclusion list`,
    );
  }
  text = text.replace(/^\ufeff/, "");
  if (/^\s*[{[]/.test(text)) {
    let data;
    try {
      data = JSON.parse(text);
    } catch (e) {
      fail(`${file.name} is not a readable record: ${e.message}`);
    }
    const out = [];
    for (const rec of Array.isArray(data) ? data : [data]) {
      const winners = rec && rec.target && rec.target.draw && rec.target.draw.winners;
      if (!Array.isArray(winners)) fail(`${file.name} names no winners by ID`);
      out.push(...winners.map(String));
    }
    return out;
  }
  const lines = pySplitLines(text);
  const tables = { csv: null, tsv: "\t", tab: "\t" };
  if (ext in tables)
    return tableIds(file.name, lines, tables[ext] || sniffDelimiter(lines), idColumn);
  const first = lines.find((line) => pyStrip(line) !== "") || "";
  const delimiter = sniffDelimiter(lines);
  if (idColumn && pyStrip(first) === pyStrip(idColumn))
    return tableIds(file.name, lines, delimiter, idColumn);
  if (first.includes(delimiter)) {
    const fields = parseList(first, delimiter)[0].cells.map(pyStrip);
    if (idColumn && fields.includes(pyStrip(idColumn)))
      return tableIds(file.name, lines, delimiter, idColumn);
    const widths = new Set(
      parseList(lines.join("\n"), delimiter)
        .map((r) => r.cells)
        .filter((row) => row.some((f) => f !== ""))
        .map((row) => row.length),
    );
    if (widths.size === 1 && [...widths][0] > 1) {
      fail(
        `${file.name}: its lines are rows of a table (${JSON.stringify(delimiter)} between fields), but its first line does not name the --id column ${JSON.stringify(idColumn)}: xlshuffle refuses it as an exclusion list`,
      );
    }
  }
  return lines.filter((line) => pyStrip(line) !== "");
}

/**
 * Section 10 against the exclusion list given: its digest and count, exactly the rows whose
 * ID it lists, and as many listed IDs matching no entrant as the record says.
 */
export async function checkExclusion(
  exclusion,
  file,
  n,
  textOf,
  rowNo = (i) => i + 1,
  idColumn = null,
) {
  const ids = excludedIds(file, idColumn);
  const digest = await exclusionDigest(ids);
  if (digest !== exclusion.digest)
    fail(
      `${file.name} is not the exclusion list the draw used: its exclusion digest is ${digest}, the record says ${exclusion.digest}`,
    );
  const out = new Set(ids.map(canonicalId).filter((t) => t !== ""));
  if (exclusion.ids !== undefined && exclusion.ids !== out.size)
    fail(
      `the record says the exclusion list holds ${exclusion.ids} IDs, ${file.name} holds ${out.size}: it was edited`,
    );
  const have = range(n).map((i) => canonicalId(textOf(i, exclusion.index) || ""));
  const rows = range(n).filter((i) => have[i] !== "" && out.has(have[i]));
  const stated = new Set(exclusion.rows);
  const missed = rows.find((i) => !stated.has(i));
  if (missed !== undefined)
    fail(
      `data row ${rowNo(missed)} has the excluded ID ${JSON.stringify(textOf(missed, exclusion.index))} but the draw did not leave it out`,
    );
  const wrong = exclusion.rows.find((i) => !rows.includes(i));
  if (wrong !== undefined)
    fail(
      `the record leaves out data row ${rowNo(wrong)}, whose ID ${JSON.stringify(textOf(wrong, exclusion.index))} is not in ${file.name}`,
    );
  if (exclusion.unmatched !== undefined) {
    const known = new Set(have);
    const unmatched = [...out].filter((t) => !known.has(t)).length;
    if (unmatched !== exclusion.unmatched)
      fail(
        `the record says ${exclusion.unmatched} of the excluded IDs matched no entrant, but ${unmatched} of those in ${file.name} do not: it was edited`,
      );
  }
}
