/**
 * A Draw log row of a draw locked in Excel, checked against the workbook saved after it.
 */

import { range } from "../protocol/python.js";
import { deal, groups, permutation } from "../protocol/shuffles.js";
import { PROTOCOL } from "../protocol/stream.js";
import { balancedTeams } from "../protocol/teams.js";
import { columnIndex, columnLetters, parseRef } from "../read/a1.js";
import { textRows } from "../read/celltexts.js";
import { readFile } from "../read/files.js";
import { showValue } from "../read/values.js";
import { openWorkbook } from "../read/workbook.js";
import { isZip } from "../read/zip.js";
import { checkLoggedCommitment, verifyLogCommit } from "./drawlog-commit.js";
import { lockedDesign } from "./drawlog-designs.js";
import { afterRounds, compareResult, liveRounds } from "./drawlog-rounds.js";
import { boxName, compareBlock, gridOf, valuesSha256 } from "./drawlog-rows.js";
import { drawPlan } from "./drawplan.js";
import { shortRow } from "./replay.js";
import { cannot, fail } from "./verdict.js";

/**
 * A locked ticket draw (section 18): the rows drawn by their IDs' own tickets (the log's
 * options "ids B2:B9"), each followed by Role and Rank (with reserves) and its ticket.
 */
async function lockedTickets(entry, rows, box, k) {
  const m = /^ids (.+)$/.exec(entry.options || "");
  if (!m)
    fail(`the Draw log row's options ${JSON.stringify(entry.options)} do not name the IDs column`);
  const at = (ref) => parseRef(ref.replace(/\$/g, "")).c1 - box.c1;
  const id = { column: m[1], index: at(m[1]) };
  const weights = entry.tickets ? { column: entry.tickets, index: at(entry.tickets) } : null;
  if (id.index < 0 || id.index > box.c2 - box.c1)
    fail(`the IDs column ${JSON.stringify(m[1])} is outside the selection`);
  const reserves = entry.reserves === "" ? 0 : Number(entry.reserves);
  const rec = {
    seed: entry.seed,
    target: { draw: { method: "ticket", k, reserves, weights, id } },
  };
  const plan = await drawPlan(rec, rows.length, (i, c) =>
    rows[i][c] === undefined ? "" : rows[i][c].slice(2),
  );
  return plan.drawn.map((i, p) =>
    rows[i].concat(
      plan.extra[p].map((x, j) =>
        j < plan.extra[p].length - 1 && /^\d+$/.test(x) ? "n:" + x : "s:" + x,
      ),
    ),
  );
}

/** What a locked draw of the log's mode writes from the input grid (docs/excel.md). */
export async function lockedOutput(entry, rows, box) {
  const seed = entry.seed,
    mode = entry.mode;
  const k = entry.k === "" ? null : Number(entry.k);
  if (mode === "shuffle") return (await permutation(rows.length, seed)).map((p) => rows[p]);
  if (mode === "winners") return deal(rows, k, seed);
  if (mode === "groups") return (await groups(rows.length, k, seed)).map((g) => ["n:" + g]);
  if (mode === "deal") {
    const hands = Number(entry.hands);
    const deck = rows.flat();
    if (k * hands > deck.length) fail(`the log deals ${k * hands} cards from ${deck.length} cells`);
    const dealt = await deal(deck, k * hands, seed);
    return range(k).map((r) => dealt.slice(r * hands, (r + 1) * hands));
  }
  if (mode === "tickets") return lockedTickets(entry, rows, box, k);
  if (mode === "raffle") {
    let weights = null;
    if (entry.tickets) {
      const t = parseRef(entry.tickets.replace(/\$/g, ""));
      weights = { column: entry.tickets, index: t.c1 - box.c1 };
    }
    const reserves = entry.reserves === "" ? 0 : Number(entry.reserves);
    const rec = {
      seed,
      target: { draw: { method: weights ? "weighted" : "random", k, reserves, weights } },
    };
    const plan = await drawPlan(rec, rows.length, (i, c) =>
      rows[i][c] === undefined ? "" : rows[i][c].slice(2),
    );
    return plan.drawn.map((i, p) =>
      rows[i].concat(plan.extra[p].map((x) => (/^\d+$/.test(x) ? "n:" + x : "s:" + x))),
    );
  }
  if (mode === "teams") {
    // options "balance C, D": the balancing columns by their letters on the sheet
    const m = /^balance (.+)$/.exec(entry.options || "");
    if (!m)
      fail(
        `the Draw log row's options ${JSON.stringify(entry.options)} do not name the balancing columns`,
      );
    const columns = m[1].split(",").map((x) => columnIndex(x.trim()) - box.c1);
    if (columns.some((c) => c < 0 || c > box.c2 - box.c1))
      fail(`a balancing column of ${JSON.stringify(entry.options)} is outside the selection`);
    const labels = rows.map((row) =>
      columns.map((c) => (row[c] === undefined ? "" : row[c].slice(2))),
    );
    return (await balancedTeams(labels, k, seed)).map((t) => ["n:" + t]);
  }
  cannot(`a Draw log row of mode ${JSON.stringify(mode)} is not checked by this page yet`);
}

/**
 * A Draw log row against the workbook saved after it; `log`: every row pasted with it (a
 * raffle's rounds, and the draw a round row follows).
 */
export async function verifyLogEntry(entry, files, log = [entry]) {
  if (entry.protocol !== PROTOCOL)
    cannot(
      `the Draw log row's protocol is ${JSON.stringify(entry.protocol)}, and this page knows only ${PROTOCOL}`,
    );
  if (entry.mode === "commit") return verifyLogCommit(entry, files);
  if (!entry.seed) fail("the Draw log row has no seed");
  let box, out;
  try {
    box = parseRef(entry.range.replace(/\$/g, ""));
    out = parseRef(entry.output.replace(/\$/g, ""));
  } catch (e) {
    fail("the Draw log row's range or output is not one block of cells: " + e.message);
  }
  const books = [];
  for (const f of files) {
    const { name, bytes } = await readFile(f);
    if (isZip(bytes)) books.push({ name, book: await openWorkbook(bytes) });
  }
  const found = books.find((b) => b.book.sheets.includes(entry.sheet));
  const restored = entry["restored (UTC)"] !== "";
  const where = boxName(entry.sheet, box);
  if (entry.mode === "orders" || entry.mode === "allocation") {
    // the allocation list's sheet goes with a restore: its options and seed say it all
    if (!found && !(entry.mode === "allocation" && restored))
      fail(
        `give the workbook, saved after the draw, that holds the sheet ${JSON.stringify(entry.sheet)}`,
      );
    const design = await lockedDesign(
      entry,
      found ? found.book : null,
      found ? await found.book.cells(entry.sheet) : null,
      box,
    );
    if ((await valuesSha256(design.expected)) !== entry["output sha256"]) {
      fail(
        `the draw with seed ${JSON.stringify(entry.seed)} does not give what the log says it wrote (output sha256): the seed, options or cells in the log are not the draw's`,
      );
    }
    design.checked.push("the log's output sha256 is what the seed draws");
    const what =
      entry.mode === "orders"
        ? `${/, balanced$/.test(entry.options) ? "counterbalanced" : "per-person"} orders of ${where}`
        : `allocation list (${entry.options})`;
    return {
      message:
        `Verified: Draw log row of ${entry["time (UTC)"]}: ${what} with seed ${JSON.stringify(entry.seed)}` +
        (restored ? ` (restored ${entry["restored (UTC)"]})` : "") +
        `. Checked: ${design.checked.join("; ")}.`,
      table: design.table,
    };
  }
  if (!found)
    fail(
      `give the workbook, saved after the draw, that holds the sheet ${JSON.stringify(entry.sheet)}`,
    );
  if (entry.mode === "round" || entry.mode === "raffle") {
    const rounds = liveRounds(entry, log);
    if (entry.mode === "round" || rounds.length)
      return verifyRaffleRounds(entry, log, rounds, found, box, out);
  }
  const sheet = await found.book.cells(entry.sheet);
  let rows = gridOf(sheet.cells, box);
  const committed = entry["commitment sha256"] || entry.seed.startsWith("xlshuffle-commit:");
  let texts = null; // the cells' texts for a committed draw's list digest (section 17)
  if (committed) {
    let all;
    try {
      all = await found.book.texts(entry.sheet);
    } catch (e) {
      cannot(`the list digest of ${where}: ${e.message}: use xlshuffle verify`);
    }
    texts = textRows(
      all,
      range(box.r2 - box.r1 + 1).map((i) => box.r1 + i),
      range(box.c2 - box.c1 + 1).map((j) => box.c1 + j),
    );
  }
  if (entry.mode === "shuffle" && !restored) {
    if ((await valuesSha256(rows)) !== entry["output sha256"]) {
      fail(
        `the values in ${where} are not what the draw wrote: their SHA-256 is not the log's output sha256 (they were changed since the draw, or this is another workbook)`,
      );
    }
    const perm = await permutation(rows.length, entry.seed);
    const original = new Array(rows.length);
    perm.forEach((item, p) => {
      original[item] = rows[p];
    });
    rows = original;
    if (texts) {
      const before = new Array(texts.length);
      perm.forEach((item, p) => {
        before[item] = texts[p];
      });
      texts = before;
    }
    if ((await valuesSha256(rows)) !== entry["input sha256"]) {
      fail(
        `undoing the shuffle with seed ${JSON.stringify(entry.seed)} does not give the values the draw read (input sha256): the seed or the range in the log is not the draw's`,
      );
    }
  } else if ((await valuesSha256(rows)) !== entry["input sha256"]) {
    fail(
      `the values in ${where} are not the ones the draw read: their SHA-256 is not the log's input sha256 (changed since the draw, or another workbook)`,
    );
  }
  const expected = await lockedOutput(entry, rows, box);
  const checked = [`the input ${where} is what the draw read`];
  if (committed) checked.unshift(...(await checkLoggedCommitment(entry, texts)));
  const width = box.c2 - box.c1 + 1;
  const rewritten =
    entry.mode === "raffle" &&
    entry.reserves &&
    entry.reserves !== "0" &&
    gridOf(sheet.cells, { ...out, c1: out.c2 + 1, c2: out.c2 + 1 }).some((r) => r[0] !== undefined);
  if (rewritten && !restored) {
    // rounds since (a Note column right of the result): the drawn rows stay where the draw
    // put them, their Role and Rank are the rounds'
    compareBlock(
      sheet.cells,
      { ...out, c2: out.c1 + width - 1 },
      expected.map((r) => r.slice(0, width)),
      entry.sheet,
      entry.seed,
    );
    checked.push(
      `${boxName(entry.sheet, out)} holds the rows the seed draws, in its order; their Role and Rank were rewritten by rounds since (a Note column right of them): paste the log's round rows with this one to check those`,
    );
  } else if (!restored && entry.mode !== "shuffle") {
    const got = gridOf(sheet.cells, out);
    for (let r = 0; r < Math.max(expected.length, got.length); r++) {
      for (let c = 0; c < Math.max((expected[r] || []).length, (got[r] || []).length); c++) {
        const want = (expected[r] || [])[c],
          have = (got[r] || [])[c];
        if ((want || null) !== (have || null)) {
          fail(
            `${entry.sheet}!${columnLetters(out.c1 + c)}${out.r1 + r} holds ${showValue(have)}, the draw with seed ${JSON.stringify(entry.seed)} gives ${showValue(want)}`,
          );
        }
      }
    }
    checked.push(`${boxName(entry.sheet, out)} holds exactly what the seed draws`);
  }
  if ((await valuesSha256(expected)) !== entry["output sha256"]) {
    fail(
      `the draw with seed ${JSON.stringify(entry.seed)} does not give what the log says it wrote (output sha256): the seed, counts or range in the log are not the draw's`,
    );
  }
  checked.push("the log's output sha256 is what the seed draws");
  const mode = {
    shuffle: "shuffle",
    winners: `draw of ${entry.k} winner(s)`,
    groups: `split into ${entry.k} groups`,
    deal: `deal of ${entry.k} card(s) to ${entry.hands} hand(s)`,
    teams: `${entry.k} balanced teams (${entry.options})`,
    raffle:
      `raffle of ${entry.k} winner(s)` +
      (entry.reserves && entry.reserves !== "0" ? ` and ${entry.reserves} reserve(s)` : ""),
    tickets:
      `ticket draw of ${entry.k} winner(s)` +
      (entry.reserves && entry.reserves !== "0" ? ` and ${entry.reserves} reserve(s)` : "") +
      ` by the IDs of ${entry.options.replace(/^ids /, "")} (section 18)`,
  }[entry.mode];
  const name = (row) => shortRow(row.map((v) => showValue(v).replace(/^"|"$/g, "")));
  const table =
    entry.mode === "groups" || entry.mode === "deal" || entry.mode === "teams"
      ? expected.map((row, i) => [`row ${i + 1}`, name(row)])
      : expected.map((row, i) => [
          entry.mode === "shuffle" ? `position ${i + 1}` : `winner ${i + 1}`,
          name(row),
        ]);
  return {
    message:
      `Verified: Draw log row of ${entry["time (UTC)"]}: ${mode} of ${where} with seed ${JSON.stringify(entry.seed)}` +
      (restored ? ` (restored ${entry["restored (UTC)"]})` : "") +
      `. Checked: ${checked.join("; ")}.`,
    table,
  };
}

/**
 * A locked raffle with its rounds, from the raffle's row or a round's: the raffle drawn again
 * from its seed and the list (held against the draw row's hashes when it was pasted), each
 * round re-applied by the rule and held against its row's hashes, and the result's cells
 * against the standing after the last round.
 */
async function verifyRaffleRounds(entry, log, rounds, found, box, out) {
  const sheet = await found.book.cells(entry.sheet);
  const rows = gridOf(sheet.cells, box);
  const where = boxName(entry.sheet, box);
  const draw =
    entry.mode === "raffle"
      ? entry
      : log
          .slice(0, log.indexOf(entry))
          .reverse()
          .find(
            (e) =>
              e.mode === "raffle" &&
              e.sheet === entry.sheet &&
              e.range === entry.range &&
              e.seed === entry.seed &&
              !e["restored (UTC)"],
          ) || null;
  const checked = [];
  if (draw) {
    if ((await valuesSha256(rows)) !== draw["input sha256"])
      fail(
        `the values in ${where} are not the ones the draw read: their SHA-256 is not the log's input sha256 (changed since the draw, or another workbook)`,
      );
    checked.push(`the input ${where} is what the draw of ${draw["time (UTC)"]} read`);
  }
  const expected = await lockedOutput({ ...entry, mode: "raffle" }, rows, box);
  if (draw) {
    if ((await valuesSha256(expected)) !== draw["output sha256"])
      fail(
        `the draw with seed ${JSON.stringify(entry.seed)} does not give what the log says it wrote (output sha256): the seed, counts or range in the log are not the draw's`,
      );
    checked.push("the draw row's output sha256 is what the seed draws, before any round");
  } else
    checked.push(
      "the raffle drawn again from the seed and the list (paste the draw's row with it to hold the list against its input sha256)",
    );
  const width = box.c2 - box.c1 + 1;
  const now = rounds.length ? rounds : [entry];
  const result = await afterRounds(now, expected, box, width);
  checked.push(result.checked);
  const at = entry.mode === "raffle" ? out : { ...out, c2: out.c2 - 1 };
  const last = now[now.length - 1];
  if (!entry["restored (UTC)"]) {
    compareResult(sheet.cells, at, result.grid, entry.sheet);
    checked.push(
      `${boxName(entry.sheet, { ...at, c2: at.c2 + 1 })} holds exactly the standing after round ${result.said.length} (the round of ${last["time (UTC)"]})`,
    );
  }
  const name = (row) =>
    shortRow(row.slice(0, width).map((v) => showValue(v).replace(/^"|"$/g, "")));
  return {
    message:
      `Verified: Draw log row of ${entry["time (UTC)"]}: ${entry.mode === "raffle" ? "raffle" : "round of the raffle"} of ${where} with seed ${JSON.stringify(entry.seed)}, ${entry.k} winner(s) and ${entry.reserves} reserve(s). ${result.said.join("; ")}.` +
      ` Checked: ${checked.join("; ")}.`,
    table: result.grid.map((row) => [
      `${row[width].slice(2)} ${row[width + 1].slice(2)}`,
      name(row) + (row[width + 2] ? ` (${row[width + 2].slice(2)})` : ""),
    ]),
  };
}
