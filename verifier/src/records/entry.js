/**
 * Section 17, step 5: an entrant's own row found among a commitment's entrant hashes, without
 * the list.
 */

import { canonicalJson, commitmentHash, entrantHashes } from "../protocol/commit.js";
import { parseList } from "../read/lists.js";
import { Verdict, cannot, fail } from "./verdict.js";
import { parseRecords } from "./verify.js";

/**
 * Is this row (an array of texts, or one line of comma-separated fields) among the committed
 * entrant hashes, with the salt the record reveals? {found, message}.
 */
export async function entryVerdict({ record, row }) {
  let result;
  try {
    const recs = parseRecords(record);
    const rec = recs[0] || {};
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
