/**
 * Bytes and their SHA-256, as the protocol hashes them.
 */

export const UTF8 = new TextEncoder();

export const TWO64 = 1n << 64n;

export function concatBytes(...parts) {
  let size = 0;
  for (const p of parts) size += p.length;
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export async function sha256(bytes) {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
}

/**
 * The values of a list of hashes in flight (promises here; already values in the
 * synchronous build of the Apps Script file, whose bytes.js returns the list itself).
 */
export function whenAll(list) {
  return Promise.all(list);
}

/** The SHA-256 of each of a list of byte strings, hashed side by side. */
export async function sha256All(list) {
  const digests = await Promise.all(list.map((b) => crypto.subtle.digest("SHA-256", b)));
  return digests.map((d) => new Uint8Array(d));
}

export function toHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export function u64be(n) {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt(n), false);
  return out;
}
