/**
 * A fresh seed, for a draw given none: 26 letters and digits (base32, 130 bits), as
 * xlshuffle writes one, from Apps Script's random UUIDs (Java's SecureRandom) or, outside
 * Apps Script, from the JavaScript engine's cryptographic generator.
 */

import { UTF8, sha256 } from "../protocol/bytes.js";

const ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";

export function freshSeed() {
  let bytes;
  if (typeof Utilities !== "undefined") {
    bytes = sha256(UTF8.encode(Utilities.getUuid() + Utilities.getUuid()));
  } else {
    bytes = globalThis.crypto.getRandomValues(new Uint8Array(32));
  }
  let bits = 0n;
  for (const b of bytes.slice(0, 17)) bits = (bits << 8n) | BigInt(b);
  let out = "";
  for (let i = 0; i < 26; i++) out += ALPHABET[Number((bits >> BigInt(5 * i)) & 31n)];
  return out;
}
