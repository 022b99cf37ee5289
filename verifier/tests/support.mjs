/**
 * What the verifier's Node tests share: the repository's files, the protocol's vectors read
 * with their large integers intact, and small zip archives written here.
 */

import { readFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { deflateRawSync } from "node:zlib";

export const ROOT = new URL("../../", import.meta.url);

export function bytesOf(path) {
  return new Uint8Array(readFileSync(new URL(path, ROOT)));
}

export function textOf(path) {
  return readFileSync(new URL(path, ROOT), "utf-8");
}

export function sha256Hex(bytes) {
  return createHash("sha256").update(bytes).digest("hex");
}

/**
 * A JSON text read with every integer beyond 2**53 kept exactly, as its decimal text (a
 * BigInt takes either; the tests compare results as texts where they can be that large).
 */
export function parseExact(text) {
  const token = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
  return JSON.parse(
    text.replace(token, (t) =>
      /^-?\d+$/.test(t) && !Number.isSafeInteger(Number(t)) ? JSON.stringify(t) : t,
    ),
  );
}

/** tests/vectors/draw-v1.json, the known answers of draw protocol v1. */
export const VECTORS = parseExact(textOf("tests/vectors/draw-v1.json"));

/** A vector's seed as the page takes it: {type, value}, an integer's value as its text. */
export function seedOf(spec) {
  return { type: spec.type, value: spec.type === "int" ? String(spec.value) : spec.value };
}

/** The CRC-32 of zip entries (node:zlib has one only from Node 20.15). */
function crc32(bytes) {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/**
 * A zip archive of `entries` ([name, text or bytes, "stored" | "deflated"]); with `zip64`
 * its central directory and end records are the zip64 ones (sizes and offsets 0xffffffff,
 * the values in each entry's zip64 extra field), as a writer of large archives makes them.
 */
export function makeZip(entries, { zip64 = false } = {}) {
  const parts = [],
    central = [];
  let offset = 0;
  const u16 = (n) => Buffer.from([n & 0xff, (n >> 8) & 0xff]);
  const u32 = (n) => {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(n >>> 0);
    return b;
  };
  const u64 = (n) => {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(n));
    return b;
  };
  for (const [name, content, method = "deflated"] of entries) {
    const raw = Buffer.from(content);
    const data = method === "stored" ? raw : deflateRawSync(raw);
    const code = method === "stored" ? 0 : 8;
    const nameBytes = Buffer.from(name, "utf-8");
    // prettier-ignore
    const local = Buffer.concat([
      u32(0x04034b50), u16(20), u16(0x800), u16(code), u16(0), u16(0), u32(crc32(raw)),
      u32(data.length), u32(raw.length), u16(nameBytes.length), u16(0), nameBytes,
    ]);
    const extra = zip64
      ? Buffer.concat([u16(1), u16(24), u64(raw.length), u64(data.length), u64(offset)])
      : Buffer.alloc(0);
    const big = (n) => (zip64 ? 0xffffffff : n);
    // prettier-ignore
    central.push(
      Buffer.concat([
        u32(0x02014b50), u16(45), u16(45), u16(0x800), u16(code), u16(0), u16(0),
        u32(crc32(raw)), u32(big(data.length)), u32(big(raw.length)), u16(nameBytes.length),
        u16(extra.length), u16(0), u16(0), u16(0), u32(0), u32(big(offset)), nameBytes, extra,
      ]),
    );
    parts.push(local, data);
    offset += local.length + data.length;
  }
  const directory = Buffer.concat(central);
  const end = [];
  if (zip64) {
    const at = offset + directory.length;
    // prettier-ignore
    end.push(
      Buffer.concat([
        u32(0x06064b50), u64(44), u16(45), u16(45), u32(0), u32(0), u64(entries.length),
        u64(entries.length), u64(directory.length), u64(offset),
      ]),
      Buffer.concat([u32(0x07064b50), u32(0), u64(at), u32(1)]),
    );
  }
  const count = zip64 ? 0xffff : entries.length;
  // prettier-ignore
  end.push(
    Buffer.concat([
      u32(0x06054b50), u16(0), u16(0), u16(count), u16(count), u32(directory.length),
      u32(zip64 ? 0xffffffff : offset), u16(0),
    ]),
  );
  return new Uint8Array(Buffer.concat([...parts, directory, ...end]));
}
