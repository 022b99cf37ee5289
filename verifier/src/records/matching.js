/**
 * The files given to the page matched to a record's input and output: by SHA-256, then
 * by name, then by order.
 */

import { sha256, toHex } from "../protocol/bytes.js";
import { baseName, readFile } from "../read/files.js";
import { fail } from "./verdict.js";

/** Match the given files to the record's input and output: by SHA-256, then by name, then by order. */
export async function matchFiles(rec, files) {
  const loaded = [];
  for (const f of files) {
    const { name, bytes } = await readFile(f);
    loaded.push({ name, bytes, sha: toHex(await sha256(bytes)) });
  }
  const pick = (sha, path, taken) => {
    const free = loaded.filter((f) => !taken.includes(f));
    return (
      free.find((f) => sha && f.sha === sha) ||
      free.find((f) => path && f.name === baseName(path)) ||
      null
    );
  };
  let input = pick(rec.input_sha256, rec.input, []);
  let output =
    rec.output || rec.output_sha256 ? pick(rec.output_sha256, rec.output, [input]) : null;
  const rest = loaded.filter((f) => f !== input && f !== output);
  if (!input && rest.length) input = rest.shift();
  if (!output && (rec.output || rec.output_sha256) && rest.length) output = rest.shift();
  // winners printed to the screen and saved by hand: the record names no output file
  if (
    !output &&
    !rec.output &&
    rec.command === "sample" &&
    loaded.length === 2 &&
    rest.length === 1
  )
    output = rest[0];
  return { input, output, loaded };
}

/** Load files and find the one a record names, by SHA-256 then by name. */
export async function loadFiles(files) {
  const loaded = [];
  for (const f of files) {
    const { name, bytes } = await readFile(f);
    loaded.push({ name, bytes, sha: toHex(await sha256(bytes)) });
  }
  return loaded;
}

export function findFile(loaded, sha, path, what, strict = true) {
  const free = loaded.filter((f) => !f.used);
  let file =
    free.find((f) => sha && f.sha === sha) || free.find((f) => path && f.name === baseName(path));
  if (!file && !strict && free.length === 1) file = free[0];
  if (!file) fail(`give the ${what} (${baseName(path)})`);
  if (strict && sha && file.sha !== sha)
    fail(
      `the ${what} ${file.name} is not the file the draw read: its SHA-256 is ${file.sha}, the record says ${sha}`,
    );
  file.used = true;
  return file;
}
