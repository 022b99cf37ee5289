/**
 * Sections 9-10: canonical IDs, the exclusion digest, and the rows kept when the
 * excluded IDs leave.
 */

import { UTF8, sha256, toHex } from "./bytes.js";
import { compareCodePoints, pyStrip } from "./python.js";
import { numberText, seedBytes } from "./seeds.js";

export function canonicalId(v) {
  if (v === null || v === undefined) return "";
  if (typeof v === "string") return pyStrip(v.normalize("NFC"));
  if (typeof v === "number" || typeof v === "bigint") return numberText(v);
  if (typeof v === "object" && "type" in v) return new TextDecoder().decode(seedBytes(v));
  throw new Error("not an ID: " + v);
}

/** Section 10: the exclusion digest (hex) of excluded IDs. */
export async function exclusionDigest(excluded) {
  const texts = [...new Set(excluded.map(canonicalId))]
    .filter((t) => t !== "")
    .sort(compareCodePoints);
  return toHex(await sha256(UTF8.encode(texts.join("\n"))));
}

/** Section 10: the indexes kept when the excluded IDs leave. */
export function keptIndexes(ids, excluded) {
  const out = new Set(excluded.map(canonicalId).filter((t) => t !== ""));
  return ids
    .map((id, i) => [canonicalId(id), i])
    .filter(([c]) => !(c !== "" && out.has(c)))
    .map(([, i]) => i);
}
