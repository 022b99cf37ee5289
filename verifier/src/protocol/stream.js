/**
 * Sections 2-4: the key of a seed, derived keys, and the stream of 64-bit words with
 * its exact rejection (randbelow).
 */

import { TWO64, UTF8, concatBytes, sha256, sha256All, u64be } from "./bytes.js";
import { seedBytes } from "./seeds.js";

export const PROTOCOL = "xlshuffle/draw/v1";

/** Section 2: key = SHA-256("xlshuffle/draw/v1" 00 seed_bytes). */
export async function seedKey(seed) {
  return sha256(concatBytes(UTF8.encode(PROTOCOL), new Uint8Array([0]), seedBytes(seed)));
}

/** A derived key: SHA-256(PROTOCOL + "/" + what, 00, key, 00, labelBytes) (sections 11, 13, 15). */
export async function subKey(what, key, labelBytes) {
  return sha256(
    concatBytes(
      UTF8.encode(PROTOCOL + "/" + what),
      new Uint8Array([0]),
      key,
      new Uint8Array([0]),
      labelBytes,
    ),
  );
}

/**
 * Section 3: the words of SHA-256(key + b as 8 bytes big-endian), b = 0, 1, ... Blocks are
 * hashed in growing batches (sha256All): WebCrypto's digest is asynchronous.
 */
export class Stream {
  constructor(key) {
    this.key = key;
    this.block = 0;
    this.words = [];
    this.at = 0;
    this.batch = 4;
  }

  static async ofSeed(seed) {
    return new Stream(await seedKey(seed));
  }

  async refill() {
    const blocks = [];
    for (let i = 0; i < this.batch; i++) {
      blocks.push(concatBytes(this.key, u64be(this.block + i)));
    }
    this.block += this.batch;
    this.batch = Math.min(this.batch * 2, 2048);
    const words = [];
    for (const digest of await sha256All(blocks)) {
      const view = new DataView(digest.buffer, digest.byteOffset, 32);
      for (let k = 0; k < 32; k += 8) words.push(view.getBigUint64(k, false));
    }
    this.words = words;
    this.at = 0;
  }

  /** The next 64-bit word, a BigInt. */
  async next() {
    if (this.at >= this.words.length) await this.refill();
    return this.words[this.at++];
  }

  /** Section 4: exact rejection. m a Number or BigInt >= 1; the result has m's type. */
  async randbelow(m) {
    const big = BigInt(m);
    if (big < 1n) throw new Error("randbelow needs m >= 1");
    const limit = TWO64 - (TWO64 % big);
    let w = await this.next();
    while (w >= limit) w = await this.next();
    return typeof m === "bigint" ? w % big : Number(w % big);
  }
}
