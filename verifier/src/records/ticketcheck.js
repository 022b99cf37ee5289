/**
 * Section 18 for an entrant: their own ticket from the seed and their ID alone, and, with the
 * draw's record and files (or an `xlshuffle tickets` listing), their place in the draw order
 * and whether they were drawn, without typing their row.
 */

import { canonicalId } from "../protocol/exclusions.js";
import { rateThreshold, rivestTicket, ticketId, ticketsOf } from "../protocol/ticketdraws.js";
import { decodeText, readFile } from "../read/files.js";
import { parseList } from "../read/lists.js";
import { isZip } from "../read/zip.js";
import { TICKET_FIELD, TICKET_METHODS } from "./ticketplan.js";
import { Verdict, cannot, fail } from "./verdict.js";
import { parseRecords, verifyRecord } from "./verify.js";

/** An entrant's ticket: the smallest of its `count` tickets (one unless weighted), or Rivest's. */
async function ticketOf(seed, id, method, count = 1n) {
  if (method === "rivest") return rivestTicket(seed, id);
  const [mine] = await ticketsOf([id], seed, { weights: [count] });
  return mine ? mine.ticket : null;
}

/**
 * An `xlshuffle tickets` listing, or null: a header Place, the ID column's name, [Stratum],
 * [Tickets], Draw ticket, then a row per entrant in draw order.
 */
function listingOf(file) {
  if (isZip(file.bytes)) return null;
  const delimiter = /\.(tsv|tab)$/i.test(file.name) ? "\t" : ",";
  const text = decodeText(file.bytes).replace(/^\ufeff/, "");
  // the header alone first: a list the draw read or wrote is no listing, and may be long
  const [first] = parseList(text.split(/\r?\n/, 1)[0], delimiter);
  const head = first ? first.cells : [];
  if (head.length < 3 || head[0] !== "Place" || head[head.length - 1] !== TICKET_FIELD) return null;
  const rows = parseList(text, delimiter).map((r) => r.cells);
  const at = (name) => head.indexOf(name, 2);
  return rows.slice(1).map((cells) => ({
    place: cells[0],
    id: cells[1],
    stratum: at("Stratum") < 0 ? null : cells[at("Stratum")],
    tickets: at("Tickets") < 0 ? null : cells[at("Tickets")],
    ticket: cells[head.length - 1],
  }));
}

function where(stratum) {
  return stratum === null || stratum === undefined ? "" : ` in stratum ${JSON.stringify(stratum)}`;
}

/** The entrant's place in a record's draw drawn again (plan.orders), or null. */
function placeIn(plan, id) {
  for (const [s, part] of (plan.orders || []).entries()) {
    const p = part.order.findIndex((t) => t.id === id);
    if (p < 0) continue;
    const { won } = part,
      drawn = plan.parts[s].drawn;
    const role =
      p < won
        ? `drawn: winner ${p + 1}`
        : p < drawn
          ? `drawn: reserve ${p - won + 1}`
          : `not drawn (${drawn} drawn${where(part.label)})`;
    return { ...part.order[p], place: p + 1, of: part.order.length, stratum: part.label, role };
  }
  return null;
}

/**
 * Find an entrant's ticket by ID and seed ({record, files, seed, id}; the seed is the record's
 * when not typed): {found, ticket, place, role, message}.
 */
export async function ticketVerdict({ record = "", files = [], seed = "", id = "" }) {
  try {
    if (canonicalId(id || "") === "") fail("type your ID first");
    const mineId = ticketId(id);
    const rec = String(record || "").trim() ? parseRecords(record)[0] : null;
    const d = rec && rec.target ? rec.target.draw : null;
    if (rec && !(rec.command === "sample" && d && TICKET_METHODS.includes(d.method)))
      cannot(
        "the record above is not of a ticket draw (sample --method ticket or rivest): its winners hold no tickets of their own",
      );
    const typed = String(seed || "");
    if (rec && typed && typed !== rec.seed)
      fail(
        `the seed you typed, ${JSON.stringify(typed)}, is not the record's, ${JSON.stringify(rec.seed)}: leave the seed empty to take the record's`,
      );
    const theSeed = typed || (rec ? rec.seed : "");
    if (!theSeed) fail("type the draw's seed, or paste its record above");
    const loaded = await Promise.all(Array.from(files, readFile));
    const listings = loaded.map(listingOf);
    const listing = listings.find((l) => l !== null) || null;
    const drawFiles = loaded.filter((f, i) => listings[i] === null);
    let method = d ? d.method : "ticket";
    if (!d && listing && listing.length && listing[0].ticket.startsWith("0.")) method = "rivest";
    const said = `(ID ${JSON.stringify(mineId)}, seed ${JSON.stringify(theSeed)}${method === "rivest" ? ", Rivest's order" : ""})`;

    if (rec && drawFiles.length) {
      // the record's draw drawn again from its files: the whole order, every ticket in it
      const result = await verifyRecord({ record: [rec], files: drawFiles });
      const plain = await ticketOf(theSeed, mineId, method);
      if (!result.verified)
        return {
          found: false,
          ticket: plain,
          message: `${result.message}\nYour place is not shown, as the draw is not verified with these files. Your ticket from the seed and your ID alone ${said}: ${plain}.`,
        };
      const mine = placeIn(result.plans[0], mineId);
      if (!mine)
        return {
          found: false,
          ticket: plain,
          message: `Your ID is not among the entrants of this draw (not in the list, excluded, or holding no ticket). Your ticket ${said} would be ${plain}.`,
        };
      const held = mine.tickets > 1n ? `, the smallest of your ${mine.tickets} tickets` : "";
      return {
        found: true,
        ticket: mine.ticket,
        place: mine.place,
        role: mine.role,
        message: `Your ticket ${said}: ${mine.ticket}${held}.\nYour place: ${mine.place} of ${mine.of}${where(mine.stratum)}, ${mine.role}. The draw is verified against its files.`,
      };
    }

    if (listing) {
      const row = listing.find((r) => canonicalId(r.id || "") === mineId);
      if (!row) fail(`your ID ${JSON.stringify(mineId)} is not in the ticket listing`);
      const count = row.tickets === null ? 1n : BigInt(row.tickets);
      const mine = await ticketOf(theSeed, mineId, method, count);
      if (mine !== row.ticket)
        fail(
          `NOT matching: the listing gives your ticket as ${row.ticket}, the seed and your ID give ${mine}: the listing is not of this seed and ID, or was edited`,
        );
      const of = listing.filter((r) => r.stratum === row.stratum).length;
      const won = d && Array.isArray(d.winners) ? d.winners.map(String).indexOf(mineId) : -1;
      const drawnSaid = !d
        ? ""
        : won >= 0
          ? ` The record names you among the winners.`
          : " The record's winners do not include you (its reserves are not listed there).";
      return {
        found: true,
        ticket: mine,
        place: Number(row.place),
        message: `Your ticket ${said}: ${mine}, as the listing gives it.\nYour place in the listing: ${row.place} of ${of}${where(row.stratum)}.${drawnSaid}`,
      };
    }

    const mine = await ticketOf(theSeed, mineId, method);
    const notes = [];
    const weighted = d && (d.weights || d.one_entry_per_id);
    if (weighted)
      notes.push(
        "In this draw you may hold several tickets, numbered from 0, and your ticket is the smallest of them: choose the draw's list above to see it and your place.",
      );
    else if (d && d.rate !== undefined) {
      // by a rate, an entrant's ticket alone decides: drawn when below the rate's bound
      const bound = rateThreshold(d.rate);
      const below = bound === null || mine < bound;
      notes.push(
        `At the rate ${d.rate} the draw takes every ticket below ${bound || "2**256"}: yours is ${below ? "below it, you are drawn" : "not, you are not drawn"}${d.reserves ? " as a winner" : ""} (if your ID is among the draw's entrants; choose its files above to check the draw and see your place).`,
      );
    } else if (d && Array.isArray(d.winners)) {
      const at = d.winners.map(String).indexOf(mineId);
      notes.push(
        at >= 0
          ? "The record names you among the winners; choose its files above to check the draw and see your place."
          : "The record's winners do not include you; choose its files above to check the draw and see your place.",
      );
    } else
      notes.push("Choose the draw's record and files, or its ticket listing, to see your place.");
    return {
      found: true,
      ticket: mine,
      message: `Your ticket${weighted ? " number 0" : ""} ${said}: ${mine}.\n${notes.join(" ")}`,
    };
  } catch (e) {
    return {
      found: false,
      message: e instanceof Verdict ? e.message : String(e && e.message ? e.message : e),
    };
  }
}
