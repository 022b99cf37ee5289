/**
 * The verifier's layers: protocol/ (draw protocol v1) imports only itself, so that it stays
 * an implementation of the specification alone; read/ (the file readers) imports protocol/
 * and itself; records/ (the checks) imports the layers below it and itself; the pages' entries
 * (page.js, the verifier; reveal.js, the live reveal) import any of them, and nothing imports
 * an entry.
 */

import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";
import { posix } from "node:path";

const SRC = new URL("../src/", import.meta.url);
const BELOW = {
  protocol: ["protocol"],
  read: ["protocol", "read"],
  records: ["protocol", "read", "records"],
};

function modules() {
  return readdirSync(SRC, { recursive: true })
    .map((p) => p.split("\\").join("/"))
    .filter((p) => p.endsWith(".js"))
    .sort();
}

test("each layer imports only the layers below it, and itself", () => {
  const seen = [];
  for (const path of modules()) {
    const text = readFileSync(new URL(path, SRC), "utf-8");
    for (const m of text.matchAll(/^import \{[^}]*\} from "([^"]+)";$/gm)) {
      const target = posix.normalize(posix.join(posix.dirname(path), m[1]));
      const layer = path.includes("/") ? path.split("/")[0] : "page";
      const to = target.split("/")[0];
      assert.ok(!["page.js", "reveal.js"].includes(target), `${path} imports ${target}`);
      if (layer !== "page") assert.ok(BELOW[layer].includes(to), `${path} imports ${target}`);
      seen.push(`${layer} -> ${to}`);
    }
  }
  assert.ok(seen.includes("records -> read") && seen.includes("read -> protocol"));
});

test("no module is longer than 500 lines", () => {
  for (const path of modules()) {
    const lines = readFileSync(new URL(path, SRC), "utf-8").split("\n").length - 1;
    assert.ok(lines <= 500, `${path} has ${lines} lines`);
  }
});
