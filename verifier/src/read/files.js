/**
 * A file given to the page: its name and bytes, and its text.
 */

/** A file's bytes: File/Blob objects, or {name, bytes} (tests and the Draw log path). */
export async function readFile(file) {
  if (file instanceof Blob)
    return { name: file.name || "", bytes: new Uint8Array(await file.arrayBuffer()) };
  return {
    name: file.name || "",
    bytes: file.bytes instanceof Uint8Array ? file.bytes : new Uint8Array(file.bytes),
  };
}

/** A file name's extension, lower case, without its dot ("" when it has none). */
export function extensionOf(name) {
  const m = /\.([^.]*)$/.exec(name);
  return (m ? m[1] : "").toLowerCase();
}

export function baseName(path) {
  return String(path || "")
    .split(/[\\/]/)
    .pop();
}

export function decodeText(bytes) {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder("windows-1252").decode(bytes);
  }
}
