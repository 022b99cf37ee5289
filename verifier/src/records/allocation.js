/**
 * The record of `xlshuffle allocate` (section 15).
 */

import { allocationList } from "../protocol/allocation.js";
import { baseName } from "../read/files.js";
import { findFile, loadFiles } from "./matching.js";
import { compareTable } from "./tables.js";
import { fail } from "./verdict.js";

export async function verifyAllocation(rec, files) {
  const o = rec.options || {};
  const loaded = await loadFiles(files);
  const rows = await allocationList(rec.seed, o.arms, o.ratio, o.n, o.block_sizes, o.strata || []);
  const names = (o.strata || []).map(([name]) => name);
  const output = findFile(loaded, rec.output_sha256, rec.output, "allocation list", false);
  await compareTable(
    [["Seq", ...names, "Block", "BlockSize", "Arm"]].concat(
      rows.map(([seq, combo, block, size, arm]) => [seq, ...combo, block, size, arm]),
    ),
    output,
  );
  if (rec.output_sha256 && output.sha !== rec.output_sha256)
    fail(
      `${output.name} holds the list but is not the file the draw wrote (SHA-256 ${output.sha}, the record says ${rec.output_sha256})`,
    );
  if (rec.rows !== undefined && rec.rows !== rows.length)
    fail(`the seed draws ${rows.length} rows, the record says ${rec.rows}`);
  const checked = [`every row of ${output.name} is what the seed draws`];
  if (rec.codes_only) {
    const codes = findFile(
      loaded,
      rec.codes_only_sha256,
      rec.codes_only,
      "concealment codes",
      false,
    );
    await compareTable(
      [["Seq", ...names, "Code"]].concat(
        rows.map(([seq, combo, , , , code]) => [seq, ...combo, code]),
      ),
      codes,
    );
    if (rec.codes_only_sha256 && codes.sha !== rec.codes_only_sha256)
      fail(`${codes.name} holds the codes but is not the file the draw wrote`);
    checked.push(`every concealment code of ${codes.name}`);
  }
  if (rec.redcap) {
    // REDCap's allocation table: the arm's number (1 for the first arm given), the strata
    const free = loaded.filter((f) => !f.used);
    const redcap =
      free.find((f) => rec.redcap_sha256 && f.sha === rec.redcap_sha256) ||
      free.find((f) => f.name === baseName(rec.redcap)) ||
      (free.length === 1 ? free[0] : null);
    if (!redcap) {
      checked.push(`(the REDCap table ${baseName(rec.redcap)} was not given, so not checked)`);
    } else {
      redcap.used = true;
      const number = new Map(o.arms.map((arm, i) => [arm, i + 1]));
      await compareTable(
        [["redcap_randomization_group", ...names]].concat(
          rows.map(([, combo, , , arm]) => [number.get(arm), ...combo]),
        ),
        redcap,
      );
      if (rec.redcap_sha256 && redcap.sha !== rec.redcap_sha256)
        fail(`${redcap.name} holds the REDCap table but is not the file the draw wrote`);
      checked.push(`every row of the REDCap table ${redcap.name}`);
    }
  }
  return {
    message: `Verified: allocation list (section 15), arms ${o.arms.join(", ")} in ratio ${o.ratio.join(":")}, ${o.n} per combination, with seed ${JSON.stringify(rec.seed)}. Checked: ${checked.join("; ")}.`,
    table: rows
      .slice(0, 200)
      .map(([seq, combo, block, size, arm]) => [
        `${combo.length ? combo.join(" ") + " " : ""}#${seq}`,
        `${arm} (block ${block} of size ${size})`,
      ]),
  };
}
