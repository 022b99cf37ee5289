/**
 * Zip packages (.xlsx): the central directory (zip64 too), and an entry inflated with the
 * platform's DecompressionStream.
 */

export function isZip(bytes) {
  return (
    bytes.length > 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 3 && bytes[3] === 4
  );
}

/** The entries of a zip archive from its central directory: name -> {method, offset, size}. */
export function zipEntries(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 65535); i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new Error("not a zip package (no end of central directory)");
  let count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  if (count === 0xffff || at === 0xffffffff) {
    // zip64: the locator sits right before the end record
    const locator = end - 20;
    if (view.getUint32(locator, true) !== 0x07064b50) throw new Error("a broken zip64 package");
    const end64 = Number(view.getBigUint64(locator + 8, true));
    count = Number(view.getBigUint64(end64 + 32, true));
    at = Number(view.getBigUint64(end64 + 48, true));
  }
  const names = new Map();
  const decoder = new TextDecoder();
  for (let e = 0; e < count; e++) {
    if (view.getUint32(at, true) !== 0x02014b50) throw new Error("a broken zip central directory");
    const method = view.getUint16(at + 10, true);
    let size = view.getUint32(at + 20, true);
    let offset = view.getUint32(at + 42, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const name = decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    if (size === 0xffffffff || offset === 0xffffffff) {
      let x = at + 46 + nameLength;
      const stop = x + extraLength;
      while (x + 4 <= stop) {
        const id = view.getUint16(x, true),
          length = view.getUint16(x + 2, true);
        if (id === 1) {
          let y = x + 4;
          if (view.getUint32(at + 24, true) === 0xffffffff) y += 8; // uncompressed size
          if (size === 0xffffffff) {
            size = Number(view.getBigUint64(y, true));
            y += 8;
          }
          if (offset === 0xffffffff) offset = Number(view.getBigUint64(y, true));
        }
        x += 4 + length;
      }
    }
    names.set(name, { method, size, offset });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}

/** One zip entry's bytes, inflated with the platform's DecompressionStream. */
export async function zipRead(bytes, entries, name) {
  const entry = entries.get(name);
  if (!entry) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(entry.offset, true) !== 0x04034b50)
    throw new Error("a broken zip entry: " + name);
  const start =
    entry.offset +
    30 +
    view.getUint16(entry.offset + 26, true) +
    view.getUint16(entry.offset + 28, true);
  const data = bytes.subarray(start, start + entry.size);
  if (entry.method === 0) return data;
  if (entry.method !== 8) throw new Error(`${name}: zip method ${entry.method} is not deflate`);
  const stream = new Blob([data]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
