/**
 * Bytes and their SHA-256, synchronously: Apps Script has neither WebCrypto nor
 * TextEncoder, and a custom function cannot wait for a promise. In the Apps Script file
 * this module takes the place of the verifier's protocol/bytes.js and exports the same
 * names. SHA-256 is Utilities.computeDigest in Apps Script; elsewhere (Node, a test) the
 * pure JavaScript below, written from FIPS 180-4.
 */

/** UTF-8 as TextEncoder writes it (a lone surrogate as U+FFFD). */
export const UTF8 = {
  encode(text) {
    const out = [];
    for (let i = 0; i < text.length; i++) {
      let c = text.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
        const d = text.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
          i++;
        }
      }
      if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
      if (c < 0x80) out.push(c);
      else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
      else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
      else
        out.push(
          0xf0 | (c >> 18),
          0x80 | ((c >> 12) & 63),
          0x80 | ((c >> 6) & 63),
          0x80 | (c & 63),
        );
    }
    return Uint8Array.from(out);
  },
};

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

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** SHA-256 in JavaScript (FIPS 180-4, section 6.2). */
export function sha256Js(bytes) {
  const n = bytes.length;
  const blocks = Math.ceil((n + 9) / 64);
  const msg = new Uint8Array(blocks * 64);
  msg.set(bytes);
  msg[n] = 0x80;
  const bits = new DataView(msg.buffer);
  bits.setUint32(msg.length - 8, Math.floor(n / 0x20000000));
  bits.setUint32(msg.length - 4, (n << 3) >>> 0);
  const h = new Uint32Array([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  ]);
  const w = new Uint32Array(64);
  const rotr = (x, r) => (x >>> r) | (x << (32 - r));
  for (let b = 0; b < blocks; b++) {
    for (let t = 0; t < 16; t++) w[t] = bits.getUint32(b * 64 + t * 4);
    for (let t = 16; t < 64; t++) {
      const s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >>> 3);
      const s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >>> 10);
      w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    let [a, c1, c2, c3, e, f, g, hh] = h;
    for (let t = 0; t < 64; t++) {
      const t1 = hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[t] + w[t];
      const t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & c1) ^ (a & c2) ^ (c1 & c2));
      hh = g;
      g = f;
      f = e;
      e = (c3 + t1) >>> 0;
      c3 = c2;
      c2 = c1;
      c1 = a;
      a = (t1 + t2) >>> 0;
    }
    const add = [a, c1, c2, c3, e, f, g, hh];
    for (let i = 0; i < 8; i++) h[i] = (h[i] + add[i]) >>> 0;
  }
  const out = new Uint8Array(32);
  const view = new DataView(out.buffer);
  h.forEach((x, i) => view.setUint32(i * 4, x));
  return out;
}

/** Apps Script's own SHA-256, when the script runs there: it takes and gives signed bytes. */
function sha256AppsScript(bytes) {
  const signed = Array.from(bytes, (b) => (b > 127 ? b - 256 : b));
  const digest = Utilities.computeDigest(Utilities.DigestAlgorithm.SHA_256, signed);
  return Uint8Array.from(digest, (b) => b & 255);
}

export function sha256(bytes) {
  return typeof Utilities === "undefined" ? sha256Js(bytes) : sha256AppsScript(bytes);
}

/** A list of values: nothing is in flight here (the verifier's waits for its promises). */
export function whenAll(list) {
  return list;
}

export function sha256All(list) {
  return list.map(sha256);
}

export function toHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export function u64be(n) {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt(n), false);
  return out;
}
