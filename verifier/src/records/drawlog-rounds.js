/**
 * Rounds of a raffle locked in Excel (*replace a winner*, log mode `round`): the raffle drawn
 * again from its seed and the list, then each round re-applied by the rule `xlshuffle redraw`
 * follows (the place goes to the next reserve by rank), every step held against its log row's
 * hashes of the result before and after it, and the result's cells (Role, Rank and the Note
 * column right of them) against the standing after the last round.
 */

import { columnIndex, columnLetters } from "../read/a1.js";
import { showValue } from "../read/values.js";
import { gridOf, shellWords, valuesSha256 } from "./drawlog-rows.js";
import { replaceWinner } from "./rounds.js";
import { canonicalId } from "../protocol/exclusions.js";
import { cannot, fail } from "./verdict.js";

const ROUND = "round";
const key = (e) => `${e.sheet}\u0000${e.range}\u0000${e.seed}`;

/** The commands of a logged command line (`&&` between them), each as its words. */
function commands(text) {
  const out = [[]];
  for (const word of shellWords(text))
    if (word === "&&") out.push([]);
    else out[out.length - 1].push(word);
  return out;
}

function option(argv, name) {
  for (const [n, word] of argv.entries()) {
    if (word === name && n + 1 < argv.length) return argv[n + 1];
    if (word.startsWith(name + "=")) return word.slice(name.length + 1);
  }
  return null;
}

/**
 * The rounds not restored of the draw `entry` belongs to, in log order, among the pasted
 * rows `log` (after the draw's row; a round row's own chain holds it, at least).
 */
export function liveRounds(entry, log) {
  const at = log.indexOf(entry);
  const same = (e) => e.mode === ROUND && key(e) === key(entry) && !e["restored (UTC)"];
  // a round row: every round of its draw pasted (the cells hold the standing after the last)
  return entry.mode === ROUND ? log.filter(same) : log.slice(at + 1).filter(same);
}

/** The ID column and the rounds (who, why) a round row's command line replays. */
function chainOf(round) {
  const [sample, ...redraws] = commands(round["command line"]);
  if (sample[0] !== "xlshuffle" || sample[1] !== "sample" || !redraws.length)
    fail(
      `the Draw log's round row of ${round["time (UTC)"]}: its command line is not a sample followed by xlshuffle redraw (the log was edited?)`,
    );
  if (sample.includes("--prizes"))
    cannot(
      "a round of a prize draw locked in Excel: this page does not check prize draws locked in Excel (their table is on a sheet of the workbook); run the round's command line and xlshuffle verify",
    );
  const asked = redraws.map((argv) => {
    const who = option(argv, "--replace"),
      why = option(argv, "--reason");
    if (argv[1] !== "redraw" || who === null || why === null)
      fail(
        `the Draw log's round row of ${round["time (UTC)"]}: a command of its command line is not xlshuffle redraw --replace ID --reason TEXT`,
      );
    return [who, why];
  });
  const id = option(sample, "--id");
  if (id === null) fail(`the round row of ${round["time (UTC)"]} names no ID column (--id)`);
  return { id, asked };
}

/**
 * The raffle's result `expected` (rows of tagged values, then Role and Rank) taken through
 * the rounds `rounds` (log rows, the last one's command line naming them all): each round's
 * hashes checked. Returns {grid (the result's cells with the Note column), said, checked}.
 */
export async function afterRounds(rounds, expected, box, width) {
  const last = rounds[rounds.length - 1];
  const { id, asked } = chainOf(last);
  const column = columnIndex(id) - box.c1;
  if (column < 0 || column >= width)
    fail(`the ID column ${id} of the rounds' command line is not in the list ${box.ref || ""}`);
  if (asked.length < rounds.length)
    fail(
      `the round row of ${last["time (UTC)"]} replays ${asked.length} round(s), the log holds ${rounds.length} not restored`,
    );
  let placed = expected.map((row) => ({
    id: canonicalId(row[column] === undefined ? "" : row[column].slice(2)),
    values: row.slice(0, width),
    prize: null,
    place: Number(row[width + 1].slice(2)),
    role: row[width].slice(2),
    note: "",
  }));
  const grid = (now) =>
    now.map((p) => [
      ...p.values,
      "s:" + p.role,
      "n:" + p.place,
      p.note ? "s:" + p.note : undefined,
    ]);
  const said = [];
  // the rows pasted are the last ones of the chain its command line names
  const first = asked.length - rounds.length;
  for (const [n, [who, why]] of asked.entries()) {
    const before = grid(placed);
    let step;
    try {
      step = replaceWinner(placed, who, why);
    } catch (e) {
      fail(
        `round ${n + 1} (${who}, ${JSON.stringify(why)}) cannot be made by the rules: ${e.message}`,
      );
    }
    placed = step.placed;
    const row = rounds[n - first];
    if (row) {
      const stated = [row["input sha256"], row["output sha256"]];
      const got = [await valuesSha256(before), await valuesSha256(grid(placed))];
      if (got[0] !== stated[0] || got[1] !== stated[1])
        fail(
          `the Draw log's round row of ${row["time (UTC)"]} (round ${n + 1}): the result's hashes before and after it are not those of the round the rules give (${who}'s place to ${step.change.given_to.id}): the log or the draw was edited`,
        );
    }
    said.push(
      `round ${n + 1}: ${who}'s place went to ${step.change.given_to.id}, reserve ${step.change.given_to.reserve} (${JSON.stringify(step.change.reason)})`,
    );
  }
  return {
    grid: grid(placed),
    said,
    checked: `each of the ${rounds.length} round row(s) holds the hashes of the result before and after the round the rules give`,
  };
}

/** The result's cells with its Note column against `grid`, cell by cell. */
export function compareResult(cells, out, grid, sheet) {
  const box = { ...out, c2: out.c2 + 1 };
  const got = gridOf(cells, box);
  for (let r = 0; r < Math.max(grid.length, got.length); r++)
    for (let c = 0; c <= box.c2 - box.c1; c++) {
      const want = (grid[r] || [])[c],
        have = (got[r] || [])[c];
      if ((want || null) !== (have || null))
        fail(
          `${sheet}!${columnLetters(box.c1 + c)}${box.r1 + r} holds ${showValue(have)}, the draw and its rounds give ${showValue(want)} (a later round not pasted? paste every round row of the log)`,
        );
    }
}
