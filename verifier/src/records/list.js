/**
 * The record of a draw on a CSV/TSV list.
 */

import { permutation } from "../protocol/shuffles.js";
import { balancedTeamsDrawn } from "../protocol/teams.js";
import { baseName, decodeText, extensionOf } from "../read/files.js";
import { parseList } from "../read/lists.js";
import { checkCommitment } from "./commitment.js";
import { drawPlan, drawSummary, planTable } from "./drawplan.js";
import { matchFiles } from "./matching.js";
import {
  balanceSummary,
  checkPermutation,
  describe,
  redraw,
  resultTable,
  shortRow,
  teamTable,
} from "./replay.js";
import { cannot, fail } from "./verdict.js";

/**
 * The record of a draw on a list, with its files; `outputOptional`: the output is checked
 * when given (a round's chain checks the draw from its input alone).
 */
export async function verifyList(rec, files, { outputOptional = false } = {}) {
  const engine = rec.target.engine;
  if (engine !== undefined && engine !== "duckdb")
    cannot(
      `the record says the engine ${JSON.stringify(engine)} drew it, which this page does not know`,
    );
  if (engine === "duckdb" && rec.target.delimiter === null)
    cannot(
      `DuckDB drew it from a Parquet file (${baseName(rec.input)}), which this page cannot read: check it with 'xlshuffle verify RECORD --input ${baseName(rec.input)}', or save the file as CSV and draw from that`,
    );
  const delimiter = rec.target.delimiter || ",";
  const { input, output, loaded } = await matchFiles(rec, files);
  if (!input)
    fail("no input file was given: give the list the draw read (" + baseName(rec.input) + ")");
  const extra = loaded.filter((f) => f !== input && f !== output);
  const inText = decodeText(input.bytes);
  const records = parseList(inText.replace(/^\ufeff/, ""), delimiter);
  const head = rec.header ? 1 : 0;
  const data = records.slice(head);
  const n = data.length;
  if (rec.input_sha256 && input.sha !== rec.input_sha256) {
    fail(
      `the input ${input.name} is not the file the draw read: its SHA-256 is ${input.sha}, the record says ${rec.input_sha256}` +
        (rec.rows !== records.length
          ? ` (it has ${records.length} rows, the record ${rec.rows})`
          : ""),
    );
  }
  if (rec.target.kept)
    cannot("rows kept in place (--keep-blank-rows) are not supported by this page yet");
  let drawn,
    plan = null,
    teams = null;
  const balance = rec.target.balance;
  if (balance) {
    if (!Number.isInteger(rec.k) || rec.k < 1 || rec.k > n)
      fail(`the record's number of teams ${rec.k} does not fit ${n} people`);
    const labels = data.map((r) =>
      balance.columns.map((c) => (r.cells[c.index] === undefined ? "" : r.cells[c.index])),
    );
    const before = balance.avoid ? balance.avoid.before : null;
    if (before && before.length !== n)
      fail(`the record's earlier split lists ${before.length} people, the input has ${n}`);
    const got = await balancedTeamsDrawn(labels, rec.k, rec.seed, before);
    teams = got.team;
    drawn = await permutation(n, rec.seed); // the record keeps step 1 of the first candidate
    if (balance.avoid && balance.avoid.repeats !== got.repeats)
      fail(
        `the teams drawn again put ${got.repeats} earlier pairs together, the record says ${balance.avoid.repeats}`,
      );
  } else if (rec.target.draw) {
    plan = await drawPlan(
      rec,
      n,
      (i, c) => data[i].cells[c],
      rec.target.draw.exclusion && extra.length === 1 ? extra[0] : null,
      (i) => i + 1,
      true,
    );
    drawn = plan.drawn;
  } else {
    drawn = await redraw(rec, n);
  }
  checkPermutation(rec, drawn, (i) => (data[i] ? shortRow(data[i].cells, 2) : ""));
  if (rec.rows !== undefined && rec.rows !== records.length)
    fail(`the input has ${records.length} rows, the record says ${rec.rows}`);
  const checked =
    rec.command === "restore"
      ? [
          "the record's order is the inverse of the order the seed gives",
          "the input is the shuffled file the restore read",
        ]
      : ["the seed gives the recorded rows and order", "the input is the file the draw read"];
  if (engine === "duckdb")
    checked.push("DuckDB drew it (--engine duckdb); drawn again here as the list engine draws it");
  if (rec.commitment) {
    const trim = (cells) => {
      const out = cells.slice();
      while (out.length && out[out.length - 1] === "") out.pop();
      return out;
    };
    checked.unshift(
      ...(await checkCommitment(
        rec,
        records.slice(0, head).map((r) => trim(r.cells)),
        data.map((r) => trim(r.cells)),
      )),
    );
  }
  if (output || ((rec.output || rec.output_sha256) && !outputOptional)) {
    if (!output)
      fail("no output file was given: give the list the draw wrote (" + baseName(rec.output) + ")");
    const outRecords = parseList(decodeText(output.bytes).replace(/^\ufeff/, ""), delimiter);
    let expected;
    if (rec.command === "groups") {
      const group = teams ? teams.map(String) : new Array(n);
      if (!teams)
        drawn.forEach((item, p) => {
          group[item] = String((p % rec.k) + 1);
        });
      expected = records
        .slice(0, head)
        .map((r) => [...r.cells, balance ? balance.label : null])
        .concat(data.map((r, i) => [...r.cells, group[i]]));
    } else if (plan) {
      expected = records
        .slice(0, head)
        .map((r) => [...r.cells, ...plan.extraHeader])
        .concat(drawn.map((i, p) => [...data[i].cells, ...plan.extra[p]]));
    } else {
      expected = records
        .slice(0, head)
        .map((r) => r.cells)
        .concat(drawn.map((i) => data[i].cells));
    }
    for (let r = 0; r < Math.max(expected.length, outRecords.length); r++) {
      const want = expected[r],
        got = outRecords[r] && outRecords[r].cells;
      if (!got)
        fail(
          `the output ${output.name} ends at row ${r}: row ${r + 1} should hold ${shortRow(want)}`,
        );
      if (!want)
        fail(
          `the output ${output.name} has a row ${r + 1} the draw did not write: ${shortRow(got)}`,
        );
      for (let c = 0; c < Math.max(want.length, got.length); c++) {
        if (want[c] === null) continue; // the group column's header text
        if (want[c] !== got[c]) {
          const w = want[c] === undefined ? "nothing" : JSON.stringify(want[c]);
          const g = got[c] === undefined ? "nothing" : JSON.stringify(got[c]);
          fail(
            `the output ${output.name} differs at row ${r + 1}, column ${c + 1}: it holds ${g}, the draw gives ${w}`,
          );
        }
      }
    }
    if (rec.output_sha256 && output.sha !== rec.output_sha256) {
      fail(
        `the output ${output.name} holds the drawn rows but is not the file the draw wrote (SHA-256 ${output.sha}, the record says ${rec.output_sha256}): its bytes were changed (line breaks, quotes or encoding?)`,
      );
    }
    checked.push(
      rec.command === "restore"
        ? "the output holds exactly the rows put back"
        : "the output holds exactly the drawn rows",
    );
    if (rec.command === "restore" && extra.length === 1 && sameExtension(extra[0], output)) {
      // the original list, before the shuffle: the restored one must hold exactly its rows
      checked.push(sameListRows(extra[0], output, delimiter, "the output"));
    }
  }
  if (rec.command === "shuffle" && extra.length === 1 && sameExtension(extra[0], input)) {
    // a third file with a shuffle's record: the list xlshuffle restore wrote from the output
    checked.push(sameListRows(input, extra[0], delimiter, `${extra[0].name}, the restored list,`));
  }
  return {
    message:
      `Verified: ${plan ? drawSummary(rec, plan) : describe(rec)}${balanceSummary(balance)}. ` +
      `Checked: ${checked.join("; ")}.`,
    table: plan
      ? planTable(plan, (i) => shortRow(data[i].cells))
      : teams
        ? teamTable(rec.k, teams, (i) => shortRow(data[i].cells))
        : resultTable(rec, drawn, (i) => shortRow(data[i].cells)),
    plan,
  };
}

/** Whether two files' names end alike (.csv, .tsv): a third file of another kind is no restored list. */
function sameExtension(a, b) {
  const ext = (f) => extensionOf(f.name);
  return ext(a) === ext(b);
}

/** The restored list holds exactly the original's rows (fails at the first field that differs). */
function sameListRows(original, restored, delimiter, noun) {
  const rows = (f) => parseList(decodeText(f.bytes).replace(/^\ufeff/, ""), delimiter);
  const origRecords = rows(original),
    outRecords = rows(restored);
  for (let r = 0; r < Math.max(origRecords.length, outRecords.length); r++) {
    const want = origRecords[r] && origRecords[r].cells,
      got = outRecords[r] && outRecords[r].cells;
    if (!got)
      fail(
        `the restored ${restored.name} ends at row ${r}: the original ${original.name} has a row ${r + 1}, ${shortRow(want)}`,
      );
    if (!want)
      fail(
        `the restored ${restored.name} has a row ${r + 1} the original ${original.name} does not: ${shortRow(got)}`,
      );
    for (let c = 0; c < Math.max(want.length, got.length); c++) {
      if (want[c] !== got[c]) {
        const show = (x) => (x === undefined ? "nothing" : JSON.stringify(x));
        fail(
          `the restored ${restored.name} differs from the original ${original.name} at row ${r + 1}, column ${c + 1}: it holds ${show(got[c])}, the original ${show(want[c])}`,
        );
      }
    }
  }
  return restored.sha === original.sha
    ? `${noun} ${restored.name} is byte for byte the original ${original.name}`
    : `${noun} ${restored.name} holds exactly the rows of the original ${original.name} (its bytes differ: SHA-256 ${restored.sha}, the original's ${original.sha})`;
}
