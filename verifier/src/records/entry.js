/**
 * Section 17, step 5: an entrant's own row, or their ID alone, among a commitment's entrant
 * hashes, without the list; with the draw's record, whether the record names them a winner.
 */

import {
  canonicalJson,
  commitmentHash,
  entrantHashes,
  entrantIdHashes,
} from "../protocol/commit.js";
import { canonicalId } from "../protocol/exclusions.js";
import { prizePlaces } from "../protocol/prizes.js";
import { parseList } from "../read/lists.js";
import { committedBody } from "./committed.js";
import { prizeTable } from "./prizeplan.js";
import { Verdict, cannot, fail } from "./verdict.js";
import { parseRecords } from "./verify.js";

/** The committed --id column's name, as the commitment's request states it (null: none). */
function idColumn(body) {
  const req = (body.draw && body.draw.request) || {};
  const o = (typeof req.kind === "string" && req[req.kind]) || {};
  return (o.draw && o.draw.id) || null;
}

/**
 * What an entrant types to check their entry in the draw of this record or commitment text
 * (one sentence), or "" when it holds no entrant hashes.
 */
export function entryHint(text) {
  let c;
  try {
    c = committedBody(parseRecords(text)[0]);
  } catch {
    return "";
  }
  const entrants = c && c.body.entrants;
  if (!entrants) return "";
  const column = idColumn(c.body);
  if (Array.isArray(entrants.ids_salted_sha256))
    return `This draw's commitment holds entrant hashes by ID: type only your ID${column ? ` (its "${column}" column)` : ""} as the list holds it, under "Your ID", and press Check my ID.`;
  return 'This draw\'s commitment holds entrant hashes by row only: type your whole line of the entry list, field by field, under "Your line".';
}

/**
 * Is this ID among the committed entrant hashes by ID (section 17, step 5), with the salt the
 * record reveals (or `salt`, for a commitment alone)? With the draw's record, also whether
 * it names the ID a winner (and of which prize). {found, won, message}.
 */
async function idVerdict(value, id, salt) {
  const c = committedBody(value);
  if (!c) cannot("the text is neither a committed draw's record nor a commitment");
  const hashes = c.body.entrants && c.body.entrants.ids_salted_sha256;
  if (!Array.isArray(hashes))
    cannot(
      c.body.entrants
        ? "the commitment holds entrant hashes by row only (no ID column): type your whole line instead"
        : "the commitment holds no entrant hashes (commit --entrant-hashes with --id)",
    );
  const hash = await commitmentHash(c.body);
  if (c.sha256 !== null && hash !== c.sha256) fail(`the commitment does not hash to ${c.sha256}`);
  const key = c.salt || String(salt || "").trim();
  if (!key)
    fail(
      "the salt is revealed with the draw, in its record: paste the draw's record (or type the salt the organiser published)",
    );
  const mine = canonicalId(String(id ?? ""));
  if (!mine)
    fail(`type your ID${idColumn(c.body) ? ` (the "${idColumn(c.body)}" column)` : ""} first`);
  const [h] = await entrantIdHashes(key, [mine]);
  if (!hashes.includes(h))
    return {
      found: false,
      won: false,
      message: `NOT found: no entrant hash of the commitment ${hash} is that of the ID ${JSON.stringify(mine)} with ${c.salt ? "the revealed" : "this"} salt. Check it is exactly as the list holds it (capitals, dashes)${c.salt ? "" : ", and the salt"}.`,
    };
  let won = false,
    result = "";
  const d = c.record && c.record.target && c.record.target.draw;
  if (d && Array.isArray(d.winners)) {
    const at = d.winners.map((w) => canonicalId(String(w))).indexOf(mine);
    won = at >= 0;
    let prize = "";
    if (won && d.prizes) {
      const [name, place] = prizePlaces(prizeTable(d.prizes))[at] || [];
      if (name !== undefined) prize = `: ${name}, place ${place}`;
    }
    result = won
      ? ` The draw's record names you a winner${prize} (check the record with its files above to know it is the draw's result).`
      : " The draw's record does not name you among its winners.";
  }
  return {
    found: true,
    won,
    message: `Your ID ${JSON.stringify(mine)} is in the committed list (commitment ${hash}).${result}`,
  };
}

/**
 * Is this row (an array of texts, or one line of comma-separated fields) among the committed
 * entrant hashes, with the salt the record reveals? {found, message}. With `id` instead, is
 * the ID among the hashes by ID ({found, won, message}; `salt` for a commitment alone)?
 */
export async function entryVerdict({ record, row, id, salt }) {
  let result;
  try {
    const recs = parseRecords(record);
    const rec = recs[0] || {};
    if (id !== undefined && id !== null) return await idVerdict(rec, id, salt);
    const c = rec.commitment;
    if (!c || !c.body) cannot("the record is not of a committed draw (xlshuffle draw --reveal)");
    if (!c.body.entrants || !Array.isArray(c.body.entrants.salted_sha256))
      cannot("the commitment holds no entrant hashes (commit --entrant-hashes)");
    if (!c.salt) cannot("the record reveals no salt");
    if ((await commitmentHash(c.body)) !== c.sha256)
      fail(`the commitment in the record does not hash to ${c.sha256}`);
    let cells = row;
    if (!Array.isArray(cells)) {
      const parsed = parseList(String(row || "").replace(/[\r\n]+$/, ""), ",");
      cells = parsed.length === 1 ? parsed[0].cells : [];
    }
    if (!cells.length || cells.every((x) => x === "")) fail("type your row first");
    while (cells.length && cells[cells.length - 1] === "") cells = cells.slice(0, -1);
    const [mine] = await entrantHashes(c.salt, [cells.map(String)]);
    const found = c.body.entrants.salted_sha256.includes(mine);
    result = {
      found,
      message: found
        ? `Your entry ${canonicalJson(cells)} is in the committed list (commitment ${c.sha256}).`
        : `NOT found: no entrant hash of the commitment is that of ${canonicalJson(cells)}. Check each field is exactly as the organiser holds it (spaces, capitals).`,
    };
  } catch (e) {
    result = {
      found: false,
      message: e instanceof Verdict ? e.message : String(e && e.message ? e.message : e),
    };
  }
  return result;
}
