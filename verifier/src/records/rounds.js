/**
 * Rounds (`xlshuffle redraw`): when a winner does not answer, their place goes to the first
 * reserve of their prize not yet called (the next reserve by rank, without a prize table), in
 * a new record that holds the SHA-256 of the record before it; when no reserve is left in a
 * committed draw, the place is drawn again from fresh public randomness over the entrants not
 * yet drawn (section 19). The chain is checked back to the draw, the draw drawn again, every
 * round by the rules (a fresh round by its commitment and revealed values), and the table a
 * round wrote.
 */

import { canonicalJson, commitSeed, commitmentHash } from "../protocol/commit.js";
import { canonicalId, exclusionDigest } from "../protocol/exclusions.js";
import { pyStrip, range } from "../protocol/python.js";
import { columnLetters } from "../read/a1.js";
import { baseName, decodeText, extensionOf } from "../read/files.js";
import { csvText, parseList } from "../read/lists.js";
import { bookDraw } from "./bookrounds.js";
import { drawPlan } from "./drawplan.js";
import { verifyList } from "./list.js";
import { loadFiles } from "./matching.js";
import { Verdict, fail } from "./verdict.js";

/** The role of a winner whose place went to a reserve. */
export const REPLACED = "replaced";

/**
 * Where every entrant a sample drew stands, in draw order: [{row, id, values, prize, place,
 * role, note}], from the draw drawn again (drawplan.js's plan: its drawn rows and added
 * fields). `idOf(row)` is the row's canonical ID, `valuesOf(row)` its fields.
 */
export function drawStanding(plan, idOf, valuesOf) {
  const at = (name) => plan.extraHeader.indexOf(name);
  const prize = at("Prize"),
    rank = at("Place") >= 0 ? at("Place") : at("Rank"),
    role = at("Role");
  return plan.drawn.map((row, n) => ({
    row,
    id: idOf(row),
    values: valuesOf(row),
    prize: prize >= 0 ? plan.extra[n][prize] : null,
    place: rank >= 0 ? Number(plan.extra[n][rank]) : n + 1,
    role: role >= 0 ? plan.extra[n][role] : "winner",
    note: "",
  }));
}

/**
 * One round by the rules: the winner `id`'s place goes to the first reserve of the same
 * prize not yet called. Returns {placed, change}, change as the round's record states it
 * ({replace: {id, prize, place}, reason, given_to: {id, prize, reserve}}); throws a sentence
 * when the rules give the place to no one.
 */
export function replaceWinner(placed, id, reason) {
  const wanted = canonicalId(String(id));
  const at = placed.findIndex((p) => p.id === wanted);
  if (at < 0) throw new Error(`no entrant drawn has the ID ${JSON.stringify(wanted)}`);
  const out = placed[at];
  if (out.role !== "winner")
    throw new Error(`${JSON.stringify(wanted)} is a ${out.role}, not a winner`);
  const why = pyStrip(String(reason ?? ""));
  if (!why) throw new Error("the round gives no reason");
  const step = placed.findIndex((p) => p.role === "reserve" && p.prize === out.prize);
  if (step < 0)
    throw new Error(
      `no reserve${out.prize === null ? "" : ` of ${JSON.stringify(out.prize)}`} is left to call`,
    );
  const reserve = placed[step];
  const now = placed.slice();
  now[at] = { ...out, role: REPLACED, note: why };
  now[step] = {
    ...reserve,
    role: "winner",
    place: out.place,
    note: `replaces ${out.id} (reserve ${reserve.place})`,
  };
  const change = {
    replace: { id: out.id, prize: out.prize, place: out.place },
    reason: why,
    given_to: { id: reserve.id, prize: reserve.prize, reserve: reserve.place },
  };
  return { placed: now, change };
}

/**
 * Section 19: a fresh round's record checked against its commitment and the standing before
 * it, and the entrant the pool draws. `ctx`: {draw: the draw's record, n: its data rows,
 * textOf(i, column), idOf(i), valuesOf(i)}. Returns {placed, change} as replaceWinner does;
 * throws a sentence at the first thing that does not hold.
 */
export async function freshRound(placed, r, ctx) {
  const { draw, n, textOf, idOf, valuesOf } = ctx;
  const d = draw.target.draw;
  const fresh = r.fresh || {};
  const held = fresh.commitment || {};
  const body = held.body;
  if (!body || typeof body !== "object" || body.round_version !== 1)
    throw new Error("its fresh round's commitment is damaged");
  const hash = await commitmentHash(body);
  if (hash !== held.sha256)
    throw new Error(
      `its commitment hashes to ${hash}, not the ${held.sha256} it states: it was edited after it was made`,
    );
  const seed = commitSeed(hash, fresh.reveal || []);
  if (seed !== fresh.seed)
    throw new Error(`its seed is not the one its commitment and revealed values give (${seed})`);
  if (!draw.commitment || body.draw !== draw.commitment.sha256)
    throw new Error("its commitment is not to a round of this committed draw");
  if (d.strata) throw new Error("a draw with strata has no fresh rounds");
  const wanted = canonicalId(String((r.replace || {}).id));
  const out = placed.find((p) => p.id === wanted);
  if (!out || out.role !== "winner")
    throw new Error(`${JSON.stringify(wanted)} is not a winner of the standing before it`);
  if (placed.some((p) => p.role === "reserve" && p.prize === out.prize))
    throw new Error("a reserve of the prize was still to be called: the place was the reserve's");
  const why = pyStrip(String(r.reason ?? ""));
  const drawn = new Set(placed.map((p) => p.id));
  const excluded = new Set(d.exclusion ? d.exclusion.rows : []);
  const pool = range(n).filter((i) => !excluded.has(i) && idOf(i) !== "" && !drawn.has(idOf(i)));
  const ids = pool.map(idOf);
  const stated = {
    previous: r.previous,
    replace: { id: out.id, prize: out.prize, place: out.place },
    reason: why,
    pool: { entrants: new Set(ids).size, sha256: await exclusionDigest(ids) },
  };
  for (const [key, want] of Object.entries(stated))
    if (canonicalJson(body[key]) !== canonicalJson(want))
      throw new Error(
        `its commitment states ${key} ${canonicalJson(body[key])}, the chain gives ${canonicalJson(want)}`,
      );
  const inPool = new Set(pool);
  const one = {
    ...d,
    k: 1,
    reserves: 0,
    prizes: undefined,
    rate: undefined,
    allocation: null,
    parts: undefined,
    winners: undefined,
    exclusion: { rows: range(n).filter((i) => !inPool.has(i)) },
  };
  const plan = await drawPlan({ seed, input: draw.input, target: { draw: one } }, n, textOf);
  const row = plan.drawn[0];
  const now = placed.map((p) => (p === out ? { ...out, role: REPLACED, note: why } : p));
  now.push({
    row,
    id: idOf(row),
    values: valuesOf(row),
    prize: out.prize,
    place: out.place,
    role: "winner",
    note: `replaces ${out.id} (fresh draw)`,
  });
  const change = {
    replace: stated.replace,
    reason: why,
    given_to: { id: idOf(row), prize: out.prize, pool: stated.pool.entrants },
  };
  return { placed: now, change };
}

/**
 * The table a round writes: the list's labels, then each drawn entrant's fields and its
 * Prize (with a prize table), Place, Role and Note.
 */
export function standingTable(labels, placed, prizes) {
  const head = [...labels, ...(prizes ? ["Prize"] : []), "Place", "Role", "Note"];
  return [head].concat(
    placed.map((p) => [...p.values, ...(prizes ? [p.prize] : []), String(p.place), p.role, p.note]),
  );
}

function parsedRecord(file) {
  try {
    const value = JSON.parse(decodeText(file.bytes));
    return value && typeof value === "object" && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

/**
 * The chain of records from a round back to its draw: [draw, round 1, ..., rec], each found
 * among the files by the SHA-256 its successor names.
 */
function chainOf(rec, loaded) {
  const chain = [rec];
  let at = rec;
  while (at.command === "redraw") {
    const link = at.previous || {};
    const file = loaded.find((f) => !f.used && f.sha === link.sha256);
    if (!file) {
      const named = loaded.find((f) => f.name === baseName(link.file));
      fail(
        named
          ? `${named.name} is not the record this round follows: its SHA-256 is ${named.sha}, the round names ${link.sha256}`
          : `give the record this round follows, ${baseName(link.file)} (SHA-256 ${link.sha256}): a round is checked from the draw on`,
      );
    }
    file.used = true;
    at = parsedRecord(file);
    if (!at) fail(`${file.name}, the record before a round, is not a JSON record`);
    chain.unshift(at);
  }
  return chain;
}

/** A round's record (command "redraw"), with its chain, the list and the round's table. */
export async function verifyRound(rec, files) {
  const loaded = await loadFiles(files);
  const chain = chainOf(rec, loaded);
  const [draw, ...rounds] = chain;
  if (draw.command !== "sample" || !draw.target || !draw.target.draw)
    fail(
      "the chain of rounds does not start at a sample drawn with --id and reserves or a prize table",
    );
  const d = draw.target.draw;
  if (!d.id || !Number.isInteger(d.id.index))
    fail("the draw the rounds follow names no ID column: a round names its entrants by ID");
  rounds.forEach((r, n) => {
    for (const key of ["seed", "input_sha256", "header"])
      if (r[key] !== draw[key])
        fail(
          `round ${n + 1}'s ${key} is ${JSON.stringify(r[key])}, the draw's ${JSON.stringify(draw[key])}: not a round of this draw`,
        );
  });
  // the rounds' tables, by SHA-256 then name; the draw is checked with the other files
  const tables = rounds.map((r) => {
    const file =
      loaded.find((f) => !f.used && r.output_sha256 && f.sha === r.output_sha256) ||
      loaded.find((f) => !f.used && r.output && f.name === baseName(r.output)) ||
      null;
    if (file) file.used = true;
    return file;
  });
  const last = rounds.length - 1;
  if (!tables[last]) {
    // a table renamed since: the one file that is neither the list nor the draw's output
    const free = loaded.filter(
      (f) =>
        !f.used &&
        f.sha !== draw.input_sha256 &&
        f.sha !== draw.output_sha256 &&
        f.name !== baseName(draw.output),
    );
    if (free.length === 1) [tables[last]] = free;
    if (tables[last]) tables[last].used = true;
  }
  const rest = loaded.filter((f) => !f.used);
  const source =
    draw.target.kind === "list" ? await listDraw(draw, rest) : await bookDraw(draw, rest);
  const { checked, labels, entrants, idOf, valuesOf } = source;
  // a fresh round draws among the entrants (data rows not kept in place), numbered 0..m-1
  const among = {
    draw: amongEntrants(draw, entrants),
    n: entrants.length,
    textOf: (i, j) => source.textOf(entrants[i], j),
    idOf: (i) => idOf(entrants[i]),
    valuesOf: (i) => valuesOf(entrants[i]),
  };
  let placed = drawStanding(checked.plan, idOf, valuesOf);
  const prizes = checked.plan.extraHeader.includes("Prize");
  const said = [];
  for (const [n, r] of rounds.entries()) {
    const name = `round ${n + 1}${r.output ? ` (${baseName(r.output)})` : ""}`;
    let step;
    try {
      step = r.fresh
        ? await freshRound(placed, r, among)
        : replaceWinner(placed, r.replace && r.replace.id, r.reason);
    } catch (e) {
      if (e instanceof Verdict) throw e;
      fail(`${name} cannot be made by the rules: ${e.message}`);
    }
    const stated = { replace: r.replace, reason: r.reason, given_to: r.given_to };
    if (canonicalJson(step.change) !== canonicalJson(stated))
      fail(
        `${name} says ${JSON.stringify(r.given_to && r.given_to.id)} takes the place of ${JSON.stringify(r.replace && r.replace.id)}; the rules give it to ${JSON.stringify(step.change.given_to.id)} (${step.change.given_to.prize === null ? "" : `${step.change.given_to.prize}, `}${r.fresh ? `drawn afresh from ${step.change.given_to.pool}` : `reserve ${step.change.given_to.reserve}`})`,
      );
    placed = step.placed;
    const file = tables[n];
    if (r.fresh) {
      // the entrant drawn afresh, numbered among the entrants: its data row
      const last = placed.length - 1;
      placed[last] = { ...placed[last], row: entrants[placed[last].row] };
    }
    if (file) await source.checkTable(file, standingTable(labels, placed, prizes), r);
    else if (n === rounds.length - 1 && (r.output || r.output_sha256))
      fail(`give the table this round wrote (${baseName(r.output)}) to check it`);
    said.push(
      `${name}: ${step.change.replace.id}'s place went to ${step.change.given_to.id} (${JSON.stringify(r.reason)})${r.fresh ? `, drawn afresh from ${step.change.given_to.pool} entrants with the round's commitment ${r.fresh.commitment.sha256} and the revealed value(s) ${r.fresh.reveal.join(" / ")}` : ""}`,
    );
  }
  const table = placed.map((p) => [
    `${p.prize === null ? "" : `${p.prize}: `}${p.role} ${p.place}`,
    `data row ${p.row + 1}: ${p.values.slice(0, 4).join(" · ")}${p.note ? ` (${p.note})` : ""}`,
  ]);
  const given = tables.filter(Boolean).length;
  return {
    message:
      `Verified: the draw and its ${rounds.length} round(s). ${said.join("; ")}. ` +
      `Checked: each record is the one the next names (by SHA-256); each round gave the place to the first reserve of its prize not yet called, or, with no reserve left, to the entrant its commitment and revealed values draw from the entrants not yet drawn (section 19); ` +
      `${given} round table(s) given, each holding exactly the standing after its round.\n` +
      `The draw: ${checked.message.replace(/^Verified: /, "")}`,
    table,
  };
}

/** A list's draw, checked from its files (`rest`), as the rounds read it (bookrounds.js's bookDraw for a list). */
async function listDraw(draw, rest) {
  const d = draw.target.draw;
  const checked = await verifyList(draw, rest, { outputOptional: true });
  const list = rest.find((f) => f.sha === draw.input_sha256);
  if (!list) fail(`give the list the draw read (${baseName(draw.input)})`);
  const records = parseList(
    decodeText(list.bytes).replace(/^\ufeff/, ""),
    draw.target.delimiter || ",",
  );
  const head = draw.header ? 1 : 0;
  const width = Math.max(0, ...records.map((r) => r.cells.length));
  const labels = head
    ? records[0].cells.slice(0, width)
    : Array.from({ length: width }, (_, j) => columnLetters(j + 1));
  const data = records.slice(head);
  return {
    checked,
    labels,
    entrants: range(data.length),
    idOf: (i) => canonicalId(data[i].cells[d.id.index] ?? ""),
    valuesOf: (i) => Array.from({ length: width }, (_, j) => data[i].cells[j] ?? ""),
    textOf: (i, j) => data[i].cells[j] ?? "",
    checkTable: async (file, rows) => {
      const delimiter = ["tsv", "tab"].includes(extensionOf(file.name)) ? "\t" : ",";
      compareTable(file, csvText(rows, delimiter));
    },
  };
}

/** The draw with its excluded data rows numbered among the entrants (a fresh round's pool). */
function amongEntrants(draw, entrants) {
  const d = draw.target.draw;
  if (!d.exclusion || !Array.isArray(d.exclusion.rows)) return draw;
  const where = new Map(entrants.map((row, i) => [row, i]));
  const rows = d.exclusion.rows.filter((r) => where.has(r)).map((r) => where.get(r));
  return {
    ...draw,
    target: { ...draw.target, draw: { ...d, exclusion: { ...d.exclusion, rows } } },
  };
}

/** A round's table against the CSV text the rules give, naming the first line that differs. */
function compareTable(file, want) {
  const got = decodeText(file.bytes);
  if (got === want) return;
  const a = got.split("\n"),
    b = want.split("\n");
  const at = a.findIndex((line, i) => line !== b[i]);
  const line = at < 0 ? b.length : at + 1;
  fail(
    `the round's table ${file.name} differs at line ${line}: it holds ${JSON.stringify(a[line - 1] ?? "nothing")}, the rules give ${JSON.stringify(b[line - 1] ?? "nothing")}`,
  );
}
