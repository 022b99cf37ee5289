/**
 * Sections 8-12 and 18 in a record (target.draw): tickets, reserves, prize tables, strata,
 * exclusions, audits and ticket draws, drawn again as the record's draw drew them.
 */

import { auditHits, cellHits, musSplit } from "../protocol/audits.js";
import { toHex } from "../protocol/bytes.js";
import { canonicalId, keptIndexes } from "../protocol/exclusions.js";
import { pyStrip, range } from "../protocol/python.js";
import { numberText, seedBytes } from "../protocol/seeds.js";
import { dealFrom } from "../protocol/shuffles.js";
import { largestRemainder, stratumStream } from "../protocol/strata.js";
import { Stream } from "../protocol/stream.js";
import { holder, scaleDecimals, weightedFrom } from "../protocol/tickets.js";
import { baseName } from "../read/files.js";
import { checkExclusion } from "./exclusion.js";
import { PRIZE_FIELDS, prizePlan, prizeSummary, prizeTable } from "./prizeplan.js";
import { TICKET_FIELD, TICKET_METHODS, checkTicketRules, ticketPart } from "./ticketplan.js";
import { cannot, fail } from "./verdict.js";

/**
 * Whole cents of a money text (sections 12 and 19: at most two decimal places, a sign
 * allowed). As xlshuffle reads amounts: "(5.00)" and a leading "-" are negative, one
 * currency symbol before or after the number is dropped, and ",", a space, a no-break
 * space or "'" may group the digits in threes before a "." decimal point; with a decimal
 * comma (the record's decimal: "comma"), "." groups them and "," comes before the decimals.
 */
function cents(text, where, comma = false) {
  let bare = pyStrip(String(text));
  let negative = false;
  if (bare.length > 1 && bare.startsWith("(") && bare.endsWith(")")) {
    negative = true;
    bare = pyStrip(bare.slice(1, -1));
  }
  if (bare.startsWith("+") || bare.startsWith("-")) {
    negative = negative || bare[0] === "-";
    bare = pyStrip(bare.slice(1));
  }
  bare = bare.replace(/^\p{Sc}\s*|\s*\p{Sc}$/u, "");
  const m = comma
    ? /^(\d{1,3}(?:[. '\u00a0\u202f]\d{3})+|\d+)(?:,(\d*))?$/.exec(bare)
    : /^(\d{1,3}(?:[, '\u00a0\u202f]\d{3})+|\d+)(?:\.(\d*))?$/.exec(bare);
  const fraction = m ? (m[2] || "").replace(/0+$/, "") : "";
  if (!m || fraction.length > 2)
    fail(`${where}: ${JSON.stringify(text)} is not an amount of money with at most two decimals`);
  const value = BigInt(m[1].replace(/[^\d]/g, "")) * 100n + BigInt(fraction.padEnd(2, "0"));
  return negative ? -value : value;
}

/**
 * The rows a sample with target.draw (tickets, reserves, strata, exclusions, audits) draws:
 * {drawn: data row indexes in output order, extra: per drawn row its added cells,
 * extraHeader, parts}. textOf(i, column) is the text of data row i in that column.
 */
export async function drawPlan(
  rec,
  n,
  textOf,
  exclusionFile = null,
  rowNo = (i) => i + 1,
  exactIds = false,
) {
  const d = rec.target.draw;
  const method = d.method;
  const ticketed = TICKET_METHODS.includes(method);
  const monetary = method === "monetary-unit" || method === "monetary-unit-cell";
  if (!["random", "weighted", "systematic"].includes(method) && !monetary && !ticketed)
    cannot(`the draw method ${JSON.stringify(method)} is unknown to this page`);
  const perId = d.one_entry_per_id === true,
    takeAll = d.all_of_small_strata === true;
  // section 9: a prize table's places, in draw order (null: no table)
  const places = d.prizes === undefined ? null : prizePlan(d);
  if (ticketed) checkTicketRules(d);
  if (perId && method !== "weighted" && method !== "ticket")
    fail(
      `the record draws one entry per ID by the method ${JSON.stringify(method)}: such a draw is by tickets (weighted), the record was edited`,
    );
  if (perId && !(d.id && Number.isInteger(d.id.index)))
    fail("the record draws one entry per ID but names no ID column: it was edited");
  const excludedRows = new Set(d.exclusion ? d.exclusion.rows : []);
  let exclusionChecked = false;
  if (d.exclusion && exclusionFile) {
    await checkExclusion(d.exclusion, exclusionFile, n, textOf, rowNo, d.id && d.id.column);
    exclusionChecked = true;
  }
  let kept = range(n).filter((i) => !excludedRows.has(i));
  // section 10, one entry per ID: the rows sharing a canonical ID are one entrant at its
  // first row (after the exclusions), holding the tickets of all its rows
  let members = null;
  if (!perId && d.id && Number.isInteger(d.id.index)) {
    // under --id an entrant is a row: xlshuffle refuses two rows with one ID (section 10)
    const seen = new Map();
    for (const i of range(n)) {
      const id = canonicalId(textOf(i, d.id.index) || "");
      if (id !== "" && seen.has(id))
        fail(
          `data rows ${rowNo(seen.get(id))} and ${rowNo(i)} share the ID ${JSON.stringify(id)}: xlshuffle draws such a list only with one entry per ID, which the record does not say`,
        );
      seen.set(id, i);
    }
  }
  if (perId) {
    members = new Map();
    const headOf = new Map();
    for (const i of kept) {
      const id = canonicalId(textOf(i, d.id.index) || "");
      if (id === "")
        fail(
          `data row ${rowNo(i)} has a blank ID: with one entry per ID every row needs the ID of the person whose entry it is`,
        );
      if (!headOf.has(id)) {
        headOf.set(id, i);
        members.set(i, []);
      }
      members.get(headOf.get(id)).push(i);
    }
    kept = [...members.keys()];
  }
  // strata: label bytes in order of first appearance (section 11)
  const strata = [];
  if (d.strata) {
    const byKey = new Map();
    const keyOf = (i) => {
      const label = textOf(i, d.strata.index);
      if (pyStrip(label || "") === "") fail(`data row ${rowNo(i)} has a blank stratum label`);
      return [label, toHex(seedBytes(label))];
    };
    for (const i of kept) {
      const [label, key] = keyOf(i);
      if (members) {
        const other = members.get(i).find((r) => keyOf(r)[1] !== key);
        if (other !== undefined)
          fail(
            `the ID ${JSON.stringify(textOf(i, d.id.index))} is in two strata (data rows ${rowNo(i)} and ${rowNo(other)}): with one entry per ID all the rows of an ID need one stratum, so this is not a draw xlshuffle makes`,
          );
      }
      if (!byKey.has(key)) {
        byKey.set(key, { label, rows: [] });
        strata.push(byKey.get(key));
      }
      byKey.get(key).rows.push(i);
    }
  } else {
    strata.push({ label: null, rows: kept });
  }
  let counts;
  if (d.allocation && d.allocation.total !== undefined) {
    counts = largestRemainder(
      strata.map((s) => s.rows.length),
      d.allocation.total,
    );
  } else if (d.allocation && d.allocation.counts) {
    const by = new Map(d.allocation.counts.map(([label, c]) => [toHex(seedBytes(label)), c]));
    counts = strata.map((s) => {
      const c = by.get(toHex(seedBytes(s.label)));
      if (c === undefined) fail(`the record gives no count for stratum ${JSON.stringify(s.label)}`);
      return c;
    });
  } else {
    counts = strata.map(() => d.k);
  }
  const reserves = d.reserves || 0;
  const drawn = [],
    extra = [],
    parts = [],
    strataOf = [],
    winners = [],
    orders = [];
  let extraHeader = [];
  if (reserves > 0) extraHeader = ["Role", "Rank"];
  if (places) extraHeader = PRIZE_FIELDS;
  const topped = monetary && d.top_stratum !== undefined && d.top_stratum !== null;
  if (monetary) extraHeader = topped ? ["Hits", "Top stratum"] : ["Hits"];
  if (ticketed) extraHeader = [...extraHeader, TICKET_FIELD]; // each drawn row's ticket (section 18)
  for (let s = 0; s < strata.length; s++) {
    const { label, rows } = strata[s];
    let q = counts[s];
    // a ticket draw uses no stream: its tickets are the seed's and the IDs' alone
    const stream = ticketed
      ? null
      : label === null
        ? await Stream.ofSeed(rec.seed)
        : await stratumStream(rec.seed, label);
    const where = label === null ? "" : ` in stratum ${JSON.stringify(label)}`;
    let got = [],
      hits = null,
      start = null,
      tickets = null,
      split = null,
      topRows = new Set();
    if (ticketed) {
      const part = await ticketPart(rec.seed, d, rows, q, {
        members,
        textOf,
        rowNo,
        where,
        takeAll,
      });
      got = part.got;
      tickets = part.tickets;
      if (d.rate !== undefined) q = part.won; // by a rate, the stratum's winners are its count
      orders.push({ label, won: part.won, order: part.order });
    } else if (method === "random") {
      // section 11, small strata taken whole: the count becomes what the stratum can give
      const count = takeAll ? Math.min(q + reserves, rows.length) : q + reserves;
      if (count > rows.length)
        fail(`the record draws ${count} rows${where}, which has ${rows.length}`);
      got = await dealFrom(stream, rows, count);
    } else if (method === "weighted") {
      let weights;
      if (members && !d.weights) {
        weights = rows.map((i) => BigInt(members.get(i).length)); // one ticket per row
      } else {
        if (!d.weights)
          fail("the record draws by tickets but names no tickets column: it was edited");
        // with one entry per ID, every row's tickets scaled together, then summed per entrant
        const every = members ? rows.flatMap((i) => members.get(i)) : rows;
        let each;
        try {
          each = scaleDecimals(every.map((i) => textOf(i, d.weights.index) || "0"));
        } catch (e) {
          fail(`the tickets column ${JSON.stringify(d.weights.column)}${where}: ${e.message}`);
        }
        if (members) {
          let at = 0;
          weights = rows.map((i) => members.get(i).reduce((sum) => sum + each[at++], 0n));
        } else weights = each;
      }
      const holders = weights.filter((w) => w > 0n).length;
      const count = takeAll ? Math.min(q + reserves, holders) : q + reserves;
      try {
        got = (await weightedFrom(stream, weights, count)).map((p) => rows[p]);
      } catch (e) {
        fail(e.message + where);
      }
    } else {
      let sizes, pool;
      if (method === "systematic") {
        sizes = rows.map(() => 1n);
        pool = rows;
      } else {
        // section 20: amounts of 0 or below set aside, a top stratum taken whole
        const comma = d.decimal === "comma";
        const all = rows.map((i) =>
          cents(textOf(i, d.amount.index) || "0", `data row ${rowNo(i)}`, comma),
        );
        split = musSplit(all, q, topped ? d.top_stratum : null);
        pool = split.sampled.map((p) => rows[p]);
        sizes = split.sampled.map((p) => all[p]);
      }
      const total = sizes.reduce((a, b) => a + b, 0n);
      // a systematic selection of a small stratum taken whole selects all its rows (section 11)
      const count = takeAll && method === "systematic" && q > rows.length ? rows.length : q;
      if (count > 0 && (total < 1n || BigInt(count) > total))
        fail(`cannot select ${count} of ${total} units${where}`);
      const audit =
        method === "monetary-unit-cell"
          ? await cellHits(stream, total, count)
          : await auditHits(stream, total, count);
      start = audit.start;
      hits = new Map();
      for (const u of audit.units) {
        const i = pool[holder(sizes, u)];
        hits.set(i, (hits.get(i) || 0) + 1);
      }
      if (split) for (const p of split.top) hits.set(rows[p], 0);
      got = [...hits.keys()].sort((x, y) => x - y); // input order
      if (split) {
        checkSplit(d.parts && d.parts[s], split, rows, where);
        topRows = new Set(split.top.map((p) => rows[p]));
      }
    }
    got.forEach((i, p) => {
      drawn.push(i);
      strataOf.push(label);
      let cells = [];
      if (monetary) {
        cells = [String(hits.get(i))];
        if (topped) cells.push(topRows.has(i) ? "yes" : "no");
      } else if (places) cells = [places[p][0], String(places[p][1]), places[p][2]];
      else if (reserves > 0)
        cells = p < q ? ["winner", String(p + 1)] : ["reserve", String(p - q + 1)];
      extra.push(tickets ? [...cells, tickets[p]] : cells);
    });
    parts.push({ label, size: rows.length, k: q, drawn: got.length, first: rows[0], start });
    if (d.id && Number.isInteger(d.id.index)) {
      const winning =
        method === "random" || method === "weighted" || ticketed
          ? got.slice(0, Math.min(q, got.length))
          : got;
      winners.push(...winning.map((i) => canonicalId(textOf(i, d.id.index) || "")));
    }
  }
  // the record's account of each stratum's draw (parts count entrants) and, in a list, the
  // winners' IDs: what the draw gives again, as xlshuffle verify holds the whole target.draw
  if (Array.isArray(d.parts)) {
    const say = (p) =>
      `${p.label === null || p.label === undefined ? "" : `stratum ${JSON.stringify(p.label)}: `}${p.size} entrant(s), ${p.k} asked, ${p.drawn} drawn`;
    if (d.parts.length !== parts.length)
      fail(
        `the record lists ${d.parts.length} strata, the draw gives ${parts.length}: it was edited`,
      );
    parts.forEach((p, s) => {
      const r = d.parts[s] || {};
      if (r.size !== p.size || r.k !== p.k || r.drawn !== p.drawn) {
        fail(
          `the record's draw of ${say({ label: r.stratum, size: r.size, k: r.k, drawn: r.drawn })} is not what the draw gives again (${say(p)}): it was edited`,
        );
      }
    });
  }
  if (exactIds && Array.isArray(d.winners)) {
    const w = d.winners.map(String);
    const at = range(Math.max(w.length, winners.length)).find((p) => w[p] !== winners[p]);
    if (at !== undefined)
      fail(
        `the record names the winners ${JSON.stringify(w)}, the draw gives ${JSON.stringify(winners)} (they differ at winner ${at + 1}): it was edited`,
      );
  }
  return {
    drawn,
    extra,
    extraHeader,
    parts,
    strataOf,
    excluded: excludedRows.size,
    exclusionChecked,
    perId,
    takeAll,
    exclusion: d.exclusion,
    orders, // a ticket draw's whole order per stratum: [{label, won, order: [{id, ticket, tickets}]}]
  };
}

/**
 * Section 20 in a record's part: the rows it sets aside and its top stratum, as the draw
 * gives them again (a record made before amounts of 0 were reported lists none).
 */
function checkSplit(part, split, rows, where) {
  if (!part) return;
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  const aside = split.setAside.map((p) => rows[p]);
  if (part.set_aside !== undefined && !same(part.set_aside, aside))
    fail(`the record sets aside other rows${where} than the draw does: it was edited`);
  const top = split.top.map((p) => rows[p]);
  if (part.top !== undefined && !same(part.top, top))
    fail(`the record's top stratum${where} is not what the draw gives: it was edited`);
}

/**
 * Sections 8-12 with the caller's rules over plain values, for the protocol's vectors: the
 * draw drawPlan replays for a record, of the rows whose `ids`, stratum `labels` and tickets
 * (`weights`) are given (texts or numbers, each read as a cell holding it; null: no such
 * column). `excluded`: IDs left out first (section 10); `perId`: one entry per ID; `takeAll`:
 * small strata taken whole; `method` "random" or "systematic" (by tickets when `weights` or
 * `perId`); `k` one count, or [[label, count], ...] per stratum. Per stratum, in order of first
 * appearance: {stratum: its first row's label (null: none), size: its entrants, k: the count
 * asked, winners, reserves: row indexes in draw order}, or for a systematic selection
 * {stratum, size, k, start (a decimal text, null if nothing is selected), items}.
 */
export async function drawRows(
  seed,
  k,
  {
    ids = null,
    labels = null,
    weights = null,
    excluded = null,
    reserves = 0,
    perId = false,
    takeAll = false,
    method = "random",
  } = {},
) {
  const columns = [ids, labels, weights];
  const n = Math.max(0, ...columns.map((c) => (c ? c.length : 0)));
  const cell = (v) =>
    v === null || v === undefined ? "" : typeof v === "string" ? v : numberText(v);
  const textOf = (i, c) => cell(columns[c][i]);
  const kept = new Set(ids && excluded ? keptIndexes(ids, excluded) : range(n));
  const draw = {
    method: method === "systematic" ? "systematic" : weights || perId ? "weighted" : "random",
    k: Array.isArray(k) ? null : k,
    reserves,
    one_entry_per_id: perId,
    all_of_small_strata: takeAll,
    id: ids ? { column: "ID", index: 0 } : null,
    strata: labels ? { column: "Stratum", index: 1 } : null,
    weights: weights ? { column: "Tickets", index: 2 } : null,
    allocation: Array.isArray(k) ? { counts: k } : null,
    exclusion: excluded ? { rows: range(n).filter((i) => !kept.has(i)) } : null,
  };
  const plan = await drawPlan({ seed, target: { draw } }, n, textOf);
  let at = 0;
  return plan.parts.map((p) => {
    const got = plan.drawn.slice(at, (at += p.drawn));
    const part = { stratum: labels ? labels[p.first] : null, size: p.size, k: p.k };
    if (draw.method === "systematic") {
      return { ...part, start: p.start === null ? null : p.start.toString(), items: got };
    }
    return { ...part, winners: got.slice(0, p.k), reserves: got.slice(p.k) };
  });
}

export function drawSummary(rec, plan) {
  const d = rec.target.draw;
  const how = {
    random: "at random",
    weighted: `by tickets (${d.weights ? d.weights.column : "one a row"})`,
    systematic: "by systematic selection",
    "monetary-unit": `by monetary units (${d.amount && d.amount.column})`,
    ticket: `by each ID's own tickets (section 18${d.weights ? `; ${d.weights.column} at scale ${d.weight_scale || 1}` : ""})${d.rate !== undefined ? `, every entrant below the rate ${d.rate},` : ""}`,
    rivest: "in Rivest's order (consistent_sampler; section 18)",
  }[d.method];
  const parts = plan.parts
    .map(
      (p) =>
        `${p.label === null ? "" : `stratum ${JSON.stringify(p.label)}: `}${p.drawn} of ${p.size}`,
    )
    .join(", ");
  const x = d.exclusion || {};
  // the record's own account of the list: how many IDs matched no entrant, its warning
  const said = [
    Number.isInteger(x.unmatched) ? `${x.unmatched} listed ID(s) matched no entrant` : "",
    typeof x.warning === "string" ? `the record warns: ${x.warning}` : "",
  ]
    .filter(Boolean)
    .join("; ");
  const excluded =
    !plan.excluded && !d.exclusion
      ? ""
      : (plan.exclusionChecked
          ? `; ${plan.excluded} row(s) left out, exactly those whose ID the exclusion list holds (its digest checked)`
          : `; ${plan.excluded} excluded row(s) left out as the record lists them (give the exclusion list too to check it)`) +
        (said ? ` (${said})` : "");
  const rules =
    (d.one_entry_per_id
      ? `; one entry per ID (${d.id.column}): the rows of an ID are one entrant at its first row, holding their tickets`
      : "") + (d.all_of_small_strata ? `; small strata taken whole` : "");
  const prizes = d.prizes ? `; prizes in drawing order: ${prizeSummary(prizeTable(d.prizes))}` : "";
  const each = d.reserves && !d.prizes ? `, ${d.reserves} reserve(s) each` : "";
  return `sample ${how} of ${baseName(rec.input)} with seed ${JSON.stringify(rec.seed)}: ${parts}${each}${prizes}${rules}${excluded}`;
}

export function planTable(plan, rowsOf) {
  const cell = (p, name) => {
    const j = plan.extraHeader.indexOf(name);
    return j < 0 ? null : plan.extra[p][j];
  };
  return plan.drawn.map((i, p) => {
    const stratum = plan.strataOf[p] === null ? "" : `${plan.strataOf[p]}: `;
    const first = plan.strataOf.indexOf(plan.strataOf[p]);
    const role =
      cell(p, "Prize") !== null
        ? `${cell(p, "Prize")}: ${cell(p, "Role")} ${cell(p, "Place")}`
        : cell(p, "Role") !== null
          ? `${cell(p, "Role")} ${cell(p, "Rank")}`
          : cell(p, "Hits") !== null
            ? `${cell(p, "Hits")} hit(s)`
            : `winner ${p - first + 1}`;
    const ticket = cell(p, TICKET_FIELD);
    const shown = ticket === null ? "" : ` (ticket ${ticket.slice(0, 18)}…)`;
    return [stratum + role, `data row ${i + 1}: ${rowsOf(i)}${shown}`];
  });
}
