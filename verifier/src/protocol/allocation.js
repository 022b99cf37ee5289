/**
 * Section 15: permuted-block allocation lists and their concealment codes.
 */

import { UTF8, concatBytes, sha256, u64be } from "./bytes.js";
import { shuffleFrom } from "./shuffles.js";
import { PROTOCOL, Stream, seedKey, subKey } from "./stream.js";
import { gcd } from "./tickets.js";

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

async function concealmentCode(allocationKey, seq) {
  const digest = await sha256(
    concatBytes(
      UTF8.encode(PROTOCOL + "/allocation-code"),
      new Uint8Array([0]),
      allocationKey,
      u64be(seq),
    ),
  );
  const v = new DataView(digest.buffer).getBigUint64(0, false) >> 4n;
  let c = "";
  for (let i = 11; i >= 0; i--) c += CROCKFORD[Number((v >> BigInt(5 * i)) & 31n)];
  return c.slice(0, 4) + "-" + c.slice(4, 8) + "-" + c.slice(8);
}

/** Section 15: rows [seq, combination values, block, size, arm, code] of every combination. */
export async function allocationList(seed, arms, ratio, n, sizes, strataFactors = []) {
  const g = ratio.reduce((a, b) => gcd(a, b), 0);
  const r = ratio.map((x) => x / g);
  const R = r.reduce((a, b) => a + b, 0);
  for (const s of sizes) if (s % R) throw new Error(`block size ${s} is not a multiple of ${R}`);
  let combos = [[]];
  for (const [, values] of strataFactors)
    combos = combos.flatMap((c) => values.map((v) => c.concat([v])));
  const key = await seedKey(seed);
  const rows = [];
  for (const combo of combos) {
    const label = strataFactors.map(([name], i) => `${name}=${combo[i]}`).join("|");
    const akey = await subKey("allocation", key, UTF8.encode(label.normalize("NFC")));
    const stream = new Stream(akey);
    let seq = 0,
      block = 0;
    while (seq < n) {
      block += 1;
      const s = sizes[await stream.randbelow(sizes.length)];
      const items = arms.flatMap((arm, a) => Array((r[a] * s) / R).fill(arm));
      const order = await shuffleFrom(stream, items);
      for (const arm of order) {
        seq += 1;
        rows.push([seq, combo, block, s, arm, await concealmentCode(akey, seq)]);
      }
    }
  }
  return rows;
}
