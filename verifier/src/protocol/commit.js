/**
 * Section 17, commit then draw: canonical JSON, the commitment hash, the list digest,
 * the seed from the revealed values, and the entrant hashes (by row and by ID).
 */

import { UTF8, sha256, toHex } from "./bytes.js";
import { canonicalId } from "./exclusions.js";
import { PY_SPACE, compareCodePoints } from "./python.js";

/** Canonical JSON: keys sorted by code point, no white space, minimal escapes, whole numbers. */
export function canonicalJson(value) {
  if (value === null) return "null";
  if (value === true || value === false) return String(value);
  if (typeof value === "number" || typeof value === "bigint") {
    if (typeof value === "number" && !Number.isInteger(value))
      throw new Error("canonical JSON holds whole numbers only");
    return BigInt(value).toString();
  }
  if (typeof value === "string") {
    let out = '"';
    for (const ch of value) {
      const code = ch.codePointAt(0);
      if (ch === '"') out += '\\"';
      else if (ch === "\\") out += "\\\\";
      else if (code < 0x20) {
        const named = { 10: "\\n", 13: "\\r", 9: "\\t", 8: "\\b", 12: "\\f" }[code];
        out += named || "\\u00" + code.toString(16).padStart(2, "0");
      } else out += ch;
    }
    return out + '"';
  }
  if (Array.isArray(value)) return "[" + value.map(canonicalJson).join(",") + "]";
  const keys = Object.keys(value).sort(compareCodePoints);
  return "{" + keys.map((k) => canonicalJson(k) + ":" + canonicalJson(value[k])).join(",") + "}";
}

export async function commitmentHash(body) {
  return toHex(await sha256(UTF8.encode(canonicalJson(body))));
}

/** Step 1: the list digest of rows of texts. */
export async function listDigest(rows) {
  return toHex(await sha256(UTF8.encode(rows.map((row) => canonicalJson(row) + "\n").join(""))));
}

/** Step 3: a revealed value in canonical form (NFC, white-space runs one space, trimmed). */
const PY_SPACES = new RegExp(PY_SPACE + "+", "g");

export function revealedValue(value) {
  const text = String(value).normalize("NFC").replace(PY_SPACES, " ").replace(/^ | $/g, "");
  if (text === "") throw new Error("a revealed value is empty");
  if (text.includes("/")) throw new Error("a revealed value may not hold /");
  return text;
}

/** Step 4: the seed of a committed draw. */
export function commitSeed(hash, values) {
  return "xlshuffle-commit:" + hash + "/" + values.map((v) => revealedValue(v) + "/").join("");
}

/** Step 5: the sorted salted hashes of the data rows. */
export async function entrantHashes(salt, rows) {
  const out = [];
  for (const row of rows)
    out.push(toHex(await sha256(UTF8.encode(salt + "\n" + canonicalJson(row)))));
  return out.sort();
}

/**
 * Step 5, by ID: the sorted salted hashes of the distinct non-blank canonical IDs (section
 * 10) among `ids`, so that an entrant checks their entry knowing only their ID.
 */
export async function entrantIdHashes(salt, ids) {
  const out = [];
  for (const id of new Set(ids.map(canonicalId))) {
    if (id !== "") out.push(toHex(await sha256(UTF8.encode(salt + "\n" + id))));
  }
  return out.sort();
}
